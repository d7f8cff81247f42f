/* SPDX-License-Identifier: Apache-2.0 */
#include "model/pdb.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/vec.h"
#include "model/graph.h"
#include "model/run.h"

void kvet_intstr_parse(const struct kvet_node *n, struct kvet_intstr *out)
{
	long long v = 0;
	uint32_t i;

	memset(out, 0, sizeof(*out));
	out->node = n;
	if (kvet_node_is_null(n)) {
		out->type = KVET_INTSTR_ABSENT;
		out->node = NULL;
		return;
	}
	out->type = KVET_INTSTR_INVALID;
	if (n->type == KVET_NODE_INT) {
		/* IntOrString decodes a JSON number into an int32 */
		if (kvet_node_int(n, &v) && v >= INT32_MIN && v <= INT32_MAX) {
			out->type = KVET_INTSTR_INT;
			out->value = v;
		}
		return;
	}
	if (n->type != KVET_NODE_STRING || n->len < 2 ||
	    n->u.str[n->len - 1] != '%')
		return;
	/* validation.IsValidPercent: ^[0-9]+%$ */
	for (i = 0; i + 1 < n->len; i++) {
		char c = n->u.str[i];

		if (c < '0' || c > '9')
			return;
		/* saturate: any value above 100% is out of range anyway */
		if (v < 1000000)
			v = v * 10 + (c - '0');
	}
	out->type = KVET_INTSTR_PERCENT;
	out->value = v;
}

long long kvet_intstr_scaled(const struct kvet_intstr *v, long long total)
{
	if (v->type == KVET_INTSTR_INT)
		return v->value;
	if (v->type != KVET_INTSTR_PERCENT || total <= 0)
		return 0;
	/* ceil(pct * total / 100); pct is at most 1e6 and totals are sums
	 * of int32 replica counts, so this cannot overflow */
	return (v->value * total + 99) / 100;
}

static bool set(const struct kvet_intstr *v)
{
	return v && v->type != KVET_INTSTR_ABSENT;
}

/* Out of the range validation.go accepts: negative, or above 100%. */
static bool bad_value(const struct kvet_intstr *v)
{
	if (!set(v))
		return false;
	switch (v->type) {
	case KVET_INTSTR_INT:
		return v->value < 0;
	case KVET_INTSTR_PERCENT:
		return v->value > 100;
	default:
		return true;
	}
}

void kvet_pdb_evaluate(const struct kvet_intstr *min_available,
		       const struct kvet_intstr *max_unavailable,
		       const struct kvet_pdb_member *members, size_t n,
		       struct kvet_pdb_result *out)
{
	long long total = 0, scalable = 0;
	bool unknown = false, unscalable = false;
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < n; i++) {
		const struct kvet_pdb_member *m = &members[i];
		long long c = m->kind == KVET_PDB_BARE_POD ? 1 : m->n;

		if (c < 0) {
			unknown = true;
			c = 0;
		}
		if (c > INT32_MAX)
			c = INT32_MAX;
		total += c;
		if (m->kind == KVET_PDB_SCALABLE)
			scalable += c;
		else if (m->kind == KVET_PDB_UNSCALABLE)
			unscalable = true;
	}
	out->pods_total = unknown ? -1 : total;
	out->uses_scale = set(max_unavailable) ||
			  (set(min_available) &&
			   min_available->type != KVET_INTSTR_INT);

	if (set(min_available) && set(max_unavailable)) {
		out->status = KVET_PDB_INVALID_BOTH_SET;
		return;
	}
	if (bad_value(min_available) || bad_value(max_unavailable)) {
		out->status = KVET_PDB_INVALID_VALUE;
		out->bad = bad_value(min_available) ? min_available :
						      max_unavailable;
		return;
	}
	if (out->uses_scale) {
		/* getExpectedScale fails for a controller without a scale
		 * subresource, and the controller's fail-safe then sets
		 * disruptionsAllowed to 0 for the whole budget */
		if (unscalable) {
			out->status = KVET_PDB_SYNC_FAILS;
			return;
		}
		/* pods without a controller are ignored in expectedCount
		 * but are counted as healthy below */
		out->expected = scalable;
		if (set(max_unavailable)) {
			long long mu = kvet_intstr_scaled(max_unavailable,
							  scalable);

			out->desired = scalable - mu > 0 ? scalable - mu : 0;
		} else {
			out->desired = kvet_intstr_scaled(min_available,
							  scalable);
		}
	} else if (set(min_available)) {
		if (unknown) {
			out->status = KVET_PDB_UNKNOWN;
			out->allowed = -1;
			out->desired = min_available->value;
			out->expected = -1;
			return;
		}
		out->expected = total;
		out->desired = min_available->value;
	} else {
		out->status = KVET_PDB_NO_POLICY;
		return;
	}
	out->status = KVET_PDB_OK;
	if (out->expected > 0 && total - out->desired > 0)
		out->allowed = total - out->desired;
}

