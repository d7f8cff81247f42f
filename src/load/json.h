/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_LOAD_JSON_H
#define KVET_LOAD_JSON_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "load/detach.h"
#include "load/load.h"

/*
 * The JSON fast path. `kubectl get -o json` dumps are plain JSON, which
 * libfyaml scans as YAML flow collections at about 25 MB/s; this scanner
 * reads strict JSON (RFC 8259) an order of magnitude faster and builds
 * the very tree the libfyaml path builds: the same nodes, types, flags
 * and 1-based line:column (columns count characters), managedFields
 * dropped in every object, scalars sliced from the input when they have
 * no escape.
 *
 * It takes only what it can read exactly as the libfyaml path does, and
 * nothing it would have to report: a syntax error, anything that is not
 * strict JSON, a duplicate key, nesting past KVET_LOAD_MAX_DEPTH, a NUL
 * escape, a line break other than LF and CRLF. For those it gives up and
 * the caller parses the input with libfyaml, whose messages and recovery
 * stay the only ones. Invalid UTF-8 and byte order marks never get here:
 * the caller tries this path only on input the sanitizer found clean.
 */

/**
 * kvet_json_load() - load a stream of JSON values (one, concatenated or
 * one per line, each an object or an array) as documents.
 * @arena: where nodes and unescaped strings go.
 * @buf: the whole input; nodes point into it.
 * @len: its length.
 * @out: documents are appended here, numbered from 0.
 * @done: when not NULL, the bytes read so far are stored now and then.
 *
 * Returns: 1 when every value loaded, 0 when the input is not for this
 * path (@out and @arena are then as they were), -1 when out of memory.
 */
int kvet_json_load(struct kvet_arena *arena, const char *buf, size_t len,
		   struct kvet_docs *out, atomic_size_t *done);

/*
 * A kubectl -o json List in pieces (load/split.h): each piece of its
 * "items" array is read alone by kvet_json_items(), on any thread, and
 * kvet_json_load_graft() reads the rest, putting the items in place.
 */
struct kvet_json_piece {
	const struct kvet_node *items;	/* in the piece's arena */
	size_t n;
	/* the last piece: just past the array's ']', where reading goes on,
	 * with that point's line, line start and UTF-8 continuation bytes
	 * from the line start (for columns) */
	size_t end;
	uint32_t line;
	size_t bol, adj;
};

/**
 * kvet_json_items() - read the items in @buf[@start, @end): values and
 * their ',' up to @end, or in the @last piece up to the ']' that closes
 * the array, past @end. @start, on @line, is where a value starts.
 * When @detach is not NULL, each scalar is detached from the input
 * (kvet_detach_scalar()) as it is read.
 * Returns: 1, 0 when the piece does not read so (parse whole), or -1
 * when out of memory.
 */
int kvet_json_items(struct kvet_arena *arena, const char *buf, size_t len,
		    size_t start, size_t end, uint32_t line, bool last,
		    struct kvet_detach *detach, struct kvet_json_piece *out);

struct kvet_json_graft {
	size_t at;		/* where the first item starts */
	const struct kvet_node *items;	/* every item, in order */
	size_t n;
	size_t resume;		/* the last piece's end ... */
	uint32_t line;
	size_t bol, adj;	/* ... and where it is */
};

/* kvet_json_load() with the root object's "items" read already: 0 also
 * when the array does not start at @g->at. */
int kvet_json_load_graft(struct kvet_arena *arena, const char *buf,
			 size_t len, struct kvet_docs *out,
			 atomic_size_t *done, const struct kvet_json_graft *g);

#endif
