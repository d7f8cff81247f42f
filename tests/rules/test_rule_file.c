/* SPDX-License-Identifier: Apache-2.0 */
/* Rule file validation: every problem at its file:line:column. */
#include "support.h"

#include "kvet/kvet.h"
#include "tctx.h"
#include "rules/rules.h"
#include "load/load.h"

static const char *const good =
	"id: my-rule\n"
	"severity: warning\n"
	"category: test\n"
	"summary: s\n"
	"description: d\n"
	"remediation: r\n"
	"match: {kinds: [Deployment]}\n"
	"params: {n: 2}\n"
	"condition: object.spec.replicas >= params.n\n"
	"message: 'has {{ object.spec.replicas }} replicas'\n";

/* Load @text as x.yaml; expect one error at @line:@col containing @part. */
static void expect_error(const char *text, unsigned int line,
			 unsigned int col, const char *part)
{
	struct kvet_rule_set set;

	kvet_rule_set_init(&set);
	assert_int_equal(kvet_rule_set_add_buffer(&set, "x.yaml", text,
						  strlen(text)), -1);
	assert_true(set.diag.n >= 1);
	if (set.diag.errors[0].pos.line != line ||
	    set.diag.errors[0].pos.column != col ||
	    !strstr(set.diag.errors[0].message, part))
		fail_msg("got %u:%u \"%s\", want %u:%u \"%s\"",
			 set.diag.errors[0].pos.line,
			 set.diag.errors[0].pos.column,
			 set.diag.errors[0].message, line, col, part);
	assert_string_equal(set.diag.errors[0].pos.file, "x.yaml");
	kvet_rule_set_release(&set);
}

/* Load @text as x.yaml; expect it to load without an error. */
static void expect_loads(const char *text)
{
	struct kvet_rule_set set;

	kvet_rule_set_init(&set);
	if (kvet_rule_set_add_buffer(&set, "x.yaml", text, strlen(text)))
		fail_msg("%u:%u %s", set.diag.errors[0].pos.line,
			 set.diag.errors[0].pos.column,
			 set.diag.errors[0].message);
	kvet_rule_set_release(&set);
}

static char *replace(const char *from, const char *to)
{
	static char buf[2048];
	const char *p = strstr(good, from);

	assert_non_null(p);
	snprintf(buf, sizeof(buf), "%.*s%s%s", (int)(p - good), good, to,
		 p + strlen(from));
	return buf;
}

static void loads(void **state)
{
	struct kvet_rule_set set;

	(void)state;
	kvet_rule_set_init(&set);
	assert_int_equal(kvet_rule_set_add_buffer(&set, "x.yaml", good,
						  strlen(good)), 0);
	assert_int_equal(set.n, 1);
	assert_string_equal(set.v[0]->info.id, "my-rule");
	assert_int_equal(set.v[0]->message.n, 3);
	assert_false(set.v[0]->has_related);
	assert_int_equal(kvet_rule_set_param(&set, "my-rule", "n", "5"), 0);
	assert_int_equal(set.v[0]->params.u.entries[0].value.u.i, 5);
	assert_int_equal(kvet_rule_set_param(&set, "my-rule", "n", "x"), -1);
	assert_int_equal(kvet_rule_set_param(&set, "my-rule", "m", "1"), -1);
	assert_int_equal(kvet_rule_set_param(&set, "other", "n", "1"), -1);
	/* the same id again */
	assert_int_equal(kvet_rule_set_add_buffer(&set, "y.yaml", good,
						  strlen(good)), -1);
	assert_non_null(strstr(set.diag.errors[3].message, "duplicate rule id"));
	assert_int_equal(set.diag.errors[3].pos.line, 1);
	assert_int_equal(set.diag.errors[3].pos.column, 5);
	kvet_rule_set_release(&set);
}

/* A team's rule needs only id, severity, match, condition and message;
 * the built-in rules must document themselves in full. */
