/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_DRAIN_CAUSES_H
#define KVET_DRAIN_CAUSES_H

/*
 * Why an eviction stays refused: the chain from the refusal to what keeps
 * the budget down (a replacement no node fits, one a webhook rejects, a
 * pod not Ready in the dump, a budget that allows nothing at all).
 */
#include "drain/evict.h"
#include "drain/wave.h"

/* Enough to follow a chain; a budget over 500 pods needs no more. */
enum { MAX_POD_CAUSES = 4 };

/* What keeps one budget down, found once per report (arena strings). */
struct drain_budget_causes {
	bool known;
	const char *first;
	const char *because[MAX_POD_CAUSES + 1];
	size_t n;
};

/* The causes of each budget while one drain's blocked evictions are
 * reported: without it, each blocked eviction scanned the budget's
 * every pod again (evictions x pods, in time and in labels). */
struct drain_blocked_memo {
	struct drain_budget_causes *budgets;	/* per budget, calloc'd */
};

int drain_blocked_memo_init(struct drain_cluster *c,
			    struct drain_blocked_memo *memo);
void drain_blocked_memo_release(struct drain_blocked_memo *memo);

void drain_causes_add(struct drain_cluster *c, struct drain_causes *why,
		      const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/**
 * drain_report_blocked() - the issue of pod @p on node @n whose last
 * eviction @ev was refused (or refused by webhook @webhook), with its
 * causes appended to @why (may be NULL). @memo (may be NULL, or
 * initialised for the cluster as it stands now) shares the budgets'
 * causes between the calls of one report.
 */
void drain_report_blocked(struct drain_cluster *c, uint32_t p, uint32_t n,
			  const struct drain_eviction *ev, uint32_t webhook,
			  struct drain_blocked_memo *memo,
			  struct drain_causes *why);

#endif
