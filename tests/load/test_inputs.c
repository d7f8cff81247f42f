/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the loader accepts and refuses at the edges: tagged scalars and
 * numbers (issue 11 item 12), documents that are not Kubernetes objects
 * (issue 10 item 2) and the layouts kubectl reads (issue 10 item 3).
 */
#include "support.h"

#include <stdio.h>

#include "load/node.h"

static bool has_error(const struct loaded *l, unsigned int line,
		      unsigned int col, const char *part)
{
	size_t i;

	for (i = 0; i < l->diag.n; i++)
		if (l->diag.errors[i].pos.line == line &&
		    (!col || l->diag.errors[i].pos.column == col) &&
		    strstr(l->diag.errors[i].message, part))
			return true;
	return false;
}

static void dump_errors(const struct loaded *l)
{
	size_t i;

	for (i = 0; i < l->diag.n; i++)
		print_message("%u:%u: %s\n", l->diag.errors[i].pos.line,
			      l->diag.errors[i].pos.column,
			      l->diag.errors[i].message);
}

static struct kvet_node int_node(const char *s)
{
	struct kvet_node n = { .type = KVET_NODE_INT };

	n.u.str = s;
	n.len = (uint32_t)strlen(s);
	return n;
}

/* "!!int ''" read as 0: an integer needs digits. */
static void test_int_needs_digits(void **state)
{
	static const char *const bad[] = { "", "-", "+", "0x", "0o", "_" };
	struct kvet_node n;
	long long v;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		n = int_node(bad[i]);
		assert_false(kvet_node_int(&n, &v));
	}
	n = int_node("0x1F");
	assert_true(kvet_node_int(&n, &v));
	assert_int_equal(v, 31);
	n = int_node("-0o17");
	assert_true(kvet_node_int(&n, &v));
	assert_int_equal(v, -15);
	n = int_node("2147483647");
	assert_true(kvet_node_int32(&n, &v));
	n = int_node("2147483648");
	assert_false(kvet_node_int32(&n, &v));
	n = int_node("-2147483649");
	assert_false(kvet_node_int32(&n, &v));
	n = int_node("9223372036854775807");
	assert_true(kvet_node_int(&n, &v));
	assert_false(kvet_node_int32(&n, &v));
}

/* A core tag says how to read the text; it must fit (go-yaml agrees). */
static void test_tag_must_fit_text(void **state)
{
	struct loaded *l = load_str("apiVersion: v1\nkind: ConfigMap\n"
				    "metadata: {name: ok}\n"
				    "data:\n"
				    "  a: !!int \"7\"\n"
				    "  b: !!float 1\n"
				    "  c: !!str 5\n"
				    "  d: !!null ~\n"
				    "  e: !!bool yes\n"
				    "  f: !!int 0x1F\n"
				    "---\n"
				    "apiVersion: v1\nkind: ConfigMap\n"
				    "metadata: {name: empty-int}\n"
				    "data: {a: !!int \"\"}\n"
				    "---\n"
				    "apiVersion: v1\nkind: ConfigMap\n"
				    "metadata: {name: bad-bool}\n"
				    "data: {a: !!bool maybe}\n"
				    "---\n"
				    "apiVersion: v1\nkind: ConfigMap\n"
				    "metadata: {name: float-int}\n"
				    "data: {a: !!int 1.5}\n");
	const struct kvet_node *data;

	(void)state;
	dump_errors(l);
	assert_int_equal(l->diag.n, 3);
	assert_true(has_error(l, 15, 17, "invalid value \"\" for tag !!int"));
	assert_true(has_error(l, 20, 18,
			      "invalid value \"maybe\" for tag !!bool"));
	assert_true(has_error(l, 25, 17, "invalid value \"1.5\" for tag !!int"));
	assert_int_equal(l->objs.n, 1);
	data = kvet_node_get(l->objs.v[0]->root, "data");
	assert_int_equal(kvet_node_get(data, "a")->type, KVET_NODE_INT);
	assert_int_equal(kvet_node_get(data, "b")->type, KVET_NODE_FLOAT);
	assert_int_equal(kvet_node_get(data, "c")->type, KVET_NODE_STRING);
	assert_int_equal(kvet_node_get(data, "d")->type, KVET_NODE_NULL);
	assert_int_equal(kvet_node_get(data, "e")->type, KVET_NODE_BOOL);
	assert_int_equal(kvet_node_get(data, "f")->type, KVET_NODE_INT);
	loaded_free(l);
}

