/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_DRAIN_ISSUE_H
#define KVET_DRAIN_ISSUE_H

/* Recording what a drain runs into (struct drain_issue). */
#include "drain/state.h"

/**
 * drain_issue_add() - record an issue of node @n's drain about @obj at
 * field @at (NULL: the object), with the node as its first related
 * object (@n DRAIN_NONE: an issue of no node, such as a pool's pod that
 * cannot be installed). The issue is valid until the next one is added.
 * Returns: the issue, or NULL when out of memory (c->oom is set).
 */
struct drain_issue *drain_issue_add(struct drain_cluster *c,
				    enum drain_rule rule,
				    enum kvet_severity sev, uint32_t n,
				    const struct kvet_object *obj,
				    const struct kvet_node *at,
				    const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));

/* Give @is the sentence @msg (in the run's arena) in place of its own,
 * its headline and reason with it: a grouped issue counts what it
 * gathers. 0, or -1 when out of memory (c->oom is set). */
int drain_issue_set_message(struct drain_cluster *c, struct drain_issue *is,
			    const char *msg);

/* Relate an object of the input, or (with @obj NULL) node @n. */
void drain_issue_relate(struct drain_issue *is, const struct kvet_object *obj);
void drain_issue_relate_node(const struct drain_cluster *c,
			     struct drain_issue *is, uint32_t n);

#endif
