/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Mappings: the pairs of a closed mapping with its merge keys applied and
 * every duplicate key found, in time linear in the keys however many
 * there are (issue 11: quadratic merges took minutes on one file).
 */
#include "load/build.h"

#include <string.h>

static bool is_merge_key(const struct kvet_node *k)
{
	return k->len == 2 && memcmp(k->u.str, "<<", 2) == 0 &&
	       !(k->flags & KVET_NODE_QUOTED);
}

static size_t merge_source_pairs(const struct kvet_node *v)
{
	size_t i, n = 0;

	if (v->type == KVET_NODE_MAP)
		return v->len;
	for (i = 0; i < v->len; i++)
		if (v->u.items[i].type == KVET_NODE_MAP)
			n += v->u.items[i].len;
	return n;
}

/*
 * The keys of the mapping being built. Most mappings of a manifest have
 * a handful of keys, where a scan beats hashing; past that the keys go
 * into the builder's hash set, so that a ConfigMap with 100,000 entries
 * or a merge of a huge anchor costs linear time, and every duplicate is
 * found, however far apart.
 */
enum { SMALL_MAP = 16 };

struct map_keys {
	struct kvet_builder *b;
	struct kvet_pair *pairs;
	size_t n;
	bool hashed;
};

/* The pair of @key among those added so far, or NULL. */
static const struct kvet_pair *find_key(struct map_keys *mk,
					const struct kvet_node *key,
					struct kvet_keyset_entry **slot)
{
	size_t i;

	if (mk->hashed) {
		*slot = kvet_keyset_slot(&mk->b->keys, key->u.str, key->len);
		return (*slot)->idx ? &mk->pairs[(*slot)->idx - 1] : NULL;
	}
	for (i = 0; i < mk->n; i++)
		if (mk->pairs[i].key.len == key->len &&
		    memcmp(mk->pairs[i].key.u.str, key->u.str, key->len) == 0)
			return &mk->pairs[i];
	return NULL;
}

static void add_pair(struct map_keys *mk, const struct kvet_node *key,
		     const struct kvet_node *value,
		     struct kvet_keyset_entry *slot)
{
	if (mk->hashed) {
		slot->s = key->u.str;
		slot->len = key->len;
		slot->idx = (uint32_t)mk->n + 1;
		kvet_keyset_added(&mk->b->keys);
	}
	mk->pairs[mk->n].key = *key;
	mk->pairs[mk->n].value = *value;
	mk->n++;
}

static void merge_from(struct map_keys *mk, const struct kvet_node *src)
{
	struct kvet_keyset_entry *slot = NULL;
	uint32_t i;

	for (i = 0; i < src->len; i++)
		if (!find_key(mk, &src->u.pairs[i].key, &slot))
			add_pair(mk, &src->u.pairs[i].key,
				 &src->u.pairs[i].value, slot);
}

/*
 * Build a mapping from key/value children, applying merge keys: "<<: *a"
 * or "<<: [*a, *b]" adds the keys of a (then b) that the mapping does not
 * set itself (YAML merge key type, used by Helm and compose files alike).
 * Keys are scalars; a duplicate is an error, as in the API server's
 * strict decoding and in libfyaml's own document loader.
 */
void kvet_build_map(struct kvet_builder *b, size_t npairs,
		    const struct kvet_node *kv, struct kvet_node *n)
{
	size_t extra = 0, i;
	struct kvet_keyset_entry *slot = NULL;
	struct map_keys mk = { b, NULL, 0, false };

	for (i = 0; i < npairs; i++) {
		const struct kvet_node *v = &kv[2 * i + 1];

		if (!is_merge_key(&kv[2 * i]))
			continue;
		if (v->type != KVET_NODE_MAP && v->type != KVET_NODE_SEQ) {
			kvet_build_fail(b, v->line, v->col,
				 "merge key \"<<\" needs a mapping or a list of mappings");
			return;
		}
		extra += merge_source_pairs(v);
	}
	mk.pairs = kvet_arena_array(b->arena, npairs + extra,
				    sizeof(*mk.pairs));
	if (!mk.pairs && npairs + extra) {
		b->oom = true;
		return;
	}
	if (npairs + extra > SMALL_MAP) {
		if (!kvet_keyset_reset(&b->keys, npairs + extra)) {
			b->oom = true;
			return;
		}
		mk.hashed = true;
	}
	for (i = 0; i < npairs; i++) {
		const struct kvet_node *k = &kv[2 * i];

		if (is_merge_key(k))
			continue;
		if (find_key(&mk, k, &slot)) {
			kvet_build_fail(b, k->line, k->col, "duplicate key \"%.*s\"",
				 (int)k->len, k->u.str);
			return;
		}
		add_pair(&mk, k, &kv[2 * i + 1], slot);
	}
	for (i = 0; extra && i < npairs; i++) {
		const struct kvet_node *v = &kv[2 * i + 1];
		uint32_t j;

		if (!is_merge_key(&kv[2 * i]))
			continue;
		if (v->type == KVET_NODE_MAP)
			merge_from(&mk, v);
		else
			for (j = 0; j < v->len; j++)
				if (v->u.items[j].type == KVET_NODE_MAP)
					merge_from(&mk, &v->u.items[j]);
	}
	n->len = (uint32_t)mk.n;
	n->u.pairs = mk.pairs;
}