static void documentation_fields(void **state)
{
	static const char minimal[] =
		"id: team-label\n"
		"severity: warning\n"
		"match: {kinds: [Deployment]}\n"
		"condition: 'true'\n"
		"message: 'no team label on {{ object.metadata.name }}'\n";
	struct kvet_rule_set set;
	const struct kvet_rule_info *info;

	(void)state;
	kvet_rule_set_init(&set);
	assert_int_equal(kvet_rule_set_add_buffer(&set, "x.yaml", minimal,
						  strlen(minimal)), 0);
	info = &set.v[0]->info;
	assert_string_equal(info->category, "custom");
	assert_string_equal(info->summary,
			    "no team label on {{ object.metadata.name }}");
	assert_ptr_equal(info->description, info->summary);
	assert_string_equal(info->remediation, "");
	assert_int_equal(info->n_references, 0);
	assert_int_equal(set.v[0]->n_examples, 0);
	kvet_rule_set_release(&set);

	kvet_rule_set_init(&set);
	set.builtin = true;
	assert_int_equal(kvet_rule_set_add_buffer(&set, "x.yaml", minimal,
						  strlen(minimal)), -1);
	assert_int_equal(set.diag.n, 9);
	assert_string_equal(set.diag.errors[0].message,
			    "missing field \"category\"");
	/* the text report's shape: headline, reason, help */
	assert_string_equal(set.diag.errors[5].message,
			    "missing field \"headline\"");
	assert_string_equal(set.diag.errors[7].message,
			    "missing field \"help\"");
	assert_string_equal(set.diag.errors[8].message,
			    "missing field \"examples\"");
	kvet_rule_set_release(&set);
}

static void positioned_errors(void **state)
{
	(void)state;
	expect_error(replace("condition: object.spec.replicas >= params.n",
			     "condition: fooBar(object) > 1"),
		     9, 12, "unknown function \"fooBar\"");
	expect_error(replace("condition: object.spec.replicas >= params.n",
			     "condition: object.spec.replicas >= \"2\" + 1"),
		     9, 40, "no operator '+'");
	expect_error(replace("condition: object.spec.replicas >= params.n",
			     "condition: object.metadata.name.matches('a(')"),
		     9, 44, "invalid regex");
	expect_error(replace("condition: object.spec.replicas >= params.n",
			     "condition: |\n  object.spec.replicas >=\n    (1 +"),
		     11, 9, "expected an expression");
	/* one-line block scalars with strip chomping start at their
	 * content line: the indentation counts, not the mark's column */
	expect_error(replace("condition: object.spec.replicas >= params.n",
			     "condition: >-\n  object.spec.replicas >= fooBar(1)"),
		     10, 27, "unknown function \"fooBar\"");
	expect_error(replace("condition: object.spec.replicas >= params.n",
			     "condition: |-\n    object.spec.replicas >= fooBar(1)"),
		     10, 29, "unknown function \"fooBar\"");
	expect_error(replace("severity: warning", "severity: fatal"), 2, 11,
		     "invalid severity");
	expect_error(replace("id: my-rule", "id: My_Rule"), 1, 5, "kebab-case");
	expect_error(replace("category: test\n", "category: test\nfoo: 1\n"), 4,
		     1, "unknown field \"foo\"");
	expect_error(replace("'has {{ object.spec.replicas }} replicas'",
			     "'has {{ object.spec.replicas replicas'"), 10, 15,
		     "without \"}}\"");
	expect_error(replace("'has {{ object.spec.replicas }} replicas'",
			     "'has {{ object.spec.replicas + }} replicas'"), 10,
		     40, "expected an expression");
	expect_error(replace("match: {kinds: [Deployment]}\n", ""), 1, 1,
		     "missing field \"match\"");
	expect_error("id: x\n  bad: [\n", 1, 5, "multiline");
	expect_error(replace("category: test\n",
			     "category: test\nrelated: noSuch(object)\n"), 4,
		     10, "unknown function \"noSuch\"");
}

