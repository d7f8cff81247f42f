/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvet's spelling of Kubernetes values (model/notation.c): selectors as
 * kubectl prints them (labels.Requirement.String), IntOrString values
 * as written, term names and scopes, lists of objects.
 */
#include "tgraph.h"
#include "tspread.h"

#include "model/notation.h"

/* The notation of the selector @yaml, read as field @field. */
static void check_selector(const char *yaml, enum kvet_sel_field field,
			   bool meaning, const char *want)
{
	struct loaded *l = load_str(yaml);
	struct kvet_strbuf sb = KVET_STRBUF_INIT;
	struct kvet_selector sel;

	assert_int_equal(kvet_selector_parse(&l->arena,
					     kvet_node_get(l->objs.v[0]->root,
							   "sel"),
					     field, &sel), 0);
	if (meaning)
		kvet_selector_meaning_notation(&sb, &sel);
	else
		kvet_selector_notation(&sb, &sel);
	assert_false(sb.oom);
	assert_string_equal(kvet_strbuf_str(&sb), want);
	kvet_strbuf_release(&sb);
	loaded_free(l);
}

#define OBJ(sel) "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\nsel: " sel "\n"

static void selectors(void **state)
{
	(void)state;
	check_selector(OBJ("{matchLabels: {app: web}, matchExpressions: ["
			   "{key: tier, operator: In, values: [b, a]},"
			   " {key: env, operator: NotIn, values: [dev]},"
			   " {key: legacy, operator: DoesNotExist},"
			   " {key: team, operator: Exists}]}"),
		       KVET_SEL_FIELD_PDB_V1, false,
		       "app=web,tier in (a,b),env notin (dev),!legacy,team");
	/* one notation for a single-value NotIn: kubectl's "notin (v)" */
	check_selector(OBJ("{matchExpressions: [{key: env, operator: NotIn, values: [dev]}]}"),
		       KVET_SEL_FIELD_AFFINITY_TERM, true, "env notin (dev)");
	check_selector(OBJ("{matchExpressions: [{key: env, operator: NotIn, values: [dev]}]}"),
		       KVET_SEL_FIELD_PDB_V1, false, "env notin (dev)");
	/* as written, and by meaning */
	check_selector(OBJ("null"), KVET_SEL_FIELD_PDB_V1, false, "null");
	check_selector(OBJ("{}"), KVET_SEL_FIELD_PDB_V1, false, "{}");
	check_selector(OBJ("{}"), KVET_SEL_FIELD_PDB_V1, true, "{} (every pod)");
	check_selector(OBJ("null"), KVET_SEL_FIELD_AFFINITY_TERM, true,
		       "(no selector: nothing)");
	check_selector(OBJ("{matchExpressions: [{key: a, operator: in}]}"),
		       KVET_SEL_FIELD_PDB_V1, true,
		       "(invalid selector: nothing)");
	check_selector(OBJ("{matchLabels: {pod-template-hash: abc}}"),
		       KVET_SEL_FIELD_AFFINITY_TERM, true,
		       "pod-template-hash=<pod-template-hash of this pod>");
	check_selector(OBJ("{matchLabels: {pod-template-hash: abc}}"),
		       KVET_SEL_FIELD_AFFINITY_TERM, false,
		       "pod-template-hash=abc");
}

static void invalid_selector(void **state)
{
	struct loaded *l = load_str(OBJ("{matchExpressions: [{key: a, operator: in}]}"));
	struct kvet_strbuf sb = KVET_STRBUF_INIT;
	struct kvet_selector sel;

	(void)state;
	assert_int_equal(kvet_selector_parse(&l->arena,
					     kvet_node_get(l->objs.v[0]->root,
							   "sel"),
					     KVET_SEL_FIELD_PDB_V1, &sel), 0);
	kvet_selector_notation(&sb, &sel);
	assert_true(strncmp(kvet_strbuf_str(&sb), "(invalid: ", 10) == 0);
	assert_non_null(strstr(kvet_strbuf_str(&sb), "operator \"in\""));
	kvet_strbuf_release(&sb);
	loaded_free(l);
}

static void intstrs(void **state)
{
	struct loaded *l = load_str(
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n"
		"v: [\"50%\", 1, \"1\", {a: b}]\n");
	const struct kvet_node *v = kvet_node_get(l->objs.v[0]->root, "v");
	static const char *const want[] = { "\"50%\"", "1", "\"1\"", "a mapping" };
	struct kvet_intstr is;
	uint32_t i;

	(void)state;
	for (i = 0; i < 4; i++) {
		struct kvet_strbuf sb = KVET_STRBUF_INIT;

		kvet_intstr_parse(&v->u.items[i], &is);
		kvet_intstr_notation(&sb, &is);
		assert_string_equal(kvet_strbuf_str(&sb), want[i]);
		kvet_strbuf_release(&sb);
	}
	{
		struct kvet_strbuf sb = KVET_STRBUF_INIT;

		kvet_intstr_parse(NULL, &is);
		kvet_intstr_notation(&sb, &is);
		assert_string_equal(kvet_strbuf_str(&sb), "null");
		kvet_strbuf_release(&sb);
	}
	loaded_free(l);
}

static void terms_and_names(void **state)
{
	struct tgraph tg = tg_load(tspread_input(), 0);
	struct kvet_strbuf sb = KVET_STRBUF_INIT;
	const struct kvet_object *objs[3];
	struct kvet_terms tm;

	(void)state;
	assert_int_equal(kvet_workload_terms(&tg.l->arena,
					     tg_wl(&tg, "apps", "Deployment",
						   "ops", "alpha"), &tm), 0);
	kvet_term_name(&sb, &tm.v[2]);
	assert_string_equal(kvet_strbuf_str(&sb), "topology spread constraint #1");
	kvet_strbuf_release(&sb);
	kvet_term_scope_notation(&sb, &tm.v[0]);
	assert_string_equal(kvet_strbuf_str(&sb), "namespace ops");
	kvet_strbuf_release(&sb);
	kvet_selector_meaning_notation(&sb, &tm.v[0].merged);
	assert_string_equal(kvet_strbuf_str(&sb),
			    "app.kubernetes.io/part-of=suite,app.kubernetes.io/name notin (alpha)");
	kvet_strbuf_release(&sb);
	assert_int_equal(kvet_workload_terms(&tg.l->arena,
					     tg_wl(&tg, "apps", "Deployment",
						   "far", "far"), &tm), 0);
	kvet_term_scope_notation(&sb, &tm.v[0]);
	assert_string_equal(kvet_strbuf_str(&sb), "namespaces matching team=a");
	kvet_strbuf_release(&sb);

	objs[0] = tg_wl(&tg, "apps", "Deployment", "ops", "alpha")->obj;
	objs[1] = tg_wl(&tg, "apps", "StatefulSet", "ops", "db")->obj;
	objs[2] = tg_wl(&tg, "apps", "Deployment", "far", "far")->obj;
	kvet_object_names(&sb, objs, 2, 2);
	assert_string_equal(kvet_strbuf_str(&sb),
			    "Deployment ops/alpha and StatefulSet ops/db");
	kvet_strbuf_release(&sb);
	kvet_object_names(&sb, objs, 3, 5);
	assert_string_equal(kvet_strbuf_str(&sb),
			    "Deployment ops/alpha, StatefulSet ops/db, Deployment far/far and 2 more");
	kvet_strbuf_release(&sb);
	tg_free(&tg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(selectors),
		cmocka_unit_test(invalid_selector),
		cmocka_unit_test(intstrs),
		cmocka_unit_test(terms_and_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
