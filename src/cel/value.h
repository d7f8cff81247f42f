/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_CEL_VALUE_H
#define KVET_CEL_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cel/cel_host.h"

/*
 * The values of kvet's CEL subset. A value is 32 bytes of plain data
 * (on 64-bit machines); whatever it points at lives in the loaded
 * input, the host's arena or the evaluation's scratch arena. Lists and
 * maps read from the input stay views of their kvet_node (CEL_V_NODE),
 * so evaluating object.spec.template never copies a subtree.
 *
 * Errors are values too (CEL's semantics): a missing key, a type
 * mismatch or an overflow gives CEL_ERROR, which && and || may absorb.
 */
enum cel_type {
	CEL_NULL,
	CEL_BOOL,
	CEL_INT,
	CEL_DOUBLE,
	CEL_STRING,
	CEL_LIST,
	CEL_MAP,
	CEL_ERROR,
};

enum cel_value_flags {
	CEL_V_NODE = 1u << 0,	/* a list or map that is u.node */
	/* An error that is not the value of the expression but kvet
	 * giving up on it: a limit was hit or memory ran out. */
	CEL_V_FAILURE = 1u << 1,
};

struct cel_entry;

struct cel_value {
	uint8_t type;		/* enum cel_type */
	uint8_t flags;		/* enum cel_value_flags */
	uint8_t host_tag;	/* what @host is; CEL_HOST_NONE: nothing */
	uint32_t len;		/* string bytes; items of a built list/map */
	union {
		bool b;
		int64_t i;
		double d;
		const char *s;			/* CEL_STRING, CEL_ERROR */
		const struct cel_value *items;	/* CEL_LIST */
		const struct cel_entry *entries;	/* CEL_MAP */
		const struct kvet_node *node;	/* with CEL_V_NODE */
	} u;
	/* The input node the value was read from (a map key for a field),
	 * for positions: `at:` and error messages. NULL for computed ones. */
	const struct kvet_node *at;
	/* The host object the value stands for (cel_host.h), tagged by
	 * @host_tag; the engine only copies it. NULL for others. */
	const void *host;
};

struct cel_entry {
	struct cel_value key;
	struct cel_value value;
};

/* Items or bytes an operation may scan, compare or copy for one step of
 * an evaluation's budget (cel.h). */
enum { CEL_COST_SCAN = 16 };

/* Bound of list and map nesting that equality and printing follow. */
enum { CEL_MAX_VALUE_DEPTH = 32 };

static inline struct cel_value cel_null(void)
{
	struct cel_value v = { .type = CEL_NULL };

	return v;
}

static inline struct cel_value cel_bool(bool b)
{
	struct cel_value v = { .type = CEL_BOOL, .u.b = b };

	return v;
}

static inline struct cel_value cel_int(int64_t i)
{
	struct cel_value v = { .type = CEL_INT, .u.i = i };

	return v;
}

static inline struct cel_value cel_double(double d)
{
	struct cel_value v = { .type = CEL_DOUBLE, .u.d = d };

	return v;
}

static inline struct cel_value cel_string(const char *s, size_t len)
{
	struct cel_value v = { .type = CEL_STRING, .len = (uint32_t)len,
			       .u.s = s };

	return v;
}

static inline bool cel_is_error(const struct cel_value *v)
{
	return v->type == CEL_ERROR;
}

/* An error that is kvet giving up (CEL_V_FAILURE), not a CEL value. */
static inline bool cel_is_failure(const struct cel_value *v)
{
	return v->type == CEL_ERROR && (v->flags & CEL_V_FAILURE);
}

/* An error value whose message is formatted into @arena. */
struct cel_value cel_errorf(struct kvet_arena *arena, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The CEL name of a value's type: "int", "string", "map", ... */
const char *cel_type_name(enum cel_type type);

/* cel_from_node() of any node: the numbers and booleans it leaves to
 * the call. */
struct cel_value cel_from_node_other(const struct kvet_node *n,
				     const struct kvet_node *at);

/* A node of the input as a value: scalars are converted (they are
 * small), collections become views. @at is recorded for positions.
 * Inline for the strings and collections that most field reads give. */
static inline struct cel_value cel_from_node(const struct kvet_node *n,
					     const struct kvet_node *at)
{
	struct cel_value v = { .type = CEL_NULL };

	if (!n)
		return v;
	switch (n->type) {
	case KVET_NODE_STRING:
		v.type = CEL_STRING;
		v.len = n->len;
		v.u.s = n->u.str;
		break;
	case KVET_NODE_MAP:
	case KVET_NODE_SEQ:
		v.type = n->type == KVET_NODE_MAP ? CEL_MAP : CEL_LIST;
		v.flags = CEL_V_NODE;
		v.len = n->len;
		v.u.node = n;
		break;
	default:
		return cel_from_node_other(n, at);
	}
	v.at = at ? at : n;
	return v;
}

/* @v standing for host object @host of kind @tag (cel_host.h). */
static inline struct cel_value cel_with_host(struct cel_value v,
					     unsigned int tag,
					     const void *host)
{
	v.host_tag = (uint8_t)tag;
	v.host = host;
	return v;
}

/* Number of items of a list or entries of a map. */
static inline size_t cel_len(const struct cel_value *v)
{
	return v->type == CEL_LIST || v->type == CEL_MAP ? v->len : 0;
}

/* Item @i of a list (@i < cel_len()). */
struct cel_value cel_list_at(const struct cel_value *v, size_t i);

/* Key @i of a map, in the order of the input or the literal. */
struct cel_value cel_map_key_at(const struct cel_value *v, size_t i);

/*
 * cel_map_get() - the value of string key @key in map @v.
 * Returns: true and sets @out when present (a null value counts as
 * present; has() treats it as absent itself).
 */
bool cel_map_get(const struct cel_value *v, const char *key, size_t len,
		 struct cel_value *out);

/* Look up any key (CEL maps may have int or bool keys). */
bool cel_map_find(const struct cel_value *map, const struct cel_value *key,
		  struct cel_value *out);

/*
 * cel_equal() - CEL equality: numbers compare by value across int and
 * double, other types only with their own. Returns 1, 0, or -1 when the
 * values nest deeper than CEL_MAX_VALUE_DEPTH.
 */
int cel_equal(const struct cel_value *a, const struct cel_value *b);

/*
 * cel_equal_metered() - cel_equal() that adds to *@steps one per item
 * or key compared and per CEL_COST_SCAN keys scanned, and gives up once
 * *@steps passes @limit.
 * Returns: 1, 0, -1 as cel_equal(), or -2 when it gave up.
 */
int cel_equal_metered(const struct cel_value *a, const struct cel_value *b,
		      uint64_t *steps, uint64_t limit);

/*
 * cel_to_text() - a value as message text: strings as they are, numbers
 * in decimal, lists and maps in CEL literal syntax.
 * Returns: a NUL-terminated string in @arena, or NULL when out of memory.
 */
char *cel_to_text(struct kvet_arena *arena, const struct cel_value *v);

#endif
