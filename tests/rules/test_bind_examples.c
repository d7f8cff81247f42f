/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvet's CEL functions as public API (src/rules/bind_*.c):
 *
 * - every row of the kvet.* libraries dispatches and its example holds:
 *   with `object` bound to the row's example object of
 *   testdata/bind/fixture.yaml, its example expression is true (cel-go
 *   declares OverloadExamples; kvet runs them);
 * - the names and argument counts of every function rules may call are
 *   those of tests/rules/functions.txt, so that a rename or a removal,
 *   which breaks users' rule files (--rules DIR), is a deliberate change
 *   of that file (Kubernetes' library_compatibility_test.go).
 *
 * usage: test_bind_examples FIXTURE FUNCTIONS_TXT
 *        test_bind_examples --list: print the list functions.txt holds,
 *        to review and commit with a change of the tables
 *        test_bind_examples --docs LIB: the function table of library LIB
 *        (kvet.core, ...) for docs/rule-language.md, from the rows' doc
 *        strings (scripts/gen-rule-docs writes it, check_docs.sh checks
 *        it)
 */
#include "tk8s.h"

#include <stdio.h>

static const char *fixture_path, *functions_path;

static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "rb");
	char *buf;
	long len;

	if (!fp)
		fail_msg("cannot open %s", path);
	fseek(fp, 0, SEEK_END);
	len = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	buf = calloc(1, (size_t)len + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)len, fp), (size_t)len);
	fclose(fp);
	return buf;
}

/* Bind `object` to "[group/]Kind ns/name"; "" binds null. */
static int bind_example(struct fixture *f, const char *spec)
{
	char group[128] = "", kind[128], ns[128], name[128];
	const char *slash, *space = strchr(spec, ' ');
	const struct kvet_object *obj;

	if (!*spec) {
		f->t->vars[0] = cel_null();
		return 0;
	}
	if (!space || sscanf(space + 1, "%127[^/]/%127s", ns, name) != 2) {
		if (!space || sscanf(space + 1, "/%127s", name) != 1)
			return -1;
		ns[0] = '\0';
	}
	slash = memchr(spec, '/', (size_t)(space - spec));
	if (slash)
		snprintf(group, sizeof(group), "%.*s", (int)(slash - spec),
			 spec);
	snprintf(kind, sizeof(kind), "%.*s",
		 (int)(space - (slash ? slash + 1 : spec)),
		 slash ? slash + 1 : spec);
	obj = kvet_graph_find(f->tg.g, group, kind, ns, name);
	if (!obj)
		return -1;
	f->t->vars[0] = kvet_cel_from_object(obj);
	return 0;
}

/* The example of one row; 0 when it holds. */
static int check_row(struct fixture *f, const char *lib,
		     const struct cel_func *row)
{
	const struct bind_fn *fn = bind_fn_of(row);
	struct cel_value v;

	if (!row->doc || !*row->doc || !fn->ex_expr || !*fn->ex_expr) {
		print_error("%s %s: no doc or no example\n", lib, row->name);
		return -1;
	}
	if (!strstr(fn->ex_expr, row->name)) {
		print_error("%s %s: the example does not call it\n", lib,
			    row->name);
		return -1;
	}
	if (bind_example(f, fn->ex_object)) {
		print_error("%s %s: no object \"%s\" in the fixture\n", lib,
			    row->name, fn->ex_object);
		return -1;
	}
	v = tcel_eval(f->t, fn->ex_expr);
	if (v.type == CEL_BOOL && v.u.b)
		return 0;
	print_error("%s %s: %s is %s%s%s\n", lib, row->name, fn->ex_expr,
		    v.type == CEL_ERROR ? "an error: " : "not true: ",
		    v.type == CEL_ERROR ? v.u.s : cel_type_name(v.type),
		    v.type == CEL_BOOL ? " false" : "");
	return -1;
}

static void examples(void **state)
{
	char *text = slurp(fixture_path);
	struct fixture *f = tk8s_load(text);
	size_t i, j, rows = 0;
	int bad = 0;

	(void)state;
	for (i = 0; i < kvet_cel_n_libs; i++) {
		const struct cel_lib *lib = kvet_cel_libs[i];

		for (j = 0; j < lib->n; j++) {
			if (!bind_fn_of(&lib->funcs[j]))
				continue;
			rows++;
			bad |= check_row(f, lib->name, &lib->funcs[j]);
		}
	}
	/* kvet.core, kvet.pdb, kvet.spread, kvet.webhook, kvet.intercept,
	 * kvet.roles */
	assert_true(rows >= 100);
	assert_int_equal(bad, 0);
	teardown(f);
	free(text);
}

static int cmp_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "name/1", "objects/1-2", sorted, one a line: the functions of every
 * library rules may call. */
