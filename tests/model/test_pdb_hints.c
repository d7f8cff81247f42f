/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the model says about one PodDisruptionBudget beyond its
 * arithmetic: what the API server rejects (pdb_validate.c), near misses
 * and workloads elsewhere (hints.c), overlapping selectors (overlap.c).
 */
#include "tgraph.h"
#include "tpdb.h"

#include "model/hints.h"
#include "model/overlap.h"
#include "model/pdb_validate.h"
#include "model/run.h"

struct fx {
	struct tgraph tg;
	struct kvet_pdb pdb;
};

static void fx_init(struct fx *f)
{
	char *input = tpdb_input();

	assert_non_null(input);
	f->tg = tg_load(input, 0);
	free(input);
}

static const struct kvet_pdb *pdb(struct fx *f, const char *name)
{
	const struct kvet_object *obj = kvet_graph_find(
		f->tg.g, "policy", "PodDisruptionBudget", "ops", name);

	assert_non_null(obj);
	assert_int_equal(kvet_pdb_parse(&f->tg.l->arena, obj, &f->pdb), 0);
	return &f->pdb;
}

static void problems(void **state)
{
	struct kvet_problems ps;
	struct fx f;

	(void)state;
	fx_init(&f);
	assert_int_equal(kvet_pdb_problems(&f.tg.l->arena, pdb(&f, "bad"), &ps),
			 0);
	assert_int_equal(ps.n, 4);
	assert_int_equal(ps.v[0].code, KVET_PDB_BOTH_SET);
	assert_true(kvet_node_eq(ps.v[0].at, "maxUnavailable"));
	assert_true(kvet_node_eq(ps.v[0].value, "1"));
	assert_true(kvet_node_text_eq(ps.v[0].value2, "-1"));
	assert_int_equal(ps.v[1].code, KVET_PDB_QUOTED_DIGITS);
	assert_string_equal(ps.v[1].field, "minAvailable");
	assert_true(kvet_node_eq(ps.v[1].at, "minAvailable"));
	assert_int_equal(ps.v[2].code, KVET_PDB_NEGATIVE);
	assert_int_equal(ps.v[2].number, -1);
	/* inside the selector, as a bare position */
	assert_int_equal(ps.v[3].code, KVET_PDB_SELECTOR_INVALID);
	assert_non_null(strstr(ps.v[3].text, "operator \"in\""));
	assert_true(ps.v[3].at->line > 0 && ps.v[3].at->col > 20);
	assert_int_equal(kvet_pdb_problems(&f.tg.l->arena, pdb(&f, "old"), &ps),
			 0);
	assert_int_equal(ps.n, 1);
	assert_int_equal(ps.v[0].code, KVET_PDB_V1BETA1);
	assert_string_equal(ps.v[0].text, "policy/v1beta1");
	assert_int_equal(kvet_pdb_problems(&f.tg.l->arena, pdb(&f, "suite"),
					   &ps), 0);
	assert_int_equal(ps.n, 0);
	tg_free(&f.tg);
}

static const char *names(const struct kvet_workload **v, size_t n)
{
	static char buf[256];
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		if (i)
			strcat(buf, ",");
		strcat(buf, v[i]->obj->name);
	}
	return buf;
}

static void hints(void **state)
{
	const struct kvet_workload **v;
	const struct kvet_requirement *r;
	struct fx f;
	size_t n;

	(void)state;
	fx_init(&f);
	assert_int_equal(kvet_pdb_selected_elsewhere(&f.tg.l->arena, f.tg.g,
						     pdb(&f, "web"), &v, &n), 0);
	assert_string_equal(names(v, n), "web");
	assert_string_equal(v[0]->obj->namespace, "staging");
	assert_int_equal(kvet_pdb_near_misses(&f.tg.l->arena, f.tg.g,
					      pdb(&f, "web"), &v, &n), 0);
	assert_int_equal(n, 0);
	/* the DaemonSet lacks the component key: it fails that requirement
	 * too, and the managers fail only that one */
	assert_int_equal(kvet_pdb_near_misses(&f.tg.l->arena, f.tg.g,
					      pdb(&f, "typo"), &v, &n), 0);
	assert_string_equal(names(v, n), "alpha-mgr,beta-mgr,agent");
	r = kvet_pdb_unmet_requirement(&f.pdb, v[0]);
	assert_non_null(r);
	assert_true(kvet_slice_eq0(r->key, "app.kubernetes.io/component"));
	assert_int_equal(kvet_pdb_selected_elsewhere(&f.tg.l->arena, f.tg.g,
						     &f.pdb, &v, &n), 0);
	assert_int_equal(n, 0);
	/* one requirement: the workloads whose value looks like a typo */
	assert_int_equal(kvet_pdb_near_misses(&f.tg.l->arena, f.tg.g,
					      pdb(&f, "one"), &v, &n), 0);
	assert_string_equal(names(v, n), "agent");
	/* {} would match everything anywhere: no hint in that */
	assert_int_equal(kvet_pdb_selected_elsewhere(&f.tg.l->arena, f.tg.g,
						     pdb(&f, "empty"), &v, &n),
			 0);
	assert_int_equal(n, 0);
	assert_null(kvet_pdb_unmet_requirement(
		pdb(&f, "suite"), tg_wl(&f.tg, "apps", "Deployment", "ops",
					"alpha-mgr")));
	tg_free(&f.tg);
}

static void overlaps(void **state)
{
	const struct kvet_workload *const *v;
	const struct kvet_workload *alpha, *beta;
	struct kvet_run *run;
	struct fx f;
	size_t n;

	(void)state;
	fx_init(&f);
	run = kvet_run_create(&f.tg.l->arena, f.tg.g);
	alpha = tg_wl(&f.tg, "apps", "Deployment", "ops", "alpha-mgr");
	beta = tg_wl(&f.tg, "apps", "Deployment", "ops", "beta-mgr");
	assert_int_equal(kvet_run_overlapping(run, alpha, &v, &n), 0);
	assert_int_equal(n, 1);
	assert_ptr_equal(v[0], beta);
	assert_int_equal(kvet_run_overlapping(run, beta, &v, &n), 0);
	assert_int_equal(n, 1);
	assert_ptr_equal(v[0], alpha);
	assert_true(kvet_workload_selects_pods_of(beta, alpha));
	assert_false(kvet_workload_selects_pods_of(alpha, beta));
	assert_false(kvet_workload_selects_pods_of(alpha, alpha));
	/* generated Job selectors select only their own pods */
	assert_int_equal(kvet_run_overlapping(run, tg_wl(&f.tg, "batch", "Job",
							 "ops", "migrate-1"),
					      &v, &n), 0);
	assert_int_equal(n, 0);
	kvet_run_destroy(run);
	tg_free(&f.tg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(problems),
		cmocka_unit_test(hints),
		cmocka_unit_test(overlaps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
