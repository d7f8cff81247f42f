/* SPDX-License-Identifier: Apache-2.0 */
#include "load/field_path.h"

#include <stdbool.h>
#include <string.h>

#include "base/strbuf.h"

/* Does @n start at or before @line:@col? */
static bool starts_by(const struct kvet_node *n, uint32_t line, uint32_t col)
{
	return n->line < line || (n->line == line && n->col <= col);
}

/* Is @a later than @b in the input? */
static bool later(const struct kvet_node *a, const struct kvet_node *b)
{
	return a->line > b->line || (a->line == b->line && a->col > b->col);
}

/* Plain keys go as they are; any other in double quotes, so that no two
 * paths read alike ("a.b" the key, a.b two levels). */
static bool plain(const char *s, size_t len)
{
	size_t i;

	if (!len)
		return false;
	for (i = 0; i < len; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '-'))
			return false;
	}
	return true;
}

static void add_quoted(struct kvet_strbuf *sb, const char *s, size_t len)
{
	size_t i;

	kvet_strbuf_add(sb, "\"", 1);
	for (i = 0; i < len; i++) {
		if (s[i] == '"' || s[i] == '\\')
			kvet_strbuf_add(sb, "\\", 1);
		kvet_strbuf_add(sb, &s[i], 1);
	}
	kvet_strbuf_add(sb, "\"", 1);
}

static void add_key(struct kvet_strbuf *sb, const struct kvet_node *key)
{
	if (plain(key->u.str, key->len)) {
		if (sb->len)
			kvet_strbuf_add(sb, ".", 1);
		kvet_strbuf_add(sb, key->u.str, key->len);
		return;
	}
	kvet_strbuf_add(sb, "[", 1);
	add_quoted(sb, key->u.str, key->len);
	kvet_strbuf_add(sb, "]", 1);
}

static void add_item(struct kvet_strbuf *sb, const struct kvet_node *item,
		     size_t index)
{
	const struct kvet_node *name = kvet_node_get(item, "name");

	if (!kvet_node_is_scalar(name) || !name->len) {
		kvet_strbuf_addf(sb, "[%zu]", index);
		return;
	}
	kvet_strbuf_add(sb, "[name=", 6);
	if (plain(name->u.str, name->len))
		kvet_strbuf_add(sb, name->u.str, name->len);
	else
		add_quoted(sb, name->u.str, name->len);
	kvet_strbuf_add(sb, "]", 1);
}

/*
 * One step down from @n towards @at: the child that is @at, else the
 * latest child that starts by @at's position (children of a mapping are
 * entered by their key). Appends the step to @sb and returns the child,
 * or NULL when no child can hold @at.
 */
static const struct kvet_node *step(struct kvet_strbuf *sb,
				    const struct kvet_node *n,
				    const struct kvet_node *at)
{
	const struct kvet_node *best = NULL, *best_start = NULL;
	size_t i, best_i = 0;

	for (i = 0; i < n->len; i++) {
		const struct kvet_node *child, *start;

		if (n->type == KVET_NODE_MAP) {
			child = &n->u.pairs[i].value;
			start = &n->u.pairs[i].key;
			if (child == at || start == at) {
				/* a key stands for its field */
				add_key(sb, start);
				return at;
			}
		} else {
			child = start = &n->u.items[i];
			if (child == at) {
				best = child;
				best_i = i;
				break;
			}
		}
		if (starts_by(start, at->line, at->col) &&
		    (!best_start || later(start, best_start))) {
			best = child;
			best_start = start;
			best_i = i;
		}
	}
	if (!best)
		return NULL;
	if (n->type == KVET_NODE_MAP)
		add_key(sb, &n->u.pairs[best_i].key);
	else
		add_item(sb, best, best_i);
	return best;
}

const char *kvet_node_field_path(struct kvet_arena *arena,
				 const struct kvet_node *root,
				 const struct kvet_node *at)
{
	struct kvet_strbuf sb = KVET_STRBUF_INIT;
	const struct kvet_node *n = root;

	if (!at || !root || at == root)
		return "";
	while (n && n != at &&
	       (n->type == KVET_NODE_MAP || n->type == KVET_NODE_SEQ))
		n = step(&sb, n, at);
	if (n != at) {
		kvet_strbuf_release(&sb);
		return "";
	}
	/* at least one step was taken: NULL is memory that ran out */
	return kvet_strbuf_to_arena(&sb, arena);
}
