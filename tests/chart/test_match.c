/* SPDX-License-Identifier: Apache-2.0 */
/* The matcher: from a rendered field to the template line that wrote it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "chart/match.h"
#include "tpath.h"

static const char deployment[] =
	"apiVersion: apps/v1\n"					/* 1 */
	"kind: Deployment\n"					/* 2 */
	"metadata:\n"						/* 3 */
	"  labels:\n"						/* 4 */
	"    {{- include \"labels\" . | nindent 4 }}\n"		/* 5 */
	"spec:\n"						/* 6 */
	"  replicas: {{ .Values.replicas }}\n"			/* 7 */
	"  template:\n"						/* 8 */
	"    spec:\n"						/* 9 */
	"      containers:\n"					/* 10 */
	"        - name: web\n"					/* 11 */
	"        - name: {{ .Values.side }}-sidecar\n"		/* 12 */
	"      resources: {{- toYaml .Values.res | nindent 8 }}\n" /* 13 */
	"      volumes:\n"					/* 14 */
	"{{- if .Values.a }}\n"					/* 15 */
	"        - name: data\n"				/* 16 */
	"{{- else }}\n"						/* 17 */
	"        - name: data\n"				/* 18 */
	"{{- end }}\n";						/* 19 */

static const char helpers[] =
	"{{- define \"labels\" -}}\n"				/* 1 */
	"app: web\n"						/* 2 */
	"tier: {{ .Values.tier }}\n"				/* 3 */
	"{{- end }}\n";						/* 4 */

struct fixture {
	struct kvet_arena arena;
	struct kvet_tindex *tpl, *helpers;
};

static const struct kvet_tindex *find(void *user, const char *name,
				      int32_t *define)
{
	struct fixture *fx = user;
	size_t i;

	for (i = 0; i < fx->helpers->ndefines; i++)
		if (!strcmp(fx->helpers->defines[i], name)) {
			*define = (int32_t)i;
			return fx->helpers;
		}
	return NULL;
}

static int setup(void **state)
{
	static struct fixture fx;

	kvet_arena_init(&fx.arena);
	fx.tpl = kvet_tindex_build(&fx.arena, "deployment.yaml", deployment,
				   strlen(deployment));
	fx.helpers = kvet_tindex_build(&fx.arena, "_helpers.tpl", helpers,
				       strlen(helpers));
	*state = &fx;
	return fx.tpl && fx.helpers ? 0 : -1;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	kvet_arena_release(&fx->arena);
	return 0;
}

static struct kvet_tmatch match(struct fixture *fx, const char *dotted,
				const char *text)
{
	struct kvet_chart_field f = { .kind = "Deployment", .count = 1 };
	struct kvet_tmatch m;
	static char buf[256];

	f.path = tp(buf, sizeof(buf), dotted);
	f.text = text;
	f.text_len = text ? strlen(text) : 0;
	kvet_tmatch_field(&fx->arena, fx->tpl, find, fx, &f, &m);
	return m;
}

static void plain_key_and_value(void **state)
{
	struct kvet_tmatch m = match(*state, "spec.replicas", "3");

	assert_true(m.exact);
	assert_int_equal(m.line, 7);
	assert_int_equal(m.col, 3);
	assert_string_equal(m.values_key, "replicas");
	assert_string_equal(m.ti->file, "deployment.yaml");
}

static void text_tells_lines_apart(void **state)
{
	struct kvet_tmatch m;

	m = match(*state, "spec.template.spec.containers.-.name", "web");
	assert_true(m.exact);
	assert_int_equal(m.line, 11);
	assert_null(m.values_key);
	m = match(*state, "spec.template.spec.containers.-.name", "log-sidecar");
	assert_true(m.exact);
	assert_int_equal(m.line, 12);
	assert_string_equal(m.values_key, "side");
}

static void doubt_is_the_kind_line(void **state)
{
	/* both branches write "- name: data" */
	struct kvet_tmatch m = match(*state, "spec.template.spec.volumes.-.name",
				     "data");

	assert_false(m.exact);
	assert_int_equal(m.line, 2);
	assert_int_equal(m.col, 1);
	/* no line has this path, and no block takes it */
	m = match(*state, "spec.strategy.type", "Recreate");
	assert_false(m.exact);
	assert_int_equal(m.line, 2);
	/* the object itself */
	m = match(*state, "", NULL);
	assert_false(m.exact);
	assert_int_equal(m.line, 2);
}

static void toyaml_names_the_values_key(void **state)
{
	struct kvet_tmatch m = match(*state,
				     "spec.template.spec.resources.limits.cpu",
				     "2");

	assert_true(m.exact);
	assert_int_equal(m.line, 13);
	assert_int_equal(m.col, 18);
	assert_string_equal(m.values_key, "res.limits.cpu");
}

