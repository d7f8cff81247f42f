/* SPDX-License-Identifier: Apache-2.0 */
/* Names and precedences of the operator and macro tables (ops.h). */
#include "cel/ops.h"

#include <string.h>

#define NAME_ROW(name, str, prec) [CEL_OP_##name] = str,
#define PREC_ROW(name, str, prec) [CEL_OP_##name] = prec,
#define UNAME_ROW(name, str, prec) [CEL_UOP_##name] = str,
#define MNAME_ROW(name, str, lo, hi) [CEL_MACRO_##name] = str,
#define MLO_ROW(name, str, lo, hi) [CEL_MACRO_##name] = lo,
#define MHI_ROW(name, str, lo, hi) [CEL_MACRO_##name] = hi,

static const char *const binary_names[] = { CEL_BINARY_OPS(NAME_ROW) };
static const int binary_prec[] = { CEL_BINARY_OPS(PREC_ROW) };
static const char *const unary_names[] = { CEL_UNARY_OPS(UNAME_ROW) };
static const char *const macro_names[] = { CEL_MACROS(MNAME_ROW) };
static const unsigned int macro_lo[] = { CEL_MACROS(MLO_ROW) };
static const unsigned int macro_hi[] = { CEL_MACROS(MHI_ROW) };

const char *cel_binary_op_name(enum cel_binary_op op)
{
	return (unsigned int)op < CEL_OP_COUNT ? binary_names[op] : "?";
}

int cel_binary_op_precedence(enum cel_binary_op op)
{
	return (unsigned int)op < CEL_OP_COUNT ? binary_prec[op] : 0;
}

const char *cel_unary_op_name(enum cel_unary_op op)
{
	return (unsigned int)op < CEL_UOP_COUNT ? unary_names[op] : "?";
}

const char *cel_macro_name(enum cel_macro m)
{
	return (unsigned int)m < CEL_MACRO_COUNT ? macro_names[m] : "?";
}

void cel_macro_arity(enum cel_macro m, unsigned int *lo, unsigned int *hi)
{
	*lo = macro_lo[m];
	*hi = macro_hi[m];
}

int cel_macro_find(const char *name, size_t len, bool receiver)
{
	unsigned int m;

	for (m = 0; m < CEL_MACRO_COUNT; m++) {
		if (strlen(macro_names[m]) != len ||
		    memcmp(macro_names[m], name, len) != 0)
			continue;
		/* has() is global; the others are receiver-style */
		if ((m == CEL_MACRO_HAS) != !receiver)
			return -1;
		return (int)m;
	}
	return -1;
}
