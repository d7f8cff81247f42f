/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Running a renderer: posix_spawn, no shell, standard input from
 * /dev/null, both output pipes read together (poll) so that neither a
 * large render nor a chatty stderr can fill its pipe and stall helm.
 */
#include "input/render.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* Enough of a renderer's error message to quote it. */
#define ERR_MAX 8192u

const char *kvet_render_find(struct kvet_arena *arena, const char *prog)
{
	const char *path = getenv("PATH"), *p, *end;
	char *cand;

	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0 ? prog : NULL;
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path; *p; p = *end ? end + 1 : end) {
		end = strchr(p, ':');
		if (!end)
			end = p + strlen(p);
		cand = kvet_arena_printf(arena, "%.*s/%s",
					 end > p ? (int)(end - p) : 1,
					 end > p ? p : ".", prog);
		if (cand && access(cand, X_OK) == 0)
			return cand;
	}
	return NULL;
}

struct sink {
	char *buf;
	size_t len, cap, max;
	bool over;		/* more than max came; the rest is dropped */
};

static int sink_add(struct sink *s, const char *data, size_t n)
{
	if (s->len + n > s->max) {
		s->over = true;
		n = s->max > s->len ? s->max - s->len : 0;
	}
	if (s->len + n + 1 > s->cap) {
		size_t cap = s->cap ? s->cap : 65536;
		char *nb;

		while (cap < s->len + n + 1)
			cap *= 2;
		nb = realloc(s->buf, cap);
		if (!nb)
			return -1;
		s->buf = nb;
		s->cap = cap;
	}
	memcpy(s->buf + s->len, data, n);
	s->len += n;
	s->buf[s->len] = '\0';
	return 0;
}

/*
 * Read both pipes to their end. Each is closed at its end here and set
 * to -1 in @fd, so that the caller closes only what is still open: a
 * second close() of a number that another thread's pipe2() or open()
 * has taken since closes that one instead (a render on another thread
 * then lost its standard error: "helm template failed (exit status 1):
 * (no message)", seen under load).
 * Returns 0, or -1 when out of memory.
 */
static int drain_pipes(int fd[2], struct sink *out, struct sink *err)
{
	struct pollfd pfd[2] = { { fd[0], POLLIN, 0 }, { fd[1], POLLIN, 0 } };
	struct sink *sinks[2] = { out, err };
	char chunk[65536];
	int open_fds = 2, i;

	while (open_fds) {
		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return 0;
		}
		for (i = 0; i < 2; i++) {
			ssize_t n;

			if (pfd[i].fd < 0 || !pfd[i].revents)
				continue;
			n = read(pfd[i].fd, chunk, sizeof(chunk));
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				close(pfd[i].fd);
				pfd[i].fd = fd[i] = -1;
				open_fds--;
				continue;
			}
			if (sink_add(sinks[i], chunk, (size_t)n) < 0)
				return -1;
		}
		/* an endless render costs @max bytes, then stops */
		if (out->over)
			return 0;
	}
	return 0;
}

/*
 * POSIX.1-2024 has pipe2(); glibc (2.9 on) and musl have had it for years
 * but declare it only under _GNU_SOURCE, and no define in this file can
 * ask for that: the force-included base/banned.h includes <stdio.h> first,
 * which settles the feature macros (-D_POSIX_C_SOURCE=200809L
 * -D_DEFAULT_SOURCE) before this file's first line. So it is declared
 * here, as POSIX writes it.
 */
int pipe2(int fd[2], int flags);

/*
 * A pipe that no other child inherits: both ends close on exec from the
 * moment they exist. pipe() followed by fcntl(FD_CLOEXEC) left a window
 * in which a render spawned by another thread (renders run on the worker
 * threads) inherited this pipe's write end: this reader then saw no end
 * of file until that other child exited.
 */
static int pipe_cloexec(int p[2])
{
	if (pipe2(p, O_CLOEXEC) < 0) {
		p[0] = p[1] = -1;
		return -1;
	}
	return 0;
}

