/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Settings through the public API: the order of rule settings, settings
 * applied to rules added after them, lists that add or replace, the
 * warnings for rule names that would silently suppress nothing, and the
 * size limit of inputs.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kvet/kvet.h"
#include "tctx.h"

static const char two[] = "apiVersion: apps/v1\nkind: Deployment\n"
			  "metadata: {name: web}\nspec:\n  replicas: two\n";

static const char my_rule[] =
	"id: my-rule\nseverity: warning\ncategory: test\nsummary: s\n"
	"description: d\nremediation: r\n"
	"match: {kinds: [apps/Deployment]}\n"
	"condition: 'true'\nmessage: m\n";

/* component "controller" is a manager by default, "reconciler" is not */
static const char managers[] =
	"apiVersion: apps/v1\nkind: Deployment\n"
	"metadata: {name: ctl, labels: {app.kubernetes.io/component: controller}}\n"
	"spec:\n  selector: {matchLabels: {app: ctl}}\n"
	"  template: {metadata: {labels: {app: ctl}}}\n"
	"---\n"
	"apiVersion: apps/v1\nkind: Deployment\n"
	"metadata: {name: rec, labels: {app.kubernetes.io/component: reconciler}}\n"
	"spec:\n  selector: {matchLabels: {app: rec}}\n"
	"  template: {metadata: {labels: {app: rec}}}\n";

static struct kvet_ctx *create(unsigned int flags)
{
	struct kvet_options opts = { .jobs = 1, .flags = flags };
	struct kvet_ctx *ctx = kvet_ctx_create(&opts);

	assert_non_null(ctx);
	return ctx;
}

static void run(struct kvet_ctx *ctx, const char *text)
{
	tctx_add(ctx, "in.yaml", text);
	assert_int_equal(kvet_ctx_run(ctx), 0);
}

/* Later settings win, "*" included, in either order. */
static void test_setting_order(void **state)
{
	struct kvet_ctx *ctx = create(0);

	(void)state;
	assert_int_equal(kvet_ctx_set_rule_enabled(ctx, "*", false), 0);
	assert_int_equal(kvet_ctx_rule_count(ctx), 0);
	assert_int_equal(kvet_ctx_set_rule_enabled(ctx, "invalid-field-type",
						   true), 0);
	assert_int_equal(kvet_ctx_rule_count(ctx), 1);
	assert_int_equal(kvet_ctx_set_rule_severity(ctx, "*", KVET_SEV_INFO),
			 0);
	assert_int_equal(kvet_ctx_rule_find(ctx, "invalid-field-type")->severity,
			 KVET_SEV_INFO);
	assert_int_equal(kvet_ctx_set_rule_enabled(ctx, "no-such-rule", true),
			 -1);
	run(ctx, two);
	assert_int_equal(kvet_ctx_finding_count(ctx), 1);
	assert_int_equal(kvet_ctx_finding(ctx, 0)->severity, KVET_SEV_INFO);
	kvet_ctx_destroy(ctx);

	ctx = create(0);
	assert_int_equal(kvet_ctx_set_rule_enabled(ctx, "invalid-field-type",
						   true), 0);
	assert_int_equal(kvet_ctx_set_rule_enabled(ctx, "*", false), 0);
	assert_int_equal(kvet_ctx_rule_count(ctx), 0);
	run(ctx, two);
	assert_int_equal(kvet_ctx_finding_count(ctx), 0);
	kvet_ctx_destroy(ctx);
}

/* The rule @id among all the context knows, or NULL. */
static const struct kvet_rule_info *known(const struct kvet_ctx *ctx,
					  const char *id)
{
	size_t i;

	for (i = 0; i < kvet_ctx_rule_all_count(ctx); i++)
		if (!strcmp(kvet_ctx_rule_all(ctx, i)->id, id))
			return kvet_ctx_rule_all(ctx, i);
	return NULL;
}

/*
 * Each command runs the rules whose commands name it, and knows the
 * others: a lint context lists the drain checks and takes settings of
 * them, without running them; rule files are kvet lint's.
 */
static void test_commands(void **state)
{
	const unsigned int both = KVET_RULE_IN_LINT | KVET_RULE_IN_DRAIN;
	unsigned int command[2] = { KVET_RULE_IN_LINT, KVET_RULE_IN_DRAIN };
	unsigned int flags[2] = { 0, KVET_CTX_DRAIN };
	struct kvet_ctx *ctx;
	size_t i, k;

	(void)state;
	for (k = 0; k < 2; k++) {
		ctx = create(flags[k]);
		assert_int_equal(kvet_ctx_add_rules_buffer(ctx, "my-rule.yaml",
							   my_rule,
							   strlen(my_rule)),
				 0);
		assert_int_equal(known(ctx, "my-rule")->commands,
				 KVET_RULE_IN_LINT);
		assert_int_equal(known(ctx, "invalid-field-type")->commands,
				 both);
		assert_int_equal(known(ctx, "drain-pod-deleted")->commands,
				 KVET_RULE_IN_DRAIN);
		assert_int_equal(known(ctx, "rolling-upgrade-stalls")->commands,
				 KVET_RULE_IN_LINT);
		assert_int_equal(kvet_ctx_set_rule_enabled(ctx,
							   "drain-pod-deleted",
							   false), 0);
		assert_true(known(ctx, "drain-pod-deleted")->disabled);
		assert_true(kvet_ctx_rule_count(ctx) > 0);
		for (i = 0; i < kvet_ctx_rule_count(ctx); i++)
			assert_true(kvet_ctx_rule(ctx, i)->commands &
				    command[k]);
		assert_non_null(kvet_ctx_rule_find(ctx, "invalid-field-type"));
		kvet_ctx_destroy(ctx);
	}
}

