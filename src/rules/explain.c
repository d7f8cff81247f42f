/* SPDX-License-Identifier: Apache-2.0 */
#include "rules/explain.h"

#include <string.h>

#include "model/notation.h"
#include "model/pdb_validate.h"
#include "model/rbac.h"
#include "model/sched_validate.h"

#define SL(x) (int)(x).len, (x).s

/* A scalar as written, or nothing ("maxSkew  is not ..."). */
#define NODE_TEXT(n)							\
	(kvet_node_is_scalar(n) ? (int)(n)->len : 0),			\
	(kvet_node_is_scalar(n) ? (n)->u.str : "")

void explain_term_flaw(struct kvet_strbuf *sb, const struct kvet_term *t,
		       const struct kvet_term_why *why)
{
	switch (why->flaw) {
	case KVET_TERM_EFFECTIVE:
		return;
	case KVET_TERM_NO_SELECTOR:
		kvet_strbuf_adds(sb, "has no labelSelector and counts no pod");
		return;
	case KVET_TERM_INVALID_SELECTOR:
		kvet_strbuf_addf(sb, "has an invalid labelSelector (%s)",
				 t->selector.error ? t->selector.error :
				 "invalid");
		return;
	case KVET_TERM_EXCLUDES_OWN_PODS:
		kvet_strbuf_addf(sb, "excludes the workload's own pods through mismatchLabelKeys %.*s",
				 SL(why->req->key));
		return;
	case KVET_TERM_KEY_UNIQUE_PER_POD:
		kvet_strbuf_addf(sb, "matches only the incoming pod through matchLabelKeys %.*s, a label unique to each pod",
				 SL(why->req->key));
		return;
	case KVET_TERM_MISSES_OWN_PODS:
		kvet_strbuf_adds(sb, "selects ");
		kvet_selector_meaning_notation(sb, &t->selector);
		kvet_strbuf_adds(sb, ", which the workload's own pods do not match");
		return;
	case KVET_TERM_NO_TOPOLOGY_KEY:
		kvet_strbuf_adds(sb, "has no topologyKey");
		return;
	case KVET_TERM_NOT_SPREADING_KEY:
		kvet_strbuf_addf(sb, "uses topologyKey %.*s, which is not a node, zone or region key",
				 SL(t->topology_key));
		return;
	case KVET_TERM_SCOPE_EXCLUDES_OWN:
		kvet_strbuf_adds(sb, "looks in ");
		kvet_term_scope_notation(sb, t);
		kvet_strbuf_addf(sb, ", which %s namespace %s",
				 why->scope == KVET_MATCH_ASSUMED_FALSE ?
				 "presumably does not include (the Namespace object is not in the input)" :
				 "does not include", t->wl->obj->namespace);
		return;
	}
}

void explain_terms_flaws(struct kvet_strbuf *sb, const struct kvet_graph *g,
			 const struct kvet_terms *tm)
{
	struct kvet_term_why why;
	size_t i;

	if (!tm->n)
		kvet_strbuf_adds(sb, "it has no pod anti-affinity term and no topology spread constraint");
	for (i = 0; i < tm->n; i++) {
		kvet_term_why_not(g, &tm->v[i], &why);
		if (!why.at)	/* effective: nothing to say about it */
			continue;
		/* after an effective first term too, as it always was */
		if (i)
			kvet_strbuf_adds(sb, "; ");
		kvet_term_name(sb, &tm->v[i]);
		kvet_strbuf_adds(sb, " ");
		explain_term_flaw(sb, &tm->v[i], &why);
	}
}