static bool has_notice(const struct loaded *l, unsigned int line,
		       const char *part)
{
	size_t i;

	for (i = 0; i < l->diag.n_notices; i++)
		if (l->diag.notices[i].pos.line == line &&
		    l->diag.notices[i].level == KVET_NOTICE_DETAIL &&
		    strstr(l->diag.notices[i].message, part))
			return true;
	return false;
}

/* Issue 10 item 2: YAML that is plainly not Kubernetes is skipped. */
static void test_not_kubernetes_is_skipped(void **state)
{
	struct loaded *l = load_str(
		"# values.yaml\nreplicaCount: 1\nimage: {repository: nginx}\n"
		"---\n"
		"name: ci\non: [push]\njobs: {build: {runs-on: ubuntu}}\n"
		"---\n"
		"apiVersion: v2\nname: mychart\nversion: 0.1.0\n"
		"---\n"
		"- hosts: all\n  tasks: []\n- hosts: db\n"
		"---\n"
		"just a string\n"
		"---\n"
		"[]\n"
		"---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: real}\n");

	(void)state;
	dump_errors(l);
	assert_int_equal(l->diag.n, 0);
	assert_int_equal(l->objs.n, 1);
	assert_string_equal(l->objs.v[0]->name, "real");
	assert_int_equal(l->objs.skipped, 5);
	assert_int_equal(l->diag.n_notices, 5);
	assert_true(has_notice(l, 2, "document 1 skipped: a mapping with neither apiVersion nor kind is not a Kubernetes object"));
	assert_true(has_notice(l, 5, "document 2 skipped"));
	assert_true(has_notice(l, 9, "document 3 skipped: a Helm Chart.yaml"));
	assert_true(has_notice(l, 13, "document 4 skipped: a sequence"));
	assert_true(has_notice(l, 17, "document 5 skipped: a string"));
	loaded_free(l);
}

/* What looks like Kubernetes but is broken is still an error. */
static void test_half_objects_are_errors(void **state)
{
	struct loaded *l = load_str(
		"kind: Deployment\nmetadata: {name: a}\n"
		"---\n"
		"apiVersion: apps/v1\nmetadata: {name: b}\n"
		"---\n"
		"apiVersion: v2\nname: not-a-chart\nversion: 1\nmetadata: {}\n"
		"---\n"
		"- {apiVersion: v1, kind: Pod, metadata: {name: c}}\n"
		"- {apiVersion: v1, metadata: {name: d}}\n"
		"- {name: e}\n"
		"- plain\n");

	(void)state;
	dump_errors(l);
	assert_true(has_error(l, 1, 1, "object has no \"apiVersion\""));
	assert_true(has_error(l, 4, 1, "object has no \"kind\""));
	assert_true(has_error(l, 7, 1, "object has no \"kind\""));
	assert_true(has_error(l, 13, 3, "object has no \"kind\""));
	assert_true(has_error(l, 14, 3, "object has no \"kind\""));
	assert_true(has_error(l, 15, 3, "list item is a string"));
	assert_int_equal(l->diag.n, 6);
	assert_int_equal(l->objs.n, 1);
	assert_string_equal(l->objs.v[0]->name, "c");
	assert_int_equal(l->objs.skipped, 0);
	loaded_free(l);
}

/* Skipped documents are listed up to the per-file limit, then counted. */
static void test_skipped_notices_are_bounded(void **state)
{
	size_t n = 250, i, len = 0, cap = n * 16;
	char *text = malloc(cap);
	struct loaded *l;

	(void)state;
	assert_non_null(text);
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(text + len, cap - len, "---\na: %zu\n",
					i);
	l = load_bytes(text, len);
	assert_int_equal(l->diag.n, 0);
	assert_int_equal(l->objs.skipped, n);
	assert_int_equal(l->diag.n_notices, KVET_LOAD_MAX_ERRORS + 1);
	assert_string_equal(l->diag.notices[KVET_LOAD_MAX_ERRORS].message,
			    "150 more documents skipped, not listed");
	loaded_free(l);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_int_needs_digits),
		cmocka_unit_test(test_tag_must_fit_text),
		cmocka_unit_test(test_not_kubernetes_is_skipped),
		cmocka_unit_test(test_half_objects_are_errors),
		cmocka_unit_test(test_skipped_notices_are_bounded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
