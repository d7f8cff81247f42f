/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_TESTS_CAPTURE_H
#define KVET_TESTS_CAPTURE_H

/* cmocka wants these four first */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>

/* A stream that collects what is written, for comparing with a string. */
struct capture {
	FILE *fp;
	char *buf;		/* after capture_close(): the text; free() it */
	size_t len;
};

static inline void capture_open(struct capture *cap)
{
	cap->buf = NULL;
	cap->len = 0;
	cap->fp = open_memstream(&cap->buf, &cap->len);
	assert_non_null(cap->fp);
}

/* Close the stream: buf and len then hold all that was written. */
static inline void capture_close(struct capture *cap)
{
	assert_int_equal(fclose(cap->fp), 0);
}

#endif