void explain_sched_problem(struct kvet_strbuf *sb,
			   const struct kvet_problem *p)
{
	switch (p->code) {
	case KVET_SCHED_SKEW_MISSING:
		kvet_strbuf_adds(sb, "maxSkew is missing");
		return;
	case KVET_SCHED_SKEW_BAD:
		kvet_strbuf_addf(sb, "maxSkew %.*s is not an integer of at least 1",
				 NODE_TEXT(p->value));
		return;
	case KVET_SCHED_TOPOLOGY_KEY_EMPTY:
		kvet_strbuf_adds(sb, "topologyKey is empty");
		return;
	case KVET_SCHED_WHEN_MISSING:
		kvet_strbuf_adds(sb, "whenUnsatisfiable is missing (DoNotSchedule or ScheduleAnyway)");
		return;
	case KVET_SCHED_WHEN_NOT_SCALAR:
		kvet_strbuf_adds(sb, "whenUnsatisfiable is not DoNotSchedule or ScheduleAnyway");
		return;
	case KVET_SCHED_WHEN_BAD:
		kvet_strbuf_addf(sb, "whenUnsatisfiable \"%.*s\" is not DoNotSchedule or ScheduleAnyway",
				 NODE_TEXT(p->value));
		return;
	case KVET_SCHED_MIN_DOMAINS_BAD:
		kvet_strbuf_addf(sb, "minDomains %.*s is not an integer of at least 1",
				 NODE_TEXT(p->value));
		return;
	case KVET_SCHED_MIN_DOMAINS_ANYWAY:
		kvet_strbuf_addf(sb, "minDomains %lld is only allowed with whenUnsatisfiable: DoNotSchedule",
				 p->number);
		return;
	case KVET_SCHED_POLICY_BAD:
		kvet_strbuf_addf(sb, "%s \"%.*s\" is not Honor or Ignore",
				 p->field, NODE_TEXT(p->value));
		return;
	case KVET_SCHED_SELECTOR_INVALID:
		kvet_strbuf_addf(sb, "%s is invalid: %s", p->field,
				 p->text ? p->text : "rejected");
		return;
	case KVET_SCHED_KEYS_WITHOUT_SELECTOR:
		kvet_strbuf_addf(sb, "%s is set without a labelSelector",
				 p->field);
		return;
	case KVET_SCHED_KEY_REPEATED:
		kvet_strbuf_addf(sb, "%s repeats %.*s, a key of its labelSelector",
				 p->field, SL(p->key));
		return;
	case KVET_SCHED_WEIGHT_MISSING:
		kvet_strbuf_adds(sb, "weight is missing (from 1 to 100)");
		return;
	case KVET_SCHED_WEIGHT_BAD:
		kvet_strbuf_addf(sb, "weight %.*s is not from 1 to 100",
				 NODE_TEXT(p->value));
		return;
	}
}

/* "minAvailable \"1\"": the field and its value as written. */
static void intstr_field(struct kvet_strbuf *sb, const char *field,
			 const struct kvet_node *value)
{
	struct kvet_intstr v;

	kvet_intstr_parse(value, &v);
	kvet_strbuf_addf(sb, "%s ", field);
	kvet_intstr_notation(sb, &v);
}

void explain_pdb_problem(struct kvet_strbuf *sb, const struct kvet_problem *p)
{
	switch (p->code) {
	case KVET_PDB_V1BETA1:
		kvet_strbuf_addf(sb, "apiVersion %s is not served since Kubernetes 1.25: use policy/v1",
				 p->text);
		return;
	case KVET_PDB_BOTH_SET:
		intstr_field(sb, "minAvailable", p->value);
		intstr_field(sb, " and maxUnavailable", p->value2);
		kvet_strbuf_adds(sb, " are both set: the API server accepts only one");
		return;
	case KVET_PDB_NEGATIVE:
		kvet_strbuf_addf(sb, "%s %lld is negative", p->field, p->number);
		return;
	case KVET_PDB_OVER_100:
		kvet_strbuf_addf(sb, "%s \"%.*s\" is above 100%%", p->field,
				 NODE_TEXT(p->value));
		return;
	case KVET_PDB_QUOTED_DIGITS:
		intstr_field(sb, p->field, p->value);
		kvet_strbuf_addf(sb, " is a string without %%, not an integer: write %.*s unquoted, or \"%.*s%%\"",
				 NODE_TEXT(p->value), NODE_TEXT(p->value));
		return;
	case KVET_PDB_BAD_STRING:
		intstr_field(sb, p->field, p->value);
		kvet_strbuf_adds(sb, " is not an integer or a percentage (\"<digits>%\")");
		return;
	case KVET_PDB_OUT_OF_INT32:
		intstr_field(sb, p->field, p->value);
		kvet_strbuf_adds(sb, " is outside the int32 range");
		return;
	case KVET_PDB_NOT_INTSTR:
		intstr_field(sb, p->field, p->value);
		kvet_strbuf_adds(sb, " is not an integer or a percentage");
		return;
	case KVET_PDB_SELECTOR_INVALID:
		kvet_strbuf_addf(sb, "selector is invalid: %s",
				 p->text ? p->text : "?");
		return;
	}
}

