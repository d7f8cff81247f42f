/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_RULES_BIND_H
#define KVET_RULES_BIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "cel/cel.h"
#include "model/graph.h"
#include "model/pdb.h"
#include "model/problem.h"
#include "model/replicas.h"
#include "model/run.h"
#include "model/spread.h"
#include "model/webhook.h"
#include "rules/env.h"

/*
 * What every binding file (bind_*.c) sees: the CEL names of the model.
 * A binding file is a doc comment listing its functions, wrappers of a
 * few lines that call model/, and one table of rows (cel-go's extension
 * libraries and Kubernetes' CEL libraries, which call their domain
 * packages the same way).
 *
 * Every row's C function is the snake_case of its CEL name
 * (allowedDisruptions -> allowed_disruptions). The rows declare the
 * kind of each argument; bind_dispatch() resolves them to model
 * pointers before the wrapper runs, so that no wrapper checks its
 * arguments, and says what is wrong in one standard wording:
 * "allowedDisruptions() needs a PodDisruptionBudget, not Deployment
 * \"web\"", "... needs the object graph of a run".
 */

/* An argument kind: the static type the checker sees in the low bits. */
#define BIND_KIND_(n, st) (((n) << 3) | (st))
#define BIND_STYPE(kind) ((kind) & 7)

enum bind_kind {
	BIND_ANY = BIND_KIND_(0, CEL_ST_DYN),		/* .v: as it is */
	BIND_OBJECT = BIND_KIND_(1, CEL_ST_MAP),	/* .obj: any object */
	/* .wl: the workload an object is or is folded into (1.2) */
	BIND_WORKLOAD = BIND_KIND_(2, CEL_ST_MAP),
	BIND_DEPLOYMENT = BIND_KIND_(3, CEL_ST_MAP),	/* .wl: a Deployment */
	BIND_PDB = BIND_KIND_(4, CEL_ST_MAP),		/* .pdb: parsed */
	/* .budget: a PDB of the run, with what it selects, at N_min */
	BIND_BUDGET = BIND_KIND_(5, CEL_ST_MAP),
	BIND_HPA = BIND_KIND_(6, CEL_ST_MAP),		/* .hpa: parsed */
	BIND_SERVICE = BIND_KIND_(7, CEL_ST_MAP),	/* .obj: a Service */
	BIND_TERM = BIND_KIND_(8, CEL_ST_MAP),		/* .term */
	BIND_ENTRY = BIND_KIND_(9, CEL_ST_MAP),		/* .entry */
	BIND_STRING = BIND_KIND_(10, CEL_ST_STRING),	/* .s: NUL-ended */
	BIND_NAMESPACE = BIND_KIND_(11, CEL_ST_STRING),	/* .s: a name */
	BIND_COUNT = BIND_KIND_(12, CEL_ST_INT),	/* .count: 0..2^31-1 */
	BIND_LIST = BIND_KIND_(13, CEL_ST_LIST),	/* .v: a list */
	BIND_OBJECTS = BIND_KIND_(14, CEL_ST_LIST),	/* .objs: of objects */
	/* .foreign: a term's foreign workloads (kvet_run_term_foreign()) */
	BIND_FOREIGN = BIND_KIND_(15, CEL_ST_MAP),
	/* .labels: a map of strings, null (none), an object's labels, or a
	 * workload's pod labels with their runtime labels (1.6) */
	BIND_LABELS = BIND_KIND_(16, CEL_ST_DYN),
};

/* Labels, resolved (BIND_LABELS). */
struct bind_labels {
	struct kvet_labels labels;
	struct kvet_pod_runtime rt;
	const struct kvet_workload *wl;	/* the labels are its pods' */
};

/* A list of objects, resolved (BIND_OBJECTS). */
struct bind_objects {
	const struct kvet_object *const *v;
	size_t n;
};

union bind_arg {
	struct cel_value v;
	const struct kvet_object *obj;
	const struct kvet_workload *wl;
	const struct kvet_pdb *pdb;
	const struct kvet_budget *budget;
	const struct kvet_hpa *hpa;
	const struct kvet_term *term;
	const struct kvet_term_foreign *foreign;
	const struct bind_labels *labels;
	const struct kvet_webhook *entry;
	const char *s;
	long long count;
	struct bind_objects objs;
};

enum { BIND_MAX_ARGS = 8 };

/* One call of a binding, its arguments resolved. */
struct bind_call {
	struct cel_eval *ev;
	const char *name;		/* the CEL name, for errors */
	struct kvet_run *run;		/* the run's indexes; NULL outside */
	const struct kvet_graph *g;	/* the run's graph; NULL outside */
	struct kvet_arena *scratch;	/* values of this evaluation */
	const struct cel_value *v;	/* the arguments as they came */
	size_t n;
	union bind_arg arg[BIND_MAX_ARGS];
};

typedef struct cel_value (*bind_impl)(struct bind_call *c);

enum bind_flags {
	BIND_RUN = 1u << 0,	/* needs the object graph of a run */
};

/* The binding half of a row: what struct cel_func's data points at. */
struct bind_fn {
	bind_impl impl;
	unsigned int flags;		/* enum bind_flags */
	uint8_t kind[BIND_MAX_ARGS];	/* enum bind_kind of each argument */
	/* the example, run by tests/rules/test_bind_examples.c against
	 * testdata/bind/fixture.yaml: `object` bound to "group/Kind ns/name"
	 * ("" for none), and an expression that must be true */
	const char *ex_object;
	const char *ex_expr;
};

