/* SPDX-License-Identifier: Apache-2.0 */
/*
 * PodDisruptionBudgets: their state at the start (the dump's status, or
 * docs/model.md 1.9 over the pods it selects when it has none) and the
 * six steps of one eviction.
 */
#include "drain/evict.h"

#include <stdlib.h>
#include <string.h>

#include "base/vec.h"
#include "drain/journal.h"
#include "drain/relate.h"

struct member {
	const struct kvet_workload *wl;	/* or, when NULL, the owner: */
	struct kvet_slice kind, name;
	struct kvet_pdb_member m;
	bool counted;			/* m.n counts its pods here */
};

struct collect {
	struct drain_cluster *c;
	struct drain_pairs *pairs;
	uint32_t budget;
	struct member *members;
	size_t n_members, cap_members;
	uint32_t *pods;			/* the pods it selects */
	size_t n_pods, cap_pods;
	int64_t healthy;
	bool oom;
};

/* The controllers whose scale the disruption controller reads. */
static bool scalable_kind(struct kvet_slice kind)
{
	return kvet_slice_eq0(kind, "ReplicaSet") ||
	       kvet_slice_eq0(kind, "ReplicationController") ||
	       kvet_slice_eq0(kind, "StatefulSet") ||
	       kvet_slice_eq0(kind, "Deployment");
}

/* The member @p counts under: its workload's, its controller's (when
 * the dump lacks the controller), or its own; NULL when out of memory. */
static struct member *member_of(struct collect *k, const struct drain_pod *p)
{
	struct member *m;
	size_t i;

	for (i = 0; p->kind != DRAIN_POD_BARE && i < k->n_members; i++) {
		m = &k->members[i];
		if (p->wl ? m->wl == p->wl
			  : !m->wl && kvet_slice_eq(m->kind, p->owner_kind) &&
				    kvet_slice_eq(m->name, p->owner_name))
			return m;
	}
	if (!kvet_vec_grow((void **)&k->members, &k->cap_members,
			   k->n_members + 1, sizeof(*k->members)))
		return NULL;
	m = &k->members[k->n_members++];
	memset(m, 0, sizeof(*m));
	m->wl = p->wl;
	m->kind = p->owner_kind;
	m->name = p->owner_name;
	if (p->wl) {
		m->m = kvet_workload_pdb_member(p->wl);
		/* a dump's controllers scale to spec.replicas right now; a
		 * pool's run N_min, and a DaemonSet's or Job's pods are the
		 * ones it made */
		if (k->c->synthetic && m->m.n < 0) {
			m->m.n = 0;
			m->counted = true;
		} else if (!k->c->synthetic &&
			   p->wl->replicas.state == KVET_REPLICAS_KNOWN) {
			m->m.n = p->wl->replicas.spec;
		}
	} else {
		m->counted = true;
		/* a controller the dump lacks: its pods here are its scale */
		m->m.n = 0;
		m->m.kind = p->kind == DRAIN_POD_BARE ? KVET_PDB_BARE_POD
			    : scalable_kind(p->owner_kind) ? KVET_PDB_SCALABLE
							   : KVET_PDB_UNSCALABLE;
	}
	return m;
}

/* One selected pod: the pair, and its part of the budget's arithmetic. */
static int collect_pod(void *data, uint32_t pod)
{
	struct collect *k = data;
	const struct drain_pod *p = &k->c->pods[pod];
	struct member *m;

	drain_pairs_add(k->pairs, pod, k->budget);
	if (!kvet_vec_grow((void **)&k->pods, &k->cap_pods, k->n_pods + 1,
			   sizeof(*k->pods))) {
		k->oom = true;
		return 1;
	}
	k->pods[k->n_pods++] = pod;
	if (kvet_pod_phase_terminal(p->phase))
		return 0;
	k->healthy += p->ready;
	m = member_of(k, p);
	if (!m) {
		k->oom = true;
		return 1;
	}
	if (m->counted)
		m->m.n++;
	return 0;
}

