/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_LOAD_NODE_H
#define KVET_LOAD_NODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * kvet's own YAML tree: built by the loader from libfyaml's event stream
 * into the run's arena, 24 bytes a node, children stored contiguously.
 * Every node knows its 1-based line and column. Aliases are resolved into
 * shared subtrees (the tree is a DAG), merge keys are already applied, and
 * scalars are typed the way Kubernetes' YAML decoder types them.
 *
 * Strings are <pointer, length> slices, not NUL-terminated: most point
 * straight into the loaded input, or, in a large file's pieces read
 * without libfyaml, into copies shared by equal texts (load/detach.h).
 */
enum kvet_node_type {
	KVET_NODE_NULL,		/* ~, null, Null, NULL, or empty */
	KVET_NODE_BOOL,		/* true/false and the YAML 1.1 forms */
	KVET_NODE_INT,
	KVET_NODE_FLOAT,
	KVET_NODE_STRING,
	KVET_NODE_MAP,
	KVET_NODE_SEQ,
};

enum kvet_node_flags {
	KVET_NODE_QUOTED = 1u << 0,	/* a quoted or block scalar */
	KVET_NODE_FLOW = 1u << 1,	/* collection written in flow style */
	/* a field the API server would reject (replicas: "two", -.inf):
	 * the invalid-field-type check reported it and made it read as
	 * null, so that no rule computes with a bogus value; the text and
	 * the former type (invalid_type) stay for messages */
	KVET_NODE_INVALID = 1u << 2,
};

struct kvet_pair;

struct kvet_node {
	uint8_t type;		/* enum kvet_node_type */
	uint8_t flags;		/* enum kvet_node_flags */
	uint8_t invalid_type;	/* with KVET_NODE_INVALID: its former type */
	uint8_t reserved;
	uint32_t line;		/* 1-based */
	uint32_t col;		/* 1-based */
	uint32_t len;		/* scalar bytes, map pairs or sequence items */
	union {
		const char *str;		/* every scalar type */
		const struct kvet_pair *pairs;	/* KVET_NODE_MAP */
		const struct kvet_node *items;	/* KVET_NODE_SEQ */
	} u;
};

struct kvet_pair {
	struct kvet_node key;	/* always a scalar */
	struct kvet_node value;
};

static inline bool kvet_node_is_map(const struct kvet_node *n)
{
	return n && n->type == KVET_NODE_MAP;
}

static inline bool kvet_node_is_seq(const struct kvet_node *n)
{
	return n && n->type == KVET_NODE_SEQ;
}

static inline bool kvet_node_is_scalar(const struct kvet_node *n)
{
	return n && n->type < KVET_NODE_MAP;
}

/* A value that is absent or null: Kubernetes treats both alike. */
static inline bool kvet_node_is_null(const struct kvet_node *n)
{
	return !n || n->type == KVET_NODE_NULL;
}

/* A string scalar; quoted numbers and booleans are strings too. */
static inline bool kvet_node_is_string(const struct kvet_node *n)
{
	return n && n->type == KVET_NODE_STRING;
}

/* The value of @key in mapping @map, or NULL (also when @map is no map);
 * the last of duplicate keys wins. */
const struct kvet_node *kvet_node_getn(const struct kvet_node *map,
				       const char *key, size_t keylen);

/* The same for a NUL-terminated @key. Inline because most callers name
 * the field by a literal, whose length the compiler then counts: the
 * model reads fields by name on every object and in every rule's call,
 * and a strlen() of the name was a part of each read. */
static inline const struct kvet_node *kvet_node_get(const struct kvet_node *map,
						    const char *key)
{
	return kvet_node_getn(map, key, strlen(key));
}

/* The pair of @key, for the key's position; NULL when absent. */
const struct kvet_pair *kvet_node_get_pair(const struct kvet_node *map,
					   const char *key);

/*
 * kvet_node_path() - follow mapping keys: kvet_node_path(obj, "spec",
 * "template", "metadata", NULL). Returns NULL when any step is missing or
 * is not a mapping.
 */
const struct kvet_node *kvet_node_path(const struct kvet_node *n, ...)
	__attribute__((sentinel));

/* True when @n is a string scalar equal to @s. */
bool kvet_node_eq(const struct kvet_node *n, const char *s);
/* True when @n is a scalar of any type whose text is @s. */
bool kvet_node_text_eq(const struct kvet_node *n, const char *s);
/* True when @n is a boolean that is true, in any of the YAML 1.1 forms
 * the loader reads as booleans (true, True, yes, on, y, ...). */
bool kvet_node_true(const struct kvet_node *n);

/*
 * kvet_node_int() - the value of an integer scalar.
 * Returns: true and sets @out when @n is KVET_NODE_INT, has digits and
 * fits in a long long.
 */
bool kvet_node_int(const struct kvet_node *n, long long *out);

/* The same for Kubernetes' int32 fields (replicas, minAvailable, ...):
 * false when the value does not fit in 32 bits. */
bool kvet_node_int32(const struct kvet_node *n, long long *out);

/*
 * kvet_node_invalidate() - make a field the API server would reject read
 * as null from now on (see KVET_NODE_INVALID). @n is a node of a loaded
 * tree, which lives in writable arena memory; the field-type check is
 * the only caller, before any rule reads the tree.
 */
void kvet_node_invalidate(const struct kvet_node *n);

/* Typing of one plain scalar, shared by the loader and tests. */
enum kvet_node_type kvet_scalar_type(const char *s, size_t len);

/*
 * kvet_node_same() - are the trees @a and @b the same: shape, types,
 * flags, positions and text? For tests and fuzzers that compare loaders.
 * Returns: true; false with *@where at the first node of @a that differs
 * (NULL when memory ran out).
 */
bool kvet_node_same(const struct kvet_node *a, const struct kvet_node *b,
		    const struct kvet_node **where);

/* A printable name for a node type: "string", "mapping", ... */
const char *kvet_node_type_name(enum kvet_node_type type);
/* The same with its article, for messages: "a string", "an integer",
 * "null" ("must be a mapping, not an integer"). */
const char *kvet_node_type_a(enum kvet_node_type type);

#endif
