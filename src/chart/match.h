/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_CHART_MATCH_H
#define KVET_CHART_MATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "chart/tindex.h"

/* One field of a rendered object, as the matcher needs it. */
struct kvet_chart_field {
	const char *kind;	/* the object's kind */
	/* 0-based place among the render's objects of the same source and
	 * kind, and how many there are: an object of a template that holds
	 * several documents of one kind is told apart by its order */
	unsigned int ordinal, count;
	const char *path;	/* its key path (tindex.h), "" for the object */
	const char *text;	/* a scalar's text, or NULL */
	size_t text_len;
	/* the object's helm.sh/chart label ("web-1.2.0"), or NULL: a chart
	 * of another version than the render's is not used */
	const char *chart_label;
	size_t chart_label_len;
	/* without it, app.kubernetes.io/version, which charts set to their
	 * appVersion, against Chart.yaml's appVersion */
	const char *app_version;
	size_t app_version_len;
};

/* Where a helper is defined: the index of its file and its define. */
typedef const struct kvet_tindex *(*kvet_define_fn)(void *user,
						    const char *name,
						    int32_t *define);

struct kvet_tmatch {
	const struct kvet_tindex *ti;	/* the file of the line */
	uint32_t line, col;
	bool exact;		/* false: the kind: line (or line 1) */
	const char *values_key;	/* the values path that set it, or NULL */
};

/**
 * kvet_tmatch_field() - the template line that printed @f.
 * @ti: the index of the object's template file.
 * @find: where helpers are defined (for include); @user is its argument.
 * @arena: for the values key.
 *
 * A line is exact only when one candidate is left: lines of the same key
 * path in the object's document, then those whose text could print the
 * field's; failing that, a block (include, toYaml) whose lines go under
 * a prefix of the path, followed into the helper. Otherwise the kind:
 * line of the object's document, or line 1 of the file.
 */
void kvet_tmatch_field(struct kvet_arena *arena, const struct kvet_tindex *ti,
		       kvet_define_fn find, void *user,
		       const struct kvet_chart_field *f, struct kvet_tmatch *out);

#endif
