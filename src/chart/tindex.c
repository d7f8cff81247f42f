/* SPDX-License-Identifier: Apache-2.0 */
#include "chart/tindex.h"

#include <ctype.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/vec.h"

/*
 * One pass over the lines. Two stacks are kept: the keys above the
 * current line (by indentation, as a YAML reader nests them) and the
 * template's own blocks (if, with, range, define: each ends at an `end`).
 * A define block gets a key stack of its own, since its text is printed
 * wherever it is included, at the indentation the include gives it.
 */

enum {
	MAX_KEYS = 128,		/* deeper keys are not indexed */
	MAX_BLOCKS = 64,
};

struct key {
	uint32_t indent;
	bool dash;
	const char *seg;
	size_t len;
};

enum block_type { B_IF, B_WITH, B_RANGE, B_DEFINE, B_OTHER };

struct tblock {
	enum block_type type;
	const char *dot;
	/* B_DEFINE: the top-level key stack, put back at its end; the
	 * others: the stack at the block's start, put back at each else,
	 * whose branch is written at the same place as the first */
	struct key *saved;
	size_t nsaved;
};

struct scan {
	struct kvet_arena *arena;
	struct kvet_tindex *ti;
	size_t cap_lines, cap_docs, cap_defines;
	struct key keys[MAX_KEYS];
	size_t nkeys;
	struct tblock blocks[MAX_BLOCKS];
	size_t nblocks;
	int32_t define;
	/* the depth of the key stack when its top key was just written with
	 * no value (`volumes:`), 0 once anything else is: a block at the
	 * key's own column prints that key's items, as `k:\n- a` does */
	size_t empty_key;
	/* a scalar written as `key: |`: lines indented more are its text */
	bool in_scalar;
	uint32_t scalar_indent;
	bool oom;
};

static const char *cur_dot(const struct scan *s)
{
	size_t i = s->nblocks;

	while (i--)
		if (s->blocks[i].type == B_WITH || s->blocks[i].type == B_RANGE ||
		    s->blocks[i].type == B_DEFINE)
			return s->blocks[i].dot;
	return NULL;
}

/* The key path of the first @n keys of the stack. */
static const char *join_keys(struct scan *s, size_t n)
{
	struct kvet_strbuf sb;
	const char *out;
	size_t i;

	kvet_strbuf_init(&sb, NULL);
	for (i = 0; i < n; i++) {
		if (i)
			kvet_strbuf_add(&sb, &(char){ KVET_TPATH_SEP }, 1);
		kvet_strbuf_add(&sb, s->keys[i].seg, s->keys[i].len);
	}
	out = kvet_arena_strndup(s->arena, kvet_strbuf_str(&sb), sb.len);
	if (!out || sb.oom)
		s->oom = true;
	kvet_strbuf_release(&sb);
	return out ? out : "";
}

static struct kvet_tline *add_line(struct scan *s, enum kvet_tline_kind kind,
				   uint32_t line, uint32_t col)
{
	struct kvet_tindex *ti = s->ti;
	struct kvet_tline *tl;

	if (!kvet_arena_grow(s->arena, &ti->lines, &s->cap_lines, ti->n,
			     sizeof(*ti->lines))) {
		s->oom = true;
		return NULL;
	}
	tl = &ti->lines[ti->n++];
	memset(tl, 0, sizeof(*tl));
	tl->kind = (uint8_t)kind;
	tl->line = line;
	tl->col = col;
	tl->doc = (uint32_t)(ti->ndocs - 1);
	tl->define = s->define;
	tl->dot = cur_dot(s);
	return tl;
}

static void new_doc(struct scan *s)
{
	struct kvet_tindex *ti = s->ti;

	if (!kvet_arena_grow(s->arena, &ti->docs, &s->cap_docs, ti->ndocs,
			     sizeof(*ti->docs))) {
		s->oom = true;
		return;
	}
	memset(&ti->docs[ti->ndocs++], 0, sizeof(*ti->docs));
	s->nkeys = 0;
}

