/* SPDX-License-Identifier: Apache-2.0 */
/* The line index of a Helm template: key paths, blocks, defines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "chart/tindex.h"
#include "tpath.h"

static struct kvet_tindex *index_of(struct kvet_arena *arena, const char *t)
{
	struct kvet_tindex *ti = kvet_tindex_build(arena, "t.yaml", t,
						   strlen(t));

	assert_non_null(ti);
	return ti;
}

static void assert_path(const struct kvet_tindex *ti, unsigned int line,
			int kind, const char *dotted)
{
	const struct kvet_tline *tl = tline_at(ti, line, kind);
	char buf[256];

	assert_non_null(tl);
	assert_string_equal(tl->path, tp(buf, sizeof(buf), dotted));
}

static void keys_and_items(void **state)
{
	struct kvet_arena arena;
	struct kvet_tindex *ti;

	(void)state;
	kvet_arena_init(&arena);
	ti = index_of(&arena,
		      "apiVersion: apps/v1\n"		/* 1 */
		      "kind: Deployment\n"		/* 2 */
		      "spec:\n"				/* 3 */
		      "  template:\n"			/* 4 */
		      "    spec:\n"			/* 5 */
		      "      containers:\n"		/* 6 */
		      "      - name: web\n"		/* 7: compact */
		      "        args:\n"		/* 8 */
		      "          - --port=80\n"	/* 9 */
		      "      - name: side\n"		/* 10 */
		      "      volumes:\n"		/* 11 */
		      "        - name: data\n");	/* 12 */
	assert_int_equal(ti->ndocs, 1);
	assert_string_equal(ti->docs[0].kind, "Deployment");
	assert_int_equal(ti->docs[0].kind_line, 2);
	assert_path(ti, 7, KVET_TLINE_KEY, "spec.template.spec.containers.-.name");
	assert_int_equal(tline_at(ti, 7, KVET_TLINE_KEY)->col, 9);
	assert_path(ti, 8, KVET_TLINE_KEY, "spec.template.spec.containers.-.args");
	assert_path(ti, 9, KVET_TLINE_ITEM,
		    "spec.template.spec.containers.-.args.-");
	assert_memory_equal(tline_at(ti, 9, KVET_TLINE_ITEM)->text, "--port=80", 9);
	assert_path(ti, 10, KVET_TLINE_KEY, "spec.template.spec.containers.-.name");
	/* a key at the compact sequence's column ends it */
	assert_path(ti, 11, KVET_TLINE_KEY, "spec.template.spec.volumes");
	assert_path(ti, 12, KVET_TLINE_KEY, "spec.template.spec.volumes.-.name");
	kvet_arena_release(&arena);
}

static void blocks_and_values(void **state)
{
	struct kvet_arena arena;
	struct kvet_tindex *ti;
	const struct kvet_tline *tl;

	(void)state;
	kvet_arena_init(&arena);
	ti = index_of(&arena,
		      "metadata:\n"				/* 1 */
		      "  name: x\n"				/* 2 */
		      "  labels:\n"				/* 3 */
		      "    {{- include \"demo.labels\" . | nindent 4 }}\n" /* 4 */
		      "spec:\n"					/* 5 */
		      "  resources: {{- toYaml .Values.res | nindent 4 }}\n" /* 6 */
		      "  {{- with .Values.pod }}\n"		/* 7 */
		      "  nodeSelector: {{ .zone }}\n"		/* 8 */
		      "  {{- toYaml .extra | nindent 2 }}\n"	/* 9 */
		      "  {{- end }}\n"				/* 10 */
		      "  replicas: {{ .Values.replicas | default 1 }}\n"); /* 11 */
	tl = tline_at(ti, 4, KVET_TLINE_BLOCK);
	assert_non_null(tl);
	assert_path(ti, 4, KVET_TLINE_BLOCK, "metadata.labels");
	assert_string_equal(tl->block, "demo.labels");
	assert_false(tl->values);
	tl = tline_at(ti, 6, KVET_TLINE_BLOCK);
	assert_non_null(tl);
	assert_path(ti, 6, KVET_TLINE_BLOCK, "spec.resources");
	assert_true(tl->values);
	assert_string_equal(tl->block, "res");
	assert_int_equal(tl->col, 14);
	tl = tline_at(ti, 8, KVET_TLINE_KEY);
	assert_string_equal(tl->dot, "pod");
	assert_string_equal(kvet_tvalues_ref(&arena, tl->text, tl->text_len,
					     tl->dot), "pod.zone");
	/* nindent 2: its lines go under spec */
	tl = tline_at(ti, 9, KVET_TLINE_BLOCK);
	assert_path(ti, 9, KVET_TLINE_BLOCK, "spec");
	assert_string_equal(tl->block, "pod.extra");
	tl = tline_at(ti, 11, KVET_TLINE_KEY);
	assert_null(tl->dot);
	assert_string_equal(kvet_tvalues_ref(&arena, tl->text, tl->text_len,
					     tl->dot), "replicas");
	kvet_arena_release(&arena);
}

