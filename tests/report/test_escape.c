/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of the escaping each report format owns: JSON strings, text
 * for terminals, and the source excerpt with its caret line.
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
#include "report/escape.h"

/* Close the stream, compare with @want and free. */
static void capture_check(struct capture *cap, const char *want)
{
	capture_close(cap);
	assert_string_equal(cap->buf, want);
	assert_int_equal(cap->len, strlen(want));
	free(cap->buf);
}

static void check_json(const char *in, size_t len, const char *want)
{
	struct capture cap;

	capture_open(&cap);
	kvet_json_write_string(cap.fp, in, len);
	capture_check(&cap, want);
}

#define JSON(in, want) check_json(in, sizeof(in) - 1, want)

static void test_json_plain(void **state)
{
	JSON("", "\"\"");
	JSON("pdb-blocks-drain", "\"pdb-blocks-drain\"");
	check_json(NULL, 0, "null");
}

static void test_json_quote_backslash(void **state)
{
	JSON("say \"hi\"", "\"say \\\"hi\\\"\"");
	JSON("C:\\dir\\", "\"C:\\\\dir\\\\\"");
	JSON("a/b", "\"a/b\"");
}

static void test_json_control(void **state)
{
	JSON("\b\f\n\r\t", "\"\\b\\f\\n\\r\\t\"");
	JSON("\x01\x1f\x7f", "\"\\u0001\\u001f\\u007f\"");
	JSON("\x1b[31m", "\"\\u001b[31m\"");
	/* An embedded NUL is data like any other byte. */
	JSON("a\0b", "\"a\\u0000b\"");
}

