/* SPDX-License-Identifier: Apache-2.0 */
#include "cel/value.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"

struct cel_value cel_errorf(struct kvet_arena *arena, const char *fmt, ...)
{
	struct cel_value v = { .type = CEL_ERROR };
	va_list ap;

	va_start(ap, fmt);
	v.u.s = kvet_arena_vprintf(arena, fmt, ap);
	va_end(ap);
	if (!v.u.s)
		v.u.s = "out of memory";
	return v;
}

const char *cel_type_name(enum cel_type type)
{
	static const char *const names[] = {
		[CEL_NULL] = "null_type", [CEL_BOOL] = "bool",
		[CEL_INT] = "int",	  [CEL_DOUBLE] = "double",
		[CEL_STRING] = "string",  [CEL_LIST] = "list",
		[CEL_MAP] = "map",	  [CEL_ERROR] = "error",
	};

	return (unsigned int)type <= CEL_ERROR ? names[type] : "?";
}

/* YAML 1.1 booleans as the loader accepts them: y, yes, true, on. */
static bool node_bool(const struct kvet_node *n)
{
	char c = n->len ? n->u.str[0] : 'f';

	if (c == 't' || c == 'T' || c == 'y' || c == 'Y')
		return true;
	return (c == 'o' || c == 'O') && n->len == 2 &&
	       (n->u.str[1] == 'n' || n->u.str[1] == 'N');
}

static double node_double(const struct kvet_node *n)
{
	char buf[64];
	size_t len = n->len < sizeof(buf) - 1 ? n->len : sizeof(buf) - 1;
	const char *p = buf;
	bool neg = false;

	memcpy(buf, n->u.str, len);
	buf[len] = '\0';
	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	if (p[0] == '.' && (p[1] == 'i' || p[1] == 'I'))
		return neg ? -INFINITY : INFINITY;
	if (p[0] == '.' && (p[1] == 'n' || p[1] == 'N'))
		return NAN;
	return strtod(buf, NULL);
}

struct cel_value cel_from_node_other(const struct kvet_node *n,
				     const struct kvet_node *at)
{
	struct cel_value v = { .type = CEL_NULL };
	long long i;

	if (!n)
		return v;
	switch ((enum kvet_node_type)n->type) {
	case KVET_NODE_NULL:
		break;
	case KVET_NODE_BOOL:
		v = cel_bool(node_bool(n));
		break;
	case KVET_NODE_INT:
		v = kvet_node_int(n, &i) ? cel_int(i) : cel_double(node_double(n));
		break;
	case KVET_NODE_FLOAT:
		v = cel_double(node_double(n));
		break;
	case KVET_NODE_STRING:
		v = cel_string(n->u.str, n->len);
		break;
	case KVET_NODE_MAP:
		v.type = CEL_MAP;
		v.flags = CEL_V_NODE;
		v.len = n->len;
		v.u.node = n;
		break;
	case KVET_NODE_SEQ:
		v.type = CEL_LIST;
		v.flags = CEL_V_NODE;
		v.len = n->len;
		v.u.node = n;
		break;
	}
	v.at = at ? at : n;
	return v;
}

struct cel_value cel_list_at(const struct cel_value *v, size_t i)
{
	if (v->flags & CEL_V_NODE)
		return cel_from_node(&v->u.node->u.items[i], NULL);
	return v->u.items[i];
}

struct cel_value cel_map_key_at(const struct cel_value *v, size_t i)
{
	if (v->flags & CEL_V_NODE) {
		const struct kvet_node *k = &v->u.node->u.pairs[i].key;
		struct cel_value key = cel_string(k->u.str, k->len);

		key.at = k;
		return key;
	}
	return v->u.entries[i].key;
}

bool cel_map_get(const struct cel_value *v, const char *key, size_t len,
		 struct cel_value *out)
{
	size_t i;