static void defines_branches_scalars_docs(void **state)
{
	struct kvet_arena arena;
	struct kvet_tindex *ti;
	const struct kvet_tline *tl;

	(void)state;
	kvet_arena_init(&arena);
	ti = index_of(&arena,
		      "spec:\n"					/* 1 */
		      "  volumes:\n"				/* 2 */
		      "{{- if .Values.pvc }}\n"			/* 3 */
		      "  claims:\n"				/* 4 */
		      "  - name: a\n"				/* 5 */
		      "{{- else }}\n"				/* 6 */
		      "    - name: b\n"			/* 7 */
		      "{{- end }}\n"				/* 8 */
		      "{{- define \"h\" }}\n"			/* 9 */
		      "app: web\n"				/* 10 */
		      "{{- end }}\n"				/* 11 */
		      "  config: |\n"				/* 12 */
		      "    key: not a key\n"			/* 13 */
		      "  after: 1\n"				/* 14 */
		      "---\n"					/* 15 */
		      "kind: \"Service\"\n");			/* 16 */
	assert_path(ti, 5, KVET_TLINE_KEY, "spec.claims.-.name");
	/* the else branch is written where the if's is */
	assert_path(ti, 7, KVET_TLINE_KEY, "spec.volumes.-.name");
	tl = tline_at(ti, 10, KVET_TLINE_KEY);
	assert_int_equal(ti->ndefines, 1);
	assert_string_equal(ti->defines[0], "h");
	assert_int_equal(tl->define, 0);
	assert_path(ti, 10, KVET_TLINE_KEY, "app");
	/* the key stack of the top level is back after the define */
	assert_path(ti, 12, KVET_TLINE_KEY, "spec.config");
	assert_int_equal(tline_at(ti, 12, KVET_TLINE_KEY)->define, -1);
	assert_null(tline_at(ti, 13, KVET_TLINE_KEY));
	assert_path(ti, 14, KVET_TLINE_KEY, "spec.after");
	assert_int_equal(ti->ndocs, 2);
	assert_string_equal(ti->docs[1].kind, "Service");
	assert_int_equal(ti->docs[1].kind_line, 16);
	assert_int_equal(tline_at(ti, 16, KVET_TLINE_KEY)->doc, 1);
	kvet_arena_release(&arena);
}

static void paths_and_text(void **state)
{
	struct kvet_arena arena;
	char a[64], b[64], c[64];
	const char *t;

	(void)state;
	kvet_arena_init(&arena);
	assert_true(kvet_tpath_eq(tp(a, 64, "spec.x"), tp(b, 64, "spec.x")));
	assert_false(kvet_tpath_eq(tp(a, 64, "spec.x"), tp(b, 64, "spec.xy")));
	assert_true(kvet_tpath_eq(tp(a, 64, "m.annotations.foo"),
				  tp(b, 64, "m.annotations.*")));
	tp(c, 64, "b.c");
	assert_string_equal(kvet_tpath_under(tp(a, 64, "a.b.c"),
					     tp(b, 64, "a")), c);
	assert_string_equal(kvet_tpath_under(tp(a, 64, "a"), "a"), "");
	assert_null(kvet_tpath_under(tp(a, 64, "ab.c"), "a"));
	assert_string_equal(kvet_tpath_under("a", ""), "a");

	t = "\"{{ .Values.repo }}:{{ .Values.tag }}\"";
	assert_true(kvet_ttext_match(t, strlen(t), "x.org/web:1.0", 13));
	assert_false(kvet_ttext_match(t, strlen(t), "x.org/web", 9));
	t = "data # the volume";
	assert_true(kvet_ttext_match(t, strlen(t), "data", 4));
	assert_false(kvet_ttext_match(t, strlen(t), "tls", 3));

	t = "{{ .Values.a.b }}-{{ .Release.Name }}";
	assert_string_equal(kvet_tvalues_ref(&arena, t, strlen(t), NULL), "a.b");
	t = "{{ .Values.a }}{{ .Values.b }}";
	assert_null(kvet_tvalues_ref(&arena, t, strlen(t), NULL));
	t = "{{ $.Values.a }} {{ .Values.a | quote }}";
	assert_string_equal(kvet_tvalues_ref(&arena, t, strlen(t), NULL), "a");
	t = "{{ .Chart.Name }}";
	assert_null(kvet_tvalues_ref(&arena, t, strlen(t), "x"));
	t = ".Values.a outside an action";
	assert_null(kvet_tvalues_ref(&arena, t, strlen(t), NULL));
	kvet_arena_release(&arena);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(keys_and_items),
		cmocka_unit_test(blocks_and_values),
		cmocka_unit_test(defines_branches_scalars_docs),
		cmocka_unit_test(paths_and_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