void explain_unmet_requirement(struct kvet_strbuf *sb,
			       const struct kvet_requirement *r,
			       const struct kvet_workload *wl)
{
	struct kvet_slice val;

	kvet_requirement_notation(sb, r, 0);
	if (kvet_labels_get(&wl->labels, r->key, &val))
		kvet_strbuf_addf(sb, ", its pods have %.*s=%.*s", SL(r->key),
				 SL(val));
	else
		kvet_strbuf_addf(sb, ", its pods lack %.*s", SL(r->key));
}

void explain_template_flaw(struct kvet_strbuf *sb,
			   const struct kvet_workload *wl)
{
	const struct kvet_requirement *r;
	struct kvet_slice val;

	switch (kvet_workload_template_flaw(wl, &r)) {
	case KVET_TEMPLATE_SELECTED:
		return;
	case KVET_TEMPLATE_NO_SELECTOR:
		kvet_strbuf_adds(sb, "it has no spec.selector, which is required");
		return;
	case KVET_TEMPLATE_EMPTY_SELECTOR:
		kvet_strbuf_adds(sb, "its spec.selector is empty, which would select every pod of the namespace");
		return;
	case KVET_TEMPLATE_INVALID_SELECTOR:
		kvet_strbuf_addf(sb, "its spec.selector is invalid: %s",
				 wl->selector.error ? wl->selector.error : "?");
		return;
	case KVET_TEMPLATE_MISMATCH:
		break;
	}
	kvet_strbuf_adds(sb, "its spec.selector requires ");
	kvet_requirement_notation(sb, r, 0);
	if (kvet_labels_get(&wl->labels, r->key, &val))
		kvet_strbuf_addf(sb, ", and the pod template has %.*s=%.*s",
				 SL(r->key), SL(val));
	else
		kvet_strbuf_addf(sb, ", and the pod template has no label %.*s",
				 SL(r->key));
}

/* The keys of a namespaceSelector an absent Namespace object leaves to
 * assumption, as "key Op" pieces. */
static void assumed_keys(struct kvet_strbuf *sb, const struct kvet_selector *sel)
{
	size_t i, k = 0;

	for (i = 0; i < sel->n_reqs; i++) {
		const struct kvet_requirement *r = &sel->reqs[i];

		if (kvet_slice_eq0(r->key, "kubernetes.io/metadata.name"))
			continue;
		kvet_strbuf_addf(sb, "%s%.*s %s", k++ ? ", " : "", SL(r->key),
				 kvet_sel_op_name(r->op));
	}
}

static void namespace_step(struct kvet_strbuf *sb,
			   const struct kvet_webhook *wh, const char *ns,
			   const struct kvet_interception *r)
{
	if (!*ns) {
		kvet_strbuf_adds(sb, " (cluster-scoped: namespaceSelector does not apply)");
	} else if (!strcmp(ns, KVET_ANY_NAMESPACE)) {
		kvet_strbuf_addf(sb, " in %s namespace",
				 r->namespace_step == KVET_MATCH_TRUE ? "any" :
				 "a namespace labelled to match: some");
	} else if (r->namespace_step == KVET_MATCH_ASSUMED_TRUE ||
		   r->namespace_step == KVET_MATCH_ASSUMED_FALSE) {
		kvet_strbuf_addf(sb, " in namespace \"%s\"; no Namespace object in the input, assumed to carry only kubernetes.io/metadata.name, so the namespaceSelector (",
				 ns);
		assumed_keys(sb, &wh->namespace_selector);
		kvet_strbuf_addf(sb, ") %s",
				 r->namespace_step == KVET_MATCH_ASSUMED_TRUE ?
				 "matches unless an administrator labels it" :
				 "does not match unless an administrator labels it");
	} else if (r->namespace_step == KVET_MATCH_FALSE) {
		kvet_strbuf_addf(sb, " but the namespaceSelector excludes namespace \"%s\"",
				 ns);
	} else if (wh->namespace_selector.meaning == KVET_SEL_EVERYTHING) {
		kvet_strbuf_addf(sb, " in namespace \"%s\" (the namespaceSelector selects every namespace)",
				 ns);
	} else {
		kvet_strbuf_addf(sb, " in namespace \"%s\" (the namespaceSelector matches it)",
				 ns);
	}
}

