/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of the loader: YAML/JSON text to kvet trees and objects. */
#include "support.h"


#include "base/text.h"
#include "load/node.h"
#include "load/split.h"

static const char pod_a[] = "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n";

static void test_positions(void **state)
{
	struct loaded *l = load_str("# leading comment\n"
				    "apiVersion: apps/v1\n"
				    "kind: Deployment\n"
				    "metadata:\n"
				    "  name: web\n"
				    "spec:\n"
				    "  replicas: 3\n"
				    "  template:\n"
				    "    spec:\n"
				    "      containers:\n"
				    "      - name: app\n"
				    "        image: nginx\n");
	const struct kvet_node *root, *n;

	(void)state;
	assert_int_equal(l->diag.n, 0);
	assert_int_equal(l->docs.n, 1);
	root = l->docs.v[0].root;
	assert_int_equal(root->line, 2);
	assert_int_equal(root->col, 1);
	n = kvet_node_path(root, "spec", "replicas", NULL);
	assert_non_null(n);
	assert_int_equal(n->type, KVET_NODE_INT);
	assert_int_equal(n->line, 7);
	assert_int_equal(n->col, 13);
	n = kvet_node_path(root, "spec", "template", "spec", "containers",
			   NULL);
	assert_true(kvet_node_is_seq(n));
	assert_int_equal(n->line, 11);
	assert_int_equal(n->col, 7);
	n = kvet_node_get(&n->u.items[0], "image");
	assert_true(kvet_node_eq(n, "nginx"));
	assert_int_equal(n->line, 12);
	assert_int_equal(n->col, 16);
	assert_int_equal(kvet_node_get_pair(root, "spec")->key.line, 6);
	loaded_free(l);
}

/*
 * Empty lines where a parser starts are stepped over, not given to
 * libfyaml (issue 22 item 6: 1 GiB of them took 34 s): positions are as
 * they were, for nodes, errors, CRLF and a JSON stream alike, and an
 * empty value (which has no mark) stays where the whole parse puts it.
 */
static void test_leading_empty_lines(void **state)
{
	struct loaded *l = load_str("\n\n\n\napiVersion: v1\nkind: ConfigMap\n"
				    "metadata:\n  name: a\ndata:\n  k:\n");
	const struct kvet_node *n;

	(void)state;
	assert_int_equal(l->diag.n, 0);
	assert_int_equal(l->docs.n, 1);
	assert_int_equal(l->docs.v[0].root->line, 5);
	n = kvet_node_path(l->docs.v[0].root, "metadata", "name", NULL);
	assert_int_equal(n->line, 8);
	assert_int_equal(n->col, 9);
	n = kvet_node_path(l->docs.v[0].root, "data", "k", NULL);
	assert_non_null(n);
	assert_int_equal(n->type, KVET_NODE_NULL);
	assert_int_equal(n->line, 1);
	loaded_free(l);

	l = load_str("\n\n\n\na: [b\n");
	assert_int_equal(l->diag.n, 1);
	assert_int_equal(l->diag.errors[0].pos.line, 6);
	assert_int_equal(l->diag.errors[0].pos.column, 1);
	loaded_free(l);

	l = load_str("\r\n\r\n\r\nkind: ConfigMap\napiVersion: v1\n"
		     "metadata: {name: \"x\"\n");
	assert_int_equal(l->diag.n, 1);
	assert_int_equal(l->diag.errors[0].pos.line, 7);
	loaded_free(l);

	/* after a JSON value, on the line it ends */
	l = load_str("{\"kind\": \"ConfigMap\", \"apiVersion\": \"v1\", "
		     "\"metadata\": {\"name\": \"a\"}}\n\n\n\n{\"kind\": [}\n");
	assert_int_equal(l->diag.n, 1);
	assert_int_equal(l->diag.errors[0].pos.line, 5);
	assert_int_equal(l->diag.errors[0].pos.column, 11);
	loaded_free(l);

	/* nothing but line breaks: no document, no error */
	l = load_str("\n\n\n\n");
	assert_int_equal(l->diag.n, 0);
	assert_int_equal(l->docs.n, 0);
	loaded_free(l);
}

