/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_MODEL_PDB_VALIDATE_H
#define KVET_MODEL_PDB_VALIDATE_H

#include "base/arena.h"
#include "model/pdb.h"
#include "model/problem.h"

/*
 * What the API server rejects in a PodDisruptionBudget (rule
 * pdb-invalid-spec), after pkg/apis/policy/validation/validation.go
 * (ValidatePodDisruptionBudgetSpec) and the version it serves.
 */
enum kvet_pdb_problem {
	KVET_PDB_V1BETA1,		/* text: the apiVersion */
	KVET_PDB_BOTH_SET,		/* value: minAvailable, value2:
					 * maxUnavailable */
	KVET_PDB_NEGATIVE,		/* field, number */
	KVET_PDB_OVER_100,		/* field, value: a percentage */
	KVET_PDB_QUOTED_DIGITS,		/* field, value: "1", a string */
	KVET_PDB_BAD_STRING,		/* field, value: not "<digits>%" */
	KVET_PDB_OUT_OF_INT32,		/* field, value */
	KVET_PDB_NOT_INTSTR,		/* field, value: a float, a map ... */
	KVET_PDB_SELECTOR_INVALID,	/* text: why; at: the place inside
					 * the selector when known */
};

/**
 * kvet_pdb_problems() - the problems of @pdb, each positioned at its
 * field's key (the selector's inside the selector, as a bare position).
 * @arena: where the problems go.
 * Returns: 0, or -1 when out of memory.
 */
int kvet_pdb_problems(struct kvet_arena *arena, const struct kvet_pdb *pdb,
		      struct kvet_problems *out);

#endif
