/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer harness for the block-style path (src/load/block.c): the
 * input, cut as a List's items in the smallest pieces, must load piece by
 * piece exactly as libfyaml loads each piece, the same trees with the
 * same positions, wherever the block path takes a piece; a piece it
 * leaves to libfyaml must leave nothing behind. Any difference aborts.
 * The YAML dictionary helps: -dict=fuzz/yaml.dict.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "load/block.h"
#include "load/build.h"
#include "load/load.h"
#include "load/node.h"
#include "load/sanitize.h"
#include "load/split.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void piece(const char *buf, const struct kvet_split_piece *sp)
{
	struct kvet_arena fast_arena, slow_arena;
	struct kvet_docs fast = { 0 }, slow = { 0 };
	const struct kvet_node *where;
	struct kvet_diag diag;
	uint32_t ndocs = 0;
	size_t before;
	int rf, rs;

	kvet_arena_init(&fast_arena);
	kvet_arena_init(&slow_arena);
	kvet_diag_init(&diag, &slow_arena);
	/* a reset keeps the arena's newest block: make one before */
	if (!kvet_arena_strdup(&fast_arena, "kept"))
		abort();
	before = fast_arena.total;
	rf = kvet_block_items(&fast_arena, buf, sp->start, sp->end, sp->line,
			      &fast);
	if (rf == 1) {
		rs = kvet_load_yaml_piece(&slow_arena, &diag, "fuzz.yaml", buf,
					  sp->start, sp->end, sp->line, &slow,
					  &ndocs);
		if (rs != 1 || slow.n != 1 || ndocs != 1 || fast.n != 1 ||
		    !kvet_node_same(fast.v[0].root, slow.v[0].root, &where))
			abort();
	} else if (rf != 0 || fast.n || fast_arena.total > before) {
		abort();
	}
	kvet_docs_release(&fast);
	kvet_docs_release(&slow);
	kvet_diag_release(&diag);
	kvet_arena_release(&fast_arena);
	kvet_arena_release(&slow_arena);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kvet_utf8_fix fix = { 0 };
	struct kvet_split split;
	char *copy = malloc(size + 1);
	size_t i;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	copy[size] = '\0';
	/* the loader cuts only clean input: sanitized, nothing found */
	if (kvet_utf8_sanitize(copy, size, SIZE_MAX, &fix) == 0 &&
	    kvet_load_clean(&fix, copy, size) &&
	    kvet_split_plan(copy, size, 1, &split) == 0) {
		if (split.mode == KVET_SPLIT_YAML_ITEMS)
			for (i = 0; i < split.n; i++)
				piece(copy, &split.v[i]);
		kvet_split_release(&split);
	}
	kvet_utf8_fix_release(&fix);
	free(copy);
	return 0;
}