static void test_multi_document_and_empty(void **state)
{
	struct loaded *l = load_str("---\n"
				    "# only a comment\n"
				    "---\n"
				    "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n"
				    "---\n"
				    "---\n"
				    "apiVersion: v1\nkind: Pod\nmetadata: {name: b}\n"
				    "...\n");

	(void)state;
	assert_int_equal(l->diag.n, 0);
	assert_int_equal(l->docs.n, 2);
	assert_int_equal(l->objs.n, 2);
	assert_string_equal(l->objs.v[0]->name, "a");
	assert_string_equal(l->objs.v[1]->name, "b");
	assert_int_equal(l->objs.v[1]->line, 9);
	loaded_free(l);
}

static void test_scalar_types(void **state)
{
	struct loaded *l = load_str("a: 1\nb: \"1\"\nc: yes\nd: 'no'\ne: ~\n"
				    "f:\ng: 1.5\nh: 0x1F\ni: !!str 5\n"
				    "j: !!int \"7\"\nk: 1e3\nl: v1.2\nm: -3\n"
				    "n: |\n  text\n");
	const struct kvet_node *r;
	long long v;

	(void)state;
	r = l->docs.v[0].root;
	assert_int_equal(kvet_node_get(r, "a")->type, KVET_NODE_INT);
	assert_int_equal(kvet_node_get(r, "b")->type, KVET_NODE_STRING);
	/* a quoted value is at its opening quote */
	assert_int_equal(kvet_node_get(r, "b")->col, 4);
	assert_int_equal(kvet_node_get(r, "d")->col, 4);
	assert_int_equal(kvet_node_get(r, "c")->type, KVET_NODE_BOOL);
	assert_int_equal(kvet_node_get(r, "d")->type, KVET_NODE_STRING);
	assert_int_equal(kvet_node_get(r, "e")->type, KVET_NODE_NULL);
	assert_int_equal(kvet_node_get(r, "f")->type, KVET_NODE_NULL);
	assert_int_equal(kvet_node_get(r, "g")->type, KVET_NODE_FLOAT);
	assert_int_equal(kvet_node_get(r, "h")->type, KVET_NODE_INT);
	assert_true(kvet_node_int(kvet_node_get(r, "h"), &v));
	assert_int_equal(v, 31);
	assert_int_equal(kvet_node_get(r, "i")->type, KVET_NODE_STRING);
	assert_int_equal(kvet_node_get(r, "j")->type, KVET_NODE_INT);
	assert_int_equal(kvet_node_get(r, "k")->type, KVET_NODE_FLOAT);
	assert_int_equal(kvet_node_get(r, "l")->type, KVET_NODE_STRING);
	assert_true(kvet_node_int(kvet_node_get(r, "m"), &v));
	assert_int_equal(v, -3);
	assert_true(kvet_node_text_eq(kvet_node_get(r, "n"), "text\n"));
	assert_true(kvet_node_get(r, "n")->flags & KVET_NODE_QUOTED);
	loaded_free(l);
}

static void test_json(void **state)
{
	struct loaded *l = load_str("{\"apiVersion\": \"v1\", \"kind\": \"Pod\",\n"
				    " \"metadata\": {\"name\": \"j\"},\n"
				    " \"spec\": {\"priority\": 5, \"x\": \"5\"}}\n");
	const struct kvet_node *spec;

	(void)state;
	assert_int_equal(l->diag.n, 0);
	assert_int_equal(l->objs.n, 1);
	spec = kvet_node_get(l->docs.v[0].root, "spec");
	assert_int_equal(kvet_node_get(spec, "priority")->type, KVET_NODE_INT);
	assert_int_equal(kvet_node_get(spec, "x")->type, KVET_NODE_STRING);
	assert_int_equal(kvet_node_get(spec, "x")->line, 3);
	loaded_free(l);
}

