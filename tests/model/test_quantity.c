/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Resource quantities, with cases from apimachinery's quantity_test.go
 * (TestQuantityParse, TestQuantityParseEmit, TestScaledValue): facts, not
 * its code.
 */
#include "support.h"

#include "model/quantity.h"

static int64_t q(const char *s, int scale)
{
	int64_t v = -1;

	if (!kvet_quantity_scaled(kvet_slice_of(s), scale, &v))
		fail_msg("'%s' does not parse", s);
	return v;
}

static bool parses(const char *s)
{
	int64_t v;

	return kvet_quantity_scaled(kvet_slice_of(s), 0, &v);
}

static void decimal(void **state)
{
	(void)state;
	assert_int_equal(q("100m", 3), 100);
	assert_int_equal(q("0.1", 3), 100);
	assert_int_equal(q("1", 3), 1000);
	assert_int_equal(q("2", 0), 2);
	assert_int_equal(q(".5", 3), 500);
	assert_int_equal(q("5.", 3), 5000);
	assert_int_equal(q("+5", 0), 5);
	assert_int_equal(q("1k", 0), 1000);
	assert_int_equal(q("1M", 0), 1000000);
	assert_int_equal(q("1.5G", 0), 1500000000);
	assert_int_equal(q("10P", 0), 10000000000000000LL);
	assert_int_equal(q("0.05", 3), 50);
	assert_int_equal(q("007", 0), 7);
}

static void binary_and_exponent(void **state)
{
	(void)state;
	assert_int_equal(q("1Ki", 0), 1024);
	assert_int_equal(q("128Mi", 0), 134217728);
	assert_int_equal(q("1.5Gi", 0), 1610612736);
	assert_int_equal(q("0.5Ki", 0), 512);
	assert_int_equal(q("5e3", 0), 5000);
	assert_int_equal(q("5E3", 0), 5000);
	assert_int_equal(q("1e-3", 3), 1);
	assert_int_equal(q("12e+2", 0), 1200);
}

static void rounding_up(void **state)
{
	(void)state;
	/* MilliValue and Value round up, away from zero */
	assert_int_equal(q("100m", 0), 1);
	assert_int_equal(q("1n", 3), 1);
	assert_int_equal(q("0.0001", 3), 1);
	assert_int_equal(q("1500u", 3), 2);
	assert_int_equal(q("0", 3), 0);
	/* too large for int64: saturates */
	assert_int_equal(q("10E", 0), INT64_MAX);
	assert_int_equal(q("9E", 0), 9000000000000000000LL);
	assert_int_equal(q("8Ei", 0), INT64_MAX);
	assert_int_equal(q("123456789012345678901234", 0), INT64_MAX);
}

static void malformed(void **state)
{
	(void)state;
	assert_false(parses(""));
	assert_false(parses("."));
	assert_false(parses("-1"));
	assert_false(parses("1Kb"));
	assert_false(parses("1KiB"));
	assert_false(parses("1 "));
	assert_false(parses("e3"));
	assert_false(parses("1e"));
	assert_false(parses("1.2.3"));
	assert_false(parses("one"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(decimal),
		cmocka_unit_test(binary_and_exponent),
		cmocka_unit_test(rounding_up),
		cmocka_unit_test(malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
