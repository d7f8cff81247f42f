/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_CEL_AST_H
#define KVET_CEL_AST_H

/*
 * Inside the engine: the tokens, the syntax tree its stages share (lexer,
 * parser, checker, cost estimate, evaluator), and what the stages ask of
 * each other. A host needs none of it: cel.h is its face.
 */
#include "cel/cel.h"
#include "cel/ops.h"

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
	CEL_AST_VARIABLE,	/* variables.name, resolved by the checker:
				 * slot is its index in the scope's list */
};

struct cel_func;

struct cel_ast {
	uint8_t kind;		/* enum cel_ast_kind */
	uint8_t op;		/* operator or macro */
	uint8_t stype;		/* enum cel_stype, set by the checker */
	bool receiver;		/* CALL: kids[0] is the receiver */
	uint16_t n;		/* children */
	uint16_t slot;		/* IDENT, MACRO: the variable's slot;
				 * VARIABLE: its index */
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

/* ---- between the stages ---- */

/* Evaluate one subexpression (the checker folds constants with it). */
struct cel_value cel_eval_ast(struct cel_eval *ev, const struct cel_ast *ast,
			      int depth);

/* Charge @steps under both caps of @env (struct cel_env): true, or
 * false with nothing charged, for the exact test of cel_eval_charge(). */
static inline bool cel_charge_capped(struct cel_env *env, uint64_t steps)
{
	uint64_t cost = env->cost + steps;

	if (cost < steps || cost > env->cost_cap ||
	    env->scratch->total > env->mem_cap)
		return false;
	env->cost = cost;
	return true;
}

/* Charge @steps to @ev's budget, or return the failure from the caller. */
#define CEL_CHARGE(ev, steps) do {					\
		struct cel_value e_;					\
		uint64_t s_ = (steps);					\
		if (!cel_charge_capped((ev)->env, s_) &&		\
		    !cel_eval_charge(ev, s_, &e_))			\
			return e_;					\
	} while (0)

/* The values of @a @op @b, an arithmetic operator (arith.c). */
struct cel_value cel_arith(struct cel_eval *ev, enum cel_binary_op op,
			   const struct cel_value *a, const struct cel_value *b);

/* -1, 0, 1 for <, ==, >; -2 when the values do not compare (arith.c). */
int cel_compare(const struct cel_value *a, const struct cel_value *b);

/* The error of a function given a value of a type it has no form for. */
struct cel_value cel_no_overload(struct cel_eval *ev, const char *fn,
				 const struct cel_value *v);

/* Is @fn the standard matches(), whose pattern the checker compiles? */
bool cel_std_is_matches(const struct cel_func *fn);

/* Match @s against a compiled regex: 1, 0, or an error value's code < 0. */
int cel_regex_match(struct cel_env *env, const void *re, const char *s,
		    size_t len);

/*
 * cel_regex_compile() - compile a pattern with the engine's options.
 * Returns: the code, or NULL with @err set (offset into the pattern).
 */
void *cel_regex_compile(const char *pat, size_t len, struct cel_error *err);

#endif