/* `variables:` loads, and each mistake is an error at its place. */
static void variables_are_checked(void **state)
{
	static const char *const cond =
		"condition: object.spec.replicas >= params.n";
	struct kvet_rule_set set;
	char *text;

	(void)state;
	text = replace(cond, "variables:\n"
			     "  - name: want\n"
			     "    expression: params.n\n"
			     "  - {name: few, expression: 'object.spec.replicas < variables.want'}\n"
			     "condition: variables.few");
	kvet_rule_set_init(&set);
	assert_int_equal(kvet_rule_set_add_buffer(&set, "x.yaml", text,
						  strlen(text)), 0);
	assert_int_equal(set.v[0]->n_vars, 2);
	assert_string_equal(set.v[0]->vars[1].name, "few");
	assert_string_equal(set.v[0]->vars[1].text,
			    "object.spec.replicas < variables.want");
	kvet_rule_set_release(&set);
	/* a variable reads only those before it */
	expect_error(replace(cond, "variables:\n"
				   "  - {name: a, expression: 'variables.b'}\n"
				   "  - {name: b, expression: '1'}\n"
				   "condition: variables.a == 1"),
		     10, 28, "\"variables.b\" is defined after variable \"a\"");
	expect_error(replace(cond, "variables:\n"
				   "  - {name: a, expression: '1 + variables.a'}\n"
				   "condition: variables.a == 1"),
		     10, 32, "variable \"a\" refers to itself");
	expect_error(replace(cond, "variables:\n"
				   "  - {name: a, expression: '1'}\n"
				   "condition: variables.hap == 1"),
		     11, 12, "unknown variable \"variables.hap\"");
	expect_error(replace(cond, "variables:\n"
				   "  - {name: a, expression: '1'}\n"
				   "  - {name: a, expression: '2'}\n"
				   "condition: variables.a == 1"),
		     11, 12, "duplicate variable \"a\" (also on line 10)");
	expect_error(replace(cond, "each: {as: w, in: '[1]'}\n"
				   "variables:\n"
				   "  - {name: w, expression: '1'}\n"
				   "condition: variables.w == 1"),
		     11, 12, "variable \"w\" shadows the each variable");
	expect_error(replace(cond, "each: {as: w, in: '[variables.a]'}\n"
				   "variables:\n"
				   "  - {name: a, expression: '1'}\n"
				   "condition: w == 1"),
		     9, 21, "cannot be used here: each.in is evaluated before the variables");
	expect_error(replace(cond, "variables:\n"
				   "  - {name: 2a, expression: '1'}\n"
				   "condition: 'true'"),
		     10, 12, "not a CEL identifier");
	expect_error(replace(cond, "variables:\n"
				   "  - {name: a, expression: '1', as: x}\n"
				   "condition: 'true'"),
		     10, 32, "unknown field \"as\" in a variable");
	expect_error(replace(cond, "variables: {a: 1}\ncondition: 'true'"),
		     9, 12, "must be a list");
	/* the message, severity_expr, at and related see them too */
	expect_loads(replace("'has {{ object.spec.replicas }} replicas'",
			     "'{{ variables.a }}'\n"
			     "variables: [{name: a, expression: '1'}]\n"
			     "severity_expr: \"variables.a == 1 ? 'info' : 'error'\"\n"
			     "at: \"object.spec[variables.a == 1 ? 'x' : 'y']\"\n"
			     "related: 'variables.a == 1 ? [] : [object]'"));
}

