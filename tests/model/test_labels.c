/* SPDX-License-Identifier: Apache-2.0 */
/* Label sets and the label key/value syntax of k8s.io/apimachinery. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model/labels.h"
#include "tlabels.h"
#include "tnode.h"

static void from_node_sorts_and_types(void **state)
{
	struct kvet_arena arena;
	struct tnode t = { &arena, 0 };
	struct kvet_labels l;
	struct kvet_slice v;

	(void)state;
	kvet_arena_init(&arena);
	assert_int_equal(kvet_labels_from_node(&arena,
		tn_map(&t, 5, "zeta", tn_str(&t, "z"), "app", tn_plain(&t, "web"),
		       "empty", tn_null(&t), "nested", tn_map(&t, 0),
		       "n", tn_plain(&t, "1")), &l), 0);
	/* the mapping value is skipped; the rest is sorted by key */
	assert_int_equal(l.n, 4);
	assert_true(kvet_slice_eq0(l.v[0].key, "app"));
	assert_true(kvet_slice_eq0(l.v[1].key, "empty"));
	assert_true(kvet_slice_eq0(l.v[2].key, "n"));
	assert_true(kvet_slice_eq0(l.v[3].key, "zeta"));
	assert_true(kvet_labels_get(&l, kvet_slice_of("empty"), &v));
	assert_int_equal(v.len, 0);
	assert_true(kvet_labels_get(&l, kvet_slice_of("n"), &v));
	assert_true(kvet_slice_eq0(v, "1"));
	assert_false(kvet_labels_get(&l, kvet_slice_of("nested"), NULL));
	assert_false(kvet_labels_get(&l, kvet_slice_of("ap"), NULL));

	assert_int_equal(kvet_labels_from_node(&arena, NULL, &l), 0);
	assert_int_equal(l.n, 0);
	assert_false(kvet_labels_get(&l, kvet_slice_of("app"), NULL));
	kvet_arena_release(&arena);
}

static void duplicate_key_keeps_last(void **state)
{
	struct kvet_arena arena;
	struct tnode t = { &arena, 0 };
	struct kvet_labels l;
	struct kvet_slice v;

	(void)state;
	kvet_arena_init(&arena);
	assert_int_equal(kvet_labels_from_node(&arena,
		tn_map(&t, 3, "app", tn_str(&t, "one"), "b", tn_str(&t, "x"),
		       "app", tn_str(&t, "two")), &l), 0);
	assert_int_equal(l.n, 2);
	assert_true(kvet_labels_get(&l, kvet_slice_of("app"), &v));
	assert_true(kvet_slice_eq0(v, "two"));
	kvet_arena_release(&arena);
}

static void slice_order(void **state)
{
	(void)state;
	assert_true(kvet_slice_cmp(kvet_slice_of("a"), kvet_slice_of("ab")) < 0);
	assert_true(kvet_slice_cmp(kvet_slice_of("b"), kvet_slice_of("ab")) > 0);
	assert_int_equal(kvet_slice_cmp(kvet_slice_of(""), kvet_slice_of("")), 0);
	assert_true(kvet_slice_eq0(kvet_slice_of(""), ""));
}

static void key_syntax(void **state)
{
	static const char *const good[] = {
		"app", "app.kubernetes.io/name", "a", "A_b-c.d",
		"example.com/x", "k8s.io/a1",
		"a23456789012345678901234567890123456789012345678901234567890123",
	};
	static const char *const bad[] = {
		"", "/app", "app/", "-app", "app-", "a/b/c", "Example.com/x",
		"exa_mple.com/x", ".example.com/x", "example..com/x",
		"has space", "a234567890123456789012345678901234567890123456789012345678901234",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		assert_true(kvet_label_key_valid(kvet_slice_of(good[i])));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (kvet_label_key_valid(kvet_slice_of(bad[i])))
			fail_msg("key \"%s\" accepted", bad[i]);
	}
}

static void value_syntax(void **state)
{
	(void)state;
	assert_true(kvet_label_value_valid(kvet_slice_of("")));
	assert_true(kvet_label_value_valid(kvet_slice_of("v1.2_3-x")));
	assert_false(kvet_label_value_valid(kvet_slice_of("a/b")));
	assert_false(kvet_label_value_valid(kvet_slice_of("_a")));
	assert_false(kvet_label_value_valid(kvet_slice_of("a.")));
	assert_false(kvet_label_value_valid(kvet_slice_of(
		"a234567890123456789012345678901234567890123456789012345678901234")));
}

static void from_array(void **state)
{
	struct kvet_arena arena;
	struct kvet_labels l;

	(void)state;
	kvet_arena_init(&arena);
	l = tl_labels(&arena, 3, "b", "2", "a", "1", "c", "3");
	assert_int_equal(l.n, 3);
	assert_true(kvet_slice_eq0(l.v[0].key, "a"));
	assert_true(kvet_slice_eq0(l.v[2].value, "3"));
	l = tl_labels(&arena, 2, "a", "1", "a", "1");
	assert_int_equal(l.n, 1);
	kvet_arena_release(&arena);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(from_node_sorts_and_types),
		cmocka_unit_test(duplicate_key_keeps_last),
		cmocka_unit_test(slice_order),
		cmocka_unit_test(key_syntax),
		cmocka_unit_test(value_syntax),
		cmocka_unit_test(from_array),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
