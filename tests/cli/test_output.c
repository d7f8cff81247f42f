/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Report files (issue 22 item 4), at the level of cli/output.c: a signal
 * during an atomic write removes the temporary file (the writer kills
 * itself in the middle of the report: no timing involved), a FIFO without
 * a reader is an error after the wait it is given, a reader gone is no
 * failure, a regular file under /dev/shm is replaced, and two reports to
 * one file are refused, however the file is named.
 */
#include "support.h"

#include <dirent.h>
#include <fcntl.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/output.h"

static char dir[] = "/tmp/kvet-test-output.XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

static char *in_dir(const char *name)
{
	static char path[4][256];
	static int i;

	i = (i + 1) % 4;
	snprintf(path[i], sizeof(path[i]), "%s/%s", dir, name);
	return path[i];
}

static void put(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
}

static char *slurp(const char *path)
{
	static char buf[4096];
	FILE *fp = fopen(path, "r");
	size_t n;

	if (!fp)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return buf;
}

/* Is a PATH.tmp.XXXXXX left in the directory? */
static bool leftovers(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool found = false;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL)
		if (strstr(e->d_name, ".tmp."))
			found = true;
	closedir(d);
	return found;
}

static int write_text(const void *data, FILE *fp)
{
	return fputs(data, fp) < 0 ? -1 : 0;
}

/* Half a report, then the signal in @data, sent to itself. */
static int write_then_die(const void *data, FILE *fp)
{
	fputs("{\"half\": ", fp);
	fflush(fp);
	kill(getpid(), *(const int *)data);
	return fputs("\"the rest\"}\n", fp) < 0 ? -1 : 0;
}

/* In a child: write r.json, sending @sig to itself mid-way, with @sig
 * ignored beforehand when @ignored. Returns the child's wait status. */
static int write_killed(int sig, bool ignored)
{
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		FILE *err = fopen("/dev/null", "w");

		signal(sig, ignored ? SIG_IGN : SIG_DFL);
		_exit(kvet_output_write_atomic(in_dir("r.json"),
					       write_then_die, &sig, 0, err)
			      ? 1
			      : 0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return status;
}

static void test_signal_removes_temporary(void **state)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP };
	size_t i;
	int status;

	(void)state;
	for (i = 0; i < 3; i++) {
		put(in_dir("r.json"), "old\n");
		status = write_killed(sigs[i], false);
		/* ended by the signal itself, as without the handler */
		assert_true(WIFSIGNALED(status));
		assert_int_equal(WTERMSIG(status), sigs[i]);
		assert_false(leftovers());
		assert_string_equal(slurp(in_dir("r.json")), "old\n");
	}
}

static void test_ignored_signal_stays_ignored(void **state)
{
	int status;

	(void)state;
	put(in_dir("r.json"), "old\n");
	status = write_killed(SIGTERM, true);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_string_equal(slurp(in_dir("r.json")),
			    "{\"half\": \"the rest\"}\n");
	assert_false(leftovers());
}

static void test_fifo_without_reader(void **state)
{
	char *msg = NULL;
	size_t len = 0;
	FILE *err = open_memstream(&msg, &len);

	(void)state;
	assert_int_equal(mkfifo(in_dir("fifo"), 0600), 0);
	assert_int_equal(kvet_output_write_atomic(in_dir("fifo"), write_text,
						  "report\n", 20, err),
			 -1);
	fclose(err);
	assert_non_null(strstr(msg, "cannot write '"));
	assert_non_null(strstr(msg, "/fifo': no process opened the FIFO for reading within 20 ms\n"));
	free(msg);
	/* still a FIFO, nothing made beside it */
	assert_true(access(in_dir("fifo"), F_OK) == 0);
	assert_false(leftovers());
	unlink(in_dir("fifo"));
}

/* A pipe whose reader is gone, named /dev/fd/N: as on standard output,
 * the reader's choice, not a failure. */
static void test_reader_gone(void **state)
{
	char path[64], *msg = NULL;
	size_t len = 0;
	FILE *err = open_memstream(&msg, &len);
	void (*old)(int) = signal(SIGPIPE, SIG_IGN);
	int fds[2];

	(void)state;
	assert_int_equal(pipe(fds), 0);
	close(fds[0]);
	snprintf(path, sizeof(path), "/dev/fd/%d", fds[1]);
	assert_int_equal(kvet_output_write_atomic(path, write_text,
						  "report\n", 0, err),
			 0);
	fclose(err);
	assert_int_equal(len, 0);
	free(msg);
	close(fds[1]);
	signal(SIGPIPE, old);
}

/* /dev/shm is a directory of regular files: replaced, never appended to,
 * and created when missing. */
