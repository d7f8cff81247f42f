/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_CLI_PROGRESS_H
#define KVET_CLI_PROGRESS_H

#include <stdbool.h>
#include <stdio.h>

#include "kvet/kvet.h"

/*
 * A one-line progress display on a terminal for large inputs: files and
 * megabytes while loading, objects while linting. It overwrites itself
 * and is erased at the end, and never appears in pipes, files or CI logs.
 */
struct kvet_cli_progress {
	FILE *fp;
	bool shown;
};

/* Should a run show progress on @fp (a terminal, not CI, not quiet)? */
bool kvet_cli_progress_wanted(FILE *fp, bool quiet);

/* The kvet_progress_fn; @user is a struct kvet_cli_progress. */
void kvet_cli_progress_show(void *user, const struct kvet_progress *p);

/* Erase the line if it was shown. */
void kvet_cli_progress_end(struct kvet_cli_progress *st);

#endif
