/* SPDX-License-Identifier: Apache-2.0 */
#include "load/build.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sat.h"
#include "base/vec.h"
#include "load/fytext.h"
#include "load/quoted.h"

struct kvet_build_frame {
	uint8_t type;		/* KVET_NODE_MAP or KVET_NODE_SEQ */
	uint8_t flags;
	uint32_t line, col;
	size_t start;		/* first child on the scratch stack */
	size_t anchor;		/* index + 1 into the anchor table, or 0 */
	uint64_t weight;	/* nodes this collection expands to */
	uint8_t role;		/* enum kvet_build_role */
};

struct kvet_build_anchor {
	const char *name;
	size_t len;
	struct kvet_node node;
	uint64_t weight;
	bool done;		/* false while the collection is still open */
};

void kvet_build_mark(const struct kvet_builder *b, const struct fy_mark *m,
		     uint32_t *line, uint32_t *col, size_t *pos)
{
	if (!m || m->line < 0) {
		/* an empty value ("replicas: ") has no mark: a piece puts it
		 * where the whole parse of a clean input does */
		*line = b->nomark_line ? b->nomark_line : b->base_line;
		*col = 1;
		if (pos)
			*pos = b->base_pos;
		return;
	}
	*line = b->base_line + (uint32_t)m->line;
	*col = (uint32_t)m->column + 1 + (m->line == 0 ? b->base_col : 0);
	if (pos)
		*pos = b->base_pos + m->input_pos;
}

/* The string value of @key among the completed pairs kv[0, 2 * n). */
static const struct kvet_node *pair_value(const struct kvet_node *kv,
					  size_t n, const char *key)
{
	size_t i, len = strlen(key);

	for (i = 0; i < n; i++)
		if (kv[2 * i].len == len &&
		    memcmp(kv[2 * i].u.str, key, len) == 0)
			return kvet_node_is_string(&kv[2 * i + 1])
				       ? &kv[2 * i + 1]
				       : NULL;
	return NULL;
}

/*
 * What the document being built was, as far as it was read: its kind and
 * metadata.name when they came before the problem. The root mapping's
 * finished pairs are at the bottom of the scratch stack (a document starts
 * with it empty), up to the first child of the next open collection, or
 * of the collection being closed (b->closing).
 */
void kvet_build_lost(const struct kvet_builder *b, char *buf, size_t size)
{
	const struct kvet_node *kind = NULL, *name = NULL, *meta = NULL;
	size_t inner = b->closing ? b->closing_start : b->nscratch;
	size_t top = b->depth >= 2 ? b->frames[1].start : inner, end, i;

	buf[0] = '\0';
	if (!b->in_doc || b->root_type != KVET_NODE_MAP)
		return;
	if (!b->depth && b->nscratch == 1) {
		/* the root is finished */
		kind = kvet_node_get(&b->scratch[0], "kind");
		name = kvet_node_path(&b->scratch[0], "metadata", "name", NULL);
	} else {
		kind = pair_value(b->scratch, top / 2, "kind");
		for (i = 0; i + 1 < top; i += 2)
			if (kvet_node_text_eq(&b->scratch[i], "metadata"))
				meta = &b->scratch[i + 1];
		name = kvet_node_get(meta, "name");
		/* metadata is the mapping being built: its finished pairs */
		if (!meta && top % 2 && kvet_node_text_eq(&b->scratch[top - 1],
							  "metadata")) {
			end = b->depth >= 3 ? b->frames[2].start
			    : b->depth == 2 ? inner : b->nscratch;
			if (b->depth == 1 && !b->closing)
				end = top;
			name = pair_value(&b->scratch[top], (end - top) / 2,
					  "name");
		}
	}
	kvet_build_describe(kind, name, buf, size);
}

void kvet_build_describe(const struct kvet_node *kind,
			 const struct kvet_node *name, char *buf, size_t size)
{
	buf[0] = '\0';
	if (!kvet_node_is_string(kind))
		kind = NULL;
	if (!kvet_node_is_string(name))
		name = NULL;
	if (kind && name)
		snprintf(buf, size, " (%.*s \"%.*s\")", (int)kind->len,
			 kind->u.str, (int)name->len, name->u.str);
	else if (kind || name)
		snprintf(buf, size, " (%s%.*s%s)", kind ? "" : "named \"",
			 (int)(kind ? kind->len : name->len),
			 kind ? kind->u.str : name->u.str, kind ? "" : "\"");
}

