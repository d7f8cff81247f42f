/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvet.pdb: PodDisruptionBudget specifics (the pdb-* rules), HPAs (rule
 * hpa-target-unresolved), selector overlaps (rule
 * workload-selectors-overlap) and Services (rule
 * service-selects-multiple-workloads). The meaning is in
 * model/pdb_validate.h, model/hints.h, model/overlap.h and
 * model/service.h.
 *
 *   pdbSpecProblems(pdb) list                what the API server rejects
 *   pdbSelectorForm(pdb) string              "absent", "empty", ...
 *   pdbUsesScale(pdb) bool, pdbOwnerKind(w) string
 *   workloadsSelectedElsewhere(pdb) list, nearMisses(pdb) list,
 *   unmetRequirement(pdb, w) string
 *   selectorText(o) string                   as kubectl prints it
 *   pdbIgnoredRelease(pdb) map               {key, value} or null
 *   scaleTargetOf(hpa) map, targetHasNoScale(hpa) bool
 *   overlappingWorkloads(w) list, selectsPodsOf(w1, w2) bool
 *   webhooksUsing(service) list, serviceHasEndpoints(service) bool,
 *   servicesInInput() bool
 *   distinctWorkloads(list) list, controllerRef(w) map,
 *   portsDeclaredByAll(service, list) bool
 *   namespaceCoveredBesides(o) bool, livePods(ns) int
 *
 *   size(overlappingWorkloads(object)) > 0
 *   size(webhooksUsing(object)) > 0 ? "error" : "warning"
 */
#include "rules/bind.h"

#include "model/hints.h"
#include "model/notation.h"
#include "model/orphan.h"
#include "model/overlap.h"
#include "model/pdb_validate.h"
#include "model/release_label.h"
#include "model/service.h"
#include "rules/explain.h"

static struct cel_value pdb_spec_problems(struct bind_call *c)
{
	struct kvet_problems ps;

	if (kvet_pdb_problems(c->scratch, c->arg[0].pdb, &ps))
		return bind_oom(c);
	return bind_problems(c, &ps, explain_pdb_problem, BIND_PROBLEM_FIELD);
}

BIND_FN(pdb_selector_form,
	bind_str(kvet_selector_form_name(&c->arg[0].pdb->selector)))

BIND_FN(pdb_uses_scale, cel_bool(kvet_pdb_uses_scale(c->arg[0].pdb)))

static struct cel_value pdb_owner_kind(struct bind_call *c)
{
	struct kvet_pdb_member m = kvet_workload_pdb_member(c->arg[0].wl);

	return bind_str(kvet_pdb_member_kind_name(m.kind));
}

static struct cel_value workloads_selected_elsewhere(struct bind_call *c)
{
	const struct kvet_workload **v;
	size_t n;

	if (kvet_pdb_selected_elsewhere(c->scratch, c->g, c->arg[0].pdb, &v,
					&n))
		return bind_oom(c);
	return bind_workloads(c, v, n);
}

static struct cel_value near_misses(struct bind_call *c)
{
	const struct kvet_workload **v;
	size_t n;

	if (kvet_pdb_near_misses(c->scratch, c->g, c->arg[0].pdb, &v, &n))
		return bind_oom(c);
	return bind_workloads(c, v, n);
}

static struct cel_value unmet_requirement(struct bind_call *c)
{
	struct kvet_strbuf sb = KVET_STRBUF_ARENA(c->scratch);
	const struct kvet_requirement *r;

	r = kvet_pdb_unmet_requirement(c->arg[0].pdb, c->arg[1].wl);
	if (r)
		explain_unmet_requirement(&sb, r, c->arg[1].wl);
	return bind_strbuf(c, &sb);
}

static struct cel_value selector_text(struct bind_call *c)
{
	const struct kvet_object *obj = c->arg[0].obj;
	struct kvet_strbuf sb = KVET_STRBUF_ARENA(c->scratch);
	struct kvet_selector sel;

	switch (kvet_object_selector(c->scratch, c->g, obj, &sel)) {
	case 0:
		kvet_selector_notation(&sb, &sel);
		return bind_strbuf(c, &sb);
	case -2:
		return cel_eval_errorf(c->ev, "%s() takes a PodDisruptionBudget, a Service or a workload, not %s \"%s\"",
				       c->name, obj->kind, obj->name);
	case -3:
		return bind_no_run(c);
	default:
		return bind_oom(c);
	}
}

