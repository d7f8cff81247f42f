/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Spreading terms, merged selectors, scopes and foreign workloads
 * (docs/model.md 1.7 and 1.8, with the edge cases of the spreading rules).
 */
#include "tgraph.h"

#include <stdio.h>
#include <time.h>

#include "model/spread.h"

/* A Deployment in @ns with template labels @labels and pod spec @spec. */
#define DEPLOY(ns, name, labels, spec)                                      \
	"apiVersion: apps/v1\nkind: Deployment\n"                           \
	"metadata: {name: " name ", namespace: " ns "}\n"                   \
	"spec:\n  replicas: 2\n"                                            \
	"  selector: {matchLabels: {app.kubernetes.io/name: " name "}}\n"   \
	"  template:\n    metadata: {labels: " labels "}\n"                 \
	"    spec:\n" spec "---\n"

#define ANTI(kind, term)                                                    \
	"      affinity:\n        podAntiAffinity:\n          " kind ":\n" term

#define PREFERRED(term)                                                     \
	ANTI("preferredDuringSchedulingIgnoredDuringExecution",             \
	     "          - weight: 100\n            podAffinityTerm: " term "\n")

#define REQUIRED(term)                                                      \
	ANTI("requiredDuringSchedulingIgnoredDuringExecution",              \
	     "          - " term "\n")

#define SPREAD(c) "      topologySpreadConstraints:\n      - " c "\n"

#define ALPHA_LABELS                                                        \
	"{app.kubernetes.io/name: alpha, app.kubernetes.io/instance: alpha,"  \
	" app.kubernetes.io/part-of: suite, app.kubernetes.io/component: manager}"
#define BETA_LABELS                                                         \
	"{app.kubernetes.io/name: beta, app.kubernetes.io/instance: beta,"    \
	" app.kubernetes.io/part-of: suite, app.kubernetes.io/component: manager}"
#define SHARED_SEL                                                          \
	"{matchLabels: {app.kubernetes.io/part-of: suite,"                  \
	" app.kubernetes.io/component: manager}}"

static struct kvet_terms terms_of(struct tgraph *t, const char *ns,
				  const char *name)
{
	struct kvet_terms tm;

	assert_int_equal(kvet_workload_terms(&t->l->arena,
					     tg_wl(t, "apps", "Deployment", ns,
						   name), &tm), 0);
	return tm;
}

static size_t foreign(struct tgraph *t, const struct kvet_term *term,
		      const struct kvet_term_hit **hits)
{
	size_t n;

	assert_int_equal(kvet_term_foreign_list(&t->l->arena, t->g, term,
						hits, &n), 0);
	return n;
}

/* multi-replica-without-spread: a preferred term is enough, but only on a
 * spreading key. */
static void preferred_term_topology_keys(void **state)
{
	struct tgraph t = tg_load(
		DEPLOY("ops", "os", "{app.kubernetes.io/name: os}",
		       PREFERRED("{topologyKey: kubernetes.io/os, labelSelector:"
				 " {matchLabels: {app.kubernetes.io/name: os}}}"))
		DEPLOY("ops", "host", "{app.kubernetes.io/name: host}",
		       PREFERRED("{topologyKey: kubernetes.io/hostname,"
				 " labelSelector: {matchLabels:"
				 " {app.kubernetes.io/name: host}}}")),
		0);
	struct kvet_terms tm;

	(void)state;
	tm = terms_of(&t, "ops", "os");
	assert_int_equal(tm.n, 1);
	assert_int_equal(tm.v[0].kind, KVET_TERM_PREFERRED_ANTI_AFFINITY);
	assert_true(kvet_term_is_anti_affinity(&tm.v[0]));
	assert_true(kvet_slice_eq0(tm.v[0].topology_key, "kubernetes.io/os"));
	assert_true(kvet_term_matches_siblings(t.g, &tm.v[0]));
	assert_true(tm.v[0].scope_own);
	assert_false(kvet_spreading_topology_key(t.g, tm.v[0].topology_key));
	assert_int_equal(kvet_term_effective(t.g, &tm.v[0]), KVET_MATCH_FALSE);
	/* positions: the weighted entry, then its podAffinityTerm */
	assert_int_equal(tm.v[0].entry->line, 13);
	assert_int_equal(tm.v[0].node->line, 14);
	assert_int_equal(tm.v[0].topology_key_node->line, 14);
	tm = terms_of(&t, "ops", "host");
	assert_int_equal(kvet_term_effective(t.g, &tm.v[0]), KVET_MATCH_TRUE);
	tg_free(&t);
}

