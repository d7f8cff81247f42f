/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The spreading terms of a run (model/spread_run.c): built once, found
 * by their node, foreign workloads counted once; and why a term is not
 * effective, as a code and the field it concerns (kvet_term_why_not()).
 */
#include "tgraph.h"
#include "tspread.h"

#include "model/run.h"
#include "model/spread.h"

struct fx {
	struct tgraph tg;
	struct kvet_run *run;
};

static void fx_init(struct fx *f)
{
	f->tg = tg_load(tspread_input(), 0);
	f->run = kvet_run_create(&f->tg.l->arena, f->tg.g);
	assert_non_null(f->run);
}

static void fx_free(struct fx *f)
{
	kvet_run_destroy(f->run);
	tg_free(&f->tg);
}

static const struct kvet_terms *terms(struct fx *f, const char *ns,
				      const char *name)
{
	const struct kvet_terms *tm = kvet_run_terms(
		f->run, tg_wl(&f->tg, "apps", "Deployment", ns, name));

	assert_non_null(tm);
	return tm;
}

static void found_by_node(void **state)
{
	struct fx f;
	const struct kvet_terms *tm;
	const struct kvet_term *t;
	const struct kvet_node *tsc;

	(void)state;
	fx_init(&f);
	tm = terms(&f, "ops", "alpha");
	assert_int_equal(tm->n, 3);
	/* built once: the same terms again */
	assert_ptr_equal(terms(&f, "ops", "alpha"), tm);
	assert_int_equal(kvet_run_term_at(f.run, tm->v[1].node, &t), 0);
	assert_ptr_equal(t, &tm->v[1]);
	/* the constraint read from another workload's object: every
	 * workload's terms are built to find it */
	tsc = kvet_node_path(tg_wl(&f.tg, "apps", "Deployment", "ops", "bad")
			     ->pod_spec, "topologySpreadConstraints", NULL);
	assert_int_equal(kvet_run_term_at(f.run, &tsc->u.items[0], &t), 0);
	assert_non_null(t);
	assert_int_equal(t->kind, KVET_TERM_SPREAD_CONSTRAINT);
	assert_string_equal(t->wl->obj->name, "bad");
	/* a mapping that is no term */
	assert_int_equal(kvet_run_term_at(f.run, tm->v[0].wl->pod_spec, &t), 0);
	assert_null(t);
	fx_free(&f);
}

static void foreign_counts(void **state)
{
	const struct kvet_term_foreign *fo;
	const struct kvet_terms *tm;
	struct fx f;

	(void)state;
	fx_init(&f);
	tm = terms(&f, "ops", "alpha");
	fo = kvet_run_term_foreign(f.run, &tm->v[1]);
	assert_non_null(fo);
	assert_int_equal(fo->n, 1);
	assert_int_equal(fo->n_true, 1);
	assert_int_equal(fo->pods, 2);
	assert_int_equal(fo->n_keep, 1);
	assert_string_equal(fo->keep[0].wl->obj->name, "beta");
	/* found once */
	assert_ptr_equal(kvet_run_term_foreign(f.run, &tm->v[1]), fo);
	/* the required term excludes alpha itself, not beta */
	fo = kvet_run_term_foreign(f.run, &tm->v[0]);
	assert_int_equal(fo->n, 1);
	/* a constraint without selector selects nothing */
	assert_int_equal(kvet_run_term_foreign(f.run, &tm->v[2])->n, 0);
	/* an assumed scope keeps far's own term from foreign workloads */
	tm = terms(&f, "far", "far");
	fo = kvet_run_term_foreign(f.run, &tm->v[0]);
	assert_int_equal(fo->n, 0);
	assert_int_equal(kvet_term_matches_elsewhere(f.tg.g, &tm->v[0]), 0);
	tm = terms(&f, "ops", "alpha");
	assert_int_equal(kvet_term_matches_elsewhere(f.tg.g, &tm->v[1]), 1);
	fx_free(&f);
}

static void why_not(void **state)
{
	const struct kvet_terms *tm;
	struct kvet_term_why why;
	struct fx f;

	(void)state;
	fx_init(&f);
	tm = terms(&f, "ops", "alpha");
	/* mismatchLabelKeys on its own name: the item is the field */
	kvet_term_why_not(f.tg.g, &tm->v[0], &why);
	assert_int_equal(why.flaw, KVET_TERM_EXCLUDES_OWN_PODS);
	assert_non_null(why.req);
	assert_true(kvet_slice_eq0(why.req->key, "app.kubernetes.io/name"));
	assert_ptr_equal(why.at, why.req->node);
	kvet_term_why_not(f.tg.g, &tm->v[1], &why);
	assert_int_equal(why.flaw, KVET_TERM_EFFECTIVE);
	assert_null(why.at);
	/* no labelSelector: the term itself */
	kvet_term_why_not(f.tg.g, &tm->v[2], &why);
	assert_int_equal(why.flaw, KVET_TERM_NO_SELECTOR);
	assert_ptr_equal(why.at, tm->v[2].node);
	assert_false(kvet_term_scope_assumed(f.tg.g, &tm->v[1]));

	tm = terms(&f, "ops", "solo");
	kvet_term_why_not(f.tg.g, &tm->v[1], &why);
	assert_int_equal(why.flaw, KVET_TERM_NOT_SPREADING_KEY);
	assert_true(kvet_node_eq(why.at, "topologyKey"));

	tm = terms(&f, "far", "far");
	kvet_term_why_not(f.tg.g, &tm->v[0], &why);
	assert_int_equal(why.flaw, KVET_TERM_SCOPE_EXCLUDES_OWN);
	assert_int_equal(why.scope, KVET_MATCH_ASSUMED_FALSE);
	assert_true(kvet_node_eq(why.at, "namespaceSelector"));
	assert_true(kvet_term_scope_assumed(f.tg.g, &tm->v[0]));
	fx_free(&f);
}

/* multi-replica-without-spread for one workload: the backends of a webhook
 * are checked with it. */
static void lacks_spreading(void **state)
{
	struct fx f;
	bool lacks;

	(void)state;
	fx_init(&f);
	assert_int_equal(kvet_workload_lacks_spreading(
		&f.tg.l->arena, f.tg.g,
		tg_wl(&f.tg, "apps", "Deployment", "ops", "beta"), &lacks), 0);
	assert_true(lacks);
	assert_int_equal(kvet_workload_lacks_spreading(
		&f.tg.l->arena, f.tg.g,
		tg_wl(&f.tg, "apps", "Deployment", "ops", "alpha"), &lacks), 0);
	assert_false(lacks);
	/* one replica: nothing to spread */
	assert_int_equal(kvet_workload_lacks_spreading(
		&f.tg.l->arena, f.tg.g,
		tg_wl(&f.tg, "apps", "Deployment", "ops", "bad"), &lacks), 0);
	assert_false(lacks);
	fx_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(found_by_node),
		cmocka_unit_test(foreign_counts),
		cmocka_unit_test(why_not),
		cmocka_unit_test(lacks_spreading),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
