/* SPDX-License-Identifier: Apache-2.0 */
#include "load/block.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/vec.h"
#include "load/build.h"
#include "load/collection.h"
#include "load/keyset.h"
#include "load/node.h"
#include "load/quoted.h"

/*
 * One pass over lines, no recursion: open collections are frames with
 * the indentation of their keys or dashes, finished children wait on one
 * stack and are copied into the arena when their collection closes, as
 * in the builder (build.c) and the JSON scanner (json.c). Each line's
 * indentation closes the frames deeper than it. Wherever libfyaml could
 * read the text otherwise, or report an error, the scan declines.
 */

enum {
	/* libfyaml's limit on the length of a simple key */
	MAX_KEY = 1024,
};

struct bframe {
	struct kvet_scan_frame s;
	size_t indent;		/* bytes before its keys or dashes */
};

struct bscan {
	const char *buf;
	size_t end;
	size_t bol, eol;	/* the line being read */
	uint32_t line;		/* its 1-based number */

	struct kvet_arena *arena;
	struct kvet_node *stack;
	size_t n, cap;
	struct bframe *frames;
	size_t depth, capframes;
	struct kvet_keyset keys;
	/* the last key read has no value on its line: it is on the next
	 * lines, or empty */
	bool pending;
	bool bail;		/* not for this path, or out of memory */
	bool oom;
};

static bool give_up(struct bscan *j)
{
	j->bail = true;
	return false;
}

static struct bframe *top(struct bscan *j)
{
	return j->depth ? &j->frames[j->depth - 1] : NULL;
}

static bool in_skip(struct bscan *j)
{
	return j->depth && j->frames[j->depth - 1].s.skip;
}

static bool push(struct bscan *j, const struct kvet_node *n)
{
	if (in_skip(j))
		return true;
	if (!kvet_vec_grow((void **)&j->stack, &j->cap, j->n + 1,
			   sizeof(*j->stack))) {
		j->oom = j->bail = true;
		return false;
	}
	j->stack[j->n++] = *n;
	return true;
}

static uint32_t col_of(const struct bscan *j, size_t at)
{
	/* what comes before a node on its line is ASCII: indentation,
	 * dashes and keys (scan_scalar() declines other keys) */
	return (uint32_t)(at - j->bol) + 1;
}

/*
 * A byte of a multi-byte character: the input is valid UTF-8 (the
 * sanitizer ran). Declined: what YAML reads as a line break (NEL, LS,
 * PS), a byte order mark, and the characters YAML does not print (U+0080
 * to U+009F, U+FFFE, U+FFFF), where libfyaml may differ or fail.
 */
static bool high_ok(const char *buf, size_t i, size_t end)
{
	const unsigned char *q = (const unsigned char *)buf + i;
	size_t left = end - i;

	if (q[0] == 0xc2)
		return left >= 2 && q[1] >= 0xa0;
	if (q[0] == 0xe2)
		return !(left >= 3 && q[1] == 0x80 &&
			 (q[2] == 0xa8 || q[2] == 0xa9));
	if (q[0] == 0xef)
		return !(left >= 3 && ((q[1] == 0xbb && q[2] == 0xbf) ||
				       (q[1] == 0xbf && q[2] >= 0xbe)));
	return true;
}

/*
 * Bytes that stop the quick scan of a plain scalar's text (1: ':', '#',
 * control characters, DEL and every byte of a multi-byte character),
 * and those that cannot start one (2: YAML's indicators, 9.1.1 and 7.3.3;
 * '-' is checked apart).
 */
enum { STOP = 1, INDICATOR = 2 };

static const unsigned char byte_class[256] = {
	/* 0x00 to 0xff, sixteen a row */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	0, 2, 0, 3, 0, 2, 2, 0, 0, 0, 2, 0, 2, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 2, 2,
	2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2, 0, 0,
	2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 2, 0, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
};

/*
 * A comment from @i to the end of the line, whose text nothing reads: but
 * a CR or a NEL, LS or PS in it would end it early for libfyaml (YAML
 * 5.4: a lone CR is a line break), and what follows would be content.
 */
