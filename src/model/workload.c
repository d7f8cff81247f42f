/* SPDX-License-Identifier: Apache-2.0 */
#include "model/workload.h"

#include <string.h>

static const struct {
	const char *group;
	const char *kind;
	enum kvet_workload_kind wk;
} kinds[] = {
	{ "apps", "Deployment", KVET_WL_DEPLOYMENT },
	{ "apps", "ReplicaSet", KVET_WL_REPLICASET },
	{ "apps", "StatefulSet", KVET_WL_STATEFULSET },
	{ "apps", "DaemonSet", KVET_WL_DAEMONSET },
	{ "batch", "Job", KVET_WL_JOB },
	{ "batch", "CronJob", KVET_WL_CRONJOB },
	{ "", "ReplicationController", KVET_WL_REPLICATION_CONTROLLER },
	{ "", "Pod", KVET_WL_POD },
};

bool kvet_workload_kind_of(const char *group, const char *kind,
			   enum kvet_workload_kind *out)
{
	size_t i;

	if (!group || !kind)
		return false;
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (strcmp(kinds[i].kind, kind) == 0 &&
		    strcmp(kinds[i].group, group) == 0) {
			*out = kinds[i].wk;
			return true;
		}
	}
	return false;
}

const char *kvet_workload_kind_name(enum kvet_workload_kind kind)
{
	size_t i;

	if (kind == KVET_WL_CUSTOM)
		return "custom resource";
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (kinds[i].wk == kind)
			return kinds[i].kind;
	return "?";
}

bool kvet_workload_kind_scalable(enum kvet_workload_kind kind)
{
	return kind == KVET_WL_DEPLOYMENT || kind == KVET_WL_REPLICASET ||
	       kind == KVET_WL_STATEFULSET ||
	       kind == KVET_WL_REPLICATION_CONTROLLER;
}

bool kvet_workload_scalable(const struct kvet_workload *wl)
{
	if (wl->kind == KVET_WL_CUSTOM)
		return wl->custom && wl->custom->replicas_path;
	return kvet_workload_kind_scalable(wl->kind);
}

const struct kvet_custom_workload *
kvet_custom_workload_find(const struct kvet_custom_workload *v, size_t n,
			  const char *group, const char *kind)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(v[i].kind, kind) == 0 &&
		    strcmp(v[i].group, group) == 0)
			return &v[i];
	return NULL;
}

enum kvet_kind_class
kvet_workload_kind_class(const struct kvet_custom_workload *custom, size_t n,
			 const char *group, const char *kind)
{
	const struct kvet_custom_workload *c;
	enum kvet_workload_kind wk;

	if (kvet_workload_kind_of(group, kind, &wk))
		return kvet_workload_kind_scalable(wk) ?
		       KVET_KIND_SCALABLE_WORKLOAD : KVET_KIND_WORKLOAD;
	c = kvet_custom_workload_find(custom, n, group, kind);
	if (!c)
		return KVET_KIND_OTHER;
	return c->replicas_path ? KVET_KIND_SCALABLE_WORKLOAD :
	       KVET_KIND_WORKLOAD;
}

/* https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/apps/validation/validation.go
 * (ValidateDeploymentSpec: "empty selector is invalid for deployment",
 * "`selector` does not match template `labels`"), and batch's
 * validateJobSpec when manualSelector is true. */
enum kvet_template_flaw
kvet_workload_template_flaw(const struct kvet_workload *wl,
			    const struct kvet_requirement **req)
{
	const struct kvet_selector *sel = &wl->selector;
	size_t i;

	*req = NULL;
	switch (wl->kind) {
	case KVET_WL_DEPLOYMENT:
	case KVET_WL_REPLICASET:
	case KVET_WL_STATEFULSET:
	case KVET_WL_DAEMONSET:
		break;
	case KVET_WL_JOB:
		if (!kvet_node_text_eq(kvet_node_path(wl->obj->root, "spec",
						      "manualSelector", NULL),
				       "true"))
			return KVET_TEMPLATE_SELECTED;
		/* the selector of job_selector() is kvet's, not the user's */
		if (kvet_node_is_null(kvet_node_path(wl->obj->root, "spec",
						     "selector", NULL)))
			return KVET_TEMPLATE_NO_SELECTOR;
		break;
	default:
		return KVET_TEMPLATE_SELECTED;
	}
	if (!wl->template)
		return KVET_TEMPLATE_SELECTED;
	/* apps/v1beta1 defaulted an absent or empty selector to the
	 * template's labels; apps/v1beta2 and apps/v1 require one */
	if ((sel->form == KVET_SEL_FORM_ABSENT ||
	     sel->form == KVET_SEL_FORM_EMPTY) &&
	    wl->kind != KVET_WL_JOB && !strcmp(wl->obj->version, "v1beta1"))
		return KVET_TEMPLATE_SELECTED;
	switch (sel->form) {
	case KVET_SEL_FORM_ABSENT:
		return KVET_TEMPLATE_NO_SELECTOR;
	case KVET_SEL_FORM_EMPTY:
		return KVET_TEMPLATE_EMPTY_SELECTOR;
	case KVET_SEL_FORM_MALFORMED:
		return KVET_TEMPLATE_INVALID_SELECTOR;
	case KVET_SEL_FORM_REQUIREMENTS:
		break;
	}
	if (sel->meaning == KVET_SEL_INVALID)
		return KVET_TEMPLATE_INVALID_SELECTOR;
	for (i = 0; i < sel->n_reqs; i++)
		if (!kvet_requirement_matches(&sel->reqs[i], &wl->labels,
					      NULL)) {
			*req = &sel->reqs[i];
			return KVET_TEMPLATE_MISMATCH;
		}
	return KVET_TEMPLATE_SELECTED;
}