static struct cel_value pdb_ignored_release(struct bind_call *c)
{
	struct kvet_release_label rel;
	bool found = kvet_budget_ignores_release(c->g, c->arg[0].budget, &rel);

	return bind_release_label(c, found, &rel);
}

BIND_FN(scale_target_of,
	bind_object(kvet_graph_hpa_target(c->g, c->arg[0].hpa)))

static struct cel_value scaled_object_for(struct bind_call *c)
{
	const struct kvet_hpa *o = kvet_graph_rival_scaler(c->g,
							   c->arg[0].hpa);

	return bind_object(o ? o->obj : NULL);
}

BIND_FN(target_has_no_scale,
	cel_bool(kvet_hpa_target_unscalable(c->arg[0].hpa)))

static struct cel_value overlapping_workloads(struct bind_call *c)
{
	const struct kvet_workload *const *v;
	size_t n;

	if (kvet_run_overlapping(c->run, c->arg[0].wl, &v, &n))
		return bind_oom(c);
	return bind_workloads(c, v, n);
}

static struct cel_value selects_pods_of(struct bind_call *c)
{
	return cel_bool(kvet_workload_selects_pods_of(c->arg[0].wl,
						      c->arg[1].wl));
}

static struct cel_value webhooks_using(struct bind_call *c)
{
	const struct kvet_object **v;
	size_t n;

	if (kvet_run_callers_of(c->run, c->scratch, c->arg[0].obj, &v, &n))
		return bind_oom(c);
	return bind_objects(c, v, n);
}

static struct cel_value service_ignored_release(struct bind_call *c)
{
	const struct kvet_workload *const *wls;
	struct kvet_release_label rel;
	struct kvet_service svc;
	size_t n;

	if (kvet_service_parse(c->scratch, c->arg[0].obj, &svc) ||
	    kvet_run_selected_by(c->run, c->scratch, c->arg[0].obj, &wls,
				 &n) < 0)
		return bind_oom(c);
	return bind_release_label(
		c, kvet_service_ignores_release(c->g, &svc, wls, n, &rel),
		&rel);
}

static struct cel_value ingresses_using(struct bind_call *c)
{
	const struct kvet_object **v;
	size_t n;

	if (kvet_service_ingresses(c->scratch, c->g, c->arg[0].obj, &v, &n))
		return bind_oom(c);
	return bind_objects(c, v, n);
}

/* The workloads of the list of argument @k, or an error value in @err. */
static const struct kvet_workload **workloads_arg(struct bind_call *c,
						  size_t k,
						  struct cel_value *err)
{
	const struct bind_objects *objs = &c->arg[k].objs;
	const struct kvet_workload **wls;
	size_t i;

	wls = kvet_arena_array(c->scratch, objs->n + 1, sizeof(*wls));
	if (!wls) {
		*err = bind_oom(c);
		return NULL;
	}
	for (i = 0; i < objs->n; i++) {
		wls[i] = kvet_graph_workload_of(c->g, objs->v[i]);
		if (!wls[i] || wls[i]->obj != objs->v[i]) {
			*err = bind_fail(c, "%s \"%s\" is not a workload",
					 objs->v[i]->kind, objs->v[i]->name);
			return NULL;
		}
	}
	return wls;
}

static struct cel_value distinct_workloads(struct bind_call *c)
{
	const struct kvet_workload **wls, *const *v;
	struct cel_value err;
	size_t n;

	wls = workloads_arg(c, 0, &err);
	if (!wls)
		return err;
	if (kvet_workloads_distinct(c->scratch, wls, c->arg[0].objs.n, &v,
				    &n))
		return bind_oom(c);
	return bind_workloads(c, v, n);
}

static struct cel_value ports_declared_by_all(struct bind_call *c)
{
	const struct kvet_workload **wls;
	struct cel_value err;

	wls = workloads_arg(c, 1, &err);
	if (!wls)
		return err;
	return cel_bool(kvet_service_ports_declared_by(c->arg[0].obj, wls,
						       c->arg[1].objs.n));
}

static struct cel_value controller_ref(struct bind_call *c)
{
	struct kvet_controller_ref ref;
	struct bind_map m;