static void related_and_example_checks(void **state)
{
	static const char *const text =
		"id: my-rule\nseverity: warning\ncategory: test\nsummary: s\n"
		"description: d\nremediation: r\n"
		"match: {kinds: [apps/Deployment]}\n"
		"condition: 'true'\n"
		"message: m\n"
		/* nulls, non-objects, the object itself and repeats are
		 * skipped */
		"related: '[hpaFor(object), null, 1, object] +"
		" pdbsCovering(object) + pdbsCovering(object)'\n"
		"examples:\n"
		"- {expect: fail, severity: warning, message: m, manifest: x}\n";
	static const char *const input =
		"apiVersion: apps/v1\nkind: Deployment\n"
		"metadata: {name: web, namespace: ops}\n"
		"spec: {selector: {matchLabels: {app: web}},"
		" template: {metadata: {labels: {app: web}}}}\n---\n"
		"apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\n"
		"metadata: {name: web-hpa, namespace: ops}\n"
		"spec: {scaleTargetRef: {apiVersion: apps/v1, kind: Deployment,"
		" name: web}, minReplicas: 2, maxReplicas: 3}\n---\n"
		"apiVersion: policy/v1\nkind: PodDisruptionBudget\n"
		"metadata: {name: web-pdb, namespace: ops}\n"
		"spec: {maxUnavailable: 1, selector: {matchLabels: {app: web}}}\n";
	struct kvet_options opts = { .flags = KVET_CTX_NO_BUILTIN_RULES };
	const struct kvet_finding *f;
	struct kvet_rule_set set;
	struct kvet_ctx *ctx;

	(void)state;
	kvet_rule_set_init(&set);
	assert_int_equal(kvet_rule_set_add_buffer(&set, "x.yaml", text,
						  strlen(text)), 0);
	assert_true(set.v[0]->has_related);
	assert_int_equal(set.v[0]->examples[0].severity, KVET_SEV_WARNING);
	assert_string_equal(set.v[0]->examples[0].message, "m");
	kvet_rule_set_release(&set);

	ctx = kvet_ctx_create(&opts);
	assert_non_null(ctx);
	assert_int_equal(kvet_ctx_add_rules_buffer(ctx, "x.yaml", text,
						   strlen(text)), 0);
	tctx_add(ctx, "in.yaml", input);
	assert_int_equal(kvet_ctx_run(ctx), 0);
	assert_int_equal(kvet_ctx_finding_count(ctx), 1);
	f = kvet_ctx_finding(ctx, 0);
	assert_int_equal(f->n_related, 2);
	assert_string_equal(f->related[0].name, "web-hpa");
	assert_string_equal(f->related[1].name, "web-pdb");
	kvet_ctx_destroy(ctx);

	expect_error(replace("message: 'has", "related: fooBar(object)\nmessage: 'has"),
		     10, 10, "unknown function \"fooBar\"");
	expect_error(replace("message: 'has {{ object.spec.replicas }} replicas'\n",
			     "message: m\nexamples:\n- {expect: fail, severity: fatal,"
			     " manifest: x}\n"),
		     12, 28, "\"severity\" must be error, warning or info");
	expect_error(replace("message: 'has {{ object.spec.replicas }} replicas'\n",
			     "message: m\nexamples:\n- {expect: fail, message: [a],"
			     " manifest: x}\n"),
		     12, 27, "\"message\" must be a string");
}

/* Item 6 of issue 11: a rule whose static estimate is over the limit
 * is refused where its costliest macro starts, naming the rule. */
static void costly_rules_are_refused(void **state)
{
	(void)state;
	expect_error(replace("condition: object.spec.replicas >= params.n",
			     "condition: object.a.all(w, object.b.all(x,"
			     " object.c.all(y, object.d.all(z, w == z))))"),
		     9, 21, "rule \"my-rule\" may cost 4.04e+08 steps per object");
	expect_error(replace("condition: object.spec.replicas >= params.n",
			     "condition: object.a.all(w, object.b.all(x,"
			     " object.c.all(y, object.d.all(z, w == z))))"),
		     9, 21, "over the limit of 10000000 (with 100 items in each list of unknown size)");
	/* `each` multiplies what follows it */
	expect_error(replace("condition: object.spec.replicas >= params.n",
			     "each: {as: it, in: object.items}\n"
			     "condition: it.a.all(x, it.b.all(y, it.c.all(z, x == z)))"),
		     10, 17, "may cost");
	/* within the limit: two levels, and literal lists of known size */
	expect_loads(replace("condition: object.spec.replicas >= params.n",
			     "condition: object.a.all(x, object.b.all(y, x == y))"));
	expect_loads(replace("condition: object.spec.replicas >= params.n",
			     "condition: '[1, 2].all(a, [1, 2].all(b, [1, 2].all(c,"
			     " [1, 2].all(d, object.a.all(x, x != a + b + c + d)))))'"));
}

