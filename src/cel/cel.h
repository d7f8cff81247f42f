/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_CEL_CEL_H
#define KVET_CEL_CEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cel/cel_host.h"
#include "cel/value.h"

/*
 * kvet's CEL subset, an engine that knows nothing of Kubernetes: the
 * face a host program uses (cel-go's cel package). The stages are jq's
 * and cel-go's: lex.c turns text into tokens, parse.c builds an AST
 * whose nodes carry byte offsets into the expression, check.c resolves
 * names and functions, infers static types, folds constants and
 * compiles regex literals, and eval.c evaluates, metered by a step
 * budget. Errors of the first three stages are positioned (a byte
 * offset the host turns into file:line:column); evaluation errors are
 * CEL_ERROR values.
 *
 * Functions come in libraries (struct cel_lib, cel-go's cel.Lib): the
 * standard one (lib_std.c), the strings extension (lib_strings.c), and
 * whatever the host adds; the host lists them in the scope it compiles
 * with. What the engine needs from its host is in cel_host.h.
 */

/*
 * Height bound of an expression's syntax tree. Every walk over the tree
 * (parser, checker, cost estimate, evaluator) recurses on it, so the
 * parser refuses a deeper expression when the rule is loaded. Chains
 * count: `a.b.c` and `1 + 2 + 3` are as deep as they are long, except
 * chains of && and ||, which are associative and parsed balanced (a
 * 1000-term || is 10 deep).
 */
enum { CEL_MAX_DEPTH = 64 };

/*
 * Height bound of an expression together with the lazy variables it
 * reads (struct cel_scope): a variable is evaluated where it is read, so
 * the evaluator's recursion goes through its tree too. The checker
 * refuses a program over it, so that a chain of variables, each within
 * CEL_MAX_DEPTH, cannot add up to a stack overflow.
 */
enum { CEL_MAX_EVAL_DEPTH = 4 * CEL_MAX_DEPTH };

/* A compile error: where, and what. */
struct cel_error {
	size_t off;		/* byte offset in the expression */
	char msg[160];
};

/* Static types the checker infers; DYN when it cannot know. */
enum cel_stype {
	CEL_ST_DYN,
	CEL_ST_NULL,
	CEL_ST_BOOL,
	CEL_ST_INT,
	CEL_ST_DOUBLE,
	CEL_ST_STRING,
	CEL_ST_LIST,
	CEL_ST_MAP,
};

/* ---- functions ---- */

struct cel_ast;
struct cel_eval;

/*
 * A function's implementation. @call is the call in the program, for
 * what the checker prepared (the compiled regex of matches()); @args are
 * evaluated, none an error, @n of them with the receiver first. The
 * types of arguments the row declares are checked when they are known
 * statically only, so an implementation checks the types it needs.
 */
typedef struct cel_value (*cel_fn)(struct cel_eval *ev,
				   const struct cel_ast *call,
				   const struct cel_value *args, size_t n);

enum cel_call_style {
	CEL_CALL_GLOBAL = 1u << 0,	/* f(x) */
	CEL_CALL_METHOD = 1u << 1,	/* x.f() */
};

/* One function: a row of a library's table. */
struct cel_func {
	const char *name;
	unsigned int style;		/* enum cel_call_style */
	uint8_t min_args, max_args;	/* the receiver counts as one */
	uint8_t ret;			/* enum cel_stype */
	uint8_t args[4];		/* enum cel_stype of each argument */
	cel_fn fn;
	const char *doc;		/* one line, for docs/rule-language.md */
	/* The host's own part of the row, for an @fn that serves many rows
	 * (kvet: rules/bind.h); the engine never reads it. */
	const void *data;
};

/*
 * A library: a named table of functions (cel-go's cel.Lib, with names
 * like "cel.lib.ext.strings" or "kvet.pdb"). The host lists the ones an
 * expression may call in its scope; the first row of a name callable in
 * the call's style with its number of arguments wins, in list order.
 */
struct cel_lib {
	const char *name;
	const struct cel_func *funcs;
	size_t n;
};

#define CEL_LIB(libname, rows)						\
	{ .name = (libname), .funcs = (rows),				\
	  .n = sizeof(rows) / sizeof((rows)[0]) }

/*
 * cel_func_find() - the row of @name callable in @style with @nargs
 * arguments, searching @libs in order, or NULL; @known is set when a
 * function of that name exists at all, for an error message.
 */
const struct cel_func *cel_func_find(const struct cel_lib *const *libs,
				     size_t n_libs, const char *name,
				     size_t len, unsigned int style,
				     size_t nargs, bool *known);

