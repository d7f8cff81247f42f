/* SPDX-License-Identifier: Apache-2.0 */
#include "model/taints.h"

#include <string.h>

/* A scalar's text, or "" */
static struct kvet_slice slice_of(const struct kvet_node *n)
{
	struct kvet_slice s = { "", 0 };

	kvet_node_slice(n, &s);
	return s;
}

static enum kvet_taint_effect effect_of(struct kvet_slice s)
{
	if (kvet_slice_eq0(s, "NoSchedule"))
		return KVET_TAINT_NO_SCHEDULE;
	if (kvet_slice_eq0(s, "PreferNoSchedule"))
		return KVET_TAINT_PREFER_NO_SCHEDULE;
	if (kvet_slice_eq0(s, "NoExecute"))
		return KVET_TAINT_NO_EXECUTE;
	return KVET_TAINT_OTHER;
}

/* The Node's Ready condition, or NULL */
static const struct kvet_node *ready_condition(const struct kvet_node *root)
{
	const struct kvet_node *conds = kvet_node_path(root, "status",
						       "conditions", NULL);
	uint32_t i;

	if (!kvet_node_is_seq(conds))
		return NULL;
	for (i = 0; i < conds->len; i++)
		if (kvet_node_eq(kvet_node_get(&conds->u.items[i], "type"),
				 "Ready"))
			return &conds->u.items[i];
	return NULL;
}

const struct kvet_node *
kvet_cluster_node_ready_status(const struct kvet_node *node_root)
{
	return kvet_node_get(ready_condition(node_root), "status");
}

enum kvet_ready_condition
kvet_cluster_node_ready_condition(const struct kvet_node *node_root)
{
	const struct kvet_node *st = kvet_cluster_node_ready_status(node_root);

	if (kvet_node_eq(st, "True"))
		return KVET_READY_TRUE;
	if (kvet_node_eq(st, "False"))
		return KVET_READY_FALSE;
	if (kvet_node_eq(st, "Unknown"))
		return KVET_READY_UNKNOWN;
	return KVET_READY_ABSENT;
}

bool kvet_cluster_node_ready(const struct kvet_node *node_root)
{
	const struct kvet_node *c = ready_condition(node_root);

	return !c || kvet_node_eq(kvet_node_get(c, "status"), "True");
}

int kvet_cluster_node_taints(struct kvet_arena *arena,
			     const struct kvet_node *node_root,
			     struct kvet_taints *out)
{
	const struct kvet_node *spec = kvet_node_path(node_root, "spec",
						      "taints", NULL);
	size_t n = kvet_node_is_seq(spec) ? spec->len : 0, k = 0, i;
	bool has_not_ready = false;
	struct kvet_taint *v;

	out->v = NULL;
	out->n = 0;
	v = kvet_arena_array(arena, n + 1, sizeof(*v));
	if (!v)
		return -1;
	for (i = 0; i < n; i++) {
		const struct kvet_node *t = &spec->u.items[i];

		if (!kvet_node_is_map(t))
			continue;
		v[k].key = slice_of(kvet_node_get(t, "key"));
		v[k].value = slice_of(kvet_node_get(t, "value"));
		v[k].effect_name = slice_of(kvet_node_get(t, "effect"));
		v[k].effect = effect_of(v[k].effect_name);
		v[k].node = t;
		has_not_ready |= kvet_slice_eq0(v[k].key, KVET_TAINT_NOT_READY);
		k++;
	}
	if (!has_not_ready && !kvet_cluster_node_ready(node_root)) {
		v[k].key = kvet_slice_of(KVET_TAINT_NOT_READY);
		v[k].value = kvet_slice_of("");
		v[k].effect_name = kvet_slice_of("NoSchedule");
		v[k].effect = KVET_TAINT_NO_SCHEDULE;
		v[k].node = NULL;
		k++;
	}
	out->v = v;
	out->n = k;
	return 0;
}

static bool tolerates_one(const struct kvet_node *tol,
			  const struct kvet_taint *taint)
{
	struct kvet_slice effect = slice_of(kvet_node_get(tol, "effect"));
	struct kvet_slice key = slice_of(kvet_node_get(tol, "key"));
	const struct kvet_node *op = kvet_node_get(tol, "operator");

	if (effect.len && !kvet_slice_eq(effect, taint->effect_name))
		return false;
	if (key.len && !kvet_slice_eq(key, taint->key))
		return false;
	if (kvet_node_is_null(op) || kvet_node_eq(op, "Equal") ||
	    kvet_node_eq(op, ""))
		return kvet_slice_eq(slice_of(kvet_node_get(tol, "value")),
				     taint->value);
	return kvet_node_eq(op, "Exists");
}

bool kvet_pod_tolerates(const struct kvet_node *pod_spec,
			const struct kvet_taint *taint)
{
	const struct kvet_node *tolerations = kvet_node_get(pod_spec,
							    "tolerations");
	uint32_t i;

	for (i = 0; kvet_node_is_seq(tolerations) && i < tolerations->len; i++)
		if (tolerates_one(&tolerations->u.items[i], taint))
			return true;
	return false;
}

const struct kvet_taint *
kvet_pod_untolerated_taint(const struct kvet_taints *taints,
			   const struct kvet_node *pod_spec)
{
	size_t i;

	for (i = 0; i < taints->n; i++) {
		const struct kvet_taint *t = &taints->v[i];

		if (t->effect != KVET_TAINT_NO_SCHEDULE &&
		    t->effect != KVET_TAINT_NO_EXECUTE)
			continue;
		if (!kvet_pod_tolerates(pod_spec, t))
			return t;
	}
	return NULL;
}

bool kvet_pod_tolerates_unschedulable(const struct kvet_node *pod_spec)
{
	struct kvet_taint t;

	memset(&t, 0, sizeof(t));
	t.key = kvet_slice_of(KVET_TAINT_UNSCHEDULABLE);
	t.value = kvet_slice_of("");
	t.effect_name = kvet_slice_of("NoSchedule");
	t.effect = KVET_TAINT_NO_SCHEDULE;
	return kvet_pod_tolerates(pod_spec, &t);
}
