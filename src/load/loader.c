/* SPDX-License-Identifier: Apache-2.0 */
#include "load/load.h"

#include <libfyaml.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/vec.h"
#include "load/build.h"
#include "load/countable.h"
#include "load/fyparser.h"
#include "load/json.h"
#include "load/sanitize.h"
#include "load/split.h"

/*
 * The stream driver: feeds libfyaml's events to the tree builder, turns
 * finished roots into documents, attaches Helm "# Source:" comments, and
 * recovers from errors so that one bad document never hides the others.
 * libfyaml's own document trees cost about 35 bytes per input byte and
 * resolve aliases without any bound (LIBS.md 1e, 1f); events cost close to
 * a scan, which is why kvet builds its own tree.
 */

void kvet_docs_release(struct kvet_docs *docs)
{
	if (!docs)
		return;
	free(docs->v);
	memset(docs, 0, sizeof(*docs));
}

/*
 * A document that held an invalid byte was reported when the byte was
 * replaced; drop it once its extent, up to @bound, is known.
 */
/*
 * Report the invalid bytes before @bound. The first one at or after
 * @from says which document it cost (@doc, 1-based, and @lost, its kind
 * and name), when @doc is not 0.
 */
static void report_bad(struct kvet_builder *b, size_t bound, size_t from,
		       uint32_t doc, const char *lost)
{
	while (b->detaili < b->ndetail && b->detail[b->detaili].offset < bound) {
		const struct kvet_utf8_bad *bad = &b->detail[b->detaili++];
		const char *what = bad->is_nul ? "NUL byte in the input"
					       : "invalid UTF-8 byte sequence";

		if (doc && bad->offset >= from) {
			kvet_diag_addf(b->diag, b->name, bad->line, bad->col,
				       "%s: document %u%s not loaded", what,
				       doc, lost);
			doc = 0;
		} else {
			kvet_diag_addf(b->diag, b->name, bad->line, bad->col,
				       "%s", what);
		}
	}
}