void kvet_build_fail(struct kvet_builder *b, uint32_t line, uint32_t col,
		     const char *fmt, ...)
{
	char msg[512], lost[256];
	va_list ap;

	if (b->doc_failed)
		return;
	b->doc_failed = true;
	if (b->diag->limit && b->diag->n >= b->diag->limit) {
		b->diag->dropped++;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	kvet_build_lost(b, lost, sizeof(lost));
	kvet_diag_addf(b->diag, b->name, line, col,
		       "%s: document %u%s not loaded", msg, b->doc_index + 1,
		       lost);
}

static bool push_child(struct kvet_builder *b, const struct kvet_node *n,
		       uint64_t weight)
{
	if (b->nscratch == b->capscratch) {
		size_t cap = b->capscratch;
		uint64_t *w;

		if (!kvet_vec_grow((void **)&b->scratch, &b->capscratch,
			  b->nscratch + 1, sizeof(*b->scratch))) {
			b->oom = true;
			return false;
		}
		/* the weights vector keeps the scratch stack's capacity */
		w = realloc(b->weights, b->capscratch * sizeof(*b->weights));
		if (!w) {
			b->capscratch = cap;
			b->oom = true;
			return false;
		}
		b->weights = w;
	}
	b->scratch[b->nscratch] = *n;
	b->weights[b->nscratch] = weight;
	b->nscratch++;
	return true;
}

/* True when the next child of the open mapping is a key. */
static bool expecting_key(const struct kvet_builder *b)
{
	const struct kvet_build_frame *f;

	if (!b->depth)
		return false;
	f = &b->frames[b->depth - 1];
	return f->type == KVET_NODE_MAP && (b->nscratch - f->start) % 2 == 0;
}

/* The key whose value comes next, when the open collection is a map. */
static const struct kvet_node *pending_key(const struct kvet_builder *b)
{
	const struct kvet_build_frame *f;

	if (!b->depth)
		return NULL;
	f = &b->frames[b->depth - 1];
	if (f->type != KVET_NODE_MAP || (b->nscratch - f->start) % 2 == 0)
		return NULL;
	return &b->scratch[b->nscratch - 1];
}

static bool key_is(const struct kvet_node *k, const char *s)
{
	size_t len = strlen(s);

	return k && k->len == len && memcmp(k->u.str, s, len) == 0;
}

static void add_node(struct kvet_builder *b, const struct kvet_node *n,
		     uint64_t weight)
{
	if (n->type >= KVET_NODE_MAP && expecting_key(b)) {
		kvet_build_fail(b, n->line, n->col,
			 "mapping key is a collection, not a string");
		return;
	}
	if (!b->depth) {
		/* the document's root: published at DOCUMENT_END */
		if (!push_child(b, n, weight))
			return;
		return;
	}
	if (!push_child(b, n, weight))
		return;
	b->frames[b->depth - 1].weight =
		kvet_sat_add_u64(b->frames[b->depth - 1].weight, weight);
}

/*
 * The text of a scalar. A one-line scalar whose text is exactly its bytes
 * in the input (plain, or quoted without escapes) is sliced from the
 * buffer; asking libfyaml for the text would build a copy, which costs
 * an eighth of the load. Other quoted scalars are decoded here
 * (load/quoted.h says why). Everything else is copied into the arena.
 */
static const char *scalar_text(struct kvet_builder *b, struct fy_event *fye,
			       enum fy_scalar_style style, size_t *len)
{
	const struct fy_mark *sm = fy_event_start_mark(fye);
	const struct fy_mark *em = fy_event_end_mark(fye);
	const char *t;
	char *copy;

	if (sm && em && em->input_pos >= sm->input_pos &&
	    (style == FYSS_PLAIN || style == FYSS_DOUBLE_QUOTED ||
	     style == FYSS_SINGLE_QUOTED)) {
		const char *p = b->buf + b->base_pos + sm->input_pos;
		size_t n = em->input_pos - sm->input_pos;
		char esc = style == FYSS_DOUBLE_QUOTED ? '\\' : '\'';

		if (sm->line == em->line &&
		    (style == FYSS_PLAIN || !memchr(p, esc, n))) {
			*len = n;
			return p;
		}
		if (style != FYSS_PLAIN) {
			long got;

			copy = kvet_arena_alloc(b->arena, kvet_quoted_room(n));
			if (!copy) {
				b->oom = true;
				*len = 0;
				return "";
			}
			got = kvet_quoted_text(style == FYSS_DOUBLE_QUOTED, p, n,
					       copy);
			if (got >= 0) {
				*len = (size_t)got;
				return copy;
			}
		}
	}
	if (kvet_fytext(b->arena, fye->scalar.value, &t, len))
		b->oom = true;
	return t;
}

static const struct {
	const char *tag;
	const char *short_tag;
	enum kvet_node_type type;
} core_tags[] = {
	{ "tag:yaml.org,2002:str", "!!str", KVET_NODE_STRING },
	{ "tag:yaml.org,2002:int", "!!int", KVET_NODE_INT },
	{ "tag:yaml.org,2002:float", "!!float", KVET_NODE_FLOAT },
	{ "tag:yaml.org,2002:bool", "!!bool", KVET_NODE_BOOL },
	{ "tag:yaml.org,2002:null", "!!null", KVET_NODE_NULL },
};

/* The core schema tag of a scalar: an index into core_tags, or -1. */
static int core_tag(struct kvet_builder *b, struct fy_token *tag)
{
	size_t i, tlen;
	const char *t;

	if (!tag)
		return -1;
	if (kvet_fytext(b->arena, tag, &t, &tlen))
		b->oom = true;
	for (i = 0; i < sizeof(core_tags) / sizeof(core_tags[0]); i++)
		if (strlen(core_tags[i].tag) == tlen &&
		    memcmp(core_tags[i].tag, t, tlen) == 0)
			return (int)i;
	return -1;
}

/*
 * A tag says how to read the text, it does not change the text: go-yaml
 * (and so kubectl) refuses "!!int ''" or "!!bool maybe" rather than read
 * them as 0 or false. An integer is a valid !!float.
 */
static bool tag_fits(enum kvet_node_type want, const char *s, size_t len)
{
	enum kvet_node_type got = kvet_scalar_type(s, len);

	return want == KVET_NODE_STRING || got == want ||
	       (want == KVET_NODE_FLOAT && got == KVET_NODE_INT);
}

/* The newest definition wins (YAML 1.2 6.9.2): the index keeps it. */
static struct kvet_build_anchor *find_anchor(struct kvet_builder *b,
					     const char *name, size_t len)
{
	struct kvet_keyset_entry *e;

	if (!b->anchor_index.n)
		return NULL;
	e = kvet_keyset_slot(&b->anchor_index, name, len);
	return e->idx ? &b->anchors[e->idx - 1] : NULL;
}

static size_t add_anchor(struct kvet_builder *b, struct fy_token *tok)
{
	struct kvet_build_anchor *a;
	struct kvet_keyset_entry *e;
	const char *name;
	size_t len;

	if (!tok)
		return 0;
	if (kvet_fytext(b->arena, tok, &name, &len)) {
		b->oom = true;
		return 0;
	}
	if (len > UINT32_MAX || !kvet_keyset_reserve(&b->anchor_index) ||
	    !kvet_vec_grow((void **)&b->anchors, &b->capanchors,
			   b->nanchors + 1, sizeof(*b->anchors))) {
		b->oom = true;
		return 0;
	}
	a = &b->anchors[b->nanchors];
	memset(a, 0, sizeof(*a));
	a->name = kvet_arena_strndup(b->arena, name, len);
	a->len = len;
	if (!a->name) {
		b->oom = true;
		return 0;
	}
	b->nanchors++;
	e = kvet_keyset_slot(&b->anchor_index, a->name, len);
	if (!e->idx) {
		e->s = a->name;
		e->len = (uint32_t)len;
		kvet_keyset_added(&b->anchor_index);
	}
	e->idx = (uint32_t)b->nanchors;
	return b->nanchors;
}

void kvet_build_scalar(struct kvet_builder *b, struct fy_event *fye)
{
	struct fy_token *tok = fye->scalar.value;
	struct kvet_node n = { 0 };
	enum fy_scalar_style style;
	size_t pos, anchor;
	const char *s;
	size_t len;
	int tag;

	kvet_build_mark(b, fy_event_start_mark(fye), &n.line, &n.col, &pos);
	if (!b->depth && !b->have_root_pos) {
		b->root_pos = pos;
		b->have_root_pos = true;
	}
	style = fy_token_scalar_style(tok);
	s = scalar_text(b, fye, style, &len);
	/* libfyaml drops a byte order mark at the start of the stream only;
	 * go-yaml, which kubectl runs per document, at the start of each,
	 * as files joined with "---" have them */
	if ((!b->depth || (b->depth == 1 && !b->nscratch)) && len >= 3 &&
	    memcmp(s, "\xef\xbb\xbf", 3) == 0) {
		s += 3;
		len -= 3;
	}
	tag = core_tag(b, fye->scalar.tag);
	if (tag >= 0)
		n.type = (uint8_t)core_tags[tag].type;
	else
		n.type = (uint8_t)(style == FYSS_PLAIN
					   ? kvet_scalar_type(s, len)
					   : KVET_NODE_STRING);
	if (style != FYSS_PLAIN)
		n.flags |= KVET_NODE_QUOTED;
	/* libfyaml's mark of a quoted scalar is inside the quotes; users
	 * expect the column of the value as written */
	if ((style == FYSS_SINGLE_QUOTED || style == FYSS_DOUBLE_QUOTED) &&
	    n.col > 1)
		n.col--;
	if (tag >= 0 && !tag_fits(core_tags[tag].type, s, len)) {
		kvet_build_fail(b, n.line, n.col,
			 "invalid value \"%.*s\" for tag %s",
			 (int)(len > 40 ? 40 : len), s,
			 core_tags[tag].short_tag);
		return;
	}
	if (len > UINT32_MAX) {
		kvet_build_fail(b, n.line, n.col, "scalar longer than 4 GiB");
		return;
	}
	n.len = (uint32_t)len;
	n.u.str = s;
	anchor = add_anchor(b, fye->scalar.anchor);
	if (anchor) {
		b->anchors[anchor - 1].node = n;
		b->anchors[anchor - 1].weight = 1;
		b->anchors[anchor - 1].done = true;
	}
	add_node(b, &n, 1);
}

void kvet_build_alias(struct kvet_builder *b, struct fy_event *fye)
{
	struct kvet_node n;
	struct kvet_build_anchor *a;
	const char *name;
	uint32_t line, col;
	size_t len;

	kvet_build_mark(b, fy_event_start_mark(fye), &line, &col, NULL);
	/* libfyaml's alias mark is on the name; point at the '*' */
	if (col > 1)
		col--;
	if (kvet_fytext(b->arena, fye->alias.anchor, &name, &len)) {
		b->oom = true;
		return;
	}
	a = find_anchor(b, name, len);
	if (!a) {
		kvet_build_fail(b, line, col, "alias \"*%.*s\" refers to no anchor",
			 (int)len, name);
		return;
	}
	if (!a->done) {
		kvet_build_fail(b, line, col,
			 "recursive alias: \"*%.*s\" is inside the node it refers to",
			 (int)len, name);
		return;
	}
	/* The alias shares the anchored subtree; only the budget sees the
	 * expansion, so a billion laughs costs a few nodes, then an error. */
	b->doc_alias_weight = kvet_sat_add_u64(b->doc_alias_weight, a->weight);
	if (b->doc_alias_weight > KVET_LOAD_MAX_ALIAS_EXPANSION) {
		kvet_build_fail(b, line, col,
			 "aliases expand this document past the limit of %d nodes (\"*%.*s\")",
			 KVET_LOAD_MAX_ALIAS_EXPANSION, (int)len, name);
		return;
	}
	n = a->node;
	n.line = line;
	n.col = col;
	add_node(b, &n, a->weight);
}

uint8_t kvet_build_role(uint8_t parent, bool root,
			const struct kvet_node *key, uint8_t type)
{
	if (root)
		return type == KVET_NODE_MAP ? KVET_ROLE_OBJECT
					     : KVET_ROLE_ITEMS;
	if (parent == KVET_ROLE_ITEMS)
		return type == KVET_NODE_MAP ? KVET_ROLE_OBJECT
					     : KVET_ROLE_NONE;
	if (parent != KVET_ROLE_OBJECT)
		return KVET_ROLE_NONE;
	if (type == KVET_NODE_SEQ && key_is(key, "items"))
		return KVET_ROLE_ITEMS;
	if (type == KVET_NODE_MAP && key_is(key, "metadata"))
		return KVET_ROLE_METADATA;
	return KVET_ROLE_NONE;
}

bool kvet_build_drops(uint8_t parent, const struct kvet_node *key)
{
	return parent == KVET_ROLE_METADATA && key_is(key, "managedFields");
}

void kvet_build_open(struct kvet_builder *b, struct fy_event *fye,
		     uint8_t type)
{
	const struct kvet_node *key = pending_key(b);
	struct fy_token *anchor_tok, *start_tok;
	struct kvet_build_frame *f;
	uint32_t line, col;
	size_t pos;

	if (type == KVET_NODE_MAP) {
		anchor_tok = fye->mapping_start.anchor;
		start_tok = fye->mapping_start.mapping_start;
	} else {
		anchor_tok = fye->sequence_start.anchor;
		start_tok = fye->sequence_start.sequence_start;
	}
	kvet_build_mark(b, fy_event_start_mark(fye), &line, &col, &pos);
	if (!b->depth && !b->have_root_pos) {
		b->root_pos = pos;
		b->have_root_pos = true;
	}
	if (b->depth && kvet_build_drops(b->frames[b->depth - 1].role, key)) {
		b->nscratch--;
		b->skip_depth = 1;
		return;
	}
	if (expecting_key(b)) {
		kvet_build_fail(b, line, col, "mapping key is a collection, not a string");
		return;
	}
	if (b->depth >= KVET_LOAD_MAX_DEPTH) {
		kvet_build_fail(b, line, col, "nesting deeper than %d levels",
			 KVET_LOAD_MAX_DEPTH);
		return;
	}
	if (!kvet_vec_grow((void **)&b->frames, &b->capframes, b->depth + 1,
		  sizeof(*b->frames))) {
		b->oom = true;
		return;
	}
	f = &b->frames[b->depth++];
	memset(f, 0, sizeof(*f));
	f->type = type;
	f->line = line;
	f->col = col;
	f->start = b->nscratch;
	f->weight = 1;
	/* an explicit start token means '{' or '[': flow style */
	if (start_tok && fy_token_get_type(start_tok) != FYTT_BLOCK_MAPPING_START &&
	    fy_token_get_type(start_tok) != FYTT_BLOCK_SEQUENCE_START)
		f->flags |= KVET_NODE_FLOW;
	if (b->depth == 1) {
		b->root_type = type;
		b->root_flow = f->flags & KVET_NODE_FLOW;
	}
	f->role = kvet_build_role(b->depth >= 2 ? b->frames[b->depth - 2].role
						: KVET_ROLE_NONE,
				  b->depth == 1, key, type);
	f->anchor = add_anchor(b, anchor_tok);
}

void kvet_build_close(struct kvet_builder *b)
{
	struct kvet_node n = { 0 };
	struct kvet_build_frame f;
	size_t count;

	if (!b->depth)
		return;
	f = b->frames[--b->depth];
	count = b->nscratch - f.start;
	n.type = f.type;
	n.flags = f.flags;
	n.line = f.line;
	n.col = f.col;
	if (!b->doc_failed) {
		if (count > UINT32_MAX) {
			kvet_build_fail(b, f.line, f.col,
				 "collection with more than 4294967295 entries");
		} else if (f.type == KVET_NODE_MAP) {
			b->closing = true;
			b->closing_start = f.start;
			/* an empty mapping may come before anything was
			 * ever pushed */
			kvet_build_map(b, count / 2,
				       count ? &b->scratch[f.start] : NULL, &n);
			b->closing = false;
		} else {
			struct kvet_node *items =
				kvet_arena_array(b->arena, count, sizeof(*items));

			if (!items && count)
				b->oom = true;
			else if (count)
				memcpy(items, &b->scratch[f.start],
				       count * sizeof(*items));
			n.len = (uint32_t)count;
			n.u.items = items;
		}
	}
	b->nscratch = f.start;
	if (f.anchor) {
		b->anchors[f.anchor - 1].node = n;
		b->anchors[f.anchor - 1].weight = f.weight;
		b->anchors[f.anchor - 1].done = true;
	}
	if (!b->doc_failed)
		add_node(b, &n, f.weight);
}

void kvet_build_release(struct kvet_builder *b)
{
	free(b->scratch);
	free(b->weights);
	free(b->frames);
	free(b->anchors);
	kvet_keyset_release(&b->keys);
	kvet_keyset_release(&b->anchor_index);
	b->scratch = NULL;
	b->weights = NULL;
	b->frames = NULL;
	b->anchors = NULL;
}
