/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Kubernetes functions of CEL for RULES-CATALOGUE 1.12 to 1.14, D5 and
 * F1: managers, leader election, effective priority, lease RBAC and
 * cluster-autoscaler eviction (rules B1, D1-D5, F1).
 *
 * Users question "this is a manager", so every answer carries its
 * evidence: strings and maps whose `at` is the field that decided (the
 * args entry, the label, the priorityClassName), so a rule's `at:` can
 * point there, and the objects involved (webhook configurations,
 * PriorityClasses, bindings) for `related:`.
 *
 * The per-run facts live in the CEL_K8S_SLOT_ROLES cache: the manager
 * verdict of each workload (computed on first use, once), the
 * priorities (globalDefault, live Pods) and the RBAC subject index.
 */
#include "rules/cel_k8s.h"

#include <stdlib.h>
#include <string.h>

#include "model/evict.h"
#include "model/leader.h"
#include "model/manager.h"
#include "model/priority.h"
#include "model/rbac.h"
#include "model/webhook.h"

#define SCHEDULING_GROUP "scheduling.k8s.io"

struct roles {
	struct kvet_arena *arena;
	const struct kvet_graph *g;
	size_t n_wls;
	struct kvet_manager *mgr;	/* per workload index */
	uint8_t *mgr_state;		/* 0 not yet, 1 done, 2 failed */
	struct kvet_priorities *prio;	/* on first use */
	bool prio_failed;
	struct kvet_rbac *rbac;		/* on first use */
	bool rbac_failed;
	const struct kvet_object **defaults;	/* globalDefault: true */
	size_t n_defaults;
};

static bool is_true(const struct kvet_node *n)
{
	return n && n->type == KVET_NODE_BOOL &&
	       (kvet_node_text_eq(n, "true") || kvet_node_text_eq(n, "True") ||
		kvet_node_text_eq(n, "TRUE"));
}

static void *roles_create(struct kvet_arena *arena, const struct kvet_graph *g)
{
	struct roles *r = calloc(1, sizeof(*r));
	struct kvet_object *const *pcs;
	size_t i, n;

	if (!r)
		return NULL;
	r->arena = arena;
	r->g = g;
	kvet_graph_workloads(g, &r->n_wls);
	r->mgr = kvet_arena_array(arena, r->n_wls + 1, sizeof(*r->mgr));
	r->mgr_state = kvet_arena_array(arena, r->n_wls + 1,
					sizeof(*r->mgr_state));
	pcs = kvet_graph_kind(g, SCHEDULING_GROUP, "PriorityClass", &n);
	r->defaults = kvet_arena_array(arena, n + 1, sizeof(*r->defaults));
	if (!r->mgr || !r->mgr_state || !r->defaults) {
		free(r);
		return NULL;
	}
	for (i = 0; i < n; i++)
		if (is_true(kvet_node_get(pcs[i]->root, "globalDefault")))
			r->defaults[r->n_defaults++] = pcs[i];
	return r;
}

static void roles_destroy(void *cache)
{
	struct roles *r = cache;

	kvet_priorities_destroy(r->prio);
	kvet_rbac_destroy(r->rbac);
	free(r);
}

static struct roles *roles(struct cel_eval *ev)
{
	return cel_k8s_cache(ev, CEL_K8S_SLOT_ROLES, roles_create,
			     roles_destroy);
}

#define OOM(ev) cel_eval_errorf(ev, "out of memory")

/* The manager verdict of @wl (1.12), computed once per run. */
static const struct kvet_manager *manager(struct cel_eval *ev,
					  const struct kvet_workload *wl)
{
	struct roles *r = roles(ev);
	const struct kvet_webhooks *whs;

	if (!r || wl->index >= r->n_wls)
		return NULL;
	if (r->mgr_state[wl->index] == 0) {
		whs = cel_k8s_webhooks(ev);
		r->mgr_state[wl->index] = 2;
		if (whs && !kvet_manager_of(r->arena, r->g, whs, wl,
					    &r->mgr[wl->index]))
			r->mgr_state[wl->index] = 1;
	}
	return r->mgr_state[wl->index] == 1 ? &r->mgr[wl->index] : NULL;
}