void explain_interception(struct kvet_strbuf *sb, const struct kvet_webhook *wh,
			  const struct kvet_request *req,
			  const struct kvet_interception *r, bool pods)
{
	const char *sub = req->subresource ? req->subresource : "";

	if (!r->rule) {
		kvet_strbuf_adds(sb, "no rule matches ");
	} else if (wh->source == KVET_WEBHOOK_CONVERSION ||
		   !kvet_node_is_seq(wh->rules)) {
		kvet_strbuf_adds(sb, "the conversion webhook matches ");
	} else {
		kvet_strbuf_addf(sb, "rules[%u] matches ",
				 (unsigned)(r->rule - wh->rules->u.items));
	}
	kvet_strbuf_addf(sb, "%s %s/%s%s%s", req->operation,
			 *req->group ? req->group : "core", req->resource,
			 *sub ? "/" : "", sub);
	if (!r->rule || wh->source == KVET_WEBHOOK_CONVERSION)
		return;
	namespace_step(sb, wh, req->namespace ? req->namespace : "", r);
	if (r->object_step == KVET_MATCH_FALSE)
		kvet_strbuf_addf(sb, "; the objectSelector excludes %s",
				 pods ? "its pods' labels" : "the object");
	else if (wh->object_selector.meaning == KVET_SEL_MATCH)
		kvet_strbuf_addf(sb, "; the objectSelector matches %s",
				 pods ? "its pods' labels" : "the object");
	if (r->conditions)
		kvet_strbuf_adds(sb, "; its matchConditions (CEL) are not evaluated, so kvet cannot tell whether they exclude the request");
}

void explain_scaler(struct kvet_strbuf *sb, const struct kvet_workload *wl)
{
	const struct kvet_hpa *h = wl->replicas.hpa;
	long long written;

	if (!h)
		return;
	if (!h->keda) {
		kvet_strbuf_addf(sb, "HPA \"%s\" minReplicas ", h->obj->name);
		if (h->min_node)
			kvet_strbuf_addf(sb, "%lld", h->min);
		else
			kvet_strbuf_adds(sb, "unset, default 1");
		return;
	}
	kvet_strbuf_addf(sb, "ScaledObject \"%s\" minReplicaCount ",
			 h->obj->name);
	if (!kvet_replicas_field(h->min_node, &written))
		kvet_strbuf_adds(sb, "unset, default 0: 1 pod once active");
	else if (written == 0)
		kvet_strbuf_adds(sb, "0: 1 pod once active");
	else
		kvet_strbuf_addf(sb, "%lld", written);
}

/* One workload's share of N_min(B). */
static void backend_workload(struct kvet_strbuf *sb,
			     const struct kvet_workload *wl)
{
	const struct kvet_replicas *r = &wl->replicas;

	kvet_strbuf_addf(sb, "%s \"%s\" (", wl->obj->kind, wl->obj->name);
	if (r->state == KVET_REPLICAS_UNKNOWN)
		kvet_strbuf_adds(sb, "one pod per node)");
	else if (r->state == KVET_REPLICAS_EXCLUDED)
		kvet_strbuf_adds(sb, "not long-running)");
	else if (r->hpa) {
		kvet_strbuf_addf(sb, "N_min %lld: ", r->min);
		explain_scaler(sb, wl);
		kvet_strbuf_adds(sb, ")");
	}
	else
		kvet_strbuf_addf(sb, "N_min %lld%s)", r->min,
				 r->spec_node || wl->kind == KVET_WL_POD ?
				 "" : ": replicas unset");
}

