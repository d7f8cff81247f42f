/* SPDX-License-Identifier: Apache-2.0 */
#include "model/node_affinity.h"

#include <stdlib.h>
#include <string.h>

/* Gt and Lt values: strconv.ParseInt(s, 10, 64) */
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

bool kvet_node_requirement_matches(const struct kvet_node *req, bool present,
				   struct kvet_slice val)
{
	const struct kvet_node *op = kvet_node_get(req, "operator");
	const struct kvet_node *vals = kvet_node_get(req, "values");
	struct kvet_slice v;
	long long a, b;
	bool in = false;
	uint32_t i;

	for (i = 0; present && kvet_node_is_seq(vals) && i < vals->len; i++)
		if (kvet_node_slice(&vals->u.items[i], &v) && kvet_slice_eq(v, val))
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
	    kvet_node_slice(&vals->u.items[0], &v) && parse_ll(v, &b) &&
	    parse_ll(val, &a))
		return kvet_node_eq(op, "Gt") ? a > b : a < b;
	return false;
}

bool kvet_node_term_matches(const struct kvet_node *term,
			    const struct kvet_labels *labels,
			    struct kvet_slice name)
{
	const struct kvet_node *exprs = kvet_node_get(term, "matchExpressions");
	const struct kvet_node *fields = kvet_node_get(term, "matchFields");
	struct kvet_slice key, val = { "", 0 };
	size_t n = 0;
	uint32_t i;

	for (i = 0; kvet_node_is_seq(exprs) && i < exprs->len; i++, n++) {
		const struct kvet_node *r = &exprs->u.items[i];
		bool present;

		if (!kvet_node_slice(kvet_node_get(r, "key"), &key))
			return false;
		present = kvet_labels_get(labels, key, &val);
		if (!kvet_node_requirement_matches(r, present, val))
			return false;
	}
	for (i = 0; kvet_node_is_seq(fields) && i < fields->len; i++, n++) {
		const struct kvet_node *r = &fields->u.items[i];

		if (!kvet_node_eq(kvet_node_get(r, "key"), "metadata.name") ||
		    !kvet_node_requirement_matches(r, true, name))
			return false;
	}
	/* an empty term matches no node */
	return n > 0;
}

bool kvet_node_selector_matches(const struct kvet_node *selector,
				const struct kvet_labels *labels,
				struct kvet_slice name)
{
	const struct kvet_node *terms;
	uint32_t i;

	if (!selector || kvet_node_is_null(selector))
		return true;
	terms = kvet_node_get(selector, "nodeSelectorTerms");
	for (i = 0; kvet_node_is_seq(terms) && i < terms->len; i++)
		if (kvet_node_term_matches(&terms->u.items[i], labels, name))
			return true;
	return false;
}

/* A null field (a chart's empty "required...:" key) is no requirement,
 * as the API server decodes it. */
static const struct kvet_node *required_affinity(const struct kvet_node *spec)
{
	const struct kvet_node *n = kvet_node_path(spec, "affinity",
		"nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution",
		NULL);

	return kvet_node_is_null(n) ? NULL : n;
}

bool kvet_pod_has_node_affinity(const struct kvet_node *pod_spec)
{
	const struct kvet_node *sel = kvet_node_get(pod_spec, "nodeSelector");

	return (kvet_node_is_map(sel) && sel->len) ||
	       required_affinity(pod_spec);
}

bool kvet_pod_node_affinity_matches(const struct kvet_node *pod_spec,
				    const struct kvet_labels *labels,
				    struct kvet_slice name)
{
	const struct kvet_node *sel = kvet_node_get(pod_spec, "nodeSelector");
	struct kvet_slice key, want, have;
	uint32_t i;

	for (i = 0; kvet_node_is_map(sel) && i < sel->len; i++) {
		key.s = sel->u.pairs[i].key.u.str;
		key.len = sel->u.pairs[i].key.len;
		if (!kvet_node_slice(&sel->u.pairs[i].value, &want) ||
		    !kvet_labels_get(labels, key, &have) ||
		    !kvet_slice_eq(want, have))
			return false;
	}
	return kvet_node_selector_matches(required_affinity(pod_spec), labels,
					  name);
}

bool kvet_cluster_node_unschedulable(const struct kvet_node *node_root)
{
	const struct kvet_node *n = kvet_node_path(node_root, "spec",
						   "unschedulable", NULL);
	char c;

	/* YAML 1.1 booleans, as sigs.k8s.io/yaml reads them */
	if (!n || n->type != KVET_NODE_BOOL || !n->len)
		return false;
	c = n->u.str[0];
	return c == 't' || c == 'T' || c == 'y' || c == 'Y' ||
	       ((c == 'o' || c == 'O') && n->len == 2 &&
		(n->u.str[1] == 'n' || n->u.str[1] == 'N'));
}

int kvet_cluster_node_labels(struct kvet_arena *arena,
			     const struct kvet_node *node_root,
			     struct kvet_labels *labels, struct kvet_slice *name)
{
	name->s = "";
	name->len = 0;
	kvet_node_slice(kvet_node_path(node_root, "metadata", "name", NULL), name);
	return kvet_labels_from_node(arena,
				     kvet_node_path(node_root, "metadata",
						    "labels", NULL),
				     labels);
}

static int slice_qcmp(const void *a, const void *b)
{
	return kvet_slice_cmp(*(const struct kvet_slice *)a,
			      *(const struct kvet_slice *)b);
}

long kvet_topology_domains(struct kvet_arena *scratch,
			   const struct kvet_graph *g,
			   const struct kvet_node *pod_spec,
			   struct kvet_slice key)
{
	struct kvet_object *const *nodes;
	struct kvet_labels labels;
	struct kvet_slice *vals, name;
	size_t cnt, i, k = 0;
	long domains = 0;

	nodes = kvet_graph_kind(g, "", "Node", &cnt);
	if (!cnt)
		return KVET_DOMAINS_NO_NODES;
	vals = kvet_arena_array(scratch, cnt, sizeof(*vals));
	if (!vals)
		return -1;
	for (i = 0; i < cnt; i++) {
		const struct kvet_node *root = nodes[i]->root;

		if (kvet_cluster_node_labels(scratch, root, &labels, &name) < 0)
			return -1;
		if (kvet_cluster_node_unschedulable(root) ||
		    !kvet_pod_node_affinity_matches(pod_spec, &labels, name))
			continue;
		/* a node without the key is outside every domain: the
		 * scheduler places any number of such pods there */
		if (!kvet_labels_get(&labels, key, &vals[k]))
			return KVET_DOMAINS_UNBOUNDED;
		k++;
	}
	qsort(vals, k, sizeof(*vals), slice_qcmp);
	for (i = 0; i < k; i++)
		if (!i || !kvet_slice_eq(vals[i], vals[i - 1]))
			domains++;
	return domains;
}
