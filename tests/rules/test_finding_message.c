/* SPDX-License-Identifier: Apache-2.0 */
/* A finding's full sentence when the run keeps no joined message (issue
 * 28: findings stored compactly): kvet_finding_message_dup() joins it,
 * kvet_finding_message_cmp() orders as strcmp() of the joined texts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kvet/kvet.h"

static struct kvet_finding joined(const char *headline, const char *reason)
{
	struct kvet_finding f = { .rule = "r", .headline = headline,
				  .reason = reason };
	return f;
}

static int sign(int c)
{
	return (c > 0) - (c < 0);
}

/* kvet_finding_message_cmp() agrees with strcmp() of the full texts. */
static void same_order(const struct kvet_finding *a,
		       const struct kvet_finding *b)
{
	char *x = kvet_finding_message_dup(a), *y = kvet_finding_message_dup(b);

	assert_non_null(x);
	assert_non_null(y);
	assert_int_equal(sign(kvet_finding_message_cmp(a, b)),
			 sign(strcmp(x, y)));
	assert_int_equal(sign(kvet_finding_message_cmp(b, a)),
			 sign(strcmp(y, x)));
	free(x);
	free(y);
}

static void test_dup(void **state)
{
	struct kvet_finding f = joined("PDB \"a\" blocks", "it allows 0");
	struct kvet_finding g = f;
	char *s;

	(void)state;
	s = kvet_finding_message_dup(&f);
	assert_string_equal(s, "PDB \"a\" blocks: it allows 0");
	free(s);
	g.message = "as the rule wrote it";
	s = kvet_finding_message_dup(&g);
	assert_string_equal(s, "as the rule wrote it");
	free(s);
}

static void test_cmp(void **state)
{
	struct kvet_finding a = joined("b", "c: d");
	struct kvet_finding b = joined("b", "c");
	struct kvet_finding c = joined("b:", "c");
	struct kvet_finding d = joined("b", "c: d");
	struct kvet_finding e = { .rule = "r", .message = "b: c: e",
				  .headline = "b" };
	struct kvet_finding f = { .rule = "r", .message = "b: c: d",
				  .headline = "b" };

	(void)state;
	assert_int_equal(kvet_finding_message_cmp(&a, &d), 0);
	assert_int_equal(kvet_finding_message_cmp(&a, &f), 0);
	same_order(&a, &b);	/* a prefix first */
	same_order(&b, &c);	/* "b: c" against "b:: c" */
	same_order(&a, &e);
	same_order(&c, &e);
	same_order(&e, &f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dup),
		cmocka_unit_test(test_cmp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