static const struct kvet_priorities *priorities(struct cel_eval *ev)
{
	struct roles *r = roles(ev);

	if (!r || r->prio_failed)
		return NULL;
	if (!r->prio) {
		r->prio = kvet_priorities_create(r->arena, r->g);
		r->prio_failed = !r->prio;
	}
	return r->prio;
}

static const struct kvet_rbac *rbac(struct cel_eval *ev)
{
	struct roles *r = roles(ev);

	if (!r || r->rbac_failed)
		return NULL;
	if (!r->rbac) {
		r->rbac = kvet_rbac_create(r->arena, r->g);
		r->rbac_failed = !r->rbac;
	}
	return r->rbac;
}

/* ---- values ---- */

static struct cel_value str_at(const char *s, size_t len,
			       const struct kvet_node *at)
{
	struct cel_value v = cel_string(s, len);

	v.at = at;
	return v;
}

static struct cel_value str0(const char *s)
{
	return cel_string(s, strlen(s));
}

static struct cel_value node_str(const struct kvet_node *n)
{
	if (!kvet_node_is_scalar(n) || n->type == KVET_NODE_NULL)
		return str_at("", 0, n);
	return str_at(n->u.str, n->len, n);
}

static struct cel_value obj_or_null(const struct kvet_object *obj)
{
	return obj ? kvet_cel_from_object(obj) : cel_null();
}

/* A map under construction, in the scratch arena. */
struct map_b {
	struct cel_entry *e;
	uint32_t n, cap;
};

static bool map_init(struct cel_eval *ev, struct map_b *m, uint32_t cap)
{
	m->e = kvet_arena_array(ev->env->scratch, cap, sizeof(*m->e));
	m->n = 0;
	m->cap = cap;
	return m->e != NULL;
}

static void map_put(struct map_b *m, const char *key, struct cel_value v)
{
	if (m->n < m->cap) {
		m->e[m->n].key = str0(key);
		m->e[m->n].value = v;
		m->n++;
	}
}

static struct cel_value map_done(struct map_b *m, const struct kvet_node *at)
{
	struct cel_value v = { .type = CEL_MAP };

	v.u.entries = m->e;
	v.len = m->n;
	v.at = at;
	return v;
}

static struct cel_value list_of(struct cel_eval *ev,
				const struct cel_value *items, size_t n)
{
	struct cel_value v = { .type = CEL_LIST }, *copy;

	copy = kvet_arena_array(ev->env->scratch, n + 1, sizeof(*copy));
	if (!copy)
		return OOM(ev);
	if (n)
		memcpy(copy, items, n * sizeof(*copy));
	v.u.items = copy;
	v.len = (uint32_t)n;
	return v;
}

/* The workload argument, or return its error. */
#define WL_ARG(wl, ev, args, name)					\
	struct cel_value err_;						\
	const struct kvet_workload *wl =				\
		cel_k8s_workload_arg(ev, &(args)[0], name, &err_);	\
	if (!wl)							\
		return err_

/* ---- 1.12 managers ---- */

static const char *const criteria_ids[] = { "M1", "M2", "M3", "M4" };

static const struct kvet_manager *manager_arg(struct cel_eval *ev,
					      const struct kvet_workload *wl,
					      struct cel_value *err)
{
	const struct kvet_manager *m = manager(ev, wl);

	if (!m)
		*err = OOM(ev);
	return m;
}

K8S_FN(fn_is_manager)
{
	const struct kvet_manager *m;
	struct cel_value err;
	WL_ARG(wl, ev, args, "isManager");

	m = manager_arg(ev, wl, &err);
	return m ? cel_bool(kvet_manager_is(m)) : err;
}

K8S_FN(fn_manager_criteria)
{
	struct cel_value items[4], err;
	const struct kvet_manager *m;
	size_t i, k = 0;
	WL_ARG(wl, ev, args, "managerCriteria");

	m = manager_arg(ev, wl, &err);
	if (!m)
		return err;
	for (i = 0; i < 4; i++)
		if (m->criteria & (1u << i))
			items[k++] = str0(criteria_ids[i]);
	return list_of(ev, items, k);
}

/* The whitespace-separated token of @item that sets leader election:
 * the item itself when it holds one token (the usual args entry). */