static void test_dev_shm(void **state)
{
	char path[64];
	FILE *err = fopen("/dev/null", "w");

	(void)state;
	if (access("/dev/shm", W_OK)) {
		fclose(err);
		skip();
	}
	snprintf(path, sizeof(path), "/dev/shm/kvet-test-%ld.json",
		 (long)getpid());
	unlink(path);
	assert_int_equal(kvet_output_write_atomic(path, write_text, "first\n",
						  0, err),
			 0);
	assert_string_equal(slurp(path), "first\n");
	assert_int_equal(kvet_output_write_atomic(path, write_text, "second\n",
						  0, err),
			 0);
	assert_string_equal(slurp(path), "second\n");
	unlink(path);
	fclose(err);
}

/* kvet_output_check_reports() on @n reports "FMT=PATH" (PATH "-": standard
 * output) and @baseline; the message in *@msg. */
static int check(const char *const *reports, size_t n, const char *baseline,
		 char **msg)
{
	struct kvet_args args;
	size_t len = 0, i;
	FILE *err = open_memstream(msg, &len);
	int rc;

	memset(&args, 0, sizeof(args));
	for (i = 0; i < n; i++) {
		const char *eq = strchr(reports[i], '=');
		char name[16];

		memcpy(name, reports[i], (size_t)(eq - reports[i]));
		name[eq - reports[i]] = '\0';
		assert_int_equal(kvet_format_from_name(name,
						       &args.outputs[i].format),
				 0);
		args.outputs[i].path = strcmp(eq + 1, "-") ? eq + 1 : NULL;
	}
	args.n_outputs = n;
	args.write_baseline = baseline;
	rc = kvet_output_check_reports(&args, err);
	fclose(err);
	return rc;
}

static void test_two_reports_one_file(void **state)
{
	char rel[256], *msg;
	char a[300], b[300];
	const char *pair[2] = { a, b };

	(void)state;
	/* a new file named twice */
	snprintf(a, sizeof(a), "json=%s", in_dir("new.json"));
	snprintf(b, sizeof(b), "sarif=%s", in_dir("new.json"));
	assert_int_equal(check(pair, 2, NULL, &msg), -1);
	assert_non_null(strstr(msg, "kvet: error: two reports to one file: '--format json="));
	assert_non_null(strstr(msg, "' and '--format sarif="));
	free(msg);
	/* by a symbolic link and a spelling with "." and ".." */
	put(in_dir("r.json"), "old\n");
	assert_int_equal(symlink("r.json", in_dir("link.json")), 0);
	snprintf(rel, sizeof(rel), "%s/./../%s/r.json", dir,
		 strrchr(dir, '/') + 1);
	snprintf(a, sizeof(a), "json=%s", rel);
	snprintf(b, sizeof(b), "sarif=%s", in_dir("link.json"));
	assert_int_equal(check(pair, 2, NULL, &msg), -1);
	free(msg);
	/* a report and the baseline */
	assert_int_equal(check(pair, 1, in_dir("link.json"), &msg), -1);
	assert_non_null(strstr(msg, "' and '--write-baseline "));
	free(msg);
	/* two files, and /dev/null twice (a device loses nothing) */
	snprintf(b, sizeof(b), "sarif=%s", in_dir("other.json"));
	assert_int_equal(check(pair, 2, in_dir("base.yaml"), &msg), 0);
	assert_string_equal(msg, "");
	free(msg);
	snprintf(a, sizeof(a), "json=/dev/null");
	snprintf(b, sizeof(b), "sarif=/dev/null");
	assert_int_equal(check(pair, 2, NULL, &msg), 0);
	free(msg);
	unlink(in_dir("link.json"));
}

/* /dev/stdout is standard output: named beside a report to it, when it
 * is a file. */
static void test_dev_stdout_is_stdout(void **state)
{
	const char *pair[] = { "json=/dev/stdout", "text=-" };
	int saved = dup(STDOUT_FILENO), fd;
	char *msg;
	int rc;

	(void)state;
	fd = open(in_dir("stdout.txt"), O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0 && saved >= 0);
	fflush(stdout);
	dup2(fd, STDOUT_FILENO);
	rc = check(pair, 2, NULL, &msg);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	close(fd);
	assert_int_equal(rc, -1);
	assert_non_null(strstr(msg, "'--format json=/dev/stdout' and '--format text (standard output)'"));
	free(msg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_signal_removes_temporary),
		cmocka_unit_test(test_ignored_signal_stays_ignored),
		cmocka_unit_test(test_fifo_without_reader),
		cmocka_unit_test(test_reader_gone),
		cmocka_unit_test(test_dev_shm),
		cmocka_unit_test(test_two_reports_one_file),
		cmocka_unit_test(test_dev_stdout_is_stdout),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