/* Section 4: a spread constraint without labelSelector counts nothing. */
static void spread_constraint_selectors(void **state)
{
	struct tgraph t = tg_load(
		DEPLOY("ops", "zone", "{app.kubernetes.io/name: zone}",
		       SPREAD("{maxSkew: 1, topologyKey: topology.kubernetes.io/zone,"
			      " whenUnsatisfiable: ScheduleAnyway, labelSelector:"
			      " {matchLabels: {app.kubernetes.io/name: zone}}}"))
		DEPLOY("ops", "nosel", "{app.kubernetes.io/name: nosel}",
		       SPREAD("{maxSkew: 1, topologyKey: kubernetes.io/hostname,"
			      " whenUnsatisfiable: DoNotSchedule}"))
		DEPLOY("ops", "manager", "{app.kubernetes.io/name: manager}",
		       SPREAD("{maxSkew: 1, topologyKey: kubernetes.io/hostname,"
			      " whenUnsatisfiable: DoNotSchedule, labelSelector:"
			      " {matchLabels: {app.kubernetes.io/name: mgr}}}"))
		DEPLOY("ops", "all", "{app.kubernetes.io/name: all}",
		       SPREAD("{maxSkew: 1, topologyKey: kubernetes.io/hostname,"
			      " whenUnsatisfiable: DoNotSchedule, labelSelector: {}}")),
		0);
	const struct kvet_term_hit *hits;
	struct kvet_terms tm;

	(void)state;
	tm = terms_of(&t, "ops", "zone");
	assert_int_equal(tm.n, 1);
	assert_int_equal(tm.v[0].kind, KVET_TERM_SPREAD_CONSTRAINT);
	assert_false(kvet_term_is_anti_affinity(&tm.v[0]));
	assert_int_equal(kvet_term_effective(t.g, &tm.v[0]), KVET_MATCH_TRUE);
	assert_int_equal(foreign(&t, &tm.v[0], &hits), 0);

	tm = terms_of(&t, "ops", "nosel");
	assert_int_equal(tm.v[0].selector.form, KVET_SEL_FORM_ABSENT);
	assert_int_equal(tm.v[0].merged.meaning, KVET_SEL_NOTHING);
	assert_false(kvet_term_matches_siblings(t.g, &tm.v[0]));
	assert_int_equal(kvet_term_effective(t.g, &tm.v[0]), KVET_MATCH_FALSE);

	tm = terms_of(&t, "ops", "manager");
	assert_false(kvet_term_matches_siblings(t.g, &tm.v[0]));

	/* {} counts every pod of the namespace: the three others too */
	tm = terms_of(&t, "ops", "all");
	assert_true(kvet_term_matches_siblings(t.g, &tm.v[0]));
	assert_int_equal(foreign(&t, &tm.v[0], &hits), 3);
	assert_string_equal(hits[0].wl->obj->name, "zone");
	assert_int_equal(hits[0].scope, KVET_MATCH_TRUE);
	tg_free(&t);
}

/* spread-selector-matches-foreign-pods' example: a shared-key selector
 * matches another release. */