static void include_goes_into_the_helper(void **state)
{
	struct kvet_tmatch m = match(*state, "metadata.labels.tier", "front");

	assert_true(m.exact);
	assert_string_equal(m.ti->file, "_helpers.tpl");
	assert_int_equal(m.line, 3);
	assert_string_equal(m.values_key, "tier");
	/* a key the helper does not write: the include line */
	m = match(*state, "metadata.labels.other", "x");
	assert_true(m.exact);
	assert_string_equal(m.ti->file, "deployment.yaml");
	assert_int_equal(m.line, 5);
}

static void documents_by_kind_and_order(void **state)
{
	static const char two[] =
		"kind: Service\n"		/* 1 */
		"spec:\n"			/* 2 */
		"  type: ClusterIP\n"		/* 3 */
		"---\n"				/* 4 */
		"kind: Service\n"		/* 5 */
		"spec:\n"			/* 6 */
		"  type: NodePort\n";		/* 7 */
	struct fixture *fx = *state;
	struct kvet_tindex *ti = kvet_tindex_build(&fx->arena, "svc.yaml", two,
						   strlen(two));
	struct kvet_chart_field f = { .kind = "Service", .count = 2,
				      .ordinal = 1 };
	struct kvet_tmatch m;
	char buf[64];

	assert_non_null(ti);
	f.path = tp(buf, sizeof(buf), "spec.type");
	kvet_tmatch_field(&fx->arena, ti, NULL, NULL, &f, &m);
	assert_true(m.exact);
	assert_int_equal(m.line, 7);
	/* three rendered from two documents: a range, in doubt */
	f.count = 3;
	kvet_tmatch_field(&fx->arena, ti, NULL, NULL, &f, &m);
	assert_false(m.exact);
	assert_int_equal(m.line, 1);
	/* a kind the file does not write: line 1 */
	f.kind = "Ingress";
	kvet_tmatch_field(&fx->arena, ti, NULL, NULL, &f, &m);
	assert_false(m.exact);
	assert_int_equal(m.line, 1);
	assert_int_equal(m.col, 1);
}

/* argo-cd's layout: a block at its key's own column prints the key's
 * items, and a `trim .` of an included helper is still the line that
 * printed the fields under its key */
static void blocks_at_the_key_column(void **state)
{
	static const char tpl[] =
		"kind: Deployment\n"					/* 1 */
		"spec:\n"						/* 2 */
		"  template:\n"						/* 3 */
		"    spec:\n"						/* 4 */
		"      {{- with .Values.initContainers }}\n"		/* 5 */
		"      initContainers:\n"				/* 6 */
		"        {{- tpl (toYaml .) $ | nindent 6 }}\n"		/* 7 */
		"      {{- end }}\n"					/* 8 */
		"      {{- with include \"aff\" . }}\n"		/* 9 */
		"      affinity:\n"					/* 10 */
		"        {{- trim . | nindent 8 }}\n"			/* 11 */
		"      {{- end }}\n"					/* 12 */
		"      {{- $x := include \"aff\" . | nindent 8 }}\n"	/* 13 */
		"      volumes:\n";					/* 14 */
	struct fixture *fx = *state;
	struct kvet_tindex *ti = kvet_tindex_build(&fx->arena, "d.yaml", tpl,
						   strlen(tpl));
	struct kvet_chart_field f = { .kind = "Deployment", .count = 1 };
	struct kvet_tmatch m;
	char buf[128];

	assert_non_null(ti);
	f.path = tp(buf, sizeof(buf),
		    "spec.template.spec.affinity.podAntiAffinity.x");
	kvet_tmatch_field(&fx->arena, ti, NULL, NULL, &f, &m);
	assert_true(m.exact);
	assert_int_equal(m.line, 11);
	f.path = tp(buf, sizeof(buf), "spec.template.spec.initContainers.-.name");
	kvet_tmatch_field(&fx->arena, ti, NULL, NULL, &f, &m);
	assert_true(m.exact);
	assert_int_equal(m.line, 7);
	/* the items block does not take its key's siblings */
	f.path = tp(buf, sizeof(buf), "spec.template.spec.hostNetwork");
	kvet_tmatch_field(&fx->arena, ti, NULL, NULL, &f, &m);
	assert_false(m.exact);
	assert_int_equal(m.line, 1);
	/* an assignment prints nothing: not a block */
	f.path = tp(buf, sizeof(buf), "spec.template.spec.volumes.-.name");
	kvet_tmatch_field(&fx->arena, ti, NULL, NULL, &f, &m);
	assert_false(m.exact);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(plain_key_and_value),
		cmocka_unit_test(text_tells_lines_apart),
		cmocka_unit_test(doubt_is_the_kind_line),
		cmocka_unit_test(toyaml_names_the_values_key),
		cmocka_unit_test(include_goes_into_the_helper),
		cmocka_unit_test(documents_by_kind_and_order),
		cmocka_unit_test(blocks_at_the_key_column),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
