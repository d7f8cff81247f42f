/* SPDX-License-Identifier: Apache-2.0 */
#include "load/countable.h"

#include <string.h>

#include "load/split.h"

/* counted a block at a time: kvet_count_lines() is vectorised */
#define BLOCK ((size_t)1 << 20)

/* The offset where the line after the @n-th '\n' starts, or @len + 1
 * when @buf has fewer. */
static size_t after_newlines(const char *buf, size_t len, size_t n)
{
	size_t p = 0, step, k;
	const char *nl;

	while (p < len) {
		step = len - p < BLOCK ? len - p : BLOCK;
		k = kvet_count_lines(buf + p, step);
		if (k < n) {
			n -= k;
			p += step;
			continue;
		}
		for (;; n--) {
			nl = memchr(buf + p, '\n', len - p);
			p = (size_t)(nl - buf) + 1;
			if (n == 1)
				return p;
		}
	}
	return len + 1;
}

/*
 * The start of the first line of @buf[0, @end) longer than @max bytes, or
 * @end. Each window of @max + 1 bytes from a line's start must hold a
 * '\n'; the last one in it is where the next window starts, so that a
 * file of short lines is crossed a window at a time, not a line.
 */
static size_t long_line(const char *buf, size_t end, size_t max)
{
	size_t p = 0, i;

	while (end - p > max) {
		for (i = p + max + 1; i > p && buf[i - 1] != '\n'; i--)
			;
		if (i == p)
			return p;
		p = i;
	}
	return end;
}

bool kvet_load_countable(struct kvet_diag *diag, const char *name,
			 const char *buf, size_t len, size_t max_lines,
			 size_t max_line)
{
	size_t too_many, end, at;

	if (len < max_lines && len <= max_line)
		return true;
	/* a last line break after the last line that counts starts none */
	too_many = after_newlines(buf, len, max_lines);
	end = too_many < len ? too_many : len;
	at = long_line(buf, end, max_line);
	if (at < end) {
		kvet_diag_addf(diag, name,
			       (unsigned int)kvet_count_lines(buf, at) + 1,
			       (unsigned int)max_line + 1,
			       "line longer than the YAML parser can count (%zu bytes): the input is not loaded",
			       max_line);
		return false;
	}
	if (too_many < len) {
		kvet_diag_addf(diag, name, (unsigned int)max_lines + 1, 1,
			       "more lines than the YAML parser can count (%zu): the input is not loaded",
			       max_lines);
		return false;
	}
	return true;
}