static void test_list_expansion(void **state)
{
	struct loaded *l = load_str(
		"apiVersion: v1\nkind: List\nitems:\n"
		"- apiVersion: v1\n  kind: Service\n  metadata: {name: s, namespace: n1}\n"
		"- apiVersion: v1\n  kind: Namespace\n  metadata: {name: n1}\n"
		"---\n"
		"apiVersion: apps/v1\nkind: DeploymentList\nitems:\n"
		"- metadata: {name: d}\n  status: {replicas: 1}\n");

	(void)state;
	assert_int_equal(l->diag.n, 0);
	assert_int_equal(l->objs.n, 3);
	assert_string_equal(l->objs.v[0]->kind, "Service");
	assert_string_equal(l->objs.v[0]->namespace, "n1");
	assert_string_equal(l->objs.v[1]->namespace, "");
	assert_true(l->objs.v[1]->flags & KVET_OBJ_CLUSTER_SCOPED);
	/* a typed list lends its items kind and apiVersion */
	assert_string_equal(l->objs.v[2]->kind, "Deployment");
	assert_string_equal(l->objs.v[2]->api_version, "apps/v1");
	assert_string_equal(l->objs.v[2]->group, "apps");
	assert_string_equal(l->objs.v[2]->namespace, "default");
	assert_true(l->objs.v[2]->flags & KVET_OBJ_HAS_STATUS);
	assert_true(l->objs.v[2]->flags & KVET_OBJ_LIST_ITEM);
	assert_int_equal(l->objs.v[2]->line, 14);
	loaded_free(l);
}

static void test_untyped_list_item_needs_kind(void **state)
{
	struct loaded *l = load_str("apiVersion: v1\nkind: List\nitems:\n"
				    "- metadata: {name: x}\n");

	(void)state;
	assert_int_equal(l->objs.n, 0);
	assert_int_equal(l->diag.n, 1);
	assert_error(l, 0, 4, 3, "object has no \"kind\"");
	loaded_free(l);
}

static void test_helm_source(void **state)
{
	struct loaded *l = load_str(
		"---\n# Source: chart/templates/a.yaml\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n"
		"---\n# Source: chart/templates/b.yaml\r\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: b}\n"
		"---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: c}\n");

	(void)state;
	assert_int_equal(l->objs.n, 3);
	assert_string_equal(l->objs.v[0]->source, "chart/templates/a.yaml");
	assert_string_equal(l->objs.v[1]->source, "chart/templates/b.yaml");
	assert_null(l->objs.v[2]->source);
	loaded_free(l);
}

static void test_aliases_and_merge(void **state)
{
	struct loaded *l = load_str(
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: m}\n"
		"base: &b {x: 1, y: 2}\n"
		"other: &o {z: 3}\n"
		"use: *b\n"
		"merged:\n  <<: [*b, *o]\n  y: 20\n");
	const struct kvet_node *r, *m;

	(void)state;
	assert_int_equal(l->diag.n, 0);
	r = l->docs.v[0].root;
	assert_true(kvet_node_is_map(kvet_node_get(r, "use")));
	assert_int_equal(kvet_node_get(r, "use")->line, 6);
	assert_true(kvet_node_text_eq(kvet_node_path(r, "use", "y", NULL), "2"));
	m = kvet_node_get(r, "merged");
	assert_int_equal(m->len, 3);
	/* the mapping's own key wins over the merged one */
	assert_true(kvet_node_text_eq(kvet_node_get(m, "y"), "20"));
	assert_true(kvet_node_text_eq(kvet_node_get(m, "x"), "1"));
	assert_true(kvet_node_text_eq(kvet_node_get(m, "z"), "3"));
	assert_null(kvet_node_get(m, "<<"));
	loaded_free(l);
}

static void test_duplicate_key(void **state)
{
	struct loaded *l = load_str("apiVersion: v1\nkind: Pod\n"
				    "metadata:\n  name: a\n  name: b\n"
				    "---\n"
				    "apiVersion: v1\nkind: Pod\nmetadata: {name: ok}\n");

	(void)state;
	assert_int_equal(l->diag.n, 1);
	assert_error(l, 0, 5, 3, "duplicate key \"name\"");
	assert_int_equal(l->objs.n, 1);
	assert_string_equal(l->objs.v[0]->name, "ok");
	assert_int_equal(l->docs.skipped, 1);
	loaded_free(l);
}