static struct kvet_slice flag_token(const struct kvet_node *item)
{
	static const char *const flags[] = {
		"leader-elect", "enable-leader-election", "leader-election",
	};
	struct kvet_slice found = { "", 0 };
	size_t p = 0, start, i, nl;

	if (!kvet_node_is_scalar(item))
		return found;
	while (p < item->len) {
		while (p < item->len && (item->u.str[p] == ' ' ||
					 item->u.str[p] == '\t' ||
					 item->u.str[p] == '\n'))
			p++;
		start = p;
		while (p < item->len && item->u.str[p] != ' ' &&
		       item->u.str[p] != '\t' && item->u.str[p] != '\n')
			p++;
		if (p == start || item->u.str[start] != '-')
			continue;
		{
			const char *s = item->u.str + start + 1;
			size_t len = p - start - 1;
			const char *eq;

			if (len && *s == '-') {
				s++;
				len--;
			}
			eq = memchr(s, '=', len);
			nl = eq ? (size_t)(eq - s) : len;
			for (i = 0; i < 3; i++) {
				if (nl == strlen(flags[i]) &&
				    !memcmp(s, flags[i], nl)) {
					found.s = item->u.str + start;
					found.len = p - start;
				}
			}
		}
	}
	return found;
}

static const char *container_name(const struct kvet_node *c)
{
	const struct kvet_node *n = kvet_node_get(c, "name");

	return kvet_node_is_string(n) ? n->u.str : "";
}

static int container_name_len(const struct kvet_node *c)
{
	const struct kvet_node *n = kvet_node_get(c, "name");

	return kvet_node_is_string(n) ? (int)n->len : 0;
}

/* The data key of ConfigMap @cm whose value is @val. */
static struct kvet_slice config_key(const struct kvet_object *cm,
				    const struct kvet_node *val)
{
	const struct kvet_node *data = kvet_node_get(cm->root, "data");
	struct kvet_slice s = { "", 0 };
	uint32_t i;

	for (i = 0; kvet_node_is_map(data) && i < data->len; i++)
		if (&data->u.pairs[i].value == val) {
			s.s = data->u.pairs[i].key.u.str;
			s.len = data->u.pairs[i].key.len;
		}
	return s;
}

/* "--leader-elect=false in container \"manager\"", and the like. */
static char *leader_text(struct kvet_arena *a, const struct kvet_leader *le)
{
	struct kvet_slice tok, key;

	switch (le->source) {
	case KVET_LEADER_FROM_FLAG:
		tok = flag_token(le->evidence);
		return kvet_arena_printf(a, "%.*s in container \"%.*s\"",
					 (int)tok.len, tok.s,
					 container_name_len(le->container),
					 container_name(le->container));
	case KVET_LEADER_FROM_CONFIG:
		key = config_key(le->config_map, le->evidence);
		return kvet_arena_printf(a, "leaderElect: %s in key \"%.*s\" of ConfigMap \"%s\" mounted by container \"%.*s\"",
					 le->state == KVET_LEADER_ON ? "true" : "false",
					 (int)key.len, key.s,
					 le->config_map->name,
					 container_name_len(le->container),
					 container_name(le->container));
	case KVET_LEADER_FROM_COMPONENT:
		return kvet_arena_printf(a, "container \"%.*s\" runs %s, which elects a leader by default",
					 container_name_len(le->container),
					 container_name(le->container),
					 le->component);
	default:
		return kvet_arena_strdup(a, "no leader election flag or configuration");
	}
}

/*
 * Where the leader-election evidence is in the workload: the flag's args
 * entry, the image or command naming the component, or, for a mounted
 * ConfigMap (whose text is in another object), the pod volume naming it.
 */
static const struct kvet_node *leader_at(const struct kvet_workload *wl,
					 const struct kvet_leader *le)
{
	const struct kvet_node *vols = kvet_node_get(wl->pod_spec, "volumes");
	uint32_t i, j;

	if (le->source != KVET_LEADER_FROM_CONFIG)
		return le->evidence;
	for (i = 0; kvet_node_is_seq(vols) && i < vols->len; i++) {
		const struct kvet_node *vol = &vols->u.items[i], *srcs;

		if (kvet_node_eq(kvet_node_path(vol, "configMap", NULL) ?
				 kvet_node_get(kvet_node_get(vol, "configMap"),
					       "name") : NULL,
				 le->config_map->name))
			return vol;
		srcs = kvet_node_path(vol, "projected", "sources", NULL);
		for (j = 0; kvet_node_is_seq(srcs) && j < srcs->len; j++)
			if (kvet_node_eq(kvet_node_get(kvet_node_get(
					&srcs->u.items[j], "configMap"), "name"),
					 le->config_map->name))
				return vol;
	}
	return NULL;
}

