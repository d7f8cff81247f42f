/* SPDX-License-Identifier: Apache-2.0 */
#include "rules/suppress.h"

#include <fnmatch.h>
#include <string.h>

#include "load/node.h"

/* Is @rule one of the comma-separated ids of @list ("*": all of them)? */
static bool list_names(const char *list, size_t len, const char *rule)
{
	size_t rl = strlen(rule), i = 0;

	while (i < len) {
		size_t start, end;

		while (i < len && (list[i] == ' ' || list[i] == ','))
			i++;
		start = i;
		while (i < len && list[i] != ',')
			i++;
		end = i;
		while (end > start && list[end - 1] == ' ')
			end--;
		if ((end - start == 1 && list[start] == '*') ||
		    (end - start == rl && memcmp(list + start, rule, rl) == 0))
			return true;
	}
	return false;
}

bool kvet_suppressed_by_annotation(struct kvet_arena *arena,
				   const struct kvet_object *obj,
				   const char *rule, const char **justification)
{
	const struct kvet_node *ann =
		kvet_node_path(obj->root, "metadata", "annotations", NULL);
	const struct kvet_node *ids = kvet_node_get(ann, KVET_ANNOTATION_IGNORE);
	const struct kvet_node *why;

	*justification = NULL;
	if (!kvet_node_is_string(ids) || !list_names(ids->u.str, ids->len, rule))
		return false;
	why = kvet_node_get(ann, KVET_ANNOTATION_IGNORE_REASON);
	if (kvet_node_is_string(why) && why->len)
		*justification = kvet_arena_strndup(arena, why->u.str, why->len);
	return true;
}

static bool glob_ok(const char *pattern, const char *s)
{
	return !pattern || fnmatch(pattern, s ? s : "", 0) == 0;
}

bool kvet_suppress_entry_matches(const struct kvet_suppress_entry *e,
				 const struct kvet_finding *f)
{
	return glob_ok(e->rule, f->rule) &&
	       (!e->kind || strcmp(e->kind, f->object.kind) == 0) &&
	       glob_ok(e->namespace, f->object.namespace) &&
	       glob_ok(e->name, f->object.name);
}