static void shared_key_selector_matches_foreign(void **state)
{
	struct tgraph t = tg_load(
		DEPLOY("ops", "alpha", ALPHA_LABELS,
		       REQUIRED("{topologyKey: kubernetes.io/hostname,"
				" labelSelector: " SHARED_SEL "}"))
		DEPLOY("ops", "beta", BETA_LABELS, "      containers: []\n")
		DEPLOY("dev", "gamma", BETA_LABELS, "      containers: []\n"),
		0);
	const struct kvet_term_hit *hits;
	struct kvet_terms tm;

	(void)state;
	tm = terms_of(&t, "ops", "alpha");
	assert_int_equal(tm.n, 1);
	assert_int_equal(tm.v[0].kind, KVET_TERM_REQUIRED_ANTI_AFFINITY);
	assert_true(kvet_term_matches_siblings(t.g, &tm.v[0]));
	assert_int_equal(kvet_term_effective(t.g, &tm.v[0]), KVET_MATCH_TRUE);
	/* own namespace only: gamma in dev is out of scope */
	assert_int_equal(foreign(&t, &tm.v[0], &hits), 1);
	assert_string_equal(hits[0].wl->obj->name, "beta");
	assert_true(kvet_term_shared_keys_only(t.g, &tm.v[0]));
	assert_int_equal(kvet_term_scope_includes(t.g, &tm.v[0], "dev"),
			 KVET_MATCH_FALSE);
	tg_free(&t);
}

/* Section 4: matchLabelKeys [instance] makes the selector release-specific. */
static void match_label_keys_on_shared_selector(void **state)
{
	struct tgraph t = tg_load(
		DEPLOY("ops", "alpha", ALPHA_LABELS,
		       PREFERRED("{topologyKey: kubernetes.io/hostname,"
				 " matchLabelKeys: [app.kubernetes.io/instance,"
				 " absent.example.com/key],"
				 " labelSelector: " SHARED_SEL "}"))
		DEPLOY("ops", "beta", BETA_LABELS, "      containers: []\n"),
		0);
	const struct kvet_term_hit *hits;
	const struct kvet_requirement *r;
	struct kvet_terms tm;

	(void)state;
	tm = terms_of(&t, "ops", "alpha");
	/* two from matchLabels, one added; the absent key is ignored */
	assert_int_equal(tm.v[0].selector.n_reqs, 2);
	assert_int_equal(tm.v[0].merged.n_reqs, 3);
	r = &tm.v[0].merged.reqs[2];
	assert_true(kvet_slice_eq0(r->key, "app.kubernetes.io/instance"));
	assert_int_equal(r->op, KVET_SEL_IN);
	assert_true(kvet_slice_eq0(r->values[0], "alpha"));
	assert_true(kvet_term_matches_siblings(t.g, &tm.v[0]));
	assert_int_equal(foreign(&t, &tm.v[0], &hits), 0);
	assert_false(kvet_term_shared_keys_only(t.g, &tm.v[0]));
	tg_free(&t);
}

/* Section 4: mismatchLabelKeys on the workload's own name excludes it. */
static void mismatch_label_keys_exclude_siblings(void **state)
{
	struct tgraph t = tg_load(
		DEPLOY("ops", "alpha", ALPHA_LABELS,
		       REQUIRED("{topologyKey: kubernetes.io/hostname,"
				" mismatchLabelKeys: [app.kubernetes.io/name],"
				" labelSelector: " SHARED_SEL "}"))
		DEPLOY("ops", "beta", BETA_LABELS, "      containers: []\n"),
		0);
	const struct kvet_term_hit *hits;
	struct kvet_terms tm;

	(void)state;
	tm = terms_of(&t, "ops", "alpha");
	assert_int_equal(tm.v[0].merged.reqs[2].op, KVET_SEL_NOT_IN);
	assert_false(kvet_term_matches_siblings(t.g, &tm.v[0]));
	assert_int_equal(kvet_term_effective(t.g, &tm.v[0]), KVET_MATCH_FALSE);
	/* beta's name differs, so the term still repels it */
	assert_int_equal(foreign(&t, &tm.v[0], &hits), 1);
	assert_string_equal(hits[0].wl->obj->name, "beta");
	tg_free(&t);
}

