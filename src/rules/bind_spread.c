/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvet.spread: spreading terms and merged selectors (docs/model.md 1.8)
 * and the nodes they spread over, for the spreading rules
 * (multi-replica-without-spread, spread-*, required-anti-affinity-*).
 * The meaning is in model/spread.h, model/spread_run.c and
 * model/sched_validate.h.
 *
 * A term is its own mapping in the input (a required anti-affinity
 * term, a preferred entry's podAffinityTerm, a topology spread
 * constraint), so `term.topologyKey` reads and points at the field.
 *
 *   spreadingTerms(w) list                    its terms, in template order
 *   effectiveSpreadingTerms(w) list           those that are effective
 *   hasEffectiveSpreadingTerm(w) bool
 *   whyNoEffectiveSpreadingTerm(w) string     why each falls short
 *   schedulingTermProblems(w) list            what the API server rejects
 *   isRequiredAntiAffinity(t) bool, isPreferredAntiAffinity(t) bool,
 *   isAntiAffinity(t) bool, isSpreadConstraint(t) bool
 *   termName(t) string                        "topology spread constraint #1"
 *   matchesSiblings(t) bool, matchesSiblingsAcrossRevisions(t) bool,
 *   selectorMatchesSiblings(t) bool           labels only, whatever the scope
 *   hasSpreadingTopologyKey(t) bool, isEffectiveSpreadingTerm(t) bool
 *   scopeAssumed(t) bool, whyNotEffective(t) string, ineffectiveField(t) map
 *   hasValidSelector(t) bool, mergedSelector(t) string, termScope(t) string
 *   foreignWorkloadsOf(t) list, foreignWorkloadCount(t) int,
 *   foreignWorkloadNames(t) string, matchesWorkloadsElsewhere(t) bool,
 *   foreignScopeAssumed(t) bool, foreignPodCount(t) int
 *   selectsOnlySharedKeys(t) bool, topologyDomains(t) int
 *   termIgnoredRelease(t) map                 {key, value} or null
 *   livePodCount(ns) int, workloadNames(list) string
 *
 *   hasEffectiveSpreadingTerm(object) || spreadingTerms(object) == []
 */
#include "rules/bind.h"

#include <string.h>

#include "model/node_affinity.h"
#include "model/notation.h"
#include "model/release_label.h"
#include "model/sched_validate.h"
#include "rules/explain.h"

/* foreignWorkloadNames() names this many, then counts the rest. */
enum { NAMES_SHOWN = 3 };

static struct cel_value term_value(const struct kvet_term *t)
{
	return cel_from_node(t->node, t->node);
}

/* The terms of a workload, all or the effective ones, as values. */
static struct cel_value term_list(struct bind_call *c, bool effective)
{
	const struct kvet_terms *tm = kvet_run_terms(c->run, c->arg[0].wl);
	struct cel_value *items;
	size_t i, k = 0;

	if (!tm || !(items = kvet_arena_array(c->scratch, tm->n + 1,
					      sizeof(*items))))
		return bind_oom(c);
	for (i = 0; i < tm->n; i++)
		if (!effective ||
		    kvet_match_is_true(kvet_term_effective(c->g, &tm->v[i])))
			items[k++] = term_value(&tm->v[i]);
	return bind_list(c, items, k);
}

BIND_FN(spreading_terms, term_list(c, false))

BIND_FN(effective_spreading_terms, term_list(c, true))

/* size(effectiveSpreadingTerms(w)) > 0, without the list: the first
 * effective term decides. */
static struct cel_value has_effective_spreading_term(struct bind_call *c)
{
	const struct kvet_terms *tm = kvet_run_terms(c->run, c->arg[0].wl);
	size_t i;

	if (!tm)
		return bind_oom(c);
	for (i = 0; i < tm->n; i++)
		if (kvet_match_is_true(kvet_term_effective(c->g, &tm->v[i])))
			return cel_bool(true);
	return cel_bool(false);
}

static struct cel_value why_no_effective_spreading_term(struct bind_call *c)
{
	const struct kvet_terms *tm = kvet_run_terms(c->run, c->arg[0].wl);
	struct kvet_strbuf sb = KVET_STRBUF_ARENA(c->scratch);

	if (!tm)
		return bind_oom(c);
	explain_terms_flaws(&sb, c->g, tm);
	return bind_strbuf(c, &sb);
}

static struct cel_value scheduling_term_problems(struct bind_call *c)
{
	struct kvet_problems ps;

