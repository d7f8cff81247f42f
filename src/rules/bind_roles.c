/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvet.roles: managers, leader election, effective priority, lease RBAC
 * and cluster-autoscaler eviction (the rules on managers, priorities,
 * leader election and autoscaler-scale-down-blocker; docs/model.md 1.12
 * to 1.14). The meaning is in model/manager.h, model/leader.h,
 * model/priority.h, model/rbac.h and model/evict.h.
 *
 * Users question "this is a manager", so every answer carries its
 * evidence: strings and maps whose `at` is the field that decided (the
 * args entry, the label, the priorityClassName), so a rule's `at:` can
 * point there, and the objects involved for `related:`.
 *
 *   isManager(w) bool, managerCriteria(w) list, managerReasons(w) list,
 *   managerWhy(w) string, webhooksServedBy(w) list
 *   leaderElection(w) map
 *   effectivePriority(w) map, priorityClassNamed(name) map,
 *   globalDefaultPriorityClasses() list, podSpec(w) map
 *   serviceAccountOf(w) string, leaseAccess(w) map
 *   safeToEvict(w) string, blockingLocalVolumes(w) list, isBarePod(w) bool
 *
 *   isManager(object) && leaderElection(object).state == "off"
 */
#include "rules/bind.h"

#include <string.h>

#include "model/evict.h"
#include "model/leader.h"
#include "model/manager.h"
#include "model/priority.h"
#include "model/problem.h"
#include "model/rbac.h"
#include "rules/explain.h"

#define WL (c->arg[0].wl)

/* The manager verdict of the workload; NULL when out of memory. */
#define MANAGER(m)							\
	const struct kvet_manager *m = kvet_run_manager(c->run, WL);	\
	if (!m)								\
		return bind_oom(c)

static struct cel_value is_manager(struct bind_call *c)
{
	MANAGER(m);
	return cel_bool(kvet_manager_is(m));
}

static struct cel_value manager_reconciles(struct bind_call *c)
{
	MANAGER(m);
	return cel_bool(kvet_manager_reconciles(m));
}

static struct cel_value manager_criteria(struct bind_call *c)
{
	static const char *const ids[KVET_MANAGER_N_CRITERIA] = {
		"M1", "M2", "M3", "M4", "M5", "M6"
	};
	struct cel_value items[KVET_MANAGER_N_CRITERIA];
	size_t i, k = 0;
	MANAGER(m);

	for (i = 0; i < KVET_MANAGER_N_CRITERIA; i++)
		if (m->criteria & (1u << i))
			items[k++] = bind_str(ids[i]);
	return bind_list(c, items, k);
}

/* One sentence per criterion met, each positioned at its evidence. */
static size_t reasons(struct bind_call *c, const struct kvet_manager *m,
		      struct cel_value out[KVET_MANAGER_N_CRITERIA])
{
	const struct kvet_webhooks *whs = kvet_run_webhooks(c->run);
	struct kvet_strbuf sb;
	size_t i, k = 0;
	char *s;

	for (i = 0; i < KVET_MANAGER_N_CRITERIA; i++) {
		if (!(m->criteria & (1u << i)))
			continue;
		kvet_strbuf_init(&sb, c->scratch);
		explain_manager_criterion(&sb, whs, WL, m, 1u << i);
		s = sb.len ? kvet_strbuf_to_arena(&sb, c->scratch) : NULL;
		if (s)
			out[k++] = bind_str_at(s, strlen(s),
					       kvet_manager_evidence(WL, m,
								     1u << i));
	}
	return k;
}

static struct cel_value manager_reasons(struct bind_call *c)
{
	struct cel_value items[KVET_MANAGER_N_CRITERIA];
	MANAGER(m);

	return bind_list(c, items, reasons(c, m, items));
}

/* The reasons joined with "; ", at the first with a place. */
static struct cel_value manager_why(struct bind_call *c)
{
	struct kvet_strbuf sb = KVET_STRBUF_ARENA(c->scratch);
	const struct kvet_node *at = NULL;
	struct cel_value items[KVET_MANAGER_N_CRITERIA], s;
	size_t i, k;
	MANAGER(m);

