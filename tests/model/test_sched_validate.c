/* SPDX-License-Identifier: Apache-2.0 */
/* What the API server rejects in spread constraints and pod (anti-)
 * affinity terms (model/sched_validate.c), as problem records. */
#include "tgraph.h"
#include "tspread.h"

#include "model/sched_validate.h"

static void problems(void **state)
{
	struct tgraph tg = tg_load(tspread_input(), 0);
	const struct kvet_workload *wl = tg_wl(&tg, "apps", "Deployment",
					       "ops", "bad");
	const struct kvet_node *tsc;
	struct kvet_problems ps;

	(void)state;
	assert_int_equal(kvet_pod_spec_term_problems(&tg.l->arena,
						     wl->pod_spec, &ps), 0);
	assert_int_equal(ps.n, 5);
	tsc = &kvet_node_get(wl->pod_spec, "topologySpreadConstraints")
		       ->u.items[0];
	assert_int_equal(ps.v[0].code, KVET_SCHED_SKEW_BAD);
	assert_string_equal(ps.v[0].path, "topologySpreadConstraints[0]");
	assert_ptr_equal(ps.v[0].part, tsc);
	assert_true(kvet_node_eq(ps.v[0].at, "maxSkew"));
	assert_true(kvet_node_text_eq(ps.v[0].value, "0"));
	assert_int_equal(ps.v[1].code, KVET_SCHED_MIN_DOMAINS_ANYWAY);
	assert_int_equal(ps.v[1].number, 2);
	assert_true(kvet_node_eq(ps.v[1].at, "minDomains"));
	assert_int_equal(ps.v[2].code, KVET_SCHED_POLICY_BAD);
	assert_string_equal(ps.v[2].field, "nodeTaintsPolicy");
	assert_true(kvet_node_eq(ps.v[2].value, "honor"));
	assert_int_equal(ps.v[3].code, KVET_SCHED_WEIGHT_BAD);
	assert_string_equal(ps.v[3].path,
			    "podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0]");
	assert_true(kvet_node_text_eq(ps.v[3].value, "101"));
	/* the podAffinityTerm's own problem is about the term, not the
	 * weighted entry */
	assert_int_equal(ps.v[4].code, KVET_SCHED_TOPOLOGY_KEY_EMPTY);
	assert_ptr_equal(ps.v[4].part,
			 kvet_node_get(ps.v[3].part, "podAffinityTerm"));
	wl = tg_wl(&tg, "apps", "Deployment", "ops", "alpha");
	assert_int_equal(kvet_pod_spec_term_problems(&tg.l->arena,
						     wl->pod_spec, &ps), 0);
	assert_int_equal(ps.n, 0);
	tg_free(&tg);
}

static void keys_and_selectors(void **state)
{
	struct tgraph tg = tg_load(
		"apiVersion: apps/v1\nkind: Deployment\n"
		"metadata: {name: k, namespace: ops}\n"
		"spec:\n  selector: {matchLabels: {app: k}}\n"
		"  template:\n    metadata: {labels: {app: k}}\n"
		"    spec:\n"
		"      topologySpreadConstraints:\n"
		"      - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: Maybe,"
		" matchLabelKeys: [app], labelSelector: {matchLabels: {app: k}}}\n"
		"      - {topologyKey: zone, matchLabelKeys: [pod-template-hash]}\n"
		"      affinity:\n        podAntiAffinity:\n"
		"          requiredDuringSchedulingIgnoredDuringExecution:\n"
		"          - {topologyKey: zone, labelSelector: {matchExpressions:"
		" [{key: app, operator: in}]}}\n"
		"          preferredDuringSchedulingIgnoredDuringExecution:\n"
		"          - podAffinityTerm: {topologyKey: zone}\n", 0);
	const struct kvet_workload *wl = tg_wl(&tg, "apps", "Deployment",
					       "ops", "k");
	struct kvet_problems ps;

	(void)state;
	assert_int_equal(kvet_pod_spec_term_problems(&tg.l->arena,
						     wl->pod_spec, &ps), 0);
	assert_int_equal(ps.n, 7);
	assert_int_equal(ps.v[0].code, KVET_SCHED_WHEN_BAD);
	assert_int_equal(ps.v[1].code, KVET_SCHED_KEY_REPEATED);
	assert_true(kvet_slice_eq0(ps.v[1].key, "app"));
	assert_true(kvet_node_eq(ps.v[1].at, "app"));
	assert_int_equal(ps.v[2].code, KVET_SCHED_SKEW_MISSING);
	assert_null(ps.v[2].at);
	assert_int_equal(ps.v[3].code, KVET_SCHED_WHEN_MISSING);
	assert_int_equal(ps.v[4].code, KVET_SCHED_KEYS_WITHOUT_SELECTOR);
	assert_string_equal(ps.v[4].field, "matchLabelKeys");
	assert_int_equal(ps.v[5].code, KVET_SCHED_SELECTOR_INVALID);
	assert_string_equal(ps.v[5].field, "labelSelector");
	assert_non_null(ps.v[5].text);
	assert_int_equal(ps.v[6].code, KVET_SCHED_WEIGHT_MISSING);
	assert_string_equal(ps.v[6].path,
			    "podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0]");
	tg_free(&tg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(problems),
		cmocka_unit_test(keys_and_selectors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