/* The finding of a rule file @rule on a two-replica Deployment. */
static const struct kvet_finding *lint_one(struct kvet_ctx *ctx,
					   const char *rule)
{
	static const char manifest[] =
		"apiVersion: apps/v1\n"
		"kind: Deployment\n"
		"metadata: {name: web, namespace: ops}\n"
		"spec: {replicas: 2}\n";

	assert_int_equal(kvet_ctx_add_rules_buffer(ctx, "x.yaml", rule,
						   strlen(rule)), 0);
	tctx_add(ctx, "in.yaml", manifest);
	assert_int_equal(kvet_ctx_run(ctx), 0);
	assert_int_equal(kvet_ctx_finding_count(ctx), 1);
	return kvet_ctx_finding(ctx, 0);
}

/* headline: and reason: make the message; message: alone is the
 * headline; help: or the remediation's first paragraph is the help. */
static void words(void **state)
{
	static const struct kvet_options opts = {
		.flags = KVET_CTX_NO_BUILTIN_RULES,
	};
	static const char *const base =
		"id: team-replicas\n"
		"severity: warning\n"
		"match: {kinds: [Deployment]}\n"
		"condition: 'true'\n";
	const struct kvet_finding *f;
	struct kvet_ctx *ctx;
	char rule[512];
	char *msg;

	(void)state;
	ctx = kvet_ctx_create(&opts);
	snprintf(rule, sizeof(rule), "%s%s", base,
		 "headline: 'Deployment \"{{ object.metadata.name }}\" runs 2'\n"
		 "reason: 'because {{ \"it\" }} does'\n"
		 "help: 'run {{ 1 }}'\n");
	f = lint_one(ctx, rule);
	assert_string_equal(f->headline, "Deployment \"web\" runs 2");
	assert_string_equal(f->reason, "because it does");
	assert_string_equal(f->help, "run 1");
	/* joined, the message is not kept: the findings derive it */
	assert_null(f->message);
	msg = kvet_finding_message_dup(f);
	assert_string_equal(msg, "Deployment \"web\" runs 2: because it does");
	free(msg);
	kvet_ctx_destroy(ctx);

	ctx = kvet_ctx_create(&opts);
	snprintf(rule, sizeof(rule), "%s%s", base,
		 "message: 'web runs {{ object.spec.replicas }}'\n"
		 "remediation: |\n  Run one\n  replica.\n\n  Or more.\n");
	f = lint_one(ctx, rule);
	assert_string_equal(f->headline, "web runs 2");
	assert_string_equal(f->message, "web runs 2");
	assert_null(f->reason);
	assert_string_equal(f->help, "Run one replica.");
	kvet_ctx_destroy(ctx);

	snprintf(rule, sizeof(rule), "%s%s", base,
		 "message: m\nheadline: h\n");
	expect_error(rule, 6, 11, "\"message\" or \"headline\", not both");
	snprintf(rule, sizeof(rule), "%s%s", base, "message: m\nreason: r\n");
	expect_error(rule, 6, 9, "\"reason\" needs \"headline\"");
	snprintf(rule, sizeof(rule), "%s", base);
	expect_error(rule, 1, 1, "missing field \"message\" (or \"headline\")");
}

/* Words are one line: line breaks, tabs and runs of spaces a template
 * or a value leaves become one space, leading and trailing ones go; a
 * template without expressions is made so once, when it loads. */