/* Follow configured keys from @n: "spec", "template". */
static const struct kvet_node *follow(const struct kvet_node *n,
				      const char *const *keys, size_t nkeys)
{
	size_t i;

	for (i = 0; n && i < nkeys; i++)
		n = kvet_node_get(n, keys[i]);
	return n;
}

void kvet_workload_runtime(const struct kvet_workload *wl, uint32_t revision,
			   uint32_t ordinal, struct kvet_pod_runtime *out)
{
	memset(out, 0, sizeof(*out));
	out->uid = wl->index;
	out->revision = revision;
	out->ordinal = ordinal;
	switch (wl->kind) {
	case KVET_WL_DEPLOYMENT:
		out->flags = KVET_RT_TEMPLATE_HASH;
		break;
	case KVET_WL_STATEFULSET:
		out->flags = KVET_RT_REVISION_HASH | KVET_RT_STS_POD;
		out->name = kvet_slice_of(wl->obj->name);
		break;
	case KVET_WL_DAEMONSET:
		out->flags = KVET_RT_REVISION_HASH |
			     KVET_RT_TEMPLATE_GENERATION;
		break;
	case KVET_WL_JOB:
		out->flags = KVET_RT_JOB;
		out->name = kvet_slice_of(wl->obj->name);
		break;
	case KVET_WL_CRONJOB:
		/* its Jobs are named <cronjob>-<scheduled time> */
		out->flags = KVET_RT_JOB;
		break;
	default:
		/* ReplicaSet, ReplicationController and Pod add nothing */
		break;
	}
}

/*
 * A Job without spec.selector gets one generated from its UID
 * (manualSelector unset): batch.kubernetes.io/controller-uid In [uid],
 * which only its own pods carry.
 */
static int job_selector(struct kvet_arena *arena, struct kvet_workload *wl)
{
	struct kvet_requirement *r;
	struct kvet_slice *v;
	struct kvet_pod_runtime rt;

	r = kvet_arena_alloc(arena, sizeof(*r));
	v = kvet_arena_alloc(arena, sizeof(*v));
	if (!r || !v)
		return -1;
	kvet_workload_runtime(wl, 0, 0, &rt);
	r->key = kvet_slice_of("batch.kubernetes.io/controller-uid");
	r->op = KVET_SEL_IN;
	if (kvet_runtime_value(arena, &rt, r->key, v) != 1)
		return -1;
	r->values = v;
	r->n_values = 1;
	memset(&wl->selector, 0, sizeof(wl->selector));
	wl->selector.field = KVET_SEL_FIELD_WORKLOAD;
	wl->selector.form = KVET_SEL_FORM_REQUIREMENTS;
	wl->selector.meaning = KVET_SEL_MATCH;
	wl->selector.reqs = r;
	wl->selector.n_reqs = 1;
	return 0;
}

static int init(struct kvet_arena *arena, const struct kvet_object *obj,
		enum kvet_workload_kind kind, uint32_t index,
		struct kvet_workload *out)
{
	const struct kvet_node *spec = kvet_node_get(obj->root, "spec");
	const struct kvet_node *sel;