	k = reasons(c, m, items);
	for (i = 0; i < k; i++) {
		kvet_strbuf_addf(&sb, "%s%.*s", i ? "; " : "",
				 (int)items[i].len, items[i].u.s);
		if (!at)
			at = items[i].at;
	}
	s = bind_strbuf(c, &sb);
	s.at = cel_is_error(&s) ? s.at : at;
	return s;
}

static struct cel_value webhooks_served_by(struct bind_call *c)
{
	const struct kvet_webhooks *whs = kvet_run_webhooks(c->run);
	const struct kvet_object **v;
	size_t n;

	if (!whs || kvet_webhooks_served_by(c->scratch, whs, WL, &v, &n))
		return bind_oom(c);
	return bind_objects(c, v, n);
}

static struct cel_value leader_election(struct bind_call *c)
{
	static const char *const sources[] = {
		[KVET_LEADER_FROM_NOTHING] = "none",
		[KVET_LEADER_FROM_FLAG] = "flag",
		[KVET_LEADER_FROM_CONFIG] = "config",
		[KVET_LEADER_FROM_COMPONENT] = "component",
		[KVET_LEADER_FROM_ENV] = "env",
	};
	struct kvet_strbuf sb = KVET_STRBUF_ARENA(c->scratch);
	struct kvet_slice ev = { "", 0 }, cn;
	const struct kvet_leader *le;
	const struct kvet_node *at;
	struct cel_value text;
	struct bind_map mb;
	MANAGER(m);

	le = &m->leader;
	at = kvet_leader_at(WL, le);
	cn = kvet_container_name(le->container);
	if (le->source == KVET_LEADER_FROM_FLAG)
		ev = kvet_leader_flag(le);
	else if (le->source == KVET_LEADER_FROM_ENV)
		ev = kvet_string_of(kvet_node_get(le->evidence, "name"));
	else if (le->evidence && kvet_node_is_scalar(le->evidence))
		ev = (struct kvet_slice){ le->evidence->u.str,
					  le->evidence->len };
	explain_leader(&sb, le);
	text = bind_strbuf(c, &sb);
	if (cel_is_error(&text) || !bind_map_init(c, &mb, 8))
		return bind_oom(c);
	bind_map_put(&mb, "state", bind_str(kvet_leader_state_name(le->state)));
	bind_map_put(&mb, "source", bind_str(sources[le->source]));
	bind_map_put(&mb, "evidence", bind_str_at(ev.s, ev.len, at));
	bind_map_put(&mb, "text", bind_str_at(text.u.s, text.len, at));
	bind_map_put(&mb, "container",
		     le->container ? bind_str_at(cn.s, cn.len,
						 kvet_node_get(le->container,
							       "name"))
				   : bind_str(""));
	bind_map_put(&mb, "configMap", bind_object(le->config_map));
	bind_map_put(&mb, "component",
		     bind_str(le->component ? le->component : ""));
	/* no place: a configuration's namespace is in another object */
	bind_map_put(&mb, "leaseNamespace", bind_str(le->namespace));
	return bind_map_done(&mb, at);
}

static struct cel_value effective_priority(struct bind_call *c)
{
	static const char *const sources[] = {
		[KVET_PRIORITY_SYSTEM] = "system",
		[KVET_PRIORITY_CLASS] = "class",
		[KVET_PRIORITY_GLOBAL_DEFAULT] = "global-default",
		[KVET_PRIORITY_ZERO] = "zero",
		[KVET_PRIORITY_MISSING] = "missing",
		[KVET_PRIORITY_LIVE_POD] = "live-pod",
	};
	const struct kvet_priorities *pr = kvet_run_priorities(c->run);
	struct kvet_strbuf sb = KVET_STRBUF_ARENA(c->scratch);
	const struct kvet_node *name, *at;
	struct cel_value origin;
	struct kvet_priority p;
	struct bind_map mb;