static void test_syntax_error_keeps_other_documents(void **state)
{
	struct loaded *l = load_str("apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n"
				    "---\n"
				    "kind: [\n"
				    "---\n"
				    "apiVersion: v1\nkind: Pod\nmetadata: {name: b}\n"
				    "---\n"
				    "a: b: c\n"
				    "---\n"
				    "apiVersion: v1\nkind: Pod\nmetadata: {name: c}\n");

	(void)state;
	assert_int_equal(l->diag.n, 2);
	assert_int_equal(l->diag.errors[0].pos.line, 6);
	assert_int_equal(l->diag.errors[1].pos.line, 11);
	assert_int_equal(l->objs.n, 3);
	assert_string_equal(l->objs.v[1]->name, "b");
	assert_int_equal(l->objs.v[1]->line, 7);
	assert_string_equal(l->objs.v[2]->name, "c");
	assert_int_equal(l->objs.v[2]->line, 13);
	loaded_free(l);
}

static void test_not_a_mapping(void **state)
{
	struct loaded *l = load_str("just text\n---\n- a\n- b\n---\n"
				    "kind: Pod\nmetadata: {name: x}\n---\n"
				    "apiVersion: v1\nkind: Pod\n---\n"
				    "apiVersion: v1\nkind: 5\nmetadata: {name: x}\n");

	(void)state;
	assert_int_equal(l->objs.n, 0);
	/* a string and a sequence of strings are plainly not Kubernetes:
	 * skipped, not errors (tests/load/test_inputs.c has more) */
	assert_int_equal(l->objs.skipped, 2);
	assert_int_equal(l->diag.n, 3);
	assert_error(l, 0, 6, 1, "object has no \"apiVersion\"");
	assert_error(l, 1, 9, 1, "object has no \"metadata.name\"");
	assert_error(l, 2, 13, 7, "\"kind\" must be a non-empty string");
	loaded_free(l);
}