	out->obj = obj;
	out->kind = kind;
	out->index = index;
	switch (kind) {
	case KVET_WL_POD:
		out->template = obj->root;
		break;
	case KVET_WL_CRONJOB:
		spec = kvet_node_path(spec, "jobTemplate", "spec", NULL);
		out->template = kvet_node_get(spec, "template");
		break;
	case KVET_WL_CUSTOM:
		out->template = out->custom
					? follow(obj->root, out->custom->template_path,
						 out->custom->n_template_path)
					: NULL;
		break;
	default:
		out->template = kvet_node_get(spec, "template");
		break;
	}
	if (!kvet_node_is_map(out->template))
		out->template = NULL;
	out->pod_spec = kvet_node_get(out->template, "spec");
	if (kvet_labels_from_node(arena, kvet_node_path(out->template,
							"metadata", "labels",
							NULL),
				  &out->labels))
		return -1;

	sel = kvet_node_get(spec, "selector");
	switch (kind) {
	case KVET_WL_POD:
		out->selector.field = KVET_SEL_FIELD_WORKLOAD;
		out->selector.meaning = KVET_SEL_NOTHING;
		return 0;
	case KVET_WL_JOB:
	case KVET_WL_CRONJOB:
		if (kvet_node_is_null(sel))
			return job_selector(arena, out);
		return kvet_selector_parse(arena, sel, KVET_SEL_FIELD_WORKLOAD,
					   &out->selector);
	case KVET_WL_REPLICATION_CONTROLLER:
		if (kvet_selector_parse(arena, sel, KVET_SEL_FIELD_PLAIN_WORKLOAD,
					&out->selector))
			return -1;
		/* "If empty, defaulted to labels on Pod template" */
		if (out->selector.form == KVET_SEL_FORM_ABSENT ||
		    out->selector.form == KVET_SEL_FORM_EMPTY)
			return kvet_selector_from_labels(arena, &out->labels,
					KVET_SEL_FIELD_PLAIN_WORKLOAD,
					&out->selector);
		return 0;
	default:
		return kvet_selector_parse(arena, sel, KVET_SEL_FIELD_WORKLOAD,
					   &out->selector);
	}
}

int kvet_workload_init(struct kvet_arena *arena, const struct kvet_object *obj,
		       enum kvet_workload_kind kind, uint32_t index,
		       struct kvet_workload *out)
{
	memset(out, 0, sizeof(*out));
	return init(arena, obj, kind, index, out);
}

int kvet_workload_init_custom(struct kvet_arena *arena,
			      const struct kvet_object *obj,
			      const struct kvet_custom_workload *custom,
			      uint32_t index, struct kvet_workload *out)
{
	memset(out, 0, sizeof(*out));
	out->custom = custom;
	return init(arena, obj, KVET_WL_CUSTOM, index, out);
}

void kvet_workload_set_replicas(struct kvet_workload *wl,
				const struct kvet_hpa *hpa,
				unsigned int n_hpas, bool dump_mode)
{
	struct kvet_replicas *r = &wl->replicas;
	const struct kvet_node *spec = kvet_node_get(wl->obj->root, "spec");
	long long n;

	memset(r, 0, sizeof(*r));
	r->hpa = hpa;
	r->n_hpas = n_hpas;
	r->spec = r->min = r->max = -1;
	switch (wl->kind) {
	case KVET_WL_DAEMONSET:
		/* one pod per eligible node: only a live object knows */
		r->state = KVET_REPLICAS_UNKNOWN;
		if (dump_mode &&
		    kvet_replicas_field(kvet_node_path(wl->obj->root, "status",
						       "desiredNumberScheduled",
						       NULL), &n)) {
			r->state = KVET_REPLICAS_KNOWN;
			r->spec = r->min = r->max = n;
		}
		return;
	case KVET_WL_JOB:
	case KVET_WL_CRONJOB:
		r->state = KVET_REPLICAS_EXCLUDED;
		return;
	case KVET_WL_POD:
		r->state = KVET_REPLICAS_KNOWN;
		r->spec = r->min = r->max = 1;
		return;
	case KVET_WL_CUSTOM:
		/* without a replicas path nothing says how many pods run */
		if (!kvet_workload_scalable(wl)) {
			r->state = KVET_REPLICAS_UNKNOWN;
			return;
		}
		break;
	default:
		break;
	}
	r->state = KVET_REPLICAS_KNOWN;
	r->spec_node = wl->kind == KVET_WL_CUSTOM
			       ? follow(wl->obj->root, wl->custom->replicas_path,
					wl->custom->n_replicas_path)
			       : kvet_node_get(spec, "replicas");
	if (kvet_node_is_null(r->spec_node))
		r->spec_node = NULL;
	/* Deployment, ReplicaSet, StatefulSet and ReplicationController
	 * all default spec.replicas to 1 */
	r->spec = 1;
	kvet_replicas_field(r->spec_node, &r->spec);
	if (hpa) {
		r->min = hpa->min;
		r->max = hpa->max;
	} else {
		r->min = r->max = r->spec;
	}
}

