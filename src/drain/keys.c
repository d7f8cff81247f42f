/* SPDX-License-Identifier: Apache-2.0 */
#include "drain/keys.h"

#include <stdlib.h>
#include <string.h>

#include "base/vec.h"

struct ranked {
	struct kvet_slice value;
	uint32_t node;
};

static int cmp_ranked(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;
	int c = kvet_slice_cmp(a->value, b->value);

	if (c)
		return c;
	return a->node < b->node ? -1 : a->node > b->node;
}

/* Value ids in byte order of the values, so that ids sort like them. */
static int fill(struct drain_cluster *c, struct drain_key *k)
{
	struct ranked *r = malloc(((size_t)c->n_nodes + 1) * sizeof(*r));
	uint32_t i, n = 0;

	k->value = kvet_arena_array(c->arena, c->cap_nodes + 1,
				    sizeof(*k->value));
	if (!r || !k->value) {
		free(r);
		return -1;
	}
	for (i = 0; i < c->n_nodes; i++) {
		k->value[i] = DRAIN_NONE;
		if (kvet_labels_get(&c->nodes[i].labels, k->name, &r[n].value))
			r[n++].node = i;
	}
	qsort(r, n, sizeof(*r), cmp_ranked);
	k->n_values = 0;
	for (i = 0; i < n; i++) {
		if (i && !kvet_slice_eq(r[i].value, r[i - 1].value))
			k->n_values++;
		k->value[r[i].node] = k->n_values;
	}
	if (n)
		k->n_values++;
	free(r);
	return 0;
}

uint32_t drain_key_intern(struct drain_cluster *c, struct kvet_slice name)
{
	size_t cap = c->n_keys;
	struct drain_key *k;
	uint32_t i;

	for (i = 0; i < c->n_keys; i++)
		if (kvet_slice_eq(c->keys[i].name, name))
			return i;
	/* keys are few: the vector grows one by one */
	if (!kvet_vec_grow((void **)&c->keys, &cap, (size_t)c->n_keys + 1,
			   sizeof(*c->keys)))
		return DRAIN_NONE;
	k = &c->keys[c->n_keys];
	memset(k, 0, sizeof(*k));
	k->name = name;
	if (fill(c, k) < 0)
		return DRAIN_NONE;
	return c->n_keys++;
}

int drain_key_add_node(struct drain_cluster *c, uint32_t n)
{
	struct kvet_slice v, w;
	uint32_t i, j;

	for (i = 0; i < c->n_keys; i++) {
		struct drain_key *k = &c->keys[i];

		k->value[n] = DRAIN_NONE;
		if (!kvet_labels_get(&c->nodes[n].labels, k->name, &v))
			continue;
		for (j = 0; j < n; j++)
			if (k->value[j] != DRAIN_NONE &&
			    kvet_labels_get(&c->nodes[j].labels, k->name, &w) &&
			    kvet_slice_eq(v, w)) {
				k->value[n] = k->value[j];
				break;
			}
		if (k->value[n] == DRAIN_NONE)
			k->value[n] = k->n_values++;
	}
	return 0;
}
