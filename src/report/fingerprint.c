/* SPDX-License-Identifier: Apache-2.0 */
#include "report/fingerprint.h"

#include <inttypes.h>
#include <stdlib.h>

static int by_hash(const void *a, const void *b)
{
	const struct kvet_report_fp *const *x = a, *const *y = b;

	if ((*x)->hash != (*y)->hash)
		return (*x)->hash < (*y)->hash ? -1 : 1;
	return *x < *y ? -1 : *x > *y;
}

struct kvet_report_fp *kvet_report_fps_create(
	const struct kvet_finding *const *findings, size_t n)
{
	struct kvet_report_fp *fps = malloc((n ? n : 1) * sizeof(*fps));
	struct kvet_report_fp **by = malloc((n ? n : 1) * sizeof(*by));
	size_t i;

	if (!fps || !by) {
		free(fps);
		free(by);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		fps[i].hash = kvet_finding_fingerprint(findings[i]);
		by[i] = &fps[i];
	}
	/* equal hashes sort in report order: number them in it */
	qsort(by, n, sizeof(*by), by_hash);
	for (i = 0; i < n; i++)
		by[i]->occurrence = i && by[i - 1]->hash == by[i]->hash
					    ? by[i - 1]->occurrence + 1
					    : 1;
	free(by);
	return fps;
}

void kvet_report_fp_write(FILE *fp, const struct kvet_report_fp *p)
{
	fprintf(fp, "\"%016" PRIx64 ":%zu\"", p->hash, p->occurrence);
}
