/* SPDX-License-Identifier: Apache-2.0 */
#include "findings/suppress.h"

#include <fnmatch.h>
#include <string.h>

#include "load/node.h"

/* The next id of the comma-separated @list from *@i, without the spaces
 * around it: false when there is none left. */
static bool next_id(const char *list, size_t len, size_t *i, size_t *start,
		    size_t *end)
{
	while (*i < len && (list[*i] == ' ' || list[*i] == ','))
		(*i)++;
	if (*i == len)
		return false;
	*start = *i;
	while (*i < len && list[*i] != ',')
		(*i)++;
	*end = *i;
	while (*end > *start && list[*end - 1] == ' ')
		(*end)--;
	return true;
}

/* Is @rule one of the comma-separated ids of @list ("*": all of them)? */
static bool list_names(const char *list, size_t len, const char *rule)
{
	size_t rl = strlen(rule), i = 0, start, end;

	while (next_id(list, len, &i, &start, &end))
		if ((end - start == 1 && list[start] == '*') ||
		    (end - start == rl && memcmp(list + start, rule, rl) == 0))
			return true;
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

void kvet_ignore_check(const struct kvet_object *obj,
		       bool (*known)(const void *user, const char *id),
		       const void *user, struct kvet_diag *diag)
{
	const struct kvet_node *ann =
		kvet_node_path(obj->root, "metadata", "annotations", NULL);
	const struct kvet_node *ids = kvet_node_get(ann, KVET_ANNOTATION_IGNORE);
	size_t i = 0, start, end;
	char id[256];

	if (!kvet_node_is_string(ids))
		return;
	while (next_id(ids->u.str, ids->len, &i, &start, &end)) {
		size_t n = end - start;

		if (n == 1 && ids->u.str[start] == '*')
			continue;
		/* no rule id is that long: unknown without a lookup */
		if (n < sizeof(id)) {
			memcpy(id, ids->u.str + start, n);
			id[n] = '\0';
			if (known(user, id))
				continue;
		}
		kvet_diag_notef(diag, KVET_NOTICE_WARNING, obj->file, ids->line,
				ids->col,
				"unknown rule \"%.*s\" in " KVET_ANNOTATION_IGNORE
				" of %s \"%s\" (kvet rules lists the rules)",
				(int)n, ids->u.str + start, obj->kind,
				obj->name);
	}
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