/* One reason per criterion, each positioned at its evidence in the
 * workload (M1's evidence is in the webhook configuration: no place). */
static size_t reasons(struct cel_eval *ev, const struct kvet_workload *wl,
		      const struct kvet_manager *m, struct cel_value out[4])
{
	struct kvet_arena *a = ev->env->scratch;
	const struct kvet_webhooks *whs = cel_k8s_webhooks(ev);
	size_t k = 0, n_e = 0, n_a = 0;
	char *s = NULL;

	if (m->criteria & KVET_MANAGER_BACKEND) {
		if (whs) {
			kvet_webhooks_backed_by(whs, wl, &n_e);
			kvet_apiservices_backed_by(whs, wl, &n_a);
		}
		if (m->entry && m->entry->source == KVET_WEBHOOK_CONVERSION)
			s = kvet_arena_printf(a, "M1: it serves the conversion webhook of CustomResourceDefinition %s through Service %s/%s%s",
					      m->entry->obj->name,
					      m->entry->service.namespace,
					      m->entry->service.name,
					      n_e + n_a > 1 ? " (and more)" : "");
		else if (m->entry)
			s = kvet_arena_printf(a, "M1: it serves webhook %s through Service %s/%s%s",
					      m->entry->id,
					      m->entry->service.namespace,
					      m->entry->service.name,
					      n_e + n_a > 1 ? " (and more)" : "");
		else if (m->apiservice)
			s = kvet_arena_printf(a, "M1: it serves APIService %s through Service %s/%s%s",
					      m->apiservice->obj->name,
					      m->apiservice->service.namespace,
					      m->apiservice->service.name,
					      n_a > 1 ? " (and more)" : "");
		if (s)
			out[k++] = str0(s);
	}
	if (m->criteria & KVET_MANAGER_LEADER_ELECTION) {
		char *le = leader_text(a, &m->leader);

		s = le ? kvet_arena_printf(a, "M2: leader election %s (%s)",
					   kvet_leader_state_name(m->leader.state),
					   le) : NULL;
		if (s)
			out[k++] = str_at(s, strlen(s), leader_at(wl, &m->leader));
	}
	if (m->criteria & KVET_MANAGER_COMPONENT) {
		const struct kvet_node *tmpl =
			kvet_node_path(wl->template, "metadata", "labels", NULL);
		bool cp = kvet_node_get(tmpl, "control-plane") == m->label;

		s = kvet_arena_printf(a, "M3: label %s=%.*s",
				      cp ? "control-plane" :
				      "app.kubernetes.io/component",
				      (int)m->label->len, m->label->u.str);
		if (s)
			out[k++] = str_at(s, strlen(s), m->label);
	}
	if (m->criteria & KVET_MANAGER_CONTAINER) {
		if (kvet_node_get(m->container, "name") == m->container_evidence)
			s = kvet_arena_printf(a, "M4: a container is named \"manager\"");
		else
			s = kvet_arena_printf(a, "M4: container \"%.*s\" runs %.*s",
					      container_name_len(m->container),
					      container_name(m->container),
					      (int)m->container_evidence->len,
					      m->container_evidence->u.str);
		if (s)
			out[k++] = str_at(s, strlen(s), m->container_evidence);
	}
	return k;
}

K8S_FN(fn_manager_reasons)
{
	struct cel_value items[4], err;
	const struct kvet_manager *m;
	WL_ARG(wl, ev, args, "managerReasons");

	m = manager_arg(ev, wl, &err);
	if (!m)
		return err;
	return list_of(ev, items, reasons(ev, wl, m, items));
}