/* required-anti-affinity-rollout-deadlock: pod-template-hash in
 * matchLabelKeys limits the term to a revision. */
static void pod_template_hash_and_revisions(void **state)
{
	struct tgraph t = tg_load(
		DEPLOY("ops", "hash", "{app.kubernetes.io/name: hash}",
		       REQUIRED("{topologyKey: kubernetes.io/hostname,"
				" matchLabelKeys: [pod-template-hash],"
				" labelSelector: {matchLabels:"
				" {app.kubernetes.io/name: hash}}}"))
		DEPLOY("ops", "plain", "{app.kubernetes.io/name: plain}",
		       REQUIRED("{topologyKey: kubernetes.io/hostname,"
				" labelSelector: {matchLabels:"
				" {app.kubernetes.io/name: plain}}}"))
		/* same labels as hash, so only the hash tells them apart */
		DEPLOY("ops", "twin", "{app.kubernetes.io/name: hash}",
		       "      containers: []\n"),
		0);
	const struct kvet_term_hit *hits;
	struct kvet_terms tm;

	(void)state;
	tm = terms_of(&t, "ops", "hash");
	assert_int_equal(tm.v[0].merged.n_reqs, 2);
	assert_true(kvet_term_matches_siblings(t.g, &tm.v[0]));
	assert_false(kvet_term_matches_siblings_across_revisions(t.g, &tm.v[0]));
	assert_int_equal(foreign(&t, &tm.v[0], &hits), 0);
	tm = terms_of(&t, "ops", "plain");
	assert_true(kvet_term_matches_siblings(t.g, &tm.v[0]));
	assert_true(kvet_term_matches_siblings_across_revisions(t.g, &tm.v[0]));
	tg_free(&t);
}

/* 1.8: a per-pod key in matchLabelKeys: the sibling's value differs. */
static void statefulset_per_pod_key(void **state)
{
	struct tgraph t = tg_load(
		"apiVersion: apps/v1\nkind: StatefulSet\n"
		"metadata: {name: db, namespace: ops}\n"
		"spec:\n  replicas: 3\n  selector: {matchLabels: {app: db}}\n"
		"  template:\n    metadata: {labels: {app: db}}\n    spec:\n"
		REQUIRED("{topologyKey: kubernetes.io/hostname,"
			 " matchLabelKeys: [statefulset.kubernetes.io/pod-name],"
			 " labelSelector: {matchLabels: {app: db}}}")
		"---\napiVersion: apps/v1\nkind: StatefulSet\n"
		"metadata: {name: rev, namespace: ops}\n"
		"spec:\n  replicas: 3\n  selector: {matchLabels: {app: rev}}\n"
		"  template:\n    metadata: {labels: {app: rev}}\n    spec:\n"
		REQUIRED("{topologyKey: kubernetes.io/hostname,"
			 " matchLabelKeys: [controller-revision-hash],"
			 " labelSelector: {matchLabels: {app: rev}}}"),
		0);
	const struct kvet_workload *wl;
	struct kvet_terms tm;

	(void)state;
	wl = tg_wl(&t, "apps", "StatefulSet", "ops", "db");
	assert_int_equal(kvet_workload_terms(&t.l->arena, wl, &tm), 0);
	assert_true(kvet_slice_eq0(tm.v[0].merged.reqs[1].values[0], "db-0"));
	assert_false(kvet_term_matches_siblings(t.g, &tm.v[0]));
	wl = tg_wl(&t, "apps", "StatefulSet", "ops", "rev");
	assert_int_equal(kvet_workload_terms(&t.l->arena, wl, &tm), 0);
	assert_true(kvet_term_matches_siblings(t.g, &tm.v[0]));
	assert_false(kvet_term_matches_siblings_across_revisions(t.g, &tm.v[0]));
	tg_free(&t);
}

