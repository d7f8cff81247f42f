/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of the input stage: paths, directories, stdin, limits. */
#include "support.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "input/source.h"

struct fixture {
	char dir[64];
	struct kvet_arena arena;
	struct kvet_diag diag;
	struct kvet_sources srcs;
};

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[256];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static void sub(const struct fixture *fx, const char *name, char *out,
		size_t len)
{
	snprintf(out, len, "%s/%s", fx->dir, name);
}

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	char p[256];

	if (!fx)
		return -1;
	snprintf(fx->dir, sizeof(fx->dir), "/tmp/kvet-src-XXXXXX");
	if (!mkdtemp(fx->dir))
		return -1;
	kvet_arena_init(&fx->arena);
	kvet_diag_init(&fx->diag, &fx->arena);
	sub(fx, "b", p, sizeof(p));
	mkdir(p, 0755);
	sub(fx, "b/deeper", p, sizeof(p));
	mkdir(p, 0755);
	write_file(fx->dir, "z.yaml", "a: 1\n");
	write_file(fx->dir, "a.yml", "a: 1\n");
	write_file(fx->dir, "c.json", "{}\n");
	write_file(fx->dir, "notes.txt", "not a manifest\n");
	write_file(fx->dir, "b/deeper/x.yaml", "a: 1\n");
	write_file(fx->dir, "b/y.YAML", "a: 1\n");
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

static void assert_names(const struct fixture *fx, const char *const *want,
			 size_t n)
{
	size_t i;
	char p[256];

	assert_int_equal(fx->srcs.n, n);
	for (i = 0; i < n; i++) {
		sub(fx, want[i], p, sizeof(p));
		assert_string_equal(fx->srcs.v[i].name, p);
	}
}

static void test_directory_sorted_recursive(void **state)
{
	struct fixture *fx = *state;
	static const char *const want[] = { "a.yml", "b/deeper/x.yaml",
					    "c.json", "z.yaml" };

	assert_int_equal(kvet_sources_add_path(&fx->srcs, &fx->arena,
					       &fx->diag, fx->dir),
			 0);
	assert_int_equal(fx->diag.n, 0);
	assert_names(fx, want, 4);
}

static void test_symlink_loop(void **state)
{
	struct fixture *fx = *state;
	static const char *const want[] = { "a.yml", "b/deeper/x.yaml",
					    "c.json", "z.yaml" };
	char p[256];

	sub(fx, "b/deeper/up", p, sizeof(p));
	assert_int_equal(symlink("../..", p), 0);
	assert_int_equal(kvet_sources_add_path(&fx->srcs, &fx->arena,
					       &fx->diag, fx->dir),
			 0);
	assert_names(fx, want, 4);
	assert_int_equal(fx->diag.n, 1);
	assert_string_equal(fx->diag.errors[0].pos.file, p);
	assert_non_null(strstr(fx->diag.errors[0].message, "symlink loop"));
}

static void test_missing_path(void **state)
{
	struct fixture *fx = *state;
	char p[256];

	sub(fx, "nope.yaml", p, sizeof(p));
	assert_int_equal(kvet_sources_add_path(&fx->srcs, &fx->arena,
					       &fx->diag, p),
			 0);
	assert_int_equal(fx->srcs.n, 0);
	assert_int_equal(fx->diag.n, 1);
	assert_int_equal(fx->diag.errors[0].pos.line, 0);
	assert_non_null(strstr(fx->diag.errors[0].message,
			       "No such file or directory"));
}

static void test_explicit_file_any_extension(void **state)
{
	struct fixture *fx = *state;
	char p[256];

	sub(fx, "notes.txt", p, sizeof(p));
	assert_int_equal(kvet_sources_add_path(&fx->srcs, &fx->arena,
					       &fx->diag, p),
			 0);
	assert_int_equal(fx->srcs.n, 1);
	assert_int_equal(kvet_source_read(&fx->srcs.v[0], &fx->diag, 1024, 100), 0);
	assert_int_equal(fx->srcs.v[0].len, strlen("not a manifest\n"));
}

static void test_size_limit(void **state)
{
	struct fixture *fx = *state;
	char p[256];

	sub(fx, "z.yaml", p, sizeof(p));
	assert_int_equal(kvet_sources_add_path(&fx->srcs, &fx->arena,
					       &fx->diag, p),
			 0);
	assert_int_equal(kvet_source_read(&fx->srcs.v[0], &fx->diag, 3, 100), 1);
	assert_true(fx->srcs.v[0].failed);
	assert_non_null(strstr(fx->diag.errors[0].message, "larger than"));
}

/*
 * Root reads any file, and the suite runs as root in CI: read the file
 * from a child that has given up root, so the test means the same there.
 */
static void test_unreadable_file(void **state)
{
	struct fixture *fx = *state;
	char p[256];
	pid_t pid;
	int status;

	sub(fx, "z.yaml", p, sizeof(p));
	assert_int_equal(chmod(p, 0), 0);
	assert_int_equal(chmod(fx->dir, 0755), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct kvet_source src = { .name = p, .path = p };
		struct kvet_arena arena;
		struct kvet_diag diag;
		int ok;

		if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
			_exit(3);
		kvet_arena_init(&arena);
		kvet_diag_init(&diag, &arena);
		ok = kvet_source_read(&src, &diag, 1024, 100) == 1 && diag.n == 1 &&
		     strstr(diag.errors[0].message, "Permission denied");
		_exit(ok ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

static void test_buffer(void **state)
{
	struct fixture *fx = *state;

	assert_int_equal(kvet_sources_add_buffer(&fx->srcs, &fx->arena,
						 "mem.yaml", "a: 1\n", 5),
			 0);
	assert_string_equal(fx->srcs.v[0].name, "mem.yaml");
	assert_int_equal(kvet_source_read(&fx->srcs.v[0], &fx->diag, 1, 100), 0);
	assert_memory_equal(fx->srcs.v[0].buf, "a: 1\n", 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_directory_sorted_recursive,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_symlink_loop, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_missing_path, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_explicit_file_any_extension,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_size_limit, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_unreadable_file, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_buffer, setup, teardown),
	};

	return cmocka_run_group_tests_name("sources", tests, NULL, NULL);
}