static char *function_list(void)
{
	char **lines = NULL, *out;
	size_t i, j, n = 0, len = 0;

	for (i = 0; i < kvet_cel_n_libs; i++)
		n += kvet_cel_libs[i]->n;
	lines = calloc(n + 1, sizeof(*lines));
	assert_non_null(lines);
	for (n = 0, i = 0; i < kvet_cel_n_libs; i++) {
		const struct cel_lib *lib = kvet_cel_libs[i];

		for (j = 0; j < lib->n; j++) {
			const struct cel_func *r = &lib->funcs[j];
			char buf[160];

			if (r->min_args == r->max_args)
				snprintf(buf, sizeof(buf), "%s/%u %s\n",
					 r->name, r->min_args, lib->name);
			else
				snprintf(buf, sizeof(buf), "%s/%u-%u %s\n",
					 r->name, r->min_args, r->max_args,
					 lib->name);
			lines[n] = strdup(buf);
			assert_non_null(lines[n]);
			len += strlen(lines[n++]);
		}
	}
	qsort(lines, n, sizeof(*lines), cmp_line);
	out = calloc(1, len + 1);
	assert_non_null(out);
	for (i = 0; i < n; i++) {
		strcat(out, lines[i]);
		free(lines[i]);
	}
	free(lines);
	return out;
}

static void function_names(void **state)
{
	char *want = slurp(functions_path), *have = function_list();
	const char *w, *h;

	(void)state;
	if (strcmp(want, have)) {
		/* the first line that differs */
		for (w = want, h = have; *w && *w == *h; w++, h++)
			;
		while (w > want && w[-1] != '\n')
			w--, h--;
		print_error("tests/rules/functions.txt says \"%.*s\", the tables \"%.*s\" (test_bind_examples --list prints them all)\n",
			    (int)strcspn(w, "\n"), w, (int)strcspn(h, "\n"), h);
		fail();
	}
	free(want);
	free(have);
}

/* How a signature names an argument of each kind. */
static const char *param_name(unsigned int kind)
{
	switch (kind) {
	case BIND_OBJECT:
		return "o";
	case BIND_WORKLOAD:
		return "w";
	case BIND_DEPLOYMENT:
		return "deploy";
	case BIND_PDB:
	case BIND_BUDGET:
		return "pdb";
	case BIND_HPA:
		return "hpa";
	case BIND_SERVICE:
		return "service";
	case BIND_TERM:
	case BIND_FOREIGN:
		return "t";
	case BIND_ENTRY:
		return "e";
	case BIND_NAMESPACE:
		return "ns";
	case BIND_COUNT:
		return "n";
	case BIND_LIST:
	case BIND_OBJECTS:
		return "list";
	case BIND_LABELS:
		return "labels";
	default:
		return "s";
	}
}

static const char *type_name(unsigned int stype)
{
	static const char *const names[] = {
		"dyn", "null", "bool", "int", "double", "string", "list",
		"map",
	};

	return stype < 8 ? names[stype] : "dyn";
}

/*
 * One row of the table: the signature, from a doc that starts with it
 * ("objects(kind[, ns]): ..."), else from the argument kinds, the type it
 * returns, and the doc.
 */
static void print_row(const struct cel_func *r)
{
	const struct bind_fn *fn = bind_fn_of(r);
	size_t len = strlen(r->name), i;
	const char *doc = r->doc, *end;

	printf("| `");
	end = strstr(doc, "): ");
	if (!strncmp(doc, r->name, len) && doc[len] == '(' && end) {
		printf("%.*s", (int)(end + 1 - doc), doc);
		doc = end + 3;
	} else {
		printf("%s(", r->name);
		for (i = 0; i < r->max_args; i++)
			printf("%s%s%s", i == r->min_args ? "[" : "",
			       i ? ", " : "", param_name(fn->kind[i]));
		printf("%s)", r->max_args > r->min_args ? "]" : "");
	}
	printf("` | %s | %s |\n", type_name(r->ret), doc);
}

static int print_docs(const char *name)
{
	size_t i, j;

	for (i = 0; i < kvet_cel_n_libs; i++) {
		const struct cel_lib *lib = kvet_cel_libs[i];

		if (strcmp(lib->name, name))
			continue;
		printf("| function | returns | meaning |\n| --- | --- | --- |\n");
		for (j = 0; j < lib->n; j++)
			print_row(&lib->funcs[j]);
		return 0;
	}
	fprintf(stderr, "no library %s\n", name);
	return 2;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(examples),
		cmocka_unit_test(function_names),
	};

	if (argc == 3 && !strcmp(argv[1], "--docs"))
		return print_docs(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "--list")) {
		char *list = function_list();

		fputs(list, stdout);
		free(list);
		return 0;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: %s FIXTURE FUNCTIONS_TXT\n", argv[0]);
		return 2;
	}
	fixture_path = argv[1];
	functions_path = argv[2];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
