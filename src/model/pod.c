/* SPDX-License-Identifier: Apache-2.0 */
#include "model/pod.h"

#include <string.h>

/* A scalar's text, or "" */
static struct kvet_slice slice_of(const struct kvet_node *n)
{
	struct kvet_slice s = { "", 0 };

	kvet_node_slice(n, &s);
	return s;
}

static const struct {
	const char *name;
	enum kvet_pod_phase phase;
} phases[] = {
	{ "Pending", KVET_PHASE_PENDING },
	{ "Running", KVET_PHASE_RUNNING },
	{ "Succeeded", KVET_PHASE_SUCCEEDED },
	{ "Failed", KVET_PHASE_FAILED },
	{ "Unknown", KVET_PHASE_UNKNOWN },
};

const char *kvet_pod_phase_name(enum kvet_pod_phase phase)
{
	size_t i;

	for (i = 0; i < sizeof(phases) / sizeof(phases[0]); i++)
		if (phases[i].phase == phase)
			return phases[i].name;
	return "Unknown";
}

static bool is_true(const struct kvet_node *n)
{
	return n && n->type == KVET_NODE_BOOL && n->len &&
	       (n->u.str[0] == 't' || n->u.str[0] == 'T');
}

static void read_controller(const struct kvet_node *refs,
			    struct kvet_pod_state *out)
{
	uint32_t i;

	for (i = 0; kvet_node_is_seq(refs) && i < refs->len; i++) {
		const struct kvet_node *r = &refs->u.items[i];

		if (!is_true(kvet_node_get(r, "controller")))
			continue;
		out->has_controller = true;
		out->controller_kind = slice_of(kvet_node_get(r, "kind"));
		out->controller_name = slice_of(kvet_node_get(r, "name"));
		out->controller_api_version =
			slice_of(kvet_node_get(r, "apiVersion"));
		out->controller_node = r;
		return;
	}
}

void kvet_pod_state_read(const struct kvet_node *pod_root,
			 struct kvet_pod_state *out)
{
	const struct kvet_node *meta = kvet_node_get(pod_root, "metadata");
	const struct kvet_node *status = kvet_node_get(pod_root, "status");
	const struct kvet_node *phase = kvet_node_get(status, "phase");
	const struct kvet_node *conds = kvet_node_get(status, "conditions");
	const struct kvet_node *ann = kvet_node_get(meta, "annotations");
	size_t i;

	memset(out, 0, sizeof(*out));
	out->phase = KVET_PHASE_UNKNOWN;
	for (i = 0; i < sizeof(phases) / sizeof(phases[0]); i++)
		if (kvet_node_eq(phase, phases[i].name))
			out->phase = phases[i].phase;
	for (i = 0; kvet_node_is_seq(conds) && i < conds->len; i++) {
		const struct kvet_node *c = &conds->u.items[i];

		if (kvet_node_eq(kvet_node_get(c, "type"), "Ready"))
			out->ready = kvet_node_eq(kvet_node_get(c, "status"),
						  "True");
	}
	out->terminating = !kvet_node_is_null(
		kvet_node_get(meta, "deletionTimestamp"));
	out->mirror = kvet_node_is_map(ann) &&
		      kvet_node_get(ann, KVET_MIRROR_ANNOTATION) != NULL;
	out->spec = kvet_node_get(pod_root, "spec");
	out->node_name = slice_of(kvet_node_path(pod_root, "spec", "nodeName",
						 NULL));
	read_controller(kvet_node_get(meta, "ownerReferences"), out);
}

void *kvet_pod_volume_array(struct kvet_arena *arena,
			    const struct kvet_node *pod_spec, size_t size,
			    bool *oom)
{
	const struct kvet_node *vols = kvet_node_get(pod_spec, "volumes");
	void *v;

	*oom = false;
	if (!kvet_node_is_seq(vols) || !vols->len)
		return NULL;
	v = kvet_arena_array(arena, vols->len, size);
	*oom = !v;
	return v;
}

