/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Which fail-closed webhooks never get a backend back. A webhook is down
 * while its Service has no ready pod (outage.h); it comes back when one
 * replacement of a backend is created, and the API server creates a pod
 * only if every fail-closed webhook that intercepts it is up. A set of
 * down webhooks is stuck when every replacement of each one's backends
 * must pass a webhook of the set: the check finds the largest such set
 * (removing, until none is left to remove, a webhook with a replacement
 * that passes, or may be placed later, or is not refused at all), then
 * follows, from each webhook of it, the chain of webhooks its first
 * replacement must pass. Every chain ends in a ring; each webhook on one
 * is deadlocked, and is reported with the ring.
 *
 * The nodes of the check are Services, not webhooks: the webhooks of one
 * Service are down together. The cost is the refused replacements, their
 * Services and the webhooks that intercept them, once per check; stamps
 * on the Services (ring_stamp) spare a pass over every Service.
 */
#include "drain/deadlock.h"

#include <stdlib.h>
#include <string.h>

#include "base/vec.h"
#include "drain/cluster.h"
#include "drain/issue.h"
#include "drain/journal.h"
#include "drain/outage.h"

/* Links of a ring one message names; the others are counted. */
enum { RING_NAMED = 6 };

enum { WHITE, ON_PATH, DONE };

/* A Service that backs a fail-closed webhook, in the check. */
struct svc_node {
	uint32_t s;			/* index into c->services */
	bool backed;			/* a refused replacement backs it */
	bool free;			/* a waiting one that is not refused */
	bool in;			/* in the stuck set */
	uint32_t first;			/* its first refused replacement */
	uint32_t rev_off, rev_n;	/* the entries that name it */
	/* the chain: the replacement @pod (its first) must pass webhook
	 * @via, of Service node @next */
	uint32_t next, via, pod;
	uint32_t pos;			/* on the walk's path */
	unsigned char color;
};

/* A down webhook that intercepts a refused replacement. */
struct entry {
	uint32_t w;			/* the webhook */
	uint32_t l;			/* its Service's node */
	uint32_t i;			/* the replacement's index in refused */
};

struct check {
	struct svc_node *nodes;
	size_t n_nodes, cap_nodes;
	uint32_t *refused;		/* pod indexes */
	size_t n_refused, cap_refused;
	uint32_t *ent_off, *cnt;	/* per refused replacement */
	size_t cap_off;
	struct entry *ents;
	size_t n_ents, cap_ents;
	uint32_t *rev;			/* entries by Service node */
	uint32_t *stack;		/* Service nodes */
	size_t n_stack, cap_stack;
};

static bool svc_down(const struct drain_cluster *c, uint32_t s)
{
	const struct drain_service *svc = &c->services[s];

	return svc->n_webhooks &&
	       drain_webhook_down(c, &c->webhooks[svc->webhooks[0]]);
}

/* Service @s's node, made on first use; DRAIN_NONE when out of memory. */
static uint32_t node_of(struct drain_cluster *c, struct check *k, uint32_t s)
{
	struct drain_service *svc = &c->services[s];
	struct svc_node *nd;

	if (svc->ring_stamp == c->ring_epoch)
		return svc->ring_local;
	if (!kvet_vec_grow((void **)&k->nodes, &k->cap_nodes, k->n_nodes + 1,
			   sizeof(*k->nodes)))
		return DRAIN_NONE;
	nd = &k->nodes[k->n_nodes];
	memset(nd, 0, sizeof(*nd));
	nd->s = s;
	nd->first = nd->next = nd->via = nd->pod = DRAIN_NONE;
	svc->ring_stamp = c->ring_epoch;
	svc->ring_local = (uint32_t)k->n_nodes++;
	return svc->ring_local;
}

static bool push(struct check *k, uint32_t l)
{
	if (!kvet_vec_grow((void **)&k->stack, &k->cap_stack, k->n_stack + 1,
			   sizeof(*k->stack)))
		return false;
	k->stack[k->n_stack++] = l;
	return true;
}

/* Replacement @r waits without being refused, or is refused by webhooks
 * the check cannot list: what it backs may come back. */