#define NS(name, labels)                                                    \
	"apiVersion: v1\nkind: Namespace\nmetadata: {name: " name           \
	", labels: " labels "}\n---\n"

/* 1.7: namespaces, namespaceSelector, and ASSUMED results. */
static void affinity_scopes(void **state)
{
	struct tgraph t = tg_load(
		NS("labelled", "{team: a}")
		NS("plain", "{}")
		DEPLOY("ops", "listed", ALPHA_LABELS,
		       PREFERRED("{topologyKey: kubernetes.io/hostname,"
				 " namespaces: [plain, dev, plain],"
				 " labelSelector: " SHARED_SEL "}"))
		DEPLOY("ops", "everywhere", ALPHA_LABELS,
		       PREFERRED("{topologyKey: kubernetes.io/hostname,"
				 " namespaceSelector: {},"
				 " labelSelector: " SHARED_SEL "}"))
		DEPLOY("ops", "optout", ALPHA_LABELS,
		       PREFERRED("{topologyKey: kubernetes.io/hostname,"
				 " namespaceSelector: {matchExpressions: [{key:"
				 " team, operator: DoesNotExist}]},"
				 " labelSelector: " SHARED_SEL "}"))
		DEPLOY("ops", "optin", ALPHA_LABELS,
		       PREFERRED("{topologyKey: kubernetes.io/hostname,"
				 " namespaceSelector: {matchLabels: {team: a}},"
				 " labelSelector: " SHARED_SEL "}"))
		DEPLOY("labelled", "b1", BETA_LABELS, "      containers: []\n")
		DEPLOY("plain", "b2", BETA_LABELS, "      containers: []\n")
		DEPLOY("dev", "b3", BETA_LABELS, "      containers: []\n"),
		0);
	const struct kvet_term_hit *hits;
	struct kvet_terms tm;

	(void)state;
	tm = terms_of(&t, "ops", "listed");
	assert_false(tm.v[0].scope_own);
	assert_int_equal(tm.v[0].n_namespaces, 2);
	assert_int_equal(kvet_term_scope_includes(t.g, &tm.v[0], "dev"),
			 KVET_MATCH_TRUE);
	/* listing others leaves the own namespace out */
	assert_int_equal(kvet_term_scope_includes(t.g, &tm.v[0], "ops"),
			 KVET_MATCH_FALSE);
	assert_int_equal(kvet_term_effective(t.g, &tm.v[0]), KVET_MATCH_FALSE);
	/* 1.8: its labels match the siblings, its scope does not reach them */
	assert_false(kvet_term_matches_siblings(t.g, &tm.v[0]));
	assert_false(kvet_term_matches_siblings_across_revisions(t.g,
								 &tm.v[0]));
	assert_int_equal(foreign(&t, &tm.v[0], &hits), 2);
	assert_string_equal(hits[0].wl->obj->name, "b3");
	assert_string_equal(hits[1].wl->obj->name, "b2");

	tm = terms_of(&t, "ops", "everywhere");
	assert_int_equal(kvet_term_effective(t.g, &tm.v[0]), KVET_MATCH_TRUE);
	assert_true(kvet_term_matches_siblings(t.g, &tm.v[0]));
	/* alpha's siblings aside, every other copy of the selector labels */
	assert_int_equal(foreign(&t, &tm.v[0], &hits), 6);

	/* ops and dev have no Namespace object: assumed to lack "team" */
	tm = terms_of(&t, "ops", "optout");
	assert_int_equal(kvet_term_effective(t.g, &tm.v[0]),
			 KVET_MATCH_ASSUMED_TRUE);
	assert_int_equal(kvet_term_scope_includes(t.g, &tm.v[0], "labelled"),
			 KVET_MATCH_FALSE);
	assert_int_equal(kvet_term_scope_includes(t.g, &tm.v[0], "plain"),
			 KVET_MATCH_TRUE);
	assert_int_equal(foreign(&t, &tm.v[0], &hits), 5);
	assert_string_equal(hits[0].wl->obj->name, "listed");
	assert_int_equal(hits[0].scope, KVET_MATCH_ASSUMED_TRUE);

	tm = terms_of(&t, "ops", "optin");
	assert_int_equal(kvet_term_effective(t.g, &tm.v[0]),
			 KVET_MATCH_ASSUMED_FALSE);
	assert_false(kvet_term_matches_siblings(t.g, &tm.v[0]));
	assert_int_equal(foreign(&t, &tm.v[0], &hits), 1);
	assert_string_equal(hits[0].wl->obj->name, "b1");
	assert_int_equal(hits[0].scope, KVET_MATCH_TRUE);
	tg_free(&t);
}

