/* SPDX-License-Identifier: Apache-2.0 */
#include "model/manager.h"

#include <string.h>

#include "model/run.h"

#define COMPONENT_LABEL "app.kubernetes.io/component"

/* M3's default values of app.kubernetes.io/component. */
static const char *const manager_components[] = {
	"manager", "controller", "controller-manager", "operator", "webhook",
	"webhook-server",
};

const char *kvet_manager_criterion_name(enum kvet_manager_criteria c)
{
	switch (c) {
	case KVET_MANAGER_BACKEND:
		return "webhook backend";
	case KVET_MANAGER_LEADER_ELECTION:
		return "leader election";
	case KVET_MANAGER_COMPONENT:
		return "component label";
	case KVET_MANAGER_CONTAINER:
		return "manager container";
	case KVET_MANAGER_NAME:
		return "controller name";
	case KVET_MANAGER_RBAC:
		return "controller RBAC";
	case KVET_MANAGER_N_CRITERIA:
		break;
	}
	return "?";
}

static void check_backend(const struct kvet_webhooks *whs,
			  const struct kvet_workload *wl,
			  struct kvet_manager *out)
{
	const struct kvet_webhook *const *entries;
	const struct kvet_apiservice *const *apis;
	size_t n_entries, n_apis;

	entries = kvet_webhooks_backed_by(whs, wl, &n_entries);
	apis = kvet_apiservices_backed_by(whs, wl, &n_apis);
	if (n_entries)
		out->entry = entries[0];
	if (n_apis)
		out->apiservice = apis[0];
	if (n_entries || n_apis)
		out->criteria |= KVET_MANAGER_BACKEND;
}

static bool names_manager(const struct kvet_node *v, const char *const *values,
			  size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (kvet_node_text_eq(v, values[i]))
			return true;
	return false;
}

/* The component label's value node in @labels when it names a manager:
 * one of the configured values, and of the defaults unless they are
 * replaced. */
static const struct kvet_node *component_of(const struct kvet_graph *g,
					    const struct kvet_node *labels)
{
	const struct kvet_name_list *cfg =
		&kvet_graph_config(g)->manager_components;
	const struct kvet_node *v = kvet_node_get(labels, COMPONENT_LABEL);

	if (!v)
		return NULL;
	if (!cfg->replace &&
	    names_manager(v, manager_components,
			  sizeof(manager_components) /
				  sizeof(manager_components[0])))
		return v;
	return names_manager(v, cfg->v, cfg->n) ? v : NULL;
}

static void check_component(const struct kvet_graph *g,
			    const struct kvet_workload *wl,
			    struct kvet_manager *out)
{
	const struct kvet_node *own, *tmpl, *cp;

	own = kvet_node_path(wl->obj->root, "metadata", "labels", NULL);
	tmpl = kvet_node_path(wl->template, "metadata", "labels", NULL);
	out->label = component_of(g, own);
	if (!out->label)
		out->label = component_of(g, tmpl);
	/* the kubebuilder scaffold's label */
	cp = kvet_node_get(tmpl, "control-plane");
	if (!out->label && kvet_node_text_eq(cp, "controller-manager"))
		out->label = cp;
	if (out->label)
		out->criteria |= KVET_MANAGER_COMPONENT;
}

static bool ends_with_manager(const struct kvet_node *n)
{
	static const char suffix[] = "/manager";
	size_t k = sizeof(suffix) - 1;

	return kvet_node_is_string(n) && n->len >= k &&
	       memcmp(n->u.str + n->len - k, suffix, k) == 0;
}

/*
 * A container named manager that runs another program with a "manager"
 * subcommand (`support-bundle-kit manager`, a one-off collector) is that
 * program, not a controller's manager binary: its first word is a path
 * or name other than manager, and "manager" comes later, as a word of
 * its own.
 */
static bool manager_subcommand(const struct kvet_node *c)
{
	const struct kvet_node *argv = kvet_node_get(c, "command"), *first;
	uint32_t i;

	if (!kvet_node_is_seq(argv) || !argv->len)
		argv = kvet_node_get(c, "args");
	if (!kvet_node_is_seq(argv) || argv->len < 2)
		return false;
	first = &argv->u.items[0];
	if (!kvet_node_is_string(first) || !first->len ||
	    first->u.str[0] == '-' || kvet_node_eq(first, "manager") ||
	    ends_with_manager(first))
		return false;
	for (i = 1; i < argv->len; i++)
		if (kvet_node_eq(&argv->u.items[i], "manager"))
			return true;
	return false;
}

static void check_container(const struct kvet_workload *wl,
			    struct kvet_manager *out)
{
	const struct kvet_node *cs = kvet_node_get(wl->pod_spec, "containers");
	uint32_t i;

	for (i = 0; kvet_node_is_seq(cs) && i < cs->len; i++) {
		const struct kvet_node *c = &cs->u.items[i];
		const struct kvet_node *name = kvet_node_get(c, "name");
		const struct kvet_node *cmd = kvet_node_get(c, "command");

		if (kvet_node_eq(name, "manager") && !manager_subcommand(c)) {
			out->container_evidence = name;
		} else if (kvet_node_is_seq(cmd) && cmd->len &&
			   ends_with_manager(&cmd->u.items[0])) {
			out->container_evidence = &cmd->u.items[0];
		} else {
			continue;
		}
		out->container = c;
		out->criteria |= KVET_MANAGER_CONTAINER;
		return;
	}
}