	if (!kvet_workload_controller_ref(c->arg[0].wl, &ref))
		return cel_null();
	if (!bind_map_init(c, &m, 4))
		return bind_oom(c);
	bind_map_put(&m, "apiVersion", bind_str_at(ref.api_version.s,
						   ref.api_version.len, NULL));
	bind_map_put(&m, "kind", bind_str_at(ref.kind.s, ref.kind.len, NULL));
	bind_map_put(&m, "name", bind_str_at(ref.name.s, ref.name.len, NULL));
	bind_map_put(&m, "uid", bind_str_at(ref.uid.s, ref.uid.len, NULL));
	return bind_map_done(&m, ref.node);
}

static struct cel_value services_in_input(struct bind_call *c)
{
	size_t n;

	kvet_graph_kind(c->g, "", "Service", &n);
	return cel_bool(n > 0);
}

BIND_FN(service_has_endpoints,
	cel_bool(kvet_service_has_endpoints(c->g, c->arg[0].obj)))

BIND_FN(namespace_covered_besides,
	cel_bool(kvet_graph_ns_covered_besides(c->g, c->arg[0].obj)))

static struct cel_value live_pods(struct bind_call *c)
{
	const struct kvet_namespace *ns = kvet_graph_namespace(c->g,
							       c->arg[0].s);

	return cel_int(ns ? ns->live_pods : 0);
}

#define PDB (BIND_PDB)
#define W (BIND_WORKLOAD)
#define H (BIND_HPA)
#define TYPO "policy/PodDisruptionBudget pdb/typo"