/* Configured spreading and shared keys add to the defaults. */
static void configured_keys(void **state)
{
	static const char *const spread[] = { "example.com/rack" };
	static const char *const shared[] = { "example.com/team" };
	struct kvet_graph_config cfg = { 0 };
	struct kvet_terms tm;
	struct tgraph t;

	(void)state;
	cfg.spread_keys.v = spread;
	cfg.spread_keys.n = 1;
	cfg.shared_keys.v = shared;
	cfg.shared_keys.n = 1;
	t = tg_load_cfg(
		DEPLOY("ops", "alpha", ALPHA_LABELS,
		       PREFERRED("{topologyKey: example.com/rack,"
				 " labelSelector: " SHARED_SEL "}")),
		&cfg);
	tm = terms_of(&t, "ops", "alpha");
	assert_true(kvet_spreading_topology_key(t.g, tm.v[0].topology_key));
	assert_true(kvet_spreading_topology_key(t.g,
			kvet_slice_of("topology.kubernetes.io/region")));
	assert_int_equal(kvet_term_effective(t.g, &tm.v[0]), KVET_MATCH_TRUE);
	/* part-of and component are still shared keys */
	assert_true(kvet_term_shared_keys_only(t.g, &tm.v[0]));
	tg_free(&t);
}

/* Replaced lists leave the defaults out. */
static void replaced_keys(void **state)
{
	static const char *const spread[] = { "example.com/rack" };
	static const char *const shared[] = { "app.kubernetes.io/part-of" };
	struct kvet_graph_config cfg = { 0 };
	struct kvet_terms tm;
	struct tgraph t;

	(void)state;
	cfg.spread_keys.v = spread;
	cfg.spread_keys.n = 1;
	cfg.spread_keys.replace = true;
	cfg.shared_keys.v = shared;
	cfg.shared_keys.n = 1;
	cfg.shared_keys.replace = true;
	t = tg_load_cfg(
		DEPLOY("ops", "alpha", ALPHA_LABELS,
		       PREFERRED("{topologyKey: example.com/rack,"
				 " labelSelector: " SHARED_SEL "}")),
		&cfg);
	tm = terms_of(&t, "ops", "alpha");
	assert_true(kvet_spreading_topology_key(t.g, tm.v[0].topology_key));
	assert_false(kvet_spreading_topology_key(t.g,
			kvet_slice_of("topology.kubernetes.io/region")));
	/* component is no longer a shared key */
	assert_false(kvet_term_shared_keys_only(t.g, &tm.v[0]));
	tg_free(&t);
}

