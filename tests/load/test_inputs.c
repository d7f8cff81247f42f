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

/* kvet_node_true(): the YAML 1.1 true forms of a boolean, and nothing
 * that only reads like one (a string "true" is a string). */
static void test_node_true(void **state)
{
	static const char *const yes[] = { "true", "True", "yes", "on", "Y" };
	static const char *const no[] = { "false", "No", "off", "n" };
	struct kvet_node n = { .type = KVET_NODE_BOOL };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		n.u.str = yes[i];
		n.len = (uint32_t)strlen(yes[i]);
		assert_true(kvet_node_true(&n));
	}
	for (i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		n.u.str = no[i];
		n.len = (uint32_t)strlen(no[i]);
		assert_false(kvet_node_true(&n));
	}
	n.type = KVET_NODE_STRING;
	n.u.str = "true";
	n.len = 4;
	assert_false(kvet_node_true(&n));
	assert_false(kvet_node_true(NULL));
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

static void assert_obj(const struct loaded *l, size_t i, const char *name,
		       unsigned int line, unsigned int col)
{
	assert_true(i < l->objs.n);
	assert_string_equal(l->objs.v[i]->name, name);
	assert_int_equal(l->objs.v[i]->line, line);
	assert_int_equal(l->objs.v[i]->col, col);
}

#define CM(n) "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\"," \
	      "\"metadata\":{\"name\":\"" n "\"}}"

/* Tekton's layout: "]" at the indentation of its key. */
static void test_flow_sequence_end_at_key_indent(void **state)
{
	struct loaded *l = load_str("apiVersion: v1\nkind: Pod\n"
				    "metadata: {name: p}\n"
				    "spec:\n"
				    "  containers:\n"
				    "  - name: c\n"
				    "    args: [\n"
				    "      # a comment\n"
				    "      \"-a\", \"b\",\n"
				    "    ]\n"
				    "    image: x\n");
	const struct kvet_node *c;

	(void)state;
	dump_errors(l);
	assert_int_equal(l->diag.n, 0);
	assert_int_equal(l->objs.n, 1);
	c = &kvet_node_path(l->objs.v[0]->root, "spec", "containers",
			    NULL)->u.items[0];
	assert_int_equal(kvet_node_get(c, "args")->len, 2);
	assert_int_equal(kvet_node_get(c, "image")->line, 11);
	loaded_free(l);
}

/* JSON values one after another, and NDJSON with a broken line. */
static void test_json_streams(void **state)
{
	struct loaded *l = load_str(CM("a") CM("b") "\n"
				    "  " CM("c") "\n"
				    "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
				    "\"metadata\":{\"name\":\"bad\"},\"data\":[}\n"
				    CM("d") "\n"
				    "[" CM("e") "," CM("f") "]" CM("g") "\n");

	(void)state;
	dump_errors(l);
	assert_int_equal(l->diag.n, 1);
	assert_true(has_error(l, 3, 73, "mismatched flow mapping end: document 4 not loaded"));
	assert_int_equal(l->objs.n, 7);
	/* an object is at its opening brace */
	assert_obj(l, 0, "a", 1, 1);
	assert_obj(l, 1, "b", 1, 63);
	assert_obj(l, 2, "c", 2, 3);
	assert_obj(l, 3, "d", 4, 1);
	assert_obj(l, 4, "e", 5, 2);
	assert_obj(l, 5, "f", 5, 65);
	assert_obj(l, 6, "g", 5, 128);
	loaded_free(l);
}

/* A top-level YAML or JSON array of objects is read as a List. */
static void test_top_level_arrays(void **state)
{
	struct loaded *l = load_str("- apiVersion: v1\n  kind: Pod\n"
				    "  metadata: {name: y1}\n"
				    "- apiVersion: v1\n  kind: Pod\n"
				    "  metadata: {name: y2}\n"
				    "---\n"
				    "[\n  " CM("j1") ",\n  " CM("j2") "\n]\n");

	(void)state;
	dump_errors(l);
	assert_int_equal(l->diag.n, 0);
	assert_int_equal(l->objs.n, 4);
	assert_obj(l, 0, "y1", 1, 3);
	assert_obj(l, 1, "y2", 4, 3);
	assert_obj(l, 2, "j1", 9, 3);
	assert_obj(l, 3, "j2", 10, 3);
	assert_int_equal(l->objs.v[3]->doc, 1);
	loaded_free(l);
}