static void test_alias_bomb(void **state)
{
	char text[2048];
	size_t used;
	struct loaded *l;
	int i;

	(void)state;
	used = (size_t)snprintf(text, sizeof(text),
				"apiVersion: v1\nkind: ConfigMap\n"
				"metadata: {name: lol}\n"
				"a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
	for (i = 1; i < 10; i++)
		used += (size_t)snprintf(text + used, sizeof(text) - used,
					 "a%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d]\n",
					 i, i, i - 1, i - 1, i - 1, i - 1, i - 1,
					 i - 1, i - 1, i - 1, i - 1);
	snprintf(text + used, sizeof(text) - used, "---\n%s", pod_a);
	l = load_str(text);
	assert_int_equal(l->diag.n, 1);
	/* line 10 is a6; its first *a5 passes the budget */
	assert_error(l, 0, 10, 10, "aliases expand this document");
	/* the budget counts expanded nodes, so the error above is the bound;
	 * tests/pathological has the time and memory limits */
	assert_int_equal(l->objs.n, 1);
	loaded_free(l);
}

static void test_recursive_and_unknown_alias(void **state)
{
	struct loaded *l = load_str("apiVersion: v1\nkind: ConfigMap\n"
				    "metadata: {name: r}\n"
				    "data: &x\n  self: *x\n"
				    "---\n"
				    "apiVersion: v1\nkind: ConfigMap\n"
				    "metadata: {name: u}\ndata: *nope\n"
				    "---\n"
				    "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n");

	(void)state;
	assert_int_equal(l->diag.n, 2);
	assert_error(l, 0, 5, 9, "recursive alias");
	assert_error(l, 1, 10, 7, "refers to no anchor");
	assert_int_equal(l->objs.n, 1);
	loaded_free(l);
}

static void test_depth_limit(void **state)
{
	size_t depth = 10000, i, len = 0;
	char *text = malloc(2 * depth + 256);
	struct loaded *l;

	(void)state;
	assert_non_null(text);
	len += (size_t)snprintf(text, 64, "a: ");
	for (i = 0; i < depth; i++)
		text[len++] = '[';
	for (i = 0; i < depth; i++)
		text[len++] = ']';
	len += (size_t)snprintf(text + len, 128, "\n---\n%s", pod_a);
	l = load_bytes(text, len);
	assert_int_equal(l->diag.n, 1);
	/* the root mapping is the first level */
	assert_error(l, 0, 1, 3 + KVET_LOAD_MAX_DEPTH, "nesting deeper than");
	assert_int_equal(l->objs.n, 1);
	loaded_free(l);
	free(text);
}

static void test_invalid_utf8_and_nul(void **state)
{
	static const char text[] = "apiVersion: v1\nkind: Pod\n"
				   "metadata: {name: \"\xc3\xa9\xff\"}\n"
				   "---\n"
				   "apiVersion: v1\nkind: Pod\nmetadata: {name: b}\n"
				   "---\n"
				   "apiVersion: v1\nkind: Pod\nmetadata: {name: c\0d}\n"
				   "---\n"
				   "apiVersion: v1\nkind: Pod\nmetadata: {name: \xed\xa0\x80}\n";
	struct loaded *l;

	(void)state;
	l = load_bytes(text, sizeof(text) - 1);
	assert_int_equal(l->diag.n, 3);
	/* columns count characters: the é is one */
	assert_error(l, 0, 3, 20, "invalid UTF-8");
	assert_error(l, 1, 11, 19, "NUL byte");
	assert_error(l, 2, 15, 18, "invalid UTF-8"); /* a surrogate */
	assert_int_equal(l->objs.n, 1);
	assert_string_equal(l->objs.v[0]->name, "b");
	loaded_free(l);
}

static void test_bom_and_crlf(void **state)
{
	struct loaded *l = load_str("\xef\xbb\xbf"
				    "apiVersion: v1\r\nkind: Pod\r\n"
				    "metadata:\r\n  name: crlf\r\n");

	(void)state;
	assert_int_equal(l->diag.n, 0);
	assert_int_equal(l->objs.n, 1);
	assert_string_equal(l->objs.v[0]->name, "crlf");
	assert_int_equal(kvet_node_path(l->docs.v[0].root, "metadata", "name",
					NULL)->line,
			 4);
	loaded_free(l);
}

static void test_empty_input(void **state)
{
	struct loaded *l = load_str("");
	struct loaded *c = load_str("# nothing but a comment\n\n");

	(void)state;
	assert_int_equal(l->diag.n, 1);
	assert_error(l, 0, 0, 0, "empty input");
	assert_int_equal(c->diag.n, 0);
	assert_int_equal(c->docs.n, 0);
	loaded_free(l);
	loaded_free(c);
}

static void test_complex_key(void **state)
{
	struct loaded *l = load_str("? [a, b]\n: c\n---\n" "apiVersion: v1\n"
				    "kind: Pod\nmetadata: {name: a}\n");

	(void)state;
	assert_int_equal(l->diag.n, 1);
	assert_error(l, 0, 1, 3, "mapping key is a collection");
	assert_int_equal(l->objs.n, 1);
	loaded_free(l);
}

static void test_managed_fields_dropped(void **state)
{
	struct loaded *l = load_str("apiVersion: v1\nkind: Pod\n"
				    "metadata:\n  name: a\n"
				    "  managedFields:\n  - manager: kubectl\n"
				    "    fieldsV1: {f:metadata: {}}\n"
				    "  uid: u1\n");
	const struct kvet_node *meta;

	(void)state;
	assert_int_equal(l->diag.n, 0);
	meta = kvet_node_get(l->docs.v[0].root, "metadata");
	assert_null(kvet_node_get(meta, "managedFields"));
	assert_true(kvet_node_eq(kvet_node_get(meta, "uid"), "u1"));
	assert_int_equal(meta->len, 2);
	loaded_free(l);
}

/* kubectl get -o yaml wraps objects in a List: theirs go too */
static void test_managed_fields_dropped_in_list(void **state)
{
	struct loaded *l = load_str("apiVersion: v1\nitems:\n"
				    "- apiVersion: v1\n  kind: Pod\n"
				    "  metadata:\n    name: a\n"
				    "    managedFields:\n    - manager: kubectl\n"
				    "    uid: u1\n  spec:\n"
				    "    managedFields: kept\n"
				    "kind: List\nmetadata: {}\n");
	const struct kvet_node *item;

	(void)state;
	assert_int_equal(l->diag.n, 0);
	item = &kvet_node_get(l->docs.v[0].root, "items")->u.items[0];
	assert_null(kvet_node_path(item, "metadata", "managedFields", NULL));
	assert_true(kvet_node_eq(kvet_node_path(item, "metadata", "uid",
						NULL), "u1"));
	assert_true(kvet_node_eq(kvet_node_path(item, "spec", "managedFields",
						NULL), "kept"));
	loaded_free(l);
}

static void test_many_documents(void **state)
{
	size_t n = 10000, i, len = 0, cap = n * 64;
	char *text = malloc(cap);
	struct loaded *l;

	(void)state;
	assert_non_null(text);
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(text + len, cap - len,
					"---\napiVersion: v1\nkind: Pod\n"
					"metadata: {name: p%zu}\n",
					i);
	l = load_bytes(text, len);
	assert_int_equal(l->diag.n, 0);
	assert_int_equal(l->objs.n, n);
	assert_string_equal(l->objs.v[n - 1]->name, "p9999");
	assert_int_equal(l->objs.v[n - 1]->line, 4 * (n - 1) + 2);
	loaded_free(l);
	free(text);
}

static void test_default_namespace_and_helm_test(void **state)
{
	struct loaded *l = load_str(
		"apiVersion: v1\nkind: Pod\nmetadata:\n  name: t\n"
		"  annotations: {helm.sh/hook: test-success}\n"
		"---\n"
		"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
		"metadata: {name: high}\n");

	(void)state;
	assert_int_equal(l->objs.n, 2);
	assert_string_equal(l->objs.v[0]->namespace, "default");
	assert_true(l->objs.v[0]->flags & KVET_OBJ_HELM_TEST);
	assert_string_equal(l->objs.v[1]->namespace, "");
	loaded_free(l);
}

/* fuzz regression: an empty mapping before any other node was built */
static void test_fuzz_empty_mapping_first(void **state)
{
	struct loaded *l = load_str("{}");

	(void)state;
	assert_int_equal(l->docs.n, 1);
	assert_int_equal(l->docs.v[0].root->len, 0);
	/* no apiVersion, no kind: not a Kubernetes object */
	assert_int_equal(l->diag.n, 0);
	assert_int_equal(l->objs.skipped, 1);
	loaded_free(l);
}

/* A document and the text of its scalar: the root's, or key k's. */
struct text_case {
	const char *yaml, *text;
};

static void check_texts(const struct text_case *cases, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct loaded *l = load_str(cases[i].yaml);
		const struct kvet_node *k;

		assert_int_equal(l->diag.n, 0);
		assert_int_equal(l->docs.n, 1);
		k = l->docs.v[0].root;
		if (k->type == KVET_NODE_MAP)
			k = kvet_node_get(k, "k");
		assert_non_null(k);
		if (!kvet_node_text_eq(k, cases[i].text))
			fail_msg("%s: \"%.*s\", want \"%s\"", cases[i].yaml,
				 (int)k->len, k->u.str, cases[i].text);
		loaded_free(l);
	}
}

