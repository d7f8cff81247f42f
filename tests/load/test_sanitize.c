/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The sanitizer (src/load/sanitize.c) skips plain ASCII a block of 64
 * bytes, then a word of 8, at a time: what it finds must not depend on
 * where a block or a word starts. Each case puts a bad sequence at every
 * offset of a text of short lines, across and at the ends of blocks, and
 * compares the result with a byte at a time model of the same rules.
 */
#include "support.h"

#include <stdlib.h>

#include "base/utf8.h"
#include "load/sanitize.h"

#define MAX_BAD 64

struct model {
	size_t offsets[MAX_BAD];
	uint32_t line[MAX_BAD], col[MAX_BAD];
	bool is_nul[MAX_BAD];
	size_t n;
};

/* One character at a time: a NUL or an invalid sequence is one bad byte,
 * replaced by '?' and counted as a column; one per line is kept. */
static void model_run(unsigned char *s, size_t len, struct model *m)
{
	uint32_t line = 1, col = 1, last_line = 0;
	size_t i = 0, n;
	uint32_t cp;

	m->n = 0;
	while (i < len) {
		if (s[i] == '\n') {
			line++, col = 1, i++;
			continue;
		}
		n = s[i] ? kvet_utf8_next((const char *)s + i, len - i, &cp) : 1;
		if (s[i] && !(cp == KVET_UTF8_REPLACEMENT && n == 1)) {
			col++, i += n;
			continue;
		}
		if (line != last_line) {
			assert_true(m->n < MAX_BAD);
			m->offsets[m->n] = i;
			m->line[m->n] = line;
			m->col[m->n] = col;
			m->is_nul[m->n] = s[i] == '\0';
			m->n++;
		}
		last_line = line;
		s[i] = '?';
		col++, i++;
	}
}

/* kvet_utf8_sanitize() on @s[0, @len) with @max_detail, against the
 * model: the same offsets, positions, kinds and bytes after. */
static void check(const unsigned char *s, size_t len, size_t max_detail)
{
	unsigned char *a = malloc(len + 1), *b = malloc(len + 1);
	struct kvet_utf8_fix fix = { 0 };
	struct model m;
	size_t i;

	assert_non_null(a);
	assert_non_null(b);
	memcpy(a, s, len);
	memcpy(b, s, len);
	model_run(b, len, &m);
	assert_int_equal(kvet_utf8_sanitize((char *)a, len, max_detail, &fix),
			 0);
	assert_memory_equal(a, b, len);
	assert_int_equal(fix.n, m.n);
	assert_int_equal(fix.ndetail, m.n < max_detail ? m.n : max_detail);
	for (i = 0; i < fix.n; i++)
		assert_int_equal(fix.offsets[i], m.offsets[i]);
	for (i = 0; i < fix.ndetail; i++) {
		assert_int_equal(fix.v[i].offset, m.offsets[i]);
		assert_int_equal(fix.v[i].line, m.line[i]);
		assert_int_equal(fix.v[i].col, m.col[i]);
		assert_int_equal(fix.v[i].is_nul, m.is_nul[i]);
	}
	kvet_utf8_fix_release(&fix);
	free(a);
	free(b);
}

/* @len bytes of ASCII in lines of 1 to 23 bytes, with an "é" (two bytes,
 * one column) now and then when @accents. */
static unsigned char *base_text(size_t len, bool accents)
{
	unsigned char *s = malloc(len);
	size_t i, w = 0;

	assert_non_null(s);
	for (i = 0; i < len; i++) {
		if (i % 29 == 28 || (w && (i * 7) % 23 == 0)) {
			s[i] = '\n';
			w = 0;
		} else if (accents && i % 41 == 5 && i + 1 < len) {
			s[i++] = 0xc3;
			s[i] = 0xa9;
			w++;
		} else {
			s[i] = (unsigned char)('a' + i % 26);
			w++;
		}
	}
	return s;
}

/* Bad sequences of one to three bytes (a truncated or overlong form, a
 * surrogate, a stray continuation byte, a NUL), and a valid one, at
 * every offset of texts a little longer than two blocks. */
static void bad_at_every_offset(void **state)
{
	static const struct {
		const char *bytes;
		size_t n;
	} seqs[] = {
		{ "\xff", 1 }, { "\0", 1 }, { "\x80", 1 }, { "\xc3", 1 },
		{ "\xc0\xaf", 2 }, { "\xed\xa0\x80", 3 }, { "\xe2\x82", 2 },
		{ "\xe2\x82\xac", 3 }, { "\xf0\x9f\x98\x80", 4 },
	};
	static const size_t lens[] = { 1, 7, 8, 9, 63, 64, 65, 127, 128,
				       129, 150 };
	size_t li, k, at, acc;

	(void)state;
	for (acc = 0; acc < 2; acc++) {
		for (li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
			size_t len = lens[li];
			unsigned char *s = base_text(len, acc);

			check(s, len, SIZE_MAX);
			for (k = 0; k < sizeof(seqs) / sizeof(seqs[0]); k++) {
				for (at = 0; at + seqs[k].n <= len; at++) {
					unsigned char *t = malloc(len);

					assert_non_null(t);
					memcpy(t, s, len);
					memcpy(t + at, seqs[k].bytes, seqs[k].n);
					check(t, len, SIZE_MAX);
					free(t);
				}
			}
			free(s);
		}
	}
}

/* Many bad bytes, some on one line, some in one block, the last byte
 * bad: every line's first counted, the positions of the first two kept. */
static void many_bad(void **state)
{
	unsigned char *s = base_text(300, true);
	size_t i;

	(void)state;
	for (i = 0; i < 300; i += 13)
		s[i] = i % 2 ? 0xfe : 0;
	s[63] = s[64] = 0xff;
	s[299] = 0x80;
	check(s, 300, SIZE_MAX);
	check(s, 300, 2);
	check(s, 300, 0);
	free(s);
}

/* A byte order mark that starts a document after a "---" line, wherever
 * it falls against a block: its offset is recorded, and nothing else. */
static void bom_across_blocks(void **state)
{
	size_t at;

	(void)state;
	for (at = 50; at < 140; at++) {
		unsigned char s[200];
		struct kvet_utf8_fix fix = { 0 };
		size_t len = at + 3 + 5;

		memset(s, 'x', at);
		memcpy(s + at - 4, "---\n", 4);
		s[at - 5] = '\n';
		memcpy(s + at, "\xef\xbb\xbf" "a: 1\n", 8);
		assert_int_equal(kvet_utf8_sanitize((char *)s, len, SIZE_MAX,
						    &fix),
				 0);
		assert_int_equal(fix.n, 0);
		assert_int_equal(fix.nboms, 1);
		assert_int_equal(fix.boms[0], at);
		kvet_utf8_fix_release(&fix);
		/* not at a line start: valid UTF-8, no document starts */
		s[at - 1] = 'y';
		assert_int_equal(kvet_utf8_sanitize((char *)s, len, SIZE_MAX,
						    &fix),
				 0);
		assert_int_equal(fix.n + fix.nboms, 0);
		kvet_utf8_fix_release(&fix);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bad_at_every_offset),
		cmocka_unit_test(many_bad),
		cmocka_unit_test(bom_across_blocks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
