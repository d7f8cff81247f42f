/* SPDX-License-Identifier: Apache-2.0 */
/*
 * load/quoted.c: the text of quoted scalars made of a few pieces
 * (escapes, white space, line breaks, CR LF, empty lines) in both styles,
 * as PyYAML reads them; the escapes left to libfyaml; and the scalars on
 * which libfyaml 0.7.12 leaks, loaded whole (the sanitizer build fails
 * the test on a leak).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "load/node.h"
#include "load/quoted.h"

static const char *cases_path;

static size_t unhex(const char *h, char *out, size_t room)
{
	size_t n = 0;
	unsigned int b;

	while (h[0] && h[1] && n < room && sscanf(h, "%2x", &b) == 1) {
		out[n++] = (char)b;
		h += 2;
	}
	return n;
}

/*
 * Every case of quoted-cases.txt (made by gen_quoted_cases.py, PyYAML the
 * oracle) decodes to its text, but for the escapes left to libfyaml.
 * libfyaml 0.7.12 is no oracle: it drops an escaped space or tab before a
 * line break, folds a blank multi-line scalar and a last CR LF line break
 * otherwise, and misreads escaped single quotes.
 */
static void test_cases(void **state)
{
	char line[1024], q[4], bh[400], wh[400], body[200], want[200];
	char got[400];
	size_t checked = 0;
	FILE *fp = fopen(cases_path, "r");

	(void)state;
	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp)) {
		size_t nb, nw;
		long ng;

		wh[0] = '\0';
		assert_true(sscanf(line, "%1s\t%399s\t%399s", q, bh, wh) >= 2);
		nb = unhex(bh, body, sizeof(body));
		nw = unhex(wh, want, sizeof(want));
		assert_true(kvet_quoted_room(nb) <= sizeof(got));
		ng = kvet_quoted_text(q[0] == '"', body, nb, got);
		if (ng < 0)
			continue;
		if ((size_t)ng != nw || memcmp(got, want, nw))
			fail_msg("%s%.*s%s: want \"%.*s\", kvet \"%.*s\"", q,
				 (int)nb, body, q, (int)nw, want, (int)ng, got);
		checked++;
	}
	fclose(fp);
	assert_true(checked > 2500);
}

/* A surrogate pair is one character, as JSON writes it and libfyaml
 * reads it (PyYAML, a YAML 1.1 reader, keeps the two halves). */
static void test_surrogate_pairs(void **state)
{
	static const struct {
		const char *body, *text;
	} cases[] = {
		{ "\\ud83d\\ude00", "\xf0\x9f\x98\x80" },
		{ "a\\uD83D\\uDE00b", "a\xf0\x9f\x98\x80" "b" },
		{ "\\udbff\\udfff", "\xf4\x8f\xbf\xbf" },
	};
	char out[64];
	size_t i;
	long n;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		n = kvet_quoted_text(true, cases[i].body, strlen(cases[i].body),
				     out);
		assert_int_equal(n, strlen(cases[i].text));
		assert_memory_equal(out, cases[i].text, (size_t)n);
	}
}

/* Left to libfyaml: a NUL would end the text early for C readers, and
 * lone surrogates and code points past U+10FFFF are not characters. */
static void test_left_to_libfyaml(void **state)
{
	static const char *const bodies[] = {
		"a\\0b", "\\x00", "\\uD800", "\\uD800x", "\\uDC00\\uD800",
		"\\uD800\\u0041", "\\UDFFF0000", "\\U00110000", "\\q",
		"\\x4", "\\",
	};
	char out[64];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bodies) / sizeof(*bodies); i++)
		assert_int_equal(kvet_quoted_text(true, bodies[i],
						  strlen(bodies[i]), out), -1);
}

/*
 * Found by fuzz_json: libfyaml 0.7.12 leaks 512 bytes on a quoted scalar
 * that ends in more than eight empty CR LF lines. The loader decodes it
 * itself; the tree holds the text the spec gives.
 */
static void test_fuzz_trailing_crlf_lines(void **state)
{
	static const struct {
		const char *yaml, *text;
	} cases[] = {
		{ "k: \"x\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\n\"\r\n",
		  "x\n\n\n\n\n\n\n\n\n" },
		{ "k: 'x\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\n'\r\n",
		  "x\n\n\n\n\n\n\n\n\n" },
		{ "\"\n\r\n\r\r\n\n\n\n\n\"", NULL },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct loaded *l = load_str(cases[i].yaml);
		const struct kvet_node *k;

		assert_int_equal(l->docs.n, 1);
		k = cases[i].text ? kvet_node_get(l->docs.v[0].root, "k")
				  : l->docs.v[0].root;
		assert_non_null(k);
		if (cases[i].text && !kvet_node_text_eq(k, cases[i].text))
			fail_msg("%zu: \"%.*s\"", i, (int)k->len, k->u.str);
		loaded_free(l);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_surrogate_pairs),
		cmocka_unit_test(test_left_to_libfyaml),
		cmocka_unit_test(test_fuzz_trailing_crlf_lines),
	};

	if (argc != 2) {
		fprintf(stderr, "usage: test_quoted quoted-cases.txt\n");
		return 2;
	}
	cases_path = argv[1];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
