/* SPDX-License-Identifier: Apache-2.0 */
#include "load/strict.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "load/load.h"

void kvet_strict_errorf(struct kvet_strict *s, const struct kvet_node *n,
			const char *fmt, ...)
{
	va_list ap;

	s->failed = true;
	va_start(ap, fmt);
	kvet_diag_vaddf(s->diag, s->file, n ? n->line : 1, n ? n->col : 1, fmt,
			ap);
	va_end(ap);
}

bool kvet_strict_map(struct kvet_strict *s, const struct kvet_node *map,
		     const char *what, const char *const *allowed)
{
	char expected[512];
	size_t used = 0, k;
	uint32_t i;
	bool ok = true;

	if (!kvet_node_is_map(map)) {
		kvet_strict_errorf(s, map, "%s must be a mapping, not a %s", what,
				   kvet_node_type_name(map ? map->type
							   : KVET_NODE_NULL));
		return false;
	}
	expected[0] = '\0';
	for (k = 0; allowed[k] && used < sizeof(expected); k++)
		used += (size_t)snprintf(expected + used, sizeof(expected) - used,
					 "%s%s", k ? ", " : "", allowed[k]);
	for (i = 0; i < map->len; i++) {
		const struct kvet_node *key = &map->u.pairs[i].key;
		bool known = false;

		for (k = 0; allowed[k] && !known; k++)
			known = kvet_node_text_eq(key, allowed[k]);
		if (!known) {
			kvet_strict_errorf(s, key,
					   "unknown key \"%.*s\" in %s (expected %s)",
					   (int)key->len, key->u.str, what,
					   expected);
			ok = false;
		}
	}
	return ok;
}

const char *kvet_strict_string(struct kvet_strict *s,
			       const struct kvet_node *n, const char *what)
{
	const char *copy;

	if (!kvet_node_is_scalar(n) || n->type == KVET_NODE_NULL) {
		kvet_strict_errorf(s, n, "%s must be a string, not a %s", what,
				   kvet_node_type_name(n ? n->type
							 : KVET_NODE_NULL));
		return NULL;
	}
	/* a plain 1.0 or true is as good as "1.0" for a name or a value */
	copy = kvet_arena_strndup(s->arena, n->u.str, n->len);
	if (!copy)
		kvet_strict_errorf(s, n, "out of memory");
	return copy;
}

bool kvet_strict_bool(struct kvet_strict *s, const struct kvet_node *n,
		      const char *what, bool *out)
{
	if (!n || n->type != KVET_NODE_BOOL) {
		kvet_strict_errorf(s, n, "%s must be true or false", what);
		return false;
	}
	*out = n->u.str[0] == 't' || n->u.str[0] == 'T' ||
	       n->u.str[0] == 'y' || n->u.str[0] == 'Y' ||
	       (n->len == 2 && (n->u.str[1] == 'n' || n->u.str[1] == 'N'));
	return true;
}

bool kvet_strict_strings(struct kvet_strict *s, const struct kvet_node *n,
			 const char *what, const char **out[], size_t *nout)
{
	const char **v;
	uint32_t i;

	if (!kvet_node_is_seq(n)) {
		kvet_strict_errorf(s, n, "%s must be a list of strings", what);
		return false;
	}
	v = kvet_arena_array(s->arena, n->len + 1, sizeof(*v));
	if (!v) {
		kvet_strict_errorf(s, n, "out of memory");
		return false;
	}
	for (i = 0; i < n->len; i++) {
		v[i] = kvet_strict_string(s, &n->u.items[i], what);
		if (!v[i])
			return false;
	}
	*out = v;
	*nout = n->len;
	return true;
}

const struct kvet_node *kvet_strict_load(struct kvet_strict *s,
					 const char *path)
{
	static const struct kvet_node empty = { .type = KVET_NODE_NULL,
						.line = 1, .col = 1 };
	struct kvet_docs docs = { 0 };
	const struct kvet_node *root = NULL;
	size_t len = 0, cap = 4096, errors = s->diag->n;
	char *buf = kvet_arena_alloc(s->arena, cap + 1), *more;
	FILE *fp = fopen(path, "rb");

	if (!fp) {
		s->failed = true;
		kvet_diag_addf(s->diag, s->file, 0, 0, "cannot open: %s",
			       strerror(errno));
		return NULL;
	}
	while (buf) {
		size_t got = fread(buf + len, 1, cap - len, fp);

		len += got;
		if (len < cap)
			break;
		more = kvet_arena_alloc(s->arena, cap * 2 + 1);

		if (more)
			memcpy(more, buf, len);
		buf = more;
		cap *= 2;
	}
	if (!buf || ferror(fp)) {
		fclose(fp);
		s->failed = true;
		kvet_diag_addf(s->diag, s->file, 0, 0, "cannot read: %s",
			       buf ? strerror(errno) : "out of memory");
		return NULL;
	}
	fclose(fp);
	buf[len] = '\0';
	if (len == 0)
		return &empty;
	if (kvet_load_buffer(s->arena, s->diag, s->file, buf, len, &docs) < 0 ||
	    s->diag->n > errors) {
		s->failed = true;
		goto out;
	}
	if (docs.n > 1) {
		kvet_strict_errorf(s, docs.v[1].root, "more than one document");
		goto out;
	}
	/* an empty or comment-only file is an empty document */
	root = docs.n ? docs.v[0].root : &empty;
out:
	kvet_docs_release(&docs);
	return root;
}
