/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_DRAIN_JOURNAL_H
#define KVET_DRAIN_JOURNAL_H

/*
 * An undo log of the cluster's dynamic fields. Every change made while
 * nodes drain goes through these setters; "each node alone" rolls back to
 * a mark after each node, which costs what the drain changed, not a copy
 * of the cluster.
 */
#include <stddef.h>
#include <stdint.h>

#include "drain/state.h"

struct drain_journal *drain_journal_create(void);
void drain_journal_destroy(struct drain_journal *j);

/* Record changes from now on (true), or not (false: rolling plans). */
void drain_journal_enable(struct drain_journal *j, bool on);

size_t drain_journal_mark(const struct drain_journal *j);
void drain_journal_rollback(struct drain_journal *j, size_t mark);

/* Set a field, recording its old value; false when out of memory (the
 * field is set anyway, and c->oom too). */
void drain_set_i64(struct drain_cluster *c, int64_t *p, int64_t v);
void drain_set_i32(struct drain_cluster *c, int32_t *p, int32_t v);
void drain_set_u32(struct drain_cluster *c, uint32_t *p, uint32_t v);
void drain_set_bool(struct drain_cluster *c, bool *p, bool v);
void drain_set_ptr(struct drain_cluster *c, const void **p, const void *v);

#endif