bool kvet_pod_volume_next(const struct kvet_node *pod_spec, uint32_t *i,
			  struct kvet_volume *out)
{
	const struct kvet_node *vols = kvet_node_get(pod_spec, "volumes");
	const struct kvet_node *vol, *ed;

	if (!kvet_node_is_seq(vols) || *i >= vols->len)
		return false;
	vol = &vols->u.items[(*i)++];
	ed = kvet_node_getn(vol, "emptyDir", 8);
	memset(out, 0, sizeof(*out));
	out->node = vol;
	out->name = kvet_string_of(kvet_node_get(vol, "name"));
	out->empty_dir = ed && (kvet_node_is_map(ed) || kvet_node_is_null(ed));
	out->memory = out->empty_dir &&
		      kvet_node_eq(kvet_node_get(ed, "medium"), "Memory");
	out->host_path = kvet_node_get(vol, "hostPath") != NULL;
	out->claim = slice_of(kvet_node_path(vol, "persistentVolumeClaim",
					     "claimName", NULL));
	return true;
}

bool kvet_pod_host_network(const struct kvet_node *pod_spec)
{
	/* a boolean; a quoted "true" is a type error the API server
	 * rejects, not a pod on the host network */
	return is_true(kvet_node_get(pod_spec, "hostNetwork"));
}

bool kvet_pod_grace_period(const struct kvet_node *pod_spec, long long *out)
{
	return kvet_node_int(kvet_node_get(pod_spec,
					   "terminationGracePeriodSeconds"),
			     out);
}

bool kvet_pod_image_next(const struct kvet_node *pod_spec, uint32_t *i,
			 struct kvet_slice *out)
{
	const struct kvet_node *cs = kvet_node_get(pod_spec, "containers");

	while (kvet_node_is_seq(cs) && *i < cs->len) {
		const struct kvet_node *im =
			kvet_node_get(&cs->u.items[(*i)++], "image");

		if (kvet_node_is_string(im)) {
			out->s = im->u.str;
			out->len = im->len;
			return true;
		}
	}
	return false;
}

const struct kvet_node *kvet_pod_emptydir(const struct kvet_node *pod_spec)
{
	struct kvet_volume v;
	uint32_t i = 0;

	while (kvet_pod_volume_next(pod_spec, &i, &v))
		if (v.empty_dir)
			return v.node;
	return NULL;
}

/*
 * The host ports of @cs (only its restartable containers with
 * @sidecars_only) into @v from @k on, or only counted when @v is NULL.
 * Returns the new count.
 */
static size_t add_ports(struct kvet_host_port *v, size_t k,
			const struct kvet_node *cs, bool sidecars_only)
{
	long long port;
	uint32_t i, j;

	for (i = 0; kvet_node_is_seq(cs) && i < cs->len; i++) {
		const struct kvet_node *c = &cs->u.items[i];
		const struct kvet_node *ports = kvet_node_get(c, "ports");

		if (sidecars_only &&
		    !kvet_node_eq(kvet_node_get(c, "restartPolicy"), "Always"))
			continue;
		for (j = 0; kvet_node_is_seq(ports) && j < ports->len; j++) {
			const struct kvet_node *p = &ports->u.items[j];

			if (!kvet_node_int(kvet_node_get(p, "hostPort"),
					   &port) ||
			    port <= 0 || port > 65535)
				continue;
			if (v) {
				v[k].port = (int32_t)port;
				v[k].protocol = slice_of(kvet_node_get(p,
								       "protocol"));
				if (!v[k].protocol.len)
					v[k].protocol = kvet_slice_of("TCP");
				v[k].ip = slice_of(kvet_node_get(p, "hostIP"));
				if (!v[k].ip.len)
					v[k].ip = kvet_slice_of("0.0.0.0");
				v[k].node = p;
			}
			k++;
		}
	}
	return k;
}

int kvet_pod_host_ports(struct kvet_arena *arena,
			const struct kvet_node *pod_spec,
			struct kvet_host_ports *out)
{
	const struct kvet_node *cs = kvet_node_get(pod_spec, "containers");
	const struct kvet_node *ics = kvet_node_get(pod_spec, "initContainers");
	size_t n = add_ports(NULL, add_ports(NULL, 0, cs, false), ics, true);
	struct kvet_host_port *v;