K8S_FN(fn_manager_why)
{
	struct cel_value items[4], err;
	const struct kvet_manager *m;
	size_t i, k, len = 0;
	char *s;
	WL_ARG(wl, ev, args, "managerWhy");

	m = manager_arg(ev, wl, &err);
	if (!m)
		return err;
	k = reasons(ev, wl, m, items);
	for (i = 0; i < k; i++)
		len += items[i].len + 2;
	s = kvet_arena_alloc(ev->env->scratch, len + 1);
	if (!s)
		return OOM(ev);
	for (len = 0, i = 0; i < k; i++) {
		if (i) {
			memcpy(s + len, "; ", 2);
			len += 2;
		}
		memcpy(s + len, items[i].u.s, items[i].len);
		len += items[i].len;
	}
	s[len] = '\0';
	/* the first reason with a place in the workload */
	for (i = 0; i < k && !items[i].at; i++)
		;
	return str_at(s, len, i < k ? items[i].at : NULL);
}

/* The configurations, CRDs and APIServices whose webhooks @wl serves. */
K8S_FN(fn_webhooks_served_by)
{
	const struct kvet_webhooks *whs;
	const struct kvet_webhook *const *es;
	const struct kvet_apiservice *const *as;
	const struct kvet_object **objs;
	size_t n_e = 0, n_a = 0, i, j, k = 0;
	WL_ARG(wl, ev, args, "webhooksServedBy");

	whs = cel_k8s_webhooks(ev);
	if (!whs)
		return OOM(ev);
	es = kvet_webhooks_backed_by(whs, wl, &n_e);
	as = kvet_apiservices_backed_by(whs, wl, &n_a);
	objs = kvet_arena_array(ev->env->scratch, n_e + n_a + 1, sizeof(*objs));
	if (!objs)
		return OOM(ev);
	for (i = 0; i < n_e + n_a; i++) {
		const struct kvet_object *o = i < n_e ? es[i]->obj :
						as[i - n_e]->obj;

		/* several entries of one configuration: one object */
		for (j = 0; j < k && objs[j] != o; j++)
			;
		if (j == k)
			objs[k++] = o;
	}
	return cel_k8s_object_list(ev, objs, k);
}

/* ---- 1.13 leader election ---- */

static const char *const source_names[] = {
	[KVET_LEADER_FROM_NOTHING] = "none",
	[KVET_LEADER_FROM_FLAG] = "flag",
	[KVET_LEADER_FROM_CONFIG] = "config",
	[KVET_LEADER_FROM_COMPONENT] = "component",
};

K8S_FN(fn_leader_election)
{
	const struct kvet_manager *m;
	const struct kvet_leader *le;
	const struct kvet_node *at;
	struct cel_value err, evidence;
	struct kvet_slice tok;
	struct map_b mb;
	char *text;
	WL_ARG(wl, ev, args, "leaderElection");

	m = manager_arg(ev, wl, &err);
	if (!m)
		return err;
	le = &m->leader;
	text = leader_text(ev->env->scratch, le);
	if (!text || !map_init(ev, &mb, 8))
		return OOM(ev);
	at = leader_at(wl, le);
	evidence = str_at("", 0, at);
	if (le->source == KVET_LEADER_FROM_FLAG) {
		tok = flag_token(le->evidence);
		evidence = str_at(tok.s, tok.len, at);
	} else if (le->evidence && kvet_node_is_scalar(le->evidence)) {
		evidence = str_at(le->evidence->u.str, le->evidence->len, at);
	}
	map_put(&mb, "state", str0(kvet_leader_state_name(le->state)));
	map_put(&mb, "source", str0(source_names[le->source]));
	map_put(&mb, "evidence", evidence);
	map_put(&mb, "text", str_at(text, strlen(text), at));
	map_put(&mb, "container",
		le->container ? str_at(container_name(le->container),
				       (size_t)container_name_len(le->container),
				       kvet_node_get(le->container, "name"))
			      : str0(""));
	map_put(&mb, "configMap", obj_or_null(le->config_map));
	map_put(&mb, "component", str0(le->component ? le->component : ""));
	/* no place: a configuration's namespace is in another object */
	map_put(&mb, "leaseNamespace", str0(le->namespace));
	return map_done(&mb, at);
}

/* ---- 1.14 priority ---- */

