/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of the input stage: paths, directories, stdin, limits. */
/* posix_openpt() and friends, for a terminal as standard input */
#define _XOPEN_SOURCE 700
#include "support.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
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

static const char manifest[] =
	"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n";

/* Standard input for the length of one test, put back by stdin_restore(). */
static int saved_stdin = -1;

static void stdin_from(int fd)
{
	saved_stdin = dup(STDIN_FILENO);
	if (fd < 0) {
		close(STDIN_FILENO);
		return;
	}
	assert_int_equal(dup2(fd, STDIN_FILENO), STDIN_FILENO);
	close(fd);
}

static void stdin_restore(void)
{
	if (saved_stdin >= 0) {
		dup2(saved_stdin, STDIN_FILENO);
		close(saved_stdin);
	} else {
		close(STDIN_FILENO);
	}
	saved_stdin = -1;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/* A child that writes @len bytes of YAML lines to @fd after @delay_ms,
 * then exits; the caller closes its copy of @fd. */
static pid_t writer(int fd, size_t len, long delay_ms)
{
	pid_t pid = fork();
	char line[] = "# padding of a manifest  \n";
	size_t done = 0;

	assert_true(pid >= 0);
	if (pid)
		return pid;
	sleep_ms(delay_ms);
	while (done < len) {
		size_t n = len - done < sizeof(line) - 1 ? len - done
							 : sizeof(line) - 1;
		ssize_t w = write(fd, line, n);

		if (w <= 0)
			_exit(1);
		done += (size_t)w;
	}
	_exit(0);
}

static void reap(pid_t pid)
{
	int status;

	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
}

/* Issue 11.8: an endless or oversized input is read to one byte past the
 * limit, no further (it used to be read to twice the limit). */
static void test_read_stops_at_limit(void **state)
{
	struct fixture *fx = *state;
	struct kvet_source src = { .name = "<stdin>", .is_stdin = true };
	char rest[2048];
	ssize_t n;
	int p[2];

	assert_int_equal(pipe(p), 0);
	assert_int_equal(write(p[1], rest, 1000), 1000);
	close(p[1]);
	stdin_from(p[0]);
	assert_int_equal(kvet_source_read(&src, &fx->diag, 100, 100), 1);
	n = read(STDIN_FILENO, rest, sizeof(rest));
	stdin_restore();
	assert_true(src.failed);
	assert_null(src.buf);
	assert_int_equal(n, 1000 - 101);
	assert_string_equal(fx->diag.errors[0].message,
			    "input larger than the limit of 100 bytes");
}

static void test_dev_zero_refused(void **state)
{
	struct fixture *fx = *state;
	struct kvet_source src = { .name = "/dev/zero", .path = "/dev/zero" };

	assert_int_equal(kvet_source_read(&src, &fx->diag, 1 << 20, 100), 1);
	assert_non_null(strstr(fx->diag.errors[0].message, "larger than"));
}

static void make_fifo(const struct fixture *fx, char *path, size_t len)
{
	sub(fx, "fifo", path, len);
	assert_int_equal(mkfifo(path, 0600), 0);
}

/* Issue 11.15: a FIFO nobody writes to is an error after the wait, not a
 * hang (opening it for reading used to block forever). */
static void test_fifo_without_writer(void **state)
{
	struct fixture *fx = *state;
	struct kvet_source src = { 0 };
	char p[256];

	make_fifo(fx, p, sizeof(p));
	src.name = src.path = p;
	assert_int_equal(kvet_source_read(&src, &fx->diag, 1024, 100), 1);
	assert_true(src.failed);
	assert_string_equal(fx->diag.errors[0].message,
			    "cannot read: no process opened the FIFO for writing within 100 ms");
}

/* A writer that opens the FIFO (blocking until kvet opens it), writes and
 * closes: read whole. */
static void test_fifo_with_writer(void **state)
{
	struct fixture *fx = *state;
	struct kvet_source src = { 0 };
	char p[256];
	pid_t pid;

	make_fifo(fx, p, sizeof(p));
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int fd = open(p, O_WRONLY);

		_exit(fd < 0 || write(fd, manifest, strlen(manifest)) < 0);
	}
	src.name = src.path = p;
	assert_int_equal(kvet_source_read(&src, &fx->diag, 1024, 10000), 0);
	reap(pid);
	assert_string_equal(src.buf, manifest);
	free(src.buf);
}

/* A writer that has the FIFO open but writes only after the wait: kvet
 * waits for it as for any pipe. The FIFO is opened before the fork, so
 * the writer is there whatever the scheduling. */
