/* SPDX-License-Identifier: Apache-2.0 */
#include "load/json.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "base/vec.h"
#include "load/build.h"
#include "load/collection.h"
#include "load/keyset.h"
#include "load/node.h"

/*
 * One pass, no recursion: open collections are frames, finished children
 * wait on one stack and are copied into the arena in one block when their
 * collection closes, as in the libfyaml path's builder (build.c). Where
 * JSON and that path could differ, this one gives up (json.h).
 */

enum {
	/* progress is published at most this often */
	PROGRESS_BYTES = 1 << 20,
};

struct jscan {
	const char *buf, *p, *end;
	uint32_t line;		/* 1-based line of p */
	const char *bol;	/* the first byte of that line */
	size_t adj;		/* UTF-8 continuation bytes from bol to p */

	struct kvet_arena *arena;
	struct kvet_node *stack;
	size_t n, cap;
	struct kvet_scan_frame *frames;
	size_t depth, capframes;
	struct kvet_keyset keys;
	char *text;		/* unescaped string being built */
	size_t captext;

	atomic_size_t *done;
	const char *published;
	/* a piece of a List's items: the array's frame is seeded, and the
	 * scan stops after the ',' that ends the piece or, in the last
	 * piece (last_piece), after the array's ']' */
	bool piece, last_piece;
	struct kvet_detach *detach;	/* a piece's scalars copied as read */
	const struct kvet_json_graft *graft;	/* items parsed in pieces */
	bool grafted;
	bool bail;		/* not for this path, or out of memory */
	bool oom;
};

static void give_up(struct jscan *j)
{
	j->bail = true;
}

static uint32_t col_of(const struct jscan *j, const char *at)
{
	return (uint32_t)((size_t)(at - j->bol) - j->adj) + 1;
}

/*
 * The spaces at @p, up to @end: eight at a time. Pretty-printed JSON is
 * half indentation (kubectl's is four spaces a level), which a byte at a
 * time made the most of the scan.
 */
static const char *skip_spaces(const char *p, const char *end)
{
	const uint64_t spaces = 0x2020202020202020ull;
	uint64_t w;

	while (end - p >= 8) {
		memcpy(&w, p, sizeof(w));
		w ^= spaces;
		if (w) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
			return p + __builtin_clzll(w) / 8;
#else
			return p + __builtin_ctzll(w) / 8;
#endif
		}
		p += 8;
	}
	while (p < end && *p == ' ')
		p++;
	return p;
}

/* JSON whitespace. A CR must start a CRLF: libfyaml, as YAML, reads a
 * lone CR as a line break, which JSON does not. */
static void skip_ws(struct jscan *j)
{
	const char *p = j->p, *end = j->end;

	while (p < end) {
		char c = *p;

		if (c == ' ' || c == '\t') {
			p++;
		} else if (c == '\n') {
			j->line++;
			j->bol = p + 1;
			j->adj = 0;
			p = skip_spaces(p + 1, end);
		} else if (c == '\r' && p + 1 < end && p[1] == '\n') {
			p++;
		} else {
			break;
		}
	}
	j->p = p;
}

static bool push(struct jscan *j, const struct kvet_node *n)
{
	if (j->n == j->cap &&
	    !kvet_vec_grow((void **)&j->stack, &j->cap, j->n + 1,
			   sizeof(*j->stack))) {
		j->oom = j->bail = true;
		return false;
	}
	j->stack[j->n++] = *n;
	return true;
}

static bool in_skip(const struct jscan *j)
{
	return j->depth && j->frames[j->depth - 1].skip;
}

/*
 * The top bits of the bytes of @w that are '"', '\\', a control character
 * or not ASCII: what ends the fast scan of a string. Past the first such
 * byte a borrow may set more, so only the lowest set bit is exact: with
 * the word read in little-endian order (word_at()), it is the first such
 * byte.
 */
