/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One eviction, case by case, from kubernetes'
 * pkg/registry/core/pod/storage/eviction_test.go (TestEviction,
 * TestEvictionIgnorePDB, TestEvictionPDBStatus) and, where that table has
 * no case, eviction.go itself. The fixture tests/drain/fixtures/
 * eviction.yaml holds one namespace per case and policy; each row below
 * names the upstream test it comes from.
 */
#include "tdrain.h"

#include "drain/evict.h"

struct row {
	const char *ns;			/* the case's namespace */
	const char *pod;
	enum drain_evict_outcome outcome;
	const char *message;		/* part of the API server's words */
	long long allowed_after;	/* disruptionsAllowed after; -1: same */
};

static const struct row rows[] = {
	/* TestEviction: "matching pdbs with no disruptions allowed, pod
	 * running" (nil, IfHealthyBudget; AlwaysAllow evicts an unready
	 * pod, and the pod of validNewPod has no Ready condition) */
	{ "e01-nil", "t1", DRAIN_EVICT_NO_DISRUPTION,
	  "The disruption budget foo needs 0 healthy pods and has 0 currently", -1 },
	{ "e01-ifhealthybudget", "t1", DRAIN_EVICT_NO_DISRUPTION,
	  "Cannot evict pod as it would violate the pod's disruption budget.", -1 },
	/* TestEviction: "... pod pending", "... pod succeeded", "... pod
	 * failed": deleted without consulting the budget */
	{ "e02-nil", "t2", DRAIN_EVICT_DELETED, NULL, -1 },
	{ "e02-alwaysallow", "t2", DRAIN_EVICT_DELETED, NULL, -1 },
	{ "e03-ifhealthybudget", "t3", DRAIN_EVICT_DELETED, NULL, -1 },
	{ "e04-nil", "t4", DRAIN_EVICT_DELETED, NULL, -1 },
	{ "e04-alwaysallow", "t4", DRAIN_EVICT_DELETED, NULL, -1 },
	/* TestEviction: "matching pdbs with disruptions allowed" */
	{ "e05-nil", "t5", DRAIN_EVICT_BUDGET, NULL, 0 },
	{ "e05-ifhealthybudget", "t5", DRAIN_EVICT_BUDGET, NULL, 0 },
	{ "e05-alwaysallow", "t5", DRAIN_EVICT_UNHEALTHY, NULL, 1 },
	/* TestEviction: "non-matching pdbs" */
	{ "e06-nil", "t6", DRAIN_EVICT_NO_BUDGET, NULL, -1 },
	{ "e06-alwaysallow", "t6", DRAIN_EVICT_NO_BUDGET, NULL, -1 },
	/* TestEviction: "matching pdbs with no disruptions allowed, pod
	 * running, empty selector": a policy/v1 {} selects every pod */
	{ "e07-nil", "t7", DRAIN_EVICT_NO_DISRUPTION,
	  "The disruption budget foo needs 0 healthy pods and has 0 currently", -1 },
	/* TestEvictionIgnorePDB: "matching pdbs with no disruptions allowed,
	 * pod terminating" */
	{ "e08-nil", "t8", DRAIN_EVICT_DELETED, NULL, -1 },
	{ "e08-alwaysallow", "t8", DRAIN_EVICT_DELETED, NULL, -1 },
	/* TestEvictionIgnorePDB: "... pod running, pod healthy, unhealthy
	 * pod not ours" */
	{ "e09-nil", "t9", DRAIN_EVICT_NO_DISRUPTION,
	  "The disruption budget foo needs 2 healthy pods and has 2 currently", -1 },
	{ "e09-ifhealthybudget", "t9", DRAIN_EVICT_NO_DISRUPTION, NULL, -1 },
	{ "e09-alwaysallow", "t9", DRAIN_EVICT_NO_DISRUPTION, NULL, -1 },
	/* TestEvictionIgnorePDB: "matching pdbs with disruptions allowed,
	 * pod running, pod healthy, healthy pod ours, deletes pod by
	 * honoring the PDB" */
	{ "e10-nil", "t10", DRAIN_EVICT_BUDGET, NULL, 0 },
	{ "e10-alwaysallow", "t10", DRAIN_EVICT_BUDGET, NULL, 0 },
	/* TestEvictionIgnorePDB: "... pod running, pod unhealthy, unhealthy
	 * pod ours": currentHealthy >= desiredHealthy > 0, budget untouched */
	{ "e11-nil", "t11", DRAIN_EVICT_UNHEALTHY, NULL, 0 },
	{ "e11-ifhealthybudget", "t11", DRAIN_EVICT_UNHEALTHY, NULL, 0 },
	{ "e11-alwaysallow", "t11", DRAIN_EVICT_UNHEALTHY, NULL, 0 },
	/* TestEvictionIgnorePDB: "... pod unhealthy, unhealthy pod ours,
	 * skips the PDB check and deletes" (AlwaysAllow only) */
	{ "e12-alwaysallow", "t12", DRAIN_EVICT_UNHEALTHY, NULL, 0 },
	/* TestEvictionIgnorePDB: "... pod running, pod healthy, empty
	 * selector, pod not deleted by honoring the PDB" */
	{ "e13-nil", "t13", DRAIN_EVICT_NO_DISRUPTION,
	  "The disruption budget foo needs 3 healthy pods and has 3 currently", -1 },
	{ "e13-alwaysallow", "t13", DRAIN_EVICT_NO_DISRUPTION, NULL, -1 },
	/* eviction.go checkAndDecrement: observedGeneration < generation
	 * (the message is createTooManyRequestsError's, which the
	 * "resource version conflict" cases of TestEvictionIgnorePDB show) */
	{ "e14-nil", "t14", DRAIN_EVICT_STALE,
	  "The disruption budget foo is still being processed by the server.", -1 },
	/* eviction.go Create: more than one budget, 500 */
	{ "e15-nil", "t15", DRAIN_EVICT_MULTIPLE,
	  "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.", -1 },
	/* TestEvictionPDBStatus: "pdb status is updated after eviction",
	 * "condition reason is only updated if AllowedDisruptions becomes 0" */
	{ "e16-nil", "t16", DRAIN_EVICT_BUDGET, NULL, 0 },
	{ "e17-nil", "t17", DRAIN_EVICT_BUDGET, NULL, 2 },
};