static bool mark_free(struct drain_cluster *c, struct check *k, uint32_t r)
{
	const struct drain_pod *pod = &c->pods[r];
	uint32_t j, l;

	for (j = 0; j < pod->n_services; j++) {
		if (!c->services[pod->services[j]].n_webhooks)
			continue;
		l = node_of(c, k, pod->services[j]);
		if (l == DRAIN_NONE)
			return false;
		k->nodes[l].free = true;
	}
	return true;
}

/* Refused replacement @r: the Services it backs, and the down webhooks
 * that intercept it, as entries. */
static bool add_refused(struct drain_cluster *c, struct check *k, uint32_t r,
			const uint32_t *v, uint32_t n)
{
	const struct drain_pod *pod = &c->pods[r];
	uint32_t i = (uint32_t)k->n_refused, j, l;

	if (!kvet_vec_grow((void **)&k->refused, &k->cap_refused, i + 1,
			   sizeof(*k->refused)) ||
	    !kvet_vec_grow((void **)&k->ent_off, &k->cap_off, i + 2,
			   sizeof(*k->ent_off)))
		return false;
	k->refused[k->n_refused++] = r;
	k->ent_off[i] = (uint32_t)k->n_ents;
	for (j = 0; j < pod->n_services; j++) {
		if (!svc_down(c, pod->services[j]))
			continue;
		l = node_of(c, k, pod->services[j]);
		if (l == DRAIN_NONE)
			return false;
		k->nodes[l].backed = true;
		if (k->nodes[l].first == DRAIN_NONE)
			k->nodes[l].first = i;
	}
	for (j = 0; j < n; j++) {
		if (!drain_webhook_down(c, &c->webhooks[v[j]]))
			continue;
		l = node_of(c, k, c->webhooks[v[j]].service);
		if (l == DRAIN_NONE ||
		    !kvet_vec_grow((void **)&k->ents, &k->cap_ents,
				   k->n_ents + 1, sizeof(*k->ents)))
			return false;
		k->ents[k->n_ents].w = v[j];
		k->ents[k->n_ents].l = l;
		k->ents[k->n_ents++].i = i;
	}
	k->ent_off[i + 1] = (uint32_t)k->n_ents;
	return true;
}

/* The waiting replacements, sorted into refused ones and the others. */
static bool collect(struct drain_cluster *c, struct check *k)
{
	const uint32_t *v;
	uint32_t n;
	size_t i;

	for (i = 0; i < c->n_waiting; i++) {
		uint32_t r = c->waiting[i];

		if (c->pods[r].state == DRAIN_POD_REFUSED &&
		    drain_webhooks_creating(c, r, &v, &n)) {
			if (!add_refused(c, k, r, v, n))
				return false;
		} else if (!mark_free(c, k, r)) {
			return false;
		}
	}
	return !c->oom;
}

/* Each Service node's entries, for the removals. */
static bool index_entries(struct check *k)
{
	size_t e, l, at = 0;

	k->rev = malloc((k->n_ents + 1) * sizeof(*k->rev));
	if (!k->rev)
		return false;
	for (e = 0; e < k->n_ents; e++)
		k->nodes[k->ents[e].l].rev_n++;
	for (l = 0; l < k->n_nodes; l++) {
		k->nodes[l].rev_off = (uint32_t)at;
		at += k->nodes[l].rev_n;
		k->nodes[l].rev_n = 0;
	}
	for (e = 0; e < k->n_ents; e++) {
		struct svc_node *nd = &k->nodes[k->ents[e].l];

		k->rev[nd->rev_off + nd->rev_n++] = (uint32_t)e;
	}
	return true;
}

/* Replacement @i can pass: what it backs leaves the stuck set. */
static bool release(struct drain_cluster *c, struct check *k, uint32_t i)
{
	const struct drain_pod *pod = &c->pods[k->refused[i]];
	uint32_t j, l;

	for (j = 0; j < pod->n_services; j++) {
		if (c->services[pod->services[j]].ring_stamp != c->ring_epoch)
			continue;
		l = c->services[pod->services[j]].ring_local;
		if (!k->nodes[l].in)
			continue;
		k->nodes[l].in = false;
		if (!push(k, l))
			return false;
	}
	return true;
}

