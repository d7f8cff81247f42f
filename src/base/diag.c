/* SPDX-License-Identifier: Apache-2.0 */
#include "base/diag.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/vec.h"

void kvet_diag_init(struct kvet_diag *diag, struct kvet_arena *arena)
{
	memset(diag, 0, sizeof(*diag));
	diag->arena = arena;
}

void kvet_diag_release(struct kvet_diag *diag)
{
	if (!diag)
		return;
	free(diag->errors);
	free(diag->notices);
	diag->errors = NULL;
	diag->notices = NULL;
	diag->n = diag->cap = 0;
	diag->n_notices = diag->cap_notices = 0;
}

static bool grow(struct kvet_diag *diag, size_t more)
{
	return kvet_vec_grow((void **)&diag->errors, &diag->cap,
			     diag->n + more, sizeof(*diag->errors));
}

void kvet_diag_addf(struct kvet_diag *diag, const char *file,
		    unsigned int line, unsigned int col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kvet_diag_vaddf(diag, file, line, col, fmt, ap);
	va_end(ap);
}

void kvet_diag_vaddf(struct kvet_diag *diag, const char *file,
		     unsigned int line, unsigned int col, const char *fmt,
		     va_list ap)
{
	struct kvet_error *e;
	char *msg;

	if (diag->limit && diag->n >= diag->limit) {
		diag->dropped++;
		return;
	}
	msg = kvet_arena_vprintf(diag->arena, fmt, ap);
	if (!msg || !grow(diag, 1)) {
		diag->oom = 1;
		return;
	}
	e = &diag->errors[diag->n++];
	memset(e, 0, sizeof(*e));
	e->pos.file = file;
	e->pos.line = line;
	e->pos.column = line ? col : 0;
	e->message = msg;
}

void kvet_diag_notef(struct kvet_diag *diag, enum kvet_notice_level level,
		     const char *file, unsigned int line, unsigned int col,
		     const char *fmt, ...)
{
	struct kvet_notice *nt;
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = kvet_arena_vprintf(diag->arena, fmt, ap);
	va_end(ap);
	if (!msg || !kvet_vec_grow((void **)&diag->notices, &diag->cap_notices,
				   diag->n_notices + 1,
				   sizeof(*diag->notices))) {
		diag->oom = 1;
		return;
	}
	nt = &diag->notices[diag->n_notices++];
	nt->pos.file = file;
	nt->pos.line = line;
	nt->pos.column = line ? col : 0;
	nt->level = level;
	nt->message = msg;
}

void kvet_diag_set_limit(struct kvet_diag *diag, size_t limit)
{
	diag->limit = limit;
}

void kvet_diag_close_limit(struct kvet_diag *diag, const char *file)
{
	size_t dropped = diag->dropped, limit = diag->limit;

	diag->limit = 0;
	diag->dropped = 0;
	if (dropped)
		kvet_diag_addf(diag, file, 0, 0,
			       "too many errors: %zu more in this file not shown (only the first %zu are reported)",
			       dropped, limit);
}

int kvet_diag_append(struct kvet_diag *to, struct kvet_diag *from)
{
	to->oom |= from->oom;
	if (from->n) {
		if (!grow(to, from->n))
			return -1;
		memcpy(to->errors + to->n, from->errors,
		       from->n * sizeof(*from->errors));
		to->n += from->n;
		from->n = 0;
	}
	if (from->n_notices) {
		if (!kvet_vec_grow((void **)&to->notices, &to->cap_notices,
				   to->n_notices + from->n_notices,
				   sizeof(*to->notices)))
			return -1;
		memcpy(to->notices + to->n_notices, from->notices,
		       from->n_notices * sizeof(*from->notices));
		to->n_notices += from->n_notices;
		from->n_notices = 0;
	}
	return 0;
}
