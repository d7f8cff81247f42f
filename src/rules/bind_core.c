/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvet.core: the shared definitions of docs/model.md (the input,
 * workloads and their rollouts, replicas, selection, PDB evaluation) as
 * CEL functions.
 * Names read like the English of a condition:
 *
 *   size(pdbsCovering(object)) == 0 && minReplicas(object) >= 2
 *
 *   workloadsSelectedBy(pdbOrService) list    what it selects in its namespace
 *   pdbsCovering(w) list                      the PDBs that select it
 *   selects(pdbOrService, w) bool
 *   isWorkload(o) bool, namespaceOf(o) string, helmRendered(o) bool,
 *   isScalable(w) bool,
 *   workloadOf(o) map, templateLabels(w) map, selectorTemplateFlaw(w) string
 *   minReplicas(w) int, maxReplicas(w) int, specReplicas(w) int,
 *   hpaFor(w) map, scalerText(w) string, usesRollingUpdate(d) bool, maxUnavailableSetting(d)
 *   string, effectiveMaxUnavailable(d) int
 *   allowedDisruptions(pdb) int, podsTotal(pdb) int, expectedPods(pdb) int,
 *   desiredHealthy(pdb) int, pdbStatus(pdb) string,
 *   allowedDisruptionsAt(pdb, n) int
 *   objects(kind) list, objects(kind, ns) list, kindKnown(kind) bool
 *   namespaceCovered(ns) bool, operatorPopulated(ns) bool,
 *   dumpMode() bool, completeInput() bool
 *
 *   minReplicas(object) == 2   // a Deployment an HPA scales from 2
 *
 * Objects are CEL maps that remember their kvet_object; functions that
 * take a workload accept the object of any workload.
 */
#include "rules/bind.h"

#include <string.h>

#include "base/text.h"
#include "model/kinds.h"
#include "model/rollout.h"
#include "model/service.h"
#include "rules/explain.h"

static struct cel_value workloads_selected_by(struct bind_call *c)
{
	const struct kvet_workload *const *wls;
	size_t n;
	int r = kvet_run_selected_by(c->run, c->scratch, c->arg[0].obj, &wls,
				     &n);

	if (r == -2)
		return cel_eval_errorf(c->ev, "%s() takes a PodDisruptionBudget or a Service, not %s %s",
				       c->name, kvet_a_an(c->arg[0].obj->kind),
				       c->arg[0].obj->kind);
	return r ? bind_oom(c) : bind_workloads(c, wls, n);
}

static struct cel_value pdbs_covering(struct bind_call *c)
{
	const struct kvet_object *const *pdbs;
	size_t n;

	if (kvet_run_pdbs_covering(c->run, c->arg[0].wl, &pdbs, &n))
		return bind_oom(c);
	return bind_objects(c, pdbs, n);
}

static struct cel_value selects(struct bind_call *c)
{
	struct cel_value l = workloads_selected_by(c);
	size_t i;

	for (i = 0; l.type == CEL_LIST && i < l.len; i++)
		if (kvet_cel_object(&l.u.items[i]) == c->arg[1].wl->obj)
			return cel_bool(true);
	return l.type == CEL_LIST ? cel_bool(false) : l;
}

/* Only the top-level owner is the workload: a ReplicaSet folded into
 * its Deployment in dump mode is not one (1.2). */
static struct cel_value is_workload(struct bind_call *c)
{
	const struct kvet_workload *wl = kvet_graph_workload_of(c->g,
								c->arg[0].obj);

	return cel_bool(wl && wl->obj == c->arg[0].obj);
}

BIND_FN(namespace_of, bind_str(c->arg[0].obj->namespace))

/* 1.1: a "# Source:" comment names the template it came from */
BIND_FN(helm_rendered, cel_bool(c->arg[0].obj->source != NULL))

BIND_FN(is_scalable, cel_bool(kvet_workload_scalable(c->arg[0].wl)))

