/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_MODEL_PROBLEM_H
#define KVET_MODEL_PROBLEM_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "load/node.h"
#include "model/labels.h"

/*
 * What the API server would reject in an object, as data: a code saying
 * which check failed, where, and the values the check saw. The model
 * finds the problems (pdb_validate.c, sched_validate.c); the words are
 * the caller's (rules/explain.c), so one finding can be worded for a
 * message and tested as a code.
 */
struct kvet_problem {
	int code;			/* enum kvet_pdb_problem, ... */
	const char *field;		/* the field the check reads */
	const struct kvet_node *at;	/* where: the field's key, a list item,
					 * a bare position, or NULL */
	const struct kvet_node *value;	/* the value as written, or NULL */
	const struct kvet_node *value2;	/* a second one, or NULL */
	const char *path;		/* which part: "podAffinity.
					 * requiredDuring...[0]"; or NULL */
	const struct kvet_node *part;	/* that part's mapping, or NULL */
	struct kvet_slice key;		/* a label key the check names */
	const char *text;		/* a text the check names (a parser's
					 * reason, an apiVersion), or NULL */
	long long number;		/* a number the check names */
};

struct kvet_problems {
	struct kvet_problem *v;		/* in the arena given to the check */
	size_t n, cap;
	bool oom;			/* sticky: some were not recorded */
};

/* A new problem of @code, zeroed but for the code, or NULL (and @ps->oom
 * set) when out of memory. */
struct kvet_problem *kvet_problem_add(struct kvet_arena *arena,
				      struct kvet_problems *ps, int code);

/* The key node of field @name of mapping @map (where a finding about the
 * field points), or NULL when absent. */
const struct kvet_node *kvet_field_key(const struct kvet_node *map,
				       const char *name);

#endif