/*
 * fuzz regression (fuzz_pipeline, a leak): libfyaml 0.7.12 leaked 2 KB
 * on every single-quoted scalar holding '''' (two escaped quotes in a
 * row); the loader decodes such scalars itself now. Under ASan, a leak
 * fails this test.
 */
static void test_fuzz_single_quoted_escapes(void **state)
{
	static const struct text_case cases[] = {
		{ "k: ''''''''''''''\n", "''''''" },
		{ "k: 'x''y'\n", "x'y" },
		{ "k: 'a''''b'''''''\n", "a''b'''" },
		{ "k: '''x\n  y'' \n\n\n   z''  '\n", "'x y'\n\nz'  " },
		{ "k: '''\n  '\n", "' " },
		{ "k: '''\r\n\r\n  x\t\r\n  '\n", "'\nx " },
		{ "{\"k\": '''''''''''''', \"j\": 1}\n", "''''''" },
	};

	(void)state;
	check_texts(cases, sizeof(cases) / sizeof(cases[0]));
}

/*
 * Found by the json fuzzer: libfyaml 0.7.12 formats a block scalar with
 * lone CR line breaks into more text than its scanner measured, and its
 * fy_token_get_text() then leaked 1 KiB (load/fytext.h); ASan builds of
 * this test fail on the leak. The texts are PyYAML's.
 */
