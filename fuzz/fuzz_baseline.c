/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Baselines: bytes as --baseline FILE → strict YAML reading → entries
 * sorted by fingerprint → a run over a small cluster (the failing
 * examples of the built-in rules) whose findings are matched against
 * them → stale entries, every report format (suppressed findings
 * included) and a new baseline, as --write-baseline writes it.
 *
 * KVET_FUZZ_SEED_DIR=DIR writes the baseline of the cluster there
 * (scripts/fuzz does), so that the fuzzer starts from entries that
 * match.
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
	if (kvet_ctx_load_baseline(ctx, path) == 0 &&
	    kvet_ctx_add_buffer(ctx, "fixture.yaml", fuzz_fixture,
				fuzz_fixture_len) == 0 &&
	    kvet_ctx_run(ctx) == 0) {
		fuzz_render_all(ctx);
		fuzz_write_baseline(ctx);
		fuzz_read_back(ctx);
	}
	close(fd);
	kvet_ctx_destroy(ctx);
	fuzz_restore_rules();
	return 0;
}