static struct cel_value workload_of(struct bind_call *c)
{
	const struct kvet_workload *wl = kvet_graph_workload_of(c->g,
								c->arg[0].obj);

	return bind_object(wl ? wl->obj : NULL);
}

static struct cel_value scaler_text(struct bind_call *c)
{
	struct kvet_strbuf sb = KVET_STRBUF_ARENA(c->scratch);

	explain_scaler(&sb, c->arg[0].wl);
	return bind_strbuf(c, &sb);
}

static struct cel_value template_flaw(struct bind_call *c)
{
	struct kvet_strbuf sb = KVET_STRBUF_ARENA(c->scratch);

	explain_template_flaw(&sb, c->arg[0].wl);
	return bind_strbuf(c, &sb);
}

static struct cel_value template_labels(struct bind_call *c)
{
	const struct kvet_node *labels = kvet_node_path(
		c->arg[0].wl->template, "metadata", "labels", NULL);

	return kvet_node_is_map(labels) ? cel_from_node(labels, NULL)
					: bind_empty_map();
}

/* N_spec, N_min or N_max (1.4); unknown counts are errors, so a
 * condition on them does not fire. */
static struct cel_value replicas(struct bind_call *c, long long n)
{
	const struct kvet_workload *wl = c->arg[0].wl;

	if (wl->replicas.state == KVET_REPLICAS_EXCLUDED)
		return bind_fail(c, "%s %s is not a long-running workload",
				 kvet_a_an(wl->obj->kind), wl->obj->kind);
	if (wl->replicas.state != KVET_REPLICAS_KNOWN)
		return bind_fail(c, "the replicas of %s \"%s\" are unknown",
				 wl->obj->kind, wl->obj->name);
	return cel_int(n);
}

BIND_FN(min_replicas, replicas(c, c->arg[0].wl->replicas.min))

BIND_FN(max_replicas, replicas(c, c->arg[0].wl->replicas.max))

BIND_FN(spec_replicas, replicas(c, c->arg[0].wl->replicas.spec))

static struct cel_value hpa_for(struct bind_call *c)
{
	const struct kvet_hpa *hpa = c->arg[0].wl->replicas.hpa;

	return bind_object(hpa ? hpa->obj : NULL);
}

/* A number of the budget at N_min; unknown pod counts are errors. */
static struct cel_value budget_number(struct bind_call *c, long long n)
{
	if (c->arg[0].budget->res.status == KVET_PDB_UNKNOWN)
		return bind_fail(c, "the pod count is unknown");
	return cel_int(n);
}

BIND_FN(allowed_disruptions, budget_number(c, c->arg[0].budget->res.allowed))

BIND_FN(pods_total, budget_number(c, c->arg[0].budget->res.pods_total))

BIND_FN(expected_pods, budget_number(c, c->arg[0].budget->res.expected))

BIND_FN(desired_healthy, budget_number(c, c->arg[0].budget->res.desired))

BIND_FN(pdb_status,
	bind_str(kvet_pdb_status_name(c->arg[0].budget->res.status)))

static struct cel_value allowed_disruptions_at(struct bind_call *c)
{
	return cel_int(kvet_pdb_allowed_at(&c->arg[0].budget->pdb,
					   c->arg[1].count));
}

static struct cel_value objects(struct bind_call *c)
{
	const char *kind = c->arg[0].s;
	const struct kvet_object **v;
	size_t n;
	int r;

	r = kvet_graph_objects_named(c->scratch, c->g, kind,
				     c->n == 2 ? c->arg[1].s : NULL, &v, &n);
	if (r == -2)
		return bind_fail(c, "give the group of kind \"%s\" as \"group/%s\"",
				 kind, kind);
	return r ? bind_oom(c) : bind_objects(c, v, n);
}

static struct cel_value kind_known(struct bind_call *c)
{
	bool known;
	int r = kvet_graph_kind_named_known(c->scratch, c->g, c->arg[0].s,
					    &known);

