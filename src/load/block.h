/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_LOAD_BLOCK_H
#define KVET_LOAD_BLOCK_H

#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "load/load.h"

/*
 * The block style kubectl prints, read without libfyaml: a piece of a
 * List's items (load/split.h, KVET_SPLIT_YAML_ITEMS) made only of
 * indented "key: value" and "- item" lines, with plain, double- and
 * single-quoted scalars on one line, "{}" and "[]", and "|" and "|-"
 * literal blocks. libfyaml's scanner is most of a YAML load, and a
 * kubectl dump never needs more. Anything else (anchors, tags, flow
 * collections, folded or multi-line scalars, tabs, CRs, escapes, any
 * error) is left to libfyaml, for the piece alone: this path never
 * reports anything, it only declines.
 */

/*
 * kvet_block_items() - build the clean YAML @buf[@start, @end), which
 * starts on line @line with the first "- " item of a block sequence, as
 * kvet_load_yaml_piece() would: the same nodes, positions and text, one
 * document whose root is the sequence.
 * Returns: 1 with the document appended to @out; 0 when the piece needs
 * libfyaml (@out and @arena are as they were); -1 when out of memory.
 */
int kvet_block_items(struct kvet_arena *arena, const char *buf, size_t start,
		     size_t end, uint32_t line, struct kvet_docs *out);

#endif
