/* SPDX-License-Identifier: Apache-2.0 */
/*
 * PDB arithmetic (docs/model.md 1.9) and its edge cases.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model/pdb.h"
#include "support.h"
#include "tnode.h"

static const struct kvet_intstr absent = { KVET_INTSTR_ABSENT, 0, NULL };

static struct kvet_intstr ival(long long v)
{
	struct kvet_intstr i = { KVET_INTSTR_INT, v, NULL };

	return i;
}

static struct kvet_intstr pct(long long v)
{
	struct kvet_intstr i = { KVET_INTSTR_PERCENT, v, NULL };

	return i;
}

static const struct kvet_pdb_member one_deploy[] = { { 1, KVET_PDB_SCALABLE } };
static const struct kvet_pdb_member three[] = { { 3, KVET_PDB_SCALABLE } };

/* Evaluate and return allowed, checking the status is OK. */
static long long allowed_ok(struct kvet_intstr min, struct kvet_intstr max,
			    const struct kvet_pdb_member *m, size_t n)
{
	struct kvet_pdb_result r;

	kvet_pdb_evaluate(&min, &max, m, n, &r);
	assert_int_equal(r.status, KVET_PDB_OK);
	return r.allowed;
}

static void min_available_int(void **state)
{
	const struct kvet_pdb_member two[] = { { 2, KVET_PDB_SCALABLE } };
	struct kvet_pdb_result r;

	(void)state;
	/* replicas absent (N = 1), minAvailable: 1 */
	kvet_pdb_evaluate(&(struct kvet_intstr){ KVET_INTSTR_INT, 1, NULL },
			  &absent, one_deploy, 1, &r);
	assert_int_equal(r.status, KVET_PDB_OK);
	assert_int_equal(r.expected, 1);
	assert_int_equal(r.desired, 1);
	assert_int_equal(r.allowed, 0);
	assert_false(r.uses_scale);
	assert_int_equal(allowed_ok(ival(1), absent, two, 1), 1);
	assert_int_equal(allowed_ok(ival(2), absent, two, 1), 0);
	assert_int_equal(allowed_ok(ival(5), absent, two, 1), 0);
	assert_int_equal(allowed_ok(ival(0), absent, two, 1), 2);
}

static void min_available_percent_rounds_up(void **state)
{
	const struct kvet_pdb_member two[] = { { 2, KVET_PDB_SCALABLE } };
	struct kvet_pdb_result r;
	struct kvet_intstr p67 = pct(67), p66 = pct(66);

	(void)state;
	assert_int_equal(allowed_ok(pct(1), absent, one_deploy, 1), 0);
	assert_int_equal(allowed_ok(pct(50), absent, one_deploy, 1), 0);
	assert_int_equal(allowed_ok(pct(80), absent, one_deploy, 1), 0);
	/* HPA minReplicas 2: ceil(50% x 2) = 1 */
	assert_int_equal(allowed_ok(pct(50), absent, two, 1), 1);
	kvet_pdb_evaluate(&p67, &absent, three, 1, &r);
	assert_int_equal(r.desired, 3);
	assert_int_equal(r.allowed, 0);
	assert_true(r.uses_scale);
	kvet_pdb_evaluate(&p66, &absent, three, 1, &r);
	assert_int_equal(r.desired, 2);
	assert_int_equal(r.allowed, 1);
	assert_int_equal(allowed_ok(pct(0), absent, three, 1), 3);
	assert_int_equal(allowed_ok(pct(100), absent, three, 1), 0);
}

static void max_unavailable(void **state)
{
	struct kvet_pdb_result r;
	struct kvet_intstr p10 = pct(10);

	(void)state;
	/* ceil(10% x 1) = 1 unavailable allowed */
	kvet_pdb_evaluate(&absent, &p10, one_deploy, 1, &r);
	assert_int_equal(r.status, KVET_PDB_OK);
	assert_int_equal(r.expected, 1);
	assert_int_equal(r.desired, 0);
	assert_int_equal(r.allowed, 1);
	assert_int_equal(allowed_ok(absent, ival(1), one_deploy, 1), 1);
	assert_int_equal(allowed_ok(absent, ival(0), one_deploy, 1), 0);
	assert_int_equal(allowed_ok(absent, pct(0), three, 1), 0);
	assert_int_equal(allowed_ok(absent, ival(1), three, 1), 1);
	/* more than there are: desired clamps at 0 */
	assert_int_equal(allowed_ok(absent, ival(10), three, 1), 3);
	assert_int_equal(allowed_ok(absent, pct(34), three, 1), 2);
}

