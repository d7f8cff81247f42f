/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_FINDINGS_CHECK_H
#define KVET_FINDINGS_CHECK_H

/*
 * A check built into kvet in C rather than in a rule file: its
 * documentation (with the commands that run it, info->commands) and how
 * it runs. Rule files are all run the same way, per object by the rule
 * runner; the C checks are not, because each needs what exists only at
 * one stage of a run: the field-type check sees each object before the
 * graph is built (rules then read its bad fields as unset), the roll
 * needs the whole graph and runs once after the rules, and the drain
 * checks have no run of their own: they name what the drain simulation
 * runs into, and the simulation raises them as it goes. So the run is
 * one of three signatures, chosen by the stage, rather than one forced
 * on all three.
 */
#include <stddef.h>

#include "kvet/common.h"
#include "findings/findings.h"
#include "model/object.h"

enum kvet_check_stage {
	KVET_CHECK_PER_OBJECT,	/* each object, before the graph */
	KVET_CHECK_PER_RUN,	/* once, after the rules, on the graph */
	KVET_CHECK_BY_DRAIN,	/* raised by the drain simulation */
};

struct kvet_check {
	const struct kvet_rule_info *info;
	enum kvet_check_stage stage;
	union {
		/* findings of @obj, from file @file_order; 0 or -1 (OOM) */
		int (*object)(struct kvet_findings *fs,
			      const struct kvet_object *obj,
			      size_t file_order);
		/* findings of the whole run; 0 or -1 (OOM) */
		int (*run)(struct kvet_ctx *ctx);
	} run;
};

#endif