static void push_key(struct scan *s, uint32_t indent, bool dash,
		     const char *seg, size_t len)
{
	if (s->nkeys == MAX_KEYS)
		return;
	s->keys[s->nkeys++] = (struct key){ indent, dash, seg, len };
}

/* A dash at column @d: a new item of the sequence owned by the key
 * above (a key at the same column owns it too: `k:\n- a`). */
static void open_item(struct scan *s, uint32_t d)
{
	while (s->nkeys && (s->keys[s->nkeys - 1].indent > d ||
			    (s->keys[s->nkeys - 1].indent == d &&
			     s->keys[s->nkeys - 1].dash)))
		s->nkeys--;
	push_key(s, d, true, "-", 1);
}

static void open_key(struct scan *s, uint32_t col, const char *seg,
		     size_t len)
{
	while (s->nkeys && s->keys[s->nkeys - 1].indent >= col)
		s->nkeys--;
	push_key(s, col, false, seg, len);
}

/* How many keys of the stack are above content at column @col. */
static size_t keys_above(const struct scan *s, uint32_t col)
{
	size_t n = s->nkeys;

	while (n && s->keys[n - 1].indent >= col)
		n--;
	return n;
}

static bool starts_word(const char *p, const char *e, const char *w)
{
	size_t n = strlen(w);

	return (size_t)(e - p) >= n && !memcmp(p, w, n) &&
	       ((size_t)(e - p) == n || !isalnum((unsigned char)p[n]));
}

/* The values path an expression starting at @p names: ".Values.a.b",
 * "$.Values.a", or ".b" relative to @dot. */
static const char *values_path(struct kvet_arena *arena, const char *p,
			       const char *e, const char *dot)
{
	const char *q;

	if (*p == '$' && p + 1 < e && p[1] == '.')
		p++;
	if (starts_word(p, e, ".Values")) {
		p += 7;
		dot = "";
	} else if (!dot || *p != '.') {
		return NULL;
	}
	if (p < e && *p == '.')
		p++;
	for (q = p; q < e && (isalnum((unsigned char)*q) || *q == '_' ||
			      *q == '.' || *q == '-');
	     q++)
		;
	if (q > p && q[-1] == '.')
		q--;
	if (q == p)
		return kvet_arena_strdup(arena, dot);
	if (!*dot)
		return kvet_arena_strndup(arena, p, (size_t)(q - p));
	return kvet_arena_printf(arena, "%s.%.*s", dot, (int)(q - p), p);
}

/* The number after `nindent`/`indent` in an action, or -1. */
static long indent_of(const char *p, const char *e)
{
	const char *q;

	for (q = p; q + 6 <= e; q++) {
		const char *r = NULL;

		if ((size_t)(e - q) >= 8 && !memcmp(q, "nindent ", 8))
			r = q + 8;
		else if (!memcmp(q, "indent ", 7) &&
			 (q == p || !isalnum((unsigned char)q[-1])))
			r = q + 7;
		if (r) {
			long v = 0;

			while (r < e && *r == ' ')
				r++;
			if (r == e || !isdigit((unsigned char)*r))
				return -1;
			while (r < e && isdigit((unsigned char)*r) && v < 1000)
				v = v * 10 + (*r++ - '0');
			return v;
		}
	}
	return -1;
}

/* An action that prints a block: include "x", toYaml X, tpl. */
struct printer {
	bool found;
	const char *block;
	bool values;
	long indent;
};

static struct printer block_action(struct scan *s, const char *p,
				   const char *e)
{
	struct printer pr = { 0 };
	const char *q;

	pr.indent = indent_of(p, e);
	if (starts_word(p, e, "include") || starts_word(p, e, "template")) {
		p += *p == 'i' ? 7 : 8;
		while (p < e && *p == ' ')
			p++;
		if (p < e && *p == '"') {
			q = memchr(p + 1, '"', (size_t)(e - p - 1));
			if (q)
				pr.block = kvet_arena_strndup(s->arena, p + 1,
							      (size_t)(q - p - 1));
		}
		pr.found = true;
	} else if (starts_word(p, e, "toYaml")) {
		p += 6;
		while (p < e && *p == ' ')
			p++;
		pr.block = values_path(s->arena, p, e, cur_dot(s));
		pr.values = pr.block != NULL;
		pr.found = true;
	} else if (starts_word(p, e, "tpl") || starts_word(p, e, "toJson")) {
		pr.found = true;
	} else if (pr.indent >= 0 && !memchr(p, '=', (size_t)(e - p))) {
		/* `trim . | nindent 8`, `.Values.x | toYaml | nindent 4`: a
		 * block the index cannot follow, yet the fields under its
		 * keys are its (an assignment prints nothing) */
		pr.found = true;
	}
	return pr;
}

