/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_TESTS_TNODE_H
#define KVET_TESTS_TNODE_H

/*
 * Build kvet node trees by hand, for unit tests that must not depend on
 * the loader. Every node gets the next line number, so tests can check
 * that positions point at the right node.
 */
#include <stdarg.h>
#include <string.h>

#include "base/arena.h"
#include "load/node.h"

struct tnode {
	struct kvet_arena *arena;
	uint32_t line;
};

static inline struct kvet_node *tn_new(struct tnode *t, uint8_t type)
{
	struct kvet_node *n = kvet_arena_alloc(t->arena, sizeof(*n));

	n->type = type;
	n->line = ++t->line;
	n->col = 1;
	return n;
}

/* A plain scalar, typed the way the loader types it ("1" is an int). */
static inline struct kvet_node *tn_plain(struct tnode *t, const char *s)
{
	struct kvet_node *n = tn_new(t, kvet_scalar_type(s, strlen(s)));

	n->u.str = s;
	n->len = (uint32_t)strlen(s);
	return n;
}

/* A quoted scalar: always a string. */
static inline struct kvet_node *tn_str(struct tnode *t, const char *s)
{
	struct kvet_node *n = tn_new(t, KVET_NODE_STRING);

	n->flags = KVET_NODE_QUOTED;
	n->u.str = s;
	n->len = (uint32_t)strlen(s);
	return n;
}

static inline struct kvet_node *tn_null(struct tnode *t)
{
	struct kvet_node *n = tn_new(t, KVET_NODE_NULL);

	n->u.str = "";
	return n;
}

/* tn_map(t, npairs, "key", node, "key", node, ...) */
static inline struct kvet_node *tn_map(struct tnode *t, unsigned int npairs, ...)
{
	struct kvet_node *n = tn_new(t, KVET_NODE_MAP);
	struct kvet_pair *p = kvet_arena_array(t->arena, npairs ? npairs : 1,
					       sizeof(*p));
	unsigned int i;
	va_list ap;

	va_start(ap, npairs);
	for (i = 0; i < npairs; i++) {
		const char *k = va_arg(ap, const char *);

		p[i].key.type = KVET_NODE_STRING;
		p[i].key.u.str = k;
		p[i].key.len = (uint32_t)strlen(k);
		p[i].key.line = t->line;
		p[i].value = *va_arg(ap, struct kvet_node *);
	}
	va_end(ap);
	n->u.pairs = p;
	n->len = npairs;
	return n;
}

/* tn_seq(t, nitems, node, node, ...) */
static inline struct kvet_node *tn_seq(struct tnode *t, unsigned int nitems, ...)
{
	struct kvet_node *n = tn_new(t, KVET_NODE_SEQ);
	struct kvet_node *v = kvet_arena_array(t->arena, nitems ? nitems : 1,
					       sizeof(*v));
	unsigned int i;
	va_list ap;

	va_start(ap, nitems);
	for (i = 0; i < nitems; i++)
		v[i] = *va_arg(ap, struct kvet_node *);
	va_end(ap);
	n->u.items = v;
	n->len = nitems;
	return n;
}

/* A matchExpressions item; @values may be NULL (no values field). */
static inline struct kvet_node *tn_expr(struct tnode *t, const char *key,
					const char *op, struct kvet_node *values)
{
	if (!values)
		return tn_map(t, 2, "key", tn_str(t, key),
			      "operator", tn_str(t, op));
	return tn_map(t, 3, "key", tn_str(t, key), "operator", tn_str(t, op),
		      "values", values);
}

#endif
