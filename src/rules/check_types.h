/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_RULES_CHECK_TYPES_H
#define KVET_RULES_CHECK_TYPES_H

#include "model/object.h"
#include "findings/findings.h"

#define KVET_RULE_FIELD_TYPE "invalid-field-type"

/* The documentation of the check, for reports and `kvet explain`. */
extern const struct kvet_rule_info kvet_check_field_types_info;

/*
 * kvet_check_field_types() - report fields the rules rely on whose YAML
 * is fine but whose type the API server would reject ("replicas: two").
 * Rules then treat such a field as absent, so the finding is the one
 * place that says why. Returns 0, or -1 when out of memory.
 */
int kvet_check_field_types(struct kvet_findings *fs,
			   const struct kvet_object *obj, size_t file_order);

#endif