/* The largest set of down Services whose every replacement must pass a
 * webhook of the set: start from those whose replacements are all
 * refused, and remove until none is left to remove. */
static bool stuck_set(struct drain_cluster *c, struct check *k)
{
	size_t l, i, e;

	k->cnt = calloc(k->n_refused + 1, sizeof(*k->cnt));
	if (!k->cnt || !index_entries(k))
		return false;
	for (l = 0; l < k->n_nodes; l++)
		k->nodes[l].in = k->nodes[l].backed && !k->nodes[l].free;
	for (e = 0; e < k->n_ents; e++)
		k->cnt[k->ents[e].i] += k->nodes[k->ents[e].l].in;
	for (i = 0; i < k->n_refused; i++)
		if (!k->cnt[i] && !release(c, k, (uint32_t)i))
			return false;
	while (k->n_stack) {
		const struct svc_node *nd = &k->nodes[k->stack[--k->n_stack]];

		for (e = nd->rev_off; e < nd->rev_off + nd->rev_n; e++) {
			i = k->ents[k->rev[e]].i;
			if (!--k->cnt[i] && !release(c, k, (uint32_t)i))
				return false;
		}
	}
	return true;
}

/* Each stuck Service's link: its first replacement, and the first
 * webhook of the set it must pass. */
static void link_chain(struct check *k)
{
	size_t l;
	uint32_t e;

	for (l = 0; l < k->n_nodes; l++) {
		struct svc_node *nd = &k->nodes[l];

		if (!nd->in)
			continue;
		for (e = k->ent_off[nd->first]; e < k->ent_off[nd->first + 1];
		     e++)
			if (k->nodes[k->ents[e].l].in)
				break;
		if (e == k->ent_off[nd->first + 1]) {
			/* cannot be: a stuck Service's replacements are
			 * all held by the set; leave the walks out of it */
			nd->in = false;
			continue;
		}
		nd->next = k->ents[e].l;
		nd->via = k->ents[e].w;
		nd->pod = k->refused[nd->first];
	}
}

static void report_self(struct drain_cluster *c, uint32_t r, uint32_t w)
{
	struct drain_webhook *wh = &c->webhooks[w];
	struct drain_issue *is;

	if (wh->deadlock)
		return;
	drain_set_bool(c, &wh->deadlock, true);
	is = drain_issue_add(c, DRAIN_RULE_WEBHOOK_DEADLOCK, KVET_SEV_ERROR,
			     c->pods[r].from_node, wh->wh->obj,
			     wh->wh->failure_policy_node ? wh->wh->failure_policy_node
							 : wh->wh->node,
			     "draining node \"%s\" deadlocks fail-closed webhook \"%s\": its backend pod \"%s\" is evicted, and the creation of its replacement is a request the webhook itself intercepts and, with no backend left, rejects: %s",
			     c->nodes[c->pods[r].from_node].name, wh->wh->name,
			     drain_pod_label(c, r), drain_webhook_error(c, w));
	if (is)
		is->webhook = wh->wh->name;
	drain_issue_relate(is, c->services[wh->service].obj);
	drain_issue_relate(is, c->pods[r].obj);
}

/* The links of the ring after webhook @j's own, as words: the
 * replacement of each next webhook's backend and what it must pass. */
static const char *ring_links(struct drain_cluster *c, const struct check *k,
			      const uint32_t *ring, size_t len, size_t j)
{
	const char *s = "";
	size_t t;

	for (t = 1; t < len && t <= RING_NAMED && s; t++) {
		const struct svc_node *nd = &k->nodes[ring[(j + t) % len]];
		const struct svc_node *prev = &k->nodes[ring[(j + t - 1) % len]];

		if (t == 1)
			s = kvet_arena_printf(c->arena,
				"the replacement of its backend pod \"%s\" must pass \"%s\"",
				drain_pod_label(c, nd->pod),
				c->webhooks[nd->via].wh->name);
		else
			s = kvet_arena_printf(c->arena,
				"%s, that of \"%s\"'s backend pod \"%s\" must pass \"%s\"",
				s, c->webhooks[prev->via].wh->name,
				drain_pod_label(c, nd->pod),
				c->webhooks[nd->via].wh->name);
	}
	if (s && len - 1 > RING_NAMED)
		s = kvet_arena_printf(c->arena,
			"%s, and %zu more such links lead back to \"%s\"", s,
			len - 1 - RING_NAMED,
			c->webhooks[k->nodes[ring[(j + len - 1) % len]].via]
				.wh->name);
	if (!s)
		c->oom = true;
	return s ? s : "";
}

