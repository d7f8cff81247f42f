/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_CHART_TINDEX_H
#define KVET_CHART_TINDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"

/*
 * The line index of one Helm template file, built once per file from its
 * text. Templates are not YAML (they are Go templates that print YAML),
 * so the lines are scanned: the indentation of each key gives its key
 * path, as the rendered YAML's would be, and the template actions of a
 * line say what else it does (docs/template-lines.md lists the limits).
 *
 * A key path is a string of segments joined by KVET_TPATH_SEP; a
 * sequence item is the segment "-", and a key written as a template
 * action is "*", which stands for any one segment.
 */
#define KVET_TPATH_SEP '\x1f'

enum kvet_tline_kind {
	KVET_TLINE_KEY,		/* key: value, or key: with a nested block */
	KVET_TLINE_ITEM,	/* - scalar */
	KVET_TLINE_BLOCK,	/* include/toYaml/tpl ... | nindent N */
};

struct kvet_tline {
	uint8_t kind;		/* enum kvet_tline_kind */
	uint32_t line, col;	/* 1-based: the key, the item or the action */
	const char *path;	/* the line's key path (KEY, ITEM), or the
				 * path the block's lines go under (BLOCK) */
	const char *text;	/* the value as written, quotes kept */
	size_t text_len;
	/*
	 * BLOCK: the included helper's name, or the values path that
	 * toYaml prints ("resources", "" for the whole of .Values), with
	 * @values set; NULL for what the index cannot follow (tpl, $var).
	 */
	const char *block;
	bool values;
	/* the values path that `.` stands for on this line (inside
	 * `with .Values.x`: "x"), NULL outside .Values */
	const char *dot;
	uint32_t doc;		/* 0-based document (--- lines) of the file */
	int32_t define;		/* index in @defines, or -1 at top level */
};

struct kvet_tdoc {
	uint32_t kind_line, kind_col;	/* 0: no kind: line */
	const char *kind;	/* as written, quotes removed */
};

struct kvet_tindex {
	const char *file;	/* as it was opened */
	struct kvet_tline *lines;
	size_t n;
	struct kvet_tdoc *docs;
	size_t ndocs;
	const char **defines;	/* names of the define blocks */
	size_t ndefines;
};

/**
 * kvet_tindex_build() - index the template text @buf of @len bytes.
 * @arena: everything of the index goes here; @buf must outlive it.
 * Returns: the index, or NULL when out of memory.
 */
struct kvet_tindex *kvet_tindex_build(struct kvet_arena *arena,
				      const char *file, const char *buf,
				      size_t len);

/* Do key paths @a and @b name the same field ("*" matches a segment)? */
bool kvet_tpath_eq(const char *a, const char *b);

/*
 * kvet_tpath_under() - is @path below @prefix? Returns the rest of @path
 * after @prefix and its separator ("" when equal), or NULL.
 */
const char *kvet_tpath_under(const char *path, const char *prefix);

/*
 * kvet_ttext_match() - could the template value @tpl (@tlen bytes, as
 * written) print @text? Literal parts must match, each action matches
 * any text, and quotes around the value are ignored.
 */
bool kvet_ttext_match(const char *tpl, size_t tlen, const char *text,
		      size_t len);

/*
 * kvet_tvalues_ref() - the one values path the template value @tpl
 * reads (".Values.a.b" gives "a.b"; ".x" inside `with` gives dot.x),
 * into @arena; NULL when it reads none or more than one.
 */
const char *kvet_tvalues_ref(struct kvet_arena *arena, const char *tpl,
			     size_t tlen, const char *dot);

#endif
