/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of directory walks: each file and directory once, Helm chart
 * sources and kustomize directories left out with a note, directories
 * that give nothing recorded.
 */
#include "support.h"

#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input/source.h"

struct fixture {
	char dir[64];
	struct kvet_arena arena;
	struct kvet_diag diag;
	struct kvet_sources srcs;
};

static const char manifest[] =
	"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n";

/* @name below the fixture's directory, into a static buffer per call
 * site's argument slot */
static const char *at(const struct fixture *fx, const char *name)
{
	static char bufs[4][512];
	static unsigned int next;
	char *p = bufs[next++ % 4];

	snprintf(p, sizeof(bufs[0]), "%s/%s", fx->dir, name);
	return p;
}

static void put(const struct fixture *fx, const char *name, const char *text)
{
	FILE *fp = fopen(at(fx, name), "w");

	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static void dir(const struct fixture *fx, const char *name)
{
	assert_int_equal(mkdir(at(fx, name), 0755), 0);
}

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	if (!fx)
		return -1;
	snprintf(fx->dir, sizeof(fx->dir), "/tmp/kvet-walk-XXXXXX");
	if (!mkdtemp(fx->dir))
		return -1;
	kvet_arena_init(&fx->arena);
	kvet_diag_init(&fx->diag, &fx->arena);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;
	char cmd[128];

	kvet_sources_release(&fx->srcs);
	kvet_diag_release(&fx->diag);
	kvet_arena_release(&fx->arena);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fx->dir);
	if (system(cmd) != 0)
		return -1;
	free(fx);
	return 0;
}

static void add(struct fixture *fx, const char *name)
{
	assert_int_equal(kvet_sources_add_path(&fx->srcs, &fx->arena,
					       &fx->diag, at(fx, name)),
			 0);
}

/* How many notes mention @text. */
static size_t notes_with(const struct fixture *fx, const char *text)
{
	size_t i, n = 0;

	for (i = 0; i < fx->diag.n_notices; i++)
		n += strstr(fx->diag.notices[i].message, text) != NULL;
	return n;
}

/*
 * Issue 11.3: every level holds two symlinks to the level below, so that
 * the only file has 2^levels paths; each directory and the file must be
 * visited once, each second link noted.
 */
static void test_symlink_tree_once(void **state)
{
	struct fixture *fx = *state;
	enum { LEVELS = 14 };
	char name[32], target[32];
	int i;

	dir(fx, "d0");
	put(fx, "d0/cm.yaml", manifest);
	for (i = 1; i <= LEVELS; i++) {
		snprintf(name, sizeof(name), "d%d", i);
		dir(fx, name);
		snprintf(target, sizeof(target), "../d%d", i - 1);
		snprintf(name, sizeof(name), "d%d/a", i);
		assert_int_equal(symlink(target, at(fx, name)), 0);
		snprintf(name, sizeof(name), "d%d/b", i);
		assert_int_equal(symlink(target, at(fx, name)), 0);
	}
	snprintf(name, sizeof(name), "d%d", LEVELS);
	add(fx, name);
	assert_int_equal(fx->srcs.n, 1);
	assert_int_equal(fx->diag.n, 0);
	assert_int_equal(notes_with(fx, "same directory as"), LEVELS);
	assert_int_equal(fx->diag.notices[0].level, KVET_NOTICE_NOTE);
	/* breadth first, entries sorted: "a" is kept, "b" noted */
	snprintf(name, sizeof(name), "d%d/b", LEVELS);
	assert_string_equal(fx->diag.notices[0].pos.file, at(fx, name));
	snprintf(name, sizeof(name), "d%d/a", LEVELS);
	assert_non_null(strstr(fx->diag.notices[0].message, at(fx, name)));
}

static void test_hard_link_once(void **state)
{
	struct fixture *fx = *state;

	dir(fx, "in");
	put(fx, "in/a.yaml", manifest);
	assert_int_equal(link(at(fx, "in/a.yaml"), at(fx, "in/b.yaml")), 0);
	add(fx, "in");
	assert_int_equal(fx->srcs.n, 1);
	assert_string_equal(fx->srcs.v[0].name, at(fx, "in/a.yaml"));
	assert_int_equal(fx->diag.n_notices, 1);
	assert_string_equal(fx->diag.notices[0].pos.file, at(fx, "in/b.yaml"));
	assert_non_null(strstr(fx->diag.notices[0].message, "same file as"));
}

