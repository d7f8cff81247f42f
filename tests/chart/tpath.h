/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_TESTS_CHART_TPATH_H
#define KVET_TESTS_CHART_TPATH_H

#include <string.h>

#include "chart/tindex.h"

/* "a.b.-.c" with the index's separator instead of the dots. */
static inline const char *tp(char *buf, size_t size, const char *dotted)
{
	size_t i;

	snprintf(buf, size, "%s", dotted);
	for (i = 0; buf[i]; i++)
		if (buf[i] == '.')
			buf[i] = KVET_TPATH_SEP;
	return buf;
}

/* The index's line at template line @line of kind @kind, or NULL. */
static inline const struct kvet_tline *
tline_at(const struct kvet_tindex *ti, unsigned int line, int kind)
{
	size_t i;

	for (i = 0; i < ti->n; i++)
		if (ti->lines[i].line == line && ti->lines[i].kind == kind)
			return &ti->lines[i];
	return NULL;
}

#endif