static void test_fifo_slow_writer(void **state)
{
	struct fixture *fx = *state;
	struct kvet_source src = { 0 };
	char p[256];
	pid_t pid;
	int fd;

	make_fifo(fx, p, sizeof(p));
	/* Linux opens a FIFO for reading and writing without waiting */
	fd = open(p, O_RDWR);
	assert_true(fd >= 0);
	pid = writer(fd, 3000, 300);
	close(fd);
	src.name = src.path = p;
	assert_int_equal(kvet_source_read(&src, &fx->diag, 1 << 20, 50), 0);
	reap(pid);
	assert_int_equal(src.len, 3000);
	free(src.buf);
}

/* A writer that opens the FIFO and closes it without writing: an empty
 * input, not a missing writer. */
static void test_fifo_writer_writes_nothing(void **state)
{
	struct fixture *fx = *state;
	struct kvet_source src = { 0 };
	char p[256];
	pid_t pid;

	make_fifo(fx, p, sizeof(p));
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(open(p, O_WRONLY) < 0);
	src.name = src.path = p;
	assert_int_equal(kvet_source_read(&src, &fx->diag, 1024, 10000), 0);
	reap(pid);
	assert_int_equal(src.len, 0);
	assert_int_equal(fx->diag.n, 0);
	free(src.buf);
}

/* /dev/fd/N of a process substitution whose process has finished: empty
 * at once (no writer can ever come to an unnamed pipe). */
static void test_finished_pipe_is_empty(void **state)
{
	struct fixture *fx = *state;
	struct kvet_source src = { 0 };
	char p[64];
	int fds[2];

	assert_int_equal(pipe(fds), 0);
	assert_int_equal(write(fds[1], "", 0), 0);
	close(fds[1]);
	snprintf(p, sizeof(p), "/proc/self/fd/%d", fds[0]);
	src.name = src.path = p;
	/* a wait longer than the test's timeout: waiting fails the test */
	assert_int_equal(kvet_source_read(&src, &fx->diag, 1024, 600000), 0);
	close(fds[0]);
	assert_int_equal(src.len, 0);
	free(src.buf);
}

/* Issue 11.13: "-" twice is one input, read by one thread. */
static void test_stdin_named_twice(void **state)
{
	struct fixture *fx = *state;

	assert_int_equal(kvet_sources_add_path(&fx->srcs, &fx->arena,
					       &fx->diag, "-"),
			 0);
	assert_int_equal(kvet_sources_add_path(&fx->srcs, &fx->arena,
					       &fx->diag, "-"),
			 0);
	assert_int_equal(fx->srcs.n, 1);
	assert_true(fx->srcs.v[0].is_stdin);
	assert_int_equal(fx->diag.n_notices, 1);
	assert_string_equal(fx->diag.notices[0].message,
			    "standard input is named more than once: read once");
}

/*
 * Issue 10.4: with no path, what is read depends on standard input. Each
 * case runs in the fixture's directory, whose four manifests are what "."
 * gives; returns the number of sources.
 */
static size_t add_default(struct fixture *fx, int fd, size_t max)
{
	char cwd[4096];

	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(fx->dir), 0);
	stdin_from(fd);
	assert_int_equal(kvet_sources_add_default(&fx->srcs, &fx->arena,
						  &fx->diag, max),
			 0);
	stdin_restore();
	assert_int_equal(chdir(cwd), 0);
	return fx->srcs.n;
}

static void assert_dot(const struct fixture *fx)
{
	assert_int_equal(fx->srcs.n, 4);
	assert_string_equal(fx->srcs.v[0].name, "./a.yml");
	assert_false(fx->srcs.v[0].is_stdin);
}

static void test_default_pipe_with_data(void **state)
{
	struct fixture *fx = *state;
	struct kvet_source *src;
	pid_t pid;
	int p[2];

	/* more than is read to decide, and more than a pipe holds */
	assert_int_equal(pipe(p), 0);
	pid = writer(p[1], 200000, 0);
	close(p[1]);
	stdin_from(p[0]);
	assert_int_equal(kvet_sources_add_default(&fx->srcs, &fx->arena,
						  &fx->diag, 1 << 20),
			 0);
	assert_int_equal(fx->srcs.n, 1);
	src = &fx->srcs.v[0];
	assert_string_equal(src->name, "<stdin>");
	assert_true(src->is_stdin);
	assert_int_equal(kvet_source_read(src, &fx->diag, 1 << 20, 100), 0);
	stdin_restore();
	reap(pid);
	assert_int_equal(src->len, 200000);
	assert_int_equal(strlen(src->buf), 200000);
}