static const char *const prio_sources[] = {
	[KVET_PRIORITY_SYSTEM] = "system",
	[KVET_PRIORITY_CLASS] = "class",
	[KVET_PRIORITY_GLOBAL_DEFAULT] = "global-default",
	[KVET_PRIORITY_ZERO] = "zero",
	[KVET_PRIORITY_MISSING] = "missing",
	[KVET_PRIORITY_LIVE_POD] = "live-pod",
};

static char *priority_origin(struct kvet_arena *a,
			     const struct kvet_priority *p)
{
	const struct kvet_node *nm = p->name_node;
	int nl = nm && kvet_node_is_scalar(nm) ? (int)nm->len : 0;
	const char *ns = nl ? nm->u.str : "";

	switch (p->source) {
	case KVET_PRIORITY_SYSTEM:
		return kvet_arena_printf(a, "priorityClassName \"%.*s\", a built-in class",
					 nl, ns);
	case KVET_PRIORITY_CLASS:
		return kvet_arena_printf(a, "priorityClassName \"%.*s\": PriorityClass value %lld",
					 nl, ns, p->value);
	case KVET_PRIORITY_GLOBAL_DEFAULT:
		return kvet_arena_printf(a, "no priorityClassName: the globalDefault PriorityClass \"%s\" has value %lld",
					 p->priority_class->name, p->value);
	case KVET_PRIORITY_ZERO:
		return kvet_arena_strdup(a, "no priorityClassName and no globalDefault PriorityClass in the input, so 0");
	case KVET_PRIORITY_MISSING:
		return kvet_arena_printf(a, "priorityClassName \"%.*s\" names no PriorityClass in the input",
					 nl, ns);
	case KVET_PRIORITY_LIVE_POD:
		return kvet_arena_strdup(a, "spec.priority of its live Pod");
	}
	return kvet_arena_strdup(a, "?");
}

/* The key node of @key in @map, for `at`. */
static const struct kvet_node *key_of(const struct kvet_node *map,
				      const char *key)
{
	const struct kvet_pair *p = kvet_node_get_pair(map, key);

	return p ? &p->key : NULL;
}

K8S_FN(fn_effective_priority)
{
	const struct kvet_priorities *pr;
	struct kvet_priority p;
	struct map_b mb;
	char *origin;
	const struct kvet_node *name_at;
	WL_ARG(wl, ev, args, "effectivePriority");

	pr = priorities(ev);
	if (!pr)
		return OOM(ev);
	kvet_effective_priority(pr, wl, &p);
	origin = priority_origin(ev->env->scratch, &p);
	if (!origin || !map_init(ev, &mb, 6))
		return OOM(ev);
	name_at = p.name_node ? key_of(wl->pod_spec, "priorityClassName") : NULL;
	map_put(&mb, "known", cel_bool(p.known));
	map_put(&mb, "value", p.known ? cel_int(p.value) : cel_null());
	map_put(&mb, "source", str0(prio_sources[p.source]));
	map_put(&mb, "className",
		p.name_node ? str_at(node_str(p.name_node).u.s,
				     node_str(p.name_node).len, name_at)
			    : str0(""));
	map_put(&mb, "priorityClass", obj_or_null(p.priority_class));
	map_put(&mb, "origin", str_at(origin, strlen(origin), name_at));
	return map_done(&mb, name_at);
}

K8S_FN(fn_priority_class_named)
{
	const struct kvet_object *pc;
	char *name;

	if (!kvet_cel_graph(ev))
		return cel_k8s_no_graph(ev, "priorityClassNamed");
	if (args[0].type != CEL_STRING)
		return cel_eval_errorf(ev, "priorityClassNamed() needs a name");
	name = kvet_arena_strndup(ev->env->scratch, args[0].u.s, args[0].len);
	if (!name)
		return OOM(ev);
	pc = kvet_graph_find(kvet_cel_graph(ev), SCHEDULING_GROUP,
			     "PriorityClass", "", name);
	return obj_or_null(pc);
}

K8S_FN(fn_global_defaults)
{
	struct roles *r;

	(void)args;
	if (!kvet_cel_graph(ev))
		return cel_k8s_no_graph(ev, "globalDefaultPriorityClasses");
	r = roles(ev);
	if (!r)
		return OOM(ev);
	return cel_k8s_object_list(ev, r->defaults, r->n_defaults);
}

