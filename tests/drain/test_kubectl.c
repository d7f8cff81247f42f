/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kubectl drain's filters, case by case, from kubernetes'
 * staging/src/k8s.io/kubectl/pkg/cmd/drain/drain_test.go (TestDrain) and
 * pkg/drain/filters.go. Every pod of TestDrain runs alone on a node named
 * after its Go variable (tests/drain/fixtures/kubectl.yaml); each row is
 * one of TestDrain's cases: the node, the flags, and whether kubectl
 * refuses it (expectFatal) or what happens to its pod.
 */
#include "tdrain.h"

enum flags {
	FORCE = 1, IGNORE_DS = 2, DELETE_EMPTYDIR = 4,
};

struct row {
	const char *test;		/* TestDrain's description */
	const char *node;
	unsigned int flags;
	bool fatal;			/* kubectl refuses the node */
	const char *fatal_message;	/* part of kubectl's words */
	size_t evicted, deleted, left;
	enum drain_rule warning;	/* DRAIN_RULE_COUNT: none */
};

static const struct row rows[] = {
	{ "RC-managed pod", "rcpod", 0, false, NULL, 1, 0, 0, DRAIN_RULE_COUNT },
	{ "DS-managed pod", "dspod", 0, true,
	  "cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): default/bar-dspod",
	  0, 0, 0, DRAIN_RULE_COUNT },
	{ "DS-managed terminated pod", "dsterminatedpod", 0, false, NULL, 0, 1, 0,
	  DRAIN_RULE_COUNT },
	{ "orphaned DS-managed pod", "orphaneddspod", 0, true,
	  "cannot delete Pods that declare no controller (use --force to override)",
	  0, 0, 0, DRAIN_RULE_COUNT },
	{ "orphaned DS-managed pod with --force", "orphaneddspod", FORCE, false,
	  NULL, 1, 0, 0, DRAIN_RULE_POD_DELETED },
	{ "DS-managed pod with --ignore-daemonsets", "dspod", IGNORE_DS, false,
	  NULL, 0, 0, 1, DRAIN_RULE_COUNT },
	{ "DS-managed pod with emptyDir with --ignore-daemonsets",
	  "dspodwithemptydir", IGNORE_DS, false, NULL, 0, 0, 1,
	  DRAIN_RULE_COUNT },
	{ "Job-managed pod with local storage", "jobpod",
	  FORCE | DELETE_EMPTYDIR, false, NULL, 1, 0, 0,
	  DRAIN_RULE_EMPTYDIR_LOST },
	{ "Job-managed terminated pod", "terminatedjobpodwithlocalstorage", 0,
	  false, NULL, 0, 1, 0, DRAIN_RULE_COUNT },
	{ "RS-managed pod", "rspod", 0, false, NULL, 1, 0, 0, DRAIN_RULE_COUNT },
	{ "naked pod", "nakedpod", 0, true,
	  "cannot delete Pods that declare no controller (use --force to override): default/bar-nakedpod",
	  0, 0, 0, DRAIN_RULE_COUNT },
	{ "naked pod with --force", "nakedpod", FORCE, false, NULL, 1, 0, 0,
	  DRAIN_RULE_POD_DELETED },
	{ "pod with EmptyDir", "emptydirpod", FORCE, true,
	  "cannot delete Pods with local storage (use --delete-emptydir-data to override)",
	  0, 0, 0, DRAIN_RULE_COUNT },
	{ "terminated pod with emptyDir", "emptydirterminatedpod", 0, false,
	  NULL, 0, 1, 0, DRAIN_RULE_COUNT },
	{ "pod with EmptyDir and --delete-emptydir-data", "emptydirpod",
	  FORCE | DELETE_EMPTYDIR, false, NULL, 1, 0, 0,
	  DRAIN_RULE_EMPTYDIR_LOST },
	{ "empty node", "empty-node", 0, false, NULL, 0, 0, 0,
	  DRAIN_RULE_COUNT },
	/* filters.go mirrorPodFilter: skipped, whatever the flags */
	{ "mirror pod (filters.go)", "mirrorpod", 0, false, NULL, 0, 0, 1,
	  DRAIN_RULE_COUNT },
};

static void drain_table(void **state)
{
	char *yaml = td_fixture("kubectl.yaml");
	struct tdrain t;
	size_t i;

	(void)state;
	td_load(&t, yaml);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		struct drain_options o = td_options();
		const struct drain_node_result *nr;
		const char *names[] = { r->node };

		o.force = r->flags & FORCE;
		o.ignore_daemonsets = r->flags & IGNORE_DS;
		o.delete_emptydir = r->flags & DELETE_EMPTYDIR;
		o.names = names;
		o.n_names = 1;
		td_run(&t, &o);
		assert_int_equal(t.rc, 0);
		nr = td_node(&t, r->node);
		if (r->fatal != (td_count(&t, r->node,
					  DRAIN_RULE_KUBECTL_REFUSES) > 0))
			fail_msg("%s: fatal is %d", r->test, !r->fatal);
		if (r->fatal_message)
			td_contains(td_issue(&t, r->node,
					     DRAIN_RULE_KUBECTL_REFUSES)->message,
				    r->fatal_message);
		if (nr->evicted != r->evicted || nr->deleted != r->deleted ||
		    nr->left != r->left)
			fail_msg("%s: evicted %zu deleted %zu left %zu", r->test,
				 nr->evicted, nr->deleted, nr->left);
		if (r->warning != DRAIN_RULE_COUNT)
			assert_int_equal(td_count(&t, r->node, r->warning), 1);
		assert_int_equal(td_count(&t, r->node,
					  DRAIN_RULE_EVICTION_BLOCKED), 0);
	}
	td_free(&t);
	free(yaml);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(drain_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