/* The trampoline of every row: resolves, then calls the row's impl. */
struct cel_value bind_dispatch(struct cel_eval *ev, const struct cel_ast *call,
			       const struct cel_value *args, size_t n);

#define BIND_ARGS_(...) __VA_ARGS__
#define BIND_ST4_(a, b, c, d, ...)					\
	{ BIND_STYPE(a), BIND_STYPE(b), BIND_STYPE(c), BIND_STYPE(d) }
#define BIND_ST_(...) BIND_ST4_(__VA_ARGS__)

/*
 * One row: the CEL name, the static return type, the argument count,
 * the kinds of the arguments in parentheses, the wrapper, flags, a line
 * of documentation (docs/rule-language.md is generated from it), and
 * the example: the object to bind and an expression that must be true.
 */
#define BIND_ROW(name_, ret_, lo, hi, kinds, impl_, flags_, doc_,	\
		 ex_obj, ex_expr_)					\
	{ .name = (name_), .style = CEL_CALL_GLOBAL, .min_args = (lo),	\
	  .max_args = (hi), .ret = (ret_),				\
	  .args = BIND_ST_(BIND_ARGS_ kinds, BIND_ANY, BIND_ANY, BIND_ANY, \
			   BIND_ANY),					\
	  .fn = bind_dispatch, .doc = (doc_),				\
	  .data = &(const struct bind_fn){ .impl = (impl_),		\
		  .flags = (flags_), .kind = { BIND_ARGS_ kinds },	\
		  .ex_object = (ex_obj), .ex_expr = (ex_expr_) } }

/* The binding half of a row of one of kvet's libraries, or NULL. */
static inline const struct bind_fn *bind_fn_of(const struct cel_func *row)
{
	return row->fn == bind_dispatch ? row->data : NULL;
}

/* A wrapper that is one expression of its call @c. */
#define BIND_FN(name, expr)						\
	static struct cel_value name(struct bind_call *c)		\
	{								\
		return (expr);						\
	}

/* ---- results ---- */

/* An error "name(): ..." (git: say what is wrong first, no full stop). */
struct cel_value bind_fail(struct bind_call *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The failure of running out of memory (CEL_V_FAILURE). */
struct cel_value bind_oom(struct bind_call *c);
/* "name() needs the object graph of a run". */
struct cel_value bind_no_run(struct bind_call *c);

struct cel_value bind_str(const char *s);
/* A string positioned at @at (a finding's `at:` points there). */
struct cel_value bind_str_at(const char *s, size_t len,
			     const struct kvet_node *at);
/* The text of @sb, in the scratch arena; released. */
struct cel_value bind_strbuf(struct bind_call *c, struct kvet_strbuf *sb);
/* An input node as a value, positioned at itself. */
struct cel_value bind_node(const struct kvet_node *n);
struct cel_value bind_object(const struct kvet_object *obj);	/* or null */
struct cel_value bind_objects(struct bind_call *c,
			      const struct kvet_object *const *v, size_t n);
struct cel_value bind_workloads(struct bind_call *c,
				const struct kvet_workload *const *v,
				size_t n);
/* A copy of @items in the scratch arena. */
struct cel_value bind_list(struct bind_call *c, const struct cel_value *items,
			   size_t n);
/* An empty map. */
struct cel_value bind_empty_map(void);

struct kvet_release_label;
/* The release label a selector leaves out (model/release_label.h) as
 * {key, value}; null when @found is false. */
struct cel_value bind_release_label(struct bind_call *c, bool found,
				    const struct kvet_release_label *rel);

/* The shape of a list of problems (model/problem.h) in CEL. */
enum bind_problem_shape {
	/* {message, field}: field is null, positioned at the problem */
	BIND_PROBLEM_FIELD,
	/* {term, field, problem}: term its path, field the part's mapping
	 * positioned at the problem */
	BIND_PROBLEM_PART,
};

typedef void (*bind_words)(struct kvet_strbuf *sb,
			   const struct kvet_problem *p);

/* Problems as a CEL list of maps, worded by @words (rules/explain.h). */
struct cel_value bind_problems(struct bind_call *c,
			       const struct kvet_problems *ps,
			       bind_words words, enum bind_problem_shape shape);

/* A map under construction in the scratch arena: puts past @cap are
 * dropped, so size it to the keys it gets. */
struct bind_map {
	struct cel_entry *e;
	uint32_t n, cap;
};

bool bind_map_init(struct bind_call *c, struct bind_map *m, uint32_t cap);
void bind_map_put(struct bind_map *m, const char *key, struct cel_value v);
/* The map, positioned at @at (may be NULL). */
struct cel_value bind_map_done(struct bind_map *m, const struct kvet_node *at);

/* ---- the libraries ---- */

/* kvet.core: workloads, replicas, PDB budgets, objects, namespaces */
extern const struct cel_lib bind_core_lib;
/* kvet.pdb: PDB specifics, HPAs, selector overlaps, Services */
extern const struct cel_lib bind_pdb_lib;
/* kvet.spread: spreading terms, merged selectors, rollouts, nodes */
extern const struct cel_lib bind_spread_lib;
/* kvet.webhook: webhook entries, backends */
extern const struct cel_lib bind_webhook_lib;
/* kvet.intercept: interception of requests by webhook entries */
extern const struct cel_lib bind_intercept_lib;
/* kvet.roles: managers, leader election, priority, lease RBAC */
extern const struct cel_lib bind_roles_lib;

#endif