static uint64_t word_special(uint64_t w)
{
	const uint64_t ones = 0x0101010101010101ull;
	const uint64_t highs = 0x8080808080808080ull;
	uint64_t q = w ^ (ones * '"'), b = w ^ (ones * '\\');

	return (((q - ones) & ~q) | ((b - ones) & ~b) |
		((w - ones * 0x20) & ~w) | w) & highs;
}

/* The eight bytes at @p as a word whose low byte is @p[0]. */
static uint64_t word_at(const char *p)
{
	uint64_t w;

	memcpy(&w, p, sizeof(w));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	return w;
}

/*
 * A byte that is not ASCII, in a string. The input is valid UTF-8 (the
 * sanitizer ran), so it only counts for columns, except for the
 * characters YAML reads as line breaks (NEL, LS, PS), which libfyaml
 * folds into spaces, and a byte order mark.
 */
static bool high_byte(struct jscan *j, const unsigned char *q)
{
	const unsigned char *end = (const unsigned char *)j->end;

	if ((q[0] & 0xc0) == 0x80) {
		j->adj++;
		return true;
	}
	if (q[0] == 0xc2 && q + 1 < end && q[1] == 0x85)
		return false;
	if (q[0] == 0xe2 && q + 2 < end && q[1] == 0x80 &&
	    (q[2] == 0xa8 || q[2] == 0xa9))
		return false;
	if (q[0] == 0xef && q + 2 < end && q[1] == 0xbb && q[2] == 0xbf)
		return false;
	return true;
}

static bool text_put(struct jscan *j, size_t at, const char *s, size_t len)
{
	if (!len)
		return true;
	if (!kvet_vec_grow((void **)&j->text, &j->captext, at + len, 1)) {
		j->oom = j->bail = true;
		return false;
	}
	memcpy(j->text + at, s, len);
	return true;
}

/*
 * The rest of a string from its first escape at @q: unescaped into
 * j->text, the text so far being [@s, @q). Returns the closing quote, or
 * NULL after giving up. \u0000 and lone surrogates are left to libfyaml,
 * which refuses the latter.
 */
static const char *unescape(struct jscan *j, const char *s, const char *q,
			    size_t *len)
{
	static const char simple[] = "\"\"\\\\//b\bf\fn\nr\rt\t";
	size_t at = (size_t)(q - s);
	char u[4];

	if (!text_put(j, 0, s, at))
		return NULL;
	while (q < j->end) {
		unsigned char c = (unsigned char)*q;
		const char *m;
		int cp, lo;

		if (c == '"') {
			*len = at;
			return q;
		}
		if (c < 0x20 || (c >= 0x80 && !high_byte(j, (const unsigned char *)q)))
			return NULL;
		if (c != '\\') {
			if (!text_put(j, at++, q++, 1))
				return NULL;
			continue;
		}
		if (q + 1 >= j->end)
			return NULL;
		if (q[1] != 'u') {
			for (m = simple; *m && *m != q[1]; m += 2)
				;
			if (!*m || !text_put(j, at++, m + 1, 1))
				return NULL;
			q += 2;
			continue;
		}
		if (j->end - q < 6 || (cp = (int)kvet_hex_value(q + 2, 4)) <= 0 ||
		    (cp >= 0xdc00 && cp <= 0xdfff))
			return NULL;
		q += 6;
		if (cp >= 0xd800 && cp <= 0xdbff) {
			if (j->end - q < 6 || q[0] != '\\' || q[1] != 'u' ||
			    (lo = (int)kvet_hex_value(q + 2, 4)) < 0xdc00 || lo > 0xdfff)
				return NULL;
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			q += 6;
		}
		if (!text_put(j, at, u, kvet_utf8_encode(u, (uint32_t)cp)))
			return NULL;
		at += kvet_utf8_encode(u, (uint32_t)cp);
	}
	return NULL;
}

