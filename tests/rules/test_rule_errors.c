/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Evaluation errors (issue 11, item 9): a rule that cannot be evaluated
 * on an object is an error of the run, with its rule, object and place,
 * never a silent "no finding"; at most 10 per rule are listed.
 */
#include "support.h"

#include "kvet/kvet.h"
#include "tctx.h"

#define HEAD								\
	"severity: warning\ncategory: test\nsummary: s\ndescription: d\n" \
	"remediation: r\n"

/* A run of the rules @rules over @n ConfigMaps named cm0, cm1, ...; the
 * first @with_mode of them have data.mode. */
static struct kvet_ctx *run(const char *rules, size_t n, size_t with_mode)
{
	struct kvet_options opts = { .flags = KVET_CTX_NO_BUILTIN_RULES };
	struct kvet_ctx *ctx = kvet_ctx_create(&opts);
	char doc[256];
	size_t i;

	assert_non_null(ctx);
	assert_int_equal(kvet_ctx_add_rules_buffer(ctx, "r.yaml", rules,
						   strlen(rules)), 0);
	for (i = 0; i < n; i++) {
		snprintf(doc, sizeof(doc),
			 "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm%zu}\n"
			 "data:\n  size: \"%zu\"\n%s",
			 i, i, i < with_mode ? "  mode: fast\n" : "");
		tctx_add(ctx, "in.yaml", doc);
	}
	assert_int_equal(kvet_ctx_run(ctx), 0);
	return ctx;
}

static const char *const mode_rule =
	"id: mode-fast\n" HEAD
	"match: {kinds: [ConfigMap]}\n"
	"condition: object.data.mode == \"fast\"\n"
	"message: fast\n";

static void errors_are_listed(void **state)
{
	struct kvet_ctx *ctx = run(mode_rule, 25, 1);
	const struct kvet_error *e;
	struct kvet_summary sum;

	(void)state;
	/* cm0 fires; 24 errors: 10 listed, then one line for 14 more */
	assert_int_equal(kvet_ctx_finding_count(ctx), 1);
	assert_int_equal(kvet_ctx_error_count(ctx), 11);
	e = kvet_ctx_error(ctx, 0);
	assert_string_equal(e->rule, "mode-fast");
	assert_non_null(e->object);
	assert_string_equal(e->object->name, "cm1");
	assert_false(e->tolerated);
	/* at the map the key is missing from: data: */
	assert_string_equal(e->pos.file, "in.yaml");
	assert_int_equal(e->pos.line, 4);
	assert_int_equal(e->pos.column, 1);
	assert_non_null(strstr(e->message, "cannot evaluate the condition on ConfigMap default/cm1: no such key: 'mode'"));
	e = kvet_ctx_error(ctx, 10);
	assert_string_equal(e->rule, "mode-fast");
	assert_null(e->object);
	assert_string_equal(e->pos.file, "r.yaml");
	assert_non_null(strstr(e->message, "14 more evaluation errors"));
	kvet_ctx_summary(ctx, &sum);
	assert_int_equal(sum.evaluation_errors, 24);
	assert_int_equal(sum.input_errors, 0);
	assert_int_equal(kvet_ctx_exit_code(ctx, KVET_SEV_ERROR, false),
			 KVET_EXIT_INPUT);
	assert_int_equal(kvet_ctx_exit_code(ctx, KVET_SEV_ERROR, true),
			 KVET_EXIT_INPUT);
	kvet_ctx_destroy(ctx);
}

