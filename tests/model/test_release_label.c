/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Release-agnostic selectors (docs/model.md 1.7, rule
 * selector-ignores-release): which keys every release of a chart shares,
 * which label names the release, and when a budget's or a term's
 * selector leaves it out.
 */
#include "tgraph.h"

#include "model/release_label.h"
#include "model/run.h"
#include "model/spread.h"

#define PDB(name, sel)                                                      \
	"apiVersion: policy/v1\nkind: PodDisruptionBudget\n"                \
	"metadata: {name: " name ", namespace: ops}\n"                      \
	"spec: {maxUnavailable: 1, selector: {matchLabels: " sel "}}\n---\n"

/* A Deployment in ops whose pods carry @labels, with pod spec @spec. */
#define DEPLOY(name, labels, spec)                                          \
	"apiVersion: apps/v1\nkind: Deployment\n"                           \
	"metadata: {name: " name ", namespace: ops}\n"                      \
	"spec:\n  replicas: 2\n"                                            \
	"  selector: {matchLabels: " labels "}\n"                           \
	"  template:\n    metadata: {labels: " labels "}\n"                 \
	"    spec:\n" spec "---\n"

#define REQUIRED(sel, extra)                                                \
	"          - topologyKey: kubernetes.io/hostname\n"                 \
	"            labelSelector: {matchLabels: " sel "}\n" extra

#define ANTI(terms)                                                         \
	"      affinity:\n        podAntiAffinity:\n"                       \
	"          requiredDuringSchedulingIgnoredDuringExecution:\n" terms

#define NS "apiVersion: v1\nkind: Namespace\nmetadata: {name: ops}\n"

#define WEB_ALPHA "{app.kubernetes.io/name: web, app.kubernetes.io/instance: alpha}"

static void assert_slice(struct kvet_slice s, const char *want)
{
	assert_int_equal(s.len, strlen(want));
	assert_memory_equal(s.s, want, s.len);
}

/* The budget of PDB ops/@name in @yaml: does it leave out a release? */
static bool budget_ignores(const char *yaml, const char *name,
			   const char *key, const char *value)
{
	struct tgraph t = tg_load(yaml, 0);
	struct kvet_run *run = kvet_run_create(&t.l->arena, t.g);
	const struct kvet_budget *b;
	struct kvet_release_label rel;
	bool found;

	assert_non_null(run);
	b = kvet_run_budget(run, kvet_graph_find(t.g, "policy",
						 "PodDisruptionBudget", "ops",
						 name));
	assert_non_null(b);
	found = kvet_budget_ignores_release(t.g, b, &rel);
	if (found) {
		assert_slice(rel.key, key);
		assert_slice(rel.value, value);
	}
	kvet_run_destroy(run);
	tg_free(&t);
	return found;
}

static void agnostic_keys(void **state)
{
	static const char *const none[] = { "team" };
	struct kvet_graph_config cfg = { 0 };
	struct tgraph t = tg_load(NS, 0);
	struct tgraph r;

	(void)state;
	assert_true(kvet_release_agnostic_key(t.g, kvet_slice_of("app.kubernetes.io/name")));
	assert_true(kvet_release_agnostic_key(t.g, kvet_slice_of("k8s-app")));
	assert_true(kvet_release_agnostic_key(t.g, kvet_slice_of("app")));
	/* the shared keys of spread-selector-matches-foreign-pods too */
	assert_true(kvet_release_agnostic_key(t.g, kvet_slice_of("app.kubernetes.io/part-of")));
	assert_false(kvet_release_agnostic_key(t.g, kvet_slice_of("app.kubernetes.io/instance")));
	assert_false(kvet_release_agnostic_key(t.g, kvet_slice_of("team")));
	tg_free(&t);
	/* replacing sharedLabelKeys switches the built-in keys off */
	cfg.shared_keys.v = none;
	cfg.shared_keys.n = 1;
	cfg.shared_keys.replace = true;
	r = tg_load_cfg(NS, &cfg);
	assert_true(kvet_release_agnostic_key(r.g, kvet_slice_of("team")));
	assert_false(kvet_release_agnostic_key(r.g, kvet_slice_of("app.kubernetes.io/name")));
	assert_false(kvet_release_agnostic_key(r.g, kvet_slice_of("app.kubernetes.io/part-of")));
	tg_free(&r);
}

