/* SPDX-License-Identifier: Apache-2.0 */
#include "load/strict.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/read_file.h"

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
		kvet_strict_errorf(s, map, "%s must be a mapping, not %s", what,
				   kvet_node_type_a(map ? map->type
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

const struct kvet_node *kvet_strict_required(struct kvet_strict *s,
					     const struct kvet_node *map,
					     const char *key, const char *what)
{
	const struct kvet_node *n = kvet_node_get(map, key);

	if (!n)
		kvet_strict_errorf(s, map, "missing key \"%s\" in %s", key,
				   what);
	return n;
}

const char *kvet_strict_string(struct kvet_strict *s,
			       const struct kvet_node *n, const char *what)
{
	const char *copy;

	if (!kvet_node_is_scalar(n) || n->type == KVET_NODE_NULL) {
		kvet_strict_errorf(s, n, "%s must be a string, not %s", what,
				   kvet_node_type_a(n ? n->type
							 : KVET_NODE_NULL));
		return NULL;
	}
	/* a plain 1.0 or true is as good as "1.0" for a name or a value */
	copy = kvet_arena_strndup(s->arena, n->u.str, n->len);
	if (!copy)
		kvet_strict_errorf(s, n, "out of memory");
	return copy;
}

const char *kvet_strict_required_string(struct kvet_strict *s,
					const struct kvet_node *map,
					const char *key, const char *what)
{
	const struct kvet_node *n = kvet_strict_required(s, map, key, what);

	return n ? kvet_strict_string(s, n, key) : NULL;
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

/* Report why @path could not be read; the file names itself. */
static void read_error(struct kvet_strict *s, enum kvet_file_status st,
		       const struct kvet_file *f, size_t limit,
		       const char *what)
{
	s->failed = true;
	switch (st) {
	case KVET_FILE_OK:
		break;
	case KVET_FILE_CANNOT_OPEN:
		kvet_diag_addf(s->diag, s->file, 0, 0, "cannot open: %s",
			       strerror(f->err));
		break;
	case KVET_FILE_CANNOT_READ:
		kvet_diag_addf(s->diag, s->file, 0, 0, "cannot read: %s",
			       strerror(f->err));
		break;
	case KVET_FILE_NO_MEMORY:
		kvet_diag_addf(s->diag, s->file, 0, 0, "cannot read: %s",
			       strerror(ENOMEM));
		break;
	case KVET_FILE_TOO_LARGE:
		kvet_diag_addf(s->diag, s->file, f->line, f->column,
			       "%s larger than its limit of %zu MiB: reading stopped here",
			       what, limit / (1024 * 1024));
		break;
	case KVET_FILE_NO_WRITER:
		kvet_diag_addf(s->diag, s->file, 0, 0,
			       "nothing to read: no process has this FIFO open for writing");
		break;
	}
}

const struct kvet_node *kvet_strict_load(struct kvet_strict *s,
					 const char *path, size_t limit,
					 const char *what)
{
	static const struct kvet_node empty = { .type = KVET_NODE_NULL,
						.line = 1, .col = 1 };
	struct kvet_docs docs = { 0 };
	const struct kvet_node *root = NULL;
	size_t errors = s->diag->n;
	enum kvet_file_status st;
	struct kvet_file f;
	char *buf;

	st = kvet_file_read(path, limit, &f);
	if (st != KVET_FILE_OK) {
		read_error(s, st, &f, limit, what);
		return NULL;
	}
	/* the tree points into the text: it lives as long as the tree */
	buf = kvet_arena_strndup(s->arena, f.buf, f.len);
	free(f.buf);
	if (!buf) {
		read_error(s, KVET_FILE_NO_MEMORY, &f, limit, what);
		return NULL;
	}
	if (f.len == 0)
		return &empty;
	if (kvet_load_buffer(s->arena, s->diag, s->file, buf, f.len,
			     &docs) < 0 ||
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
