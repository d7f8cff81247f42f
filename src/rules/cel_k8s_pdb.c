/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Kubernetes functions of CEL for RULES-CATALOGUE section 3, groups A and B: PDB specifics, HPAs, selector overlaps, Services.
 */
#include "rules/cel_k8s.h"

#include "rules/cel.h"

const struct cel_func *cel_k8s_pdb_funcs(size_t *n)
{
	*n = 0;
	return NULL;
}
