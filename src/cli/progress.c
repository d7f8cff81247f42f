/* SPDX-License-Identifier: Apache-2.0 */
#include "cli/progress.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Below these a run takes well under a second: no display. */
#define LARGE_BYTES (4u * 1024 * 1024)
#define LARGE_OBJECTS 3000

bool kvet_cli_progress_wanted(FILE *fp, bool quiet)
{
	const char *term = getenv("TERM");
	const char *ci = getenv("CI");

	if (quiet || !isatty(fileno(fp)))
		return false;
	/* some CI systems run jobs on a pseudo-terminal and log it */
	if ((ci && *ci) || (term && strcmp(term, "dumb") == 0))
		return false;
	return true;
}

void kvet_cli_progress_show(void *user, const struct kvet_progress *p)
{
	struct kvet_cli_progress *st = user;
	const double mb = 1024.0 * 1024.0;

	if (!st->shown && p->bytes_total < LARGE_BYTES &&
	    p->objects_total < LARGE_OBJECTS)
		return;
	st->shown = true;
	if (strcmp(p->stage, "loading") == 0)
		fprintf(st->fp, "\rkvet: loading %zu/%zu files, %.1f/%.1f MB\033[K",
			p->files_done, p->files_total, (double)p->bytes_done / mb,
			(double)p->bytes_total / mb);
	else
		fprintf(st->fp, "\rkvet: linting %zu/%zu objects\033[K",
			p->objects_done, p->objects_total);
	fflush(st->fp);
}

void kvet_cli_progress_end(struct kvet_cli_progress *st)
{
	if (!st->shown)
		return;
	fputs("\r\033[K", st->fp);
	fflush(st->fp);
	st->shown = false;
}
