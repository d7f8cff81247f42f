/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_RULES_CEL_H
#define KVET_RULES_CEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "rules/cel_ops.h"
#include "rules/cel_value.h"

/*
 * kvet's CEL subset, in jq's stages: cel_lex.c turns text into tokens,
 * cel_parse.c builds an AST whose nodes carry byte offsets into the
 * expression, cel_check.c resolves names and functions, infers static
 * types, folds constants and compiles regex literals, and cel_eval.c
 * evaluates. Errors of the first three stages are positioned (a byte
 * offset the rule loader turns into file:line:column); evaluation errors
 * are CEL_ERROR values.
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

/* A compile error: where, and what. */
struct cel_error {
	size_t off;		/* byte offset in the expression */
	char msg[160];
};

/* ---- lexer ---- */

enum cel_tok {
	CEL_T_EOF,
	CEL_T_INT,
	CEL_T_UINT,
	CEL_T_DOUBLE,
	CEL_T_STRING,
	CEL_T_IDENT,
	CEL_T_TRUE,
	CEL_T_FALSE,
	CEL_T_NULL,
	CEL_T_IN,
	CEL_T_LPAREN,
	CEL_T_RPAREN,
	CEL_T_LBRACKET,
	CEL_T_RBRACKET,
	CEL_T_LBRACE,
	CEL_T_RBRACE,
	CEL_T_DOT,
	CEL_T_COMMA,
	CEL_T_COLON,
	CEL_T_QUESTION,
	CEL_T_NOT,
	CEL_T_MINUS,
	CEL_T_PLUS,
	CEL_T_STAR,
	CEL_T_SLASH,
	CEL_T_PERCENT,
	CEL_T_EQ,
	CEL_T_NE,
	CEL_T_LT,
	CEL_T_LE,
	CEL_T_GT,
	CEL_T_GE,
	CEL_T_AND,
	CEL_T_OR,
};

struct cel_token {
	enum cel_tok kind;
	size_t off, len;		/* span in the expression */
	union {
		int64_t i;
		double d;
		struct {
			const char *s;	/* decoded; in the arena */
			size_t len;
		} str;
	} v;
};

struct cel_lexer {
	const char *text;
	size_t len, pos;
	struct kvet_arena *arena;
};

void cel_lexer_init(struct cel_lexer *lx, struct kvet_arena *arena,
		    const char *text, size_t len);

/* The next token. Returns 0, or -1 with @err set. */
int cel_lex_next(struct cel_lexer *lx, struct cel_token *tok,
		 struct cel_error *err);

const char *cel_tok_name(enum cel_tok kind);

/* ---- AST ---- */