	if (!pr)
		return bind_oom(c);
	kvet_effective_priority(pr, WL, &p);
	name = p.name_node;
	at = name ? kvet_field_key(WL->pod_spec, "priorityClassName") : NULL;
	explain_priority_origin(&sb, &p);
	origin = bind_strbuf(c, &sb);
	if (cel_is_error(&origin) || !bind_map_init(c, &mb, 6))
		return bind_oom(c);
	bind_map_put(&mb, "known", cel_bool(p.known));
	bind_map_put(&mb, "value", p.known ? cel_int(p.value) : cel_null());
	bind_map_put(&mb, "source", bind_str(sources[p.source]));
	bind_map_put(&mb, "className",
		     kvet_node_is_scalar(name) && !kvet_node_is_null(name) ?
		     bind_str_at(name->u.str, name->len, at) :
		     bind_str_at("", 0, name ? at : NULL));
	bind_map_put(&mb, "priorityClass", bind_object(p.priority_class));
	bind_map_put(&mb, "origin", bind_str_at(origin.u.s, origin.len, at));
	return bind_map_done(&mb, at);
}

BIND_FN(priority_class_named,
	bind_object(kvet_graph_find(c->g, "scheduling.k8s.io",
				    "PriorityClass", "", c->arg[0].s)))

static struct cel_value global_default_priority_classes(struct bind_call *c)
{
	const struct kvet_priorities *pr = kvet_run_priorities(c->run);
	const struct kvet_object *const *v;
	size_t n;

	if (!pr)
		return bind_oom(c);
	v = kvet_priorities_defaults(pr, &n);
	return bind_objects(c, v, n);
}

/* The pod template's spec (a Pod's own spec), positioned at its key. */
BIND_FN(pod_spec, kvet_node_is_map(WL->pod_spec) ?
	cel_from_node(WL->pod_spec, kvet_field_key(WL->template, "spec")) :
	bind_empty_map())

static struct cel_value service_account_of(struct bind_call *c)
{
	struct kvet_slice sa = kvet_workload_service_account(WL);

	return bind_str_at(sa.s, sa.len, kvet_workload_service_account_at(WL));
}

static struct cel_value verbs(struct bind_call *c, unsigned int verbs,
			      bool list, const char *last)
{
	static const char *const names[] = { "get", "create", "update" };
	struct kvet_strbuf sb = KVET_STRBUF_ARENA(c->scratch);
	struct cel_value items[3];
	size_t i, k = 0;

	if (!list) {
		explain_lease_verbs(&sb, verbs, last);
		return bind_strbuf(c, &sb);
	}
	for (i = 0; i < 3; i++)
		if (verbs & (1u << i))
			items[k++] = bind_str(names[i]);
	return bind_list(c, items, k);
}

static struct cel_value lease_access(struct bind_call *c)
{
	const struct kvet_rbac *rb = kvet_run_rbac(c->run);
	struct kvet_slice sa = kvet_workload_service_account(WL);
	struct kvet_lease_access la;
	unsigned int missing;
	struct bind_map mb;
	char *sa_name;
	MANAGER(m);

	sa_name = kvet_arena_strndup(c->scratch, sa.s, sa.len);
	if (!rb || !sa_name ||
	    kvet_rbac_lease_access(rb, WL->obj->namespace, sa_name,
				   m->leader.namespace, &la) ||
	    !bind_map_init(c, &mb, 10))
		return bind_oom(c);
	missing = KVET_LEASE_ALL & ~la.verbs;
	bind_map_put(&mb, "bound", cel_bool(la.bound));
	bind_map_put(&mb, "granted", verbs(c, la.verbs, true, NULL));
	bind_map_put(&mb, "missing", verbs(c, missing, true, NULL));
	bind_map_put(&mb, "grantedText", verbs(c, la.verbs, false, "and"));
	bind_map_put(&mb, "missingText", verbs(c, missing, false, "or"));
	bind_map_put(&mb, "serviceAccount",
		     bind_str_at(sa_name, sa.len,
				 kvet_field_key(WL->pod_spec,
						"serviceAccountName")));
	bind_map_put(&mb, "leaseNamespace", bind_str(m->leader.namespace));
	bind_map_put(&mb, "binding", bind_object(la.binding));
	bind_map_put(&mb, "role", bind_object(la.role));
	bind_map_put(&mb, "subjectBinding", bind_object(la.subject_binding));
	return bind_map_done(&mb, NULL);
}

