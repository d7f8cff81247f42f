/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The JSON fast path against the libfyaml path: on what it takes, the
 * same trees (kvet_node_same: shape, types, flags, line:column, text);
 * on what it leaves to libfyaml, nothing loaded and the arena as it was.
 */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/json.h"
#include "load/load.h"
#include "load/node.h"

/* Load @text both ways; the fast path must take it and agree. */
static void assert_same(const char *text)
{
	size_t len = strlen(text), i;
	char *copy = malloc(len + 1);
	struct kvet_arena a1, a2;
	struct kvet_diag d2;
	struct kvet_docs fast = { 0 }, slow = { 0 };

	assert_non_null(copy);
	memcpy(copy, text, len + 1);
	kvet_arena_init(&a1);
	kvet_arena_init(&a2);
	kvet_diag_init(&d2, &a2);
	assert_int_equal(kvet_json_load(&a1, text, len, &fast, NULL), 1);
	assert_int_equal(kvet_load_buffer_fyaml(&a2, &d2, "t.json", copy, len,
						&slow), 0);
	if (d2.n)
		fail_msg("libfyaml path: %s", d2.errors[0].message);
	assert_int_equal(fast.n, slow.n);
	for (i = 0; i < fast.n; i++) {
		const struct kvet_node *where;

		assert_int_equal(fast.v[i].index, slow.v[i].index);
		if (!kvet_node_same(fast.v[i].root, slow.v[i].root, &where))
			fail_msg("document %zu differs at %u:%u: %s", i,
				 where ? where->line : 0,
				 where ? where->col : 0, text);
	}
	kvet_docs_release(&fast);
	kvet_docs_release(&slow);
	kvet_diag_release(&d2);
	kvet_arena_release(&a1);
	kvet_arena_release(&a2);
	free(copy);
}

/* The fast path leaves @text to libfyaml, and loads nothing itself. */
static void assert_declined(const char *text)
{
	struct kvet_arena a;
	struct kvet_docs docs = { 0 };
	size_t before;

	kvet_arena_init(&a);
	/* something allocated before must survive the reset */
	assert_non_null(kvet_arena_strdup(&a, "kept"));
	before = a.total;
	if (kvet_json_load(&a, text, strlen(text), &docs, NULL) != 0)
		fail_msg("taken: %s", text);
	assert_int_equal(docs.n, 0);
	assert_true(a.total <= before);
	kvet_docs_release(&docs);
	kvet_arena_release(&a);
}