/* A path named twice, or a file inside a directory also named. */
static void test_named_twice(void **state)
{
	struct fixture *fx = *state;

	dir(fx, "in");
	put(fx, "in/a.yaml", manifest);
	add(fx, "in");
	add(fx, "in");
	add(fx, "in/a.yaml");
	assert_int_equal(fx->srcs.n, 1);
	assert_int_equal(fx->diag.n_notices, 2);
	assert_string_equal(fx->diag.notices[0].message,
			    "named more than once: read once");
	/* the walk met it under the very same path */
	assert_string_equal(fx->diag.notices[1].message,
			    "named more than once: read once");
	assert_int_equal(fx->srcs.n_empty, 0);
}

static void test_loop_is_still_an_error(void **state)
{
	struct fixture *fx = *state;

	dir(fx, "in");
	dir(fx, "in/sub");
	put(fx, "in/sub/a.yaml", manifest);
	assert_int_equal(symlink("..", at(fx, "in/sub/up")), 0);
	add(fx, "in");
	assert_int_equal(fx->srcs.n, 1);
	assert_int_equal(fx->diag.n, 1);
	assert_non_null(strstr(fx->diag.errors[0].message, "symlink loop"));
}

/* Issue 10.2: a chart below the walk, beside a rendered manifest. */
static void test_helm_chart_left_out(void **state)
{
	struct fixture *fx = *state;

	dir(fx, "repo");
	dir(fx, "repo/chart");
	dir(fx, "repo/chart/templates");
	put(fx, "repo/chart/Chart.yaml", "apiVersion: v2\nname: web\n");
	put(fx, "repo/chart/values.yaml", "replicas: 2\n");
	put(fx, "repo/chart/templates/d.yaml", "kind: {{ .Values.kind }}\n");
	put(fx, "repo/rendered.yaml", manifest);
	add(fx, "repo");
	assert_int_equal(fx->srcs.n, 1);
	assert_string_equal(fx->srcs.v[0].name, at(fx, "repo/rendered.yaml"));
	assert_int_equal(fx->diag.n, 0);
	assert_int_equal(fx->diag.n_notices, 1);
	assert_int_equal(fx->diag.notices[0].level, KVET_NOTICE_NOTE);
	assert_string_equal(fx->diag.notices[0].pos.file, at(fx, "repo/chart"));
	assert_non_null(strstr(fx->diag.notices[0].message,
			       "Helm chart source (Chart.yaml)"));
	assert_non_null(strstr(fx->diag.notices[0].message,
			       "helm template NAME "));
	assert_non_null(strstr(fx->diag.notices[0].message,
			       "/repo/chart | kvet lint"));
}

/* Each of kustomize's three file names makes a kustomize directory. */
static void test_kustomize_left_out(void **state)
{
	struct fixture *fx = *state;
	static const char *const names[] = { "kustomization.yaml",
					     "kustomization.yml",
					     "Kustomization" };
	char path[64];
	size_t i;

	dir(fx, "k");
	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "k/%zu", i);
		dir(fx, path);
		snprintf(path, sizeof(path), "k/%zu/%s", i, names[i]);
		put(fx, path, "resources: [deploy.yaml]\n");
		snprintf(path, sizeof(path), "k/%zu/deploy.yaml", i);
		put(fx, path, manifest);
	}
	add(fx, "k");
	assert_int_equal(fx->srcs.n, 0);
	assert_int_equal(fx->diag.n_notices, 3);
	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "k/%zu", i);
		assert_string_equal(fx->diag.notices[i].pos.file, at(fx, path));
		assert_non_null(strstr(fx->diag.notices[i].message, names[i]));
		assert_non_null(strstr(fx->diag.notices[i].message,
				       "kustomize build "));
		assert_non_null(strstr(fx->diag.notices[i].message,
				       "kubectl kustomize "));
	}
	/* the notes say why nothing was found: no warning on top */
	assert_int_equal(fx->srcs.n_empty, 0);
}

/* Named on the command line, a chart gets the same note; its files can
 * still be named one by one. */