const char *kvet_pdb_status_name(enum kvet_pdb_status status)
{
	static const char *const names[] = {
		[KVET_PDB_OK] = "ok",
		[KVET_PDB_INVALID_BOTH_SET] = "invalid-both-set",
		[KVET_PDB_INVALID_VALUE] = "invalid-value",
		[KVET_PDB_SYNC_FAILS] = "sync-fails",
		[KVET_PDB_NO_POLICY] = "no-policy",
		[KVET_PDB_UNKNOWN] = "unknown",
	};

	return (unsigned)status < sizeof(names) / sizeof(names[0]) ?
	       names[status] : "?";
}

int kvet_pdb_parse(struct kvet_arena *arena, const struct kvet_object *obj,
		   struct kvet_pdb *out)
{
	const struct kvet_node *spec = kvet_node_get(obj->root, "spec");

	memset(out, 0, sizeof(*out));
	out->obj = obj;
	out->v1beta1 = obj->version && strcmp(obj->version, "v1beta1") == 0;
	kvet_intstr_parse(kvet_node_get(spec, "minAvailable"),
			  &out->min_available);
	kvet_intstr_parse(kvet_node_get(spec, "maxUnavailable"),
			  &out->max_unavailable);
	out->unhealthy_policy = kvet_node_get(spec,
					      "unhealthyPodEvictionPolicy");
	if (kvet_node_is_null(out->unhealthy_policy))
		out->unhealthy_policy = NULL;
	out->always_allow = kvet_node_eq(out->unhealthy_policy, "AlwaysAllow");
	return kvet_selector_parse(arena, kvet_node_get(spec, "selector"),
				   out->v1beta1 ? KVET_SEL_FIELD_PDB_V1BETA1 :
						  KVET_SEL_FIELD_PDB_V1,
				   &out->selector);
}

static bool int_field(const struct kvet_node *map, const char *key,
		      long long *out)
{
	return kvet_node_int(kvet_node_get(map, key), out);
}

void kvet_pdb_observed_read(const struct kvet_object *obj,
			    struct kvet_pdb_observed *out)
{
	const struct kvet_node *st = kvet_node_get(obj->root, "status");
	long long gen, seen;

	memset(out, 0, sizeof(*out));
	out->has_allowed = int_field(st, "disruptionsAllowed", &out->allowed);
	out->has_current = int_field(st, "currentHealthy",
				     &out->current_healthy);
	out->has_desired = int_field(st, "desiredHealthy",
				     &out->desired_healthy);
	out->has_expected = int_field(st, "expectedPods", &out->expected_pods);
	out->observed_generation = kvet_node_get(st, "observedGeneration");
	if (kvet_node_int(out->observed_generation, &seen) &&
	    int_field(kvet_node_get(obj->root, "metadata"), "generation", &gen))
		out->stale = seen < gen;
}

bool kvet_pdb_uses_scale(const struct kvet_pdb *pdb)
{
	return pdb->max_unavailable.type != KVET_INTSTR_ABSENT ||
	       (pdb->min_available.type != KVET_INTSTR_ABSENT &&
		pdb->min_available.type != KVET_INTSTR_INT);
}

const char *kvet_pdb_member_kind_name(enum kvet_pdb_member_kind kind)
{
	switch (kind) {
	case KVET_PDB_SCALABLE:
		return "scalable";
	case KVET_PDB_BARE_POD:
		return "bare-pod";
	default:
		return "unscalable";
	}
}

long long kvet_pdb_allowed_at(const struct kvet_pdb *pdb, long long n)
{
	struct kvet_pdb_member m = { n, KVET_PDB_SCALABLE };
	struct kvet_pdb_result r;

	kvet_pdb_evaluate(&pdb->min_available, &pdb->max_unavailable, &m, 1,
			  &r);
	return r.allowed;
}

/* ---- the budgets of a run ---- */

struct budgets {
	struct kvet_budget *v;		/* sorted by object address */
	size_t n;
	const struct kvet_object ***covering;	/* per workload index */
	uint32_t *n_covering;
};

struct wl_vec {
	const struct kvet_workload **v;
	size_t n, cap;
};

static int collect(void *data, const struct kvet_workload *wl)
{
	struct wl_vec *vec = data;

	if (!kvet_vec_grow((void **)&vec->v, &vec->cap, vec->n + 1,
			   sizeof(*vec->v)))
		return -1;
	vec->v[vec->n++] = wl;
	return 0;
}

static int cmp_budget(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)((const struct kvet_budget *)a)->obj;
	uintptr_t y = (uintptr_t)((const struct kvet_budget *)b)->obj;

	return (x > y) - (x < y);
}