void explain_backend(struct kvet_strbuf *sb, const struct kvet_webhook *wh,
		     const struct kvet_backend *b)
{
	const struct kvet_node *sel;
	const struct kvet_pair *p;
	uint32_t k;
	size_t i;

	if (!b->n_wls) {
		sel = b->service ? kvet_node_path(b->service->root, "spec",
						  "selector", NULL) : NULL;
		kvet_strbuf_adds(sb, "no workload");
		for (k = 0; kvet_node_is_map(sel) && k < sel->len; k++) {
			p = &sel->u.pairs[k];
			kvet_strbuf_addf(sb, "%s%.*s=%.*s",
					 k ? ", " : " labelled ",
					 (int)p->key.len, p->key.u.str,
					 NODE_TEXT(&p->value));
		}
		if (b->service)
			kvet_strbuf_addf(sb, " in namespace \"%s\"",
					 b->service->namespace);
		return;
	}
	for (i = 0; i < b->n_wls; i++) {
		if (i)
			kvet_strbuf_adds(sb, ", ");
		backend_workload(sb, b->wls[i]);
	}
	if (kvet_backend_inferred(b))
		kvet_strbuf_addf(sb, ", assumed from its name: Service \"%s/%s\" is not in the input, which has no Service at all",
				 wh->service.namespace, wh->service.name);
}

void explain_leader(struct kvet_strbuf *sb, const struct kvet_leader *le)
{
	struct kvet_slice cn = kvet_container_name(le->container), s, cn2;

	switch (le->source) {
	case KVET_LEADER_FROM_FLAG:
		s = kvet_leader_flag(le);
		kvet_strbuf_addf(sb, "%.*s in container \"%.*s\"", SL(s),
				 SL(cn));
		return;
	case KVET_LEADER_FROM_CONFIG:
		s = kvet_leader_config_key(le);
		kvet_strbuf_addf(sb, "%s: %s in key \"%.*s\" of ConfigMap \"%s\" mounted by container \"%.*s\"",
				 le->setting ? le->setting : "leaderElect",
				 le->state == KVET_LEADER_ON ? "true" : "false",
				 SL(s), le->config_map->name, SL(cn));
		return;
	case KVET_LEADER_FROM_COMPONENT:
		kvet_strbuf_addf(sb, "container \"%.*s\" runs %s, which elects a leader by default",
				 SL(cn), le->component);
		return;
	case KVET_LEADER_FROM_ENV:
		s = kvet_string_of(kvet_node_get(le->evidence, "name"));
		if (!kvet_node_get(le->evidence, "value") &&
		    kvet_node_get(le->evidence, "valueFrom")) {
			kvet_strbuf_addf(sb, "environment variable %.*s, set by valueFrom, in container \"%.*s\"",
					 SL(s), SL(cn));
			return;
		}
		cn2 = kvet_string_of(kvet_node_get(le->evidence, "value"));
		kvet_strbuf_addf(sb, "environment variable %.*s=%.*s in container \"%.*s\"",
				 SL(s), SL(cn2), SL(cn));
		return;
	default:
		kvet_strbuf_adds(sb, "no leader election flag or configuration");
		return;
	}
}

/* M1: the first entry or APIService it backs. */
static void explain_backend_of(struct kvet_strbuf *sb,
			       const struct kvet_webhooks *whs,
			       const struct kvet_workload *wl,
			       const struct kvet_manager *m)
{
	const struct kvet_service_ref *svc;
	size_t n_e = 0, n_a = 0;

	if (whs) {
		kvet_webhooks_backed_by(whs, wl, &n_e);
		kvet_apiservices_backed_by(whs, wl, &n_a);
	}
	if (m->entry && m->entry->source == KVET_WEBHOOK_CONVERSION)
		kvet_strbuf_addf(sb, "M1: it serves the conversion webhook of CustomResourceDefinition %s",
				 m->entry->obj->name);
	else if (m->entry)
		kvet_strbuf_addf(sb, "M1: it serves webhook %s", m->entry->id);
	else if (m->apiservice)
		kvet_strbuf_addf(sb, "M1: it serves APIService %s",
				 m->apiservice->obj->name);
	else
		return;
	svc = m->entry ? &m->entry->service : &m->apiservice->service;
	kvet_strbuf_addf(sb, " through Service %s/%s%s", svc->namespace,
			 svc->name,
			 (m->entry ? n_e + n_a : n_a) > 1 ? " (and more)" : "");
}

void explain_manager_criterion(struct kvet_strbuf *sb,
			       const struct kvet_webhooks *whs,
			       const struct kvet_workload *wl,
			       const struct kvet_manager *m,
			       enum kvet_manager_criteria c)
{
	struct kvet_slice cn;