static void test_json_utf8_valid(void **state)
{
	JSON("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
	     "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
	/* Line and paragraph separators break JavaScript string literals. */
	JSON("\xe2\x80\xa8\xe2\x80\xa9", "\"\\u2028\\u2029\"");
}

#define FFFD "\xef\xbf\xbd"

static void test_json_utf8_invalid(void **state)
{
	JSON("\xff", "\"" FFFD "\"");
	JSON("a\x80z", "\"a" FFFD "z\"");
	/* truncated sequence, at the end and before ASCII */
	JSON("\xe2\x82", "\"" FFFD FFFD "\"");
	JSON("\xe2\x82x", "\"" FFFD FFFD "x\"");
	/* overlong '/', surrogate, above U+10FFFF */
	JSON("\xc0\xaf", "\"" FFFD FFFD "\"");
	JSON("\xed\xa0\x80", "\"" FFFD FFFD FFFD "\"");
	JSON("\xf4\x90\x80\x80", "\"" FFFD FFFD FFFD FFFD "\"");
	/* an invalid byte never swallows the quote after it */
	JSON("\xc3\"", "\"" FFFD "\\\"\"");
}

/*
 * Plain text is copied in runs found sixteen (or eight) bytes at a time:
 * each byte that needs an escape, at every place in and around a block,
 * and runs longer than the writer's 64 KiB buffer.
 */
static void test_json_runs(void **state)
{
	static const struct {
		const char *in, *out;
	} special[] = {
		{ "\"", "\\\"" }, { "\\", "\\\\" }, { "\n", "\\n" },
		{ "\x1f", "\\u001f" }, { "\x7f", "\\u007f" },
		{ "\xc3\xa9", "\xc3\xa9" }, { "\xff", "\xef\xbf\xbd" },
	};
	char in[48], want[64];
	size_t i, at, n, big = 3 * KVET_JW_BUF / 2;
	char *huge, *huge_want;

	(void)state;
	for (i = 0; i < sizeof(special) / sizeof(special[0]); i++) {
		for (at = 0; at < 40; at++) {
			n = strlen(special[i].in);
			memset(in, 'a', sizeof(in));
			memcpy(in + at, special[i].in, n);
			snprintf(want, sizeof(want), "\"%.*s%s%.*s\"", (int)at,
				 in, special[i].out, (int)(40 - at - n + 1),
				 in + at + n);
			check_json(in, 41, want);
		}
	}
	huge = malloc(big);
	huge_want = malloc(big + 3);
	assert_non_null(huge);
	assert_non_null(huge_want);
	memset(huge, 'x', big);
	huge_want[0] = '"';
	memcpy(huge_want + 1, huge, big);
	memcpy(huge_want + 1 + big, "\"", 2);
	check_json(huge, big, huge_want);
	free(huge);
	free(huge_want);
}

static void test_utf8_next(void **state)
{
	uint32_t cp;

	assert_int_equal(kvet_utf8_next("A", 1, &cp), 1);
	assert_int_equal(cp, 'A');
	assert_int_equal(kvet_utf8_next("\xc3\xa9", 2, &cp), 2);
	assert_int_equal(cp, 0xe9);
	assert_int_equal(kvet_utf8_next("\xf0\x9f\x98\x80", 4, &cp), 4);
	assert_int_equal(cp, 0x1f600);
	/* a length that cuts the sequence makes it invalid */
	assert_int_equal(kvet_utf8_next("\xc3\xa9", 1, &cp), 1);
	assert_int_equal(cp, KVET_UTF8_REPLACEMENT);
}

static void check_text(const char *in, size_t len, const char *want)
{
	struct capture cap;

	capture_open(&cap);
	kvet_text_write(cap.fp, in, len);
	capture_check(&cap, want);
}

#define TEXT(in, want) check_text(in, sizeof(in) - 1, want)

static void test_text_write(void **state)
{
	TEXT("key:\tvalue", "key:\tvalue");
	TEXT("\x1b[2J", FFFD "[2J");
	TEXT("a\nb\rc\0d\x7f", "a" FFFD "b" FFFD "c" FFFD "d" FFFD);
	/* C1 controls (U+009B is a CSI on some terminals) */
	TEXT("\xc2\x9b", FFFD);
	TEXT("\xc3\xa9\xff", "\xc3\xa9" FFFD);
}

static void check_excerpt(const char *line, size_t len, unsigned int column,
			  const char *want)
{
	struct capture cap;

	capture_open(&cap);
	kvet_text_write_excerpt(cap.fp, line, len, column, NULL, NULL);
	capture_check(&cap, want);
}

#define EXCERPT(line, col, want) \
	check_excerpt(line, sizeof(line) - 1, col, want)

static void test_caret_plain(void **state)
{
	EXCERPT("  minAvailable: 1", 3, "  minAvailable: 1\n  ^\n");
	EXCERPT("x", 1, "x\n^\n");
	EXCERPT("", 1, "\n^\n");
	/* column 0: no caret line */
	EXCERPT("kind: Pod", 0, "kind: Pod\n");
}

static void test_caret_tabs(void **state)
{
	/* every tab before the column is repeated in the caret line */
	EXCERPT("\tkey:\tvalue", 7, "\tkey:\tvalue\n\t    \t^\n");
	EXCERPT("\t\tx", 3, "\t\tx\n\t\t^\n");
	/* a tab after the column does not matter */
	EXCERPT("a\tb", 1, "a\tb\n^\n");
}

static void test_caret_utf8(void **state)
{
	/* columns count code points, not bytes */
	EXCERPT("\xc3\xa9\xc3\xa9: x", 5, "\xc3\xa9\xc3\xa9: x\n    ^\n");
	/* an invalid byte is shown as U+FFFD and is one column */
	EXCERPT("\xff: x", 4, FFFD ": x\n   ^\n");
}

static void test_caret_edges(void **state)
{
	/* CR of a CRLF line is not shown */
	EXCERPT("a: b\r", 4, "a: b\n   ^\n");
	/* past the end: just after the last character */
	EXCERPT("ab", 9, "ab\n  ^\n");
}

static void test_caret_long_line(void **state)
{
	char line[1000], want[600];
	const char *nl;
	struct capture cap;
	size_t start;

	memset(line, 'a', sizeof(line));
	line[600] = 'X';
	capture_open(&cap);
	kvet_text_write_excerpt(cap.fp, line, sizeof(line), 601, "<", ">");
	assert_int_equal(fclose(cap.fp), 0);

	/* "..." + window + "...", then the caret under the X */
	assert_memory_equal(cap.buf, "...", 3);
	nl = strchr(cap.buf, '\n');
	assert_non_null(nl);
	assert_int_equal(nl - cap.buf, 3 + KVET_TEXT_EXCERPT_MAX + 3);
	start = 600 - KVET_TEXT_EXCERPT_MAX / 3;
	assert_int_equal(cap.buf[3 + 600 - start], 'X');
	memset(want, ' ', 3 + 600 - start);
	snprintf(want + 3 + 600 - start, sizeof(want) - (3 + 600 - start),
		 "<^>\n");
	assert_string_equal(nl + 1, want);
	free(cap.buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_plain),
		cmocka_unit_test(test_json_quote_backslash),
		cmocka_unit_test(test_json_control),
		cmocka_unit_test(test_json_utf8_valid),
		cmocka_unit_test(test_json_utf8_invalid),
		cmocka_unit_test(test_json_runs),
		cmocka_unit_test(test_utf8_next),
		cmocka_unit_test(test_text_write),
		cmocka_unit_test(test_caret_plain),
		cmocka_unit_test(test_caret_tabs),
		cmocka_unit_test(test_caret_utf8),
		cmocka_unit_test(test_caret_edges),
		cmocka_unit_test(test_caret_long_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