/* A byte order mark before each document, CRLF line ends. */
static void test_bom_in_every_document(void **state)
{
	static const char text[] =
		"\xef\xbb\xbf" "apiVersion: v1\r\nkind: Pod\r\n"
		"metadata:\r\n  name: one\r\n"
		"---\r\n"
		"\xef\xbb\xbf" "apiVersion: v1\r\nkind: Pod\r\n"
		"metadata:\r\n  name: two\r\n"
		"---\r\n"
		"\xef\xbb\xbf" "replicas: 1\r\n"
		"---\n"
		"\xef\xbb\xbf" "# Source: chart/templates/c.yaml\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: three}\n"
		"\xef\xbb\xbf" "---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: four}\n"
		"\xef\xbb\xbf" "---\n"
		"kind: [\n"
		"\xef\xbb\xbf" "---\n"
		"apiVersion: v1\nkind: Pod\nmetadata:  {name: five}\n";
	struct loaded *l = load_bytes(text, sizeof(text) - 1);

	(void)state;
	dump_errors(l);
	assert_int_equal(l->diag.n, 1);
	assert_true(has_error(l, 23, 1, "document 6 not loaded"));
	assert_int_equal(l->objs.n, 5);
	assert_obj(l, 1, "two", 6, 1);
	assert_true(kvet_node_eq(kvet_node_path(l->objs.v[1]->root,
						"metadata", "name", NULL),
				 "two"));
	assert_int_equal(l->objs.skipped, 1);
	/* a BOM before a comment, and before "---" */
	assert_obj(l, 2, "three", 14, 1);
	assert_string_equal(l->objs.v[2]->source, "chart/templates/c.yaml");
	assert_obj(l, 3, "four", 18, 1);
	/* after a syntax error, the next joined file starts at its BOM */
	assert_obj(l, 4, "five", 24, 1);
	assert_int_equal(kvet_node_path(l->objs.v[4]->root, "metadata", "name",
					NULL)->col, 19);
	loaded_free(l);
}

/* The error says which document it cost, by kind and name if read. */
static void test_lost_document_is_named(void **state)
{
	struct loaded *l = load_str(
		"apiVersion: apps/v1\nkind: Deployment\n"
		"metadata: {name: web}\nspec:\n  x: [1,\n  y: 2\n"
		"---\n"
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n"
		"  name: dup\n  name: again\n"
		"---\n"
		"apiVersion: v1\nkind: Secret\nmetadata:\n"
		"  labels: {a: *nope}\n  name: late\n"
		"---\n"
		"metadata: {name: anon}\nkind: Service\nspec: {a: 1, a: 2}\n");

	(void)state;
	dump_errors(l);
	assert_int_equal(l->diag.n, 4);
	assert_true(has_error(l, 7, 1, ": document 1 (Deployment \"web\") not loaded"));
	assert_true(has_error(l, 12, 3, "duplicate key \"name\": document 2 (ConfigMap \"dup\") not loaded"));
	assert_true(has_error(l, 17, 15, "refers to no anchor: document 3 (Secret) not loaded"));
	assert_true(has_error(l, 22, 14, "duplicate key \"a\": document 4 (Service \"anon\") not loaded"));
	loaded_free(l);
}

/* An invalid byte costs its document, and says which. */
static void test_invalid_byte_names_document(void **state)
{
	static const char text[] =
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ok1}\n"
		"# a comment with a bad byte \xff\n"
		"---\n"
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bad}\n"
		"data: {a: \"\xff\"}\n"
		"---\n"
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ok2}\n";
	struct loaded *l = load_bytes(text, sizeof(text) - 1);

	(void)state;
	dump_errors(l);
	assert_int_equal(l->diag.n, 2);
	/* in a comment after the first document: that document is lost
	 * too, as before, and the message says so */
	assert_true(has_error(l, 4, 29, "invalid UTF-8 byte sequence: document 1 (ConfigMap \"ok1\") not loaded"));
	assert_true(has_error(l, 9, 12, "invalid UTF-8 byte sequence: document 2 (ConfigMap \"bad\") not loaded"));
	assert_int_equal(l->objs.n, 1);
	assert_string_equal(l->objs.v[0]->name, "ok2");
	loaded_free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_int_needs_digits),
		cmocka_unit_test(test_node_true),
		cmocka_unit_test(test_tag_must_fit_text),
		cmocka_unit_test(test_not_kubernetes_is_skipped),
		cmocka_unit_test(test_half_objects_are_errors),
		cmocka_unit_test(test_skipped_notices_are_bounded),
		cmocka_unit_test(test_flow_sequence_end_at_key_indent),
		cmocka_unit_test(test_json_streams),
		cmocka_unit_test(test_top_level_arrays),
		cmocka_unit_test(test_bom_in_every_document),
		cmocka_unit_test(test_lost_document_is_named),
		cmocka_unit_test(test_invalid_byte_names_document),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
