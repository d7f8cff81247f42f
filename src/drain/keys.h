/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_DRAIN_KEYS_H
#define KVET_DRAIN_KEYS_H

/*
 * Topology keys: for each key a term or the plan uses, every node's value
 * as a small integer, so that "the same domain" is an integer compare.
 */
#include "drain/state.h"

/* The id of key @name, registered on first use; DRAIN_NONE when out of
 * memory. */
uint32_t drain_key_intern(struct drain_cluster *c, struct kvet_slice name);

/* Give node @n (added after the keys were made) its values. */
int drain_key_add_node(struct drain_cluster *c, uint32_t n);

static inline uint32_t drain_key_value(const struct drain_cluster *c,
				       uint32_t key, uint32_t node)
{
	return c->keys[key].value[node];
}

#endif
