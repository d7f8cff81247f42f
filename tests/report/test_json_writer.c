/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of the JSON writer's fast paths (base/json.h): the last
 * bytes of a text checked in one overlapping step, members with keys
 * quoted at compile time, and texts kept escaped by address. Each must
 * write what the general path writes, byte for byte.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/json.h"
#include "capture.h"

/* A writer into memory; done() flushes, closes and hands the bytes. */
struct mem {
	struct kvet_jw *jw;
	struct capture cap;
};

static void mem_open(struct mem *m)
{
	capture_open(&m->cap);
	m->jw = malloc(sizeof(*m->jw));
	assert_non_null(m->jw);
	kvet_jw_init(m->jw, m->cap.fp);
}

static void mem_done(struct mem *m)
{
	kvet_jw_flush(m->jw);
	capture_close(&m->cap);
	free(m->jw);
}

static void mem_same(struct mem *a, struct mem *b)
{
	mem_done(a);
	mem_done(b);
	assert_int_equal(a->cap.len, b->cap.len);
	assert_memory_equal(a->cap.buf, b->cap.buf, a->cap.len);
	free(a->cap.buf);
	free(b->cap.buf);
}

/* Every length below 48 with a byte that needs an escape (or is not
 * ASCII) at every place: texts shorter than a block, and the last
 * partial block of longer ones, read in one step over checked bytes. */
static void test_tails(void **state)
{
	static const struct {
		const char *in, *out;
	} special[] = {
		{ "\"", "\\\"" }, { "\\", "\\\\" }, { "\t", "\\t" },
		{ "\x01", "\\u0001" }, { "\x7f", "\\u007f" },
		{ "\xc3\xa9", "\xc3\xa9" }, { "\xe2\x80\xa8", "\\u2028" },
		{ "\xff", "\xef\xbf\xbd" }, { "\xc3", "\xef\xbf\xbd" },
	};
	char want[128];
	size_t i, len, at, n;

	(void)state;
	for (i = 0; i < sizeof(special) / sizeof(special[0]); i++) {
		n = strlen(special[i].in);
		for (len = n; len < 48; len++) {
			for (at = 0; at + n <= len; at++) {
				/* exactly @len bytes, for the sanitizer */
				char *in = malloc(len);
				struct mem m;

				assert_non_null(in);
				memset(in, 'a', len);
				memcpy(in + at, special[i].in, n);
				snprintf(want, sizeof(want), "\"%.*s%s%.*s\"",
					 (int)at, in, special[i].out,
					 (int)(len - at - n), in + at + n);
				mem_open(&m);
				kvet_jw_string(m.jw, in, len);
				mem_done(&m);
				assert_int_equal(m.cap.len, strlen(want));
				assert_memory_equal(m.cap.buf, want, m.cap.len);
				free(m.cap.buf);
				free(in);
			}
		}
	}
	/* and plain texts of every length */
	for (len = 0; len < 48; len++) {
		char *in = malloc(len + 1);
		struct mem m;

		assert_non_null(in);
		memset(in, 'b', len);
		snprintf(want, sizeof(want), "\"%.*s\"", (int)len, in);
		mem_open(&m);
		kvet_jw_string(m.jw, in, len);
		mem_done(&m);
		assert_memory_equal(m.cap.buf, want, strlen(want));
		assert_int_equal(m.cap.len, strlen(want));
		free(m.cap.buf);
		free(in);
	}
}

/* One object of members at @depth levels, by the general writers (@fast
 * false) or by the constant keys. */
static void members(struct kvet_jw *jw, unsigned int depth, bool fast,
		    unsigned int i)
{
	unsigned int d;

	for (d = 0; d < depth; d++) {
		if (fast) {
			kvet_jw_key(jw, d ? KVET_JW_KEY("object")
					  : KVET_JW_ELEMENT);
			kvet_jw_value_open(jw, '{');
		} else {
			kvet_jw_open(jw, d ? "object" : NULL, '{');
		}
	}
	if (fast) {
		kvet_jw_key(jw, KVET_JW_KEY("kind"));
		kvet_jw_value_str(jw, "Deploy\"ment");
		kvet_jw_key(jw, KVET_JW_KEY("none"));
		kvet_jw_value_str(jw, NULL);
		kvet_jw_key(jw, KVET_JW_KEY("line"));
		kvet_jw_value_pos(jw, i);
		kvet_jw_key(jw, KVET_JW_KEY("related"));
		kvet_jw_value_open(jw, '[');
		kvet_jw_key(jw, KVET_JW_ELEMENT);
		kvet_jw_value_pos(jw, 0);
		kvet_jw_close(jw, ']');
		kvet_jw_key(jw, KVET_JW_KEY("empty"));
		kvet_jw_value_open(jw, '[');
		kvet_jw_close(jw, ']');
	} else {
		kvet_jw_str(jw, "kind", "Deploy\"ment");
		kvet_jw_str(jw, "none", NULL);
		kvet_jw_pos(jw, "line", i);
		kvet_jw_open(jw, "related", '[');
		kvet_jw_pos(jw, NULL, 0);
		kvet_jw_close(jw, ']');
		kvet_jw_open(jw, "empty", '[');
		kvet_jw_close(jw, ']');
	}
	for (d = 0; d < depth; d++)
		kvet_jw_close(jw, '}');
}