	if (r == -2)
		return bind_fail(c, "give the group of kind \"%s\" as \"group/%s\"",
				 c->arg[0].s, c->arg[0].s);
	return r ? bind_oom(c) : cel_bool(known);
}

BIND_FN(namespace_covered, cel_bool(kvet_graph_ns_covered(c->g, c->arg[0].s)))

BIND_FN(operator_populated,
	cel_bool(kvet_graph_ns_operator_populated(c->g, c->arg[0].s)))

BIND_FN(dump_mode, cel_bool(c->g && kvet_graph_dump_mode(c->g)))

BIND_FN(complete_input, cel_bool(c->g && kvet_graph_complete(c->g)))

BIND_FN(uses_rolling_update,
	cel_bool(kvet_deployment_rolling_update(c->arg[0].wl)))

static struct cel_value max_unavailable_setting(struct bind_call *c)
{
	const struct kvet_node *mu = kvet_deployment_max_unavailable(
		c->arg[0].wl);

	if (!mu)
		return bind_str("25%");
	if (!kvet_node_is_scalar(mu))
		return bind_fail(c, "not an int or a percentage");
	return cel_string(mu->u.str, mu->len);
}

static struct cel_value effective_max_unavailable(struct bind_call *c)
{
	static const char *const why[] = {
		[KVET_ROLLOUT_UNKNOWN_REPLICAS] = "the replicas are unknown",
		[KVET_ROLLOUT_NOT_INTSTR] = "maxUnavailable is not an int or a percentage",
		[KVET_ROLLOUT_NEGATIVE] = "maxUnavailable is negative",
		[KVET_ROLLOUT_OVER_100] = "maxUnavailable is above 100%",
	};
	enum kvet_rollout_error e;
	long long v;

	e = kvet_deployment_effective_max_unavailable(c->arg[0].wl, &v);
	return e == KVET_ROLLOUT_OK ? cel_int(v) : bind_fail(c, "%s", why[e]);
}

#define O (BIND_OBJECT)
#define W (BIND_WORKLOAD)
#define P (BIND_BUDGET)
#define D (BIND_DEPLOYMENT)
#define NS (BIND_NAMESPACE)
#define WEB "apps/Deployment core/web"
#define PDB "policy/PodDisruptionBudget core/web"

