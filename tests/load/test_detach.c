/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Detaching trees from their input (src/load/detach.c) and the loading
 * in pieces that uses it (kvet_load_job_detach()): after it, no scalar
 * of an item points into the input, the trees are the same as those of
 * an ordinary load (kvet_node_same: shape, types, flags, positions,
 * text), and so they stay when the input's bytes are overwritten, or
 * its pages given back and read from the file again.
 */
#include "support.h"

#include <stdio.h>
#include <unistd.h>

#include "input/source.h"
#include "load/detach.h"
#include "load/node.h"

/* Does a scalar of @n's tree (a tree: no aliases) point into @buf? */
static bool points_into(const struct kvet_node *n, const char *buf,
			size_t len)
{
	uint32_t i;

	if (kvet_node_is_scalar(n))
		return n->len && n->u.str >= buf && n->u.str < buf + len;
	for (i = 0; i < n->len; i++)
		if (n->type == KVET_NODE_MAP
			    ? points_into(&n->u.pairs[i].key, buf, len) ||
				      points_into(&n->u.pairs[i].value, buf,
						  len)
			    : points_into(&n->u.items[i], buf, len))
			return true;
	return false;
}

static void detach_tree(void **state)
{
	static const char text[] =
		"a: plain\nb: [1, 2.5, true, null, ~]\nc:\n  a: x\n  b: ''\n"
		"d: \"quoted\"\ne: |\n  block\n";
	struct loaded *l = load_str(text), *ref = load_str(text);
	struct kvet_node *root = (struct kvet_node *)l->docs.v[0].root;
	const struct kvet_node *where, *inner;
	struct kvet_detach d;

	(void)state;
	kvet_detach_init(&d, &l->arena, l->buf, strlen(text));
	assert_int_equal(kvet_detach_tree(&d, root), 0);
	kvet_detach_release(&d);
	assert_false(points_into(root, l->buf, strlen(text)));
	/* keys are interned: the two "a" and the two "b" share a copy */
	inner = kvet_node_get(root, "c");
	assert_ptr_equal(root->u.pairs[0].key.u.str, inner->u.pairs[0].key.u.str);
	assert_ptr_equal(root->u.pairs[1].key.u.str, inner->u.pairs[1].key.u.str);
	/* values are NUL-terminated copies */
	assert_string_equal(kvet_node_get(root, "a")->u.str, "plain");
	memset(l->buf, 'x', strlen(text));
	assert_true(kvet_node_same(root, ref->docs.v[0].root, &where));
	loaded_free(l);
	loaded_free(ref);
}

/* Texts that end the input are read byte by byte, never past its NUL;
 * equal texts share one copy, different ones never. */
static void detach_at_end(void **state)
{
	static const char text[] = "k: ab\nl: abc\nm: ab\nn: abd";
	struct loaded *l = load_str(text);
	struct kvet_node *root = (struct kvet_node *)l->docs.v[0].root;
	struct kvet_detach d;

	(void)state;
	kvet_detach_init(&d, &l->arena, l->buf, strlen(text));
	/* a first size: at least the smallest, at most what is interned */
	kvet_detach_reserve(&d, (size_t)1 << 30);
	assert_int_equal(d.firstcap, (size_t)1 << 17);
	kvet_detach_reserve(&d, 3);
	assert_int_equal(d.firstcap, 4096);
	assert_int_equal(kvet_detach_tree(&d, root), 0);
	assert_int_equal(d.captext, 4096);
	kvet_detach_release(&d);
	assert_false(points_into(root, l->buf, strlen(text)));
	assert_ptr_equal(kvet_node_get(root, "k")->u.str,
			 kvet_node_get(root, "m")->u.str);
	assert_string_equal(kvet_node_get(root, "l")->u.str, "abc");
	assert_string_equal(kvet_node_get(root, "n")->u.str, "abd");
	loaded_free(l);
}

/* A List of @n items, as kubectl -o yaml or -o json prints it; *@items
 * and *@tail: where the first item and what follows the items start. */
static char *make_list(size_t n, bool json, size_t *len, size_t *items,
		       size_t *tail)
{
	char *buf = NULL;
	size_t cap = 0, i;
	FILE *f = open_memstream(&buf, &cap);

	assert_non_null(f);
	fputs(json ? "{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n"
		   : "apiVersion: v1\nitems:\n",
	      f);
	fflush(f);
	*items = cap;
	for (i = 0; i < n; i++)
		fprintf(f,
			json ? "%s        {\n            \"kind\": \"ConfigMap\",\n"
			       "            \"metadata\": {\"name\": \"cm-%zu\", "
			       "\"labels\": {\"app\": \"a%zu\"}},\n"
			       "            \"data\": {\"k\": \"v\\n%zu\", "
			       "\"n\": [1, 2.5, true, null, \"\"]}\n        }"
			     : "%s- kind: ConfigMap\n  metadata:\n    name: cm-%zu\n"
			       "    labels:\n      app: a%zu\n  data:\n"
			       "    k: |\n      v\n      %zu\n"
			       "    n:\n    - 1\n    - 2.5\n    - true\n    - null\n"
			       "    - ''\n    e: {}\n",
			json && i ? ",\n" : "", i, i % 7, i);
	fflush(f);
	*tail = cap;
	fputs(json ? "\n    ],\n    \"kind\": \"List\"\n}\n" : "kind: List\n", f);
	assert_int_equal(fclose(f), 0);
	*len = cap;
	return buf;
}