/* The string at j->p, as a quoted string node positioned at its quote. */
static bool scan_string(struct jscan *j, struct kvet_node *n)
{
	const char *s = j->p + 1, *q = s, *end = j->end;
	size_t len;

	n->type = KVET_NODE_STRING;
	n->flags = KVET_NODE_QUOTED;
	n->line = j->line;
	n->col = col_of(j, j->p);
	for (;;) {
		unsigned char c;

		/* straight to the first byte to look at: a byte at a time
		 * from the word that has it read its rest up to 8 times */
		while (end - q >= 8) {
			uint64_t m = word_special(word_at(q));

			if (m) {
				q += __builtin_ctzll(m) / 8;
				break;
			}
			q += 8;
		}
		if (q >= end)
			return false;
		c = (unsigned char)*q;
		if (c == '"')
			break;
		if (c == '\\') {
			q = unescape(j, s, q, &len);
			if (!q)
				return false;
			if (in_skip(j)) {
				s = "";
			} else {
				s = kvet_arena_strndup(j->arena, j->text, len);
				if (!s) {
					j->oom = true;
					return false;
				}
			}
			goto done;
		}
		if (c < 0x20 || (c >= 0x80 && !high_byte(j, (const unsigned char *)q)))
			return false;
		q++;
	}
	len = (size_t)(q - s);
done:
	if (len > UINT32_MAX)
		return false;
	n->len = (uint32_t)len;
	n->u.str = s;
	j->p = q + 1;
	return true;
}

