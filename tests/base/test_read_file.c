/* SPDX-License-Identifier: Apache-2.0 */
/* kvet_file_read(): whole files, the size limit, devices and FIFOs. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/read_file.h"

static char dir[] = "/tmp/kvet-read-XXXXXX";

static const char *path_of(const char *name)
{
	static char path[64];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

static void write_file(const char *name, const char *text)
{
	FILE *fp = fopen(path_of(name), "w");

	assert_non_null(fp);
	assert_int_equal(fputs(text, fp) >= 0, 1);
	assert_int_equal(fclose(fp), 0);
}

static void test_regular_files(void **state)
{
	struct kvet_file f;

	(void)state;
	write_file("a.yaml", "a: 1\nb: 2\n");
	assert_int_equal(kvet_file_read(path_of("a.yaml"), 100, &f),
			 KVET_FILE_OK);
	assert_int_equal(f.len, 10);
	assert_string_equal(f.buf, "a: 1\nb: 2\n");
	free(f.buf);
	/* exactly the limit is fine */
	assert_int_equal(kvet_file_read(path_of("a.yaml"), 10, &f),
			 KVET_FILE_OK);
	free(f.buf);
	write_file("empty.yaml", "");
	assert_int_equal(kvet_file_read(path_of("empty.yaml"), 10, &f),
			 KVET_FILE_OK);
	assert_int_equal(f.len, 0);
	assert_string_equal(f.buf, "");
	free(f.buf);
}

/* One byte over: the position of that byte, on its line. */
static void test_limit_position(void **state)
{
	struct kvet_file f;

	(void)state;
	assert_int_equal(kvet_file_read(path_of("a.yaml"), 9, &f),
			 KVET_FILE_TOO_LARGE);
	assert_null(f.buf);
	assert_int_equal(f.line, 2);
	assert_int_equal(f.column, 5);
	assert_int_equal(kvet_file_read(path_of("a.yaml"), 5, &f),
			 KVET_FILE_TOO_LARGE);
	assert_int_equal(f.line, 2);
	assert_int_equal(f.column, 1);
	/* a device that never ends costs the limit, not all memory */
	assert_int_equal(kvet_file_read("/dev/zero", 100000, &f),
			 KVET_FILE_TOO_LARGE);
	assert_int_equal(f.line, 1);
	assert_int_equal(f.column, 100001);
}

static void test_errors(void **state)
{
	struct kvet_file f;

	(void)state;
	assert_int_equal(kvet_file_read(path_of("missing.yaml"), 10, &f),
			 KVET_FILE_CANNOT_OPEN);
	assert_int_equal(f.err, ENOENT);
	assert_int_equal(kvet_file_read(dir, 10, &f), KVET_FILE_CANNOT_READ);
	assert_int_equal(f.err, EISDIR);
	assert_int_equal(kvet_file_read("/dev/null", 10, &f), KVET_FILE_OK);
	assert_int_equal(f.len, 0);
	free(f.buf);
}

/* A FIFO: no writer is an answer at once; a writer's data is read. */
static void test_fifo(void **state)
{
	struct kvet_file f;
	int wfd, rfd;

	(void)state;
	assert_int_equal(mkfifo(path_of("fifo"), 0600), 0);
	assert_int_equal(kvet_file_read(path_of("fifo"), 10, &f),
			 KVET_FILE_NO_WRITER);
	/* a writer with data already in the pipe: hold a reader open so
	 * that the writer's open does not wait, write, close the writer */
	rfd = open(path_of("fifo"), O_RDONLY | O_NONBLOCK);
	assert_true(rfd >= 0);
	wfd = open(path_of("fifo"), O_WRONLY | O_NONBLOCK);
	assert_true(wfd >= 0);
	assert_int_equal(write(wfd, "k: v\n", 5), 5);
	assert_int_equal(close(wfd), 0);
	assert_int_equal(kvet_file_read(path_of("fifo"), 10, &f),
			 KVET_FILE_OK);
	assert_string_equal(f.buf, "k: v\n");
	free(f.buf);
	close(rfd);
}

static int cleanup(void **state)
{
	(void)state;
	unlink(path_of("a.yaml"));
	unlink(path_of("empty.yaml"));
	unlink(path_of("fifo"));
	rmdir(dir);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regular_files),
		cmocka_unit_test(test_limit_position),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_fifo),
	};

	if (!mkdtemp(dir))
		return 1;
	return cmocka_run_group_tests(tests, NULL, cleanup);
}
