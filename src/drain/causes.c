/* SPDX-License-Identifier: Apache-2.0 */
#include "drain/causes.h"

#include <stdarg.h>
#include <stdlib.h>

#include "base/vec.h"
#include "drain/cluster.h"
#include "drain/issue.h"
#include "drain/outage.h"

void drain_causes_add(struct drain_cluster *c, struct drain_causes *why,
		      const char *fmt, ...)
{
	va_list ap;
	const char *s;

	if (!why)
		return;
	va_start(ap, fmt);
	s = kvet_arena_vprintf(c->arena, fmt, ap);
	va_end(ap);
	if (!s || !kvet_vec_grow((void **)&why->v, &why->cap, why->n + 1,
				 sizeof(*why->v))) {
		c->oom = true;
		return;
	}
	why->v[why->n++] = s;
}

/* The pod standing for dump pod @q now: its latest replacement. */
static uint32_t current(const struct drain_cluster *c, uint32_t q)
{
	while (c->pods[q].replaced_by != DRAIN_NONE)
		q = c->pods[q].replaced_by;
	return q;
}

/* Why pod @q of a budget is not healthy now, or NULL when it is. */
static const char *unhealthy(struct drain_cluster *c, uint32_t q)
{
	uint32_t f = current(c, q);
	const struct drain_pod *pod = &c->pods[f];
	const char *who;

	/* a healthy pod costs no label: a budget over thousands of pods
	 * is scanned once per drain report (struct drain_blocked_memo) */
	if (pod->ready)
		return NULL;
	if (kvet_pod_phase_terminal(c->pods[q].phase))
		return NULL;
	who = drain_pod_label(c, q);
	switch (pod->state) {
	case DRAIN_POD_PENDING:
		if (f != q)
			return kvet_arena_printf(c->arena,
				"the replacement of pod \"%s\" is Pending: %s",
				who, pod->why ? pod->why : "not yet scheduled");
		if (pod->why)
			return kvet_arena_printf(c->arena,
				"pod \"%s\" is Pending: %s", who, pod->why);
		return kvet_arena_printf(c->arena,
			"pod \"%s\" is Pending in the dump", who);
	case DRAIN_POD_REFUSED:
		return kvet_arena_printf(c->arena,
			"the replacement of pod \"%s\" cannot be created: %s",
			who, pod->why ? pod->why : "refused");
	case DRAIN_POD_HELD:
		return kvet_arena_printf(c->arena,
			"the replacement of pod \"%s\" is not created: %s",
			who, pod->why ? pod->why : "its StatefulSet waits");
	case DRAIN_POD_LOST:
		return kvet_arena_printf(c->arena,
			"pod \"%s\" went down with its node", who);
	case DRAIN_POD_GONE:
		return kvet_arena_printf(c->arena,
			"pod \"%s\" was deleted and nothing recreates it", who);
	default:
		break;
	}
	if (pod->terminating)
		return kvet_arena_printf(c->arena,
			"pod \"%s\" is terminating in the dump", who);
	return kvet_arena_printf(c->arena, "pod \"%s\" is not Ready in the dump",
				 who);
}

/* The causes that keep budget @b down, "because ..." each, into @m. */
static void budget_causes(struct drain_cluster *c, uint32_t b,
			  struct drain_budget_causes *m)
{
	const struct drain_budget *bd = &c->budgets[b];
	const char *s;
	size_t i;

	m->known = true;
	for (i = 0; i < bd->n_pods && m->n < MAX_POD_CAUSES; i++) {
		s = unhealthy(c, bd->pods[i]);
		if (!s)
			continue;
		if (!m->first)
			m->first = s;
		m->because[m->n++] = kvet_arena_printf(c->arena, "because %s",
						       s);
	}
	if (m->first)
		return;
	s = kvet_arena_printf(c->arena,
		"budget \"%s\" allows no disruption at all: it needs %lld healthy pods of the %lld it expects",
		bd->obj->name, (long long)bd->desired,
		(long long)bd->expected);
	m->first = s;
	m->because[m->n++] = kvet_arena_printf(c->arena, "because %s",
					       s ? s : "");
}

/* Append the causes that keep budget @b down; returns the first. The
 * cluster does not change while a drain's blocked evictions are
 * reported, so each budget's are found once and shared by @memo. */
static const char *budget_causes_once(struct drain_cluster *c, uint32_t b,
				      struct drain_blocked_memo *memo,
				      struct drain_causes *why)
{
	struct drain_budget_causes one = { 0 }, *m = &one;
	size_t i;