static void pop_block(struct scan *s)
{
	struct tblock *b;

	if (!s->nblocks)
		return;
	b = &s->blocks[--s->nblocks];
	if (b->type == B_DEFINE) {
		memcpy(s->keys, b->saved, b->nsaved * sizeof(*s->keys));
		s->nkeys = b->nsaved;
		s->define = -1;
		s->in_scalar = false;
	}
}

static void push_block(struct scan *s, enum block_type type, const char *dot)
{
	struct tblock *b;

	if (s->nblocks == MAX_BLOCKS) {
		s->blocks[s->nblocks - 1].type = B_OTHER;
		return;
	}
	b = &s->blocks[s->nblocks++];
	*b = (struct tblock){ .type = type, .dot = dot };
	if (type == B_DEFINE || !s->nkeys)
		return;
	b->saved = kvet_arena_array(s->arena, s->nkeys, sizeof(*s->keys));
	if (!b->saved) {
		s->oom = true;
		return;
	}
	memcpy(b->saved, s->keys, s->nkeys * sizeof(*s->keys));
	b->nsaved = s->nkeys;
}

static void else_branch(struct scan *s)
{
	struct tblock *b;

	if (!s->nblocks)
		return;
	b = &s->blocks[s->nblocks - 1];
	if (b->type == B_DEFINE)
		return;
	if (b->nsaved)
		memcpy(s->keys, b->saved, b->nsaved * sizeof(*s->keys));
	s->nkeys = b->nsaved;
	s->in_scalar = false;
}

static void open_define(struct scan *s, const char *p, const char *e)
{
	struct kvet_tindex *ti = s->ti;
	struct tblock *b;
	const char *q;

	while (p < e && *p == ' ')
		p++;
	q = p < e && *p == '"' ? memchr(p + 1, '"', (size_t)(e - p - 1)) : NULL;
	push_block(s, B_DEFINE, NULL);
	if (!q || s->define >= 0 || s->blocks[s->nblocks - 1].type != B_DEFINE) {
		if (s->nblocks)
			s->blocks[s->nblocks - 1].type = B_OTHER;
		return;
	}
	b = &s->blocks[s->nblocks - 1];
	b->saved = kvet_arena_array(s->arena, s->nkeys ? s->nkeys : 1,
				    sizeof(*s->keys));
	if (!b->saved ||
	    !kvet_arena_grow(s->arena, &ti->defines, &s->cap_defines,
			     ti->ndefines, sizeof(*ti->defines))) {
		s->oom = true;
		b->type = B_OTHER;
		return;
	}
	memcpy(b->saved, s->keys, s->nkeys * sizeof(*s->keys));
	b->nsaved = s->nkeys;
	ti->defines[ti->ndefines] =
		kvet_arena_strndup(s->arena, p + 1, (size_t)(q - p - 1));
	s->define = (int32_t)ti->ndefines++;
	s->nkeys = 0;
	s->in_scalar = false;
}

/* The control words of one action's text (trim marks removed). */
static void control(struct scan *s, const char *p, const char *e)
{
	const char *dot;

	if (starts_word(p, e, "if")) {
		push_block(s, B_IF, NULL);
	} else if (starts_word(p, e, "with")) {
		p += 4;
		while (p < e && *p == ' ')
			p++;
		dot = values_path(s->arena, p, e, cur_dot(s));
		push_block(s, B_WITH, dot);
	} else if (starts_word(p, e, "range")) {
		push_block(s, B_RANGE, NULL);
	} else if (starts_word(p, e, "define")) {
		open_define(s, p + 6, e);
	} else if (starts_word(p, e, "block")) {
		push_block(s, B_OTHER, NULL);
	} else if (starts_word(p, e, "end")) {
		pop_block(s);
	} else if (starts_word(p, e, "else")) {
		else_branch(s);
	}
}