/* size, startsWith, endsWith, contains, matches, the conversions, dyn */
extern const struct cel_lib cel_lib_std;
/* join, lowerAscii: cel-go's strings extension */
extern const struct cel_lib cel_lib_strings;

/* ---- checker ---- */

/* Compiled regexes, owned by the host (a rule set) and freed with it. */
struct cel_regexes {
	void **v;		/* pcre2_code * */
	size_t n, cap;
};

void cel_regexes_release(struct cel_regexes *rx);

struct cel_program {
	struct cel_ast *root;
	unsigned int n_slots;	/* variables and macro iteration variables */
	unsigned int height;	/* of its tree with the lazy variables it
				 * reads, at most CEL_MAX_EVAL_DEPTH */
};

/*
 * What an expression may name: variables, each with a slot, the
 * functions of the libraries, and lazy variables.
 *
 * Lazy variables are named expressions that others read as
 * NAMESPACE.name (ValidatingAdmissionPolicy's spec.variables, read as
 * variables.name): each is compiled on its own, in order, and may read
 * only the ones before it, so they cannot form a cycle. The checker
 * turns each reference into the variable's index, so there is no lookup
 * by name when it runs; at run time a struct cel_lazy holds the values.
 */
struct cel_scope {
	const char *names[8];
	size_t n;
	const struct cel_lib *const *libs;
	size_t n_libs;
	/* the first slot of macro iteration variables, if above @n: the
	 * host keeps the slots of lazy variables apart from the others',
	 * since one may be evaluated inside another's macro */
	unsigned int first_slot;
	/* lazy variables: NULL @lazy_ns for none */
	const char *lazy_ns;		/* "variables" */
	const char *const *lazy_names;	/* all of them, in order */
	size_t n_lazy;
	const struct cel_program *lazy;	/* the compiled ones */
	size_t n_lazy_visible;		/* the first ones readable */
	/* compiling lazy variable n_lazy_visible itself: the ones after
	 * it are "defined after", not hidden */
	bool lazy_compiling;
	/* why the others are not readable here, for the error */
	const char *lazy_hidden_why;
};

/*
 * cel_compile() - parse and check an expression.
 * @arena: where the program goes.
 * @rx: where compiled regexes are recorded.
 * @text: the expression.
 * @len: its length.
 * @scope: the global variables (slot i is scope->names[i]) and the
 *         libraries.
 * @out: the program.
 * @err: set on failure: syntax, unknown variable or function, wrong
 *       number of arguments, a type error, a bad regex.
 *
 * Returns: 0, or -1 with @err set.
 */
int cel_compile(struct kvet_arena *arena, struct cel_regexes *rx,
		const char *text, size_t len, const struct cel_scope *scope,
		struct cel_program *out, struct cel_error *err);

/* ---- cost ---- */

/*
 * Evaluation is metered, as Kubernetes meters CEL in admission control
 * (a cost estimate when an expression is loaded, a runtime budget when
 * it runs): a budget covers every evaluation from one cel_env_meter()
 * to the next (kvet: everything one rule evaluates on one object).
 * A step is one node of the tree evaluated, plus one per CEL_COST_SCAN
 * items or bytes an operation scans, compares or copies
 * (docs/rule-language.md, "Limits"). Going over is an error value with
 * CEL_V_FAILURE, and every later step of the same budget fails too, so
 * no && or || absorbs it. kvet's rule loader refuses a rule whose static
 * estimate (cel_estimate()) is over CEL_COST_ESTIMATE_LIMIT.
 */
enum {
	CEL_COST_LIMIT = 1000000,	/* steps of one budget */
	CEL_COST_REGEX_GAVE_UP = 10000,	/* a matches() that hit a limit */
	/*
	 * The estimate takes every list of unknown size to hold 100
	 * items, at every level of nesting, where real ones mostly hold a
	 * few: it may be ten times the budget. A rule over it would run
	 * out on lists of a tenth of that size, nested as deep.
	 */
	CEL_COST_UNKNOWN_SIZE = 100,
	CEL_COST_ESTIMATE_LIMIT = 10 * CEL_COST_LIMIT,
};
/* Scratch memory of one budget. */
#define CEL_MEMORY_LIMIT ((size_t)64 << 20)

/* A program's static cost estimate (cost.c). */
struct cel_estimate {
	double cost;	/* steps, a list of unknown size counted as
			 * CEL_COST_UNKNOWN_SIZE items */
	double size;	/* of its value: items of a list or map, bytes of a
			 * string, CEL_COST_UNKNOWN_SIZE when not known */
	size_t off;	/* the costliest macro, or 0: where to point */
};

