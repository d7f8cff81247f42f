/* SPDX-License-Identifier: Apache-2.0 */
#include "model/pdb_validate.h"

#include <string.h>

static bool all_digits(const struct kvet_node *n)
{
	uint32_t i;

	for (i = 0; i < n->len; i++)
		if (n->u.str[i] < '0' || n->u.str[i] > '9')
			return false;
	return n->len > 0;
}

/* validation.go's checks of one of minAvailable and maxUnavailable. */
static void value_problem(struct kvet_arena *arena, struct kvet_problems *ps,
			  const struct kvet_node *spec, const char *field,
			  const struct kvet_intstr *v)
{
	struct kvet_problem *p;
	int code;

	switch (v->type) {
	case KVET_INTSTR_INT:
		if (v->value >= 0)
			return;
		code = KVET_PDB_NEGATIVE;
		break;
	case KVET_INTSTR_PERCENT:
		if (v->value <= 100)
			return;
		code = KVET_PDB_OVER_100;
		break;
	case KVET_INTSTR_INVALID:
		if (kvet_node_is_string(v->node) && all_digits(v->node))
			code = KVET_PDB_QUOTED_DIGITS;
		else if (kvet_node_is_string(v->node))
			code = KVET_PDB_BAD_STRING;
		else if (v->node->type == KVET_NODE_INT)
			code = KVET_PDB_OUT_OF_INT32;
		else
			code = KVET_PDB_NOT_INTSTR;
		break;
	default:
		return;
	}
	p = kvet_problem_add(arena, ps, code);
	if (p) {
		p->field = field;
		p->at = kvet_field_key(spec, field);
		p->value = v->node;
		p->number = v->value;
	}
}

static void selector_problem(struct kvet_arena *arena,
			     struct kvet_problems *ps,
			     const struct kvet_node *spec,
			     const struct kvet_selector *sel)
{
	struct kvet_problem *p = kvet_problem_add(arena, ps,
						  KVET_PDB_SELECTOR_INVALID);
	struct kvet_node *pos;

	if (!p)
		return;
	p->field = "selector";
	p->text = sel->error;
	p->at = kvet_field_key(spec, "selector");
	if (sel->err_line) {
		/* the place inside the selector, as a bare position */
		pos = kvet_arena_alloc(arena, sizeof(*pos));
		if (!pos) {
			ps->oom = true;
			return;
		}
		pos->line = sel->err_line;
		pos->col = sel->err_col;
		p->at = pos;
	}
}

int kvet_pdb_problems(struct kvet_arena *arena, const struct kvet_pdb *pdb,
		      struct kvet_problems *out)
{
	const struct kvet_node *spec = kvet_node_get(pdb->obj->root, "spec");
	struct kvet_problem *p;

	memset(out, 0, sizeof(*out));
	if (pdb->v1beta1) {
		p = kvet_problem_add(arena, out, KVET_PDB_V1BETA1);
		if (p) {
			p->field = "apiVersion";
			p->text = pdb->obj->api_version;
			p->at = kvet_field_key(pdb->obj->root, "apiVersion");
		}
	}
	if (pdb->min_available.type != KVET_INTSTR_ABSENT &&
	    pdb->max_unavailable.type != KVET_INTSTR_ABSENT) {
		p = kvet_problem_add(arena, out, KVET_PDB_BOTH_SET);
		if (p) {
			p->field = "maxUnavailable";
			p->at = kvet_field_key(spec, "maxUnavailable");
			p->value = pdb->min_available.node;
			p->value2 = pdb->max_unavailable.node;
		}
	}
	value_problem(arena, out, spec, "minAvailable", &pdb->min_available);
	value_problem(arena, out, spec, "maxUnavailable",
		      &pdb->max_unavailable);
	if (pdb->selector.meaning == KVET_SEL_INVALID)
		selector_problem(arena, out, spec, &pdb->selector);
	return out->oom ? -1 : 0;
}
