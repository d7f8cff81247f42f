/* SPDX-License-Identifier: Apache-2.0 */
#include "model/labels.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/object.h"

int kvet_slice_cmp(struct kvet_slice a, struct kvet_slice b)
{
	size_t n = a.len < b.len ? a.len : b.len;
	int c = n ? memcmp(a.s, b.s, n) : 0;

	if (c)
		return c;
	return a.len < b.len ? -1 : a.len > b.len;
}

static int label_cmp(const void *pa, const void *pb)
{
	const struct kvet_label *a = pa, *b = pb;

	return kvet_slice_cmp(a->key, b->key);
}

/* A label with its place in the input, so that sorting keeps the last. */
struct ranked_label {
	struct kvet_label label;
	size_t rank;
};

static int ranked_cmp(const void *pa, const void *pb)
{
	const struct ranked_label *a = pa, *b = pb;
	int c = kvet_slice_cmp(a->label.key, b->label.key);

	if (c)
		return c;
	return a->rank < b->rank ? -1 : a->rank > b->rank;
}

int kvet_object_labels(struct kvet_arena *arena, const struct kvet_object *obj,
		       struct kvet_labels *out)
{
	return kvet_labels_from_node(arena,
				     kvet_node_path(obj->root, "metadata",
						    "labels", NULL),
				     out);
}

int kvet_labels_from_node(struct kvet_arena *arena,
			  const struct kvet_node *map,
			  struct kvet_labels *out)
{
	struct ranked_label *tmp;
	struct kvet_label *v;
	size_t i, n = 0, k = 0;

	out->v = NULL;
	out->n = 0;
	if (!kvet_node_is_map(map) || map->len == 0)
		return 0;
	tmp = kvet_arena_array(arena, map->len, sizeof(*tmp));
	if (!tmp)
		return -1;
	for (i = 0; i < map->len; i++) {
		const struct kvet_pair *p = &map->u.pairs[i];

		if (!kvet_node_is_scalar(&p->value))
			continue;
		tmp[n].label.key.s = p->key.u.str;
		tmp[n].label.key.len = p->key.len;
		/* a null value ("app:") is the empty string to Kubernetes */
		tmp[n].label.value.s = p->value.type == KVET_NODE_NULL ?
				       "" : p->value.u.str;
		tmp[n].label.value.len = p->value.type == KVET_NODE_NULL ?
					 0 : p->value.len;
		tmp[n].rank = i;
		n++;
	}
	if (!n)
		return 0;
	qsort(tmp, n, sizeof(*tmp), ranked_cmp);
	v = kvet_arena_array(arena, n, sizeof(*v));
	if (!v)
		return -1;
	for (i = 0; i < n; i++) {
		if (i + 1 < n && kvet_slice_eq(tmp[i].label.key,
					       tmp[i + 1].label.key))
			continue;
		v[k++] = tmp[i].label;
	}
	out->v = v;
	out->n = k;
	return 0;
}

void kvet_labels_from_array(struct kvet_label *v, size_t n,
			    struct kvet_labels *out)
{
	size_t i, k = 0;

	if (n > 1)
		qsort(v, n, sizeof(*v), label_cmp);
	/* qsort is not stable: with duplicate keys any one survives */
	for (i = 0; i < n; i++) {
		if (k && kvet_slice_eq(v[k - 1].key, v[i].key)) {
			v[k - 1] = v[i];
			continue;
		}
		v[k++] = v[i];
	}
	out->v = v;
	out->n = k;
}

size_t kvet_sorted_find(const void *base, size_t n, size_t stride,
			struct kvet_slice key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct kvet_slice *e = (const struct kvet_slice *)
			((const char *)base + mid * stride);
		int c = kvet_slice_cmp(*e, key);

		if (c == 0)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return n;
}

bool kvet_labels_get(const struct kvet_labels *set, struct kvet_slice key,
		     struct kvet_slice *value)
{
	size_t n = set ? set->n : 0;
	size_t i = n ? kvet_sorted_find(set->v, n, sizeof(*set->v), key) : 0;

	if (i == n)
		return false;
	if (value)
		*value = set->v[i].value;
	return true;
}

static bool is_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

static bool is_lower_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/* ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9], at most 63 bytes */
static bool is_label_name(const char *s, size_t len)
{
	size_t i;

	if (len == 0 || len > 63)
		return false;
	if (!is_alnum(s[0]) || !is_alnum(s[len - 1]))
		return false;
	for (i = 1; i + 1 < len; i++)
		if (!is_alnum(s[i]) && s[i] != '-' && s[i] != '_' &&
		    s[i] != '.')
			return false;
	return true;
}

/* RFC 1123 subdomain: dot-separated lowercase labels, at most 253 bytes */
static bool is_dns_subdomain(const char *s, size_t len)
{
	size_t i, start = 0;

	if (len == 0 || len > 253)
		return false;
	for (i = 0; i <= len; i++) {
		if (i < len && s[i] != '.') {
			if (!is_lower_alnum(s[i]) && s[i] != '-')
				return false;
			continue;
		}
		if (i == start || !is_lower_alnum(s[start]) ||
		    !is_lower_alnum(s[i - 1]))
			return false;
		start = i + 1;
	}
	return true;
}

bool kvet_label_key_valid(struct kvet_slice key)
{
	const char *slash = key.len ? memchr(key.s, '/', key.len) : NULL;
	size_t plen;

	if (!slash)
		return is_label_name(key.s, key.len);
	plen = (size_t)(slash - key.s);
	return is_dns_subdomain(key.s, plen) &&
	       is_label_name(slash + 1, key.len - plen - 1);
}

bool kvet_label_value_valid(struct kvet_slice value)
{
	return value.len == 0 || is_label_name(value.s, value.len);
}
