/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_MODEL_LABELS_H
#define KVET_MODEL_LABELS_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "base/arena.h"
#include "load/node.h"

/*
 * Label sets: the metadata.labels of an object or pod template, and the
 * synthetic labels of a namespace. Keys and values are <pointer, length>
 * slices, mostly pointing into the loaded input, never NUL-terminated.
 */
struct kvet_slice {
	const char *s;
	size_t len;
};

static inline struct kvet_slice kvet_slice_of(const char *s)
{
	struct kvet_slice sl = { s, s ? strlen(s) : 0 };

	return sl;
}

static inline bool kvet_slice_eq(struct kvet_slice a, struct kvet_slice b)
{
	return a.len == b.len && (!a.len || memcmp(a.s, b.s, a.len) == 0);
}

static inline bool kvet_slice_eq0(struct kvet_slice a, const char *s)
{
	return kvet_slice_eq(a, kvet_slice_of(s));
}

/* The text of a scalar node that is not null, as a slice; false (and
 * @out untouched) for anything else. */
static inline bool kvet_node_slice(const struct kvet_node *n,
				   struct kvet_slice *out)
{
	if (!kvet_node_is_scalar(n) || kvet_node_is_null(n))
		return false;
	out->s = n->u.str;
	out->len = n->len;
	return true;
}

/* Byte order, shorter first on a common prefix: the order of label sets. */
int kvet_slice_cmp(struct kvet_slice a, struct kvet_slice b);

struct kvet_label {
	struct kvet_slice key;
	struct kvet_slice value;
};

/*
 * A label set, sorted by key with unique keys. The array is borrowed from
 * the arena that built it.
 */
struct kvet_labels {
	const struct kvet_label *v;
	size_t n;
};

/**
 * kvet_labels_from_node() - read a labels mapping into a sorted set.
 * @arena: where the array goes.
 * @map: a metadata.labels mapping; NULL or null gives the empty set.
 * @out: the set.
 *
 * Scalar values of any type are taken by their text, as "kubectl apply"
 * would refuse them anyway and a linter should still see the intent;
 * entries whose value is a mapping or sequence are skipped. When a key
 * occurs twice the last one wins, as in a Go map.
 *
 * Returns: 0, or -1 when out of memory (@out is then the empty set).
 */
int kvet_labels_from_node(struct kvet_arena *arena,
			  const struct kvet_node *map,
			  struct kvet_labels *out);

struct kvet_object;

/* kvet_labels_from_node() of @obj's own metadata.labels. */
int kvet_object_labels(struct kvet_arena *arena, const struct kvet_object *obj,
		       struct kvet_labels *out);

/**
 * kvet_labels_from_array() - sort @n labels in place and use them as a set.
 * @v: the labels; duplicate keys keep the last.
 * @n: how many.
 * @out: the set, borrowing @v.
 */
void kvet_labels_from_array(struct kvet_label *v, size_t n,
			    struct kvet_labels *out);

/**
 * kvet_labels_get() - the value of @key in @set.
 * Returns: true and sets @value (when not NULL) if @key is present.
 */
bool kvet_labels_get(const struct kvet_labels *set, struct kvet_slice key,
		     struct kvet_slice *value);

/*
 * Syntax of label keys and values (k8s.io/apimachinery/pkg/util/validation:
 * IsQualifiedName and IsValidLabelValue), which LabelSelector validation
 * applies to every key and value of a selector.
 */
bool kvet_label_key_valid(struct kvet_slice key);
bool kvet_label_value_valid(struct kvet_slice value);

/*
 * kvet_sorted_find() - binary search of @key among @n elements of
 * @stride bytes at @base, sorted by kvet_slice_cmp() of the struct
 * kvet_slice each starts with (a slice array, or struct kvet_label).
 * Returns: the index of the element, or @n when there is none.
 */
size_t kvet_sorted_find(const void *base, size_t n, size_t stride,
			struct kvet_slice key);

/* The text of a string node; empty for anything else. */
static inline struct kvet_slice kvet_string_of(const struct kvet_node *n)
{
	struct kvet_slice s = { "", 0 };

	if (kvet_node_is_string(n)) {
		s.s = n->u.str;
		s.len = n->len;
	}
	return s;
}

#endif