static void words_on_one_line(void **state)
{
	static const struct kvet_options opts = {
		.flags = KVET_CTX_NO_BUILTIN_RULES,
	};
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "", "" }, { "a", "a" }, { "a b", "a b" }, { " a", "a" },
		{ "a ", "a" }, { "a  b", "a b" }, { "a\nb", "a b" },
		{ "a\t\r\n b", "a b" }, { "\n\n", "" },
		{ "a\x01b", "a\x01b" },
	};
	const struct kvet_finding *f;
	struct kvet_ctx *ctx;
	char buf[32];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(buf, sizeof(buf), "%s", cases[i].in);
		assert_string_equal(kvet_rule_one_line(buf), cases[i].out);
	}
	ctx = kvet_ctx_create(&opts);
	f = lint_one(ctx, "id: team-replicas\n"
			  "severity: warning\n"
			  "match: {kinds: [Deployment]}\n"
			  "condition: 'true'\n"
			  "headline: '  web {{ \"runs\\n\\t two\" }}  '\n"
			  "help: |\n  run\n    one\n");
	assert_string_equal(f->headline, "web runs two");
	assert_string_equal(f->help, "run one");
	kvet_ctx_destroy(ctx);
}

/*
 * A word where match.kinds wants a list stands for a list of one: its
 * errors are at the word (issue 22: the word's bytes were read as a
 * node, and the error came at a position made of its text).
 */
static void test_fuzz_kinds_word(void **state)
{
	struct kvet_rule_set set;
	const char *t;

	(void)state;
	expect_error(replace("match: {kinds: [Deployment]}",
			     "match: {kinds: foo}"), 7, 16,
		     "unknown kind \"foo\"");
	expect_error(replace("match: {kinds: [Deployment]}",
			     "match: {kinds: [Deployment], namespaces: {a: b}}"),
		     7, 42, "\"match.namespaces\" must be a list of strings");
	/* the word selects a class of kinds as the one-item list does */
	t = replace("match: {kinds: [Deployment]}", "match: {kinds: workload}");
	kvet_rule_set_init(&set);
	assert_int_equal(kvet_rule_set_add_buffer(&set, "x.yaml", t, strlen(t)),
			 0);
	assert_int_equal(set.v[0]->n_kinds, 1);
	assert_string_equal(set.v[0]->kinds[0], "workload");
	assert_int_equal(set.v[0]->kind_class, KVET_KIND_WORKLOAD);
	kvet_rule_set_release(&set);
	/* references and at take a word the same way */
	expect_error(replace("category: test\n",
			     "category: test\nreferences: ftp://x\n"), 4, 13,
		     "reference \"ftp://x\" is not an http(s) URL");
	expect_error(replace("category: test\n",
			     "category: test\nat: nope(\n"), 4, 10,
		     "expected");
}

/* The same with the word at the very end of the file, no line break
 * after it: the bytes past it were read as the rest of the node. */
static void test_fuzz_kinds_word_at_end(void **state)
{
	static const char text[] =
		"id: my-rule\n"
		"severity: warning\n"
		"condition: 'true'\n"
		"message: m\n"
		"match:\n"
		"  kinds: scalable-workloads";
	char *exact = malloc(sizeof(text) - 1);

	(void)state;
	assert_non_null(exact);
	memcpy(exact, text, sizeof(text) - 1);
	{
		struct kvet_rule_set set;

		kvet_rule_set_init(&set);
		/* no NUL after the word: ASan sees a read past it */
		assert_int_equal(kvet_rule_set_add_buffer(&set, "x.yaml", exact,
							  sizeof(text) - 1),
				 -1);
		assert_int_equal(set.diag.n, 1);
		assert_int_equal(set.diag.errors[0].pos.line, 6);
		assert_int_equal(set.diag.errors[0].pos.column, 10);
		assert_non_null(strstr(set.diag.errors[0].message,
				       "unknown kind \"scalable-workloads\""));
		kvet_rule_set_release(&set);
	}
	free(exact);
}

/* The kinds of match.kinds are split when loaded ("apps/Deployment":
 * group and kind): an object matches by both, a kind alone by any group;
 * the result is that of the entries as written. */
