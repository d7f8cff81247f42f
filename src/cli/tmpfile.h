/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_CLI_TMPFILE_H
#define KVET_CLI_TMPFILE_H

/**
 * kvet_tmpfile_create() - mkstemp(@tmpl), removed if a signal ends kvet.
 * @tmpl: "PATH.tmp.XXXXXX", completed as mkstemp() does.
 *
 * Until kvet_tmpfile_forget(), SIGINT, SIGTERM or SIGHUP (each unless it
 * was ignored when kvet started) unlinks the file, then ends kvet by the
 * same signal, as if the handler had not been there. One file at a time.
 * Returns: the descriptor, or -1 with errno set.
 */
int kvet_tmpfile_create(char *tmpl);

/* The file was renamed or removed: a signal ends kvet as before. */
void kvet_tmpfile_forget(void);

#endif