enum cel_ast_kind {
	CEL_AST_LITERAL,
	CEL_AST_IDENT,		/* a variable */
	CEL_AST_SELECT,		/* kids[0].name */
	CEL_AST_INDEX,		/* kids[0][kids[1]] */
	CEL_AST_CALL,		/* name(kids...) or kids[0].name(kids[1..]) */
	CEL_AST_LIST,
	CEL_AST_MAP,		/* kids: key, value, key, value ... */
	CEL_AST_UNARY,		/* op: enum cel_unary_op */
	CEL_AST_BINARY,		/* op: enum cel_binary_op */
	CEL_AST_COND,		/* kids[0] ? kids[1] : kids[2] */
	CEL_AST_MACRO,		/* op: enum cel_macro; kids[0] the range */
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

struct cel_func;

struct cel_ast {
	uint8_t kind;		/* enum cel_ast_kind */
	uint8_t op;		/* operator or macro */
	uint8_t stype;		/* enum cel_stype, set by the checker */
	bool receiver;		/* CALL: kids[0] is the receiver */
	uint16_t n;		/* children */
	uint16_t slot;		/* IDENT, MACRO: the variable's slot */
	uint8_t height;		/* of the subtree: 1 for a leaf */
	size_t off;		/* byte offset of the node's token */
	const char *name;	/* IDENT, SELECT, CALL; MACRO: variable */
	size_t name_len;
	struct cel_ast **kids;
	struct cel_value lit;	/* LITERAL */
	const struct cel_func *fn;	/* CALL, set by the checker */
	const void *regex;	/* CALL of matches(): the compiled literal */
};

/*
 * cel_parse() - parse an expression.
 * @arena: where the AST goes.
 * @text: the expression (not NUL-terminated).
 * @len: its length.
 * @out: the root.
 * @err: set on failure.
 *
 * Returns: 0, or -1 with @err set (also when out of memory).
 */
int cel_parse(struct kvet_arena *arena, const char *text, size_t len,
	      struct cel_ast **out, struct cel_error *err);

/* ---- functions ---- */

struct cel_eval;

typedef struct cel_value (*cel_fn)(struct cel_eval *ev,
				   const struct cel_ast *call,
				   const struct cel_value *args, size_t n);

enum cel_call_style {
	CEL_CALL_GLOBAL = 1u << 0,	/* f(x) */
	CEL_CALL_METHOD = 1u << 1,	/* x.f() */
};

/* One function: a row of the built-in table or of the Kubernetes one. */
struct cel_func {
	const char *name;
	unsigned int style;		/* enum cel_call_style */
	uint8_t min_args, max_args;	/* the receiver counts as one */
	uint8_t ret;			/* enum cel_stype */
	uint8_t args[4];		/* enum cel_stype of each argument */
	cel_fn fn;
	const char *doc;		/* one line, for docs/rule-language.md */
};

/* The function @name callable in @style with @nargs arguments, or NULL;
 * @known is set when a function of that name exists at all. */
const struct cel_func *cel_func_find(const char *name, size_t len,
				     unsigned int style, size_t nargs,
				     bool *known);

/*
 * The tables, for documentation and tests: the standard functions, then
 * the Kubernetes functions, one table per topic of RULES-CATALOGUE
 * section 1 (src/rules/cel_k8s*.c). cel_func_find() searches them all.
 */
typedef const struct cel_func *(*cel_func_table_fn)(size_t *n);

const struct cel_func *cel_builtin_funcs(size_t *n);
const struct cel_func *cel_k8s_funcs(size_t *n);		/* 1.1-1.7, 1.9 */
const struct cel_func *cel_k8s_pdb_funcs(size_t *n);		/* A and B rules */
const struct cel_func *cel_k8s_spread_funcs(size_t *n);	/* 1.8 */
const struct cel_func *cel_k8s_webhook_funcs(size_t *n);	/* 1.10, 1.11 */
const struct cel_func *cel_k8s_roles_funcs(size_t *n);	/* 1.12-1.14 */

/* Every table, in search order. */
const cel_func_table_fn *cel_func_tables(size_t *n);

/* ---- checker ---- */

/* Compiled regexes, owned by a rule set and freed with it. */
struct cel_regexes {
	void **v;		/* pcre2_code * */
	size_t n, cap;
};

void cel_regexes_release(struct cel_regexes *rx);

/* The variables an expression may name, each with a slot. */
struct cel_scope {
	const char *names[8];
	size_t n;
};

struct cel_program {
	struct cel_ast *root;
	unsigned int n_slots;	/* variables and macro iteration variables */
};

/*
 * cel_compile() - parse and check an expression.
 * @arena: where the program goes.
 * @rx: where compiled regexes are recorded.
 * @text: the expression.
 * @len: its length.
 * @scope: the global variables; slot i is scope->names[i].
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
 * it runs): a budget covers everything one rule evaluates on one object.
 * A step is one node of the tree evaluated, plus one per CEL_COST_SCAN
 * items or bytes an operation scans, compares or copies
 * (docs/rule-language.md, "Limits"). Going over is an error value with
 * CEL_V_FAILURE, and every later step of the same budget fails too, so
 * no && or || absorbs it. The rule loader refuses a rule whose static
 * estimate (cel_estimate()) is over CEL_COST_ESTIMATE_LIMIT.
 */
enum {
	CEL_COST_LIMIT = 1000000,	/* steps per rule and object */
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
/* Scratch memory per rule and object. */
#define CEL_MEMORY_LIMIT ((size_t)64 << 20)

/* A program's static cost estimate (cel_cost.c). */
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

struct kvet_graph;
struct cel_k8s;

/*
 * What one evaluation needs. An environment belongs to one thread: the
 * scratch arena, regex match data and variable slots are not shared.
 */
struct cel_env {
	struct kvet_arena *scratch;	/* values of one evaluation */
	const struct kvet_graph *graph;	/* NULL outside a run */
	struct cel_k8s *k8s;		/* relations of the run, or NULL */
	void *match_ctx;		/* pcre2_match_context * */
	void *match_data;		/* pcre2_match_data * */
	unsigned int regex_errors;	/* matches() that hit a limit */
	uint64_t cost;			/* steps since cel_env_meter() */
	uint64_t cost_limit;		/* 0: not metered */
	size_t mem_base;		/* scratch bytes when metering began */
	size_t mem_limit;		/* 0: not metered */
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

/* Evaluate @prog with the variables in @vars. Never fails: errors are
 * CEL_ERROR values. */
struct cel_value cel_eval(struct cel_env *env, const struct cel_program *prog,
			  struct cel_value *vars);

/* Evaluate one subexpression; for functions that take a lambda. */
struct cel_value cel_eval_ast(struct cel_eval *ev, const struct cel_ast *ast,
			      int depth);

/* An error value formatted in the evaluation's scratch arena. The
 * message "out of memory" makes it a CEL_V_FAILURE. */
struct cel_value cel_eval_errorf(struct cel_eval *ev, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* An error that is kvet giving up, not the expression's value: a limit
 * was hit or memory ran out (CEL_V_FAILURE). */
struct cel_value cel_eval_failf(struct cel_eval *ev, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * cel_eval_charge() - charge @steps to the budget of @ev.
 * Returns: true, or false with @err set to the failure to return.
 */
bool cel_eval_charge(struct cel_eval *ev, uint64_t steps,
		     struct cel_value *err);

/* Match @s against a compiled regex: 1, 0, or an error value's code < 0. */
int cel_regex_match(struct cel_env *env, const void *re, const char *s,
		    size_t len);

/*
 * cel_regex_compile() - compile a pattern with kvet's options.
 * Returns: the code, or NULL with @err set (offset into the pattern).
 */
void *cel_regex_compile(const char *pat, size_t len, struct cel_error *err);

#endif
