/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The temporary file of a report being written, removed when Ctrl-C or a
 * kill ends kvet before it is renamed (PATH.tmp.XXXXXX left behind).
 *
 * This is kvet's one piece of global state, and it cannot be otherwise:
 * a signal handler gets no argument but the signal, so what it removes
 * must be in static storage, and it may only call async-signal-safe
 * functions (unlink, sigaction, raise): no malloc, no stdio. So it holds
 * just that: the path, in a fixed buffer, and a flag saying whether it is
 * set. Both change only with the signals blocked, so the handler never
 * sees half a path. Reports are written one after the other: one path is
 * enough.
 */
#include "cli/tmpfile.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const int signals[] = { SIGINT, SIGTERM, SIGHUP };
#define N_SIGNALS (sizeof(signals) / sizeof(signals[0]))

static char tmp_path[PATH_MAX];
static volatile sig_atomic_t armed;
static struct sigaction before[N_SIGNALS];

static void on_signal(int sig)
{
	struct sigaction dfl;

	if (armed)
		unlink(tmp_path);
	armed = 0;
	/* die of @sig as without the handler: it is blocked until the
	 * handler returns, then delivered with the default action */
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigaction(sig, &dfl, NULL);
	raise(sig);
}

static void block(sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < N_SIGNALS; i++)
		sigaddset(&set, signals[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

int kvet_tmpfile_create(char *tmpl)
{
	struct sigaction sa;
	sigset_t old;
	size_t i;
	int fd, saved;

	if (strlen(tmpl) >= sizeof(tmp_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigfillset(&sa.sa_mask);
	block(&old);
	fd = mkstemp(tmpl);
	saved = errno;
	if (fd >= 0) {
		memcpy(tmp_path, tmpl, strlen(tmpl) + 1);
		/* the whole path before the flag, for the compiler too */
		atomic_signal_fence(memory_order_seq_cst);
		armed = 1;
		for (i = 0; i < N_SIGNALS; i++) {
			sigaction(signals[i], NULL, &before[i]);
			/* nohup, or "kvet &" in a script: stay ignored */
			if (before[i].sa_handler != SIG_IGN)
				sigaction(signals[i], &sa, NULL);
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	errno = saved;
	return fd;
}

void kvet_tmpfile_forget(void)
{
	sigset_t old;
	size_t i;

	block(&old);
	if (armed)
		for (i = 0; i < N_SIGNALS; i++)
			sigaction(signals[i], &before[i], NULL);
	armed = 0;
	sigprocmask(SIG_SETMASK, &old, NULL);
}