/* Every webhook of @ring (Service nodes, each one's next after it). */
static void report_ring(struct drain_cluster *c, const struct check *k,
			const uint32_t *ring, size_t len)
{
	size_t j;

	for (j = 0; j < len; j++) {
		const struct svc_node *nd = &k->nodes[ring[j]];
		uint32_t w = k->nodes[ring[(j + len - 1) % len]].via;
		struct drain_webhook *wh = &c->webhooks[w];
		uint32_t r = nd->pod;
		struct drain_issue *is;

		if (len == 1) {
			report_self(c, r, w);
			continue;
		}
		if (wh->deadlock)
			continue;
		drain_set_bool(c, &wh->deadlock, true);
		is = drain_issue_add(c, DRAIN_RULE_WEBHOOK_DEADLOCK,
			KVET_SEV_ERROR, c->pods[r].from_node, wh->wh->obj,
			wh->wh->failure_policy_node ? wh->wh->failure_policy_node
						    : wh->wh->node,
			"draining node \"%s\" deadlocks fail-closed webhook \"%s\": its backend pod \"%s\" is evicted, and the creation of its replacement must pass fail-closed webhook \"%s\", which has no backend left either: %s; in this ring of %zu fail-closed webhooks without a backend, each rejects the replacement another needs, and none comes back: %s",
			c->nodes[c->pods[r].from_node].name, wh->wh->name,
			drain_pod_label(c, r), c->webhooks[nd->via].wh->name,
			ring_links(c, k, ring, len, j), len,
			drain_webhook_error(c, nd->via));
		if (!is)
			continue;
		is->webhook = wh->wh->name;
		is->ring = true;
		drain_issue_relate(is, c->services[wh->service].obj);
		drain_issue_relate(is, c->pods[r].obj);
		drain_issue_relate(is, c->webhooks[nd->via].wh->obj);
	}
}

/* Follow the chain from each stuck Service: a walk that meets its own
 * path has found a ring; one that meets an earlier walk has not. */
static bool find_rings(struct drain_cluster *c, struct check *k)
{
	size_t l0, i;
	uint32_t l;

	for (l0 = 0; l0 < k->n_nodes; l0++) {
		if (!k->nodes[l0].in || k->nodes[l0].color != WHITE)
			continue;
		k->n_stack = 0;
		for (l = (uint32_t)l0;
		     k->nodes[l].in && k->nodes[l].color == WHITE;
		     l = k->nodes[l].next) {
			k->nodes[l].color = ON_PATH;
			k->nodes[l].pos = (uint32_t)k->n_stack;
			if (!push(k, l))
				return false;
		}
		if (k->nodes[l].color == ON_PATH)
			report_ring(c, k, k->stack + k->nodes[l].pos,
				    k->n_stack - k->nodes[l].pos);
		for (i = 0; i < k->n_stack; i++)
			k->nodes[k->stack[i]].color = DONE;
	}
	return true;
}

void drain_deadlock_check(struct drain_cluster *c)
{
	struct check k;
	bool ok;

	if (!c->refusal_new)
		return;
	c->refusal_new = false;
	if (!c->n_waiting || !c->n_webhooks)
		return;
	memset(&k, 0, sizeof(k));
	if (++c->ring_epoch == 0) {
		uint32_t s;

		/* the stamps wrapped: none may look current */
		for (s = 0; s < c->n_services; s++)
			c->services[s].ring_stamp = 0;
		c->ring_epoch = 1;
	}
	ok = collect(c, &k) && stuck_set(c, &k);
	if (ok) {
		link_chain(&k);
		ok = find_rings(c, &k);
	}
	if (!ok)
		c->oom = true;
	free(k.nodes);
	free(k.refused);
	free(k.ent_off);
	free(k.cnt);
	free(k.ents);
	free(k.rev);
	free(k.stack);
}
