/* SPDX-License-Identifier: Apache-2.0 */
#include "load/load.h"

#include <libfyaml.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "load/sanitize.h"

/*
 * The loader turns libfyaml's event stream into kvet_node trees. libfyaml's
 * own document trees cost about 35 bytes per input byte and resolve
 * aliases without any bound (LIBS.md 1e, 1f); events cost close to a scan.
 *
 * Children of open collections wait on one scratch stack; when a
 * collection ends they are copied into the arena in one block, so the
 * finished tree has no per-node allocation and no spare capacity.
 */

struct frame {
	uint8_t type;		/* KVET_NODE_MAP or KVET_NODE_SEQ */
	uint8_t flags;
	uint32_t line, col;
	size_t start;		/* first child on the scratch stack */
	size_t anchor;		/* index + 1 into the anchor table, or 0 */
	uint64_t weight;	/* nodes this collection expands to */
	bool in_metadata;	/* this is the value of a "metadata" key */
};

struct anchor {
	const char *name;
	size_t len;
	struct kvet_node node;
	uint64_t weight;
	bool done;		/* false while the collection is still open */
};

struct builder {
	struct kvet_arena *arena;
	struct kvet_diag *diag;
	const char *name;
	const char *buf;
	size_t len;

	/* where the current parser started within buf */
	size_t base_pos;
	uint32_t base_line;

	struct kvet_node *scratch;
	uint64_t *weights;	/* parallel to scratch: expanded size */
	size_t nscratch, capscratch;

	struct frame *frames;
	size_t depth, capframes;

	struct anchor *anchors;
	size_t nanchors, capanchors;

	/* the document being built */
	bool in_doc;
	bool doc_failed;
	size_t doc_start;	/* byte offset of the document's start */
	size_t root_pos;	/* byte offset of the root node */
	bool have_root_pos;
	uint64_t doc_alias_weight;
	size_t skip_depth;	/* > 0 while dropping a subtree */

	/* offsets of bytes that were invalid and replaced (sorted) */
	const size_t *bad;
	size_t nbad, badi;
	/* the last published document, until the next one starts: only
	 * then is its extent known (libfyaml gives no end mark) */
	bool pending;
	size_t pending_start;

	struct kvet_docs *out;
	uint32_t doc_index;
	bool oom;
};

void kvet_docs_release(struct kvet_docs *docs)
{
	if (!docs)
		return;
	free(docs->v);
	memset(docs, 0, sizeof(*docs));
}