/*
 * cel_estimate() - estimate the cost of @prog.
 * @known: the values of global slots known when it is compiled (NULL
 *         for one that is not), @n_known of them.
 */
void cel_estimate(const struct cel_program *prog,
		  const struct cel_value *const *known, size_t n_known,
		  struct cel_estimate *out);

/* ---- evaluation ---- */

/*
 * What one evaluation needs. An environment belongs to one thread: the
 * scratch arena, regex match data and variable slots are not shared.
 */
struct cel_env {
	struct kvet_arena *scratch;	/* values of one evaluation */
	const struct cel_host *host;	/* the host's hooks, or NULL */
	struct cel_lazy *lazy;		/* the lazy variables, or NULL */
	void *match_ctx;		/* pcre2_match_context * */
	void *match_data;		/* pcre2_match_data * */
	unsigned int regex_errors;	/* matches() that hit a limit */
	uint64_t cost;			/* steps since cel_env_meter() */
	uint64_t cost_limit;		/* 0: not metered */
	size_t mem_base;		/* scratch bytes when metering began */
	size_t mem_limit;		/* 0: not metered */
	/* the same limits as caps that a step compares with, set by
	 * cel_env_meter(): the evaluator charges each node without a call
	 * while under both, and takes the exact test above once over
	 * either (an environment set up otherwise always takes it) */
	uint64_t cost_cap;		/* cost_limit, or UINT64_MAX */
	size_t mem_cap;			/* mem_base + mem_limit, or SIZE_MAX */
};

/*
 * cel_env_meter() - start a budget: @steps steps and @bytes of scratch
 * memory from now on (0: no limit). cel_env_init() starts one of
 * CEL_COST_LIMIT and CEL_MEMORY_LIMIT.
 */
void cel_env_meter(struct cel_env *env, uint64_t steps, size_t bytes);

/* Charge @steps; false once the budget is spent. */
static inline bool cel_env_charge(struct cel_env *env, uint64_t steps)
{
	env->cost += steps;
	return !env->cost_limit || env->cost <= env->cost_limit;
}

/* Regex limits (docs/rule-language.md): bound each matches() call. */
enum {
	CEL_REGEX_MATCH_LIMIT = 100000,
	CEL_REGEX_DEPTH_LIMIT = 1000,
	CEL_REGEX_HEAP_LIMIT_KIB = 4096,
};

int cel_env_init(struct cel_env *env, struct kvet_arena *scratch);
void cel_env_release(struct cel_env *env);

struct cel_eval {
	struct cel_env *env;
	struct cel_value *vars;		/* program->n_slots of them */
};

/*
 * The values of lazy variables (struct cel_scope) for one activation.
 * A variable is evaluated when first read and at most once until
 * cel_lazy_reset(): its value, an error as much as any other, is kept,
 * so its cost is charged once (as ValidatingAdmissionPolicy: "Both the
 * result and potential error are memorized and count only once towards
 * the runtime cost"). Give it to the environment as env->lazy.
 */
enum cel_lazy_state {
	CEL_LAZY_UNSET,
	CEL_LAZY_BUSY,		/* being evaluated */
	CEL_LAZY_SET,
};

struct cel_lazy {
	const struct cel_program *progs;	/* @n of them */
	struct cel_value *values;	/* @n, host-owned */
	uint8_t *state;			/* @n, enum cel_lazy_state */
	size_t n;
};

/* Forget every value: the next activation (object, item) starts. */
void cel_lazy_reset(struct cel_lazy *lz);

/* Evaluate @prog with the variables in @vars. Never fails: errors are
 * CEL_ERROR values. */
struct cel_value cel_eval(struct cel_env *env, const struct cel_program *prog,
			  struct cel_value *vars);

/* An error value formatted in the evaluation's scratch arena. The
 * message "out of memory" makes it a CEL_V_FAILURE. */
struct cel_value cel_eval_errorf(struct cel_eval *ev, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* An error that is the engine giving up, not the expression's value: a
 * limit was hit or memory ran out (CEL_V_FAILURE). */
struct cel_value cel_eval_failf(struct cel_eval *ev, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * cel_eval_charge() - charge @steps to the budget of @ev.
 * Returns: true, or false with @err set to the failure to return.
 */
bool cel_eval_charge(struct cel_eval *ev, uint64_t steps,
		     struct cel_value *err);

#endif
