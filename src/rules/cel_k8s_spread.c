/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Node eligibility for topologyDomains() (rule C5): which Nodes of the
 * input a workload's pods may run on (cordon, nodeSelector, required node
 * affinity; taints are not read), and how many values of a topology key
 * they carry.
 *
 * This block stays here, as it was in the binding, until the drain
 * branch's model/node_affinity.c (kvet_topology_domains()) is merged;
 * then this file goes and bind_spread.c's topology_domains() calls the
 * model.
 */
#include "rules/bind.h"

#include <stdlib.h>
#include <string.h>

/* ---- Nodes (C5) ---- */

/* A node label's value, or false when the node lacks it. */
static bool node_label(const struct kvet_node *labels, struct kvet_slice key,
		       struct kvet_slice *out)
{
	uint32_t i;

	if (!kvet_node_is_map(labels))
		return false;
	for (i = labels->len; i-- > 0;) {
		const struct kvet_pair *p = &labels->u.pairs[i];

		if (p->key.len == key.len &&
		    (!key.len || !memcmp(p->key.u.str, key.s, key.len))) {
			if (!kvet_node_is_scalar(&p->value) ||
			    kvet_node_is_null(&p->value))
				return false;
			out->s = p->value.u.str;
			out->len = p->value.len;
			return true;
		}
	}
	return false;
}

static bool slice_of_node(const struct kvet_node *n, struct kvet_slice *out)
{
	if (!kvet_node_is_scalar(n) || kvet_node_is_null(n))
		return false;
	out->s = n->u.str;
	out->len = n->len;
	return true;
}

static bool parse_ll(struct kvet_slice s, long long *out)
{
	char buf[24], *end;

	if (!s.len || s.len >= sizeof(buf))
		return false;
	memcpy(buf, s.s, s.len);
	buf[s.len] = '\0';
	*out = strtoll(buf, &end, 10);
	return !*end;
}

/* One NodeSelectorRequirement against a value (matchExpressions on a
 * label, matchFields on metadata.name); k8s.io/component-helpers
 * nodeaffinity semantics. */
static bool node_req(const struct kvet_node *req, bool present,
		     struct kvet_slice val)
{
	const struct kvet_node *op = kvet_node_get(req, "operator");
	const struct kvet_node *vals = kvet_node_get(req, "values");
	struct kvet_slice v;
	long long a, b;
	bool in = false;
	uint32_t i;

	for (i = 0; present && kvet_node_is_seq(vals) && i < vals->len; i++)
		if (slice_of_node(&vals->u.items[i], &v) && kvet_slice_eq(v, val))
			in = true;
	if (kvet_node_eq(op, "In"))
		return present && in;
	if (kvet_node_eq(op, "NotIn"))
		return !present || !in;
	if (kvet_node_eq(op, "Exists"))
		return present;
	if (kvet_node_eq(op, "DoesNotExist"))
		return !present;
	if ((kvet_node_eq(op, "Gt") || kvet_node_eq(op, "Lt")) && present &&
	    kvet_node_is_seq(vals) && vals->len == 1 &&
	    slice_of_node(&vals->u.items[0], &v) && parse_ll(v, &b) &&
	    parse_ll(val, &a))
		return kvet_node_eq(op, "Gt") ? a > b : a < b;
	return false;
}

static bool node_term(const struct kvet_node *term, const struct kvet_node *node)
{
	const struct kvet_node *exprs = kvet_node_get(term, "matchExpressions");
	const struct kvet_node *fields = kvet_node_get(term, "matchFields");
	const struct kvet_node *labels = kvet_node_path(node, "metadata",
							"labels", NULL);
	struct kvet_slice key, val, name = { "", 0 };
	size_t n = 0;
	uint32_t i;

	slice_of_node(kvet_node_path(node, "metadata", "name", NULL), &name);
	for (i = 0; kvet_node_is_seq(exprs) && i < exprs->len; i++, n++) {
		const struct kvet_node *r = &exprs->u.items[i];
		bool present;

		if (!slice_of_node(kvet_node_get(r, "key"), &key))
			return false;
		present = node_label(labels, key, &val);
		if (!node_req(r, present, val))
			return false;
	}
	for (i = 0; kvet_node_is_seq(fields) && i < fields->len; i++, n++) {
		const struct kvet_node *r = &fields->u.items[i];

		if (!kvet_node_eq(kvet_node_get(r, "key"), "metadata.name") ||
		    !node_req(r, true, name))
			return false;
	}
	/* an empty term matches no node */
	return n > 0;
}

