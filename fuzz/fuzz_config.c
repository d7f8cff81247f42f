/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The configuration file (.kvet.yaml): bytes as --config FILE → strict
 * YAML reading → rule settings, parameters, suppressions, excludes,
 * graph lists, custom workload kinds → when it has no error, a run over
 * a small cluster (the failing examples of the built-in rules) with
 * every report format, so that each setting takes effect.
 */
#include "common.h"

FUZZ_INITIALIZE_TEMPLATE()

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kvet_options opts = { .jobs = 1 };
	struct kvet_ctx *ctx = fuzz_ctx(&opts);
	char path[64];
	int fd;

	if (!ctx)
		return 0;
	fd = fuzz_memfile(data, size, path, sizeof(path));
	if (kvet_ctx_load_config(ctx, path) == 0 &&
	    !kvet_ctx_rule_error_count(ctx) &&
	    kvet_ctx_add_buffer(ctx, "fixture.yaml", fuzz_fixture,
				fuzz_fixture_len) == 0 &&
	    kvet_ctx_run(ctx) == 0) {
		fuzz_render_all(ctx);
		fuzz_read_back(ctx);
	}
	close(fd);
	kvet_ctx_destroy(ctx);
	fuzz_restore_rules();
	return 0;
}