	if (kvet_pod_spec_term_problems(c->scratch, c->arg[0].wl->pod_spec,
					&ps))
		return bind_oom(c);
	return bind_problems(c, &ps, explain_sched_problem, BIND_PROBLEM_PART);
}

BIND_FN(is_required_anti_affinity,
	cel_bool(c->arg[0].term->kind == KVET_TERM_REQUIRED_ANTI_AFFINITY))

BIND_FN(is_preferred_anti_affinity,
	cel_bool(c->arg[0].term->kind == KVET_TERM_PREFERRED_ANTI_AFFINITY))

BIND_FN(is_anti_affinity, cel_bool(kvet_term_is_anti_affinity(c->arg[0].term)))

BIND_FN(is_spread_constraint,
	cel_bool(c->arg[0].term->kind == KVET_TERM_SPREAD_CONSTRAINT))

static struct cel_value term_name(struct bind_call *c)
{
	struct kvet_strbuf sb = KVET_STRBUF_ARENA(c->scratch);

	kvet_term_name(&sb, c->arg[0].term);
	return bind_strbuf(c, &sb);
}

BIND_FN(matches_siblings,
	cel_bool(kvet_term_matches_siblings(c->g, c->arg[0].term)))

BIND_FN(selector_matches_siblings,
	cel_bool(kvet_term_selector_matches_siblings(c->arg[0].term)))

BIND_FN(matches_siblings_across_revisions,
	cel_bool(kvet_term_matches_siblings_across_revisions(c->g,
							     c->arg[0].term)))

static struct cel_value has_spreading_topology_key(struct bind_call *c)
{
	return cel_bool(kvet_spreading_topology_key(
		c->g, c->arg[0].term->topology_key));
}

static struct cel_value is_effective_spreading_term(struct bind_call *c)
{
	enum kvet_match m = kvet_term_effective(c->g, c->arg[0].term);

	return cel_bool(kvet_match_is_true(m));
}

BIND_FN(scope_assumed, cel_bool(kvet_term_scope_assumed(c->g, c->arg[0].term)))

static struct cel_value why_not_effective(struct bind_call *c)
{
	struct kvet_strbuf sb = KVET_STRBUF_ARENA(c->scratch);
	struct kvet_term_why why;

	kvet_term_why_not(c->g, c->arg[0].term, &why);
	explain_term_flaw(&sb, c->arg[0].term, &why);
	return bind_strbuf(c, &sb);
}

static struct cel_value ineffective_field(struct bind_call *c)
{
	struct kvet_term_why why;
	struct cel_value v;

	kvet_term_why_not(c->g, c->arg[0].term, &why);
	if (!why.at)
		return bind_fail(c, "the term is effective");
	v = term_value(c->arg[0].term);
	v.at = why.at;
	return v;
}

BIND_FN(has_valid_selector,
	cel_bool(c->arg[0].term->selector.meaning != KVET_SEL_INVALID))

static struct cel_value merged_selector(struct bind_call *c)
{
	struct kvet_strbuf sb = KVET_STRBUF_ARENA(c->scratch);

	kvet_selector_meaning_notation(&sb, &c->arg[0].term->merged);
	return bind_strbuf(c, &sb);
}

static struct cel_value term_scope(struct bind_call *c)
{
	struct kvet_strbuf sb = KVET_STRBUF_ARENA(c->scratch);

	kvet_term_scope_notation(&sb, c->arg[0].term);
	return bind_strbuf(c, &sb);
}

static struct cel_value foreign_workloads_of(struct bind_call *c)
{
	const struct kvet_term_foreign *f = c->arg[0].foreign;
	struct cel_value *items;
	size_t i;

	items = kvet_arena_array(c->scratch, f->n_keep + 1, sizeof(*items));
	if (!items)
		return bind_oom(c);
	for (i = 0; i < f->n_keep; i++)
		items[i] = kvet_cel_from_object(f->keep[i].wl->obj);
	return bind_list(c, items, f->n_keep);
}

BIND_FN(foreign_workload_count, cel_int((int64_t)c->arg[0].foreign->n))

static struct cel_value foreign_workload_names(struct bind_call *c)
{
	const struct kvet_term_foreign *f = c->arg[0].foreign;
	struct kvet_strbuf sb = KVET_STRBUF_ARENA(c->scratch);
	const struct kvet_object *objs[NAMES_SHOWN];
	size_t i;

	for (i = 0; i < f->n_keep && i < NAMES_SHOWN; i++)
		objs[i] = f->keep[i].wl->obj;
	kvet_object_names(&sb, objs, i, f->n);
	return bind_strbuf(c, &sb);
}