static void settle_pending(struct kvet_builder *b, size_t bound)
{
	const struct kvet_doc *d = b->pending ? &b->out->v[b->out->n - 1] : NULL;
	char lost[256] = "";
	size_t i;

	/* the published document is dropped if a bad byte is in it */
	for (i = b->badi; d && i < b->nbad && b->bad[i] < bound; i++)
		if (b->bad[i] >= b->pending_start) {
			kvet_build_describe(kvet_node_get(d->root, "kind"),
					    kvet_node_path(d->root, "metadata",
							   "name", NULL),
					    lost, sizeof(lost));
			report_bad(b, bound, b->pending_start, d->index + 1,
				   lost);
			break;
		}
	report_bad(b, bound, 0, 0, NULL);
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

static void begin_doc(struct kvet_builder *b, struct fy_event *fye)
{
	uint32_t line, col;
	size_t pos;

	kvet_build_mark(b, fy_event_start_mark(fye), &line, &col, &pos);
	settle_pending(b, pos);
	b->in_doc = true;
	b->doc_failed = false;
	b->doc_start = pos;
	b->have_root_pos = false;
	b->root_type = KVET_NODE_NULL;
	b->flow_root_ended = false;
	b->doc_alias_weight = 0;
	b->skip_depth = 0;
	b->depth = 0;
	b->nscratch = 0;
	b->nanchors = 0;
	if (b->anchor_index.n && !kvet_keyset_reset(&b->anchor_index, 0))
		b->oom = true;
}

/* The last "# Source: path" comment between a document's start and its
 * first node: the template Helm rendered the document from. */
static const char *helm_source(struct kvet_builder *b)
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

static void end_doc(struct kvet_builder *b)
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
	if (!kvet_vec_grow((void **)&b->out->v, &b->out->cap, b->out->n + 1,
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

/*
 * A document that holds an invalid byte is dropped in the end (the byte
 * was reported already): stop building it at the first event past the
 * byte, so that a binary file read as one huge mapping costs no memory.
 */
static void check_bad_bytes(struct kvet_builder *b, struct fy_event *fye)
{
	const struct fy_mark *m = fy_event_start_mark(fye);
	char lost[256];

	if (b->in_doc && !b->doc_failed && m &&
	    b->bad[b->badi] <= b->base_pos + m->input_pos) {
		b->doc_failed = true;
		kvet_build_lost(b, lost, sizeof(lost));
		report_bad(b, b->base_pos + m->input_pos + 1, b->bad[b->badi],
			   b->doc_index + 1, lost);
	}
}

/* Where a flow root ends; see next_json_value(). */
static void note_root_end(struct kvet_builder *b, struct fy_event *fye)
{
	const struct fy_mark *m = fy_event_end_mark(fye);

	b->flow_root_ended = m && b->root_flow;
	if (!b->flow_root_ended)
		return;
	b->root_end = b->base_pos + m->input_pos;
	b->root_end_line = b->base_line + (uint32_t)m->line;
	b->root_end_col = (uint32_t)m->column +
			  (m->line == 0 ? b->base_col : 0);
}

static void on_event(struct kvet_builder *b, struct fy_event *fye)
{
	if (b->badi < b->nbad)
		check_bad_bytes(b, fye);
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
		b->parser_docs++;
		break;
	case FYET_MAPPING_START:
		if (!b->doc_failed)
			kvet_build_open(b, fye, KVET_NODE_MAP);
		else
			b->skip_depth = 1;
		break;
	case FYET_SEQUENCE_START:
		if (!b->doc_failed)
			kvet_build_open(b, fye, KVET_NODE_SEQ);
		else
			b->skip_depth = 1;
		break;
	case FYET_MAPPING_END:
	case FYET_SEQUENCE_END:
		if (b->depth == 1)
			note_root_end(b, fye);
		kvet_build_close(b);
		break;
	case FYET_SCALAR:
		if (!b->doc_failed)
			kvet_build_scalar(b, fye);
		break;
	case FYET_ALIAS:
		if (!b->doc_failed)
			kvet_build_alias(b, fye);
		break;
	default:
		break;
	}
}

/* Byte offset of the start of 1-based @line counted from @from. */
static size_t line_offset(const struct kvet_builder *b, size_t from,
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

/* The next line at or after @p that starts a document ("---", or in a
 * JSON stream "{" or "[" in the first column), or len. */
static size_t next_doc_start(const struct kvet_builder *b, size_t p,
			     uint32_t *line, bool json)
{
	while (p < b->len) {
		const char *nl;

		if (json && (b->buf[p] == '{' || b->buf[p] == '['))
			return p;
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
 * kubectl reads JSON values one after another, with or without newlines
 * between them (concatenated JSON, NDJSON), as it reads YAML documents.
 * libfyaml ends the document at the first value's closing bracket and
 * then fails on the second ("missing document start"): go on parsing
 * from that bracket when what follows is another object or array. This
 * costs nothing until the error happens.
 */
static bool next_json_value(struct kvet_builder *b)
{
	size_t p = b->root_end;

	/* the document may still be open when libfyaml read ahead */
	if (!b->flow_root_ended || (b->in_doc && b->depth) ||
	    b->root_end <= b->base_pos)
		return false;
	while (p < b->len && (b->buf[p] == ' ' || b->buf[p] == '\t' ||
			      b->buf[p] == '\n' || b->buf[p] == '\r'))
		p++;
	if (p >= b->len || (b->buf[p] != '{' && b->buf[p] != '['))
		return false;
	if (b->in_doc)
		end_doc(b);
	b->base_line = b->root_end_line;
	b->base_col = b->root_end_col;
	return true;
}

/* Line and 0-based column of @to, counting from @from at @line:@col. */
static void locate(const struct kvet_builder *b, size_t from, uint32_t line,
		   uint32_t col, size_t to, uint32_t *oline, uint32_t *ocol)
{
	const char *p = b->buf + from, *end = b->buf + to, *nl;

	while ((nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		line++;
		col = 0;
		p = nl + 1;
	}
	*oline = line;
	*ocol = col + (uint32_t)(end - p);
}

/* The end of the JSON object or array at @p, if it ends before @stop. */
static size_t json_value_end(const char *s, size_t p, size_t stop)
{
	size_t depth = 0;

	for (; p < stop; p++) {
		switch (s[p]) {
		case '"':
			for (p++; p < stop && s[p] != '"'; p++)
				if (s[p] == '\\')
					p++;
			break;
		case '{':
		case '[':
			depth++;
			break;
		case '}':
		case ']':
			if (--depth == 0)
				return p + 1;
			break;
		default:
			break;
		}
	}
	return 0;
}

/*
 * libfyaml reads ahead: in NDJSON, an error in one line can fail the
 * parser before it delivered the line before. When the failed text is a
 * JSON value that ends before the error, parse that value alone (up to
 * b->limit) and go on after it. The scan stops at the error, so it never
 * costs more than the parse did, and only errors pay for it.
 */
static bool split_json(struct kvet_builder *b, size_t err_off, size_t *start)
{
	size_t p, end;

	if (b->limit || (b->in_doc && !b->have_root_pos))
		return false;
	if (b->in_doc)
		p = b->root_pos;
	else if (b->flow_root_ended)
		p = b->root_end;
	else if (!b->parser_docs)
		p = b->base_pos;
	else
		return false;
	while (p < err_off && (b->buf[p] == ' ' || b->buf[p] == '\t' ||
			       b->buf[p] == '\n' || b->buf[p] == '\r'))
		p++;
	if (p >= err_off || (b->buf[p] != '{' && b->buf[p] != '['))
		return false;
	end = json_value_end(b->buf, p,
			     err_off < b->len ? err_off + 1 : b->len);
	if (!end)
		return false;
	/* drop what was built of the value; it is parsed again */
	b->in_doc = b->doc_failed = false;
	b->depth = b->nscratch = b->skip_depth = 0;
	locate(b, b->base_pos, b->base_line, b->base_col, p, &b->base_line,
	       &b->base_col);
	locate(b, p, b->base_line, b->base_col, end, &b->limit_line,
	       &b->limit_col);
	b->limit = end;
	*start = p;
	return true;
}

/* Does the text this parser read start with a JSON object or array? */
static bool json_stream(const struct kvet_builder *b)
{
	size_t p = b->base_pos;

	while (p < b->len && (b->buf[p] == ' ' || b->buf[p] == '\t' ||
			      b->buf[p] == '\n' || b->buf[p] == '\r'))
		p++;
	return p < b->len && (b->buf[p] == '{' || b->buf[p] == '[');
}

/*
 * Report a syntax error, saying which document it cost, and find where
 * to resume: after the JSON value being read alone, else the next "---"
 * line at or after the error's line, but always past where this parser
 * started.
 */
static size_t after_error(struct kvet_builder *b, struct fy_diag *fydiag)
{
	struct fy_diag_error *de;
	void *iter = NULL;
	uint32_t line = b->base_line, col = 1, at;
	const char *msg = "invalid YAML";
	char lost[256];
	size_t restart, err_off;
	bool json;

	de = fy_diag_errors_iterate(fydiag, &iter);
	if (de) {
		if (de->line > 0) {
			line = b->base_line + (uint32_t)de->line - 1;
			col = de->column > 0 ? (uint32_t)de->column : 1;
			if (de->line == 1)
				col += b->base_col;
		}
		if (de->msg)
			msg = de->msg;
	}
	err_off = line_offset(b, b->base_pos, line - b->base_line);
	err_off += line == b->base_line ? col - 1 - b->base_col : col - 1;
	if (err_off > b->len)
		err_off = b->len;
	if (split_json(b, err_off, &restart))
		return restart;
	/* libfyaml may fail before it starts the document it reads: the
	 * error costs that document all the same */
	if (!b->in_doc || !b->doc_failed) {
		kvet_build_lost(b, lost, sizeof(lost));
		kvet_diag_addf(b->diag, b->name, line, col,
			       "%s: document %u%s not loaded", msg,
			       b->doc_index + 1, lost);
	} else {
		kvet_diag_addf(b->diag, b->name, line, col, "%s", msg);
	}
	b->out->skipped++;
	b->in_doc = false;
	b->doc_index++;
	if (b->limit)
		return b->limit;
	/* in a JSON stream the next value may start on the next line; a
	 * "---" may be the very line the error is on */
	json = json_stream(b);
	at = json ? line + 1 : line;
	restart = line_offset(b, b->base_pos, at - b->base_line);
	if (restart <= b->base_pos) {
		restart = line_offset(b, b->base_pos, 1);
		at = b->base_line + 1;
	}
	restart = next_doc_start(b, restart, &at, json);
	if (b->bomi < b->nboms && b->boms[b->bomi] >= err_off &&
	    b->boms[b->bomi] < restart) {
		/* a document of the next joined file, started by its BOM */
		restart = b->boms[b->bomi];
		locate(b, b->base_pos, b->base_line, b->base_col, restart, &at,
		       &b->base_col);
	}
	b->base_line = at;
	b->base_col = 0;
	return restart;
}

/*
 * Where the next parser must stop: the end, the JSON value read alone, or
 * a byte order mark that starts a document in the middle of the stream
 * (files joined with "---"). libfyaml takes a BOM only as the stream's
 * first character; go-yaml, run by kubectl per document, at the start of
 * each. A BOM where this parser starts is stepped over.
 */
static size_t next_stop(struct kvet_builder *b)
{
	size_t end = b->limit ? b->limit : b->len;

	while (b->bomi < b->nboms && b->boms[b->bomi] < b->base_pos)
		b->bomi++;
	if (b->bomi < b->nboms && b->boms[b->bomi] == b->base_pos) {
		b->base_pos += 3;
		b->bomi++;
	}
	if (b->bomi < b->nboms && b->boms[b->bomi] < end)
		end = b->boms[b->bomi];
	return end;
}

/* The parser stopped at the BOM at @bom: go on with the text after it. */
static size_t after_bom(struct kvet_builder *b, size_t bom)
{
	uint32_t col;

	locate(b, b->base_pos, b->base_line, b->base_col, bom, &b->base_line,
	       &col);
	b->base_col = 0;
	b->bomi++;
	return bom + 3;
}

/*
 * Empty lines where a parser starts are nothing to YAML, and libfyaml
 * takes about 30 ns each (1 GiB of them: 34 s): they are stepped over, but
 * the last before @end, so that a parser never starts on nothing. Only
 * line breaks: a line of blanks may hold a tab, indentation to libfyaml.
 */
static void skip_empty_lines(struct kvet_builder *b, size_t end)
{
	size_t p = b->base_pos, next;
	uint32_t n = 0;

	for (;;) {
		if (p < end && b->buf[p] == '\n')
			next = p + 1;
		else if (end - p >= 2 && b->buf[p] == '\r' &&
			 b->buf[p + 1] == '\n')
			next = p + 2;
		else
			break;
		if (next >= end)
			break;
		p = next;
		n++;
	}
	if (!n)
		return;
	/* a node without a mark stays where it was (build.c) */
	if (!b->nomark_line)
		b->nomark_line = b->base_line;
	b->base_pos = p;
	b->base_line += n;
	b->base_col = 0;
}

/*
 * Parse from b->base_pos to the end. Returns the offset where parsing
 * should restart after a syntax error, or b->len when the stream ended.
 */
static size_t parse_from(struct kvet_builder *b)
{
	struct fy_diag *fydiag = NULL;
	struct fy_parser *fyp;
	struct fy_event *fye;
	size_t restart = b->len, end;
	uint32_t nomark_line = b->nomark_line;

	end = next_stop(b);
	skip_empty_lines(b, end);
	fyp = kvet_fyparser_create(b->buf + b->base_pos, end - b->base_pos,
				   &fydiag);
	if (!fyp) {
		b->oom = true;
		goto out;
	}
	b->parser_docs = 0;
	b->flow_root_ended = false;
	while (!b->oom && (fye = fy_parser_parse(fyp)) != NULL) {
		on_event(b, fye);
		/* a relaxed store every few thousand events is free */
		if (b->progress && (++b->events & 4095) == 0 &&
		    fy_event_start_mark(fye))
			atomic_store_explicit(b->progress,
					      b->base_pos +
						      fy_event_start_mark(fye)->input_pos,
					      memory_order_relaxed);
		fy_parser_event_free(fyp, fye);
	}
	if (fy_parser_get_stream_error(fyp))
		restart = next_json_value(b) ? b->root_end
					     : after_error(b, fydiag);
	else if (end < (b->limit ? b->limit : b->len))
		restart = after_bom(b, end);
	else if (b->limit)
		restart = b->limit;
	if (b->limit && restart == b->limit) {
		/* a JSON value read alone: go on after it */
		b->base_line = b->limit_line;
		b->base_col = b->limit_col;
		b->limit = 0;
	}
	settle_pending(b, restart);
out:
	if (kvet_fyparser_destroy(fyp, fydiag) &&
	    ++b->abandoned >= KVET_LOAD_MAX_ABANDONED && restart < b->len) {
		/* each costs a parser's memory: a file of nothing else must
		 * not grow without bound (counted once, from the start) */
		uint32_t line = (uint32_t)kvet_count_lines(b->buf, restart) + 1;

		kvet_diag_addf(b->diag, b->name, line, 1,
			       "the rest of the input is not loaded after %d errors that libfyaml cannot recover from",
			       KVET_LOAD_MAX_ABANDONED);
		restart = b->len;
	}
	b->nomark_line = nomark_line;
	return restart;
}

int kvet_load_buffer(struct kvet_arena *arena, struct kvet_diag *diag,
		     const char *name, char *buf, size_t len,
		     struct kvet_docs *out)
{
	return kvet_load_buffer_progress(arena, diag, name, buf, len, out, NULL);
}

bool kvet_load_clean(const struct kvet_utf8_fix *fix, const char *buf,
		     size_t len)
{
	return !fix->n && !fix->nboms &&
	       !(len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0);
}

/*
 * Where libfyaml should stop reading @buf: before a last line of nothing
 * but spaces and tabs, with no line break after it. libfyaml 0.7.12 takes
 * a lone tab there for indentation and drops the whole document before it
 * ("tab character may not be used as indentation"), where YAML, kubectl
 * and kvet's JSON scanner see trailing blanks (found by the json fuzzer,
 * which compares the two loaders).
 */
static size_t blank_tail(const char *buf, size_t start, size_t end)
{
	size_t i = end;

	while (i > start && (buf[i - 1] == ' ' || buf[i - 1] == '\t'))
		i--;
	return i < end && i > start && buf[i - 1] == '\n' ? i : end;
}

int kvet_load_fixed(struct kvet_arena *arena, struct kvet_diag *diag,
		    const char *name, char *buf, size_t len,
		    struct kvet_docs *out, atomic_size_t *done, bool fast,
		    const struct kvet_utf8_fix *fix)
{
	struct kvet_builder b = { 0 };
	int ret = -1;

	/* before any parser starts: libfyaml would never end */
	if (!kvet_load_countable(diag, name, buf, len, KVET_LOAD_MAX_LINES,
				 KVET_LOAD_MAX_LINE))
		return 0;
	b.arena = arena;
	b.diag = diag;
	b.name = name;
	b.buf = buf;
	b.len = blank_tail(buf, 0, len);
	b.base_line = 1;
	b.out = out;
	b.progress = done;
	b.detail = fix->v;
	b.ndetail = fix->ndetail;
	b.bad = fix->offsets;
	b.nbad = fix->n;
	b.boms = fix->boms;
	b.nboms = fix->nboms;
	/* A 0-byte file is almost always a mistake (a failed render or
	 * redirect); a file of comments is somebody's choice. */
	if (len == 0)
		kvet_diag_addf(diag, name, 0, 0,
			       "empty input: no Kubernetes objects");
	if (fast && kvet_load_clean(fix, buf, len)) {
		int rc = kvet_json_load(arena, buf, len, out, done);

		if (rc) {
			ret = rc < 0 ? -1 : 0;
			goto out;
		}
	}
	while (b.base_pos < b.len && !b.oom) {
		size_t restart = parse_from(&b);

		if (restart >= b.len)
			break;
		b.base_pos = restart;
	}
	report_bad(&b, SIZE_MAX, 0, 0, NULL);
	ret = b.oom ? -1 : 0;
out:
	kvet_build_release(&b);
	return ret;
}

int kvet_load_sanitize(struct kvet_diag *diag, char *buf, size_t len,
		       struct kvet_utf8_fix *fix)
{
	if (kvet_utf8_sanitize(buf, len, diag->limit ? diag->limit : SIZE_MAX,
			       fix) < 0)
		return -1;
	/* the first bad bytes are reported as parsing passes them (they
	 * may cost a document); the rest are counted */
	if (diag->limit)
		diag->dropped += fix->n - fix->ndetail;
	return 0;
}

static int load(struct kvet_arena *arena, struct kvet_diag *diag,
		const char *name, char *buf, size_t len, struct kvet_docs *out,
		atomic_size_t *done, bool fast)
{
	struct kvet_utf8_fix fix = { 0 };
	int ret = -1;

	if (kvet_load_sanitize(diag, buf, len, &fix) == 0)
		ret = kvet_load_fixed(arena, diag, name, buf, len, out, done,
				      fast, &fix);
	kvet_utf8_fix_release(&fix);
	return ret;
}

int kvet_load_yaml_piece(struct kvet_arena *arena, struct kvet_diag *diag,
			 const char *name, const char *buf, size_t start,
			 size_t end, uint32_t line, struct kvet_docs *out,
			 uint32_t *ndocs)
{
	struct kvet_builder b = { 0 };
	size_t restart;
	int ret;

	b.arena = arena;
	b.diag = diag;
	b.name = name;
	b.buf = buf;
	b.len = blank_tail(buf, start, end);
	b.base_pos = start;
	b.base_line = line;
	b.nomark_line = 1;
	b.out = out;
	restart = parse_from(&b);
	*ndocs = b.doc_index;
	ret = b.oom ? -1
		    : restart >= b.len && !diag->n && !diag->n_notices &&
			      !diag->dropped && !out->skipped;
	kvet_build_release(&b);
	return ret;
}

int kvet_load_buffer_progress(struct kvet_arena *arena,
			      struct kvet_diag *diag, const char *name,
			      char *buf, size_t len, struct kvet_docs *out,
			      atomic_size_t *done)
{
	struct kvet_load_job *job;
	size_t i, n;
	int ret = -1;

	job = kvet_load_job_create(arena, diag, name, buf, len, done);
	if (!job)
		return -1;
	n = kvet_load_job_pieces(job);
	for (i = 0; i < n; i++)
		if (kvet_load_job_piece(job, i) < 0)
			goto out;
	ret = kvet_load_job_finish(job, out);
out:
	kvet_load_job_destroy(job);
	return ret;
}

int kvet_load_buffer_fyaml(struct kvet_arena *arena, struct kvet_diag *diag,
			   const char *name, char *buf, size_t len,
			   struct kvet_docs *out)
{
	return load(arena, diag, name, buf, len, out, NULL, false);
}