static void nothing_selected_allows_nothing(void **state)
{
	(void)state;
	assert_int_equal(allowed_ok(absent, ival(1), NULL, 0), 0);
	assert_int_equal(allowed_ok(ival(0), absent, NULL, 0), 0);
}

static void no_policy(void **state)
{
	struct kvet_pdb_result r;

	(void)state;
	kvet_pdb_evaluate(&absent, &absent, three, 1, &r);
	assert_int_equal(r.status, KVET_PDB_NO_POLICY);
	assert_int_equal(r.expected, 0);
	assert_int_equal(r.allowed, 0);
	assert_int_equal(r.pods_total, 3);
	kvet_pdb_evaluate(NULL, NULL, three, 1, &r);
	assert_int_equal(r.status, KVET_PDB_NO_POLICY);
}

static void both_set_is_invalid(void **state)
{
	struct kvet_intstr one = ival(1);
	struct kvet_pdb_result r;

	(void)state;
	kvet_pdb_evaluate(&one, &one, three, 1, &r);
	assert_int_equal(r.status, KVET_PDB_INVALID_BOTH_SET);
	assert_int_equal(r.allowed, 0);
}

static void bad_values_are_invalid(void **state)
{
	struct kvet_intstr neg = ival(-1), over = pct(101), bad = absent;
	struct kvet_pdb_result r;

	(void)state;
	bad.type = KVET_INTSTR_INVALID;
	kvet_pdb_evaluate(&neg, &absent, three, 1, &r);
	assert_int_equal(r.status, KVET_PDB_INVALID_VALUE);
	assert_ptr_equal(r.bad, &neg);
	kvet_pdb_evaluate(&absent, &over, three, 1, &r);
	assert_int_equal(r.status, KVET_PDB_INVALID_VALUE);
	assert_ptr_equal(r.bad, &over);
	kvet_pdb_evaluate(&bad, &absent, three, 1, &r);
	assert_int_equal(r.status, KVET_PDB_INVALID_VALUE);
	assert_int_equal(r.allowed, 0);
}

static void unscalable_owner_fails_sync(void **state)
{
	/* a DaemonSet (count unknown statically) and a Deployment */
	const struct kvet_pdb_member m[] = {
		{ -1, KVET_PDB_UNSCALABLE }, { 3, KVET_PDB_SCALABLE },
	};
	const struct kvet_pdb_member dump[] = {
		{ 4, KVET_PDB_UNSCALABLE }, { 3, KVET_PDB_SCALABLE },
	};
	struct kvet_intstr one = ival(1), half = pct(50);
	struct kvet_pdb_result r;

	(void)state;
	kvet_pdb_evaluate(&absent, &one, m, 2, &r);
	assert_int_equal(r.status, KVET_PDB_SYNC_FAILS);
	assert_int_equal(r.allowed, 0);
	kvet_pdb_evaluate(&half, &absent, dump, 2, &r);
	assert_int_equal(r.status, KVET_PDB_SYNC_FAILS);
	assert_int_equal(r.allowed, 0);
	/* an integer minAvailable counts pods and needs no scale */
	kvet_pdb_evaluate(&one, &absent, dump, 2, &r);
	assert_int_equal(r.status, KVET_PDB_OK);
	assert_int_equal(r.expected, 7);
	assert_int_equal(r.allowed, 6);
	/* ... unless nobody knows how many pods the DaemonSet runs */
	kvet_pdb_evaluate(&one, &absent, m, 2, &r);
	assert_int_equal(r.status, KVET_PDB_UNKNOWN);
	assert_true(r.allowed < 0);
	assert_true(r.pods_total < 0);
}