bool kvet_workload_selected_by(const struct kvet_workload *wl,
			       const struct kvet_selector *sel)
{
	struct kvet_pod_runtime rt;

	kvet_workload_runtime(wl, 0, 0, &rt);
	return kvet_selector_matches(sel, &wl->labels, &rt);
}

struct kvet_pdb_member kvet_workload_pdb_member(const struct kvet_workload *wl)
{
	struct kvet_pdb_member m;

	m.n = wl->replicas.state == KVET_REPLICAS_KNOWN ? wl->replicas.min : -1;
	if (kvet_workload_scalable(wl))
		m.kind = KVET_PDB_SCALABLE;
	else if (wl->kind == KVET_WL_POD && !wl->orphan)
		m.kind = KVET_PDB_BARE_POD;
	else
		/* DaemonSet, Job, CronJob, and a Pod whose controller is
		 * missing: getExpectedScale finds no scale for them */
		m.kind = KVET_PDB_UNSCALABLE;
	if (wl->kind == KVET_WL_POD)
		m.n = 1;
	return m;
}

long long kvet_workload_install_pods(const struct kvet_workload *wl)
{
	const struct kvet_node *spec = kvet_node_get(wl->obj->root, "spec");
	const struct kvet_node *n;
	long long par = 1, done;

	switch (wl->kind) {
	case KVET_WL_DAEMONSET:
		return -1;
	case KVET_WL_CRONJOB:
		/* a schedule: nothing runs at install */
		return 0;
	case KVET_WL_JOB:
		/* the Job controller runs parallelism pods at once (default
		 * 1), never more than completions; none while suspended */
		n = kvet_node_get(spec, "suspend");
		if (n && n->type == KVET_NODE_BOOL &&
		    kvet_node_text_eq(n, "true"))
			return 0;
		kvet_replicas_field(kvet_node_get(spec, "parallelism"), &par);
		if (kvet_replicas_field(kvet_node_get(spec, "completions"),
					&done) && done < par)
			par = done;
		return par;
	default:
		return wl->replicas.state == KVET_REPLICAS_KNOWN
			       ? wl->replicas.min : -1;
	}
}

bool kvet_hpa_target_unscalable(const struct kvet_hpa *hpa)
{
	enum kvet_workload_kind wk;

	return kvet_workload_kind_of(hpa->target_group, hpa->target_kind,
				     &wk) &&
	       !kvet_workload_kind_scalable(wk);
}

/* A port of @containers (only the sidecars with @sidecars_only) named
 * @name with @protocol, or any protocol when it is empty. */
static bool declares_port(const struct kvet_node *containers,
			  struct kvet_slice name, struct kvet_slice protocol,
			  bool sidecars_only)
{
	const struct kvet_node *c, *ports, *p;
	struct kvet_slice pn, proto;
	uint32_t i, j;

	for (i = 0; kvet_node_is_seq(containers) && i < containers->len; i++) {
		c = &containers->u.items[i];
		if (sidecars_only &&
		    !kvet_node_eq(kvet_node_get(c, "restartPolicy"), "Always"))
			continue;
		ports = kvet_node_get(c, "ports");
		for (j = 0; kvet_node_is_seq(ports) && j < ports->len; j++) {
			p = &ports->u.items[j];
			if (!kvet_node_is_string(kvet_node_get(p, "name")) ||
			    !kvet_node_slice(kvet_node_get(p, "name"), &pn) ||
			    !kvet_slice_eq(pn, name))
				continue;
			proto = kvet_slice_of("TCP");
			kvet_node_slice(kvet_node_get(p, "protocol"), &proto);
			if (!protocol.len || kvet_slice_eq(proto, protocol))
				return true;
		}
	}
	return false;
}

bool kvet_workload_declares_port(const struct kvet_workload *wl,
				 struct kvet_slice name,
				 struct kvet_slice protocol)
{
	const struct kvet_node *spec = wl->pod_spec;

	return declares_port(kvet_node_get(spec, "containers"), name, protocol,
			     false) ||
	       declares_port(kvet_node_get(spec, "initContainers"), name,
			     protocol, true);
}

bool kvet_statefulset_ordered_ready(const struct kvet_workload *wl)
{
	return !kvet_node_eq(kvet_node_path(wl->obj->root, "spec",
					    "podManagementPolicy", NULL),
			     "Parallel");
}
