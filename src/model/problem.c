/* SPDX-License-Identifier: Apache-2.0 */
#include "model/problem.h"

#include <string.h>

struct kvet_problem *kvet_problem_add(struct kvet_arena *arena,
				      struct kvet_problems *ps, int code)
{
	struct kvet_problem *p;

	if (ps->oom)
		return NULL;
	if (!kvet_arena_grow(arena, &ps->v, &ps->cap, ps->n, sizeof(*ps->v))) {
		ps->oom = true;
		return NULL;
	}
	p = &ps->v[ps->n++];
	memset(p, 0, sizeof(*p));
	p->code = code;
	return p;
}

const struct kvet_node *kvet_field_key(const struct kvet_node *map,
				       const char *name)
{
	const struct kvet_pair *p = kvet_node_get_pair(map, name);

	return p ? &p->key : NULL;
}