static bool comment_ok(const struct bscan *j, size_t i)
{
	for (; i < j->eol; i++) {
		unsigned char c = (unsigned char)j->buf[i];

		if ((c < 0x20 && c != '\t') || c == 0x7f ||
		    (c >= 0x80 && !high_ok(j->buf, i, j->eol)))
			return false;
	}
	return true;
}

/* Is the rest of the line from @i blanks, maybe then a comment? */
static bool line_done(const struct bscan *j, size_t i)
{
	bool blank = false;

	while (i < j->eol && j->buf[i] == ' ') {
		i++;
		blank = true;
	}
	return i == j->eol || (blank && j->buf[i] == '#' && comment_ok(j, i));
}

/* A "- " (or "-" at the end of the line) at @i: a sequence entry. */
static bool dash_at(const struct bscan *j, size_t i)
{
	return i < j->eol && j->buf[i] == '-' &&
	       (i + 1 == j->eol || j->buf[i + 1] == ' ');
}

/*
 * A quoted scalar at @i whose closing quote is on a later line, as
 * kubectl's YAML writer (go-yaml) breaks a long quoted value: its lines
 * up to the quote, decoded as the builder decodes them (load/quoted.h).
 * Declined: a line not more indented than the collection on top, a tab,
 * a CR or another control character, a character libfyaml may read
 * otherwise (high_ok()), anything but blanks or a comment after the
 * quote, and an escape the decoder leaves to libfyaml. The next line to
 * read is left in j->bol.
 */
static bool quoted_lines(struct bscan *j, size_t i, struct kvet_node *n)
{
	const char *buf = j->buf;
	size_t floor = top(j)->indent, save = j->eol, e = j->eol, p, k;
	char q = buf[i];
	uint32_t lines = 0;
	bool closed = false, done;
	const char *nl;
	char *text;
	long len;

	/* the quote's line, then each next one, up to the closing quote */
	for (k = i + 1; !closed;) {
		for (; k < e; k++) {
			unsigned char c = (unsigned char)buf[k];

			if (c == q && q == '\'' && k + 1 < e && buf[k + 1] == q) {
				k++;
			} else if (c == q) {
				closed = true;
				break;
			} else if (c == '\\' && q == '"' && k + 1 < e) {
				k++;
			} else if (c < 0x20 || c == 0x7f ||
				   (c >= 0x80 && !high_ok(buf, k, e))) {
				return give_up(j);
			}
		}
		if (closed)
			break;
		/* the next line: more indented than the parent, or empty */
		p = e + 1;
		nl = p < j->end ? memchr(buf + p, '\n', j->end - p) : NULL;
		if (!nl)
			return give_up(j);
		e = (size_t)(nl - buf);
		lines++;
		for (k = p; k < e && buf[k] == ' '; k++)
			;
		if (k < e && k - p <= floor)
			return give_up(j);
	}
	/* after the quote: the end of its line, or a comment */
	j->eol = e;
	done = line_done(j, k + 1);
	j->eol = save;
	if (!done)
		return give_up(j);
	text = kvet_arena_alloc(j->arena, kvet_quoted_room(k - i - 1));
	if (!text) {
		j->oom = j->bail = true;
		return false;
	}
	len = kvet_quoted_text(q == '"', buf + i + 1, k - i - 1, text);
	if (len < 0)
		return give_up(j);
	n->type = KVET_NODE_STRING;
	n->flags = KVET_NODE_QUOTED;
	n->u.str = text;
	n->len = (uint32_t)len;
	/* go on at the line after the closing quote's */
	j->line += lines + 1;
	j->bol = e + 1;
	return true;
}

/*
 * The scalar at @i, which is not at the end of the line: plain, or
 * quoted (quoted_lines() takes escapes and more lines). *@next is where
 * it ends; *@key is set when a ':' and a blank (or the line's end)
 * follow it, which makes it a mapping key. Declines what needs libfyaml.
 */
