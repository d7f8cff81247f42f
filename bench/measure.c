/* SPDX-License-Identifier: Apache-2.0 */
/*
 * measure - run a command and report its wall time and peak memory.
 *
 * Usage: measure OUTFILE -- CMD [ARGS...]
 *
 * CMD runs with stdin from /dev/null and stdout and stderr sent to
 * /dev/null, so that printing its report costs nothing measurable. One
 * line goes to OUTFILE ("-" for stdout):
 *
 *	wall_s=1.234567 cpu_s=2.100000 maxrss_kib=117000 status=0
 *
 * cpu_s is user plus system time of CMD and its threads: on a shared
 * machine it moves less with the load than the wall time does.
 * status is the exit code, or 128 + the signal number when CMD was killed,
 * as a shell reports it. measure itself exits 0 when it could run CMD and
 * 125 (126, 127 for exec failures, as the shell does) when it could not.
 * It replaces /usr/bin/time, which is not installed everywhere.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double tv_s(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

/* In the child: quiet stdio, then become CMD. Never returns. */
static void run_child(char **cmd)
{
	int fd = open("/dev/null", O_RDWR);

	if (fd < 0 || dup2(fd, 0) < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
		_exit(125);
	if (fd > 2)
		close(fd);
	execvp(cmd[0], cmd);
	_exit(errno == ENOENT ? 127 : 126);
}

int main(int argc, char **argv)
{
	struct rusage ru;
	double start, wall;
	int status, code;
	FILE *out;
	pid_t pid;

	if (argc < 4 || strcmp(argv[2], "--")) {
		fputs("usage: measure OUTFILE -- CMD [ARGS...]\n", stderr);
		return 125;
	}
	/* open it first: a bad OUTFILE should not cost a whole run */
	out = strcmp(argv[1], "-") ? fopen(argv[1], "w") : stdout;
	if (!out) {
		fprintf(stderr, "measure: %s: %s\n", argv[1], strerror(errno));
		return 125;
	}

	fflush(NULL);
	start = now();
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "measure: fork: %s\n", strerror(errno));
		return 125;
	}
	if (pid == 0)
		run_child(argv + 3);
	while (wait4(pid, &status, 0, &ru) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "measure: wait4: %s\n", strerror(errno));
			return 125;
		}
	}
	wall = now() - start;

	if (WIFEXITED(status))
		code = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		code = 128 + WTERMSIG(status);
	else
		code = 125;
	if (code == 126 || code == 127) {
		fprintf(stderr, "measure: cannot run %s\n", argv[3]);
		return code;
	}
	/* ru_maxrss is in KiB on Linux */
	fprintf(out, "wall_s=%.6f cpu_s=%.6f maxrss_kib=%ld status=%d\n",
		wall, tv_s(&ru.ru_utime) + tv_s(&ru.ru_stime), ru.ru_maxrss,
		code);
	if (fflush(out) || (out != stdout && fclose(out))) {
		fprintf(stderr, "measure: %s: write error\n", argv[1]);
		return 125;
	}
	return 0;
}