/* The pod template's spec (a Pod's own spec), positioned at its key. */
K8S_FN(fn_pod_spec)
{
	WL_ARG(wl, ev, args, "podSpec");

	if (!kvet_node_is_map(wl->pod_spec)) {
		struct cel_value empty = { .type = CEL_MAP };

		return empty;
	}
	return cel_from_node(wl->pod_spec, key_of(wl->template, "spec"));
}

/* ---- D5 RBAC ---- */

K8S_FN(fn_service_account_of)
{
	struct kvet_slice sa;
	const struct kvet_node *at;
	WL_ARG(wl, ev, args, "serviceAccountOf");

	sa = kvet_workload_service_account(wl);
	at = key_of(wl->pod_spec, "serviceAccountName");
	if (!at)
		at = key_of(wl->pod_spec, "serviceAccount");
	return str_at(sa.s, sa.len, at);
}

static const char *const lease_verbs[] = { "get", "create", "update" };

/* "get", "get and update", "get, create and update" (@last "and" or "or"). */
static struct cel_value verbs_text(struct cel_eval *ev,
				   const struct cel_value *v, size_t n,
				   const char *last)
{
	const char *s = "";

	if (n == 1)
		s = v[0].u.s;
	else if (n == 2)
		s = kvet_arena_printf(ev->env->scratch, "%s %s %s", v[0].u.s,
				      last, v[1].u.s);
	else if (n == 3)
		s = kvet_arena_printf(ev->env->scratch, "%s, %s %s %s",
				      v[0].u.s, v[1].u.s, last, v[2].u.s);
	return s ? str0(s) : OOM(ev);
}

K8S_FN(fn_lease_access)
{
	const struct kvet_manager *m;
	const struct kvet_rbac *rb;
	struct kvet_lease_access la;
	struct cel_value err, granted[3], missing[3];
	struct kvet_slice sa;
	struct map_b mb;
	char *sa_name;
	size_t i, ng = 0, nm = 0;
	WL_ARG(wl, ev, args, "leaseAccess");

	m = manager_arg(ev, wl, &err);
	if (!m)
		return err;
	rb = rbac(ev);
	sa = kvet_workload_service_account(wl);
	sa_name = kvet_arena_strndup(ev->env->scratch, sa.s, sa.len);
	if (!rb || !sa_name ||
	    kvet_rbac_lease_access(rb, wl->obj->namespace, sa_name,
				   m->leader.namespace, &la) ||
	    !map_init(ev, &mb, 10))
		return OOM(ev);
	for (i = 0; i < 3; i++) {
		if (la.verbs & (1u << i))
			granted[ng++] = str0(lease_verbs[i]);
		else
			missing[nm++] = str0(lease_verbs[i]);
	}
	map_put(&mb, "bound", cel_bool(la.bound));
	map_put(&mb, "granted", list_of(ev, granted, ng));
	map_put(&mb, "missing", list_of(ev, missing, nm));
	map_put(&mb, "grantedText", verbs_text(ev, granted, ng, "and"));
	map_put(&mb, "missingText", verbs_text(ev, missing, nm, "or"));
	map_put(&mb, "serviceAccount", str_at(sa_name, sa.len,
					      key_of(wl->pod_spec,
						     "serviceAccountName")));
	map_put(&mb, "leaseNamespace", str0(m->leader.namespace));
	map_put(&mb, "binding", obj_or_null(la.binding));
	map_put(&mb, "role", obj_or_null(la.role));
	map_put(&mb, "subjectBinding", obj_or_null(la.subject_binding));
	return map_done(&mb, NULL);
}

/* ---- F1 cluster-autoscaler ---- */

K8S_FN(fn_safe_to_evict)
{
	const struct kvet_node *node;
	enum kvet_safe_to_evict s;
	static const char *const names[] = {
		[KVET_EVICT_UNSET] = "unset",
		[KVET_EVICT_TRUE] = "true",
		[KVET_EVICT_FALSE] = "false",
	};
	WL_ARG(wl, ev, args, "safeToEvict");

	s = kvet_workload_safe_to_evict(wl, &node);
	return str_at(names[s], strlen(names[s]), node);
}

