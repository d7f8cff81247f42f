/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Rule files (--rules DIR): bytes as one rule file → YAML → rule
 * definitions, parameters, CEL programs and cost estimates → when the
 * file loads, a run of its rules over a small cluster (the failing
 * examples of the built-in rules) with every report format, and the
 * Markdown documentation of each rule (`kvet explain`).
 */
#include "common.h"

/* for the fixture only: the rules under test are the input's */
FUZZ_INITIALIZE_TEMPLATE()

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kvet_options opts = {
		.jobs = 1,
		.flags = KVET_CTX_NO_BUILTIN_RULES,
	};
	struct kvet_ctx *ctx = kvet_ctx_create(&opts);
	char *doc = NULL;
	size_t i, len = 0;
	FILE *fp;

	if (!ctx)
		return 0;
	if (kvet_ctx_add_rules_buffer(ctx, "rules/fuzz.yaml",
				      (const char *)data, size) ||
	    kvet_ctx_rule_error_count(ctx))
		goto out;
	fp = open_memstream(&doc, &len);
	if (!fp)
		fuzz_die("open_memstream failed");
	for (i = 0; i < kvet_ctx_rule_count(ctx); i++)
		if (kvet_ctx_rule_write_markdown(ctx, kvet_ctx_rule(ctx, i)->id,
						 fp))
			fuzz_die("cannot document a rule that loaded");
	fclose(fp);
	free(doc);
	if (kvet_ctx_add_buffer(ctx, "fixture.yaml", fuzz_fixture,
				fuzz_fixture_len) == 0 &&
	    kvet_ctx_run(ctx) == 0) {
		fuzz_render_all(ctx);
		fuzz_read_back(ctx);
	}
out:
	kvet_ctx_destroy(ctx);
	return 0;
}