static void test_fuzz_block_scalar_lone_crs(void **state)
{
	static const struct text_case cases[] = {
		{ "k: |\n  e\n\r\r \n\r \r", "e\n" },
		{ "k: |\n    e\r\r  \r\r   \r    f\n", "e\n\n\n\n\nf\n" },
		/* the leak: PyYAML refuses a top-level block at indentation
		 * 0, and reads it indented (the first case) as "e\n" */
		{ "--- |\ne\n\r\r \n\r \r", "e\n" },
	};

	(void)state;
	check_texts(cases, sizeof(cases) / sizeof(cases[0]));
}

/*
 * Found by the load fuzzer: libfyaml 0.7.12 crashes when a parser that
 * stopped at a tab before a block entry, after a simple key inside an
 * explicit key, is destroyed. The error is reported, the parser is
 * abandoned (src/load/fyparser.c), and the next document still loads.
 */
static void test_fuzz_tab_after_explicit_key(void **state)
{
	struct loaded *l = load_str("? a:\t- b\n"
				    "---\n"
				    "apiVersion: v1\nkind: Pod\nmetadata: {name: b}\n"
				    "---\n"
				    "x:\n  ? a:\t? b\n"
				    "---\n"
				    "apiVersion: v1\nkind: Pod\nmetadata: {name: c}\n");

	(void)state;
	assert_int_equal(l->diag.n, 2);
	assert_error(l, 0, 1, 5, "cannot use tab for indentation");
	assert_error(l, 1, 8, 7, "cannot use tab for indentation");
	assert_int_equal(l->objs.n, 2);
	assert_string_equal(l->objs.v[0]->name, "b");
	assert_string_equal(l->objs.v[1]->name, "c");
	loaded_free(l);
}

/* Each abandoned parser costs its memory: past KVET_LOAD_MAX_ABANDONED of
 * them in one input, the rest of it is given up, saying so. */
static void test_abandoned_parsers_bounded(void **state)
{
	static const char bad[] = "? a:\t- b\n---\n";
	static const char good[] = "apiVersion: v1\nkind: Pod\nmetadata: {name: z}\n";
	size_t n = KVET_LOAD_MAX_ABANDONED + 2, i, len = 0;
	char *text = malloc(n * (sizeof(bad) - 1) + sizeof(good));
	struct loaded *l;

	(void)state;
	assert_non_null(text);
	for (i = 0; i < n; i++, len += sizeof(bad) - 1)
		memcpy(text + len, bad, sizeof(bad) - 1);
	memcpy(text + len, good, sizeof(good));
	l = load_str(text);
	assert_int_equal(l->objs.n, 0);
	assert_int_equal(l->diag.n, KVET_LOAD_MAX_ABANDONED + 1);
	if (!strstr(l->diag.errors[KVET_LOAD_MAX_ABANDONED].message,
		    "the rest of the input is not loaded"))
		fail_msg("last error: %s",
			 l->diag.errors[KVET_LOAD_MAX_ABANDONED].message);
	loaded_free(l);
	free(text);
}

/*
 * Found by the json fuzzer: a last line of blanks with no line break after
 * it made libfyaml drop the document before it ("tab character may not be
 * used as indentation"), where the JSON scanner read the same bytes as
 * trailing whitespace. Blanks are blanks on both paths now.
 */
static void test_fuzz_trailing_blank_line(void **state)
{
	static const char *const texts[] = {
		"apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n\t",
		"apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n \t ",
		"apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n\t\n",
		"{\"apiVersion\": \"v1\", \"kind\": \"Pod\",\n"
		" \"metadata\": {\"name\": \"a\"}}\n\t",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		struct loaded *l = load_str(texts[i]);

		if (l->diag.n)
			fail_msg("text %zu: %s", i, l->diag.errors[0].message);
		assert_int_equal(l->objs.n, 1);
		assert_string_equal(l->objs.v[0]->name, "a");
		loaded_free(l);
	}
}