/* A rule file added after "*" settings gets them too. */
static void test_settings_reach_later_rules(void **state)
{
	struct kvet_ctx *ctx = create(KVET_CTX_NO_BUILTIN_RULES);

	(void)state;
	assert_int_equal(kvet_ctx_set_rule_severity(ctx, "*", KVET_SEV_ERROR),
			 0);
	assert_int_equal(kvet_ctx_add_rules_buffer(ctx, "my-rule.yaml",
						   my_rule, strlen(my_rule)),
			 0);
	assert_int_equal(kvet_ctx_rule_count(ctx), 1);
	assert_int_equal(kvet_ctx_rule_find(ctx, "my-rule")->severity,
			 KVET_SEV_ERROR);
	assert_int_equal(kvet_ctx_set_rule_enabled(ctx, "my-rule", false), 0);
	assert_null(kvet_ctx_rule_find(ctx, "my-rule"));
	run(ctx, two);
	assert_int_equal(kvet_ctx_finding_count(ctx), 0);
	kvet_ctx_destroy(ctx);
}

/* Values add to the built-in list; after a replace only added ones count. */
static void test_lists_add_or_replace(void **state)
{
	struct kvet_ctx *ctx = create(0);

	(void)state;
	assert_int_equal(kvet_ctx_add_graph_value(
				 ctx, KVET_GRAPH_MANAGER_COMPONENTS, "reconciler"),
			 0);
	run(ctx, managers);
	assert_int_equal(tctx_count(ctx, "manager-default-priority"), 2);
	kvet_ctx_destroy(ctx);

	ctx = create(0);
	/* what came before the replace is forgotten too */
	assert_int_equal(kvet_ctx_add_graph_value(
				 ctx, KVET_GRAPH_MANAGER_COMPONENTS, "controller"),
			 0);
	assert_int_equal(kvet_ctx_replace_graph_values(
				 ctx, KVET_GRAPH_MANAGER_COMPONENTS), 0);
	assert_int_equal(kvet_ctx_add_graph_value(
				 ctx, KVET_GRAPH_MANAGER_COMPONENTS, "reconciler"),
			 0);
	run(ctx, managers);
	assert_int_equal(tctx_count(ctx, "manager-default-priority"), 1);
	assert_string_equal(kvet_ctx_finding(ctx, 0)->object.name, "rec");
	kvet_ctx_destroy(ctx);

	ctx = create(0);
	assert_int_equal(kvet_ctx_replace_graph_values(
				 ctx, KVET_GRAPH_MANAGER_COMPONENTS), 0);
	run(ctx, managers);
	assert_int_equal(tctx_count(ctx, "manager-default-priority"), 0);
	kvet_ctx_destroy(ctx);

	ctx = create(0);
	assert_int_equal(kvet_ctx_replace_graph_values(ctx,
						       KVET_GRAPH_LIST_COUNT),
			 -1);
	kvet_ctx_destroy(ctx);
}

/* A suppression by the library has no position: its warning has none. */
static void test_suppress_glob_matching_nothing(void **state)
{
	struct kvet_ctx *ctx = create(0);
	const struct kvet_notice *nt;

	(void)state;
	assert_int_equal(kvet_ctx_suppress(ctx, "invalid-field-typo", NULL,
					   NULL, NULL, NULL), 0);
	assert_int_equal(kvet_ctx_suppress(ctx, "invalid-*", NULL, NULL, NULL,
					   NULL), 0);
	assert_int_equal(kvet_ctx_suppress(ctx, NULL, "Deployment", NULL,
					   "other", NULL), 0);
	run(ctx, two);
	assert_int_equal(kvet_ctx_notice_count(ctx), 1);
	nt = kvet_ctx_notice(ctx, 0);
	assert_int_equal(nt->level, KVET_NOTICE_WARNING);
	assert_null(nt->pos.file);
	assert_int_equal(nt->pos.line, 0);
	assert_non_null(strstr(nt->message, "\"invalid-field-typo\""));
	/* held back by the glob that matches, the exit status unchanged */
	assert_int_equal(kvet_ctx_finding_count(ctx), 0);
	assert_int_equal(kvet_ctx_suppressed_count(ctx), 1);
	assert_int_equal(kvet_ctx_exit_code(ctx, KVET_SEV_INFO, false),
			 KVET_EXIT_OK);
	kvet_ctx_destroy(ctx);
}

