/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_CHART_CHART_H
#define KVET_CHART_CHART_H

#include <stdbool.h>
#include <stddef.h>

#include "chart/match.h"

/*
 * From a rendered field back to the chart: the stage between the model
 * and the reports (docs/template-lines.md). A map caches, for one run,
 * every chart, template index and values file it has read, so each
 * template is scanned once however many findings it has.
 */
struct kvet_chart_map;

/* Where a field was written. Strings are owned by the map. */
struct kvet_chart_place {
	const char *file;	/* the template or helper, relative to the
				 * repository root */
	unsigned int line, column;
	bool exact;		/* false: the kind: line of the object */
	const char *values_key;	/* the values key that set it, or NULL */
	const char *values_file;	/* relative, or NULL */
	unsigned int values_line;
};

/**
 * kvet_chart_map_create() - an empty map.
 * @cwd: the directory charts are looked for in, and whose repository
 *       root (the nearest directory above with .git) paths are reported
 *       against; NULL: the working directory.
 * Returns: a map the caller frees with kvet_chart_map_destroy(), or NULL
 * when out of memory.
 */
struct kvet_chart_map *kvet_chart_map_create(const char *cwd);
void kvet_chart_map_destroy(struct kvet_chart_map *m);

/**
 * kvet_chart_map_resolve() - the template line of a rendered field.
 * @chart_dir: the chart's directory (the one with Chart.yaml, or one
 *             that holds it as a subdirectory named like the chart), or
 *             NULL to look in @cwd (CHART/, ./ when Chart.yaml names
 *             CHART, charts/CHART/).
 * @values: the values files of the render, in helm's order (later ones
 *          win); none: the chart's own values.yaml.
 * @source: the "# Source:" path, "CHART/templates/x.yaml" or
 *          "CHART/charts/SUB/templates/x.yaml".
 * @f: the field.
 * @out: set when 1 is returned.
 *
 * Returns: 1 with @out set; 0 when the chart or the template file is not
 * found (the rendered position stands); -1 when out of memory.
 */
int kvet_chart_map_resolve(struct kvet_chart_map *m, const char *chart_dir,
			   const char *const *values, size_t nvalues,
			   const char *source,
			   const struct kvet_chart_field *f,
			   struct kvet_chart_place *out);

/* Line @line of a file the map reported (@file as in a place), for the
 * text report's source line; NULL when the map did not read it. */
const char *kvet_chart_map_line(const struct kvet_chart_map *m,
				const char *file, unsigned int line,
				size_t *len);

#endif