	out->v = NULL;
	out->n = 0;
	if (!n)
		return 0;
	v = kvet_arena_array(arena, n, sizeof(*v));
	if (!v)
		return -1;
	out->v = v;
	out->n = add_ports(v, add_ports(v, 0, cs, false), ics, true);
	return 0;
}

static bool any_ip(struct kvet_slice ip)
{
	return kvet_slice_eq0(ip, "0.0.0.0") || kvet_slice_eq0(ip, "::");
}

bool kvet_host_ports_conflict(const struct kvet_host_port *a,
			      const struct kvet_host_port *b)
{
	return a->port == b->port && kvet_slice_eq(a->protocol, b->protocol) &&
	       (kvet_slice_eq(a->ip, b->ip) || any_ip(a->ip) || any_ip(b->ip));
}

static const char *ns_copy(struct kvet_arena *arena, struct kvet_slice s)
{
	return kvet_arena_strndup(arena, s.s, s.len);
}

int kvet_pod_bound_volumes(struct kvet_arena *arena,
			   const struct kvet_graph *g, const char *ns,
			   const struct kvet_node *pod_spec,
			   struct kvet_pod_volumes *out)
{
	struct kvet_pod_volume *v;
	struct kvet_volume vol;
	uint32_t i = 0;
	size_t k = 0;
	bool oom;

	out->v = NULL;
	out->n = 0;
	v = kvet_pod_volume_array(arena, pod_spec, sizeof(*v), &oom);
	if (!v)
		return oom ? -1 : 0;
	while (kvet_pod_volume_next(pod_spec, &i, &vol)) {
		struct kvet_slice claim = vol.claim;
		const struct kvet_object *pvc, *pv = NULL;
		const char *name;

		if (!claim.len)
			continue;
		name = ns_copy(arena, claim);
		if (!name)
			return -1;
		pvc = kvet_graph_find(g, "", "PersistentVolumeClaim", ns, name);
		if (!pvc)
			continue;
		claim = slice_of(kvet_node_path(pvc->root, "spec",
						"volumeName", NULL));
		if (claim.len) {
			name = ns_copy(arena, claim);
			if (!name)
				return -1;
			pv = kvet_graph_find(g, "", "PersistentVolume", "",
					     name);
		}
		v[k].volume = vol.node;
		v[k].claim = pvc;
		v[k].pv = pv;
		v[k].node_affinity = pv ? kvet_node_path(pv->root, "spec",
							 "nodeAffinity",
							 "required", NULL)
					: NULL;
		v[k].local = pv && kvet_node_path(pv->root, "spec", "local",
						  NULL);
		k++;
	}
	out->v = v;
	out->n = k;
	return 0;
}

const struct kvet_node *kvet_pod_spec_key(const struct kvet_node *pod_spec,
					  const char *field, const char *sub)
{
	const struct kvet_node *n = pod_spec;
	const struct kvet_pair *pair;

	if (sub)
		n = kvet_node_get(n, field);
	pair = kvet_node_get_pair(n, sub ? sub : field);
	return pair && !kvet_node_is_null(&pair->value) ? &pair->key : NULL;
}

const struct kvet_node *kvet_pod_spec_holder_key(const struct kvet_node *holder)
{
	const struct kvet_pair *pair = kvet_node_get_pair(holder, "spec");

	return pair ? &pair->key : NULL;
}

int kvet_pod_needs_read(struct kvet_arena *arena, const struct kvet_graph *g,
			const char *ns, const struct kvet_node *pod_spec,
			struct kvet_pod_needs *out)
{
	out->emptydir = kvet_pod_emptydir(pod_spec);
	if (kvet_pod_requests(arena, pod_spec, &out->req) < 0 ||
	    kvet_pod_host_ports(arena, pod_spec, &out->ports) < 0 ||
	    kvet_pod_bound_volumes(arena, g, ns, pod_spec, &out->vols) < 0)
		return -1;
	return 0;
}