	if (memo && memo->budgets)
		m = &memo->budgets[b];
	if (!m->known)
		budget_causes(c, b, m);
	for (i = 0; i < m->n; i++) {
		if (!m->because[i]) {
			c->oom = true;
			continue;
		}
		if (why && !kvet_vec_grow((void **)&why->v, &why->cap,
					  why->n + 1, sizeof(*why->v))) {
			c->oom = true;
			return m->first;
		}
		if (why)
			why->v[why->n++] = m->because[i];
	}
	return m->first;
}

static void report_webhook_refusal(struct drain_cluster *c, uint32_t p,
				   uint32_t n, uint32_t w,
				   struct drain_causes *why)
{
	const struct drain_webhook *wh = &c->webhooks[w];
	const char *err = drain_webhook_error(c, w);
	struct drain_issue *is;

	is = drain_issue_add(c, DRAIN_RULE_EVICTION_BLOCKED, KVET_SEV_ERROR, n,
			     wh->wh->obj, wh->wh->node,
			     "node \"%s\" cannot drain: the eviction of pod \"%s\" is refused: %s",
			     c->nodes[n].name, drain_pod_label(c, p), err);
	if (is)
		is->webhook = wh->wh->name;
	drain_issue_relate(is, c->pods[p].obj);
	drain_causes_add(c, why, "the eviction of pod \"%s\" on node \"%s\" is refused: %s",
			 drain_pod_label(c, p), c->nodes[n].name, err);
}

void drain_report_blocked(struct drain_cluster *c, uint32_t p, uint32_t n,
			  const struct drain_eviction *ev, uint32_t webhook,
			  struct drain_blocked_memo *memo,
			  struct drain_causes *why)
{
	const struct drain_budget *b;
	const struct kvet_node *at;
	const char *first = NULL;
	struct drain_issue *is;

	if (webhook != DRAIN_NONE) {
		report_webhook_refusal(c, p, n, webhook, why);
		return;
	}
	b = &c->budgets[ev->budget];
	drain_causes_add(c, why, "the eviction of pod \"%s\" on node \"%s\" is refused: %s",
			 drain_pod_label(c, p), c->nodes[n].name, ev->message);
	at = b->field;
	if (ev->outcome == DRAIN_EVICT_MULTIPLE) {
		first = kvet_arena_printf(c->arena,
			"budgets \"%s\" and \"%s\" both select it",
			b->obj->name, c->budgets[ev->other].obj->name);
		drain_causes_add(c, why, "because %s", first ? first : "");
		at = b->pdb.selector.node;
	} else if (ev->outcome == DRAIN_EVICT_STALE) {
		first = "the disruption controller has not yet processed the budget's last change (status.observedGeneration is behind metadata.generation)";
		drain_causes_add(c, why, "because %s", first);
		at = b->observed_generation;
	} else {
		first = budget_causes_once(c, ev->budget, memo, why);
	}
	is = drain_issue_add(c, DRAIN_RULE_EVICTION_BLOCKED, KVET_SEV_ERROR, n,
			     b->obj, at,
			     "node \"%s\" cannot drain: the eviction of pod \"%s\" is refused: %s%s%s",
			     c->nodes[n].name, drain_pod_label(c, p),
			     ev->message, first ? "; because " : "",
			     first ? first : "");
	if (is)
		is->budget = ev->outcome == DRAIN_EVICT_MULTIPLE
				     ? DRAIN_BUDGET_OVERLAP
			     : ev->outcome == DRAIN_EVICT_STALE
				     ? DRAIN_BUDGET_STALE
			     : b->sync_fails ? DRAIN_BUDGET_SYNC_FAILS
					     : DRAIN_BUDGET_ROOM;
	drain_issue_relate(is, c->pods[p].obj);
	if (ev->outcome == DRAIN_EVICT_MULTIPLE)
		drain_issue_relate(is, c->budgets[ev->other].obj);
}

int drain_blocked_memo_init(struct drain_cluster *c,
			    struct drain_blocked_memo *memo)
{
	memo->budgets = calloc(c->n_budgets + 1, sizeof(*memo->budgets));
	return memo->budgets ? 0 : -1;
}

void drain_blocked_memo_release(struct drain_blocked_memo *memo)
{
	free(memo->budgets);
	memo->budgets = NULL;
}