/* The action text between {{ and }}, without trim marks and spaces. */
static void action_body(const char **p, const char **e)
{
	if (*p < *e && **p == '-')
		(*p)++;
	if (*e > *p && (*e)[-1] == '-')
		(*e)--;
	while (*p < *e && isspace((unsigned char)**p))
		(*p)++;
	while (*e > *p && isspace((unsigned char)(*e)[-1]))
		(*e)--;
}

/*
 * Say whether [p, e) holds anything but actions, count them and give the
 * body of the last in *@ob, *@oe; with @run, obey their control words.
 */
static bool scan_actions(struct scan *s, const char *p, const char *e,
			 bool run, const char **ob, const char **oe,
			 size_t *count)
{
	bool text = false;
	const char *a, *z;

	*count = 0;
	while (p < e) {
		a = memchr(p, '{', (size_t)(e - p));
		while (a && (a + 1 >= e || a[1] != '{'))
			a = memchr(a + 1, '{', (size_t)(e - a - 1));
		if (!a) {
			for (; p < e; p++)
				if (!isspace((unsigned char)*p))
					text = true;
			break;
		}
		for (; p < a; p++)
			if (!isspace((unsigned char)*p))
				text = true;
		z = NULL;
		for (p = a + 2; p + 1 < e; p++)
			if (p[0] == '}' && p[1] == '}') {
				z = p;
				break;
			}
		if (!z)
			z = e;
		{
			const char *bp = a + 2, *be = z;

			action_body(&bp, &be);
			if (be - bp < 2 || bp[0] != '/' || bp[1] != '*') {
				if (run)
					control(s, bp, be);
				*ob = bp;
				*oe = be;
				(*count)++;
			}
		}
		p = z + 2 > e ? e : z + 2;
	}
	return text;
}

static bool has_action(const char *p, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len; i++)
		if (p[i] == '{' && p[i + 1] == '{')
			return true;
	return false;
}

static const char *key_end(const char *p, const char *e)
{
	const char *q = p;
	int depth = 0;

	if (*q == '"' || *q == '\'') {
		const char *c = memchr(q + 1, *q, (size_t)(e - q - 1));

		if (!c || c + 1 >= e || c[1] != ':')
			return NULL;
		return (c + 2 == e || c[2] == ' ') ? c + 1 : NULL;
	}
	for (; q < e; q++) {
		if (q + 1 < e && q[0] == '{' && q[1] == '{')
			depth++;
		else if (q + 1 < e && q[0] == '}' && q[1] == '}')
			depth--;
		else if (!depth && *q == ':' && (q + 1 == e || q[1] == ' '))
			return q;
		else if (!depth && (*q == ' ' || *q == '#' || *q == ','))
			return NULL;
	}
	return NULL;
}

