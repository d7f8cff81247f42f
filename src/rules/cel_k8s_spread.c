/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Kubernetes functions of CEL for RULES-CATALOGUE 1.8: spreading terms and merged selectors (rules C1-C6).
 */
#include "rules/cel_k8s.h"

#include "rules/cel.h"

const struct cel_func *cel_k8s_spread_funcs(size_t *n)
{
	*n = 0;
	return NULL;
}
