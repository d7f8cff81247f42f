/* SPDX-License-Identifier: Apache-2.0 */
#include "model/problem.h"

#include <string.h>

struct kvet_problem *kvet_problem_add(struct kvet_arena *arena,
				      struct kvet_problems *ps, int code)
{
	struct kvet_problem *p;

	if (ps->oom)
		return NULL;
	if (ps->n == ps->cap) {
		size_t cap = ps->cap ? 2 * ps->cap : 4;
		struct kvet_problem *v = kvet_arena_array(arena, cap,
							  sizeof(*v));

		if (!v) {
			ps->oom = true;
			return NULL;
		}
		if (ps->n)
			memcpy(v, ps->v, ps->n * sizeof(*v));
		ps->v = v;
		ps->cap = cap;
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