static void budgets(void **state)
{
	(void)state;
	/* the name alone over pods with an instance */
	assert_true(budget_ignores(PDB("web", "{app.kubernetes.io/name: web}")
				   DEPLOY("web", WEB_ALPHA, "      {}\n"),
				   "web", "app.kubernetes.io/instance", "alpha"));
	/* the instance too */
	assert_false(budget_ignores(PDB("web", WEB_ALPHA)
				    DEPLOY("web", WEB_ALPHA, "      {}\n"),
				    "web", NULL, NULL));
	/* two releases in the input: the other rules see them */
	assert_false(budget_ignores(
		PDB("web", "{app.kubernetes.io/name: web}")
		DEPLOY("web", WEB_ALPHA, "      {}\n")
		DEPLOY("web2", "{app.kubernetes.io/name: web, app.kubernetes.io/instance: beta}",
		       "      {}\n"),
		"web", NULL, NULL));
	/* pods without a release label, and a budget that selects nothing */
	assert_false(budget_ignores(PDB("web", "{app: web}")
				    DEPLOY("web", "{app: web}", "      {}\n"),
				    "web", NULL, NULL));
	assert_false(budget_ignores(PDB("web", "{app: none}")
				    DEPLOY("web", "{app: web}", "      {}\n"),
				    "web", NULL, NULL));
	/* a key outside the agnostic ones */
	assert_false(budget_ignores(
		PDB("web", "{app.kubernetes.io/name: web, team: a}")
		DEPLOY("web", "{app.kubernetes.io/name: web, app.kubernetes.io/instance: alpha, team: a}",
		       "      {}\n"),
		"web", NULL, NULL));
}

static void release_keys(void **state)
{
	(void)state;
	/* "release" is a track outside Helm ... */
	assert_false(budget_ignores(PDB("web", "{app: web}")
				    DEPLOY("web", "{app: web, release: stable}",
					   "      {}\n"),
				    "web", NULL, NULL));
	/* ... and the release where Helm made the pods */
	assert_true(budget_ignores(
		PDB("web", "{app: web}")
		DEPLOY("web", "{app: web, release: alpha, heritage: Helm}", "      {}\n"),
		"web", "release", "alpha"));
	assert_true(budget_ignores(
		"# Source: web/templates/pdb.yaml\n"
		PDB("web", "{app: web}")
		DEPLOY("web", "{app: web, helm.sh/release: alpha}", "      {}\n"),
		"web", "helm.sh/release", "alpha"));
}

static void release_name_in_values(void **state)
{
	(void)state;
	/* a fullname carries the release's name */
	assert_false(budget_ignores(
		PDB("web", "{app: alpha-web}")
		DEPLOY("web", "{app: alpha-web, app.kubernetes.io/instance: alpha}",
		       "      {}\n"),
		"web", NULL, NULL));
	/* a release called like its chart: the name value is the chart's */
	assert_true(budget_ignores(
		PDB("web", "{app.kubernetes.io/name: grafana}")
		DEPLOY("web", "{app.kubernetes.io/name: grafana, app.kubernetes.io/instance: grafana,"
			      " helm.sh/chart: grafana-7.0.1-rc.1}", "      {}\n"),
		"web", "app.kubernetes.io/instance", "grafana"));
	/* without the chart's name it is no evidence either way: quiet */
	assert_false(budget_ignores(
		PDB("web", "{app.kubernetes.io/name: grafana}")
		DEPLOY("web", "{app.kubernetes.io/name: grafana, app.kubernetes.io/instance: grafana}",
		       "      {}\n"),
		"web", NULL, NULL));
}

static void terms(void **state)
{
	struct tgraph t = tg_load(
		DEPLOY("web", WEB_ALPHA,
		       ANTI(REQUIRED("{app.kubernetes.io/name: web}", "")
			    REQUIRED(WEB_ALPHA, "")
			    REQUIRED("{app.kubernetes.io/name: web}",
				     "            matchLabelKeys: [app.kubernetes.io/instance]\n")
			    REQUIRED("{app.kubernetes.io/name: web}",
				     "            matchLabelKeys: [pod-template-hash]\n"))),
		0);
	struct kvet_release_label rel;
	struct kvet_terms tm;

	(void)state;
	assert_int_equal(kvet_workload_terms(&t.l->arena,
					     tg_wl(&t, "apps", "Deployment",
						   "ops", "web"), &tm), 0);
	assert_int_equal(tm.n, 4);
	assert_true(kvet_term_ignores_release(t.g, &tm.v[0], &rel));
	assert_slice(rel.key, "app.kubernetes.io/instance");
	assert_slice(rel.value, "alpha");
	assert_false(kvet_term_ignores_release(t.g, &tm.v[1], &rel));
	/* the API server adds the pod's instance to the merged selector */
	assert_false(kvet_term_ignores_release(t.g, &tm.v[2], &rel));
	/* one revision of one workload: no other release matches */
	assert_false(kvet_term_ignores_release(t.g, &tm.v[3], &rel));
	tg_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(agnostic_keys),
		cmocka_unit_test(budgets),
		cmocka_unit_test(release_keys),
		cmocka_unit_test(release_name_in_values),
		cmocka_unit_test(terms),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