	switch (c) {
	case KVET_MANAGER_BACKEND:
		explain_backend_of(sb, whs, wl, m);
		return;
	case KVET_MANAGER_LEADER_ELECTION:
		kvet_strbuf_addf(sb, "M2: leader election %s (",
				 kvet_leader_state_name(m->leader.state));
		explain_leader(sb, &m->leader);
		kvet_strbuf_adds(sb, ")");
		return;
	case KVET_MANAGER_COMPONENT:
		kvet_strbuf_addf(sb, "M3: label %s=%.*s",
				 kvet_manager_label_key(wl, m),
				 (int)m->label->len, m->label->u.str);
		return;
	case KVET_MANAGER_CONTAINER:
		cn = kvet_container_name(m->container);
		if (kvet_node_get(m->container, "name") == m->container_evidence)
			kvet_strbuf_adds(sb, "M4: a container is named \"manager\"");
		else
			kvet_strbuf_addf(sb, "M4: container \"%.*s\" runs %.*s",
					 SL(cn),
					 (int)m->container_evidence->len,
					 m->container_evidence->u.str);
		return;
	case KVET_MANAGER_NAME:
		if (!strcmp(m->name_suffix, wl->obj->name))
			kvet_strbuf_addf(sb, "M5: it is named \"%s\"",
					 wl->obj->name);
		else
			kvet_strbuf_addf(sb, "M5: its name ends in %s",
					 m->name_suffix);
		return;
	case KVET_MANAGER_RBAC:
		kvet_strbuf_addf(sb,
				 "M6: its service account may watch %.*s (%s \"%s\") and %.*s %.*s (%s \"%s\")",
				 (int)m->rbac.watch_resource->len,
				 m->rbac.watch_resource->u.str,
				 m->rbac.watch_role->kind,
				 m->rbac.watch_role->name,
				 (int)m->rbac.write_verb->len,
				 m->rbac.write_verb->u.str,
				 (int)m->rbac.write_resource->len,
				 m->rbac.write_resource->u.str,
				 m->rbac.write_role->kind,
				 m->rbac.write_role->name);
		return;
	case KVET_MANAGER_N_CRITERIA:
		return;
	}
}

void explain_priority_origin(struct kvet_strbuf *sb,
			     const struct kvet_priority *p)
{
	const struct kvet_node *nm = p->name_node;
	int nl = nm && kvet_node_is_scalar(nm) ? (int)nm->len : 0;
	const char *ns = nl ? nm->u.str : "";

	switch (p->source) {
	case KVET_PRIORITY_SYSTEM:
		kvet_strbuf_addf(sb, "priorityClassName \"%.*s\", a built-in class",
				 nl, ns);
		return;
	case KVET_PRIORITY_CLASS:
		kvet_strbuf_addf(sb, "priorityClassName \"%.*s\": PriorityClass value %lld",
				 nl, ns, p->value);
		return;
	case KVET_PRIORITY_GLOBAL_DEFAULT:
		kvet_strbuf_addf(sb, "no priorityClassName: the globalDefault PriorityClass \"%s\" has value %lld",
				 p->priority_class->name, p->value);
		return;
	case KVET_PRIORITY_ZERO:
		kvet_strbuf_adds(sb, "no priorityClassName and no globalDefault PriorityClass in the input, so 0");
		return;
	case KVET_PRIORITY_MISSING:
		kvet_strbuf_addf(sb, "priorityClassName \"%.*s\" names no PriorityClass in the input",
				 nl, ns);
		return;
	case KVET_PRIORITY_LIVE_POD:
		kvet_strbuf_adds(sb, "spec.priority of its live Pod");
		return;
	}
	kvet_strbuf_adds(sb, "?");
}

void explain_lease_verbs(struct kvet_strbuf *sb, unsigned int verbs,
			 const char *last)
{
	static const char *const names[] = { "get", "create", "update" };
	size_t i, n = 0, k = 0;

	for (i = 0; i < 3; i++)
		n += (verbs >> i) & 1;
	for (i = 0; i < 3; i++) {
		if (!((verbs >> i) & 1))
			continue;
		if (k + 1 == n && k)
			kvet_strbuf_addf(sb, " %s ", last);
		else if (k)
			kvet_strbuf_adds(sb, ", ");
		kvet_strbuf_adds(sb, names[i]);
		k++;
	}
}