static void evaluate(struct kvet_budget *e)
{
	struct kvet_pdb_member local[16], *m = local;
	size_t i;

	if (e->n > 16)
		m = malloc(e->n * sizeof(*m));
	if (!m) {
		e->res.status = KVET_PDB_UNKNOWN;
		e->res.allowed = -1;
		return;
	}
	for (i = 0; i < e->n; i++)
		m[i] = kvet_workload_pdb_member(e->wls[i]);
	kvet_pdb_evaluate(&e->pdb.min_available, &e->pdb.max_unavailable, m,
			  e->n, &e->res);
	if (m != local)
		free(m);
}

/* The workload -> PDBs lists, input order of PDBs kept within each. */
static int invert(struct kvet_arena *arena, struct budgets *b,
		  const struct kvet_object *const *pdbs, size_t n_wls)
{
	size_t i, j;

	for (i = 0; i < n_wls; i++) {
		if (!b->n_covering[i])
			continue;
		b->covering[i] = kvet_arena_array(arena, b->n_covering[i],
						  sizeof(**b->covering));
		if (!b->covering[i])
			return -1;
		b->n_covering[i] = 0;
	}
	for (i = 0; i < b->n; i++)
		for (j = 0; j < b->v[i].n; j++) {
			uint32_t w = b->v[i].wls[j]->index;

			b->covering[w][b->n_covering[w]++] = pdbs[i];
		}
	return 0;
}

static void *budgets_build(struct kvet_run *run)
{
	struct kvet_arena *arena = kvet_run_arena(run);
	const struct kvet_graph *g = kvet_run_graph(run);
	struct kvet_object *const *objs;
	struct wl_vec vec = { 0 };
	struct budgets *b;
	size_t i, j, n, n_wls;

	kvet_graph_workloads(g, &n_wls);
	objs = kvet_graph_kind(g, "policy", "PodDisruptionBudget", &n);
	b = kvet_arena_alloc(arena, sizeof(*b));
	if (!b)
		return NULL;
	b->v = kvet_arena_array(arena, n + 1, sizeof(*b->v));
	b->covering = kvet_arena_array(arena, n_wls + 1, sizeof(*b->covering));
	b->n_covering = kvet_arena_array(arena, n_wls + 1,
					 sizeof(*b->n_covering));
	if (!b->v || !b->covering || !b->n_covering)
		return NULL;
	for (i = 0; i < n; i++) {
		struct kvet_budget *e = &b->v[i];

		e->obj = objs[i];
		vec.n = 0;
		if (kvet_pdb_parse(arena, objs[i], &e->pdb) ||
		    kvet_graph_select_workloads(g, objs[i]->namespace,
						&e->pdb.selector, collect,
						&vec))
			goto fail;
		e->wls = kvet_arena_array(arena, vec.n + 1, sizeof(*e->wls));
		if (!e->wls)
			goto fail;
		if (vec.n)
			memcpy(e->wls, vec.v, vec.n * sizeof(*e->wls));
		e->n = vec.n;
		evaluate(e);
		for (j = 0; j < e->n; j++)
			b->n_covering[e->wls[j]->index]++;
	}
	b->n = n;
	free(vec.v);
	if (invert(arena, b, (const struct kvet_object *const *)objs, n_wls))
		return NULL;
	qsort(b->v, n, sizeof(*b->v), cmp_budget);
	return b;
fail:
	free(vec.v);
	return NULL;
}

static struct budgets *budgets(struct kvet_run *run)
{
	return kvet_run_index(run, KVET_RUN_BUDGETS, budgets_build, NULL);
}

const struct kvet_budget *kvet_run_budget(struct kvet_run *run,
					  const struct kvet_object *obj)
{
	const struct budgets *b = budgets(run);
	struct kvet_budget key = { .obj = obj };

	if (!b)
		return NULL;
	return bsearch(&key, b->v, b->n, sizeof(key), cmp_budget);
}

int kvet_run_pdbs_covering(struct kvet_run *run, const struct kvet_workload *wl,
			   const struct kvet_object *const **out, size_t *n)
{
	const struct budgets *b = budgets(run);

	*out = NULL;
	*n = 0;
	if (!b)
		return -1;
	*out = b->covering[wl->index];
	*n = b->n_covering[wl->index];
	return 0;
}

int kvet_run_pdbs_covering_any(struct kvet_run *run, struct kvet_arena *arena,
			       const struct kvet_workload *const *wls,
			       size_t n_wls, const struct kvet_object ***out,
			       size_t *n)
{
	const struct kvet_object *const *pdbs;
	size_t i, j, k, cnt, cap = 0;

	*out = NULL;
	*n = 0;
	for (i = 0; i < n_wls; i++) {
		if (kvet_run_pdbs_covering(run, wls[i], &pdbs, &cnt))
			return -1;
		for (j = 0; j < cnt; j++) {
			for (k = 0; k < *n && (*out)[k] != pdbs[j]; k++)
				;
			if (k < *n)
				continue;
			if (!kvet_arena_grow(arena, out, &cap, *n,
					     sizeof(**out)))
				return -1;
			(*out)[(*n)++] = pdbs[j];
		}
	}
	return 0;
}