/* Constant keys write what kvet_jw_item() writes: at every depth the
 * writer has, and across the buffer's end (1000 objects of up to 1 KiB). */
static void test_keys(void **state)
{
	unsigned int depth, i;

	(void)state;
	/* the array, @depth objects and "related": KVET_JW_MAX_DEPTH */
	for (depth = 1; depth + 2 <= KVET_JW_MAX_DEPTH; depth++) {
		struct mem a, b;

		mem_open(&a);
		mem_open(&b);
		kvet_jw_open(a.jw, NULL, '[');
		kvet_jw_open(b.jw, NULL, '[');
		for (i = 0; i < 1000; i++) {
			members(a.jw, depth, false, i);
			members(b.jw, depth, true, i);
		}
		kvet_jw_close(a.jw, ']');
		kvet_jw_close(b.jw, ']');
		mem_same(&a, &b);
	}
}

/* Kept texts write what kvet_jw_value_str() writes: plain and escaped,
 * empty, too long to keep, NULL, and more than the writer keeps, so that
 * slots are taken over and the escaped bytes start again. */
static void test_kept(void **state)
{
	static const char *const fixed[] = {
		"", "apps/v1", "Deployment", "say \"hi\"", "tab\there",
		"caf\xc3\xa9", "bad \xff byte", "\xe2\x80\xa9", "ctl \x01",
		"back\\slash",
	};
	enum { N_FIXED = sizeof(fixed) / sizeof(fixed[0]), N_MANY = 3000 };
	char *many[N_MANY], *longs[3];
	const size_t long_len[3] = { 1024, 1025, 5000 };
	struct mem a, b;
	size_t i, round;

	(void)state;
	for (i = 0; i < N_MANY; i++) {
		many[i] = malloc(64);
		assert_non_null(many[i]);
		snprintf(many[i], 64, i % 3 ? "\"name-%zu\" is\ttaken" :
				       "plain-name-%zu", i);
	}
	for (i = 0; i < 3; i++) {
		longs[i] = malloc(long_len[i] + 1);
		assert_non_null(longs[i]);
		memset(longs[i], 'q', long_len[i]);
		longs[i][long_len[i] / 2] = '"';
		longs[i][long_len[i]] = '\0';
	}
	mem_open(&a);
	mem_open(&b);
	for (round = 0; round < 4; round++) {
		for (i = 0; i < N_MANY; i++) {
			const char *t[4] = {
				fixed[i % N_FIXED], many[i],
				many[(i * 7 + round) % N_MANY],
				i % 500 ? NULL : longs[(i / 500) % 3],
			};
			size_t k;

			for (k = 0; k < 4; k++) {
				kvet_jw_kept(a.jw, t[k]);
				kvet_jw_value_str(b.jw, t[k]);
			}
		}
	}
	mem_same(&a, &b);
	for (i = 0; i < N_MANY; i++)
		free(many[i]);
	for (i = 0; i < 3; i++)
		free(longs[i]);
}

/* Deeper than KVET_JW_MAX_DEPTH the writer promises no commas, but it
 * must write nothing outside its arrays (UBSan's bounds check in the
 * sanitizer build) and keep its brackets balanced. */
static void test_too_deep(void **state)
{
	enum { DEEP = KVET_JW_MAX_DEPTH + 8 };
	struct mem m;
	size_t i, open = 0, close = 0;

	(void)state;
	mem_open(&m);
	kvet_jw_open(m.jw, NULL, '{');
	for (i = 1; i < DEEP; i++)
		kvet_jw_open(m.jw, "k", '{');
	kvet_jw_str(m.jw, "a", "x");
	kvet_jw_str(m.jw, "b", "y");
	for (i = 0; i < DEEP; i++)
		kvet_jw_close(m.jw, '}');
	mem_done(&m);
	for (i = 0; i < m.cap.len; i++) {
		open += m.cap.buf[i] == '{';
		close += m.cap.buf[i] == '}';
	}
	assert_int_equal(open, DEEP);
	assert_int_equal(close, DEEP);
	free(m.cap.buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tails),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_kept),
		cmocka_unit_test(test_too_deep),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