/* M5: the name a controller or operator is given by its project. */
static void check_name(const struct kvet_workload *wl, struct kvet_manager *out)
{
	static const char *const suffixes[] = { "-controller-manager",
						"-controller", "-operator" };
	const char *name = wl->obj->name;
	size_t n = name ? strlen(name) : 0, k, i;

	if (!n)
		return;
	if (!strcmp(name, "operator") || !strcmp(name, "controller")) {
		out->name_suffix = name;
	} else {
		for (i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
			k = strlen(suffixes[i]);
			if (n > k && !strcmp(name + n - k, suffixes[i])) {
				out->name_suffix = suffixes[i];
				break;
			}
		}
	}
	if (out->name_suffix)
		out->criteria |= KVET_MANAGER_NAME;
}

static int check_rbac(struct kvet_arena *arena, const struct kvet_rbac *rbac,
		      const struct kvet_workload *wl, struct kvet_manager *out)
{
	struct kvet_slice sa = kvet_workload_service_account(wl);
	char *name;

	if (!rbac || !wl->obj->namespace)
		return 0;
	/* "%.*s": up to a NUL */
	name = kvet_arena_strndup(arena, sa.s,
				  sa.len ? strnlen(sa.s, sa.len) : 0);
	if (!name ||
	    kvet_rbac_controller_access(rbac, wl->obj->namespace, name,
					&out->rbac))
		return -1;
	if (kvet_controller_access_is(&out->rbac))
		out->criteria |= KVET_MANAGER_RBAC;
	return 0;
}

int kvet_manager_of(struct kvet_arena *arena, const struct kvet_graph *g,
		    const struct kvet_webhooks *whs, const struct kvet_rbac *rbac,
		    const struct kvet_workload *wl, struct kvet_manager *out)
{
	memset(out, 0, sizeof(*out));
	check_backend(whs, wl, out);
	if (kvet_leader_election(arena, g, wl, &out->leader))
		return -1;
	if (out->leader.state != KVET_LEADER_UNKNOWN)
		out->criteria |= KVET_MANAGER_LEADER_ELECTION;
	check_component(g, wl, out);
	check_container(wl, out);
	check_name(wl, out);
	if (check_rbac(arena, rbac, wl, out))
		return -1;
	/* a webhook component label names a server, like M1; RBAC alone
	 * (M6) is held by API servers that write for their users too */
	out->reconciles =
		(out->criteria & (KVET_MANAGER_CONTAINER | KVET_MANAGER_NAME)) ||
		(out->label && !kvet_node_text_eq(out->label, "webhook") &&
		 !kvet_node_text_eq(out->label, "webhook-server"));
	/* a Helm hook runs only around a release operation (1.1): its
	 * evidence is kept for messages, but it manages nothing */
	if (!kvet_object_runs(wl->obj)) {
		out->criteria = 0;
		out->reconciles = false;
	}
	return 0;
}

/* A verdict is allocated when asked for: each thread's run asks about
 * the workloads of its own chunks, and an array of whole verdicts per
 * workload in every run was most of this index. */
struct managers {
	struct kvet_manager **v;	/* per workload index; NULL: not yet */
	uint8_t *state;			/* 0 not yet, 1 done, 2 failed */
	size_t n;
};

static void *managers_build(struct kvet_run *run)
{
	struct kvet_arena *arena = kvet_run_arena(run);
	struct managers *ms = kvet_arena_alloc(arena, sizeof(*ms));

	if (!ms)
		return NULL;
	kvet_graph_workloads(kvet_run_graph(run), &ms->n);
	ms->v = kvet_arena_array(arena, ms->n + 1, sizeof(*ms->v));
	ms->state = kvet_arena_array(arena, ms->n + 1, sizeof(*ms->state));
	return ms->v && ms->state ? ms : NULL;
}

const struct kvet_manager *kvet_run_manager(struct kvet_run *run,
					    const struct kvet_workload *wl)
{
	struct managers *ms = kvet_run_index(run, KVET_RUN_MANAGERS,
					     managers_build, NULL);
	const struct kvet_webhooks *whs;
	struct kvet_manager *m;

	if (!ms || wl->index >= ms->n)
		return NULL;
	if (ms->state[wl->index] == 0) {
		whs = kvet_run_webhooks(run);
		ms->state[wl->index] = 2;
		m = kvet_arena_alloc(kvet_run_arena(run), sizeof(*m));
		if (m && whs &&
		    !kvet_manager_of(kvet_run_arena(run), kvet_run_graph(run),
				     whs, kvet_run_rbac(run), wl, m)) {
			ms->v[wl->index] = m;
			ms->state[wl->index] = 1;
		}
	}
	return ms->state[wl->index] == 1 ? ms->v[wl->index] : NULL;
}

const struct kvet_node *kvet_manager_evidence(const struct kvet_workload *wl,
					      const struct kvet_manager *m,
					      enum kvet_manager_criteria c)
{
	switch (c) {
	case KVET_MANAGER_LEADER_ELECTION:
		return kvet_leader_at(wl, &m->leader);
	case KVET_MANAGER_COMPONENT:
		return m->label;
	case KVET_MANAGER_CONTAINER:
		return m->container_evidence;
	case KVET_MANAGER_NAME:
		return kvet_node_path(wl->obj->root, "metadata", "name", NULL);
	case KVET_MANAGER_RBAC:
		return m->rbac.write_resource;
	default:
		return NULL;
	}
}

const char *kvet_manager_label_key(const struct kvet_workload *wl,
				   const struct kvet_manager *m)
{
	const struct kvet_node *labels = kvet_node_path(wl->template,
							"metadata", "labels",
							NULL);

	return kvet_node_get(labels, "control-plane") == m->label ?
	       "control-plane" : "app.kubernetes.io/component";
}