/* Each unknown id of kvet.dev/ignore is a warning at the annotation;
 * "*", known ids and built-in ids in a run without them are not. */
static void test_unknown_ignore_ids(void **state)
{
	static const char text[] =
		"apiVersion: apps/v1\nkind: Deployment\n"
		"metadata:\n  name: web\n  annotations:\n"
		"    kvet.dev/ignore: ' invalid-field-type ,nope, *,,"
		" pdb-no-policy, also-nope'\n"
		"spec:\n  replicas: two\n";
	struct kvet_ctx *ctx = create(0);
	const struct kvet_notice *nt;

	(void)state;
	run(ctx, text);
	assert_int_equal(kvet_ctx_notice_count(ctx), 2);
	nt = kvet_ctx_notice(ctx, 0);
	assert_int_equal(nt->level, KVET_NOTICE_WARNING);
	assert_string_equal(nt->pos.file, "in.yaml");
	assert_int_equal(nt->pos.line, 6);
	assert_int_equal(nt->pos.column, 22);
	assert_non_null(strstr(nt->message, "\"nope\""));
	assert_non_null(strstr(kvet_ctx_notice(ctx, 1)->message,
			       "\"also-nope\""));
	assert_int_equal(kvet_ctx_suppressed_count(ctx), 1);
	kvet_ctx_destroy(ctx);

	ctx = create(KVET_CTX_NO_BUILTIN_RULES);
	run(ctx, text);
	assert_int_equal(kvet_ctx_notice_count(ctx), 2);
	kvet_ctx_destroy(ctx);
}

/* Whole bytes from 1 to 1Ti, plain or as quantities; nothing else. */
static void test_input_size_parse(void **state)
{
	static const struct {
		const char *s;
		size_t want;	/* 0: refused */
	} cases[] = {
		{ "1", 1 },
		{ "1000000", 1000000 },
		{ "512Mi", (size_t)512 << 20 },
		{ "4Gi", (size_t)4 << 30 },
		{ "1.5Gi", (size_t)3 << 29 },
		{ "2G", 2000000000 },
		{ "1e3", 1000 },
		{ "1Ti", (size_t)1 << 40 },
		{ "0", 0 },
		{ "-1", 0 },
		{ "0.5", 0 },
		{ "100m", 0 },
		{ "1Ti1", 0 },
		{ "1025Gi", 0 },
		{ "512MB", 0 },
		{ " 1", 0 },
		{ "", 0 },
	};
	size_t i, got;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		got = 0;
		if (cases[i].want) {
			assert_int_equal(kvet_input_parse_size(cases[i].s, &got), 0);
			assert_int_equal(got, cases[i].want);
		} else {
			assert_int_equal(kvet_input_parse_size(cases[i].s, &got), -1);
		}
	}
}

/* A buffer is never refused by size, but a file is, by the context's
 * limit: below it, at it, and back to the default with 0. */
static void test_max_input_size(void **state)
{
	char path[] = "/tmp/kvet-test-size-XXXXXX";
	struct kvet_ctx *ctx;
	FILE *fp;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	fp = fdopen(fd, "w");
	assert_non_null(fp);
	assert_int_equal(fputs(two, fp) >= 0, 1);
	assert_int_equal(fclose(fp), 0);

	ctx = kvet_ctx_create(NULL);
	assert_non_null(ctx);
	kvet_ctx_set_max_input_size(ctx, sizeof(two) - 2);
	assert_int_equal(kvet_ctx_add_path(ctx, path), 0);
	assert_int_equal(kvet_ctx_run(ctx), 0);
	assert_int_equal(kvet_ctx_error_count(ctx), 1);
	assert_non_null(strstr(kvet_ctx_error(ctx, 0)->message,
			       "input larger than the limit of"));
	kvet_ctx_destroy(ctx);

	ctx = kvet_ctx_create(NULL);
	assert_non_null(ctx);
	kvet_ctx_set_max_input_size(ctx, sizeof(two) - 2);
	kvet_ctx_set_max_input_size(ctx, 0);
	assert_int_equal(kvet_ctx_add_path(ctx, path), 0);
	assert_int_equal(kvet_ctx_run(ctx), 0);
	assert_int_equal(kvet_ctx_error_count(ctx), 0);
	kvet_ctx_destroy(ctx);

	ctx = kvet_ctx_create(NULL);
	assert_non_null(ctx);
	kvet_ctx_set_max_input_size(ctx, sizeof(two) - 1);
	assert_int_equal(kvet_ctx_add_path(ctx, path), 0);
	assert_int_equal(kvet_ctx_run(ctx), 0);
	assert_int_equal(kvet_ctx_error_count(ctx), 0);
	kvet_ctx_destroy(ctx);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_setting_order),
		cmocka_unit_test(test_settings_reach_later_rules),
		cmocka_unit_test(test_commands),
		cmocka_unit_test(test_lists_add_or_replace),
		cmocka_unit_test(test_suppress_glob_matching_nothing),
		cmocka_unit_test(test_unknown_ignore_ids),
		cmocka_unit_test(test_input_size_parse),
		cmocka_unit_test(test_max_input_size),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
