/* SPDX-License-Identifier: Apache-2.0 */
#include "model/resources.h"

#include <stdlib.h>
#include <string.h>

#include "base/sat.h"
#include "model/quantity.h"

/* Extended resource names one pod or node names; more are ignored. */
enum { MAX_EXT = 16 };

static const char *const names[KVET_RES_BUILTIN] = {
	[KVET_RES_CPU] = "cpu",
	[KVET_RES_MEMORY] = "memory",
	[KVET_RES_EPHEMERAL] = "ephemeral-storage",
	[KVET_RES_PODS] = "pods",
};

const char *kvet_resource_name(enum kvet_resource r)
{
	return (unsigned int)r < KVET_RES_BUILTIN ? names[r] : "";
}

/* A resource list being summed, extended names in a fixed array. */
struct acc {
	int64_t v[KVET_RES_BUILTIN];
	struct kvet_scalar_resource ext[MAX_EXT];
	size_t n_ext;
};

static int64_t *slot(struct acc *a, struct kvet_slice name)
{
	size_t i;

	for (i = 0; i < KVET_RES_BUILTIN; i++)
		if (kvet_slice_eq0(name, names[i]))
			return &a->v[i];
	for (i = 0; i < a->n_ext; i++)
		if (kvet_slice_eq(a->ext[i].name, name))
			return &a->ext[i].value;
	if (a->n_ext == MAX_EXT)
		return NULL;
	a->ext[a->n_ext].name = name;
	a->ext[a->n_ext].value = 0;
	return &a->ext[a->n_ext++].value;
}

static int64_t max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

/* @into = @into + @b, or max(@into, @b) with @max. */
static void combine(struct acc *into, const struct acc *b, bool max)
{
	int64_t *s;
	size_t i;

	for (i = 0; i < KVET_RES_BUILTIN; i++)
		into->v[i] = max ? max64(into->v[i], b->v[i])
				 : kvet_sat_add_i64(into->v[i], b->v[i]);
	for (i = 0; i < b->n_ext; i++) {
		s = slot(into, b->ext[i].name);
		if (s)
			*s = max ? max64(*s, b->ext[i].value)
				 : kvet_sat_add_i64(*s, b->ext[i].value);
	}
}

/* Add the quantities of one resource list mapping, leaving out the names
 * @except has (a container's requests, when adding its limits). */
static void add_list(struct acc *a, const struct kvet_node *list,
		     const struct kvet_node *except)
{
	struct kvet_slice name;
	int64_t v, *s;
	uint32_t i;

	for (i = 0; kvet_node_is_map(list) && i < list->len; i++) {
		const struct kvet_pair *p = &list->u.pairs[i];

		name.s = p->key.u.str;
		name.len = p->key.len;
		if (except && kvet_node_getn(except, name.s, name.len))
			continue;
		if (!kvet_quantity_node(&p->value,
					kvet_slice_eq0(name, "cpu") ? 3 : 0,
					&v))
			continue;
		s = slot(a, name);
		if (s)
			*s = kvet_sat_add_i64(*s, v);
	}
}

/* One container: its requests, and its limits where it requests nothing
 * (API defaulting copies limits into absent requests). */
static void container(struct acc *a, const struct kvet_node *c)
{
	const struct kvet_node *res = kvet_node_get(c, "resources");
	const struct kvet_node *req = kvet_node_get(res, "requests");

	memset(a, 0, sizeof(*a));
	add_list(a, req, NULL);
	add_list(a, kvet_node_get(res, "limits"), req);
	/* a pod's count is not a container's request */
	a->v[KVET_RES_PODS] = 0;
}

static int cmp_ext(const void *pa, const void *pb)
{
	const struct kvet_scalar_resource *a = pa, *b = pb;

	return kvet_slice_cmp(a->name, b->name);
}

static int finish(struct kvet_arena *arena, struct acc *a,
		  struct kvet_resources *out)
{
	struct kvet_scalar_resource *ext = NULL;

	memset(out, 0, sizeof(*out));
	memcpy(out->v, a->v, sizeof(out->v));
	if (a->n_ext) {
		ext = kvet_arena_array(arena, a->n_ext, sizeof(*ext));
		if (!ext)
			return -1;
		memcpy(ext, a->ext, a->n_ext * sizeof(*ext));
		qsort(ext, a->n_ext, sizeof(*ext), cmp_ext);
	}
	out->ext = ext;
	out->n_ext = a->n_ext;
	return 0;
}

int kvet_resources_read(struct kvet_arena *arena,
			const struct kvet_node *list,
			struct kvet_resources *out)
{
	struct acc a;

	memset(&a, 0, sizeof(a));
	add_list(&a, list, NULL);
	return finish(arena, &a, out);
}

int kvet_pod_requests(struct kvet_arena *arena,
		      const struct kvet_node *pod_spec,
		      struct kvet_resources *out)
{
	const struct kvet_node *cs = kvet_node_get(pod_spec, "containers");
	const struct kvet_node *ics = kvet_node_get(pod_spec, "initContainers");
	struct acc sum, one, sidecars, init_max, tmp;
	uint32_t i;

	memset(&sum, 0, sizeof(sum));
	memset(&sidecars, 0, sizeof(sidecars));
	memset(&init_max, 0, sizeof(init_max));
	for (i = 0; kvet_node_is_seq(cs) && i < cs->len; i++) {
		container(&one, &cs->u.items[i]);
		combine(&sum, &one, false);
	}
	for (i = 0; kvet_node_is_seq(ics) && i < ics->len; i++) {
		const struct kvet_node *ic = &ics->u.items[i];

		container(&one, ic);
		if (kvet_node_eq(kvet_node_get(ic, "restartPolicy"),
				 "Always")) {
			/* a sidecar runs beside the app containers and
			 * beside every init container after it */
			combine(&sum, &one, false);
			combine(&sidecars, &one, false);
			continue;
		}
		tmp = one;
		combine(&tmp, &sidecars, false);
		combine(&init_max, &tmp, true);
	}
	combine(&sum, &init_max, true);
	add_list(&sum, kvet_node_get(pod_spec, "overhead"), NULL);
	sum.v[KVET_RES_PODS] = 1;
	return finish(arena, &sum, out);
}

int kvet_cluster_node_allocatable(struct kvet_arena *arena,
				  const struct kvet_node *node_root,
				  struct kvet_resources *out)
{
	const struct kvet_node *status = kvet_node_get(node_root, "status");
	const struct kvet_node *list = kvet_node_get(status, "allocatable");

	if (!kvet_node_is_map(list))
		list = kvet_node_get(status, "capacity");
	return kvet_resources_read(arena, list, out);
}

int64_t kvet_resources_ext(const struct kvet_resources *r,
			   struct kvet_slice name)
{
	size_t lo = 0, hi = r->n_ext;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = kvet_slice_cmp(r->ext[mid].name, name);

		if (!c)
			return r->ext[mid].value;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}