static struct cel_value matches_workloads_elsewhere(struct bind_call *c)
{
	int r = kvet_term_matches_elsewhere(c->g, c->arg[0].term);

	return r < 0 ? bind_oom(c) : cel_bool(r > 0);
}

BIND_FN(foreign_scope_assumed, cel_bool(c->arg[0].foreign->n > 0 &&
					c->arg[0].foreign->n_true == 0))

BIND_FN(foreign_pod_count, cel_int(c->arg[0].foreign->pods))

BIND_FN(selects_only_shared_keys,
	cel_bool(kvet_term_shared_keys_only(c->g, c->arg[0].term)))

static struct cel_value term_ignored_release(struct bind_call *c)
{
	struct kvet_release_label rel;
	bool found = kvet_term_ignores_release(c->g, c->arg[0].term, &rel);

	return bind_release_label(c, found, &rel);
}

static struct cel_value topology_domains(struct bind_call *c)
{
	const struct kvet_term *t = c->arg[0].term;
	long n = kvet_topology_domains(c->scratch, c->g, t->wl->pod_spec,
				       t->topology_key);

	if (n == KVET_DOMAINS_NO_NODES)
		return bind_fail(c, "the input has no Node objects");
	if (n == -1)
		return bind_oom(c);
	return cel_int(n == KVET_DOMAINS_UNBOUNDED ? -1 : n);
}

static struct cel_value live_pod_count(struct bind_call *c)
{
	const struct kvet_namespace *ns = kvet_graph_namespace(c->g,
							       c->arg[0].s);

	return cel_int(ns ? (int64_t)ns->live_pods : 0);
}

static struct cel_value workload_names(struct bind_call *c)
{
	struct kvet_strbuf sb = KVET_STRBUF_ARENA(c->scratch);
	const struct bind_objects *l = &c->arg[0].objs;

	kvet_object_names(&sb, l->v, l->n < NAMES_SHOWN ? l->n : NAMES_SHOWN,
			  l->n);
	return bind_strbuf(c, &sb);
}

#define W (BIND_WORKLOAD)
#define T (BIND_TERM)
#define F (BIND_FOREIGN)
#define D (BIND_DEPLOYMENT)
#define ALPHA "apps/Deployment ops/alpha"
#define SOLO "apps/Deployment ops/solo"
#define FAR "apps/Deployment far/far"
#define T0 "spreadingTerms(object)[0]"
#define T1 "spreadingTerms(object)[1]"
#define T2 "spreadingTerms(object)[2]"