static void bare_pods(void **state)
{
	const struct kvet_pdb_member m[] = {
		{ 2, KVET_PDB_SCALABLE }, { 1, KVET_PDB_BARE_POD },
	};
	const struct kvet_pdb_member pods[] = {
		{ 1, KVET_PDB_BARE_POD }, { 1, KVET_PDB_BARE_POD },
	};
	struct kvet_intstr half = pct(50), all = pct(100), one = ival(1);
	struct kvet_pdb_result r;

	(void)state;
	/* ignored in expectedCount, counted as healthy */
	kvet_pdb_evaluate(&absent, &half, m, 2, &r);
	assert_int_equal(r.status, KVET_PDB_OK);
	assert_int_equal(r.expected, 2);
	assert_int_equal(r.desired, 1);
	assert_int_equal(r.pods_total, 3);
	assert_int_equal(r.allowed, 2);
	kvet_pdb_evaluate(&all, &absent, m, 2, &r);
	assert_int_equal(r.expected, 2);
	assert_int_equal(r.allowed, 1);
	/* only bare pods with a percentage: expected 0, nothing allowed */
	kvet_pdb_evaluate(&all, &absent, pods, 2, &r);
	assert_int_equal(r.status, KVET_PDB_OK);
	assert_int_equal(r.expected, 0);
	assert_int_equal(r.allowed, 0);
	/* integer minAvailable counts them */
	kvet_pdb_evaluate(&one, &absent, pods, 2, &r);
	assert_int_equal(r.expected, 2);
	assert_int_equal(r.allowed, 1);
}

static void scaled_value(void **state)
{
	struct kvet_intstr p = pct(25);

	(void)state;
	assert_int_equal(kvet_intstr_scaled(&p, 3), 1);
	assert_int_equal(kvet_intstr_scaled(&p, 4), 1);
	assert_int_equal(kvet_intstr_scaled(&p, 5), 2);
	assert_int_equal(kvet_intstr_scaled(&p, 0), 0);
	p = ival(7);
	assert_int_equal(kvet_intstr_scaled(&p, 3), 7);
}

static void intstr_parse(void **state)
{
	struct kvet_arena arena;
	struct tnode t = { &arena, 0 };
	struct kvet_intstr v;
	struct kvet_node *n;

	(void)state;
	kvet_arena_init(&arena);
	kvet_intstr_parse(NULL, &v);
	assert_int_equal(v.type, KVET_INTSTR_ABSENT);
	kvet_intstr_parse(tn_null(&t), &v);
	assert_int_equal(v.type, KVET_INTSTR_ABSENT);
	n = tn_plain(&t, "1");
	kvet_intstr_parse(n, &v);
	assert_int_equal(v.type, KVET_INTSTR_INT);
	assert_int_equal(v.value, 1);
	assert_ptr_equal(v.node, n);
	kvet_intstr_parse(tn_plain(&t, "-2"), &v);
	assert_int_equal(v.type, KVET_INTSTR_INT);
	assert_int_equal(v.value, -2);
	/* a quoted integer is a string without "%" */
	kvet_intstr_parse(tn_str(&t, "1"), &v);
	assert_int_equal(v.type, KVET_INTSTR_INVALID);
	kvet_intstr_parse(tn_str(&t, "50%"), &v);
	assert_int_equal(v.type, KVET_INTSTR_PERCENT);
	assert_int_equal(v.value, 50);
	kvet_intstr_parse(tn_plain(&t, "100%"), &v);
	assert_int_equal(v.type, KVET_INTSTR_PERCENT);
	assert_int_equal(v.value, 100);
	kvet_intstr_parse(tn_plain(&t, "250%"), &v);
	assert_int_equal(v.type, KVET_INTSTR_PERCENT);
	assert_int_equal(v.value, 250);
	kvet_intstr_parse(tn_plain(&t, "99999999999999999999999%"), &v);
	assert_int_equal(v.type, KVET_INTSTR_PERCENT);
	assert_true(v.value > 100);
	kvet_intstr_parse(tn_plain(&t, "%"), &v);
	assert_int_equal(v.type, KVET_INTSTR_INVALID);
	kvet_intstr_parse(tn_plain(&t, "5 %"), &v);
	assert_int_equal(v.type, KVET_INTSTR_INVALID);
	kvet_intstr_parse(tn_plain(&t, "-5%"), &v);
	assert_int_equal(v.type, KVET_INTSTR_INVALID);
	kvet_intstr_parse(tn_plain(&t, "+5%"), &v);
	assert_int_equal(v.type, KVET_INTSTR_INVALID);
	kvet_intstr_parse(tn_plain(&t, "1.5"), &v);
	assert_int_equal(v.type, KVET_INTSTR_INVALID);
	kvet_intstr_parse(tn_plain(&t, "true"), &v);
	assert_int_equal(v.type, KVET_INTSTR_INVALID);
	kvet_intstr_parse(tn_plain(&t, "4294967296"), &v);
	assert_int_equal(v.type, KVET_INTSTR_INVALID);
	kvet_intstr_parse(tn_map(&t, 0), &v);
	assert_int_equal(v.type, KVET_INTSTR_INVALID);
	kvet_arena_release(&arena);
}

