/* SPDX-License-Identifier: Apache-2.0 */
#include "load/node.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const struct kvet_node *kvet_node_getn(const struct kvet_node *map,
				       const char *key, size_t keylen)
{
	uint32_t i;

	if (!kvet_node_is_map(map))
		return NULL;
	for (i = 0; i < map->len; i++) {
		const struct kvet_node *k = &map->u.pairs[i].key;

		if (k->len == keylen && memcmp(k->u.str, key, keylen) == 0)
			return &map->u.pairs[i].value;
	}
	return NULL;
}

const struct kvet_pair *kvet_node_get_pair(const struct kvet_node *map,
					   const char *key)
{
	const struct kvet_node *v = kvet_node_get(map, key);

	/* value is the second member: step back to the pair */
	return v ? (const struct kvet_pair *)((const char *)v -
					      offsetof(struct kvet_pair, value))
		 : NULL;
}

const struct kvet_node *kvet_node_path(const struct kvet_node *n, ...)
{
	const char *key;
	va_list ap;

	va_start(ap, n);
	while (n && (key = va_arg(ap, const char *)) != NULL)
		n = kvet_node_get(n, key);
	va_end(ap);
	return n;
}

bool kvet_node_text_eq(const struct kvet_node *n, const char *s)
{
	size_t len;

	if (!kvet_node_is_scalar(n))
		return false;
	len = strlen(s);
	return n->len == len && memcmp(n->u.str, s, len) == 0;
}

bool kvet_node_eq(const struct kvet_node *n, const char *s)
{
	return kvet_node_is_string(n) && kvet_node_text_eq(n, s);
}

bool kvet_node_true(const struct kvet_node *n)
{
	static const char *const yes[] = {
		"true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON",
		"y", "Y",
	};
	size_t i;

	if (!n || n->type != KVET_NODE_BOOL)
		return false;
	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		if (kvet_node_text_eq(n, yes[i]))
			return true;
	return false;
}

bool kvet_node_int(const struct kvet_node *n, long long *out)
{
	char buf[64];
	char *end;
	long long v;
	size_t i, j = 0;
	int base = 10;

	if (!n || n->type != KVET_NODE_INT || n->len >= sizeof(buf))
		return false;
	for (i = 0; i < n->len; i++)
		if (n->u.str[i] != '_')
			buf[j++] = n->u.str[i];
	buf[j] = '\0';
	i = (buf[0] == '-' || buf[0] == '+') ? 1 : 0;
	if (buf[i] == '0' && (buf[i + 1] == 'x' || buf[i + 1] == 'X'))
		base = 16;
	else if (buf[i] == '0' && buf[i + 1] == 'o')
		base = 8;
	if (base != 10) {
		/* strtoll wants "0x"; "0o" needs the prefix dropped */
		if (base == 8)
			memmove(buf + i, buf + i + 2, j - i - 1);
	}
	/* "", "-" and "0x" have no digits: strtoll would read them as 0 */
	if (!buf[i] || (base != 10 && !buf[i + (base == 16 ? 2 : 0)]))
		return false;
	errno = 0;
	v = strtoll(buf, &end, base);
	if (errno || *end || end == buf + i)
		return false;
	*out = v;
	return true;
}

bool kvet_node_int32(const struct kvet_node *n, long long *out)
{
	long long v;

	if (!kvet_node_int(n, &v) || v < INT32_MIN || v > INT32_MAX)
		return false;
	*out = v;
	return true;
}

void kvet_node_invalidate(const struct kvet_node *n)
{
	struct kvet_node *w = (struct kvet_node *)n;

	if (w->flags & KVET_NODE_INVALID)
		return;
	w->invalid_type = w->type;
	w->type = KVET_NODE_NULL;
	w->flags |= KVET_NODE_INVALID;
}

static bool all_digits(const char *s, size_t len, bool hex)
{
	size_t i;

	if (!len)
		return false;
	for (i = 0; i < len; i++) {
		char c = s[i];

		if (c >= '0' && c <= '9')
			continue;
		if (hex && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')))
			continue;
		return false;
	}
	return true;
}

static bool is_float(const char *s, size_t len)
{
	size_t i = 0, digits = 0;

	if (i < len && (s[i] == '-' || s[i] == '+'))
		i++;
	while (i < len && s[i] >= '0' && s[i] <= '9')
		i++, digits++;
	if (i < len && s[i] == '.') {
		i++;
		while (i < len && s[i] >= '0' && s[i] <= '9')
			i++, digits++;
	}
	if (!digits)
		return false;
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		size_t exp = 0;

		i++;
		if (i < len && (s[i] == '-' || s[i] == '+'))
			i++;
		while (i < len && s[i] >= '0' && s[i] <= '9')
			i++, exp++;
		if (!exp)
			return false;
	}
	return i == len;
}

#define TEXT_IS(lit) (len == sizeof(lit) - 1 && memcmp(s, lit, len) == 0)