	if (v->type != CEL_MAP)
		return false;
	if (v->flags & CEL_V_NODE) {
		const struct kvet_node *m = v->u.node;

		/* the last duplicate wins, as kvet_node_getn() does */
		for (i = m->len; i-- > 0;) {
			const struct kvet_pair *p = &m->u.pairs[i];

			/* the first byte before the call: a field name
			 * mostly differs there from keys of its length */
			if (p->key.len == len &&
			    (!len || (p->key.u.str[0] == key[0] &&
				      memcmp(p->key.u.str, key, len) == 0))) {
				*out = cel_from_node(&p->value, &p->key);
				return true;
			}
		}
		return false;
	}
	for (i = 0; i < v->len; i++) {
		const struct cel_value *k = &v->u.entries[i].key;

		if (k->type == CEL_STRING && k->len == len &&
		    (!len || (k->u.s[0] == key[0] &&
			      memcmp(k->u.s, key, len) == 0))) {
			*out = v->u.entries[i].value;
			return true;
		}
	}
	return false;
}

bool cel_map_find(const struct cel_value *map, const struct cel_value *key,
		  struct cel_value *out)
{
	size_t i;

	if (key->type == CEL_STRING)
		return cel_map_get(map, key->u.s, key->len, out);
	if (map->flags & CEL_V_NODE)
		return false;	/* YAML keys of Kubernetes objects are strings */
	for (i = 0; i < map->len; i++) {
		if (cel_equal(&map->u.entries[i].key, key) == 1) {
			*out = map->u.entries[i].value;
			return true;
		}
	}
	return false;
}

/* Work done by one comparison, and where to give up. */
struct meter {
	uint64_t steps, limit;
};

static int equal_at(const struct cel_value *a, const struct cel_value *b,
		    int depth, struct meter *m);

static int list_equal(const struct cel_value *a, const struct cel_value *b,
		      int depth, struct meter *m)
{
	size_t i, n = cel_len(a);
	int r;

	if (n != cel_len(b))
		return 0;
	for (i = 0; i < n; i++) {
		struct cel_value x = cel_list_at(a, i), y = cel_list_at(b, i);

		r = equal_at(&x, &y, depth + 1, m);
		if (r != 1)
			return r;
	}
	return 1;
}

/* Each key is looked up in both maps, a scan of each: n * n. */
static int map_equal(const struct cel_value *a, const struct cel_value *b,
		     int depth, struct meter *m)
{
	size_t i, n = cel_len(a);
	struct cel_value k, x, y;
	int r;

	if (n != cel_len(b))
		return 0;
	for (i = 0; i < n; i++) {
		m->steps += 2 * n / CEL_COST_SCAN;
		if (m->steps > m->limit)
			return -2;
		k = cel_map_key_at(a, i);
		if (!cel_map_find(a, &k, &x) || !cel_map_find(b, &k, &y))
			return 0;
		r = equal_at(&x, &y, depth + 1, m);
		if (r != 1)
			return r;
	}
	return 1;
}

/* Bounded recursion: depth is capped by CEL_MAX_VALUE_DEPTH, not by the
 * input, whose deeper values simply fail to compare. */
static int equal_at(const struct cel_value *a, const struct cel_value *b,
		    int depth, struct meter *m)
{
	if (depth > CEL_MAX_VALUE_DEPTH)
		return -1;
	if (++m->steps > m->limit)
		return -2;
	if (a->type == CEL_INT && b->type == CEL_DOUBLE)
		return (double)a->u.i == b->u.d;
	if (a->type == CEL_DOUBLE && b->type == CEL_INT)
		return a->u.d == (double)b->u.i;
	if (a->type != b->type)
		return 0;
	switch ((enum cel_type)a->type) {
	case CEL_NULL:
		return 1;
	case CEL_BOOL:
		return a->u.b == b->u.b;
	case CEL_INT:
		return a->u.i == b->u.i;
	case CEL_DOUBLE:
		return a->u.d == b->u.d;
	case CEL_STRING:
		m->steps += a->len / CEL_COST_SCAN;
		return a->len == b->len &&
		       (!a->len || memcmp(a->u.s, b->u.s, a->len) == 0);
	case CEL_LIST:
		return list_equal(a, b, depth, m);
	case CEL_MAP:
		return map_equal(a, b, depth, m);
	case CEL_ERROR:
		return 0;
	}
	return 0;
}