static void errors_can_be_tolerated(void **state)
{
	static const char *const cm =
		"kind: ConfigMap\napiVersion: v1\nmetadata: {name: x}\n";
	char rules[1024];
	struct kvet_options opts = { .flags = KVET_CTX_NO_BUILTIN_RULES };
	struct kvet_ctx *ctx;

	(void)state;
	snprintf(rules, sizeof(rules), "%son_error: tolerate\n", mode_rule);
	ctx = run(rules, 3, 0);
	assert_int_equal(kvet_ctx_error_count(ctx), 3);
	assert_true(kvet_ctx_error(ctx, 0)->tolerated);
	assert_int_equal(kvet_ctx_exit_code(ctx, KVET_SEV_WARNING, false),
			 KVET_EXIT_OK);
	kvet_ctx_destroy(ctx);
	/* the same from the settings (.kvet.yaml rules.tolerateErrors) */
	ctx = kvet_ctx_create(&opts);
	assert_non_null(ctx);
	assert_int_equal(kvet_ctx_add_rules_buffer(ctx, "r.yaml", mode_rule,
						   strlen(mode_rule)), 0);
	assert_int_equal(kvet_ctx_set_rule_tolerate_errors(ctx, "*", true), 0);
	assert_int_equal(kvet_ctx_set_rule_tolerate_errors(ctx, "mode-fast",
							   true), 0);
	assert_int_equal(kvet_ctx_set_rule_tolerate_errors(ctx, "no-such", true),
			 -1);
	tctx_add(ctx, "in.yaml", cm);
	assert_int_equal(kvet_ctx_run(ctx), 0);
	assert_int_equal(kvet_ctx_error_count(ctx), 1);
	assert_true(kvet_ctx_error(ctx, 0)->tolerated);
	assert_int_equal(kvet_ctx_exit_code(ctx, KVET_SEV_WARNING, false),
			 KVET_EXIT_OK);
	kvet_ctx_destroy(ctx);
	/* only fail and tolerate are words of on_error */
	snprintf(rules, sizeof(rules), "%son_error: ignore\n", mode_rule);
	ctx = kvet_ctx_create(&opts);
	assert_non_null(ctx);
	assert_int_equal(kvet_ctx_add_rules_buffer(ctx, "r.yaml", rules,
						   strlen(rules)), -1);
	assert_int_equal(kvet_ctx_rule_error_count(ctx), 1);
	assert_int_equal(kvet_ctx_rule_error(ctx, 0)->pos.line, 10);
	kvet_ctx_destroy(ctx);
}

/* Every part of a rule that must give a value is checked: each.in, the
 * condition, severity_expr, message and related; `at` may fail (it then
 * names the next field), unless kvet gave up. */
static void every_part_is_checked(void **state)
{
	static const char *const rules =
		"id: a-each\n" HEAD "match: {kinds: [ConfigMap]}\n"
		"each: {as: x, in: object.data.size}\n"
		"condition: 'true'\nmessage: m\n---\n"
		"id: b-cond\n" HEAD "match: {kinds: [ConfigMap]}\n"
		"condition: object.data.size\nmessage: m\n---\n"
		"id: c-message\n" HEAD "match: {kinds: [ConfigMap]}\n"
		"condition: 'true'\nmessage: '{{ object.data.nope }}'\n"
		"at: [object.data.nope, object.data]\n---\n"
		"id: d-related\n" HEAD "match: {kinds: [ConfigMap]}\n"
		"condition: 'true'\nmessage: m\nrelated: object.nope\n";
	struct kvet_ctx *ctx = run(rules, 1, 0);
	static const char *const want[] = {
		"\"each.in\" on ConfigMap default/cm0: it gave \"0\", not list",
		"the condition on ConfigMap default/cm0: it gave \"0\", not bool",
		"the message on ConfigMap default/cm0: no such key: 'nope'",
		"\"related\" on ConfigMap default/cm0: no such key: 'nope'",
	};
	size_t i;

	(void)state;
	assert_int_equal(kvet_ctx_error_count(ctx), 4);
	for (i = 0; i < 4; i++)
		if (!strstr(kvet_ctx_error(ctx, i)->message, want[i]))
			fail_msg("%zu: %s", i, kvet_ctx_error(ctx, i)->message);
	/* c and d still fire, c at data: */
	assert_int_equal(kvet_ctx_finding_count(ctx), 2);
	assert_string_equal(kvet_ctx_finding(ctx, 1)->rule, "c-message");
	assert_int_equal(kvet_ctx_finding(ctx, 1)->pos.line, 4);
	kvet_ctx_destroy(ctx);
}

/* A run of @rules over ConfigMap "big" whose data.big lists @n numbers,
 * followed by @more (more keys of its data, or more documents). */
static struct kvet_ctx *run_big(const char *rules, size_t n, const char *more)
{
	struct kvet_options opts = { .flags = KVET_CTX_NO_BUILTIN_RULES };
	struct kvet_ctx *ctx = kvet_ctx_create(&opts);
	char *doc = malloc(n * 8 + strlen(more) + 128), *p;
	size_t i;

	assert_non_null(ctx);
	assert_non_null(doc);
	assert_int_equal(kvet_ctx_add_rules_buffer(ctx, "r.yaml", rules,
						   strlen(rules)), 0);
	p = doc + sprintf(doc, "apiVersion: v1\nkind: ConfigMap\n"
			       "metadata: {name: big}\ndata:\n  big: [1");
	for (i = 1; i < n; i++)
		p += sprintf(p, ", %zu", i);
	sprintf(p, "]\n%s", more);
	tctx_add(ctx, "in.yaml", doc);
	assert_int_equal(kvet_ctx_run(ctx), 0);
	free(doc);
	return ctx;
}