static bool grow(void **v, size_t *cap, size_t need, size_t elem)
{
	size_t ncap;
	void *p;

	if (need <= *cap)
		return true;
	ncap = *cap ? *cap * 2 : 64;
	while (ncap < need)
		ncap *= 2;
	p = realloc(*v, ncap * elem);
	if (!p)
		return false;
	*v = p;
	*cap = ncap;
	return true;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static void mark_pos(const struct builder *b, const struct fy_mark *m,
		     uint32_t *line, uint32_t *col, size_t *pos)
{
	if (!m || m->line < 0) {
		*line = b->base_line;
		*col = 1;
		if (pos)
			*pos = b->base_pos;
		return;
	}
	*line = b->base_line + (uint32_t)m->line;
	*col = (uint32_t)m->column + 1;
	if (pos)
		*pos = b->base_pos + m->input_pos;
}

/* Report the first problem of a document; the document is then dropped. */
__attribute__((format(printf, 4, 5)))
static void fail_doc(struct builder *b, uint32_t line, uint32_t col,
		     const char *fmt, ...)
{
	va_list ap;

	if (b->doc_failed)
		return;
	b->doc_failed = true;
	va_start(ap, fmt);
	kvet_diag_vaddf(b->diag, b->name, line, col, fmt, ap);
	va_end(ap);
}

static bool push_child(struct builder *b, const struct kvet_node *n,
		       uint64_t weight)
{
	if (b->nscratch == b->capscratch) {
		size_t cap = b->capscratch;
		uint64_t *w;

		if (!grow((void **)&b->scratch, &b->capscratch,
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
static bool expecting_key(const struct builder *b)
{
	const struct frame *f;

	if (!b->depth)
		return false;
	f = &b->frames[b->depth - 1];
	return f->type == KVET_NODE_MAP && (b->nscratch - f->start) % 2 == 0;
}

/* The key whose value comes next, when the open collection is a map. */
static const struct kvet_node *pending_key(const struct builder *b)
{
	const struct frame *f;

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

static void add_node(struct builder *b, const struct kvet_node *n,
		     uint64_t weight)
{
	if (n->type >= KVET_NODE_MAP && expecting_key(b)) {
		fail_doc(b, n->line, n->col,
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
		sat_add(b->frames[b->depth - 1].weight, weight);
}

/*
 * The text of a scalar. A one-line scalar whose text is exactly its bytes
 * in the input (plain, or quoted without escapes) is sliced from the
 * buffer; asking libfyaml for the text would build a copy, which costs
 * an eighth of the load. Everything else is copied into the arena.
 */
static const char *scalar_text(struct builder *b, struct fy_event *fye,
			       enum fy_scalar_style style, size_t *len)
{
	const struct fy_mark *sm = fy_event_start_mark(fye);
	const struct fy_mark *em = fy_event_end_mark(fye);
	const char *t;
	char *copy;

	if (sm && em && sm->line == em->line && em->input_pos >= sm->input_pos &&
	    (style == FYSS_PLAIN || style == FYSS_DOUBLE_QUOTED ||
	     style == FYSS_SINGLE_QUOTED)) {
		const char *p = b->buf + b->base_pos + sm->input_pos;
		size_t n = em->input_pos - sm->input_pos;
		char esc = style == FYSS_DOUBLE_QUOTED ? '\\' : '\'';

		if (style == FYSS_PLAIN || !memchr(p, esc, n)) {
			*len = n;
			return p;
		}
	}
	t = fy_token_get_text(fye->scalar.value, len);
	if (!t) {
		*len = 0;
		return "";
	}
	copy = kvet_arena_strndup(b->arena, t, *len);
	if (!copy)
		b->oom = true;
	return copy ? copy : "";
}

static enum kvet_node_type tagged_type(struct fy_token *tag, const char *s,
				       size_t len, bool plain)
{
	static const struct {
		const char *tag;
		enum kvet_node_type type;
	} core[] = {
		{ "tag:yaml.org,2002:str", KVET_NODE_STRING },
		{ "tag:yaml.org,2002:int", KVET_NODE_INT },
		{ "tag:yaml.org,2002:float", KVET_NODE_FLOAT },
		{ "tag:yaml.org,2002:bool", KVET_NODE_BOOL },
		{ "tag:yaml.org,2002:null", KVET_NODE_NULL },
	};
	size_t i, tlen;
	const char *t;

	if (tag) {
		t = fy_token_get_text(tag, &tlen);
		for (i = 0; t && i < sizeof(core) / sizeof(core[0]); i++)
			if (strlen(core[i].tag) == tlen &&
			    memcmp(core[i].tag, t, tlen) == 0)
				return core[i].type;
	}
	return plain ? kvet_scalar_type(s, len) : KVET_NODE_STRING;
}

static struct anchor *find_anchor(struct builder *b, const char *name,
				  size_t len)
{
	size_t i;

	/* The newest definition wins (YAML 1.2 6.9.2): search backwards. */
	for (i = b->nanchors; i-- > 0;)
		if (b->anchors[i].len == len &&
		    memcmp(b->anchors[i].name, name, len) == 0)
			return &b->anchors[i];
	return NULL;
}

static size_t add_anchor(struct builder *b, struct fy_token *tok)
{
	struct anchor *a;
	const char *name;
	size_t len;

	if (!tok)
		return 0;
	name = fy_token_get_text(tok, &len);
	if (!name)
		return 0;
	if (!grow((void **)&b->anchors, &b->capanchors, b->nanchors + 1,
		  sizeof(*b->anchors))) {
		b->oom = true;
		return 0;
	}
	a = &b->anchors[b->nanchors++];
	memset(a, 0, sizeof(*a));
	a->name = kvet_arena_strndup(b->arena, name, len);
	a->len = len;
	if (!a->name) {
		b->oom = true;
		b->nanchors--;
		return 0;
	}
	return b->nanchors;
}

static void on_scalar(struct builder *b, struct fy_event *fye)
{
	struct fy_token *tok = fye->scalar.value;
	struct kvet_node n = { 0 };
	enum fy_scalar_style style;
	size_t pos, anchor;
	const char *s;
	size_t len;

	mark_pos(b, fy_event_start_mark(fye), &n.line, &n.col, &pos);
	if (!b->depth && !b->have_root_pos) {
		b->root_pos = pos;
		b->have_root_pos = true;
	}
	style = fy_token_scalar_style(tok);
	s = scalar_text(b, fye, style, &len);
	n.type = (uint8_t)tagged_type(fye->scalar.tag, s, len,
				      style == FYSS_PLAIN);
	if (style != FYSS_PLAIN)
		n.flags |= KVET_NODE_QUOTED;
	/* libfyaml's mark of a quoted scalar is inside the quotes; users
	 * expect the column of the value as written */
	if ((style == FYSS_SINGLE_QUOTED || style == FYSS_DOUBLE_QUOTED) &&
	    n.col > 1)
		n.col--;
	if (len > UINT32_MAX) {
		fail_doc(b, n.line, n.col, "scalar longer than 4 GiB");
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

static void on_alias(struct builder *b, struct fy_event *fye)
{
	struct kvet_node n;
	struct anchor *a;
	const char *name;
	uint32_t line, col;
	size_t len;

	mark_pos(b, fy_event_start_mark(fye), &line, &col, NULL);
	/* libfyaml's alias mark is on the name; point at the '*' */
	if (col > 1)
		col--;
	name = fy_token_get_text(fye->alias.anchor, &len);
	if (!name)
		name = "", len = 0;
	a = find_anchor(b, name, len);
	if (!a) {
		fail_doc(b, line, col, "alias \"*%.*s\" refers to no anchor",
			 (int)len, name);
		return;
	}
	if (!a->done) {
		fail_doc(b, line, col,
			 "recursive alias: \"*%.*s\" is inside the node it refers to",
			 (int)len, name);
		return;
	}
	/* The alias shares the anchored subtree; only the budget sees the
	 * expansion, so a billion laughs costs a few nodes, then an error. */
	b->doc_alias_weight = sat_add(b->doc_alias_weight, a->weight);
	if (b->doc_alias_weight > KVET_LOAD_MAX_ALIAS_EXPANSION) {
		fail_doc(b, line, col,
			 "aliases expand this document past the limit of %d nodes (\"*%.*s\")",
			 KVET_LOAD_MAX_ALIAS_EXPANSION, (int)len, name);
		return;
	}
	n = a->node;
	n.line = line;
	n.col = col;
	add_node(b, &n, a->weight);
}

static void open_collection(struct builder *b, struct fy_event *fye,
			    uint8_t type)
{
	const struct kvet_node *key = pending_key(b);
	struct fy_token *anchor_tok, *start_tok;
	struct frame *f;
	uint32_t line, col;
	size_t pos;

	if (type == KVET_NODE_MAP) {
		anchor_tok = fye->mapping_start.anchor;
		start_tok = fye->mapping_start.mapping_start;
	} else {
		anchor_tok = fye->sequence_start.anchor;
		start_tok = fye->sequence_start.sequence_start;
	}
	mark_pos(b, fy_event_start_mark(fye), &line, &col, &pos);
	if (!b->depth && !b->have_root_pos) {
		b->root_pos = pos;
		b->have_root_pos = true;
	}
	/*
	 * metadata.managedFields of a live object is bookkeeping of the API
	 * server's field ownership, often half of a cluster dump. No rule
	 * reads it, so it is dropped here rather than built and ignored.
	 */
	if (key_is(key, "managedFields") && b->depth &&
	    b->frames[b->depth - 1].in_metadata) {
		b->nscratch--;
		b->skip_depth = 1;
		return;
	}
	if (expecting_key(b)) {
		fail_doc(b, line, col, "mapping key is a collection, not a string");
		return;
	}
	if (b->depth >= KVET_LOAD_MAX_DEPTH) {
		fail_doc(b, line, col, "nesting deeper than %d levels",
			 KVET_LOAD_MAX_DEPTH);
		return;
	}
	if (!grow((void **)&b->frames, &b->capframes, b->depth + 1,
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
	f->in_metadata = key_is(key, "metadata") && b->depth == 2;
	f->anchor = add_anchor(b, anchor_tok);
}

/* Scalar keys only; duplicates are an error, as in the API server's
 * strict decoding and in libfyaml's own document loader. */
static bool check_keys(struct builder *b, const struct kvet_node *kv,
		       size_t npairs)
{
	size_t i, j;

	for (i = 0; i < npairs; i++) {
		const struct kvet_node *k = &kv[2 * i];

		if (k->len == 2 && memcmp(k->u.str, "<<", 2) == 0 &&
		    !(k->flags & KVET_NODE_QUOTED))
			continue;
		/* Kubernetes objects have few keys per mapping; ConfigMap data
		 * can have many, where a quadratic check would show: cap it. */
		for (j = i + 1; j < npairs && j < i + 4096; j++) {
			const struct kvet_node *o = &kv[2 * j];

			if (o->len == k->len &&
			    memcmp(o->u.str, k->u.str, k->len) == 0) {
				fail_doc(b, o->line, o->col,
					 "duplicate key \"%.*s\"", (int)o->len,
					 o->u.str);
				return false;
			}
		}
	}
	return true;
}

static bool has_key(const struct kvet_pair *pairs, size_t n,
		    const struct kvet_node *key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (pairs[i].key.len == key->len &&
		    memcmp(pairs[i].key.u.str, key->u.str, key->len) == 0)
			return true;
	return false;
}

static size_t merge_source_pairs(const struct kvet_node *v)
{
	size_t i, n = 0;

	if (v->type == KVET_NODE_MAP)
		return v->len;
	for (i = 0; i < v->len; i++)
		if (v->u.items[i].type == KVET_NODE_MAP)
			n += v->u.items[i].len;
	return n;
}

static void merge_from(struct kvet_pair *pairs, size_t *n,
		       const struct kvet_node *src)
{
	uint32_t i;

	for (i = 0; i < src->len; i++)
		if (!has_key(pairs, *n, &src->u.pairs[i].key))
			pairs[(*n)++] = src->u.pairs[i];
}

/*
 * Build a mapping from key/value children, applying merge keys: "<<: *a"
 * or "<<: [*a, *b]" adds the keys of a (then b) that the mapping does not
 * set itself (YAML merge key type, used by Helm and compose files alike).
 */
static void build_map(struct builder *b, struct frame *f, struct kvet_node *n)
{
	size_t npairs = (b->nscratch - f->start) / 2, extra = 0, i, out = 0;
	/* an empty mapping may come before anything was ever pushed */
	const struct kvet_node *kv = npairs ? &b->scratch[f->start] : NULL;
	struct kvet_pair *pairs;

	if (!check_keys(b, kv, npairs))
		return;
	for (i = 0; i < npairs; i++) {
		const struct kvet_node *k = &kv[2 * i], *v = &kv[2 * i + 1];

		if (!(k->len == 2 && memcmp(k->u.str, "<<", 2) == 0 &&
		      !(k->flags & KVET_NODE_QUOTED)))
			continue;
		if (v->type != KVET_NODE_MAP && v->type != KVET_NODE_SEQ) {
			fail_doc(b, v->line, v->col,
				 "merge key \"<<\" needs a mapping or a list of mappings");
			return;
		}
		extra += merge_source_pairs(v);
	}
	pairs = kvet_arena_array(b->arena, npairs + extra, sizeof(*pairs));
	if (!pairs && npairs + extra) {
		b->oom = true;
		return;
	}
	for (i = 0; i < npairs; i++) {
		const struct kvet_node *k = &kv[2 * i];

		if (k->len == 2 && memcmp(k->u.str, "<<", 2) == 0 &&
		    !(k->flags & KVET_NODE_QUOTED))
			continue;
		pairs[out].key = *k;
		pairs[out].value = kv[2 * i + 1];
		out++;
	}
	for (i = 0; extra && i < npairs; i++) {
		const struct kvet_node *k = &kv[2 * i], *v = &kv[2 * i + 1];
		uint32_t j;

		if (!(k->len == 2 && memcmp(k->u.str, "<<", 2) == 0 &&
		      !(k->flags & KVET_NODE_QUOTED)))
			continue;
		if (v->type == KVET_NODE_MAP)
			merge_from(pairs, &out, v);
		else
			for (j = 0; j < v->len; j++)
				if (v->u.items[j].type == KVET_NODE_MAP)
					merge_from(pairs, &out, &v->u.items[j]);
	}
	n->len = (uint32_t)out;
	n->u.pairs = pairs;
}

static void close_collection(struct builder *b)
{
	struct kvet_node n = { 0 };
	struct frame f;
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
			fail_doc(b, f.line, f.col,
				 "collection with more than 4294967295 entries");
		} else if (f.type == KVET_NODE_MAP) {
			build_map(b, &f, &n);
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

/*
 * A document that held an invalid byte was reported when the byte was
 * replaced; drop it once its extent, up to @bound, is known.
 */
static void settle_pending(struct builder *b, size_t bound)
{
	while (b->badi < b->nbad && b->bad[b->badi] < bound) {
		if (b->pending && b->bad[b->badi] >= b->pending_start) {
			b->out->n--;
			b->out->skipped++;
			b->pending = false;
		}
		b->badi++;
	}
	b->pending = false;
}

static void begin_doc(struct builder *b, struct fy_event *fye)
{
	uint32_t line, col;
	size_t pos;

	mark_pos(b, fy_event_start_mark(fye), &line, &col, &pos);
	settle_pending(b, pos);
	b->in_doc = true;
	b->doc_failed = false;
	b->doc_start = pos;
	b->have_root_pos = false;
	b->doc_alias_weight = 0;
	b->skip_depth = 0;
	b->depth = 0;
	b->nscratch = 0;
	b->nanchors = 0;
}

/* The last "# Source: path" comment between a document's start and its
 * first node: the template Helm rendered the document from. */
static const char *helm_source(struct builder *b)
{
	static const char tag[] = "# Source: ";
	const char *p, *end, *found = NULL;
	size_t flen = 0;

	if (!b->have_root_pos || b->root_pos > b->len)
		return NULL;
	p = b->buf + b->doc_start;
	end = b->buf + b->root_pos;
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *stop = eol ? eol : end;

		if ((size_t)(stop - p) > sizeof(tag) - 1 &&
		    memcmp(p, tag, sizeof(tag) - 1) == 0) {
			found = p + sizeof(tag) - 1;
			flen = (size_t)(stop - found);
			while (flen && (found[flen - 1] == '\r' ||
					found[flen - 1] == ' '))
				flen--;
		}
		if (!eol)
			break;
		p = eol + 1;
	}
	if (!found || !flen)
		return NULL;
	return kvet_arena_strndup(b->arena, found, flen);
}

static void end_doc(struct builder *b)
{
	struct kvet_doc *d;
	struct kvet_node *root;

	b->in_doc = false;
	if (b->doc_failed || b->nscratch != 1 || b->depth) {
		if (b->doc_failed)
			b->out->skipped++;
		b->doc_index++;
		return;
	}
	root = &b->scratch[0];
	if (root->type == KVET_NODE_NULL && !(root->flags & KVET_NODE_QUOTED)) {
		/* empty or comment-only: not a document for kvet */
		return;
	}
	if (!grow((void **)&b->out->v, &b->out->cap, b->out->n + 1,
		  sizeof(*b->out->v))) {
		b->oom = true;
		return;
	}
	d = &b->out->v[b->out->n++];
	d->root = kvet_arena_alloc(b->arena, sizeof(*root));
	if (!d->root) {
		b->out->n--;
		b->oom = true;
		return;
	}
	memcpy((struct kvet_node *)d->root, root, sizeof(*root));
	d->source = helm_source(b);
	d->index = b->doc_index++;
	b->pending = true;
	b->pending_start = b->doc_start;
}

static void on_event(struct builder *b, struct fy_event *fye)
{
	if (b->skip_depth) {
		if (fye->type == FYET_MAPPING_START ||
		    fye->type == FYET_SEQUENCE_START)
			b->skip_depth++;
		else if (fye->type == FYET_MAPPING_END ||
			 fye->type == FYET_SEQUENCE_END)
			b->skip_depth--;
		return;
	}
	switch (fye->type) {
	case FYET_DOCUMENT_START:
		begin_doc(b, fye);
		break;
	case FYET_DOCUMENT_END:
		end_doc(b);
		break;
	case FYET_MAPPING_START:
		if (!b->doc_failed)
			open_collection(b, fye, KVET_NODE_MAP);
		else
			b->skip_depth = 1;
		break;
	case FYET_SEQUENCE_START:
		if (!b->doc_failed)
			open_collection(b, fye, KVET_NODE_SEQ);
		else
			b->skip_depth = 1;
		break;
	case FYET_MAPPING_END:
	case FYET_SEQUENCE_END:
		close_collection(b);
		break;
	case FYET_SCALAR:
		if (!b->doc_failed)
			on_scalar(b, fye);
		break;
	case FYET_ALIAS:
		if (!b->doc_failed)
			on_alias(b, fye);
		break;
	default:
		break;
	}
}

/* Byte offset of the start of 1-based @line counted from @from. */
static size_t line_offset(const struct builder *b, size_t from,
			  uint32_t lines_down)
{
	size_t p = from;

	while (lines_down && p < b->len) {
		const char *nl = memchr(b->buf + p, '\n', b->len - p);

		if (!nl)
			return b->len;
		p = (size_t)(nl - b->buf) + 1;
		lines_down--;
	}
	return p;
}

/* The next line at or after @p that starts a document ("---"), or len. */
static size_t next_doc_start(const struct builder *b, size_t p,
			     uint32_t *line)
{
	while (p < b->len) {
		const char *nl;

		if (b->len - p >= 3 && memcmp(b->buf + p, "---", 3) == 0 &&
		    (b->len - p == 3 || b->buf[p + 3] == '\n' ||
		     b->buf[p + 3] == '\r' || b->buf[p + 3] == ' ' ||
		     b->buf[p + 3] == '\t'))
			return p;
		nl = memchr(b->buf + p, '\n', b->len - p);
		if (!nl)
			break;
		p = (size_t)(nl - b->buf) + 1;
		(*line)++;
	}
	return b->len;
}

/*
 * Parse from b->base_pos to the end. Returns the offset where parsing
 * should restart after a syntax error, or b->len when the stream ended.
 */
static size_t parse_from(struct builder *b)
{
	struct fy_diag_cfg dcfg;
	struct fy_parse_cfg cfg = { 0 };
	struct fy_diag *fydiag = NULL;
	struct fy_parser *fyp = NULL;
	struct fy_event *fye;
	size_t restart = b->len;

	fy_diag_cfg_default(&dcfg);
	dcfg.fp = NULL;
	dcfg.output_fn = NULL;
	fydiag = fy_diag_create(&dcfg);
	if (!fydiag) {
		b->oom = true;
		goto out;
	}
	fy_diag_set_collect_errors(fydiag, true);
	cfg.flags = FYPCF_QUIET | FYPCF_DISABLE_ACCELERATORS;
	cfg.diag = fydiag;
	fyp = fy_parser_create(&cfg);
	if (!fyp || fy_parser_set_string(fyp, b->buf + b->base_pos,
					 b->len - b->base_pos)) {
		b->oom = true;
		goto out;
	}
	while (!b->oom && (fye = fy_parser_parse(fyp)) != NULL) {
		on_event(b, fye);
		fy_parser_event_free(fyp, fye);
	}
	if (fy_parser_get_stream_error(fyp)) {
		struct fy_diag_error *de;
		void *iter = NULL;
		uint32_t line = b->base_line, col = 1, at;
		const char *msg = "invalid YAML";

		de = fy_diag_errors_iterate(fydiag, &iter);
		if (de) {
			if (de->line > 0) {
				line = b->base_line + (uint32_t)de->line - 1;
				col = de->column > 0 ? (uint32_t)de->column : 1;
			}
			if (de->msg)
				msg = de->msg;
		}
		kvet_diag_addf(b->diag, b->name, line, col, "%s", msg);
		if (b->in_doc)
			b->out->skipped++;
		b->in_doc = false;
		b->doc_index++;
		/* Resume at the next "---" at or after the error's line, but
		 * always past where this parser started. */
		at = line;
		restart = line_offset(b, b->base_pos, line - b->base_line);
		if (restart <= b->base_pos) {
			restart = line_offset(b, b->base_pos, 1);
			at = b->base_line + 1;
		}
		restart = next_doc_start(b, restart, &at);
		b->base_line = at;
	}
	settle_pending(b, restart);
out:
	fy_parser_destroy(fyp);
	fy_diag_destroy(fydiag);
	return restart;
}

int kvet_load_buffer(struct kvet_arena *arena, struct kvet_diag *diag,
		     const char *name, char *buf, size_t len,
		     struct kvet_docs *out)
{
	struct kvet_utf8_fix fix = { 0 };
	struct builder b = { 0 };
	size_t i;
	int ret = -1;

	b.arena = arena;
	b.diag = diag;
	b.name = name;
	b.buf = buf;
	b.len = len;
	b.base_line = 1;
	b.out = out;
	if (kvet_utf8_sanitize(buf, len, &fix) < 0)
		goto out;
	for (i = 0; i < fix.n; i++) {
		struct kvet_utf8_bad *bad = &fix.v[i];

		kvet_diag_addf(diag, name, bad->line, bad->col, "%s",
			       bad->is_nul ? "NUL byte in the input"
					   : "invalid UTF-8 byte sequence");
		fix.offsets[i] = bad->offset;
	}
	b.bad = fix.offsets;
	b.nbad = fix.n;
	/* A 0-byte file is almost always a mistake (a failed render or
	 * redirect); a file of comments is somebody's choice. */
	if (len == 0)
		kvet_diag_addf(diag, name, 0, 0,
			       "empty input: no Kubernetes objects");
	while (b.base_pos < len && !b.oom) {
		size_t restart = parse_from(&b);

		if (restart >= len)
			break;
		b.base_pos = restart;
	}
	ret = b.oom ? -1 : 0;
out:
	kvet_utf8_fix_release(&fix);
	free(b.scratch);
	free(b.weights);
	free(b.frames);
	free(b.anchors);
	return ret;
}