static void test_same_trees(void **state)
{
	static const char *const cases[] = {
		"{}",
		"[]",
		"{\"a\": {}, \"b\": [], \"c\": [{}], \"d\": [[]]}",
		"{\"apiVersion\": \"v1\", \"kind\": \"Pod\",\n"
		"  \"metadata\": {\"name\": \"a\", \"labels\": {\"x\": \"1\"}}}\n",
		/* every scalar type, as kvet_scalar_type() reads them */
		"[0, -0, 1, -12, 3.5, -0.25, 1e3, 1E-3, 2.5e+10, 0e0, true,"
		" false, null, \"\", \"true\", \"1\", \"null\"]",
		/* escapes, unescaped into the arena */
		"{\"s\": \"a\\\"b\\\\c\\/d\\be\\ff\\ng\\rh\\ti\","
		" \"u\": \"\\u00e9\\u20ac\\ud83d\\ude00\\u0041\"}",
		/* columns count characters, not bytes */
		"{\"\xc3\xa9t\xc3\xa9\": \"\xe2\x82\xac\", \"b\": [1, \"\xf0\x9f\x98\x80\", 2]}",
		/* tabs, CRLF, a key and its colon on different lines */
		"{\r\n\t\"a\":\t[\r\n\t\t1,\r\n\t\t2\r\n\t],\r\n\t\"b\"\r\n : 3\r\n}\r\n",
		/* concatenated values and NDJSON are documents */
		"{\"a\": 1}{\"b\": 2}\n[3]\n\n  {\"c\": [4]}  \n",
		"{\"kind\": \"Pod\"}\n{\"kind\": \"Service\"}\n",
		/* managedFields goes in objects and List items, stays elsewhere */
		"{\"metadata\": {\"name\": \"a\", \"managedFields\": [{\"manager\": \"x\","
		" \"fieldsV1\": {\"f:a\": {}}}], \"uid\": \"u\"},"
		" \"spec\": {\"managedFields\": [1]}}",
		"{\"apiVersion\": \"v1\", \"items\": [{\"metadata\": {\"managedFields\":"
		" {\"a\": [1, {\"b\": \"\\u00e9\"}]}, \"name\": \"x\"}}, {\"metadata\":"
		" {\"managedFields\": null}}], \"kind\": \"List\"}",
		"[{\"metadata\": {\"managedFields\": []}}, [{\"metadata\":"
		" {\"managedFields\": []}}]]",
		/* a key YAML would call too long for a simple key is fine */
		"{\"kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk"
		"kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk\": 1}",
		/* "<<" is a plain key in JSON: quoted, so no merge */
		"{\"<<\": {\"a\": 1}, \"b\": 2}",
		/* seventeen keys: the hashed duplicate check */
		"{\"k1\": 1, \"k2\": 2, \"k3\": 3, \"k4\": 4, \"k5\": 5, \"k6\": 6,"
		" \"k7\": 7, \"k8\": 8, \"k9\": 9, \"k10\": 10, \"k11\": 11,"
		" \"k12\": 12, \"k13\": 13, \"k14\": 14, \"k15\": 15, \"k16\": 16,"
		" \"k17\": 17}",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_same(cases[i]);
}

static void test_declined(void **state)
{
	static const char *const cases[] = {
		"",
		"   \n",
		"apiVersion: v1\n",
		"\"just a string\"",
		"5",
		/* YAML flow and errors: libfyaml reports them */
		"{a: 1}",
		"{\"a\": 1,}",
		"[1, 2,]",
		"{\"a\" 1}",
		"{\"a\": 1",
		"[1, 2",
		"{\"a\": 1}\n---\n{\"b\": 2}",
		"{\"a\": 1} # comment",
		"{\"a\": 1}\nkind: Pod\n",
		"{\"a\": 'single'}",
		"{\"a\": 01}",
		"{\"a\": 1.}",
		"{\"a\": .5}",
		"{\"a\": +1}",
		"{\"a\": 1e}",
		"{\"a\": -}",
		"{\"a\": tru}",
		"{\"a\": truex}",
		"{\"a\": NaN}",
		"{\"a\": \"\\x41\"}",
		"{\"a\": \"\\u00zz\"}",
		"{\"a\": \"\\u0000\"}",
		"{\"a\": \"\\ud800\"}",
		"{\"a\": \"\\udc00\"}",
		"{\"a\": \"\\ud800\\u0041\"}",
		"{\"a\": \"raw\ttab\"}",
		"{\"a\": \"unterminated}",
		"{1: 2}",
		"{\"a\": 1, \"a\": 2}",
		"{\"k1\": 1, \"k2\": 2, \"k3\": 3, \"k4\": 4, \"k5\": 5, \"k6\": 6,"
		" \"k7\": 7, \"k8\": 8, \"k9\": 9, \"k10\": 10, \"k11\": 11,"
		" \"k12\": 12, \"k13\": 13, \"k14\": 14, \"k15\": 15, \"k16\": 16,"
		" \"k1\": 17}",
		/* characters YAML reads as line breaks, a lone CR, a BOM */
		"{\"a\": \"x\xe2\x80\xa8y\"}",
		"{\"a\": \"x\xc2\x85y\"}",
		"{\"a\": 1,\r\"b\": 2}",
		"{\"a\": \"\xef\xbb\xbf\"}",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_declined(cases[i]);
}

/* Deeper than the loader's limit: libfyaml's path reports it. */
static void test_depth(void **state)
{
	size_t depth = KVET_LOAD_MAX_DEPTH + 1, i;
	char *text = malloc(2 * depth + 1);

	(void)state;
	assert_non_null(text);
	for (i = 0; i < depth; i++) {
		text[i] = '[';
		text[2 * depth - 1 - i] = ']';
	}
	text[2 * depth] = '\0';
	assert_declined(text);
	/* the deepest the loader takes */
	text[depth - 1] = ' ';
	text[depth] = ' ';
	assert_same(text);
	free(text);
}

/* A kubectl List through the whole pipeline: objects and positions. */
static void test_list_objects(void **state)
{
	struct loaded *l = load_str(
		"{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n"
		"        {\n            \"apiVersion\": \"v1\",\n"
		"            \"kind\": \"Pod\",\n"
		"            \"metadata\": {\"name\": \"a\", \"namespace\": \"n\"}\n"
		"        },\n"
		"        {\"apiVersion\": \"v1\", \"kind\": \"Service\","
		" \"metadata\": {\"name\": \"s\"}}\n"
		"    ],\n    \"kind\": \"List\",\n"
		"    \"metadata\": {\"resourceVersion\": \"\"}\n}\n");

	(void)state;
	assert_int_equal(l->diag.n, 0);
	assert_int_equal(l->objs.n, 2);
	assert_string_equal(l->objs.v[0]->name, "a");
	assert_int_equal(l->objs.v[0]->line, 4);
	assert_int_equal(l->objs.v[0]->col, 9);
	assert_string_equal(l->objs.v[1]->kind, "Service");
	assert_int_equal(l->objs.v[1]->line, 9);
	loaded_free(l);
}

/*
 * Strings are scanned a word of 8 bytes at a time, and indentation after
 * a line break too: an escape, a non-ASCII character or the closing quote
 * at every offset within and around a word, after every amount of
 * indentation, must give the tree and columns libfyaml gives.
 */
static void test_word_offsets(void **state)
{
	static const char *const specials[] = { "\\n", "\\u00e9", "\xc3\xa9",
						"\xe2\x82\xac", "\\\"", "" };
	size_t k, at, ind;

	(void)state;
	for (k = 0; k < sizeof(specials) / sizeof(specials[0]); k++) {
		for (at = 0; at < 19; at++) {
			for (ind = 0; ind < 19; ind += 3) {
				char text[160];

				snprintf(text, sizeof(text),
					 "{\"k\": [\n%*s\"%.*s%s%.*s\",\n%*s"
					 "\"\xc3\xa9%.*s\"]}\n",
					 (int)ind, "", (int)at,
					 "abcdefghijklmnopqrstu", specials[k],
					 (int)(at % 5), "xyzwv", (int)(ind + 1),
					 "", (int)at, "abcdefghijklmnopqrstu");
				assert_same(text);
			}
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_trees),
		cmocka_unit_test(test_declined),
		cmocka_unit_test(test_depth),
		cmocka_unit_test(test_list_objects),
		cmocka_unit_test(test_word_offsets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
