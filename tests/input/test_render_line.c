/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of how a renderer's stderr becomes one line of a finding:
 * lines joined with "; ", blank lines and trailing blanks dropped, and
 * klog headers (time and pid, new on every run) cut so that reports are
 * byte-stable.
 */
#include "support.h"

#include "input/render.h"

static void check(const char *in, const char *want)
{
	struct kvet_arena arena;
	char *s = strdup(in);

	assert_non_null(s);
	kvet_arena_init(&arena);
	assert_string_equal(kvet_render_one_line(&arena, s), want);
	kvet_arena_release(&arena);
	free(s);
}

static void test_joins_lines(void **state)
{
	(void)state;
	check("Error: one\n\ntwo\r\n  \n", "Error: one; two");
	check("", "");
	check("\n\n", "");
}

static void test_cuts_klog_headers(void **state)
{
	(void)state;
	/* as kustomize 5 prints it from kubectl 1.32 */
	check("# Warning: 'vars' is deprecated.\n"
	      "I1204 02:30:51.747152   27430 log.go:245] well-defined vars "
	      "that were never replaced: BEE_ACTION\n",
	      "# Warning: 'vars' is deprecated.; well-defined vars that were "
	      "never replaced: BEE_ACTION");
	check("W0102 03:04:05.000006 1 warnings.go:70] v1 Endpoints is "
	      "deprecated\n",
	      "v1 Endpoints is deprecated");
	check("E1231 23:59:59.999999 123456 a/b.go:1] x\nF0101 00:00:00.000000"
	      " 7 c.go:9] y", "x; y");
	/* a header with nothing after it leaves no blank line */
	check("a\nI1204 02:30:51.747152 1 log.go:245] \nb", "a; b");
}

static void test_keeps_what_only_looks_like_klog(void **state)
{
	(void)state;
	/* not at a line's start, a letter outside IWEF, a short time, no
	 * pid, no "] " */
	check("see I1204 02:30:51.747152 1 log.go:245] x",
	      "see I1204 02:30:51.747152 1 log.go:245] x");
	check("X1204 02:30:51.747152 1 log.go:245] x",
	      "X1204 02:30:51.747152 1 log.go:245] x");
	check("I1204 02:30:51.7471 1 log.go:245] x",
	      "I1204 02:30:51.7471 1 log.go:245] x");
	check("I1204 02:30:51.747152 log.go:245] x",
	      "I1204 02:30:51.747152 log.go:245] x");
	check("I1204 02:30:51.747152 1 log.go:245]x",
	      "I1204 02:30:51.747152 1 log.go:245]x");
	check("I1204", "I1204");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_joins_lines),
		cmocka_unit_test(test_cuts_klog_headers),
		cmocka_unit_test(test_keeps_what_only_looks_like_klog),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