static const struct cel_func core_funcs[] = {
	/* selection, through the label index (1.7) */
	BIND_ROW("workloadsSelectedBy", CEL_ST_LIST, 1, 1, O,
		 workloads_selected_by, BIND_RUN,
		 "workloadsSelectedBy(pdbOrService): the workloads it selects in its namespace (1.7)",
		 PDB, "workloadsSelectedBy(object).map(w, w.metadata.name) == ['web']"),
	BIND_ROW("pdbsCovering", CEL_ST_LIST, 1, 1, W, pdbs_covering, 0,
		 "the PodDisruptionBudgets that select it",
		 WEB, "pdbsCovering(object).map(p, p.metadata.name) == ['web']"),
	BIND_ROW("selects", CEL_ST_BOOL, 2, 2, (BIND_OBJECT, BIND_WORKLOAD),
		 selects, BIND_RUN,
		 "selects(pdbOrService, w): it selects the workload's pods",
		 PDB, "selects(object, objects('Deployment', 'core')[0])"),
	/* workloads (1.2) */
	BIND_ROW("isWorkload", CEL_ST_BOOL, 1, 1, O, is_workload, BIND_RUN,
		 "o is a top-level workload (not folded into its owner, 1.2)",
		 WEB, "isWorkload(object)"),
	BIND_ROW("namespaceOf", CEL_ST_STRING, 1, 1, O, namespace_of, 0,
		 "its namespace with the default applied (\"\" when cluster-scoped)",
		 WEB, "namespaceOf(object) == 'core'"),
	BIND_ROW("helmRendered", CEL_ST_BOOL, 1, 1, O, helm_rendered, 0,
		 "o comes from a Helm render: a `# Source:` comment names its template (1.1)",
		 WEB, "!helmRendered(object)"),
	BIND_ROW("isScalable", CEL_ST_BOOL, 1, 1, W, is_scalable, 0,
		 "Deployment, ReplicaSet, StatefulSet, ReplicationController",
		 WEB, "isScalable(object)"),
	BIND_ROW("workloadOf", CEL_ST_MAP, 1, 1, O, workload_of, BIND_RUN,
		 "the workload o is or belongs to, or null",
		 WEB, "workloadOf(object) == object"),
	BIND_ROW("templateLabels", CEL_ST_MAP, 1, 1, W, template_labels, 0,
		 "L(W), the pod template's labels",
		 WEB, "templateLabels(object) == {'app': 'web', 'tier': 'fe'}"),
	BIND_ROW("selectorTemplateFlaw", CEL_ST_STRING, 1, 1, W,
		 template_flaw, 0,
		 "why the API server refuses its `spec.selector` for its own pod template (none, empty, invalid, or a requirement the template's labels fail), as a sentence; `\"\"` when it accepts it or does not check (Deployment, ReplicaSet, StatefulSet, DaemonSet, Job with `manualSelector: true`)",
		 "apps/Deployment ops/bad", "selectorTemplateFlaw(object) == 'its spec.selector requires app.kubernetes.io/name=bad, and the pod template has no label app.kubernetes.io/name'"),
	/* replicas (1.4) */
	BIND_ROW("minReplicas", CEL_ST_INT, 1, 1, W, min_replicas, 0,
		 "N_min: an HPA's minReplicas when one targets it, else N_spec; an error when unknown (DaemonSet outside dump mode) or excluded (Job)",
		 WEB, "minReplicas(object) == 2"),
	BIND_ROW("maxReplicas", CEL_ST_INT, 1, 1, W, max_replicas, 0,
		 "N_max: an HPA's maxReplicas when one targets it, else N_spec",
		 WEB, "maxReplicas(object) == 5"),
	BIND_ROW("specReplicas", CEL_ST_INT, 1, 1, W, spec_replicas, 0,
		 "N_spec: spec.replicas, default 1",
		 WEB, "specReplicas(object) == 1"),
	BIND_ROW("hpaFor", CEL_ST_MAP, 1, 1, W, hpa_for, 0,
		 "the HPA or KEDA ScaledObject that decides its replica range (1.4; of an HPA and a ScaledObject, the one with the larger minimum), or null",
		 WEB, "hpaFor(object).spec.maxReplicas == 5"),
	BIND_ROW("scalerText", CEL_ST_STRING, 1, 1, W, scaler_text, 0,
		 "the autoscaler of `hpaFor` and its minimum, for messages: `HPA \"web\" minReplicas 2`, `ScaledObject \"web\" minReplicaCount 0: 1 pod once active`; `\"\"` without one",
		 WEB, "scalerText(object) == 'HPA \"web\" minReplicas 2'"),
	/* PDB evaluation, at N_min (1.9) */
	BIND_ROW("allowedDisruptions", CEL_ST_INT, 1, 1, P,
		 allowed_disruptions, 0,
		 "disruptionsAllowed of a PDB in steady state, at N_min (1.9); an error when a pod count is unknown",
		 PDB, "allowedDisruptions(object) == 1"),
	BIND_ROW("allowedDisruptionsAt", CEL_ST_INT, 2, 2,
		 (BIND_BUDGET, BIND_COUNT), allowed_disruptions_at, 0,
		 "allowedDisruptionsAt(pdb, n): allowed disruptions if it selected one scalable workload of n pods",
		 PDB, "allowedDisruptionsAt(object, 1) == 0"),
	BIND_ROW("podsTotal", CEL_ST_INT, 1, 1, P, pods_total, 0,
		 "the pods a PDB selects",
		 PDB, "podsTotal(object) == 2"),
	BIND_ROW("expectedPods", CEL_ST_INT, 1, 1, P, expected_pods, 0,
		 "expectedCount of the disruption controller",
		 PDB, "expectedPods(object) == 2"),
	BIND_ROW("desiredHealthy", CEL_ST_INT, 1, 1, P, desired_healthy, 0,
		 "desiredHealthy of the disruption controller",
		 PDB, "desiredHealthy(object) == 1"),
	BIND_ROW("pdbStatus", CEL_ST_STRING, 1, 1, P, pdb_status, 0,
		 "\"ok\", \"no-policy\", \"invalid-both-set\", \"invalid-value\", \"sync-fails\" or \"unknown\"",
		 PDB, "pdbStatus(object) == 'ok'"),
	/* Deployment rollouts */
	BIND_ROW("usesRollingUpdate", CEL_ST_BOOL, 1, 1, D,
		 uses_rolling_update, 0,
		 "a Deployment's strategy is `RollingUpdate` (the default)",
		 "apps/Deployment ops/solo", "usesRollingUpdate(object)"),
	BIND_ROW("maxUnavailableSetting", CEL_ST_STRING, 1, 1, D,
		 max_unavailable_setting, 0,
		 "a Deployment's `rollingUpdate.maxUnavailable` as written, or `\"25%\"`",
		 "apps/Deployment ops/roll", "maxUnavailableSetting(object) == '20%'"),
	BIND_ROW("effectiveMaxUnavailable", CEL_ST_INT, 1, 1, D,
		 effective_max_unavailable, 0,
		 "`maxUnavailable` at N_min, a percentage rounded down (the Deployment controller's arithmetic)",
		 "apps/Deployment ops/solo", "effectiveMaxUnavailable(object) == 1"),
	/* the input (1.1, 1.3) */
	BIND_ROW("objects", CEL_ST_LIST, 1, 2, (BIND_STRING, BIND_STRING),
		 objects, BIND_RUN,
		 "objects(kind[, ns]): the objects of a kind (`\"Deployment\"` or `\"apps/Deployment\"`), of one namespace or all, from the kind index",
		 "", "objects('apps/Deployment', 'core').map(d, d.metadata.name) == ['web']"),
	BIND_ROW("kindKnown", CEL_ST_BOOL, 1, 1, (BIND_STRING), kind_known,
		 BIND_RUN,
		 "kindKnown(kind): the input shows which objects of the kind the cluster has (1.3): it is no cluster dump, the dump holds one, or the user says the input is the whole cluster (`--complete-input`); a dump of a few kinds shows nothing of the others",
		 "", "kindKnown('PodDisruptionBudget') && !kindKnown('CronJob')"),
	BIND_ROW("namespaceCovered", CEL_ST_BOOL, 1, 1, NS, namespace_covered,
		 BIND_RUN, "the input covers the namespace (1.3)",
		 "", "namespaceCovered('core') && !namespaceCovered('nowhere')"),
	BIND_ROW("operatorPopulated", CEL_ST_BOOL, 1, 1, NS,
		 operator_populated, BIND_RUN,
		 "custom resources live in the namespace (1.3)",
		 "", "!operatorPopulated('core')"),
	BIND_ROW("dumpMode", CEL_ST_BOOL, 0, 0, (BIND_ANY), dump_mode, 0,
		 "the input is a cluster dump (1.1)",
		 "", "dumpMode()"),
	BIND_ROW("completeInput", CEL_ST_BOOL, 0, 0, (BIND_ANY),
		 complete_input, 0, "the input is the whole cluster (1.3): said so, or a cluster dump",
		 "", "completeInput() && dumpMode()"),
};

const struct cel_lib bind_core_lib = CEL_LIB("kvet.core", core_funcs);