static bool scan_scalar(struct bscan *j, size_t i, struct kvet_node *n,
			size_t *next, bool *key)
{
	const char *buf = j->buf;
	size_t eol = j->eol, s = i, e;
	bool ascii = true;

	memset(n, 0, sizeof(*n));
	n->line = j->line;
	n->col = col_of(j, i);
	*key = false;
	if (buf[i] == '"' || buf[i] == '\'') {
		char q = buf[i];

		for (e = i + 1; e < eol && buf[e] != q; e++) {
			unsigned char c = (unsigned char)buf[e];

			if (c == '\\' && q == '"') {
				*next = eol;
				return quoted_lines(j, i, n);
			}
			if (c < 0x20 || c == 0x7f)
				return give_up(j);
			if (c >= 0x80) {
				ascii = false;
				if (!high_ok(buf, e, eol))
					return give_up(j);
			}
		}
		/* no closing quote on the line, or '' in a single-quoted one:
		 * a scalar of several lines, or to be decoded */
		if (e >= eol || (e + 1 < eol && buf[e + 1] == q)) {
			*next = eol;
			return quoted_lines(j, i, n);
		}
		n->type = KVET_NODE_STRING;
		n->flags = KVET_NODE_QUOTED;
		n->u.str = buf + i + 1;
		n->len = (uint32_t)(e - i - 1);
		e++;
		if (e < eol && buf[e] == ':' &&
		    (e + 1 == eol || buf[e + 1] == ' ')) {
			*key = true;
		} else if (!line_done(j, e)) {
			return give_up(j);
		}
		*next = e;
		if (*key && (!ascii || n->len > MAX_KEY))
			return give_up(j);
		return true;
	}
	/* indicators that start something else than a plain scalar; a '-',
	 * ':' or '?' is plain when a non-blank follows it (args:
	 * --port=80, -1; value: :9236), and such a value is no key here */
	if (buf[i] == '-' || buf[i] == ':' || buf[i] == '?') {
		if (i + 1 == eol || buf[i + 1] == ' ')
			return give_up(j);
	} else if (byte_class[(unsigned char)buf[i]] & INDICATOR) {
		return give_up(j);
	}
	for (e = i; e < eol; e++) {
		unsigned char c = (unsigned char)buf[e];

		if (!(byte_class[c] & STOP))
			continue;

		if (c == ':' && (e + 1 == eol || buf[e + 1] == ' ')) {
			*key = true;
			break;
		}
		if (c == '#' && buf[e - 1] == ' ') {
			if (!comment_ok(j, e))
				return give_up(j);
			break;
		}
		if (c < 0x20 || c == 0x7f)
			return give_up(j);
		if (c >= 0x80) {
			ascii = false;
			if (!high_ok(buf, e, eol))
				return give_up(j);
		}
	}
	*next = e;
	while (e > s && buf[e - 1] == ' ')
		e--;
	if (*key && (!ascii || e - s > MAX_KEY || e == s ||
		     buf[s] == ':' || buf[s] == '?' ||
		     (e - s == 2 && buf[s] == '<' && buf[s + 1] == '<')))
		return give_up(j);
	n->u.str = buf + s;
	n->len = (uint32_t)(e - s);
	n->type = (uint8_t)kvet_scalar_type(n->u.str, n->len);
	return true;
}

/* Open a collection at @i; a value of the mapping on top, or an item of
 * the sequence on top, or the root. */
static bool open_frame(struct bscan *j, uint8_t type, size_t i,
		       uint32_t line, uint32_t col)
{
	struct bframe *f;

	if (j->depth >= KVET_LOAD_MAX_DEPTH)
		return give_up(j);
	if (!kvet_vec_grow((void **)&j->frames, &j->capframes, j->depth + 1,
			   sizeof(*j->frames))) {
		j->oom = j->bail = true;
		return false;
	}
	f = &j->frames[j->depth];
	f->indent = i - j->bol;
	j->n = kvet_scan_frame_open(&f->s, j->depth ? &top(j)->s : NULL, type,
				    line, col, j->stack, j->n);
	j->depth++;
	return true;
}

/* The builder's node of a collection: children copied out, flow or not. */
static bool close_frame(struct bscan *j, uint8_t flags)
{
	struct bframe f = j->frames[--j->depth];
	struct kvet_node n = { 0 };
	int rc;

	if (f.s.skip)
		return true;
	rc = kvet_scan_frame_node(j->arena, &j->keys, &f.s, flags, j->stack,
				  j->n, &n);
	if (rc) {
		j->oom = j->oom || rc < 0;
		return give_up(j);
	}
	j->n = f.s.start;
	return push(j, &n);
}

/* An empty value ("replicas:"): libfyaml gives it no mark, and a piece
 * puts such nodes on line 1, column 1, as the whole parse does (build.c,
 * kvet_build_mark()). */
