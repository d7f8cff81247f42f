/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_LOAD_JSON_H
#define KVET_LOAD_JSON_H

#include <stdatomic.h>
#include <stddef.h>

#include "base/arena.h"
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

#endif