/* Term order, and items of the wrong shape skipped. */
static void term_order(void **state)
{
	struct tgraph t = tg_load(
		DEPLOY("ops", "mix", "{app.kubernetes.io/name: mix}",
		       "      topologySpreadConstraints: [{topologyKey: a}, 7]\n"
		       "      affinity:\n        podAntiAffinity:\n"
		       "          preferredDuringSchedulingIgnoredDuringExecution:\n"
		       "          - {weight: 1, podAffinityTerm: {topologyKey: b}}\n"
		       "          - {weight: 1}\n"
		       "          requiredDuringSchedulingIgnoredDuringExecution:\n"
		       "          - {topologyKey: c}\n"),
		0);
	struct kvet_terms tm;

	(void)state;
	tm = terms_of(&t, "ops", "mix");
	assert_int_equal(tm.n, 3);
	assert_int_equal(tm.v[0].kind, KVET_TERM_REQUIRED_ANTI_AFFINITY);
	assert_true(kvet_slice_eq0(tm.v[0].topology_key, "c"));
	assert_int_equal(tm.v[1].kind, KVET_TERM_PREFERRED_ANTI_AFFINITY);
	assert_int_equal(tm.v[2].kind, KVET_TERM_SPREAD_CONSTRAINT);
	/* an affinity term without labelSelector selects nothing */
	assert_int_equal(tm.v[0].merged.meaning, KVET_SEL_NOTHING);
	assert_false(kvet_term_shared_keys_only(t.g, &tm.v[0]));
	assert_string_equal(kvet_term_kind_name(tm.v[2].kind),
			    "topology spread constraint");
	tg_free(&t);
}

#define SCALE_FMT                                                           \
	"apiVersion: apps/v1\nkind: Deployment\n"                           \
	"metadata: {name: d%d, namespace: ns%d}\n"                          \
	"spec:\n  selector: {matchLabels: {app: d%d}}\n"                    \
	"  template:\n    metadata: {labels: {app: d%d, tier: web}}\n"      \
	"    spec:\n      topologySpreadConstraints:\n"                     \
	"      - {maxSkew: 1, topologyKey: kubernetes.io/hostname,"          \
	" whenUnsatisfiable: DoNotSchedule,"                                \
	" labelSelector: {matchLabels: {app: d%d}}}\n---\n"

/* Foreign selection goes through the label index: 20,000 workloads. */
static void foreign_selection_scales(void **state)
{
	enum { N = 20000 };
	size_t cap = (size_t)N * 400, len = 0, i, total = 0, nw;
	struct kvet_workload *const *wls;
	char *buf = malloc(cap);
	struct tgraph t;
	clock_t start;

	(void)state;
	assert_non_null(buf);
	for (i = 0; i < N; i++) {
		int k = (int)i;

		len += (size_t)snprintf(buf + len, cap - len, SCALE_FMT, k,
					k % 50, k, k, k);
	}
	t = tg_load(buf, 0);
	free(buf);
	wls = kvet_graph_workloads(t.g, &nw);
	assert_int_equal(nw, N);
	start = clock();
	for (i = 0; i < nw; i++) {
		const struct kvet_term_hit *hits;
		struct kvet_terms tm;

		assert_int_equal(kvet_workload_terms(&t.l->arena, wls[i], &tm),
				 0);
		assert_int_equal(tm.n, 1);
		assert_int_equal(kvet_term_effective(t.g, &tm.v[0]),
				 KVET_MATCH_TRUE);
		total += foreign(&t, &tm.v[0], &hits);
	}
	assert_int_equal(total, 0);
	/* all pairs would be 4e8 selector evaluations */
	assert_true((double)(clock() - start) / CLOCKS_PER_SEC < 5.0);
	tg_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(preferred_term_topology_keys),
		cmocka_unit_test(spread_constraint_selectors),
		cmocka_unit_test(shared_key_selector_matches_foreign),
		cmocka_unit_test(match_label_keys_on_shared_selector),
		cmocka_unit_test(mismatch_label_keys_exclude_siblings),
		cmocka_unit_test(pod_template_hash_and_revisions),
		cmocka_unit_test(statefulset_per_pod_key),
		cmocka_unit_test(affinity_scopes),
		cmocka_unit_test(configured_keys),
		cmocka_unit_test(replaced_keys),
		cmocka_unit_test(term_order),
		cmocka_unit_test(foreign_selection_scales),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