/* Can @wl's pods run on @node: schedulable, nodeSelector and required
 * node affinity (taints are not modelled). */
static bool node_eligible(const struct kvet_workload *wl,
			  const struct kvet_node *node)
{
	const struct kvet_node *sel = kvet_node_get(wl->pod_spec, "nodeSelector");
	const struct kvet_node *labels = kvet_node_path(node, "metadata",
							"labels", NULL);
	const struct kvet_node *terms, *unsched;
	struct kvet_slice key, want, have;
	uint32_t i;

	unsched = kvet_node_path(node, "spec", "unschedulable", NULL);
	if (unsched && unsched->type == KVET_NODE_BOOL &&
	    cel_from_node(unsched, NULL).u.b)
		return false;
	for (i = 0; kvet_node_is_map(sel) && i < sel->len; i++) {
		key.s = sel->u.pairs[i].key.u.str;
		key.len = sel->u.pairs[i].key.len;
		if (!slice_of_node(&sel->u.pairs[i].value, &want) ||
		    !node_label(labels, key, &have) || !kvet_slice_eq(want, have))
			return false;
	}
	terms = kvet_node_path(wl->pod_spec, "affinity", "nodeAffinity",
			       "requiredDuringSchedulingIgnoredDuringExecution",
			       "nodeSelectorTerms", NULL);
	if (!kvet_node_path(wl->pod_spec, "affinity", "nodeAffinity",
			    "requiredDuringSchedulingIgnoredDuringExecution",
			    NULL))
		return true;
	for (i = 0; kvet_node_is_seq(terms) && i < terms->len; i++)
		if (node_term(&terms->u.items[i], node))
			return true;
	return false;
}

static int slice_qcmp(const void *a, const void *b)
{
	return kvet_slice_cmp(*(const struct kvet_slice *)a,
			      *(const struct kvet_slice *)b);
}

/*
 * The distinct values of @key among the Nodes @wl's pods may run on:
 * BIND_DOMAINS_UNBOUNDED when such a Node lacks the key (the scheduler
 * places any number of such pods there), BIND_DOMAINS_NO_NODES when the
 * input has no Node, -1 when out of memory.
 */
long bind_topology_domains(struct kvet_arena *scratch,
			   const struct kvet_graph *g,
			   const struct kvet_workload *wl,
			   struct kvet_slice key)
{
	struct kvet_object *const *nodes;
	struct kvet_slice *vals;
	size_t cnt, i, k = 0;
	long domains = 0;

	nodes = kvet_graph_kind(g, "", "Node", &cnt);
	if (!cnt)
		return BIND_DOMAINS_NO_NODES;
	vals = kvet_arena_array(scratch, cnt, sizeof(*vals));
	if (!vals)
		return -1;
	for (i = 0; i < cnt; i++) {
		const struct kvet_node *root = nodes[i]->root;

		if (!node_eligible(wl, root))
			continue;
		/* a node without the key is outside every domain: the
		 * scheduler places any number of such pods there */
		if (!node_label(kvet_node_path(root, "metadata", "labels", NULL),
				key, &vals[k]))
			return BIND_DOMAINS_UNBOUNDED;
		k++;
	}
	qsort(vals, k, sizeof(*vals), slice_qcmp);
	for (i = 0; i < k; i++)
		if (!i || !kvet_slice_eq(vals[i], vals[i - 1]))
			domains++;
	return domains;
}
