/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_LOAD_COUNTABLE_H
#define KVET_LOAD_COUNTABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"

/*
 * libfyaml 0.7.12 counts lines and columns in an int: past 2^31 of either
 * a parse never ends. These are the most an input may have.
 */
#define KVET_LOAD_MAX_LINES ((size_t)0x7fffffff)	/* INT32_MAX */
#define KVET_LOAD_MAX_LINE ((size_t)0x7fffffff)	/* bytes in one line */

/*
 * kvet_load_countable() - can the parser count the lines and columns of
 * @buf[0, @len)? At most @max_lines lines, none longer than @max_line
 * bytes (the limits above; smaller ones in tests). An input of fewer
 * bytes than both limits is not read at all; a longer one costs a
 * newline count.
 * Returns: true, or false after recording at @name, on @diag, an error
 * at the first line or column past its limit.
 */
bool kvet_load_countable(struct kvet_diag *diag, const char *name,
			 const char *buf, size_t len, size_t max_lines,
			 size_t max_line);

#endif