static bool empty_value(struct bscan *j)
{
	struct kvet_node n = { 0 };

	n.type = (uint8_t)kvet_scalar_type("", 0);
	n.line = 1;
	n.col = 1;
	n.u.str = "";
	return push(j, &n);
}

/*
 * A "|" or "|-" literal block after a key or a dash at @i: its lines,
 * more indented than the collection on top, without their indentation.
 * The next line to read is left in j->bol.
 */
static bool literal(struct bscan *j, size_t i)
{
	const char *buf = j->buf;
	struct kvet_node n = { 0 };
	size_t h = i + 1, p, indent = 0, len = 0, last = 0, k;
	size_t floor = top(j)->indent;
	bool strip = false, first = true;
	uint32_t lines = 0;
	char *text;

	n.type = KVET_NODE_STRING;
	n.flags = KVET_NODE_QUOTED;
	/* libfyaml's mark of a block scalar: the start of its first line */
	n.line = j->line + 1;
	n.col = 1;
	if (h < j->eol && buf[h] == '-') {
		strip = true;
		h++;
	}
	if (!line_done(j, h))
		return give_up(j);
	/* measure: the content lines up to the last one with text */
	for (p = j->eol + 1; p < j->end;) {
		const char *nl = memchr(buf + p, '\n', j->end - p);
		size_t e = nl ? (size_t)(nl - buf) : j->end, sp = p;

		if (!nl)
			return give_up(j);
		while (sp < e && buf[sp] == ' ')
			sp++;
		if (first) {
			/* the first line sets the indentation: no empty
			 * lines before it, and deeper than the parent */
			if (sp == e || sp - p <= floor)
				return give_up(j);
			indent = sp - p;
			first = false;
		}
		if (sp == e) {
			/* blanks beyond the indentation would be text */
			if (sp - p > indent)
				return give_up(j);
		} else if (sp - p < indent) {
			break;
		} else {
			for (k = p + indent; k < e; k++) {
				unsigned char c = (unsigned char)buf[k];

				if ((c < 0x20 && c != '\t') || c == 0x7f)
					return give_up(j);
				if (c >= 0x80 && !high_ok(buf, k, e))
					return give_up(j);
			}
			last = e + 1;
		}
		p = e + 1;
	}
	if (first || !last)
		return give_up(j);
	/* copy: each line without its indentation, with its line break */
	for (p = j->eol + 1; p < last;) {
		const char *nl = memchr(buf + p, '\n', last - p);
		size_t e = (size_t)(nl - buf);

		len += e - p > indent ? e - p - indent + 1 : 1;
		p = e + 1;
		lines++;
	}
	text = kvet_arena_alloc(j->arena, len + 1);
	if (!text) {
		j->oom = j->bail = true;
		return false;
	}
	for (p = j->eol + 1, len = 0; p < last;) {
		const char *nl = memchr(buf + p, '\n', last - p);
		size_t e = (size_t)(nl - buf);

		if (e - p > indent) {
			memcpy(text + len, buf + p + indent, e - p - indent);
			len += e - p - indent;
		}
		text[len++] = '\n';
		p = e + 1;
	}
	if (strip)
		len--;
	text[len] = '\0';
	n.u.str = text;
	n.len = (uint32_t)len;
	if (!push(j, &n))
		return false;
	/* go on at the line after the block's last */
	j->line += lines + 1;
	j->bol = last;
	return true;
}

/*
 * The lines that go on with the plain scalar @n, which ends its line:
 * lines more indented than the collection on top, as kubectl's YAML
 * writer (go-yaml) breaks a long value at 80 columns. A line break and
 * the blanks around it are one space. Declined: a continuation that
 * starts with an indicator, a tab or "- ", or holds ": ", " #" or a
 * control character, where libfyaml may read it otherwise or refuse
 * it. An empty line ends the scan of continuations, and a continuation
 * after it is declined by line(). The next line to read is left in
 * j->bol.
 */