static int read_status(struct drain_budget *b, const struct collect *k)
{
	struct kvet_pdb_member *members;
	struct kvet_pdb_observed seen;
	struct kvet_pdb_result r;
	size_t i;

	members = malloc((k->n_members + 1) * sizeof(*members));
	if (!members)
		return -1;
	for (i = 0; i < k->n_members; i++)
		members[i] = k->members[i].m;
	kvet_pdb_evaluate(&b->pdb.min_available, &b->pdb.max_unavailable,
			  members, k->n_members, &r);
	free(members);
	b->expected = r.expected > 0 ? r.expected : 0;
	b->desired = r.desired > 0 ? r.desired : 0;
	b->healthy = k->healthy;
	b->allowed = b->expected > 0 && b->healthy > b->desired
			     ? b->healthy - b->desired : 0;
	if (r.status != KVET_PDB_OK && r.status != KVET_PDB_UNKNOWN)
		b->allowed = 0;
	b->spec_expected = b->expected;
	b->spec_desired = b->desired;
	b->spec_invalid = r.status != KVET_PDB_OK && r.status != KVET_PDB_UNKNOWN;
	b->sync_fails = r.status == KVET_PDB_SYNC_FAILS;
	/* the disruption controller's own numbers win when the dump has
	 * them */
	kvet_pdb_observed_read(b->obj, &seen);
	if (seen.has_allowed) {
		b->allowed = seen.allowed;
		if (seen.has_current)
			b->healthy = seen.current_healthy;
		if (seen.has_desired)
			b->desired = seen.desired_healthy;
		if (seen.has_expected)
			b->expected = seen.expected_pods;
	}
	b->stale = seen.stale;
	b->observed_generation = seen.observed_generation;
	return 0;
}

static int build_one(struct drain_cluster *c, const struct drain_pod_index *idx,
		     struct drain_pairs *pairs, const struct kvet_object *obj)
{
	struct drain_budget *b = &c->budgets[c->n_budgets];
	struct collect k;
	int ret = -1;

	memset(b, 0, sizeof(*b));
	b->obj = obj;
	if (kvet_pdb_parse(c->arena, obj, &b->pdb) < 0)
		return -1;
	b->field = b->pdb.min_available.node ? b->pdb.min_available.node
					     : b->pdb.max_unavailable.node;
	b->always_allow = b->pdb.always_allow;
	memset(&k, 0, sizeof(k));
	k.c = c;
	k.pairs = pairs;
	k.budget = c->n_budgets;
	drain_pod_index_select(idx, c, obj->namespace, &b->pdb.selector,
			       collect_pod, &k);
	if (k.oom)
		goto out;
	if (read_status(b, &k) < 0)
		goto out;
	b->pods = kvet_arena_array(c->arena, k.n_pods + 1, sizeof(*b->pods));
	if (!b->pods)
		goto out;
	if (k.n_pods)
		memcpy(b->pods, k.pods, k.n_pods * sizeof(*b->pods));
	b->n_pods = (uint32_t)k.n_pods;
	c->n_budgets++;
	ret = 0;
out:
	free(k.members);
	free(k.pods);
	return ret;
}

int drain_budgets_build(struct drain_cluster *c,
			const struct drain_pod_index *idx)
{
	struct kvet_object *const *objs;
	struct drain_pairs pairs = { 0 };
	size_t n, i;

	objs = kvet_graph_kind(c->g, "policy", "PodDisruptionBudget", &n);
	c->budgets = kvet_arena_array(c->arena, n + 1, sizeof(*c->budgets));
	if (!c->budgets)
		return -1;
	for (i = 0; i < n; i++)
		if (build_one(c, idx, &pairs, objs[i]) < 0) {
			free(pairs.v);
			return -1;
		}
	return drain_pairs_finish(c, &pairs, offsetof(struct drain_pod, budgets),
				  offsetof(struct drain_pod, n_budgets));
}

static void refuse(struct drain_cluster *c, struct drain_eviction *out,
		   enum drain_evict_outcome o, uint32_t b)
{
	const struct drain_budget *bd = &c->budgets[b];
	const char *name = bd->obj->name;