static void kinds_split_when_loaded(void **state)
{
	struct kvet_object dep = { .group = "apps", .kind = "Deployment",
				   .namespace = "" };
	struct kvet_object ext = { .group = "extensions", .kind = "Deployment",
				   .namespace = "" };
	struct kvet_object app = { .group = "app", .kind = "Deployment",
				   .namespace = "" };
	struct kvet_object dae = { .group = "apps", .kind = "DaemonSet",
				   .namespace = "" };
	struct kvet_object core = { .group = "", .kind = "Service",
				    .namespace = "" };
	struct kvet_rule_set set;
	struct kvet_rule *r;
	const char *t;

	(void)state;
	t = replace("match: {kinds: [Deployment]}",
		    "match: {kinds: [apps/Deployment, Service, /Secret, "
		    "DaemonSets]}");
	kvet_rule_set_init(&set);
	assert_int_equal(kvet_rule_set_add_buffer(&set, "x.yaml", t, strlen(t)),
			 0);
	r = set.v[0];
	assert_non_null(r->kind_parts);
	assert_int_equal(r->kind_parts[0].group_len, 4);
	assert_string_equal(r->kind_parts[0].kind, "Deployment");
	assert_null(r->kind_parts[1].group);
	assert_true(kvet_rule_matches(r, &dep, NULL, 0));
	assert_false(kvet_rule_matches(r, &ext, NULL, 0));
	assert_false(kvet_rule_matches(r, &app, NULL, 0));
	assert_false(kvet_rule_matches(r, &dae, NULL, 0));
	assert_true(kvet_rule_matches(r, &core, NULL, 0));
	/* "/Secret": the core group, written with its empty name */
	core.kind = "Secret";
	assert_true(kvet_rule_matches(r, &core, NULL, 0));
	core.group = "v1";
	assert_false(kvet_rule_matches(r, &core, NULL, 0));
	/* without the split entries, the same answers */
	r->kind_parts = NULL;
	assert_true(kvet_rule_matches(r, &dep, NULL, 0));
	assert_false(kvet_rule_matches(r, &ext, NULL, 0));
	assert_false(kvet_rule_matches(r, &core, NULL, 0));
	kvet_rule_set_release(&set);
}

/* Scalars of @a point into @abuf where those of @b point into @bbuf, at
 * the same offsets: rule errors find their positions through them. */
static void same_places(const struct kvet_node *a, const char *abuf,
			const struct kvet_node *b, const char *bbuf,
			size_t len)
{
	size_t i;

	assert_int_equal(a->type, b->type);
	assert_int_equal(a->len, b->len);
	if (a->type == KVET_NODE_MAP) {
		for (i = 0; i < a->len; i++) {
			same_places(&a->u.pairs[i].key, abuf,
				    &b->u.pairs[i].key, bbuf, len);
			same_places(&a->u.pairs[i].value, abuf,
				    &b->u.pairs[i].value, bbuf, len);
		}
	} else if (a->type == KVET_NODE_SEQ) {
		for (i = 0; i < a->len; i++)
			same_places(&a->u.items[i], abuf, &b->u.items[i], bbuf,
				    len);
	} else if (b->u.str >= bbuf && b->u.str < bbuf + len) {
		assert_true(a->u.str >= abuf && a->u.str < abuf + len);
		assert_int_equal(a->u.str - abuf, b->u.str - bbuf);
	} else {
		assert_false(a->u.str && a->u.str >= abuf &&
			     a->u.str < abuf + len);
	}
}

/* The trees made at build time (tools/embed_rules.c) are the loader's
 * trees of the same bytes, node for node. */
