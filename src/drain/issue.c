/* SPDX-License-Identifier: Apache-2.0 */
#include "drain/issue.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/vec.h"

void drain_issue_relate(struct drain_issue *is, const struct kvet_object *obj)
{
	struct drain_ref *r;
	size_t i;

	if (!is || !obj || is->n_related == DRAIN_MAX_RELATED || obj == is->obj)
		return;
	for (i = 0; i < is->n_related; i++)
		if (is->related[i].obj == obj)
			return;
	r = &is->related[is->n_related++];
	r->obj = obj;
	r->kind = obj->kind;
	r->ns = obj->namespace;
	r->name = obj->name;
}

void drain_issue_relate_node(const struct drain_cluster *c,
			     struct drain_issue *is, uint32_t n)
{
	struct drain_ref *r;

	if (!is || n == DRAIN_NONE)
		return;
	if (c->nodes[n].obj && c->nodes[n].obj != is->obj) {
		drain_issue_relate(is, c->nodes[n].obj);
		return;
	}
	if (is->n_related == DRAIN_MAX_RELATED)
		return;
	/* an issue about the Node itself relates it too, so that every
	 * finding of a node names it */
	r = &is->related[is->n_related++];
	r->obj = c->nodes[n].obj;
	r->kind = "Node";
	r->ns = "";
	r->name = c->nodes[n].name;
}

/*
 * A drain issue is one sentence, "what happens: why", as kvet's messages
 * are, so the reports can give it the shape of a lint finding (headline,
 * then reason) while the message stays the sentence.
 */
size_t drain_headline_len(const char *msg)
{
	bool quoted = false;
	size_t i;

	for (i = 0; msg[i]; i++) {
		if (msg[i] == '"')
			quoted = !quoted;
		else if (!quoted && msg[i] == ':' && msg[i + 1] == ' ')
			return i;
	}
	return 0;
}

int drain_issue_set_message(struct drain_cluster *c, struct drain_issue *is,
			    const char *msg)
{
	size_t len = drain_headline_len(msg);

	is->message = msg;
	is->headline = len ? kvet_arena_strndup(c->arena, msg, len) : NULL;
	is->reason = len ? msg + len + 2 : NULL;
	if (len && !is->headline) {
		c->oom = true;
		return -1;
	}
	return 0;
}

struct drain_issue *drain_issue_add(struct drain_cluster *c,
				    enum drain_rule rule,
				    enum kvet_severity sev, uint32_t n,
				    const struct kvet_object *obj,
				    const struct kvet_node *at,
				    const char *fmt, ...)
{
	struct drain_result *res = c->res;
	struct drain_issue *is;
	va_list ap;

	if (!kvet_vec_grow((void **)&res->issues, &res->cap_issues,
			   res->n_issues + 1, sizeof(*res->issues))) {
		c->oom = true;
		return NULL;
	}
	is = &res->issues[res->n_issues];
	memset(is, 0, sizeof(*is));
	is->rule = rule;
	is->sev = sev;
	is->obj = obj;
	is->at = at;
	is->node = n == DRAIN_NONE ? DRAIN_NONE : c->result_of[n];
	va_start(ap, fmt);
	is->message = kvet_arena_vprintf(c->arena, fmt, ap);
	va_end(ap);
	if (!is->message) {
		c->oom = true;
		return NULL;
	}
	if (drain_issue_set_message(c, is, is->message) < 0)
		return NULL;
	res->n_issues++;
	drain_issue_relate_node(c, is, n);
	return is;
}