static bool plain_lines(struct bscan *j, struct kvet_node *n)
{
	const char *buf = j->buf;
	size_t floor = top(j)->indent, p = j->eol + 1, last = 0, len = n->len;
	size_t k, sp, e, te;
	uint32_t lines = 0;
	char *text, *o;

	for (; p < j->end; p = e + 1) {
		const char *nl = memchr(buf + p, '\n', j->end - p);

		e = nl ? (size_t)(nl - buf) : j->end;
		for (sp = p; sp < e && buf[sp] == ' '; sp++)
			;
		if (sp == e || sp - p <= floor || buf[sp] == '#')
			break;
		/* "-Dx=1" goes on, "- x" is an entry to libfyaml */
		if ((byte_class[(unsigned char)buf[sp]] & INDICATOR) ||
		    (buf[sp] == '-' && (sp + 1 == e || buf[sp + 1] == ' ')))
			return give_up(j);
		for (k = sp; k < e; k++) {
			unsigned char c = (unsigned char)buf[k];

			if ((c == ':' && (k + 1 == e || buf[k + 1] == ' ')) ||
			    (c == '#' && buf[k - 1] == ' ') || c < 0x20 ||
			    c == 0x7f || (c >= 0x80 && !high_ok(buf, k, e)))
				return give_up(j);
		}
		for (te = e; buf[te - 1] == ' '; te--)
			;
		len += 1 + (te - sp);
		lines++;
		last = nl ? e + 1 : j->end;
	}
	if (!lines)
		return true;
	text = kvet_arena_alloc(j->arena, len + 1);
	if (!text) {
		j->oom = j->bail = true;
		return false;
	}
	memcpy(text, n->u.str, n->len);
	o = text + n->len;
	for (p = j->eol + 1; p < last; p = e + 1) {
		for (sp = p; buf[sp] == ' '; sp++)
			;
		for (e = sp; e < j->end && buf[e] != '\n'; e++)
			;
		for (k = e; buf[k - 1] == ' '; k--)
			;
		*o++ = ' ';
		memcpy(o, buf + sp, k - sp);
		o += k - sp;
	}
	*o = '\0';
	n->u.str = text;
	n->len = (uint32_t)len;
	n->type = (uint8_t)kvet_scalar_type(text, len);
	/* go on at the line after the last continuation */
	j->line += lines + 1;
	j->bol = last;
	return true;
}

/*
 * A value after a key's ':' or a dash, at @i on the line: a scalar, an
 * empty "{}" or "[]", a literal block, or, for an item (@item), a
 * mapping whose first key is there. Nothing: the value is on the next
 * lines. Returns false when the scan ends.
 */
static bool value(struct bscan *j, size_t i, bool item)
{
	const char *buf = j->buf;
	struct kvet_node n;
	size_t next;
	bool key;

	while (i < j->eol && buf[i] == ' ')
		i++;
	if (i == j->eol || buf[i] == '#') {
		if (item || !comment_ok(j, i))
			return give_up(j);
		j->pending = true;
		return true;
	}
	if ((buf[i] == '{' || buf[i] == '[') && i + 1 < j->eol &&
	    buf[i + 1] == (buf[i] == '{' ? '}' : ']') && line_done(j, i + 2))
		return open_frame(j, buf[i] == '{' ? KVET_NODE_MAP : KVET_NODE_SEQ,
				  i, j->line, col_of(j, i)) &&
		       close_frame(j, KVET_NODE_FLOW);
	if (buf[i] == '|')
		return literal(j, i);
	if (!scan_scalar(j, i, &n, &next, &key))
		return false;
	if (key && !item)
		return give_up(j);
	if (key) {
		if (!open_frame(j, KVET_NODE_MAP, i, n.line, n.col) ||
		    !push(j, &n))
			return false;
		return value(j, next + 1, false);
	}
	if (!(n.flags & KVET_NODE_QUOTED) && next == j->eol &&
	    !plain_lines(j, &n))
		return false;
	return push(j, &n);
}

