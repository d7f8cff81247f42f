/* SPDX-License-Identifier: Apache-2.0 */
/* Rule file validation: every problem at its file:line:column. */
#include "support.h"

#include "rules/rules.h"

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
	assert_int_equal(set.v[0]->n_message, 3);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(loads),
		cmocka_unit_test(positioned_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
