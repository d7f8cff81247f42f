/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every rule file's examples as tests (STYLE.md: docs cannot lie): each
 * `expect: fail` manifest must give the rule a finding (or exactly
 * `findings:` of them), each `expect: pass` none, with only that rule
 * loaded. Runs the built-in rules, then the rule files of any directory
 * given as an argument. Output is TAP.
 *
 *   run_examples [DIR...]
 */
#include <stdio.h>
#include <string.h>

#include "kvet/kvet.h"
#include "rules/rules.h"

static int n_tests, n_failed;

static const char *const sev_names[] = { "info", "warning", "error" };

static void run_example(const char *file, const char *text, size_t len,
			const struct kvet_rule *rule,
			const struct kvet_rule_example *ex)
{
	struct kvet_options opts = { .flags = KVET_CTX_NO_BUILTIN_RULES };
	struct kvet_ctx *ctx;
	size_t i, found = 0, wrong = 0;
	bool ok;

	if (ex->complete)
		opts.flags |= KVET_CTX_COMPLETE_INPUT;
	ctx = kvet_ctx_create(&opts);
	ok = ctx && !kvet_ctx_add_rules_buffer(ctx, file, text, len) &&
	     !kvet_ctx_add_buffer(ctx, "example.yaml", ex->manifest, ex->len) &&
	     !kvet_ctx_run(ctx) && !kvet_ctx_error_count(ctx);
	for (i = 0; ok && i < kvet_ctx_finding_count(ctx); i++) {
		const struct kvet_finding *f = kvet_ctx_finding(ctx, i);

		if (strcmp(f->rule, rule->info.id))
			continue;
		found++;
		/* the example's severity and message part hold for each */
		if ((ex->severity >= 0 && (int)f->severity != ex->severity) ||
		    (ex->message && !strstr(f->message, ex->message))) {
			wrong++;
			printf("# %s: %s: %s\n", rule->info.id,
			       sev_names[f->severity], f->message);
		}
	}
	ok = ok && !wrong;
	if (ok && ex->fails)
		ok = ex->findings >= 0 ? found == (size_t)ex->findings : found > 0;
	else if (ok)
		ok = found == 0;
	n_tests++;
	printf("%s %d - %s:%u %s: %s (%zu finding%s)\n", ok ? "ok" : "not ok",
	       n_tests, file, ex->line, rule->info.id,
	       ex->name && *ex->name ? ex->name : "example", found,
	       found == 1 ? "" : "s");
	if (!ok) {
		n_failed++;
		for (i = 0; ctx && i < kvet_ctx_error_count(ctx); i++)
			printf("# input error: %s\n", kvet_ctx_error(ctx, i)->message);
	}
	kvet_ctx_destroy(ctx);
}

static void run_file(const char *file, const char *text, size_t len)
{
	struct kvet_rule_set set;
	size_t i, j, fails, passes;

	kvet_rule_set_init(&set);
	if (kvet_rule_set_add_buffer(&set, file, text, len)) {
		n_tests++;
		n_failed++;
		printf("not ok %d - %s does not load\n", n_tests, file);
		for (i = 0; i < set.diag.n; i++)
			printf("# %u:%u: %s\n", set.diag.errors[i].pos.line,
			       set.diag.errors[i].pos.column,
			       set.diag.errors[i].message);
	}
	for (i = 0; i < set.n; i++) {
		const struct kvet_rule *r = set.v[i];

		for (j = fails = passes = 0; j < r->n_examples; j++) {
			fails += r->examples[j].fails;
			passes += !r->examples[j].fails;
			run_example(file, text, len, r, &r->examples[j]);
		}
		n_tests++;
		if (!fails || !passes)
			n_failed++;
		printf("%s %d - %s has failing and passing examples\n",
		       fails && passes ? "ok" : "not ok", n_tests, r->info.id);
	}
	kvet_rule_set_release(&set);
}

static void run_dir(const char *dir)
{
	struct kvet_rule_set set;
	char path[4096];
	size_t i;

	/* load the directory once to learn its files, then each alone */
	kvet_rule_set_init(&set);
	(void)kvet_rule_set_add_dir(&set, dir);
	for (i = 0; i < set.n; i++) {
		FILE *fp = fopen(set.v[i]->file, "rb");
		static char buf[1 << 20];
		size_t len;

		if (i && !strcmp(set.v[i]->file, set.v[i - 1]->file))
			continue;
		snprintf(path, sizeof(path), "%s", set.v[i]->file);
		if (!fp)
			continue;
		len = fread(buf, 1, sizeof(buf), fp);
		fclose(fp);
		run_file(path, buf, len);
	}
	kvet_rule_set_release(&set);
}

int main(int argc, char **argv)
{
	size_t i;
	int a;

	for (i = 0; i < kvet_builtin_rule_file_count; i++)
		run_file(kvet_builtin_rule_files[i].name,
			 kvet_builtin_rule_files[i].text,
			 kvet_builtin_rule_files[i].len);
	for (a = 1; a < argc; a++)
		run_dir(argv[a]);
	printf("1..%d\n# %d failed\n", n_tests, n_failed);
	return n_failed ? 1 : 0;
}