int kvet_render_run(const char *const *argv, size_t max, char **out,
		    size_t *len, char **err, int *status, bool *too_large)
{
	struct sink so = { .max = max }, se = { .max = ERR_MAX };
	posix_spawn_file_actions_t fa;
	int po[2] = { -1, -1 }, pe[2] = { -1, -1 }, rd[2], rc, ws, ret = -1;
	pid_t pid;

	*out = *err = NULL;
	*len = 0;
	*status = -1;
	*too_large = false;
	if (pipe_cloexec(po) < 0 || pipe_cloexec(pe) < 0) {
		rc = errno;
		goto spawn_failed;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null",
					 O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, po[1], STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, pe[1], STDERR_FILENO);
	rc = posix_spawn(&pid, argv[0], &fa, NULL, (char *const *)argv,
			 environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc)
		goto spawn_failed;
	close(po[1]);
	close(pe[1]);
	rd[0] = po[0];
	rd[1] = pe[0];
	if (drain_pipes(rd, &so, &se) < 0) {
		kill(pid, SIGKILL);
		goto reap;
	}
	if (so.over)
		kill(pid, SIGKILL);
	ret = 0;
reap:
	for (ws = 0; ws < 2; ws++)
		if (rd[ws] >= 0)
			close(rd[ws]);
	while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
		;
	*status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
	*too_large = so.over;
	if (ret < 0 || (!so.buf && sink_add(&so, "", 0) < 0) ||
	    (!se.buf && sink_add(&se, "", 0) < 0)) {
		free(so.buf);
		free(se.buf);
		return -1;
	}
	*out = so.buf;
	*len = so.len;
	*err = se.buf;
	return 0;
spawn_failed:
	for (ws = 0; ws < 2; ws++) {
		if (po[ws] >= 0)
			close(po[ws]);
		if (pe[ws] >= 0)
			close(pe[ws]);
	}
	*err = strdup(strerror(rc));
	return *err ? 0 : -1;
}

static bool digits(const char *s, size_t n)
{
	while (n--)
		if (!isdigit((unsigned char)*s++))
			return false;
	return true;
}

/* The length of the klog header that starts @s ("I1204 02:02:38.373641
 *   14864 log.go:245] "), or 0. kustomize and client-go log through
 * klog; its time and pid differ on every run, and a report that quotes
 * them would never be byte-stable. */
static size_t klog_header(const char *s)
{
	const char *p = s;

	if (!strchr("IWEF", *p) || !digits(p + 1, 4) || p[5] != ' ' ||
	    !digits(p + 6, 2) || p[8] != ':' || !digits(p + 9, 2) ||
	    p[11] != ':' || !digits(p + 12, 2) || p[14] != '.' ||
	    !digits(p + 15, 6) || p[21] != ' ')
		return 0;
	for (p += 21; *p == ' '; p++)
		;
	if (!isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p++ != ' ')
		return 0;
	while (*p && *p != ' ' && *p != '\n' && *p != ']')
		p++;
	if (p[0] != ']' || p[1] != ' ')
		return 0;
	return (size_t)(p + 2 - s);
}

/* The tool's message on one line: "; " between its lines, each without
 * its klog header. */
char *kvet_render_one_line(struct kvet_arena *arena, char *s)
{
	size_t n = strlen(s), i, lines = 0;
	char *r, *o;

	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' '))
		s[--n] = '\0';
	for (i = 0; i < n; i++)
		lines += s[i] == '\n';
	r = kvet_arena_alloc(arena, n + lines + 1);
	if (!r)
		return s;
	for (i = 0, o = r; i < n; i++) {
		if (i == 0 || s[i - 1] == '\n')
			i += klog_header(s + i);
		if (i >= n)
			break;
		if (s[i] == '\r')
			continue;
		if (s[i] == '\n' && (o == r || (o - r >= 2 && o[-2] == ';' &&
						       o[-1] == ' ')))
			continue;	/* a blank line */
		if (s[i] == '\n') {
			*o++ = ';';
			*o++ = ' ';
		} else {
			*o++ = s[i];
		}
	}
	*o = '\0';
	return r;
}
