/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The whole of `kvet lint`: bytes as an input file → loader → objects →
 * graph → C checks and built-in rules → every report format (each
 * checked for well-formedness) → baseline. The rules are compiled once.
 *
 * An input whose first line is "#fuzz:" and letters (a YAML comment,
 * so it is also linted) asks for: '-' the name of standard input, 'c'
 * --complete-input, 'r' --require-objects, 'n' no built-in rules.
 */
#include "common.h"

FUZZ_INITIALIZE_TEMPLATE()

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kvet_options opts = { .jobs = 1 };
	const char *name = "fuzz.yaml";
	struct kvet_ctx *ctx;
	size_t i;

	if (size >= 6 && !memcmp(data, "#fuzz:", 6))
		for (i = 6; i < size && data[i] != '\n'; i++)
			switch (data[i]) {
			case '-':
				name = "-";
				break;
			case 'c':
				opts.flags |= KVET_CTX_COMPLETE_INPUT;
				break;
			case 'r':
				opts.flags |= KVET_CTX_REQUIRE_OBJECTS;
				break;
			case 'n':
				opts.flags |= KVET_CTX_NO_BUILTIN_RULES;
				break;
			}
	ctx = fuzz_ctx(&opts);
	if (!ctx)
		return 0;
	if (kvet_ctx_add_buffer(ctx, name, (const char *)data, size) == 0 &&
	    kvet_ctx_run(ctx) == 0) {
		fuzz_render_all(ctx);
		fuzz_write_baseline(ctx);
		fuzz_read_back(ctx);
	}
	kvet_ctx_destroy(ctx);
	fuzz_restore_rules();
	return 0;
}