static struct cel_value safe_to_evict(struct bind_call *c)
{
	static const char *const names[] = {
		[KVET_EVICT_UNSET] = "unset",
		[KVET_EVICT_TRUE] = "true",
		[KVET_EVICT_FALSE] = "false",
	};
	const struct kvet_node *node;
	enum kvet_safe_to_evict s = kvet_workload_safe_to_evict(WL, &node);

	return bind_str_at(names[s], strlen(names[s]), node);
}

static struct cel_value blocking_local_volumes(struct bind_call *c)
{
	struct kvet_local_volumes lv;
	struct cel_value *items;
	struct bind_map mb;
	size_t i;

	if (kvet_workload_blocking_volumes(c->scratch, WL, &lv) ||
	    !(items = kvet_arena_array(c->scratch, lv.n + 1, sizeof(*items))))
		return bind_oom(c);
	for (i = 0; i < lv.n; i++) {
		if (!bind_map_init(c, &mb, 2))
			return bind_oom(c);
		bind_map_put(&mb, "name", bind_str_at(lv.v[i].name.s,
						      lv.v[i].name.len,
						      lv.v[i].node));
		bind_map_put(&mb, "type", bind_str(lv.v[i].host_path ?
						   "hostPath" : "emptyDir"));
		items[i] = bind_map_done(&mb, lv.v[i].node);
	}
	return bind_list(c, items, lv.n);
}

BIND_FN(is_bare_pod, cel_bool(kvet_workload_is_bare_pod(WL)))

static struct cel_value autoscaler_skips(struct bind_call *c)
{
	static const char *const names[] = {
		[KVET_CA_CONSIDERED] = "",
		[KVET_CA_MIRROR] = "mirror",
		[KVET_CA_DAEMONSET] = "daemonset",
	};

	return bind_str(names[kvet_workload_autoscaler_skips(WL)]);
}

/* The webhook configuration kinds its ServiceAccount may create
 * beyond those of the input */
static struct cel_value webhooks_registered_by(struct bind_call *c)
{
	static const char *const verbs[] = { "create", NULL };
	static const char *const res[][2] = {
		{ "validatingwebhookconfigurations",
		  "ValidatingWebhookConfiguration" },
		{ "mutatingwebhookconfigurations", "MutatingWebhookConfiguration" },
	};
	struct cel_value items[2];
	const struct kvet_workload **v;
	size_t i, j, n, k = 0;

	for (i = 0; i < 2; i++) {
		if (kvet_config_grantees(c->scratch, c->g, res[i][0], verbs,
					 NULL, &v, &n))
			return bind_oom(c);
		for (j = 0; j < n && v[j] != WL; j++)
			;
		if (j < n)
			items[k++] = bind_str(res[i][1]);
	}
	return bind_list(c, items, k);
}

#define W (BIND_WORKLOAD)
#define CTL "apps/Deployment roles/ctl"
#define HOOK "apps/Deployment roles/hook"

