/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Label selectors in kubectl's notation (apimachinery labels.Parse, what
 * `kubectl get -l` and `kvet drain --nodes` take), with cases after
 * labels/selector_test.go TestSelectorParse: facts, not its code.
 */
#include "support.h"

#include "model/selector_text.h"

static struct kvet_labels labels(struct kvet_label *v, size_t n)
{
	struct kvet_labels set;

	kvet_labels_from_array(v, n, &set);
	return set;
}

static bool sel_matches(struct kvet_arena *a, const char *text,
			const struct kvet_labels *l)
{
	struct kvet_selector sel;
	const char *err = NULL;

	if (kvet_selector_parse_text(a, text, &sel, &err) != 0)
		fail_msg("'%s' does not parse: %s", text, err ? err : "");
	return kvet_selector_matches(&sel, l, NULL);
}

static int parse(struct kvet_arena *a, const char *text, const char **err)
{
	struct kvet_selector sel;

	return kvet_selector_parse_text(a, text, &sel, err);
}

static void forms(void **state)
{
	struct kvet_arena a;
	struct kvet_label v[] = {
		{ { "pool", 4 }, { "blue", 4 } },
		{ { "zone", 4 }, { "a", 1 } },
		{ { "topology.kubernetes.io/zone", 27 }, { "eu-1a", 5 } },
	};
	struct kvet_labels l = labels(v, 3);

	(void)state;
	kvet_arena_init(&a);
	assert_true(sel_matches(&a, "", &l));
	assert_true(sel_matches(&a, "pool=blue", &l));
	assert_true(sel_matches(&a, "pool==blue", &l));
	assert_false(sel_matches(&a, "pool!=blue", &l));
	assert_true(sel_matches(&a, "pool!=green", &l));
	/* != and notin also match a node without the key */
	assert_true(sel_matches(&a, "gpu!=yes", &l));
	assert_true(sel_matches(&a, "pool in (green, blue)", &l));
	assert_false(sel_matches(&a, "pool notin (green,blue)", &l));
	assert_true(sel_matches(&a, "zone", &l));
	assert_false(sel_matches(&a, "!zone", &l));
	assert_true(sel_matches(&a, "!gpu", &l));
	assert_true(sel_matches(&a, " pool = blue , zone in (a) ", &l));
	assert_true(sel_matches(&a, "topology.kubernetes.io/zone=eu-1a", &l));
	assert_false(sel_matches(&a, "pool=blue,zone=b", &l));
	kvet_arena_release(&a);
}

static void errors(void **state)
{
	struct kvet_arena a;
	const char *err = NULL;

	(void)state;
	kvet_arena_init(&a);
	assert_int_equal(parse(&a, "pool in (a", &err), 1);
	assert_non_null(strstr(err, "expected ',' or ')'"));
	assert_int_equal(parse(&a, "pool in a", &err), 1);
	assert_non_null(strstr(err, "expected '('"));
	assert_int_equal(parse(&a, "=blue", &err), 1);
	assert_non_null(strstr(err, "expected a label key"));
	assert_int_equal(parse(&a, "pool=blue zone=a", &err), 1);
	assert_non_null(strstr(err, "expected ','"));
	kvet_arena_release(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(forms),
		cmocka_unit_test(errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
