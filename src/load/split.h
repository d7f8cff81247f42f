/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_LOAD_SPLIT_H
#define KVET_LOAD_SPLIT_H

#include <stddef.h>
#include <stdint.h>

/*
 * Cutting one large input into pieces that parse on their own, so that a
 * cluster dump uses every core. Cuts are only guessed here, from the
 * text's layout; the loader proves each one by parsing its piece alone
 * and joining the trees, and parses the whole input at once when any
 * piece does not parse (load/job.c).
 *
 * Where a piece may start:
 *   KVET_SPLIT_DOCS        a "---" line: a stream of YAML documents
 *   KVET_SPLIT_YAML_ITEMS  a "- " line at the indentation of the first
 *                          item of a List's top-level "items:" (kubectl
 *                          prints them at column 1, others indent them):
 *                          the list is the input's only document
 *   KVET_SPLIT_JSON_ITEMS  a line that is a '{' at the indentation of the
 *                          first item of the root object's "items"
 *                          array, after a ',' (kubectl -o json)
 * Pieces depend only on the text, never on the number of threads.
 */
enum kvet_split_mode {
	KVET_SPLIT_NONE,
	KVET_SPLIT_DOCS,
	KVET_SPLIT_YAML_ITEMS,
	KVET_SPLIT_JSON_ITEMS,
};

struct kvet_split_piece {
	size_t start, end;	/* bytes [start, end) of the input */
	uint32_t line;		/* 1-based line of start */
};

struct kvet_split {
	enum kvet_split_mode mode;
	struct kvet_split_piece *v;	/* malloc'd */
	size_t n;
	/* YAML_ITEMS: the List's keys after its items start at tail, on
	 * line tail_line; everything before v[0].start is its head */
	size_t tail;
	uint32_t tail_line;
};

/*
 * kvet_split_plan() - find where @buf may be cut, in pieces of at least
 * @piece bytes, and the line of each cut.
 * Returns: 0 (out->mode is KVET_SPLIT_NONE when no cut was found: parse
 * whole), or -1 when out of memory. Free with kvet_split_release().
 */
int kvet_split_plan(const char *buf, size_t len, size_t piece,
		    struct kvet_split *out);
void kvet_split_release(struct kvet_split *split);

/* The number of '\n' in @buf[0, @len). */
size_t kvet_count_lines(const char *buf, size_t len);

#endif
