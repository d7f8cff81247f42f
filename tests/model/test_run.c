/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The per-run indexes (model/run.h): built once, on first use, a failed
 * build not tried again; and the budgets of a run (model/pdb.h), the PDB
 * <-> workload relation the PDB functions read.
 */
#include "tgraph.h"

#include "model/pdb.h"
#include "model/run.h"

static const char *const input =
	"apiVersion: apps/v1\nkind: Deployment\n"
	"metadata: {name: web, namespace: ops}\n"
	"spec:\n  selector: {matchLabels: {app: web}}\n"
	"  template: {metadata: {labels: {app: web, tier: fe}}}\n"
	"---\n"
	"apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\n"
	"metadata: {name: web, namespace: ops}\n"
	"spec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n"
	"  minReplicas: 2\n  maxReplicas: 5\n"
	"---\n"
	"apiVersion: apps/v1\nkind: StatefulSet\n"
	"metadata: {name: db, namespace: ops}\n"
	"spec:\n  replicas: 3\n  selector: {matchLabels: {app: db}}\n"
	"  template: {metadata: {labels: {app: db, tier: fe}}}\n"
	"---\n"
	"apiVersion: policy/v1\nkind: PodDisruptionBudget\n"
	"metadata: {name: web, namespace: ops}\n"
	"spec:\n  minAvailable: \"50%\"\n  selector: {matchLabels: {app: web}}\n"
	"---\n"
	"apiVersion: policy/v1\nkind: PodDisruptionBudget\n"
	"metadata: {name: fe, namespace: ops}\n"
	"spec:\n  maxUnavailable: 1\n  selector: {matchLabels: {tier: fe}}\n"
	"---\n"
	"apiVersion: policy/v1\nkind: PodDisruptionBudget\n"
	"metadata: {name: db, namespace: ops}\n"
	"spec:\n  minAvailable: 3\n  selector: {matchLabels: {app: db}}\n";

static int builds;

static void *count_build(struct kvet_run *run)
{
	builds++;
	return kvet_arena_alloc(kvet_run_arena(run), 1);
}

static void *fail_build(struct kvet_run *run)
{
	(void)run;
	builds++;
	return NULL;
}

static void slots(void **state)
{
	struct tgraph tg = tg_load(input, 0);
	struct kvet_run *run = kvet_run_create(&tg.l->arena, tg.g);
	void *a;

	(void)state;
	assert_ptr_equal(kvet_run_graph(run), tg.g);
	builds = 0;
	a = kvet_run_index(run, KVET_RUN_OVERLAPS, count_build, NULL);
	assert_non_null(a);
	assert_ptr_equal(kvet_run_index(run, KVET_RUN_OVERLAPS, count_build,
					NULL), a);
	assert_int_equal(builds, 1);
	/* a failed build is not tried again */
	assert_null(kvet_run_index(run, KVET_RUN_TERMS, fail_build, NULL));
	assert_null(kvet_run_index(run, KVET_RUN_TERMS, fail_build, NULL));
	assert_int_equal(builds, 2);
	/* outside a run */
	assert_null(kvet_run_index(NULL, KVET_RUN_TERMS, count_build, NULL));
	assert_null(kvet_run_graph(NULL));
	kvet_run_destroy(run);
	kvet_run_destroy(NULL);
	tg_free(&tg);
}

static const struct kvet_budget *budget(struct kvet_run *run,
					const struct tgraph *tg,
					const char *name)
{
	const struct kvet_object *obj = kvet_graph_find(
		tg->g, "policy", "PodDisruptionBudget", "ops", name);

	assert_non_null(obj);
	return kvet_run_budget(run, obj);
}

static void budgets(void **state)
{
	struct tgraph tg = tg_load(input, 0);
	struct kvet_run *run = kvet_run_create(&tg.l->arena, tg.g);
	const struct kvet_workload *web = tg_wl(&tg, "apps", "Deployment",
						"ops", "web");
	const struct kvet_workload *db = tg_wl(&tg, "apps", "StatefulSet",
					       "ops", "db");
	const struct kvet_object *const *pdbs;
	const struct kvet_budget *b;
	size_t n;

	(void)state;
	/* "50%" of N_min 2 (the HPA's minReplicas) rounds up to 1 */
	b = budget(run, &tg, "web");
	assert_non_null(b);
	assert_int_equal(b->n, 1);
	assert_ptr_equal(b->wls[0], web);
	assert_int_equal(b->res.status, KVET_PDB_OK);
	assert_int_equal(b->res.pods_total, 2);
	assert_int_equal(b->res.desired, 1);
	assert_int_equal(b->res.allowed, 1);
	/* tier: fe selects both, in workload order */
	b = budget(run, &tg, "fe");
	assert_int_equal(b->n, 2);
	assert_ptr_equal(b->wls[0], web);
	assert_ptr_equal(b->wls[1], db);
	assert_int_equal(b->res.pods_total, 5);
	assert_int_equal(b->res.allowed, 1);
	b = budget(run, &tg, "db");
	assert_int_equal(b->res.allowed, 0);
	assert_string_equal(kvet_pdb_status_name(b->res.status), "ok");
	/* what is not a PDB has no budget */
	assert_null(kvet_run_budget(run, web->obj));
	/* the reverse, in input order */
	assert_int_equal(kvet_run_pdbs_covering(run, web, &pdbs, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(pdbs[0]->name, "web");
	assert_string_equal(pdbs[1]->name, "fe");
	assert_int_equal(kvet_run_pdbs_covering(run, db, &pdbs, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(pdbs[0]->name, "fe");
	assert_string_equal(pdbs[1]->name, "db");
	kvet_run_destroy(run);
	tg_free(&tg);
}

static void allowed_at(void **state)
{
	struct tgraph tg = tg_load(input, 0);
	struct kvet_run *run = kvet_run_create(&tg.l->arena, tg.g);
	const struct kvet_budget *b = budget(run, &tg, "web");

	(void)state;
	/* minAvailable "50%" rounds up: at one replica nothing may go */
	assert_int_equal(kvet_pdb_allowed_at(&b->pdb, 1), 0);
	assert_int_equal(kvet_pdb_allowed_at(&b->pdb, 4), 2);
	b = budget(run, &tg, "fe");
	assert_int_equal(kvet_pdb_allowed_at(&b->pdb, 0), 0);
	assert_int_equal(kvet_pdb_allowed_at(&b->pdb, 3), 1);
	assert_true(kvet_pdb_uses_scale(&b->pdb));
	assert_false(kvet_pdb_uses_scale(&budget(run, &tg, "db")->pdb));
	assert_string_equal(kvet_pdb_member_kind_name(KVET_PDB_BARE_POD),
			    "bare-pod");
	kvet_run_destroy(run);
	tg_free(&tg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(slots),
		cmocka_unit_test(budgets),
		cmocka_unit_test(allowed_at),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
