/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What libfyaml cannot count (issue 22 item 6): more than INT32_MAX lines
 * or a line longer than INT32_MAX bytes never finishes parsing. Inputs of
 * gigabytes cannot be in a test: kvet_load_countable() is given small
 * limits here, the real ones are constants (load/countable.h).
 */
#include "support.h"

#include "load/countable.h"

struct check {
	struct kvet_arena arena;
	struct kvet_diag diag;
};

/* kvet_load_countable() on @text with the limits; the error, if any, in
 * @c->diag. */
static bool countable(struct check *c, const char *text, size_t max_lines,
		      size_t max_line)
{
	kvet_arena_init(&c->arena);
	kvet_diag_init(&c->diag, &c->arena);
	return kvet_load_countable(&c->diag, "big.yaml", text, strlen(text),
				   max_lines, max_line);
}

static void done(struct check *c)
{
	kvet_diag_release(&c->diag);
	kvet_arena_release(&c->arena);
}

static void test_within_limits(void **state)
{
	struct check c;

	(void)state;
	/* four lines of at most 3 bytes; the last line break starts none */
	assert_true(countable(&c, "a: 1\nb\n\nc\n", 4, 4));
	assert_int_equal(c.diag.n, 0);
	done(&c);
	assert_true(countable(&c, "abcd", 1, 4));
	done(&c);
	assert_true(countable(&c, "", 1, 1));
	done(&c);
	/* many short lines crossed a window at a time */
	assert_true(countable(&c, "\n\n\n\n\n\n\n\n\n\nab\n\n\n", 20, 2));
	assert_int_equal(c.diag.n, 0);
	done(&c);
}

static void test_too_many_lines(void **state)
{
	struct check c;

	(void)state;
	assert_false(countable(&c, "a\nb\nc\nd\ne\n", 4, 10));
	assert_int_equal(c.diag.n, 1);
	assert_string_equal(c.diag.errors[0].pos.file, "big.yaml");
	assert_int_equal(c.diag.errors[0].pos.line, 5);
	assert_int_equal(c.diag.errors[0].pos.column, 1);
	assert_string_equal(c.diag.errors[0].message,
			    "more lines than the YAML parser can count (4): the input is not loaded");
	done(&c);
	/* blank lines count as well */
	assert_false(countable(&c, "\n\n\n\n\n", 4, 10));
	assert_int_equal(c.diag.errors[0].pos.line, 5);
	done(&c);
}

static void test_line_too_long(void **state)
{
	struct check c;

	(void)state;
	assert_false(countable(&c, "ab\n\nabcdef\nx\n", 10, 5));
	assert_int_equal(c.diag.n, 1);
	assert_int_equal(c.diag.errors[0].pos.line, 3);
	assert_int_equal(c.diag.errors[0].pos.column, 6);
	assert_string_equal(c.diag.errors[0].message,
			    "line longer than the YAML parser can count (5 bytes): the input is not loaded");
	done(&c);
	/* a one-line input (a JSON document on one line) */
	assert_false(countable(&c, "{\"a\": [1, 2, 3]}", 10, 8));
	assert_int_equal(c.diag.errors[0].pos.line, 1);
	assert_int_equal(c.diag.errors[0].pos.column, 9);
	done(&c);
	/* exactly the limit is fine, one byte more is not */
	assert_true(countable(&c, "abcde\nabcde", 10, 5));
	done(&c);
	assert_false(countable(&c, "abcde\nabcdef", 10, 5));
	assert_int_equal(c.diag.errors[0].pos.line, 2);
	done(&c);
}

/* Whichever limit the input passes first is the one reported. */
static void test_first_overflow_wins(void **state)
{
	struct check c;

	(void)state;
	assert_false(countable(&c, "a\nb\nc\nabcdefgh\n", 3, 4));
	assert_int_equal(c.diag.errors[0].pos.line, 4);
	assert_int_equal(c.diag.errors[0].pos.column, 1);
	done(&c);
	assert_false(countable(&c, "abcdefgh\nb\nc\nd\n", 3, 4));
	assert_int_equal(c.diag.errors[0].pos.line, 1);
	assert_int_equal(c.diag.errors[0].pos.column, 5);
	done(&c);
}

/* Past the 1 MB blocks in which newlines are counted. */
static void test_large(void **state)
{
	size_t len = (size_t)3 << 20, i;
	char *buf = malloc(len + 1);
	struct check c;

	(void)state;
	assert_non_null(buf);
	for (i = 0; i < len; i++)
		buf[i] = i % 2 ? '\n' : 'x';
	buf[len] = '\0';
	assert_true(countable(&c, buf, len / 2, 1));
	done(&c);
	assert_false(countable(&c, buf, len / 2 - 1, 1));
	assert_int_equal(c.diag.errors[0].pos.line, len / 2);
	done(&c);
	buf[len - 3] = 'y';	/* the last line is now "xyx" */
	assert_false(countable(&c, buf, len, 2));
	assert_int_equal(c.diag.errors[0].pos.line, len / 2 - 1);
	assert_int_equal(c.diag.errors[0].pos.column, 3);
	done(&c);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_within_limits),
		cmocka_unit_test(test_too_many_lines),
		cmocka_unit_test(test_line_too_long),
		cmocka_unit_test(test_first_overflow_wins),
		cmocka_unit_test(test_large),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