static void kv_line(struct scan *s, uint32_t lineno, uint32_t col,
		    const char *p, const char *e, uint32_t indent_col)
{
	const char *ke = key_end(p, e), *v, *seg = p, *ab = NULL, *ae = NULL;
	struct kvet_tline *tl;
	struct printer pr;
	size_t segl, count;
	bool text;

	if (!ke)
		return;
	segl = (size_t)(ke - p);
	if (*seg == '"' || *seg == '\'') {
		seg++;
		segl -= 2;
	}
	if (has_action(seg, segl)) {
		seg = "*";
		segl = 1;
	}
	v = ke + 1;
	while (v < e && *v == ' ')
		v++;
	open_key(s, indent_col, seg, segl);
	if (v == e)
		s->empty_key = s->nkeys;
	tl = add_line(s, KVET_TLINE_KEY, lineno, col);
	if (!tl)
		return;
	tl->path = join_keys(s, s->nkeys);
	tl->text = v;
	tl->text_len = (size_t)(e - v);
	text = scan_actions(s, v, e, false, &ab, &ae, &count);
	if (s->define < 0 && s->nkeys == 1 && segl == 4 &&
	    !memcmp(seg, "kind", 4) && !s->ti->docs[s->ti->ndocs - 1].kind_line) {
		struct kvet_tdoc *d = &s->ti->docs[s->ti->ndocs - 1];
		const char *k = v, *ke2 = e;

		if (ke2 > k && (*k == '"' || *k == '\'')) {
			k++;
			if (ke2 > k && (ke2[-1] == '"' || ke2[-1] == '\''))
				ke2--;
		}
		d->kind_line = lineno;
		d->kind_col = col;
		d->kind = kvet_arena_strndup(s->arena, k, (size_t)(ke2 - k));
	}
	if (!text && count == 1) {
		pr = block_action(s, ab, ae);
		if (pr.found && pr.indent >= 0) {
			struct kvet_tline *bl =
				add_line(s, KVET_TLINE_BLOCK, lineno,
					 (uint32_t)(v - p) + col);

			if (bl) {
				bl->path = tl->path;
				bl->block = pr.block;
				bl->values = pr.values;
			}
		}
	}
	if (v < e && (*v == '|' || *v == '>')) {
		s->in_scalar = true;
		s->scalar_indent = indent_col;
	}
}