/* Lines are counted sixteen bytes at a time, summed every 255 blocks:
 * every length and alignment around those boundaries, against a count
 * byte by byte. */
static void test_count_lines(void **state)
{
	enum { LEN = 16 * 255 * 2 + 40 };
	static char buf[LEN];
	size_t i, from, len, want;

	(void)state;
	srand(7);
	for (i = 0; i < LEN; i++)
		buf[i] = rand() % 3 ? 'a' : '\n';
	for (from = 0; from < 17; from++) {
		for (len = 0; from + len <= LEN; len += len < 64 ? 1 : 61) {
			for (want = 0, i = from; i < from + len; i++)
				want += buf[i] == '\n';
			assert_int_equal(kvet_count_lines(buf + from, len), want);
		}
	}
	memset(buf, '\n', LEN);
	assert_int_equal(kvet_count_lines(buf, LEN), LEN);
}

/* Type words with their article (issue 22): "not an integer". */
static void test_type_words(void **state)
{
	struct loaded *l = load_str("apiVersion: v1\nkind: 5\nmetadata: {}\n"
				    "---\napiVersion: v1\nkind: Pod\nmetadata: 7\n");

	(void)state;
	assert_int_equal(l->diag.n, 2);
	assert_string_equal(l->diag.errors[0].message,
			    "\"kind\" must be a non-empty string, not an integer");
	assert_string_equal(l->diag.errors[1].message,
			    "\"metadata\" must be a mapping, not an integer");
	loaded_free(l);
	assert_string_equal(kvet_node_type_a(KVET_NODE_NULL), "null");
	assert_string_equal(kvet_node_type_a(KVET_NODE_BOOL), "a boolean");
	assert_string_equal(kvet_node_type_a(KVET_NODE_INT), "an integer");
	assert_string_equal(kvet_node_type_a(KVET_NODE_FLOAT), "a number");
	assert_string_equal(kvet_node_type_a(KVET_NODE_STRING), "a string");
	assert_string_equal(kvet_node_type_a(KVET_NODE_MAP), "a mapping");
	assert_string_equal(kvet_node_type_a(KVET_NODE_SEQ), "a sequence");
	assert_string_equal(kvet_a_an("Ingress"), "an");
	assert_string_equal(kvet_a_an("EndpointSlice"), "an");
	assert_string_equal(kvet_a_an("Deployment"), "a");
	assert_string_equal(kvet_a_an(""), "a");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fuzz_tab_after_explicit_key),
		cmocka_unit_test(test_abandoned_parsers_bounded),
		cmocka_unit_test(test_fuzz_trailing_blank_line),
		cmocka_unit_test(test_count_lines),
		cmocka_unit_test(test_positions),
		cmocka_unit_test(test_leading_empty_lines),
		cmocka_unit_test(test_multi_document_and_empty),
		cmocka_unit_test(test_scalar_types),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_list_expansion),
		cmocka_unit_test(test_untyped_list_item_needs_kind),
		cmocka_unit_test(test_helm_source),
		cmocka_unit_test(test_aliases_and_merge),
		cmocka_unit_test(test_duplicate_key),
		cmocka_unit_test(test_syntax_error_keeps_other_documents),
		cmocka_unit_test(test_not_a_mapping),
		cmocka_unit_test(test_type_words),
		cmocka_unit_test(test_alias_bomb),
		cmocka_unit_test(test_recursive_and_unknown_alias),
		cmocka_unit_test(test_depth_limit),
		cmocka_unit_test(test_invalid_utf8_and_nul),
		cmocka_unit_test(test_bom_and_crlf),
		cmocka_unit_test(test_empty_input),
		cmocka_unit_test(test_complex_key),
		cmocka_unit_test(test_managed_fields_dropped),
		cmocka_unit_test(test_managed_fields_dropped_in_list),
		cmocka_unit_test(test_many_documents),
		cmocka_unit_test(test_default_namespace_and_helm_test),
		cmocka_unit_test(test_fuzz_empty_mapping_first),
		cmocka_unit_test(test_fuzz_single_quoted_escapes),
		cmocka_unit_test(test_fuzz_block_scalar_lone_crs),
	};

	return cmocka_run_group_tests_name("loader", tests, NULL, NULL);
}