static void test_chart_named(void **state)
{
	struct fixture *fx = *state;

	dir(fx, "chart");
	dir(fx, "chart/crds");
	put(fx, "chart/Chart.yaml", "apiVersion: v2\nname: web\n");
	put(fx, "chart/crds/crd.yaml", manifest);
	add(fx, "chart");
	assert_int_equal(fx->srcs.n, 0);
	assert_int_equal(notes_with(fx, "Helm chart source"), 1);
	add(fx, "chart/crds/crd.yaml");
	assert_int_equal(fx->srcs.n, 1);
	assert_int_equal(fx->srcs.n_empty, 0);
}

/* Only a regular file makes a project: a directory named Chart.yaml does
 * not. */
static void test_marker_must_be_a_file(void **state)
{
	struct fixture *fx = *state;

	dir(fx, "in");
	dir(fx, "in/Chart.yaml");
	put(fx, "in/a.yaml", manifest);
	add(fx, "in");
	assert_int_equal(fx->srcs.n, 1);
	assert_int_equal(fx->diag.n_notices, 0);
}

/* Issue 10.6: a named directory that gives no file is recorded, so the
 * run can warn (or fail with --require-objects). */
static void test_empty_directory_recorded(void **state)
{
	struct fixture *fx = *state;

	dir(fx, "empty");
	dir(fx, "docs");
	put(fx, "docs/README.md", "# not a manifest\n");
	add(fx, "empty");
	add(fx, "docs");
	assert_int_equal(fx->srcs.n, 0);
	assert_int_equal(fx->diag.n + fx->diag.n_notices, 0);
	assert_int_equal(fx->srcs.n_empty, 2);
	assert_string_equal(fx->srcs.empty[0].path, at(fx, "empty"));
	assert_false(fx->srcs.empty[0].excluded);
	assert_string_equal(fx->srcs.empty[1].path, at(fx, "docs"));
}

static bool exclude_all(const void *user, const char *path)
{
	(void)user;
	return strstr(path, ".yaml") != NULL;
}

static void test_all_excluded_recorded(void **state)
{
	struct fixture *fx = *state;

	dir(fx, "in");
	put(fx, "in/a.yaml", manifest);
	fx->srcs.excluded = exclude_all;
	add(fx, "in");
	/* an excluded file is not "seen": another path to it is read */
	fx->srcs.excluded = NULL;
	add(fx, "in/a.yaml");
	assert_int_equal(fx->srcs.n, 1);
	assert_int_equal(fx->diag.n_notices, 0);
	assert_int_equal(fx->srcs.n_empty, 1);
	assert_true(fx->srcs.empty[0].excluded);
}

static bool exclude_chart(const void *user, const char *path)
{
	(void)user;
	return strstr(path, "/vendor/") != NULL;
}

/* A chart the configuration excludes is not worth a note. */
static void test_excluded_chart_silent(void **state)
{
	struct fixture *fx = *state;

	dir(fx, "repo");
	dir(fx, "repo/vendor");
	dir(fx, "repo/vendor/chart");
	put(fx, "repo/vendor/chart/Chart.yaml", "apiVersion: v2\n");
	put(fx, "repo/app.yaml", manifest);
	fx->srcs.excluded = exclude_chart;
	add(fx, "repo");
	assert_int_equal(fx->srcs.n, 1);
	assert_int_equal(fx->diag.n_notices, 0);
}

static void test_unmatched_pattern(void **state)
{
	struct fixture *fx = *state;

	add(fx, "*.yaml");
	assert_int_equal(fx->diag.n, 1);
	assert_string_equal(fx->diag.errors[0].message,
			    "cannot open: no file matches this pattern");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
		T(test_symlink_tree_once),
		T(test_hard_link_once),
		T(test_named_twice),
		T(test_loop_is_still_an_error),
		T(test_helm_chart_left_out),
		T(test_kustomize_left_out),
		T(test_chart_named),
		T(test_marker_must_be_a_file),
		T(test_empty_directory_recorded),
		T(test_all_excluded_recorded),
		T(test_excluded_chart_silent),
		T(test_unmatched_pattern),
#undef T
	};

	return cmocka_run_group_tests_name("walk", tests, NULL, NULL);
}
