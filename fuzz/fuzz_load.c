/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The YAML/JSON loader alone: bytes → documents → objects, with the
 * error cap the context sets. The fastest harness, for the parser's
 * corner cases (anchors, merge keys, tags, numbers, byte order marks,
 * JSON streams, recovery after errors).
 *
 * The bytes are copied into a buffer of exactly their length, without
 * the NUL the context adds, so that a read past the end is caught.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/diag.h"
#include "load/load.h"
#include "model/object.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The most lines @data can have, counting every line break YAML knows
 * (CR, LF, NEL, LS, PS) and one past the end. */
static unsigned long max_line(const uint8_t *data, size_t size)
{
	unsigned long n = 1;
	size_t i;

	for (i = 0; i < size; i++)
		if (data[i] == '\n' || data[i] == '\r' || data[i] == 0x85 ||
		    data[i] == 0xa8 || data[i] == 0xa9)
			n++;
	return n + 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kvet_arena arena;
	struct kvet_diag diag;
	struct kvet_docs docs = { 0 };
	struct kvet_objects objs = { 0 };
	char *buf = malloc(size ? size : 1);
	size_t i;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	kvet_arena_init(&arena);
	kvet_diag_init(&diag, &arena);
	kvet_diag_set_limit(&diag, KVET_LOAD_MAX_ERRORS);
	if (kvet_load_buffer(&arena, &diag, "fuzz.yaml", buf, size, &docs) ==
	    0)
		(void)kvet_objects_from_docs(&arena, &diag, "fuzz.yaml", &docs,
					     "default", &objs);
	kvet_diag_close_limit(&diag, "fuzz.yaml");
	/* every error has a message and a line of the input (or none) */
	for (i = 0; i < diag.n; i++)
		if (!diag.errors[i].message ||
		    diag.errors[i].pos.line > max_line(data, size))
			abort();
	kvet_objects_release(&objs);
	kvet_docs_release(&docs);
	kvet_diag_release(&diag);
	kvet_arena_release(&arena);
	free(buf);
	return 0;
}
