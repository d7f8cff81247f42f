/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvet lint --cluster, kvet drain --cluster: the dump comes from the
 * kubectl that called the plugin, run with posix_spawnp (no shell, so
 * no quoting of --context values), its standard output and error read
 * together with poll() so that neither pipe fills while the other is
 * waited on.
 */
#include "cli/cluster.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* kubectl's error is quoted, not kept whole: its first KiBs say it. */
#define ERR_KEEP 4096

struct capture {
	char *data;
	size_t len, cap;
	size_t max;		/* more than this: too big */
	bool over;
};

static int capture_add(struct capture *c, const char *buf, size_t n)
{
	size_t want;
	char *grown;

	if (c->len + n > c->max) {
		c->over = true;
		n = c->max - c->len;
	}
	if (c->len + n + 1 > c->cap) {
		want = c->cap ? c->cap : 65536;
		while (want < c->len + n + 1)
			want *= 2;
		grown = realloc(c->data, want);
		if (!grown)
			return -1;
		c->data = grown;
		c->cap = want;
	}
	memcpy(c->data + c->len, buf, n);
	c->len += n;
	c->data[c->len] = '\0';
	return 0;
}

/* kubectl [--context C] [--kubeconfig K] get RESOURCES (-A | --namespace NS) -o json */
static size_t build_argv(const struct kvet_args *args, const char *kubectl,
			 char **argv)
{
	size_t n = 0;

	argv[n++] = (char *)kubectl;
	if (args->kube_context) {
		argv[n++] = (char *)"--context";
		argv[n++] = (char *)args->kube_context;
	}
	if (args->kubeconfig) {
		argv[n++] = (char *)"--kubeconfig";
		argv[n++] = (char *)args->kubeconfig;
	}
	argv[n++] = (char *)"get";
	argv[n++] = (char *)KVET_CLUSTER_RESOURCES;
	if (args->namespace_given) {
		argv[n++] = (char *)"--namespace";
		argv[n++] = (char *)args->opts.default_namespace;
	} else {
		argv[n++] = (char *)"-A";
	}
	argv[n++] = (char *)"-o";
	argv[n++] = (char *)"json";
	argv[n] = NULL;
	return n;
}

/* Read both pipes to their end; -1 when out of memory or poll fails. */
static int read_both(int out_fd, int err_fd, struct capture *out,
		     struct capture *errs)
{
	struct pollfd fds[2] = { { out_fd, POLLIN, 0 }, { err_fd, POLLIN, 0 } };
	struct capture *to[2] = { out, errs };
	char buf[65536];
	ssize_t got;
	int open = 2, i;

	while (open) {
		if (poll(fds, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		for (i = 0; i < 2; i++) {
			if (fds[i].fd < 0 || !fds[i].revents)
				continue;
			got = read(fds[i].fd, buf, sizeof(buf));
			if (got < 0 && errno == EINTR)
				continue;
			if (got <= 0) {
				fds[i].fd = -1;
				open--;
			} else if (!to[i]->over &&
				   capture_add(to[i], buf, (size_t)got)) {
				return -1;
			}
		}
	}
	return 0;
}

/* "kubectl: LINE" for each line kubectl wrote to its standard error. */
static void quote_lines(const char *text, FILE *err)
{
	const char *nl;

	while (*text) {
		nl = strchr(text, '\n');
		fprintf(err, "kvet:   kubectl: %.*s\n",
			(int)(nl ? nl - text : (long)strlen(text)), text);
		if (!nl)
			break;
		text = nl + 1;
	}
}

/* Neither end may reach kubectl but through the dup2() below. */
static int cloexec_pipe(int fds[2])
{
	if (pipe(fds))
		return -1;
	if (fcntl(fds[0], F_SETFD, FD_CLOEXEC) ||
	    fcntl(fds[1], F_SETFD, FD_CLOEXEC))
		return -1;
	return 0;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static int spawn_kubectl(const char *kubectl, char **argv, int out[2],
			 int errp[2], pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	int rc;

	if (posix_spawn_file_actions_init(&fa))
		return ENOMEM;
	/* the dup2()s clear close-on-exec; the pipes' other ends keep it */
	rc = posix_spawn_file_actions_adddup2(&fa, out[1], STDOUT_FILENO);
	if (!rc)
		rc = posix_spawn_file_actions_adddup2(&fa, errp[1],
						      STDERR_FILENO);
	if (!rc)
		rc = posix_spawnp(pid, kubectl, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	return rc;
}

int kvet_cli_cluster_add(struct kvet_ctx *ctx, const struct kvet_args *args,
			 FILE *err)
{
	const char *kubectl = getenv("KUBECTL");
	char *argv[16];
	int out[2] = { -1, -1 }, errp[2] = { -1, -1 };
	struct capture got = { NULL, 0, 0, 0, false };
	struct capture msg = { NULL, 0, 0, ERR_KEEP, false };
	int code = KVET_EXIT_INPUT, status = 0, rc;
	pid_t pid;

	if (!kubectl || !*kubectl)
		kubectl = "kubectl";
	got.max = args->opts.max_file_size ? args->opts.max_file_size
					   : KVET_INPUT_SIZE_DEFAULT;
	build_argv(args, kubectl, argv);
	if (cloexec_pipe(out) || cloexec_pipe(errp)) {
		fprintf(err, "kvet: error: cannot run %s: %s\n", kubectl,
			strerror(errno));
		goto out;
	}
	rc = spawn_kubectl(kubectl, argv, out, errp, &pid);
	close_fd(&out[1]);
	close_fd(&errp[1]);
	if (rc) {
		fprintf(err, "kvet: error: cannot run %s: %s\n"
			     "kvet: hint: --cluster runs kubectl from PATH, or the program KUBECTL names\n",
			kubectl, strerror(rc));
		goto out;
	}
	rc = read_both(out[0], errp[0], &got, &msg);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (rc) {
		fprintf(err, "kvet: error: reading %s's output: %s\n", kubectl,
			strerror(errno ? errno : ENOMEM));
		goto out;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		if (WIFEXITED(status))
			fprintf(err, "kvet: error: cluster: '%s get' failed (exit %d):\n",
				kubectl, WEXITSTATUS(status));
		else
			fprintf(err, "kvet: error: cluster: '%s get' was killed (signal %d)\n",
				kubectl, WTERMSIG(status));
		if (msg.len)
			quote_lines(msg.data, err);
		goto out;
	}
	if (got.over) {
		fprintf(err, "kvet: error: cluster: %s printed more than the input size limit (%zu bytes; --max-input-size)\n",
			kubectl, got.max);
		goto out;
	}
	kvet_ctx_set_complete_input(ctx, true);
	if (kvet_ctx_add_buffer(ctx, "cluster", got.data ? got.data : "",
				got.len)) {
		fprintf(err, "kvet: error: %s\n", strerror(ENOMEM));
		code = KVET_EXIT_USAGE;
		goto out;
	}
	code = 0;
out:
	close_fd(&out[0]);
	close_fd(&out[1]);
	close_fd(&errp[0]);
	close_fd(&errp[1]);
	free(got.data);
	free(msg.data);
	return code;
}
