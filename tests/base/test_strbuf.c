/* SPDX-License-Identifier: Apache-2.0 */
/* The growable string: malloc'd and arena-backed, growth and formats. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/strbuf.h"

static void empty_is_empty(void **state)
{
	struct kvet_strbuf sb = KVET_STRBUF_INIT;
	struct kvet_arena a;
	char *s;

	(void)state;
	kvet_arena_init(&a);
	assert_string_equal(kvet_strbuf_str(&sb), "");
	s = kvet_strbuf_to_arena(&sb, &a);
	assert_non_null(s);
	assert_string_equal(s, "");
	assert_null(sb.buf);
	kvet_arena_release(&a);
}

/* Pieces past the first buffer, formatted ones among them. */
static void grows_in_both_memories(void **state)
{
	struct kvet_arena a;
	struct kvet_strbuf sb;
	char want[4096];
	size_t i, len = 0;
	int pass;
	char *s;

	(void)state;
	kvet_arena_init(&a);
	for (pass = 0; pass < 2; pass++) {
		kvet_strbuf_init(&sb, pass ? &a : NULL);
		len = 0;
		for (i = 0; i < 300; i++) {
			kvet_strbuf_addf(&sb, "%zu,", i);
			len += (size_t)snprintf(want + len, sizeof(want) - len,
						"%zu,", i);
		}
		kvet_strbuf_adds(&sb, "end");
		kvet_strbuf_add(&sb, "xyz", 1);
		memcpy(want + len, "endx", 5);
		assert_false(sb.oom);
		assert_int_equal(sb.len, strlen(want));
		assert_string_equal(kvet_strbuf_str(&sb), want);
		s = kvet_strbuf_to_arena(&sb, &a);
		assert_string_equal(s, want);
		assert_int_equal(sb.len, 0);
	}
	kvet_arena_release(&a);
}

/* A formatted piece longer than the room left: formatted again. */
static void addf_longer_than_room(void **state)
{
	struct kvet_strbuf sb = KVET_STRBUF_INIT;
	char big[200];

	(void)state;
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	kvet_strbuf_adds(&sb, "x");
	kvet_strbuf_addf(&sb, "[%s]", big);
	assert_int_equal(sb.len, 1 + 2 + strlen(big));
	assert_int_equal(sb.buf[sb.len - 1], ']');
	assert_int_equal(sb.buf[sb.len], '\0');
	kvet_strbuf_release(&sb);
	assert_null(sb.buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(empty_is_empty),
		cmocka_unit_test(grows_in_both_memories),
		cmocka_unit_test(addf_longer_than_room),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
