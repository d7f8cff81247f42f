/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer harness for the JSON fast path (src/load/json.c): whatever it
 * takes must load exactly as the libfyaml path loads it, the same trees
 * with the same positions, and libfyaml must find no error in it. What
 * it leaves to libfyaml must leave nothing behind. Any difference aborts.
 * A dictionary of JSON tokens helps: -dict=fuzz/json.dict.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/json.h"
#include "load/load.h"
#include "load/node.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kvet_arena fast_arena, slow_arena;
	struct kvet_docs fast = { 0 }, slow = { 0 };
	struct kvet_diag diag;
	char *copy = malloc(size + 1);
	size_t i;
	int rc;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	copy[size] = '\0';
	kvet_arena_init(&fast_arena);
	kvet_arena_init(&slow_arena);
	kvet_diag_init(&diag, &slow_arena);
	rc = kvet_load_buffer_fyaml(&slow_arena, &diag, "fuzz.json", copy,
				    size, &slow);
	/* the loader tries the fast path only on input the sanitizer left
	 * as it was (no invalid UTF-8, no NUL) */
	if (rc == 0 && memcmp(copy, data, size) == 0 &&
	    kvet_json_load(&fast_arena, copy, size, &fast, NULL) == 1) {
		if (diag.n || fast.n != slow.n)
			abort();
		for (i = 0; i < fast.n; i++) {
			const struct kvet_node *where;

			if (fast.v[i].index != slow.v[i].index ||
			    !kvet_node_same(fast.v[i].root, slow.v[i].root,
					    &where))
				abort();
		}
	} else if (fast.n) {
		abort();
	}
	kvet_docs_release(&fast);
	kvet_docs_release(&slow);
	kvet_diag_release(&diag);
	kvet_arena_release(&fast_arena);
	kvet_arena_release(&slow_arena);
	free(copy);
	return 0;
}