/* One line, not blank, that starts at indentation @indent (@i). */
static bool line(struct bscan *j, size_t i, size_t indent)
{
	struct bframe *f;
	struct kvet_node n;
	size_t next;
	bool key;

	if (indent == 0 && j->eol - i >= 3 &&
	    (memcmp(j->buf + i, "---", 3) == 0 ||
	     memcmp(j->buf + i, "...", 3) == 0))
		return give_up(j);
	if (j->pending) {
		j->pending = false;
		f = top(j);
		if (indent > f->indent)
			/* a nested collection: its first entry is here */
			return open_frame(j,
					  dash_at(j, i) ? KVET_NODE_SEQ
							: KVET_NODE_MAP,
					  i, j->line, col_of(j, i)) &&
			       line(j, i, indent);
		if (indent == f->indent && dash_at(j, i))
			/* a sequence at its key's indentation */
			return open_frame(j, KVET_NODE_SEQ, i, j->line,
					  col_of(j, i)) &&
			       line(j, i, indent);
		if (!empty_value(j))
			return false;
	}
	while (j->depth > 1 && top(j)->indent > indent)
		if (!close_frame(j, 0))
			return false;
	f = top(j);
	if (f->s.type == KVET_NODE_SEQ && f->indent == indent &&
	    !dash_at(j, i)) {
		/* the end of a sequence at its key's indentation */
		if (j->depth < 2 || j->frames[j->depth - 2].indent != indent ||
		    !close_frame(j, 0))
			return give_up(j);
		f = top(j);
	}
	if (f->indent != indent)
		return give_up(j);
	if (f->s.type == KVET_NODE_SEQ) {
		if (!dash_at(j, i))
			return give_up(j);
		i++;
		if (i < j->eol && j->buf[i] == ' ')
			i++;
		while (i < j->eol && j->buf[i] == ' ')
			i++;
		if (dash_at(j, i))
			return give_up(j);
		return value(j, i, true);
	}
	if (!scan_scalar(j, i, &n, &next, &key))
		return false;
	if (!key)
		return give_up(j);
	return push(j, &n) && value(j, next + 1, false);
}

static void release(struct bscan *j)
{
	free(j->stack);
	free(j->frames);
	kvet_keyset_release(&j->keys);
}

int kvet_block_items(struct kvet_arena *arena, const char *buf, size_t start,
		     size_t end, uint32_t line_no, struct kvet_docs *out)
{
	struct bscan j = { 0 };
	struct kvet_arena_mark mark;
	size_t indent, i;
	int ret = 0;

	kvet_arena_mark(arena, &mark);
	j.buf = buf;
	j.end = end;
	j.bol = start;
	j.line = line_no;
	j.arena = arena;
	/* the root: the sequence of the first line's dash */
	for (i = start; i < end && buf[i] == ' '; i++)
		;
	{
		const char *nl = memchr(buf + start, '\n', end - start);

		j.eol = nl ? (size_t)(nl - buf) : end;
	}
	if (i >= end || !dash_at(&j, i) || !open_frame(&j, KVET_NODE_SEQ, i,
						       line_no, col_of(&j, i)))
		goto out;
	while (j.bol < end && !j.bail) {
		const char *nl = memchr(buf + j.bol, '\n', end - j.bol);
		size_t next;

		j.eol = nl ? (size_t)(nl - buf) : end;
		next = j.eol + 1;
		for (i = j.bol; i < j.eol && buf[i] == ' '; i++)
			;
		indent = i - j.bol;
		if (i < j.eol && buf[i] == '#' && !comment_ok(&j, i)) {
			give_up(&j);
			break;
		}
		if (i < j.eol && buf[i] != '#') {
			size_t bol = j.bol;

			if (!line(&j, i, indent))
				break;
			if (j.bol != bol) {
				/* a literal block read its lines */
				continue;
			}
		}
		j.bol = next;
		j.line++;
	}
	if (j.bail)
		goto out;
	if (j.pending && !empty_value(&j))
		goto out;
	while (j.depth)
		if (!close_frame(&j, 0))
			goto out;
	if (j.n != 1 || j.stack[0].type != KVET_NODE_SEQ)
		goto out;
	{
		struct kvet_node *root = kvet_arena_alloc(arena, sizeof(*root));

		if (!root || !kvet_vec_grow((void **)&out->v, &out->cap,
					    out->n + 1, sizeof(*out->v))) {
			j.oom = true;
			goto out;
		}
		*root = j.stack[0];
		out->v[out->n].root = root;
		out->v[out->n].source = NULL;
		out->v[out->n].index = 0;
		out->n++;
		ret = 1;
	}
out:
	if (j.oom)
		ret = -1;
	if (ret != 1)
		kvet_arena_reset(arena, &mark);
	release(&j);
	return ret;
}
