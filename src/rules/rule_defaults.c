/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What a team's rule file may leave out: a rule needs only id, severity,
 * match, condition and message (docs/rule-language.md, "A minimal
 * rule"). Reports and `kvet explain` then read these defaults, so no
 * consumer meets a NULL.
 */
#include "rules/rules.h"

#include <stdbool.h>
#include <string.h>

/* The first paragraph of @md on one line: runs of white space become one
 * space. NULL when it is empty. */
static const char *first_paragraph(const char *md, struct kvet_arena *arena,
				   bool *oom)
{
	const char *s = md, *end;
	char *out, *o;

	while (*s == ' ' || *s == '\n' || *s == '\t')
		s++;
	end = strstr(s, "\n\n");
	if (!end)
		end = s + strlen(s);
	if (end == s)
		return NULL;
	out = o = kvet_arena_alloc(arena, (size_t)(end - s) + 1);
	if (!out) {
		*oom = true;
		return NULL;
	}
	for (; s < end; s++) {
		char c = *s == '\n' || *s == '\t' || *s == '\r' ? ' ' : *s;

		if (c == ' ' && (o == out || o[-1] == ' '))
			continue;
		*o++ = c;
	}
	while (o > out && o[-1] == ' ')
		o--;
	*o = '\0';
	return out;
}

int kvet_rule_fill_defaults(struct kvet_rule *r, struct kvet_arena *arena)
{
	struct kvet_rule_info *info = &r->info;
	bool oom = false;

	if (!info->category)
		info->category = "custom";
	/* the message as written, {{ }} and all, says what the rule finds */
	if (!info->summary)
		info->summary = r->message.text   ? r->message.text
				: r->headline.text ? r->headline.text
						   : info->id;
	if (!info->description)
		info->description = info->summary;
	if (!info->remediation)
		info->remediation = "";
	if (!r->help.text)
		r->help_default = first_paragraph(info->remediation, arena,
						  &oom);
	return oom ? -1 : 0;
}
