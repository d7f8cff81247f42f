/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_CEL_OPS_H
#define KVET_CEL_OPS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The operators of kvet's CEL subset, defined once. Each X-macro row
 * builds the enum, the spelling used by the lexer, parser and messages,
 * and the binding strength the parser climbs by (CEL's grammar:
 * || < && < relations < + - < * / %).
 *
 *   X(NAME, spelling, precedence)
 */
#define CEL_BINARY_OPS(X)	\
	X(OR, "||", 1)		\
	X(AND, "&&", 2)		\
	X(EQ, "==", 3)		\
	X(NE, "!=", 3)		\
	X(LT, "<", 3)		\
	X(LE, "<=", 3)		\
	X(GT, ">", 3)		\
	X(GE, ">=", 3)		\
	X(IN, "in", 3)		\
	X(ADD, "+", 4)		\
	X(SUB, "-", 4)		\
	X(MUL, "*", 5)		\
	X(DIV, "/", 5)		\
	X(MOD, "%", 5)

#define CEL_UNARY_OPS(X)	\
	X(NOT, "!", 0)		\
	X(NEG, "-", 0)

/*
 * The macros: receiver-style calls whose arguments are not evaluated
 * first (CEL spec, "Macros"). has() is the global one.
 *
 *   X(NAME, spelling, min args, max args)
 */
#define CEL_MACROS(X)			\
	X(HAS, "has", 1, 1)		\
	X(ALL, "all", 2, 2)		\
	X(EXISTS, "exists", 2, 2)	\
	X(EXISTS_ONE, "exists_one", 2, 2) \
	X(FILTER, "filter", 2, 2)	\
	X(MAP, "map", 2, 3)

#define CEL_ENUM_BIN(name, str, prec) CEL_OP_##name,
#define CEL_ENUM_UN(name, str, prec) CEL_UOP_##name,
#define CEL_ENUM_MACRO(name, str, lo, hi) CEL_MACRO_##name,

enum cel_binary_op { CEL_BINARY_OPS(CEL_ENUM_BIN) CEL_OP_COUNT };
enum cel_unary_op { CEL_UNARY_OPS(CEL_ENUM_UN) CEL_UOP_COUNT };
enum cel_macro { CEL_MACROS(CEL_ENUM_MACRO) CEL_MACRO_COUNT };

#undef CEL_ENUM_BIN
#undef CEL_ENUM_UN
#undef CEL_ENUM_MACRO

const char *cel_binary_op_name(enum cel_binary_op op);
int cel_binary_op_precedence(enum cel_binary_op op);
const char *cel_unary_op_name(enum cel_unary_op op);
const char *cel_macro_name(enum cel_macro m);
/* The macro named @name with @nargs arguments, or -1. */
int cel_macro_find(const char *name, size_t len, bool receiver);
void cel_macro_arity(enum cel_macro m, unsigned int *lo, unsigned int *hi);

#endif
