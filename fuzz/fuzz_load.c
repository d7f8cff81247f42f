/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer harness for the input path users control: bytes → loader →
 * objects → graph → checks → reports. Any crash, leak, hang or sanitizer
 * report is a bug; each crasher becomes a named regression test.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "kvet/kvet.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kvet_options opts = { .jobs = 1 };
	struct kvet_ctx *ctx = kvet_ctx_create(&opts);
	FILE *sink;

	if (!ctx)
		return 0;
	if (kvet_ctx_add_buffer(ctx, "fuzz.yaml", (const char *)data, size) ==
		    0 &&
	    kvet_ctx_run(ctx) == 0) {
		sink = fopen("/dev/null", "w");
		if (sink) {
			kvet_render(ctx, KVET_FORMAT_TEXT, 0, sink);
			kvet_render(ctx, KVET_FORMAT_JSON, 0, sink);
			fclose(sink);
		}
	}
	kvet_ctx_destroy(ctx);
	return 0;
}
