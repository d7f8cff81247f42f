/* SPDX-License-Identifier: Apache-2.0 */
#include "report/fingerprint.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

struct fp_item {
	struct kvet_report_fp *fp;
	const struct kvet_finding *f;
};

static const char *words(const struct kvet_finding *f)
{
	return f->headline ? f->headline : f->message;
}

/* Equal hashes are numbered by their words, then in report order, so
 * that reordered inputs keep the numbers of findings that differ in
 * words only. */
static int by_hash(const void *a, const void *b)
{
	const struct fp_item *x = a, *y = b;
	int c;

	if (x->fp->hash != y->fp->hash)
		return x->fp->hash < y->fp->hash ? -1 : 1;
	if ((c = strcmp(words(x->f), words(y->f))) ||
	    (c = kvet_finding_message_cmp(x->f, y->f)))
		return c;
	return x->fp < y->fp ? -1 : x->fp > y->fp;
}

struct kvet_report_fp *kvet_report_fps_create(
	const struct kvet_finding *const *findings, size_t n)
{
	struct kvet_report_fp *fps = malloc((n ? n : 1) * sizeof(*fps));
	struct fp_item *by = malloc((n ? n : 1) * sizeof(*by));
	size_t i;

	if (!fps || !by) {
		free(fps);
		free(by);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		fps[i].hash = kvet_finding_fingerprint(findings[i]);
		by[i].fp = &fps[i];
		by[i].f = findings[i];
	}
	qsort(by, n, sizeof(*by), by_hash);
	for (i = 0; i < n; i++)
		by[i].fp->occurrence =
			i && by[i - 1].fp->hash == by[i].fp->hash
				? by[i - 1].fp->occurrence + 1
				: 1;
	free(by);
	return fps;
}

void kvet_report_fp_write(FILE *fp, const struct kvet_report_fp *p)
{
	fprintf(fp, "\"%016" PRIx64 ":%zu\"", p->hash, p->occurrence);
}