K8S_FN(fn_blocking_volumes)
{
	struct kvet_local_volumes lv;
	struct cel_value *items, out = { .type = CEL_LIST };
	struct map_b mb;
	size_t i;
	WL_ARG(wl, ev, args, "blockingLocalVolumes");

	if (kvet_workload_blocking_volumes(ev->env->scratch, wl, &lv))
		return OOM(ev);
	items = kvet_arena_array(ev->env->scratch, lv.n + 1, sizeof(*items));
	if (!items)
		return OOM(ev);
	for (i = 0; i < lv.n; i++) {
		if (!map_init(ev, &mb, 2))
			return OOM(ev);
		map_put(&mb, "name", str_at(lv.v[i].name.s, lv.v[i].name.len,
					    lv.v[i].node));
		map_put(&mb, "type", str0(lv.v[i].host_path ? "hostPath" :
					  "emptyDir"));
		items[i] = map_done(&mb, lv.v[i].node);
	}
	out.u.items = items;
	out.len = (uint32_t)lv.n;
	return out;
}

K8S_FN(fn_is_bare_pod)
{
	WL_ARG(wl, ev, args, "isBarePod");

	return cel_bool(wl->kind == KVET_WL_POD && !wl->orphan);
}

#define G CEL_CALL_GLOBAL
#define DYN CEL_ST_DYN
#define MAP CEL_ST_MAP
#define STR CEL_ST_STRING
#define LIST CEL_ST_LIST
#define BOOL CEL_ST_BOOL

static const struct cel_func roles_funcs[] = {
	/* 1.12 managers */
	{ "isManager", G, 1, 1, BOOL, { MAP }, fn_is_manager,
	  "the workload is a manager by any of M1-M4 (1.12)" },
	{ "managerCriteria", G, 1, 1, LIST, { MAP }, fn_manager_criteria,
	  "the criteria it meets: a list of \"M1\" to \"M4\"" },
	{ "managerReasons", G, 1, 1, LIST, { MAP }, fn_manager_reasons,
	  "one sentence per criterion met, each positioned at its evidence" },
	{ "managerWhy", G, 1, 1, STR, { MAP }, fn_manager_why,
	  "the reasons joined with \"; \"" },
	{ "webhooksServedBy", G, 1, 1, LIST, { MAP }, fn_webhooks_served_by,
	  "the webhook configurations, CRDs and APIServices it is a backend of (M1)" },
	/* 1.13 leader election */
	{ "leaderElection", G, 1, 1, MAP, { MAP }, fn_leader_election,
	  "{state, source, evidence, text, container, configMap, component, leaseNamespace}" },
	/* 1.14 priority */
	{ "effectivePriority", G, 1, 1, MAP, { MAP }, fn_effective_priority,
	  "{known, value, source, className, priorityClass, origin}" },
	{ "priorityClassNamed", G, 1, 1, DYN, { STR }, fn_priority_class_named,
	  "the PriorityClass of that name in the input, or null" },
	{ "globalDefaultPriorityClasses", G, 0, 0, LIST, { DYN },
	  fn_global_defaults, "the PriorityClasses with globalDefault: true" },
	{ "podSpec", G, 1, 1, MAP, { MAP }, fn_pod_spec,
	  "the pod template's spec (a Pod's own spec)" },
	/* D5 lease RBAC */
	{ "serviceAccountOf", G, 1, 1, STR, { MAP }, fn_service_account_of,
	  "spec.serviceAccountName of the pod template, else \"default\"" },
	{ "leaseAccess", G, 1, 1, MAP, { MAP }, fn_lease_access,
	  "{bound, granted, missing, grantedText, missingText, serviceAccount, leaseNamespace, binding, role, subjectBinding}" },
	/* F1 cluster-autoscaler */
	{ "safeToEvict", G, 1, 1, STR, { MAP }, fn_safe_to_evict,
	  "the template's safe-to-evict annotation: \"true\", \"false\" or \"unset\"" },
	{ "blockingLocalVolumes", G, 1, 1, LIST, { MAP }, fn_blocking_volumes,
	  "hostPath and disk emptyDir volumes not listed in safe-to-evict-local-volumes: [{name, type}]" },
	{ "isBarePod", G, 1, 1, BOOL, { MAP }, fn_is_bare_pod,
	  "a Pod without a controller" },
};

const struct cel_lib cel_k8s_roles_lib = CEL_LIB("kvet.roles", roles_funcs);