static uint32_t find_pod(const struct drain_cluster *c, const char *ns,
			 const char *name)
{
	uint32_t i;

	for (i = 0; i < c->n_pods; i++)
		if (!strcmp(c->pods[i].ns, ns) && !strcmp(c->pods[i].name, name))
			return i;
	fail_msg("no pod %s/%s", ns, name);
	return DRAIN_NONE;
}

static void eviction_table(void **state)
{
	char *yaml = td_fixture("eviction.yaml");
	struct drain_options o = td_options();
	struct drain_cluster c;
	struct drain_eviction ev;
	struct tdrain t;
	size_t i;

	(void)state;
	td_load(&t, yaml);
	assert_int_equal(drain_cluster_from_dump(&c, &t.l->arena, &t.diag,
						 t.g, &o), 0);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		uint32_t p = find_pod(&c, r->ns, r->pod);
		int64_t before;

		before = c.pods[p].n_budgets ? c.budgets[c.pods[p].budgets[0]].allowed
					     : -1;
		drain_evict(&c, p, &ev);
		if (ev.outcome != r->outcome)
			fail_msg("%s/%s: outcome %d, expected %d", r->ns,
				 r->pod, (int)ev.outcome, (int)r->outcome);
		if (r->message)
			td_contains(ev.message, r->message);
		if (r->allowed_after >= 0)
			assert_int_equal(c.budgets[c.pods[p].budgets[0]].allowed,
					 r->allowed_after);
		else if (before >= 0)
			assert_int_equal(c.budgets[c.pods[p].budgets[0]].allowed,
					 before);
	}
	drain_cluster_release(&c);
	td_free(&t);
	free(yaml);
}

/* Through the whole drain: a refused eviction blocks the node, and the
 * finding points at the budget's field with the API server's words. */
static void blocked_node(void **state)
{
	struct drain_options o = td_options();
	const struct drain_issue *is;
	struct tdrain t;

	(void)state;
	td_load(&t,
		"apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ns,"
		" labels: {app: x}, ownerReferences: [{apiVersion: apps/v1,"
		" kind: ReplicaSet, name: rs, controller: true}]}\n"
		"spec: {nodeName: n1}\n"
		"status: {phase: Running, conditions: [{type: Ready, status: \"True\"}]}\n---\n"
		"apiVersion: policy/v1\nkind: PodDisruptionBudget\n"
		"metadata: {name: x, namespace: ns}\n"
		"spec: {minAvailable: 1, selector: {matchLabels: {app: x}}}\n");
	td_run(&t, &o);
	assert_int_equal(t.rc, 0);
	/* no status: the budget is computed (1.9): 1 pod, minAvailable 1 */
	is = td_issue(&t, "n1", DRAIN_RULE_EVICTION_BLOCKED);
	assert_int_equal(is->sev, KVET_SEV_ERROR);
	td_contains(is->message, "needs 1 healthy pods and has 1 currently");
	td_contains(is->message, "allows no disruption at all");
	assert_non_null(is->at);
	assert_int_equal(is->at->line, 14);
	assert_int_equal(td_node(&t, "n1")->evicted, 0);
	td_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(eviction_table),
		cmocka_unit_test(blocked_node),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