static const struct cel_func roles_funcs[] = {
	/* managers (1.12) */
	BIND_ROW("webhooksRegisteredBy", CEL_ST_LIST, 1, 1, W,
		 webhooks_registered_by, BIND_RUN,
		 "the webhook configuration kinds (`\"ValidatingWebhookConfiguration\"`, `\"MutatingWebhookConfiguration\"`) that w's ServiceAccount may create at run time: a ClusterRole rule with no resourceNames, or naming one the input lacks",
		 CTL, "webhooksRegisteredBy(object) == []"),
	BIND_ROW("isManager", CEL_ST_BOOL, 1, 1, W, is_manager, 0,
		 "w is a manager by any of M1 to M6 (1.12)",
		 CTL, "isManager(object)"),
	BIND_ROW("managerReconciles", CEL_ST_BOOL, 1, 1, W, manager_reconciles,
		 0,
		 "w shows a controller, which reconciles objects, rather than only a server of requests: M3 with a controller's value (not `webhook` or `webhook-server`), M4 or M5 (rule `manager-replicas-without-leader-election` asks for it; a webhook or APIService backend alone, M1, is a server whose replicas each answer requests; RBAC alone, M6, is held by API servers acting for users too)",
		 CTL, "managerReconciles(object)"),
	BIND_ROW("managerCriteria", CEL_ST_LIST, 1, 1, W, manager_criteria, 0,
		 "the criteria of 1.12 it meets, a list of `\"M1\"` to `\"M6\"`",
		 CTL, "managerCriteria(object) == ['M2', 'M3', 'M4']"),
	BIND_ROW("managerReasons", CEL_ST_LIST, 1, 1, W, manager_reasons, 0,
		 "one sentence per criterion with its evidence, e.g. `\"M1: it serves webhook ValidatingWebhookConfiguration/v#validate.example.com through Service ops/hook\"`, `\"M2: leader election off (--leader-elect=false in container \\\"manager\\\")\"`, `\"M3: label app.kubernetes.io/component=manager\"`, `\"M4: container \\\"ctl\\\" runs /manager\"`, `\"M5: its name ends in -operator\"`, `\"M6: its service account may watch pods (ClusterRole \\\"r\\\") and patch deployments (ClusterRole \\\"r\\\")\"`; each positioned at its evidence (M1's is in another object: none)",
		 CTL, "managerReasons(object)[1] == 'M3: label control-plane=controller-manager'"),
	BIND_ROW("managerWhy", CEL_ST_STRING, 1, 1, W, manager_why, 0,
		 "the reasons joined with `\"; \"` (\"\" for no manager), positioned at the first placed one",
		 HOOK, "managerWhy(object).startsWith('M1: it serves webhook ValidatingWebhookConfiguration/hook-validator#validate.example.com through Service roles/hook')"),
	BIND_ROW("webhooksServedBy", CEL_ST_LIST, 1, 1, W, webhooks_served_by,
		 0,
		 "the Validating/MutatingWebhookConfigurations, CRDs and APIServices w is a backend of (M1), once each; for `related:`",
		 HOOK, "webhooksServedBy(object).map(o, o.metadata.name) == ['hook-validator']"),
	/* leader election (1.13) */
	BIND_ROW("leaderElection", CEL_ST_MAP, 1, 1, W, leader_election, 0,
		 "1.13: `{state: \"on\"/\"off\"/\"unknown\", source: \"flag\"/\"config\"/\"env\"/\"component\"/\"none\", evidence, text, container, configMap, component, leaseNamespace}`: `evidence` is the flag token (`\"--leader-elect=false\"`) at its args entry, the environment variable's name at its env item, or the ConfigMap line's text at the pod volume that mounts it; `text` says it in words for messages; `configMap` is the ConfigMap object or null; `leaseNamespace` the election namespace",
		 CTL, "leaderElection(object).evidence == '--leader-elect=false' && leaderElection(object).leaseNamespace == 'kube-system'"),
	/* priority (1.14) */
	BIND_ROW("effectivePriority", CEL_ST_MAP, 1, 1, W, effective_priority,
		 0, "1.14: `{known, value, source: \"system\"/\"class\"/\"global-default\"/\"zero\"/\"missing\"/\"live-pod\", className, priorityClass, origin}`: `value` is null when unknown (a class the input lacks); `className` is positioned at `priorityClassName`; `priorityClass` the class object or null; `origin` says where the value came from",
		 HOOK, "effectivePriority(object).origin == 'priorityClassName \"low\": PriorityClass value 10'"),
	BIND_ROW("priorityClassNamed", CEL_ST_DYN, 1, 1, (BIND_STRING),
		 priority_class_named, BIND_RUN,
		 "priorityClassNamed(name): the PriorityClass of that name in the input, or null (through the object index)",
		 "", "priorityClassNamed('low').value == 10"),
	BIND_ROW("globalDefaultPriorityClasses", CEL_ST_LIST, 0, 0,
		 (BIND_ANY), global_default_priority_classes, BIND_RUN,
		 "the PriorityClasses with `globalDefault: true`, in input order",
		 "", "size(globalDefaultPriorityClasses()) == 0"),
	BIND_ROW("podSpec", CEL_ST_MAP, 1, 1, W, pod_spec, 0,
		 "the pod template's spec (a Pod's own spec, a CronJob's job template's), positioned at its `spec` key",
		 HOOK, "podSpec(object).priorityClassName == 'low'"),
	/* lease RBAC (leader-election-without-lease-rbac) */
	BIND_ROW("serviceAccountOf", CEL_ST_STRING, 1, 1, W,
		 service_account_of, 0,
		 "`spec.serviceAccountName` of the pod template (or the deprecated `serviceAccount`), else `\"default\"`",
		 HOOK, "serviceAccountOf(object) == 'default'"),
	BIND_ROW("leaseAccess", CEL_ST_MAP, 1, 1, W, lease_access, 0,
		 "what rule `leader-election-without-lease-rbac` checks, for w's ServiceAccount in its election namespace: `{bound, granted, missing, grantedText, missingText, serviceAccount, leaseNamespace, binding, role, subjectBinding}`: `bound` when a binding of the input names the account (directly or through the service-account groups), `granted`/`missing` the verbs of `[\"get\", \"create\", \"update\"]` on `coordination.k8s.io` leases, `binding`/`role` the first that grant some, `subjectBinding` the first binding naming the account",
		 CTL, "leaseAccess(object).grantedText == 'get and create' && leaseAccess(object).missing == ['update']"),
	/* cluster-autoscaler (autoscaler-scale-down-blocker) */
	BIND_ROW("safeToEvict", CEL_ST_STRING, 1, 1, W, safe_to_evict, 0,
		 "the template's `cluster-autoscaler.kubernetes.io/safe-to-evict`: `\"true\"`, `\"false\"` or `\"unset\"`, positioned at the annotation",
		 CTL, "safeToEvict(object) == 'false'"),
	BIND_ROW("blockingLocalVolumes", CEL_ST_LIST, 1, 1, W,
		 blocking_local_volumes, 0,
		 "`[{name, type: \"hostPath\"/\"emptyDir\"}]`, the hostPath and disk-backed emptyDir volumes that `safe-to-evict-local-volumes` does not list, each positioned at its volume: without `safe-to-evict: \"true\"`, they keep cluster-autoscaler from removing the node",
		 CTL, "blockingLocalVolumes(object).map(v, v.name) == ['cache', 'host']"),
	BIND_ROW("isBarePod", CEL_ST_BOOL, 1, 1, W, is_bare_pod, 0,
		 "a Pod without a controller, which keeps cluster-autoscaler from removing its node unless it is annotated `safe-to-evict: \"true\"`",
		 HOOK, "!isBarePod(object)"),
	BIND_ROW("autoscalerSkips", CEL_ST_STRING, 1, 1, W, autoscaler_skips,
		 0,
		 "why cluster-autoscaler's scale-down leaves w's pods out of its drain checks: `\"mirror\"` (annotation `kubernetes.io/config.mirror`, a static pod's mirror), `\"daemonset\"` (controller ownerReference of kind DaemonSet, in the input or not, or `cluster-autoscaler.kubernetes.io/daemonset-pod: \"true\"`), or `\"\"`",
		 HOOK, "autoscalerSkips(object) == ''"),
};

const struct cel_lib bind_roles_lib = CEL_LIB("kvet.roles", roles_funcs);