/* A rule that runs out of budget on an object gives one error for it,
 * not one per `each` item, and its other objects still run. */
static void budget_is_per_rule_and_object(void **state)
{
	static const char *const rules =
		"id: costly\n" HEAD "match: {kinds: [ConfigMap]}\n"
		"each: {as: i, in: '[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]'}\n"
		"condition: >-\n"
		"  has(object.data.big) && object.data.big.all(a,"
		" object.data.big.all(b, a + b + i > 0))\n"
		"message: m\n";
	struct kvet_ctx *ctx;

	(void)state;
	/* 2,000 items: 4 million steps each time */
	ctx = run_big(rules, 2000,
		      "---\napiVersion: v1\nkind: ConfigMap\n"
		      "metadata: {name: small}\ndata:\n  big: [1, 2]\n");
	assert_int_equal(kvet_ctx_error_count(ctx), 1);
	assert_non_null(strstr(kvet_ctx_error(ctx, 0)->message,
			       "on ConfigMap default/big: evaluation cost over the limit"));
	/* the small one fires once per item */
	assert_int_equal(kvet_ctx_finding_count(ctx), 10);
	kvet_ctx_destroy(ctx);
}

/* Items of a typed list take kind and apiVersion from the list; rules
 * reading object.kind must not fail on them. */
static void kind_of_typed_list_items(void **state)
{
	static const char *const rules =
		"id: kind-is\n" HEAD "match: {kinds: [apps/Deployment]}\n"
		"condition: object.kind == \"Deployment\" &&"
		" object.apiVersion == \"apps/v1\"\n"
		"message: m\n";
	static const char *const input =
		"apiVersion: apps/v1\nkind: DeploymentList\nitems:\n"
		"- metadata: {name: web}\n  spec: {replicas: 1}\n";
	struct kvet_options opts = { .flags = KVET_CTX_NO_BUILTIN_RULES };
	struct kvet_ctx *ctx = kvet_ctx_create(&opts);

	(void)state;
	assert_non_null(ctx);
	assert_int_equal(kvet_ctx_add_rules_buffer(ctx, "r.yaml", rules,
						   strlen(rules)), 0);
	tctx_add(ctx, "in.yaml", input);
	assert_int_equal(kvet_ctx_run(ctx), 0);
	assert_int_equal(kvet_ctx_error_count(ctx), 0);
	assert_int_equal(kvet_ctx_finding_count(ctx), 1);
	kvet_ctx_destroy(ctx);
}

/*
 * `variables:` are evaluated at most once per object and `each` item: a
 * variable of some 600,000 steps read three times stays within the
 * budget of 1,000,000; a variable of the item is evaluated again for the
 * next item; and a variable with a macro, read inside the condition's
 * macro, leaves the condition's iteration variable alone.
 */
static void variables_once_per_object_and_item(void **state)
{
	static const char *const rules =
		"id: vars\n" HEAD "match: {kinds: [ConfigMap]}\n"
		"each: {as: key, in: 'object.data.map(k, k)'}\n"
		"variables:\n"
		"  - name: heavy\n"
		"    expression: >-\n"
		"      object.data.big.all(a, object.data.big.all(b, a + b > 0))\n"
		"  - name: keys\n"
		"    expression: object.data.map(k, k)\n"
		"  - name: isBig\n"
		"    expression: key == 'big' && variables.heavy\n"
		"condition: >-\n"
		"  variables.isBig && variables.heavy && variables.heavy &&\n"
		"  ['big'].all(k, k in variables.keys && k == 'big')\n"
		"message: '{{ key }} of {{ variables.keys }}'\n";
	struct kvet_ctx *ctx;

	(void)state;
	ctx = run_big(rules, 300, "  other: x\n");
	if (kvet_ctx_error_count(ctx))
		fail_msg("%s", kvet_ctx_error(ctx, 0)->message);
	/* "big" fires, "other" does not: isBig was evaluated again */
	assert_int_equal(kvet_ctx_finding_count(ctx), 1);
	assert_string_equal(kvet_ctx_finding(ctx, 0)->message,
			    "big of [\"big\", \"other\"]");
	kvet_ctx_destroy(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(errors_are_listed),
		cmocka_unit_test(errors_can_be_tolerated),
		cmocka_unit_test(every_part_is_checked),
		cmocka_unit_test(budget_is_per_rule_and_object),
		cmocka_unit_test(kind_of_typed_list_items),
		cmocka_unit_test(variables_once_per_object_and_item),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