/*
 * Kubernetes decodes YAML with sigs.k8s.io/yaml (go-yaml), which resolves
 * plain scalars by the YAML 1.2 core schema plus the YAML 1.1 booleans
 * (yes/no/on/off): "replicas: on" is a boolean there, so it is here.
 */
enum kvet_node_type kvet_scalar_type(const char *s, size_t len)
{
	size_t sign;

	if (len == 0 || TEXT_IS("~") || TEXT_IS("null") || TEXT_IS("Null") ||
	    TEXT_IS("NULL"))
		return KVET_NODE_NULL;
	if (TEXT_IS("true") || TEXT_IS("True") || TEXT_IS("TRUE") ||
	    TEXT_IS("false") || TEXT_IS("False") || TEXT_IS("FALSE") ||
	    TEXT_IS("yes") || TEXT_IS("Yes") || TEXT_IS("YES") ||
	    TEXT_IS("no") || TEXT_IS("No") || TEXT_IS("NO") ||
	    TEXT_IS("on") || TEXT_IS("On") || TEXT_IS("ON") ||
	    TEXT_IS("off") || TEXT_IS("Off") || TEXT_IS("OFF") ||
	    TEXT_IS("y") || TEXT_IS("Y") || TEXT_IS("n") || TEXT_IS("N"))
		return KVET_NODE_BOOL;
	sign = (s[0] == '-' || s[0] == '+') ? 1 : 0;
	if (all_digits(s + sign, len - sign, false))
		return KVET_NODE_INT;
	if (len > 2 + sign && s[sign] == '0' && s[sign + 1] == 'x' &&
	    all_digits(s + sign + 2, len - sign - 2, true))
		return KVET_NODE_INT;
	if (len > 2 && s[0] == '0' && s[1] == 'o' &&
	    all_digits(s + 2, len - 2, false))
		return KVET_NODE_INT;
	if (is_float(s, len) || TEXT_IS(".inf") || TEXT_IS("-.inf") ||
	    TEXT_IS("+.inf") || TEXT_IS(".Inf") || TEXT_IS("-.Inf") ||
	    TEXT_IS(".nan") || TEXT_IS(".NaN") || TEXT_IS(".NAN"))
		return KVET_NODE_FLOAT;
	return KVET_NODE_STRING;
}

const char *kvet_node_type_name(enum kvet_node_type type)
{
	static const char *const names[] = {
		[KVET_NODE_NULL] = "null",	[KVET_NODE_BOOL] = "boolean",
		[KVET_NODE_INT] = "integer",	[KVET_NODE_FLOAT] = "number",
		[KVET_NODE_STRING] = "string",	[KVET_NODE_MAP] = "mapping",
		[KVET_NODE_SEQ] = "sequence",
	};

	return (unsigned)type < sizeof(names) / sizeof(names[0]) ? names[type]
								 : "?";
}

const char *kvet_node_type_a(enum kvet_node_type type)
{
	static const char *const names[] = {
		[KVET_NODE_NULL] = "null",	  [KVET_NODE_BOOL] = "a boolean",
		[KVET_NODE_INT] = "an integer",	  [KVET_NODE_FLOAT] = "a number",
		[KVET_NODE_STRING] = "a string",  [KVET_NODE_MAP] = "a mapping",
		[KVET_NODE_SEQ] = "a sequence",
	};

	return (unsigned)type < sizeof(names) / sizeof(names[0]) ? names[type]
								 : "?";
}

/* The fields that make two nodes the same, children aside. */
static bool node_fields_same(const struct kvet_node *a,
			     const struct kvet_node *b)
{
	if (a->type != b->type || a->flags != b->flags ||
	    a->invalid_type != b->invalid_type || a->line != b->line ||
	    a->col != b->col || a->len != b->len)
		return false;
	return a->type >= KVET_NODE_MAP || a->len == 0 ||
	       memcmp(a->u.str, b->u.str, a->len) == 0;
}

bool kvet_node_same(const struct kvet_node *a, const struct kvet_node *b,
		    const struct kvet_node **where)
{
	const struct kvet_node **stack = NULL, **grown;
	size_t n = 0, cap = 0;
	bool same = true;

	*where = NULL;
	for (;;) {
		uint32_t i;

		if (!node_fields_same(a, b)) {
			*where = a;
			same = false;
			break;
		}
		if (a->type >= KVET_NODE_MAP && a->len) {
			size_t need = n + 4 * (size_t)a->len;

			if (need > cap) {
				cap = need * 2;
				grown = realloc(stack, cap * sizeof(*stack));
				if (!grown) {
					same = false;
					break;
				}
				stack = grown;
			}
			for (i = 0; i < a->len; i++) {
				if (a->type == KVET_NODE_SEQ) {
					stack[n++] = &a->u.items[i];
					stack[n++] = &b->u.items[i];
					continue;
				}
				stack[n++] = &a->u.pairs[i].key;
				stack[n++] = &b->u.pairs[i].key;
				stack[n++] = &a->u.pairs[i].value;
				stack[n++] = &b->u.pairs[i].value;
			}
		}
		if (!n)
			break;
		b = stack[--n];
		a = stack[--n];
	}
	free(stack);
	return same;
}