static const struct cel_func pdb_funcs[] = {
	/* pdb-invalid-spec */
	BIND_ROW("pdbSpecProblems", CEL_ST_LIST, 1, 1, PDB, pdb_spec_problems,
		 0,
		 "what the API server rejects (rule `pdb-invalid-spec`), a list of `{message, field}`: both `minAvailable` and `maxUnavailable` set, a string value that is not `\"<digits>%\"` (a quoted `\"1\"`), a negative integer, a percentage above 100%, an invalid selector, `policy/v1beta1`; `field` positions the problem (`at: [problem.field]`)",
		 "policy/PodDisruptionBudget pdb/bad",
		 "pdbSpecProblems(object)[2].message == 'maxUnavailable -1 is negative'"),
	/* pdb-selector-scope, pdb-matches-nothing, pdb-unscalable-owner */
	BIND_ROW("pdbSelectorForm", CEL_ST_STRING, 1, 1, PDB,
		 pdb_selector_form, 0,
		 "`\"absent\"` (absent or null), `\"empty\"` (`{}`), `\"requirements\"` or `\"invalid\"`",
		 "policy/PodDisruptionBudget pdb/empty",
		 "pdbSelectorForm(object) == 'empty'"),
	BIND_ROW("pdbUsesScale", CEL_ST_BOOL, 1, 1, PDB, pdb_uses_scale, 0,
		 "it sets `maxUnavailable` or a percentage `minAvailable`, so the disruption controller needs each owner's scale (1.9)",
		 TYPO, "pdbUsesScale(object)"),
	BIND_ROW("pdbOwnerKind", CEL_ST_STRING, 1, 1, W, pdb_owner_kind, 0,
		 "how the disruption controller counts its pods: `\"scalable\"`, `\"bare-pod\"` or `\"unscalable\"` (DaemonSet, Job, CronJob, a Pod whose controller is missing)",
		 "apps/DaemonSet pdb/agent", "pdbOwnerKind(object) == 'unscalable'"),
	BIND_ROW("workloadsSelectedElsewhere", CEL_ST_LIST, 1, 1, PDB,
		 workloads_selected_elsewhere, BIND_RUN,
		 "the workloads of *other* namespaces its selector matches (\"PDB in the wrong namespace?\"), the first 10; empty for `{}`",
		 "policy/PodDisruptionBudget pdb/web",
		 "workloadsSelectedElsewhere(object).map(w, namespaceOf(w)) == ['core', 'staging']"),
	BIND_ROW("nearMisses", CEL_ST_LIST, 1, 1, PDB, near_misses, BIND_RUN,
		 "the workloads of its namespace that meet every requirement but one (one index selection per dropped requirement); with a single `In` requirement, those whose value for its key looks like a typo of a wanted one (at most two edits away, or one containing the other, among the first 256 workloads carrying the key); at most 10",
		 TYPO, "nearMisses(object).map(w, w.metadata.name) == ['alpha-mgr', 'beta-mgr', 'agent']"),
	BIND_ROW("unmetRequirement", CEL_ST_STRING, 2, 2, (BIND_PDB, BIND_WORKLOAD),
		 unmet_requirement, 0,
		 "unmetRequirement(pdb, w): the first requirement the workload's pods fail and what its pods have, e.g. `app=mgr, its pods have app=manager`; `\"\"` when none",
		 "policy/PodDisruptionBudget pdb/one",
		 "unmetRequirement(object, objects('DaemonSet', 'pdb')[0]) == 'app=agnt, its pods have app=agent'"),
	BIND_ROW("selectorText", CEL_ST_STRING, 1, 1, (BIND_OBJECT),
		 selector_text, 0,
		 "the selector of a PDB, Service or workload as kubectl prints it: `app=web,tier in (a,b),!legacy`; `{}`, `null` or `(invalid: ...)`",
		 TYPO, "selectorText(object) == 'app.kubernetes.io/part-of=suite,app.kubernetes.io/component in (ctrl,manger)'"),
	/* selector-ignores-release */
	BIND_ROW("pdbIgnoredRelease", CEL_ST_MAP, 1, 1, (BIND_BUDGET),
		 pdb_ignored_release, BIND_RUN,
		 "the release label its selector leaves out, `{key, value}` (`app.kubernetes.io/instance`, or `release` or `helm.sh/release` on a Helm render's pods), when every requirement uses a key all installations of a chart share (`app.kubernetes.io/name`, `app`, `name`, `component`, `k8s-app` and the shared keys of `sharedLabelKeys`), none with a value carrying the release's name, and every workload it selects carries that one label and value; else null (also when it selects nothing or several releases)",
		 "policy/PodDisruptionBudget ops/chart-web",
		 "pdbIgnoredRelease(object) == {'key': 'app.kubernetes.io/instance', 'value': 'chart'} && pdbIgnoredRelease(objects('PodDisruptionBudget', 'pdb')[0]) == null"),
	/* hpa-target-unresolved */
	BIND_ROW("scaleTargetOf", CEL_ST_MAP, 1, 1, H, scale_target_of,
		 BIND_RUN,
		 "the object `scaleTargetRef` names in the HPA's namespace (kind, name and API group, 1.4), or null",
		 "autoscaling/HorizontalPodAutoscaler pdb/alpha",
		 "scaleTargetOf(object).metadata.name == 'alpha-mgr'"),
	BIND_ROW("targetHasNoScale", CEL_ST_BOOL, 1, 1, H, target_has_no_scale,
		 0, "`scaleTargetRef` is a DaemonSet, Job, CronJob or Pod",
		 "autoscaling/HorizontalPodAutoscaler pdb/agent",
		 "targetHasNoScale(object)"),
	BIND_ROW("scaledObjectFor", CEL_ST_MAP, 1, 1, H, scaled_object_for,
		 BIND_RUN,
		 "a KEDA ScaledObject that scales the HPA's target too (1.4), or null",
		 "autoscaling/HorizontalPodAutoscaler pdb/alpha",
		 "scaledObjectFor(object) == null"),
	/* workload-selectors-overlap */
	BIND_ROW("overlappingWorkloads", CEL_ST_LIST, 1, 1, W,
		 overlapping_workloads, 0,
		 "the other workloads of its namespace whose pods its `spec.selector` selects, or whose selector selects its pods (rule `workload-selectors-overlap`); Jobs with a generated selector overlap nothing",
		 "apps/Deployment pdb/alpha-mgr",
		 "overlappingWorkloads(object).map(w, w.metadata.name) == ['beta-mgr']"),
	BIND_ROW("selectsPodsOf", CEL_ST_BOOL, 2, 2,
		 (BIND_WORKLOAD, BIND_WORKLOAD), selects_pods_of, 0,
		 "selectsPodsOf(w1, w2): `w1.spec.selector` selects the pods of `w2`, another workload of its namespace",
		 "apps/Deployment pdb/alpha-mgr",
		 "selectsPodsOf(overlappingWorkloads(object)[0], object) && !selectsPodsOf(object, object)"),
	/* service-selects-multiple-workloads */
	BIND_ROW("webhooksUsing", CEL_ST_LIST, 1, 1, (BIND_SERVICE),
		 webhooks_using, BIND_RUN,
		 "the Validating/MutatingWebhookConfigurations, CRDs (conversion webhooks) and APIServices whose calls go to the Service (1.10)",
		 "Service pdb/metrics",
		 "webhooksUsing(object).map(o, o.kind) == ['APIService']"),
	BIND_ROW("serviceIgnoredRelease", CEL_ST_MAP, 1, 1, (BIND_SERVICE),
		 service_ignored_release, BIND_RUN,
		 "`pdbIgnoredRelease()` for a Service's selector and the workloads it selects: the release label `{key, value}` it leaves out, or null (also for an ExternalName Service, and one that selects nothing or several releases)",
		 "Service ops/chart-web",
		 "serviceIgnoredRelease(object) == {'key': 'app.kubernetes.io/instance', 'value': 'chart'}"),
	BIND_ROW("ingressesUsing", CEL_ST_LIST, 1, 1, (BIND_SERVICE),
		 ingresses_using, BIND_RUN,
		 "the Ingresses of the Service's namespace whose default backend or a path's backend is the Service",
		 "Service pdb/metrics", "ingressesUsing(object) == []"),
	BIND_ROW("distinctWorkloads", CEL_ST_LIST, 1, 1, (BIND_OBJECTS),
		 distinct_workloads, BIND_RUN,
		 "the workloads of the list, where the orphans of one controller (Pods or ReplicaSets whose controller ownerReference, by kind, name and uid, is not in the input: the Pods of a DaemonSet a dump lacks) count once, by the first of them (1.2)",
		 "Service orphans/orphans",
		 "size(workloadsSelectedBy(object)) == 3 && distinctWorkloads(workloadsSelectedBy(object)).map(w, w.metadata.name) == ['agent-a', 'solo']"),
	BIND_ROW("controllerRef", CEL_ST_MAP, 1, 1, W, controller_ref, BIND_RUN,
		 "the controller ownerReference of an orphan (a Pod or ReplicaSet whose controller is not in the input, 1.2), `{apiVersion, kind, name, uid}` (`\"\"` for an absent field); null for any other workload",
		 "Pod orphans/agent-a",
		 "controllerRef(object).kind == 'DaemonSet' && controllerRef(objects('Pod', 'orphans')[2]) == null"),
	BIND_ROW("portsDeclaredByAll", CEL_ST_BOOL, 2, 2,
		 (BIND_SERVICE, BIND_OBJECTS), ports_declared_by_all, BIND_RUN,
		 "portsDeclaredByAll(service, workloads): every port of the Service targets a port by name (`targetPort` a string) that each of the workloads declares with the port's protocol, as the endpoints controller resolves it (a container's, or a sidecar init container's); false without ports or workloads",
		 "Service orphans/orphans",
		 "portsDeclaredByAll(object, workloadsSelectedBy(object).filter(w, controllerRef(w) != null)) && !portsDeclaredByAll(object, workloadsSelectedBy(object))"),
	BIND_ROW("servicesInInput", CEL_ST_BOOL, 0, 0, (BIND_ANY),
		 services_in_input, BIND_RUN,
		 "the input has Service objects (a dump of a few kinds may have none)",
		 "", "servicesInInput()"),
	BIND_ROW("serviceHasEndpoints", CEL_ST_BOOL, 1, 1, (BIND_SERVICE),
		 service_has_endpoints, BIND_RUN,
		 "an Endpoints or EndpointSlice object of the Service is in the input",
		 "Service wh/guard", "!serviceHasEndpoints(object)"),
	/* the input (1.3) */
	BIND_ROW("namespaceCoveredBesides", CEL_ST_BOOL, 1, 1, (BIND_OBJECT),
		 namespace_covered_besides, BIND_RUN,
		 "1.3 for a consumer: a Namespace object, or another namespaced object than `o`, covers `o`'s namespace (a PDB or HPA alone in a partial input does not make its target \"missing\")",
		 "autoscaling/HorizontalPodAutoscaler lonely/lonely",
		 "!namespaceCoveredBesides(object)"),
	BIND_ROW("livePods", CEL_ST_INT, 1, 1, (BIND_NAMESPACE), live_pods,
		 BIND_RUN,
		 "the live Pods of the namespace in a cluster dump (0 otherwise)",
		 "", "livePods('nowhere') == 0"),
};

const struct cel_lib bind_pdb_lib = CEL_LIB("kvet.pdb", pdb_funcs);