static void builtin_trees(void **state)
{
	size_t f, i;

	(void)state;
	assert_true(kvet_builtin_rule_file_count > 0);
	for (f = 0; f < kvet_builtin_rule_file_count; f++) {
		const struct kvet_builtin_rule_file *bf =
			&kvet_builtin_rule_files[f];
		struct kvet_docs docs = { 0 };
		struct kvet_arena arena;
		struct kvet_diag diag;
		const struct kvet_node *where = NULL;
		char *buf;

		kvet_arena_init(&arena);
		kvet_diag_init(&diag, &arena);
		buf = kvet_arena_strndup(&arena, bf->text, bf->rule_len);
		assert_non_null(buf);
		assert_int_equal(kvet_load_buffer(&arena, &diag, bf->name, buf,
						  bf->rule_len, &docs), 0);
		assert_int_equal(docs.n, bf->n_roots);
		assert_true(bf->rule_len <= bf->len);
		for (i = 0; i < docs.n; i++) {
			if (!kvet_node_same(&bf->roots[i], docs.v[i].root,
					    &where))
				fail_msg("%s: the built tree differs at %u:%u",
					 bf->name, where ? where->line : 0,
					 where ? where->col : 0);
			same_places(&bf->roots[i], bf->text, docs.v[i].root,
				    buf, bf->rule_len);
		}
		kvet_docs_release(&docs);
		kvet_diag_release(&diag);
		kvet_arena_release(&arena);
	}
}

static void same_template(const struct kvet_template *a,
			  const struct kvet_template *b)
{
	assert_int_equal(a->n, b->n);
	assert_true(!a->text == !b->text);
	if (a->text)
		assert_string_equal(a->text, b->text);
	assert_true(!a->constant == !b->constant);
	if (a->constant)
		assert_string_equal(a->constant, b->constant);
}

/* A lint's built-in rules wait for kvet_rule_set_compile(): none is
 * compiled before, none without an object to match, and a rule compiled
 * later is the rule a full load compiles at once. */
static void lean_rules_wait(void **state)
{
	struct kvet_rule_set lean, full;
	size_t i;

	(void)state;
	kvet_rule_set_init(&lean);
	kvet_rule_set_init(&full);
	assert_int_equal(kvet_rule_set_add_builtin(&lean, false), 0);
	assert_int_equal(kvet_rule_set_add_builtin(&full, true), 0);
	assert_int_equal(lean.n, full.n);
	assert_int_equal(kvet_rule_set_compile(&lean, NULL, 0, NULL, 0), 0);
	for (i = 0; i < lean.n; i++) {
		struct kvet_rule *r = lean.v[i];
		const struct kvet_rule *f = full.v[i];

		assert_non_null(r->pending);
		assert_null(f->pending);
		assert_null(r->condition_text);
		assert_int_equal(kvet_rule_set_compile_rule(&lean, r), 0);
		assert_null(r->pending);
		assert_string_equal(r->info.id, f->info.id);
		assert_string_equal(r->condition_text, f->condition_text);
		assert_int_equal(r->n_slots, f->n_slots);
		assert_int_equal(r->n_vars, f->n_vars);
		assert_int_equal(r->n_at, f->n_at);
		assert_int_equal(r->has_each, f->has_each);
		assert_int_equal(r->has_group, f->has_group);
		assert_int_equal(r->has_related, f->has_related);
		assert_int_equal(r->has_severity_expr, f->has_severity_expr);
		same_template(&r->message, &f->message);
		same_template(&r->headline, &f->headline);
		same_template(&r->reason, &f->reason);
		same_template(&r->help, &f->help);
		assert_true(!r->help_default == !f->help_default);
		assert_int_equal(r->n_examples, 0);
	}
	assert_int_equal(lean.diag.n, 0);
	kvet_rule_set_release(&lean);
	kvet_rule_set_release(&full);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(loads),
		cmocka_unit_test(documentation_fields),
		cmocka_unit_test(positioned_errors),
		cmocka_unit_test(variables_are_checked),
		cmocka_unit_test(related_and_example_checks),
		cmocka_unit_test(costly_rules_are_refused),
		cmocka_unit_test(words),
		cmocka_unit_test(words_on_one_line),
		cmocka_unit_test(test_fuzz_kinds_word),
		cmocka_unit_test(test_fuzz_kinds_word_at_end),
		cmocka_unit_test(kinds_split_when_loaded),
		cmocka_unit_test(builtin_trees),
		cmocka_unit_test(lean_rules_wait),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