/* Standard input that is no terminal is read, even empty: an empty pipe
 * is what a failed render hands on, and must not lint the directory. */
static void assert_stdin(struct fixture *fx, size_t len)
{
	assert_int_equal(fx->srcs.n, 1);
	assert_true(fx->srcs.v[0].is_stdin);
	assert_int_equal(kvet_source_read(&fx->srcs.v[0], &fx->diag, 1024, 100),
			 0);
	assert_int_equal(fx->srcs.v[0].len, len);
}

static void test_default_closed_pipe(void **state)
{
	struct fixture *fx = *state;
	int p[2];

	assert_int_equal(pipe(p), 0);
	close(p[1]);
	stdin_from(p[0]);
	assert_int_equal(kvet_sources_add_default(&fx->srcs, &fx->arena,
						  &fx->diag, 1024),
			 0);
	assert_stdin(fx, 0);
	stdin_restore();
}

static void test_default_dev_null(void **state)
{
	struct fixture *fx = *state;

	stdin_from(open("/dev/null", O_RDONLY));
	assert_int_equal(kvet_sources_add_default(&fx->srcs, &fx->arena,
						  &fx->diag, 1024),
			 0);
	assert_stdin(fx, 0);
	stdin_restore();
}

/* No descriptor 0 at all: nothing to read and nothing asked for. */
static void test_default_no_stdin(void **state)
{
	struct fixture *fx = *state;

	assert_int_equal(add_default(fx, -1, 1024), 0);
	assert_int_equal(fx->diag.n, 1);
	assert_non_null(strstr(fx->diag.errors[0].message,
			       "standard input is closed"));
}

static void test_default_files(void **state)
{
	struct fixture *fx = *state;
	char p[256];

	write_file(fx->dir, "empty", "");
	sub(fx, "empty", p, sizeof(p));
	stdin_from(open(p, O_RDONLY));
	assert_int_equal(kvet_sources_add_default(&fx->srcs, &fx->arena,
						  &fx->diag, 1024),
			 0);
	assert_stdin(fx, 0);
	stdin_restore();
	kvet_sources_release(&fx->srcs);
	sub(fx, "z.yaml", p, sizeof(p));
	stdin_from(open(p, O_RDONLY));
	assert_int_equal(kvet_sources_add_default(&fx->srcs, &fx->arena,
						  &fx->diag, 1024),
			 0);
	assert_stdin(fx, 5);
	stdin_restore();
	assert_memory_equal(fx->srcs.v[0].buf, "a: 1\n", 5);
}

/* A terminal is never read: it would wait for typing. */
static void test_default_terminal(void **state)
{
	struct fixture *fx = *state;
	int master = posix_openpt(O_RDWR | O_NOCTTY), fd;
	const char *name;

	if (master < 0 || grantpt(master) || unlockpt(master) ||
	    !(name = ptsname(master)))
		skip();
	fd = open(name, O_RDONLY | O_NOCTTY);
	assert_true(fd >= 0);
	add_default(fx, fd, 1024);
	close(master);
	assert_dot(fx);
}

/* What is read to decide counts against the limit. */
static void test_default_limit(void **state)
{
	struct fixture *fx = *state;
	char text[1000] = { 0 };
	int p[2];

	assert_int_equal(pipe(p), 0);
	assert_int_equal(write(p[1], text, sizeof(text)), sizeof(text));
	close(p[1]);
	stdin_from(p[0]);
	assert_int_equal(kvet_sources_add_default(&fx->srcs, &fx->arena,
						  &fx->diag, 10),
			 0);
	assert_int_equal(kvet_source_read(&fx->srcs.v[0], &fx->diag, 10, 100),
			 1);
	stdin_restore();
	assert_non_null(strstr(fx->diag.errors[0].message, "larger than"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
		T(test_directory_sorted_recursive),
		T(test_symlink_loop),
		T(test_missing_path),
		T(test_explicit_file_any_extension),
		T(test_size_limit),
		T(test_unreadable_file),
		T(test_buffer),
		T(test_read_stops_at_limit),
		T(test_dev_zero_refused),
		T(test_fifo_without_writer),
		T(test_fifo_with_writer),
		T(test_fifo_slow_writer),
		T(test_fifo_writer_writes_nothing),
		T(test_finished_pipe_is_empty),
		T(test_stdin_named_twice),
		T(test_default_pipe_with_data),
		T(test_default_closed_pipe),
		T(test_default_dev_null),
		T(test_default_no_stdin),
		T(test_default_files),
		T(test_default_terminal),
		T(test_default_limit),
#undef T
	};

	return cmocka_run_group_tests_name("sources", tests, NULL, NULL);
}