static const struct cel_func spread_funcs[] = {
	/* a workload's terms */
	BIND_ROW("spreadingTerms", CEL_ST_LIST, 1, 1, W, spreading_terms, 0,
		 "its terms in template order: required anti-affinity, preferred (their podAffinityTerm), spread constraints, as their mappings",
		 ALPHA, "size(spreadingTerms(object)) == 3"),
	BIND_ROW("effectiveSpreadingTerms", CEL_ST_LIST, 1, 1, W,
		 effective_spreading_terms, 0,
		 "the terms that match siblings, use a spreading topology key and include its namespace (1.8); an ASSUMED scope counts as its result",
		 ALPHA, "effectiveSpreadingTerms(object) == [" T1 "]"),
	BIND_ROW("hasEffectiveSpreadingTerm", CEL_ST_BOOL, 1, 1, W,
		 has_effective_spreading_term, 0,
		 "`size(effectiveSpreadingTerms(w)) > 0`",
		 "apps/Deployment ops/beta", "!hasEffectiveSpreadingTerm(object)"),
	BIND_ROW("whyNoEffectiveSpreadingTerm", CEL_ST_STRING, 1, 1, W,
		 why_no_effective_spreading_term, 0,
		 "why each term falls short (\"preferred pod anti-affinity term #1 uses topologyKey kubernetes.io/os, ...\"), for messages",
		 FAR, "whyNoEffectiveSpreadingTerm(object).startsWith('preferred pod anti-affinity term #1 looks in namespaces matching team=a')"),
	BIND_ROW("schedulingTermProblems", CEL_ST_LIST, 1, 1, W,
		 scheduling_term_problems, 0,
		 "what the API server rejects in its spread constraints and pod (anti-)affinity terms (rule `spread-constraint-invalid`): maps `{term: \"topologySpreadConstraints[0]\", field: <the field, for at>, problem: \"...\"}`",
		 "apps/Deployment ops/bad", "schedulingTermProblems(object)[0].problem == 'maxSkew 0 is not an integer of at least 1'"),
	/* one term */
	BIND_ROW("isRequiredAntiAffinity", CEL_ST_BOOL, 1, 1, T,
		 is_required_anti_affinity, 0,
		 "a `requiredDuringSchedulingIgnoredDuringExecution` anti-affinity term",
		 ALPHA, "isRequiredAntiAffinity(" T0 ")"),
	BIND_ROW("isPreferredAntiAffinity", CEL_ST_BOOL, 1, 1, T,
		 is_preferred_anti_affinity, 0,
		 "a preferred anti-affinity entry's `podAffinityTerm`",
		 ALPHA, "isPreferredAntiAffinity(" T1 ")"),
	BIND_ROW("isAntiAffinity", CEL_ST_BOOL, 1, 1, T, is_anti_affinity, 0,
		 "either kind of anti-affinity term",
		 ALPHA, "isAntiAffinity(" T0 ") && !isAntiAffinity(" T2 ")"),
	BIND_ROW("isSpreadConstraint", CEL_ST_BOOL, 1, 1, T,
		 is_spread_constraint, 0, "a topology spread constraint",
		 ALPHA, "isSpreadConstraint(object.spec.template.spec.topologySpreadConstraints[0])"),
	BIND_ROW("termName", CEL_ST_STRING, 1, 1, T, term_name, 0,
		 "\"required pod anti-affinity term #1\", \"topology spread constraint #2\", ...",
		 ALPHA, "termName(" T2 ") == 'topology spread constraint #1'"),
	BIND_ROW("matchesSiblings", CEL_ST_BOOL, 1, 1, T, matches_siblings, 0,
		 "its scope includes its own namespace and its merged selector matches a sibling replica of the same revision (1.8)",
		 ALPHA, "matchesSiblings(" T1 ") && !matchesSiblings(" T0 ")"),
	BIND_ROW("selectorMatchesSiblings", CEL_ST_BOOL, 1, 1, T,
		 selector_matches_siblings, 0,
		 "its merged selector matches a sibling replica of the same revision, whatever its scope",
		 ALPHA, "selectorMatchesSiblings(" T1 ") && !selectorMatchesSiblings(" T0 ")"),
	BIND_ROW("matchesSiblingsAcrossRevisions", CEL_ST_BOOL, 1, 1, T,
		 matches_siblings_across_revisions, 0,
		 "... and a sibling of another revision (false with `matchLabelKeys: [pod-template-hash]`)",
		 SOLO, "!matchesSiblingsAcrossRevisions(" T1 ")"),
	BIND_ROW("hasSpreadingTopologyKey", CEL_ST_BOOL, 1, 1, T,
		 has_spreading_topology_key, 0,
		 "`topologyKey` is a node, zone or region key, or one the configuration adds",
		 SOLO, "hasSpreadingTopologyKey(" T0 ") && !hasSpreadingTopologyKey(" T1 ")"),
	BIND_ROW("isEffectiveSpreadingTerm", CEL_ST_BOOL, 1, 1, T,
		 is_effective_spreading_term, 0,
		 "an effective spreading term (1.8); an ASSUMED scope counts as its result",
		 ALPHA, "isEffectiveSpreadingTerm(" T1 ")"),
	BIND_ROW("scopeAssumed", CEL_ST_BOOL, 1, 1, T, scope_assumed, 0,
		 "whether its scope includes its own namespace rests on a `namespaceSelector` and an absent Namespace object (ASSUMED, 1.5)",
		 FAR, "scopeAssumed(" T0 ")"),
	BIND_ROW("whyNotEffective", CEL_ST_STRING, 1, 1, T, why_not_effective,
		 0, "why it is not effective; `\"\"` when it is",
		 SOLO, "whyNotEffective(" T1 ") == 'uses topologyKey kubernetes.io/os, which is not a node, zone or region key'"),
	BIND_ROW("ineffectiveField", CEL_ST_MAP, 1, 1, T, ineffective_field, 0,
		 "the term positioned at the field that keeps it from being effective (`labelSelector`, the `mismatchLabelKeys` item, `topologyKey`, `namespaceSelector`), for `at`; an error when it is effective",
		 ALPHA, "ineffectiveField(" T0 ") == " T0),
	BIND_ROW("hasValidSelector", CEL_ST_BOOL, 1, 1, T, has_valid_selector,
		 0, "its `labelSelector` is absent or valid (1.5)",
		 ALPHA, "hasValidSelector(" T2 ")"),
	BIND_ROW("mergedSelector", CEL_ST_STRING, 1, 1, T, merged_selector, 0,
		 "the merged selector in kubectl syntax (`a=b,c notin (d)`; runtime values as `<pod-template-hash of this pod>`), for messages",
		 ALPHA, "mergedSelector(" T0 ") == 'app.kubernetes.io/part-of=suite,app.kubernetes.io/name notin (alpha)'"),
	BIND_ROW("termScope", CEL_ST_STRING, 1, 1, T, term_scope, 0,
		 "\"namespace ops\", \"every namespace\", \"namespaces matching team=a\", ..., for messages",
		 FAR, "termScope(" T0 ") == 'namespaces matching team=a'"),
	BIND_ROW("foreignWorkloadsOf", CEL_ST_LIST, 1, 1, F,
		 foreign_workloads_of, 0,
		 "the other workloads whose pods its merged selector selects within its scope (1.7), through the label index: the first 50 (a finding lists no more)",
		 ALPHA, "foreignWorkloadsOf(" T1 ").map(w, w.metadata.name) == ['beta']"),
	BIND_ROW("foreignWorkloadCount", CEL_ST_INT, 1, 1, F,
		 foreign_workload_count, 0, "how many there are, all of them",
		 ALPHA, "foreignWorkloadCount(" T1 ") == 1"),
	BIND_ROW("foreignWorkloadNames", CEL_ST_STRING, 1, 1, F,
		 foreign_workload_names, 0,
		 "\"Deployment ops/a, Deployment ops/b, Deployment ops/c and 47 more\", with the full count",
		 ALPHA, "foreignWorkloadNames(" T1 ") == 'Deployment ops/beta'"),
	BIND_ROW("matchesWorkloadsElsewhere", CEL_ST_BOOL, 1, 1, T,
		 matches_workloads_elsewhere, 0,
		 "its merged selector matches another workload in some namespace, in scope or not",
		 SOLO, "!matchesWorkloadsElsewhere(" T0 ")"),
	BIND_ROW("foreignScopeAssumed", CEL_ST_BOOL, 1, 1, F,
		 foreign_scope_assumed, 0,
		 "every foreign workload is in scope only by an ASSUMED `namespaceSelector` result",
		 ALPHA, "!foreignScopeAssumed(" T1 ")"),
	BIND_ROW("foreignPodCount", CEL_ST_INT, 1, 1, F, foreign_pod_count, 0,
		 "the pods of its foreign workloads (N_min; unknown counts add none)",
		 ALPHA, "foreignPodCount(" T1 ") == 2"),
	BIND_ROW("selectsOnlySharedKeys", CEL_ST_BOOL, 1, 1, T,
		 selects_only_shared_keys, 0,
		 "every requirement of its merged selector uses a shared key (the heuristic of rule `spread-selector-matches-foreign-pods`; `sharedLabelKeys` in the configuration)",
		 ALPHA, "selectsOnlySharedKeys(" T1 ") && !selectsOnlySharedKeys(" T0 ")"),
	BIND_ROW("termIgnoredRelease", CEL_ST_MAP, 1, 1, T,
		 term_ignored_release, 0,
		 "`pdbIgnoredRelease()` for its merged selector and its own workload's pods: the release label `{key, value}` the selector leaves out, or null (also with that key in `matchLabelKeys`)",
		 "apps/Deployment ops/chart-web",
		 "termIgnoredRelease(" T0 ").value == 'chart' && termIgnoredRelease(" T1 ") == null"),
	BIND_ROW("topologyDomains", CEL_ST_INT, 1, 1, T, topology_domains, 0,
		 "distinct `topologyKey` values among the schedulable Nodes that pass the pod's `nodeSelector` and required node affinity; -1 when such a Node lacks the label (no limit); an error without Node objects",
		 SOLO, "topologyDomains(" T0 ") == 2"),
	/* workload lists and namespaces */
	BIND_ROW("livePodCount", CEL_ST_INT, 1, 1, (BIND_NAMESPACE),
		 live_pod_count, BIND_RUN,
		 "the Pod objects of a cluster dump in a namespace (1.3: \"unless dump mode shows live Pods\")",
		 "", "livePodCount('far') == 1"),
	BIND_ROW("workloadNames", CEL_ST_STRING, 1, 1, (BIND_OBJECTS),
		 workload_names, 0,
		 "workloadNames(list): \"Deployment ops/a, StatefulSet ops/b, Deployment ops/c and 2 more\"",
		 "", "workloadNames(objects('StatefulSet')) == 'StatefulSet ops/db'"),
};

const struct cel_lib bind_spread_lib = CEL_LIB("kvet.spread", spread_funcs);
