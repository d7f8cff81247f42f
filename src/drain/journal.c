/* SPDX-License-Identifier: Apache-2.0 */
#include "drain/journal.h"

#include <stdlib.h>
#include <string.h>

#include "base/vec.h"

enum entry_type { E_I64, E_I32, E_U32, E_BOOL, E_PTR };

struct entry {
	void *addr;
	enum entry_type type;
	union {
		int64_t i64;
		int32_t i32;
		uint32_t u32;
		bool b;
		const void *p;
	} old;
};

struct drain_journal {
	struct entry *v;
	size_t n, cap;
	bool on;
};

struct drain_journal *drain_journal_create(void)
{
	return calloc(1, sizeof(struct drain_journal));
}

void drain_journal_destroy(struct drain_journal *j)
{
	if (!j)
		return;
	free(j->v);
	free(j);
}

void drain_journal_enable(struct drain_journal *j, bool on)
{
	j->on = on;
}

size_t drain_journal_mark(const struct drain_journal *j)
{
	return j->n;
}

void drain_journal_rollback(struct drain_journal *j, size_t mark)
{
	while (j->n > mark) {
		struct entry *e = &j->v[--j->n];

		switch (e->type) {
		case E_I64:
			*(int64_t *)e->addr = e->old.i64;
			break;
		case E_I32:
			*(int32_t *)e->addr = e->old.i32;
			break;
		case E_U32:
			*(uint32_t *)e->addr = e->old.u32;
			break;
		case E_BOOL:
			*(bool *)e->addr = e->old.b;
			break;
		case E_PTR:
			*(const void **)e->addr = e->old.p;
			break;
		}
	}
}

static struct entry *push(struct drain_cluster *c, void *addr,
			  enum entry_type type)
{
	struct drain_journal *j = c->journal;
	struct entry *e;

	if (!j->on)
		return NULL;
	if (!kvet_vec_grow((void **)&j->v, &j->cap, j->n + 1, sizeof(*j->v))) {
		c->oom = true;
		return NULL;
	}
	e = &j->v[j->n++];
	e->addr = addr;
	e->type = type;
	return e;
}

/* One setter per field type: record the old value, then set. */
#define SETTER(fn, type, tag, member)                                       \
	void fn(struct drain_cluster *c, type *p, type v)                   \
	{                                                                   \
		struct entry *e;                                            \
									    \
		if (*p == v)                                                \
			return;                                             \
		e = push(c, (void *)p, tag);                                \
		if (e)                                                      \
			e->old.member = *p;                                 \
		*p = v;                                                     \
	}

SETTER(drain_set_i64, int64_t, E_I64, i64)
SETTER(drain_set_i32, int32_t, E_I32, i32)
SETTER(drain_set_u32, uint32_t, E_U32, u32)
SETTER(drain_set_bool, bool, E_BOOL, b)
SETTER(drain_set_ptr, const void *, E_PTR, p)