/* Load @buf in pieces of @piece bytes, detached (its pages given back
 * when @give_back), and compare with an ordinary load of @ref; then
 * overwrite the items' text when @wipe. */
static void check_job(char *buf, size_t len, const char *ref, bool give_back,
		      size_t piece, size_t wipe_from, size_t wipe_to)
{
	struct loaded *want = load_bytes(ref, len);
	struct kvet_arena arena;
	struct kvet_diag diag;
	struct kvet_docs docs = { 0 };
	struct kvet_load_job *job;
	const struct kvet_node *where, *items;
	size_t i;

	kvet_arena_init(&arena);
	kvet_diag_init(&diag, &arena);
	job = kvet_load_job_create_sized(&arena, &diag, "t.yaml", buf, len,
					 NULL, piece);
	assert_non_null(job);
	assert_true(kvet_load_job_pieces(job) > 1);
	kvet_load_job_detach(job, give_back);
	for (i = 0; i < kvet_load_job_pieces(job); i++)
		assert_int_equal(kvet_load_job_piece(job, i), 0);
	assert_int_equal(kvet_load_job_finish(job, &docs), 0);
	kvet_load_job_destroy(job);
	assert_int_equal(diag.n, 0);
	assert_int_equal(docs.n, 1);
	items = kvet_node_get(docs.v[0].root, "items");
	assert_non_null(items);
	assert_true(items->len > 0);
	assert_false(points_into(items, buf, len));
	/* the items' text is theirs now; only the head and tail read buf */
	if (wipe_to > wipe_from)
		memset(buf + wipe_from, 'x', wipe_to - wipe_from);
	assert_true(kvet_node_same(docs.v[0].root, want->docs.v[0].root,
				   &where));
	kvet_docs_release(&docs);
	kvet_diag_release(&diag);
	kvet_arena_release(&arena);
	loaded_free(want);
}

static void job_in_memory(bool json)
{
	size_t len, items, tail;
	char *buf = make_list(2000, json, &len, &items, &tail);
	char *ref = malloc(len + 1);

	assert_non_null(ref);
	memcpy(ref, buf, len + 1);
	check_job(buf, len, ref, false, 16 * 1024, items, tail);
	free(buf);
	free(ref);
}

static void job_yaml(void **state)
{
	(void)state;
	job_in_memory(false);
}

static void job_json(void **state)
{
	(void)state;
	job_in_memory(true);
}

/* A file large enough to be mapped (input/source.c): its pages are given
 * back as pieces are parsed, and read again they are what the file holds. */
static void job_mapped(bool json)
{
	char path[] = "/tmp/kvet-test-detach-XXXXXX";
	struct kvet_sources srcs = { 0 };
	struct kvet_arena arena;
	struct kvet_diag diag;
	size_t len, items, tail;
	char *text = make_list(30000, json, &len, &items, &tail);
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_true(write(fd, text, len) == (ssize_t)len);
	assert_int_equal(close(fd), 0);
	kvet_arena_init(&arena);
	kvet_diag_init(&diag, &arena);
	assert_int_equal(kvet_sources_add_path(&srcs, &arena, &diag, path), 0);
	assert_int_equal(srcs.n, 1);
	assert_int_equal(kvet_source_read(&srcs.v[0], &diag, len + 1, 0), 0);
	assert_true(srcs.v[0].mapped);
	assert_int_equal(srcs.v[0].len, len);
	assert_int_equal(srcs.v[0].buf[len], '\0');
	check_job(srcs.v[0].buf, len, text, true, 64 * 1024, 0, 0);
	assert_memory_equal(srcs.v[0].buf, text, len);
	kvet_sources_release(&srcs);
	kvet_diag_release(&diag);
	kvet_arena_release(&arena);
	unlink(path);
	free(text);
}

static void mapped_yaml(void **state)
{
	(void)state;
	job_mapped(false);
}

static void mapped_json(void **state)
{
	(void)state;
	job_mapped(true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(detach_tree),
		cmocka_unit_test(detach_at_end),
		cmocka_unit_test(job_yaml),
		cmocka_unit_test(job_json),
		cmocka_unit_test(mapped_yaml),
		cmocka_unit_test(mapped_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
