/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What a team's rule file may leave out: a rule needs only id, severity,
 * match, condition and message (docs/rule-language.md, "A minimal
 * rule"). Reports and `kvet explain` then read these defaults, so no
 * consumer meets a NULL.
 */
#include "rules/rules.h"

#include <string.h>

void kvet_rule_fill_defaults(struct kvet_rule *r)
{
	struct kvet_rule_info *info = &r->info;

	if (!info->category)
		info->category = "custom";
	/* the message as written, {{ }} and all, says what the rule finds */
	if (!info->summary)
		info->summary = r->message_text ? r->message_text : info->id;
	if (!info->description)
		info->description = info->summary;
	if (!info->remediation)
		info->remediation = "";
}