static void scan_line(struct scan *s, uint32_t lineno, const char *p,
		      const char *e)
{
	uint32_t indent = 0, col;
	const char *ab = NULL, *ae = NULL;
	struct printer pr;
	size_t count;
	bool text;

	while (e > p && (e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
		e--;
	while (p < e && *p == ' ') {
		p++;
		indent++;
	}
	if (p == e)
		return;
	if (s->in_scalar && indent > s->scalar_indent) {
		scan_actions(s, p, e, true, &ab, &ae, &count);
		return;
	}
	s->in_scalar = false;
	if (s->define < 0 && indent == 0 && e - p >= 3 && !memcmp(p, "---", 3)) {
		new_doc(s);
		return;
	}
	if (*p == '#')
		return;
	text = scan_actions(s, p, e, true, &ab, &ae, &count);
	if (!text) {
		if (count != 1)
			return;
		pr = block_action(s, ab, ae);
		if (pr.found) {
			struct kvet_tline *tl;
			uint32_t at = pr.indent >= 0 ? (uint32_t)pr.indent
						     : indent;
			size_t depth = keys_above(s, at);

			if (s->empty_key && s->empty_key == s->nkeys &&
			    s->keys[s->nkeys - 1].indent == at) {
				push_key(s, at, true, "-", 1);
				depth = s->nkeys;
			}
			s->empty_key = 0;
			tl = add_line(s, KVET_TLINE_BLOCK, lineno, indent + 1);
			if (tl) {
				tl->path = join_keys(s, depth);
				tl->block = pr.block;
				tl->values = pr.values;
			}
		}
		return;
	}
	s->empty_key = 0;
	col = indent;
	while (p < e && *p == '-' && (p + 1 == e || p[1] == ' ')) {
		open_item(s, col);
		p++;
		col++;
		while (p < e && *p == ' ') {
			p++;
			col++;
		}
		if (p == e)
			return;
	}
	if (key_end(p, e)) {
		kv_line(s, lineno, col + 1, p, e, col);
	} else if (col > indent) {
		struct kvet_tline *tl = add_line(s, KVET_TLINE_ITEM, lineno,
						 col + 1);

		if (tl) {
			tl->path = join_keys(s, s->nkeys);
			tl->text = p;
			tl->text_len = (size_t)(e - p);
		}
	}
}

struct kvet_tindex *kvet_tindex_build(struct kvet_arena *arena,
				      const char *file, const char *buf,
				      size_t len)
{
	struct scan s = { .arena = arena, .define = -1 };
	const char *p = buf, *e = buf + len, *nl;
	uint32_t lineno = 0;

	s.ti = kvet_arena_alloc(arena, sizeof(*s.ti));
	if (!s.ti)
		return NULL;
	memset(s.ti, 0, sizeof(*s.ti));
	s.ti->file = file;
	new_doc(&s);
	while (p < e && !s.oom) {
		nl = memchr(p, '\n', (size_t)(e - p));
		if (!nl)
			nl = e;
		scan_line(&s, ++lineno, p, nl);
		p = nl + 1;
	}
	return s.oom ? NULL : s.ti;
}

static const char *seg_end(const char *p)
{
	const char *q = strchr(p, KVET_TPATH_SEP);

	return q ? q : p + strlen(p);
}

bool kvet_tpath_eq(const char *a, const char *b)
{
	return kvet_tpath_under(a, b) && !*kvet_tpath_under(a, b);
}

const char *kvet_tpath_under(const char *path, const char *prefix)
{
	const char *pe, *qe;

	if (!*prefix)
		return path;
	for (;;) {
		pe = seg_end(path);
		qe = seg_end(prefix);
		if (!*path)
			return NULL;
		if (!((qe - prefix == 1 && *prefix == '*') ||
		      (pe - path == 1 && *path == '*') ||
		      (pe - path == qe - prefix &&
		       !memcmp(path, prefix, (size_t)(pe - path)))))
			return NULL;
		if (!*qe)
			return *pe ? pe + 1 : pe;
		if (!*pe)
			return NULL;
		path = pe + 1;
		prefix = qe + 1;
	}
}

/* Glob match of [t, te) against [x, xe), with actions as the stars;
 * iterative, backtracking to the last action only (linear in practice). */
static bool glob(const char *t, const char *te, const char *x, const char *xe)
{
	const char *st = NULL, *sx = NULL, *z;

	while (x < xe || t < te) {
		if (t + 1 < te && t[0] == '{' && t[1] == '{') {
			z = t + 2;
			while (z + 1 < te && !(z[0] == '}' && z[1] == '}'))
				z++;
			t = z + 2 > te ? te : z + 2;
			st = t;
			sx = x;
			continue;
		}
		if (t < te && x < xe && *t == *x) {
			t++;
			x++;
			continue;
		}
		if (st && sx < xe) {
			t = st;
			x = ++sx;
			continue;
		}
		return false;
	}
	return true;
}

bool kvet_ttext_match(const char *tpl, size_t tlen, const char *text,
		      size_t len)
{
	const char *t = tpl, *te = tpl + tlen;
	const char *c;

	/* a trailing comment is no part of the value */
	for (c = t; c + 1 < te; c++)
		if (c[0] == ' ' && c[1] == '#') {
			te = c;
			break;
		}
	while (te > t && te[-1] == ' ')
		te--;
	if (te - t >= 2 && (*t == '"' || *t == '\'') && te[-1] == *t) {
		t++;
		te--;
	}
	return glob(t, te, text, text + len);
}

const char *kvet_tvalues_ref(struct kvet_arena *arena, const char *tpl,
			     size_t tlen, const char *dot)
{
	const char *p = tpl, *e = tpl + tlen, *found = NULL, *v;
	bool in = false;

	for (; p < e; p++) {
		if (p + 1 < e && p[0] == '{' && p[1] == '{') {
			in = true;
			p++;
			continue;
		}
		if (p + 1 < e && p[0] == '}' && p[1] == '}') {
			in = false;
			p++;
			continue;
		}
		if (!in || (*p != '.' && *p != '$'))
			continue;
		if (p > tpl && (isalnum((unsigned char)p[-1]) || p[-1] == '_' ||
				p[-1] == '.' || p[-1] == ')' || p[-1] == '$'))
			continue;
		if (*p == '.' && (starts_word(p, e, ".Release") ||
				  starts_word(p, e, ".Chart") ||
				  starts_word(p, e, ".Capabilities") ||
				  starts_word(p, e, ".Template") ||
				  starts_word(p, e, ".Files")))
			continue;
		if (*p == '$' && !(p + 1 < e && p[1] == '.'))
			continue;
		if (*p == '.' && !starts_word(p, e, ".Values") &&
		    (p + 1 == e || !isalpha((unsigned char)p[1])))
			continue;
		v = values_path(arena, p, e, dot);
		if (!v)
			continue;
		if (found && strcmp(found, v))
			return NULL;
		found = v;
	}
	return found && *found ? found : NULL;
}