static bool delimiter(const struct jscan *j, const char *p)
{
	return p >= j->end || *p == ',' || *p == ']' || *p == '}' ||
	       *p == ' ' || *p == '\n' || *p == '\t' || *p == '\r';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* A number, true, false or null: plain scalars to YAML, typed alike. */
static bool scan_plain(struct jscan *j, struct kvet_node *n)
{
	const char *p = j->p, *end = j->end;
	bool fraction = false;

	n->flags = 0;
	n->line = j->line;
	n->col = col_of(j, p);
	if (*p == 't' || *p == 'f' || *p == 'n') {
		static const char *const words[] = { "true", "false", "null" };
		size_t i = *p == 't' ? 0 : *p == 'f' ? 1 : 2;
		size_t wl = strlen(words[i]);

		if ((size_t)(end - p) < wl || memcmp(p, words[i], wl) != 0 ||
		    !delimiter(j, p + wl))
			return false;
		n->type = i == 2 ? KVET_NODE_NULL : KVET_NODE_BOOL;
		n->len = (uint32_t)wl;
		n->u.str = p;
		j->p = p + wl;
		return true;
	}
	if (p < end && *p == '-')
		p++;
	if (p < end && *p == '0')
		p++;
	else if (p < end && *p >= '1' && *p <= '9')
		while (p < end && is_digit(*p))
			p++;
	else
		return false;
	if (p < end && *p == '.') {
		p++;
		fraction = true;
		if (p >= end || !is_digit(*p))
			return false;
		while (p < end && is_digit(*p))
			p++;
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		p++;
		fraction = true;
		if (p < end && (*p == '+' || *p == '-'))
			p++;
		if (p >= end || !is_digit(*p))
			return false;
		while (p < end && is_digit(*p))
			p++;
	}
	if (!delimiter(j, p))
		return false;
	/* what kvet_scalar_type() makes of JSON's number syntax */
	n->type = fraction ? KVET_NODE_FLOAT : KVET_NODE_INT;
	n->len = (uint32_t)(p - j->p);
	n->u.str = j->p;
	j->p = p;
	return true;
}

static void open_frame(struct jscan *j, uint8_t type)
{
	if (j->depth >= KVET_LOAD_MAX_DEPTH) {
		give_up(j);
		return;
	}
	if (!kvet_vec_grow((void **)&j->frames, &j->capframes, j->depth + 1,
			   sizeof(*j->frames))) {
		j->oom = j->bail = true;
		return;
	}
	j->n = kvet_scan_frame_open(&j->frames[j->depth],
				    j->depth ? &j->frames[j->depth - 1] : NULL,
				    type, j->line, col_of(j, j->p), j->stack,
				    j->n);
	j->depth++;
}

static void close_frame(struct jscan *j)
{
	struct kvet_scan_frame f = j->frames[--j->depth];
	struct kvet_node n = { 0 };
	int rc;

	if (f.skip)
		return;
	rc = kvet_scan_frame_node(j->arena, &j->keys, &f, KVET_NODE_FLOW,
				  j->stack, j->n, &n);
	if (rc) {
		if (rc < 0)
			j->oom = true;
		give_up(j);
		return;
	}
	j->n = f.start;
	push(j, &n);
	if (j->done && j->depth <= 2 && j->p - j->published > PROGRESS_BYTES) {
		j->published = j->p;
		atomic_store_explicit(j->done, (size_t)(j->p - j->buf),
				      memory_order_relaxed);
	}
}

/* A scalar value, or a key when @key. */
static void scalar(struct jscan *j, bool key)
{
	struct kvet_node n = { 0 };
	bool ok;

	if (*j->p == '"')
		ok = scan_string(j, &n);
	else
		ok = !key && scan_plain(j, &n);
	if (!ok) {
		give_up(j);
		return;
	}
	if (in_skip(j))
		return;
	if (j->detach && kvet_detach_scalar(j->detach, &n, key) < 0) {
		j->oom = j->bail = true;
		return;
	}
	push(j, &n);
}

/*
 * The root object's "items" array was just opened: put the items parsed
 * in pieces in its place and go on after its ']'. Returns false when the
 * array is not where the pieces start.
 */
static bool graft(struct jscan *j)
{
	const struct kvet_json_graft *g = j->graft;
	struct kvet_scan_frame f = j->frames[j->depth - 1];
	struct kvet_node n = { 0 };

	skip_ws(j);
	if (j->p != j->buf + g->at || g->n > UINT32_MAX)
		return false;
	j->depth--;
	n.type = KVET_NODE_SEQ;
	n.flags = KVET_NODE_FLOW;
	n.line = f.line;
	n.col = f.col;
	n.len = (uint32_t)g->n;
	n.u.items = g->items;
	if (!push(j, &n))
		return false;
	j->p = j->buf + g->resume;
	j->line = g->line;
	j->bol = j->buf + g->bol;
	j->adj = g->adj;
	j->grafted = true;
	return true;
}

/* One value from its '{' or '[' to the matching bracket; in a piece, the
 * items of the piece. */
static void parse_value(struct jscan *j)
{
	enum { VALUE, KEY, AFTER } state = VALUE;
	char c;

	while (!j->bail) {
		if (state == AFTER && !j->depth)
			return;
		skip_ws(j);
		if (j->p >= j->end) {
			give_up(j);
			return;
		}
		c = *j->p;
		if (state == VALUE && (c == '{' || c == '[')) {
			open_frame(j, c == '{' ? KVET_NODE_MAP : KVET_NODE_SEQ);
			j->p++;
			if (j->graft && !j->grafted && j->depth == 2 &&
			    j->frames[1].role == KVET_ROLE_ITEMS && !j->bail) {
				if (!graft(j))
					give_up(j);
				state = AFTER;
				continue;
			}
			skip_ws(j);
			if (j->p < j->end && *j->p == (c == '{' ? '}' : ']')) {
				j->p++;
				close_frame(j);
				state = AFTER;
			} else {
				state = c == '{' ? KEY : VALUE;
			}
		} else if (state == VALUE) {
			scalar(j, false);
			state = AFTER;
		} else if (state == KEY) {
			if (c != '"') {
				give_up(j);
				return;
			}
			scalar(j, true);
			skip_ws(j);
			if (j->p >= j->end || *j->p != ':') {
				give_up(j);
				return;
			}
			j->p++;
			state = VALUE;
		} else if (c == ',') {
			j->p++;
			state = j->frames[j->depth - 1].type == KVET_NODE_MAP
					? KEY : VALUE;
			if (j->piece && j->depth == 1 && !j->last_piece) {
				skip_ws(j);
				if (j->p >= j->end)
					return;
			}
		} else if (c == (j->frames[j->depth - 1].type == KVET_NODE_MAP
				 ? '}' : ']')) {
			j->p++;
			if (j->piece && j->depth == 1) {
				if (!j->last_piece)
					give_up(j);
				return;
			}
			close_frame(j);
		} else {
			give_up(j);
		}
	}
}

static bool publish(struct jscan *j, struct kvet_docs *out, uint32_t index)
{
	struct kvet_node *root;
	struct kvet_doc *d;

	if (!kvet_vec_grow((void **)&out->v, &out->cap, out->n + 1,
			   sizeof(*out->v)))
		return false;
	root = kvet_arena_alloc(j->arena, sizeof(*root));
	if (!root)
		return false;
	*root = j->stack[0];
	d = &out->v[out->n++];
	d->root = root;
	d->source = NULL;
	d->index = index;
	j->n = 0;
	return true;
}

static void release(struct jscan *j)
{
	free(j->stack);
	free(j->frames);
	free(j->text);
	kvet_keyset_release(&j->keys);
}

int kvet_json_items(struct kvet_arena *arena, const char *buf, size_t len,
		    size_t start, size_t end, uint32_t line, bool last,
		    struct kvet_detach *detach, struct kvet_json_piece *out)
{
	struct jscan j = { 0 };
	struct kvet_node *items;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	j.buf = buf;
	j.p = buf + start;
	for (j.bol = j.p; j.bol > buf && j.bol[-1] != '\n'; j.bol--)
		;
	j.end = buf + (last ? len : end);
	j.line = line;
	j.arena = arena;
	j.piece = true;
	j.last_piece = last;
	j.detach = detach;
	if (!kvet_vec_grow((void **)&j.frames, &j.capframes, 1,
			   sizeof(*j.frames))) {
		ret = -1;
		goto out;
	}
	memset(&j.frames[0], 0, sizeof(j.frames[0]));
	j.frames[0].type = KVET_NODE_SEQ;
	j.frames[0].role = KVET_ROLE_ITEMS;
	j.depth = 1;
	parse_value(&j);
	if (j.bail) {
		ret = j.oom ? -1 : 0;
		goto out;
	}
	items = kvet_arena_array(arena, j.n, sizeof(*items));
	if (!items) {
		ret = -1;
		goto out;
	}
	if (j.n)
		memcpy(items, j.stack, j.n * sizeof(*items));
	out->items = items;
	out->n = j.n;
	out->end = (size_t)(j.p - buf);
	out->line = j.line;
	out->bol = (size_t)(j.bol - buf);
	out->adj = j.adj;
	ret = 1;
out:
	release(&j);
	return ret;
}

int kvet_json_load_graft(struct kvet_arena *arena, const char *buf,
			 size_t len, struct kvet_docs *out,
			 atomic_size_t *done, const struct kvet_json_graft *g)
{
	struct jscan j = { 0 };
	struct kvet_arena_mark mark;
	size_t n0 = out->n;
	uint32_t index = 0;
	int ret = 0;

	j.buf = j.p = j.bol = buf;
	j.end = buf + len;
	j.line = 1;
	j.arena = arena;
	j.done = done;
	j.published = buf;
	j.graft = g;
	kvet_arena_mark(arena, &mark);
	skip_ws(&j);
	if (j.p >= j.end || (*j.p != '{' && *j.p != '['))
		goto out;
	while (j.p < j.end && !j.bail) {
		if (*j.p != '{' && *j.p != '[') {
			give_up(&j);
			break;
		}
		parse_value(&j);
		if (j.bail)
			break;
		if (!publish(&j, out, index++)) {
			j.oom = j.bail = true;
			break;
		}
		skip_ws(&j);
	}
	if (j.oom)
		ret = -1;
	else if (!j.bail && (!g || j.grafted))
		ret = 1;
out:
	if (ret != 1) {
		out->n = n0;
		kvet_arena_reset(arena, &mark);
	}
	release(&j);
	return ret;
}

int kvet_json_load(struct kvet_arena *arena, const char *buf, size_t len,
		   struct kvet_docs *out, atomic_size_t *done)
{
	return kvet_json_load_graft(arena, buf, len, out, done, NULL);
}
