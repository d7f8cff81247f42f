/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The static cost estimate of a checked program, as Kubernetes estimates
 * the cost of a CEL expression before it admits a policy that uses it
 * (cel-go's checker.Cost, with sizes from the schema's maxItems and
 * maxLength). A manifest has no schema that bounds its lists, so a list,
 * map or string whose size is not in the expression itself counts as
 * CEL_COST_UNKNOWN_SIZE items; a literal counts as what it holds, and so
 * does a variable whose value is known when the rule is loaded (params).
 *
 * The estimate counts the steps the evaluator charges for nodes and
 * macro iterations (cel.h); scans and copies are charged at run time
 * only. Nested macros multiply: l.all(x, l.all(y, p)) costs size(l)^2
 * times p, which is what the estimate is for.
 */
#include "cel/ast.h"

struct est {
	double cost;		/* steps */
	double size;		/* items of a list or map, bytes of a string */
};

struct estimator {
	const struct cel_value *const *known;	/* values of global slots */
	size_t n_known;
	const struct cel_ast *heavy;	/* the costliest macro so far */
	double heavy_cost;
};

static double size_of(const struct cel_value *v)
{
	if (v->type == CEL_STRING)
		return v->len;
	return (double)cel_len(v);
}

/*
 * The size of a variable known when the rule is loaded, or of one of
 * its fields (params.requests); -1 when not known. Parameters that a
 * configuration may override are scalars: lists and maps are fixed.
 */
static double known_size(const struct estimator *es, const struct cel_ast *a)
{
	const struct cel_ast *var = a->kind == CEL_AST_SELECT ? a->kids[0] : a;
	const struct cel_value *v;
	struct cel_value f;

	if (var->kind != CEL_AST_IDENT || var->slot >= es->n_known ||
	    !(v = es->known[var->slot]))
		return -1;
	if (var == a)
		return v->type == CEL_STRING ? -1 : size_of(v);
	if (!cel_map_get(v, a->name, a->name_len, &f) || f.type == CEL_STRING)
		return -1;
	return size_of(&f);
}

static double max2(double a, double b)
{
	return a > b ? a : b;
}

/* Recursion follows the tree, whose height the parser bounded. */
static struct est estimate(struct estimator *es, const struct cel_ast *a)
{
	struct est e = { 1, CEL_COST_UNKNOWN_SIZE }, k, range;
	double body = 0, known = known_size(es, a);
	size_t i;

	switch ((enum cel_ast_kind)a->kind) {
	case CEL_AST_LITERAL:
		e.size = a->lit.type == CEL_STRING ? a->lit.len : 0;
		return e;
	case CEL_AST_IDENT:
		if (known >= 0)
			e.size = known;
		return e;
	case CEL_AST_COND:
		k = estimate(es, a->kids[0]);
		range = estimate(es, a->kids[1]);
		e = estimate(es, a->kids[2]);
		e.cost = 1 + k.cost + max2(range.cost, e.cost);
		e.size = max2(range.size, e.size);
		return e;
	case CEL_AST_MACRO:
		if (a->op == CEL_MACRO_HAS) {
			e.cost += estimate(es, a->kids[0]).cost;
			e.size = 0;
			return e;
		}
		range = estimate(es, a->kids[0]);
		for (i = 1; i < a->n; i++)
			body += estimate(es, a->kids[i]).cost;
		e.cost = 1 + range.cost + range.size * (1 + body);
		/* filter() and map() give at most one item per item */
		e.size = range.size;
		if (e.cost > es->heavy_cost) {
			es->heavy = a;
			es->heavy_cost = e.cost;
		}
		return e;
	default:
		break;
	}
	e.size = 0;
	for (i = 0; i < a->n; i++) {
		k = estimate(es, a->kids[i]);
		e.cost += k.cost;
		e.size += k.size;
	}
	switch ((enum cel_ast_kind)a->kind) {
	case CEL_AST_LIST:
		e.size = a->n;
		break;
	case CEL_AST_MAP:
		e.size = a->n / 2;
		break;
	case CEL_AST_BINARY:
		/* + concatenates; the other operators give scalars */
		if (a->op != CEL_OP_ADD)
			e.size = 0;
		break;
	case CEL_AST_UNARY:
		e.size = 0;
		break;
	default:
		/* a field, an item, what a function computes, or a lazy
		 * variable (whose own cost the host counts once) */
		e.size = known >= 0 ? known : CEL_COST_UNKNOWN_SIZE;
		break;
	}
	return e;
}

void cel_estimate(const struct cel_program *prog,
		  const struct cel_value *const *known, size_t n_known,
		  struct cel_estimate *out)
{
	struct estimator es = { known, n_known, NULL, 0 };
	struct est e = estimate(&es, prog->root);

	out->cost = e.cost;
	out->size = e.size;
	out->off = es.heavy ? es.heavy->off : 0;
}
