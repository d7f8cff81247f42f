/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_API_CONFIG_CHARTS_H
#define KVET_API_CONFIG_CHARTS_H

/* The charts: section of .kvet.yaml (config_charts.c). */
#include "api/context.h"
#include "load/strict.h"

/* One chart's entry, by the chart's path from the working directory. */
struct kvet_chart_entry {
	const char *path;
	const char **values;	/* from the chart's directory */
	size_t n_values;
	const char **sets;	/* --set KEY=VALUE */
	size_t n_sets;
	const char *ns;
	const char *release;
	int matrix, defaults;	/* -1: as the command line says */
};

void kvet_config_apply_charts(struct kvet_strict *s, struct kvet_ctx *ctx,
			      const struct kvet_node *charts);

/* srcs.chart_opts: the options of the chart at @path. */
const struct kvet_render_opts *kvet_ctx_chart_opts(const void *user,
						   const char *path);

#endif