int cel_equal(const struct cel_value *a, const struct cel_value *b)
{
	struct meter m = { 0, UINT64_MAX };

	return equal_at(a, b, 0, &m);
}

int cel_equal_metered(const struct cel_value *a, const struct cel_value *b,
		      uint64_t *steps, uint64_t limit)
{
	struct meter m = { *steps, limit };
	int r = equal_at(a, b, 0, &m);

	*steps = m.steps;
	return r;
}

static void put_value(struct kvet_strbuf *sb, const struct cel_value *v,
		      bool quote, int depth)
{
	char num[64];
	size_t i, n;

	if (depth > CEL_MAX_VALUE_DEPTH) {
		kvet_strbuf_adds(sb, "...");
		return;
	}
	switch ((enum cel_type)v->type) {
	case CEL_NULL:
		kvet_strbuf_adds(sb, "null");
		return;
	case CEL_BOOL:
		kvet_strbuf_adds(sb, v->u.b ? "true" : "false");
		return;
	case CEL_INT:
		snprintf(num, sizeof(num), "%" PRId64, v->u.i);
		kvet_strbuf_adds(sb, num);
		return;
	case CEL_DOUBLE:
		snprintf(num, sizeof(num), "%g", v->u.d);
		kvet_strbuf_adds(sb, num);
		return;
	case CEL_STRING:
		if (quote)
			kvet_strbuf_adds(sb, "\"");
		kvet_strbuf_add(sb, v->u.s, v->len);
		if (quote)
			kvet_strbuf_adds(sb, "\"");
		return;
	case CEL_ERROR:
		kvet_strbuf_adds(sb, "<error: ");
		kvet_strbuf_adds(sb, v->u.s);
		kvet_strbuf_adds(sb, ">");
		return;
	case CEL_LIST:
		kvet_strbuf_adds(sb, "[");
		for (i = 0, n = cel_len(v); i < n; i++) {
			struct cel_value x = cel_list_at(v, i);

			if (i)
				kvet_strbuf_adds(sb, ", ");
			put_value(sb, &x, true, depth + 1);
		}
		kvet_strbuf_adds(sb, "]");
		return;
	case CEL_MAP:
		kvet_strbuf_adds(sb, "{");
		for (i = 0, n = cel_len(v); i < n; i++) {
			struct cel_value k = cel_map_key_at(v, i), x;

			if (i)
				kvet_strbuf_adds(sb, ", ");
			put_value(sb, &k, true, depth + 1);
			kvet_strbuf_adds(sb, ": ");
			if (cel_map_find(v, &k, &x))
				put_value(sb, &x, true, depth + 1);
		}
		kvet_strbuf_adds(sb, "}");
		return;
	}
}

/* The decimal text of @i, as "%" PRId64 writes it, in @arena: an int is
 * the value messages print most (counts), and printf is most of the
 * cost of printing one. */
static char *int_text(struct kvet_arena *arena, int64_t i)
{
	char buf[24], *p = buf + sizeof(buf), *s;
	uint64_t u = i < 0 ? 0 - (uint64_t)i : (uint64_t)i;
	size_t len;

	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (i < 0)
		*--p = '-';
	len = (size_t)(buf + sizeof(buf) - p);
	s = kvet_arena_alloc(arena, len + 1);
	if (s) {
		memcpy(s, p, len);
		s[len] = '\0';
	}
	return s;
}

char *cel_to_text(struct kvet_arena *arena, const struct cel_value *v)
{
	struct kvet_strbuf sb = KVET_STRBUF_INIT;

	if (v->type == CEL_INT)
		return int_text(arena, v->u.i);

	put_value(&sb, v, false, 0);
	return kvet_strbuf_to_arena(&sb, arena);
}
