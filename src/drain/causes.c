/* SPDX-License-Identifier: Apache-2.0 */
#include "drain/causes.h"

#include <stdarg.h>
#include <stdlib.h>

#include "base/vec.h"
#include "drain/cluster.h"
#include "drain/issue.h"
#include "drain/outage.h"

/* Enough to follow a chain; a budget over 500 pods needs no more. */
enum { MAX_POD_CAUSES = 4 };

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
	const char *who = drain_pod_label(c, q);

	if (pod->ready)
		return NULL;
	if (kvet_pod_phase_terminal(c->pods[q].phase))
		return NULL;
	switch (pod->state) {
	case DRAIN_POD_PENDING:
		if (f != q)
			return kvet_arena_printf(c->arena,
				"the replacement of pod \"%s\" is Pending: %s",
				who, pod->why ? pod->why : "not yet scheduled");
		return kvet_arena_printf(c->arena,
			"pod \"%s\" is Pending in the dump", who);
	case DRAIN_POD_REFUSED:
		return kvet_arena_printf(c->arena,
			"the replacement of pod \"%s\" cannot be created: %s",
			who, pod->why ? pod->why : "refused");
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

/* Append the causes that keep budget @b down; returns the first. */
static const char *budget_causes(struct drain_cluster *c, uint32_t b,
				 struct drain_causes *why)
{
	const struct drain_budget *bd = &c->budgets[b];
	const char *first = NULL, *s;
	size_t i, n = 0;

	for (i = 0; i < bd->n_pods && n < MAX_POD_CAUSES; i++) {
		s = unhealthy(c, bd->pods[i]);
		if (!s)
			continue;
		if (!first)
			first = s;
		drain_causes_add(c, why, "because %s", s);
		n++;
	}
	if (first)
		return first;
	s = kvet_arena_printf(c->arena,
		"budget \"%s\" allows no disruption at all: it needs %lld healthy pods of the %lld it expects",
		bd->obj->name, (long long)bd->desired,
		(long long)bd->expected);
	drain_causes_add(c, why, "because %s", s ? s : "");
	return s;
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
	drain_issue_relate(is, c->pods[p].obj);
	drain_causes_add(c, why, "the eviction of pod \"%s\" on node \"%s\" is refused: %s",
			 drain_pod_label(c, p), c->nodes[n].name, err);
}

void drain_report_blocked(struct drain_cluster *c, uint32_t p, uint32_t n,
			  const struct drain_eviction *ev, uint32_t webhook,
			  struct drain_causes *why)
{
	const struct drain_budget *b;
	const struct kvet_node *at;
	const char *first = NULL;
	struct drain_issue *is;
	size_t mark = why ? why->n : 0;

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
		at = kvet_node_path(b->obj->root, "status",
				    "observedGeneration", NULL);
	} else {
		first = budget_causes(c, ev->budget, why);
	}
	(void)mark;
	is = drain_issue_add(c, DRAIN_RULE_EVICTION_BLOCKED, KVET_SEV_ERROR, n,
			     b->obj, at,
			     "node \"%s\" cannot drain: the eviction of pod \"%s\" is refused: %s%s%s",
			     c->nodes[n].name, drain_pod_label(c, p),
			     ev->message, first ? "; because " : "",
			     first ? first : "");
	drain_issue_relate(is, c->pods[p].obj);
	if (ev->outcome == DRAIN_EVICT_MULTIPLE)
		drain_issue_relate(is, c->budgets[ev->other].obj);
}