/* The read of a dumped budget's status: integers only, and stale only
 * when both generations are known. */
static void observed(void **state)
{
	struct loaded *l = load_str(
		"apiVersion: policy/v1\nkind: PodDisruptionBudget\n"
		"metadata: {name: a, generation: 3}\n"
		"spec: {minAvailable: 1, unhealthyPodEvictionPolicy: AlwaysAllow}\n"
		"status: {disruptionsAllowed: 0, currentHealthy: 2,"
		" desiredHealthy: \"2\", observedGeneration: 2}\n"
		"---\n"
		"apiVersion: policy/v1\nkind: PodDisruptionBudget\n"
		"metadata: {name: b}\n"
		"spec: {minAvailable: 1, unhealthyPodEvictionPolicy: IfHealthyBudget}\n"
		"status: {observedGeneration: 1, expectedPods: 4}\n");
	struct kvet_pdb_observed o;
	struct kvet_pdb pdb;

	(void)state;
	assert_int_equal(l->objs.n, 2);
	kvet_pdb_observed_read(l->objs.v[0], &o);
	assert_true(o.has_allowed);
	assert_int_equal(o.allowed, 0);
	assert_true(o.has_current);
	assert_int_equal(o.current_healthy, 2);
	assert_false(o.has_desired);	/* a quoted "2" is no integer */
	assert_false(o.has_expected);
	assert_true(o.stale);
	assert_non_null(o.observed_generation);
	assert_int_equal(o.observed_generation->line, 5);
	assert_int_equal(kvet_pdb_parse(&l->arena, l->objs.v[0], &pdb), 0);
	assert_true(pdb.always_allow);
	kvet_pdb_observed_read(l->objs.v[1], &o);
	assert_false(o.has_allowed);
	assert_true(o.has_expected);
	assert_int_equal(o.expected_pods, 4);
	assert_false(o.stale);		/* no metadata.generation */
	assert_int_equal(kvet_pdb_parse(&l->arena, l->objs.v[1], &pdb), 0);
	assert_false(pdb.always_allow);
	loaded_free(l);
}

static void status_names(void **state)
{
	(void)state;
	assert_string_equal(kvet_pdb_status_name(KVET_PDB_SYNC_FAILS),
			    "sync-fails");
	assert_string_equal(kvet_pdb_status_name(KVET_PDB_NO_POLICY),
			    "no-policy");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(min_available_int),
		cmocka_unit_test(min_available_percent_rounds_up),
		cmocka_unit_test(max_unavailable),
		cmocka_unit_test(nothing_selected_allows_nothing),
		cmocka_unit_test(no_policy),
		cmocka_unit_test(both_set_is_invalid),
		cmocka_unit_test(bad_values_are_invalid),
		cmocka_unit_test(unscalable_owner_fails_sync),
		cmocka_unit_test(bare_pods),
		cmocka_unit_test(scaled_value),
		cmocka_unit_test(intstr_parse),
		cmocka_unit_test(observed),
		cmocka_unit_test(status_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