	out->outcome = o;
	out->budget = b;
	out->desired = bd->desired;
	out->healthy = bd->healthy;
	switch (o) {
	case DRAIN_EVICT_MULTIPLE:
		out->message = "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.";
		break;
	case DRAIN_EVICT_STALE:
		out->message = kvet_arena_printf(c->arena,
			"Cannot evict pod as it would violate the pod's disruption budget. The disruption budget %s is still being processed by the server.",
			name);
		break;
	default:
		out->message = kvet_arena_printf(c->arena,
			"Cannot evict pod as it would violate the pod's disruption budget. The disruption budget %s needs %lld healthy pods and has %lld currently",
			name, (long long)bd->desired, (long long)bd->healthy);
		break;
	}
	if (!out->message)
		c->oom = true;
}

void drain_evict(struct drain_cluster *c, uint32_t p,
		 struct drain_eviction *out)
{
	const struct drain_pod *pod = &c->pods[p];
	struct drain_budget *b;

	memset(out, 0, sizeof(*out));
	out->budget = out->other = DRAIN_NONE;
	/* 1. a terminal, pending or terminating pod: deleted outright */
	if (pod->phase == KVET_PHASE_SUCCEEDED ||
	    pod->phase == KVET_PHASE_FAILED ||
	    pod->phase == KVET_PHASE_PENDING || pod->terminating) {
		out->outcome = DRAIN_EVICT_DELETED;
		return;
	}
	/* 2. more than one budget: 500, every time */
	if (pod->n_budgets > 1) {
		refuse(c, out, DRAIN_EVICT_MULTIPLE, pod->budgets[0]);
		out->other = pod->budgets[1];
		return;
	}
	/* 3. none */
	if (!pod->n_budgets) {
		out->outcome = DRAIN_EVICT_NO_BUDGET;
		return;
	}
	b = &c->budgets[pod->budgets[0]];
	out->budget = pod->budgets[0];
	/* 4. an unready pod does not count towards the budget */
	if (!pod->ready && (b->always_allow || (b->healthy >= b->desired &&
						b->desired > 0))) {
		out->outcome = DRAIN_EVICT_UNHEALTHY;
		return;
	}
	/* 5. the controller has not seen the budget's last change */
	if (b->stale) {
		refuse(c, out, DRAIN_EVICT_STALE, pod->budgets[0]);
		return;
	}
	/* 6. */
	if (b->allowed <= 0) {
		refuse(c, out, DRAIN_EVICT_NO_DISRUPTION, pod->budgets[0]);
		return;
	}
	drain_set_i64(c, &b->allowed, b->allowed - 1);
	out->outcome = DRAIN_EVICT_BUDGET;
	out->desired = b->desired;
	out->healthy = b->healthy;
}

/*
 * The disruption controller re-syncs a budget within seconds of its
 * change (pkg/controller/disruption/disruption.go, trySync and
 * updatePdbStatus): a stale status refuses evictions only at the dump's
 * moment. Later, expected and desired pods come from the spec, healthy
 * from the pods that are Ready now.
 */
void drain_budgets_resync(struct drain_cluster *c)
{
	uint32_t i, j, q;
	int64_t healthy, a;

	for (i = 0; i < c->n_budgets; i++) {
		struct drain_budget *b = &c->budgets[i];

		if (!b->stale)
			continue;
		healthy = 0;
		for (j = 0; j < b->n_pods; j++) {
			for (q = b->pods[j]; c->pods[q].replaced_by != DRAIN_NONE;
			     q = c->pods[q].replaced_by)
				;
			healthy += c->pods[q].ready;
		}
		a = healthy - b->spec_desired;
		drain_set_bool(c, &b->stale, false);
		drain_set_i64(c, &b->expected, b->spec_expected);
		drain_set_i64(c, &b->desired, b->spec_desired);
		drain_set_i64(c, &b->healthy, healthy);
		drain_set_i64(c, &b->allowed,
			      !b->spec_invalid && b->expected > 0 && a > 0 ? a
									   : 0);
	}
}
