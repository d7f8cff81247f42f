/* SPDX-License-Identifier: Apache-2.0 */
#include "rules/check_types.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

static const char *const field_type_refs[] = {
	"https://kubernetes.io/docs/reference/using-api/api-concepts/#field-validation",
};

const struct kvet_rule_info kvet_check_field_types_info = {
	.id = KVET_RULE_FIELD_TYPE,
	.severity = KVET_SEV_ERROR,
	.commands = KVET_RULE_IN_LINT | KVET_RULE_IN_DRAIN,
	.category = "schema",
	.summary = "a field that rules read has the wrong type",
	.description =
		"The YAML is valid, but a field the availability rules read has a "
		"type the API server rejects: `replicas: \"two\"`, a label value "
		"`1.0` that is not a string, a `minAvailable` that is a boolean. "
		"`kubectl apply` fails on the object, and kvet's rules treat the "
		"field as absent.",
	.remediation =
		"Write the value with the type the API expects: integers unquoted, "
		"label and annotation values quoted when YAML would read them as "
		"numbers or booleans.",
	.references = field_type_refs,
	.n_references = 1,
};

enum want {
	WANT_INT,		/* a non-negative integer */
	WANT_INT_OR_STRING,	/* IntOrString */
	WANT_STRING,
	WANT_MAP,
	WANT_STRING_MAP,	/* labels and annotations */
};

/* Fields read by the shared definitions of docs/model.md. */
static const struct field {
	const char *group;	/* NULL: any */
	const char *kind;	/* NULL: any */
	const char *path[5];
	enum want want;
} fields[] = {
	{ NULL, NULL, { "metadata", "namespace" }, WANT_STRING },
	{ NULL, NULL, { "metadata", "labels" }, WANT_STRING_MAP },
	{ NULL, NULL, { "metadata", "annotations" }, WANT_STRING_MAP },
	{ "apps", "Deployment", { "spec", "replicas" }, WANT_INT },
	{ "apps", "ReplicaSet", { "spec", "replicas" }, WANT_INT },
	{ "apps", "StatefulSet", { "spec", "replicas" }, WANT_INT },
	{ "", "ReplicationController", { "spec", "replicas" }, WANT_INT },
	{ "apps", "Deployment", { "spec", "template", "metadata", "labels" },
	  WANT_STRING_MAP },
	{ "apps", "StatefulSet", { "spec", "template", "metadata", "labels" },
	  WANT_STRING_MAP },
	{ "apps", "DaemonSet", { "spec", "template", "metadata", "labels" },
	  WANT_STRING_MAP },
	{ "apps", "ReplicaSet", { "spec", "template", "metadata", "labels" },
	  WANT_STRING_MAP },
	{ "apps", "Deployment", { "spec", "selector" }, WANT_MAP },
	{ "apps", "StatefulSet", { "spec", "selector" }, WANT_MAP },
	{ "apps", "DaemonSet", { "spec", "selector" }, WANT_MAP },
	{ "autoscaling", "HorizontalPodAutoscaler", { "spec", "minReplicas" },
	  WANT_INT },
	{ "autoscaling", "HorizontalPodAutoscaler", { "spec", "maxReplicas" },
	  WANT_INT },
	{ "policy", "PodDisruptionBudget", { "spec", "minAvailable" },
	  WANT_INT_OR_STRING },
	{ "policy", "PodDisruptionBudget", { "spec", "maxUnavailable" },
	  WANT_INT_OR_STRING },
};

static const char *want_name(enum want want)
{
	switch (want) {
	case WANT_INT:
		return "a non-negative integer";
	case WANT_INT_OR_STRING:
		return "an integer or a percentage string";
	case WANT_STRING:
		return "a string";
	case WANT_MAP:
		return "a mapping";
	case WANT_STRING_MAP:
		return "a mapping of strings";
	}
	return "?";
}

/* The type a node was loaded with, also after it was invalidated. */
static enum kvet_node_type loaded_type(const struct kvet_node *v)
{
	return (v->flags & KVET_NODE_INVALID) ? v->invalid_type : v->type;
}

/* An integer that does not fit the API's int32 fields (replicas,
 * minAvailable, minReplicas are int32 in every API version). */
static bool out_of_range(const struct kvet_node *v)
{
	long long n;

	return loaded_type(v) == KVET_NODE_INT && !kvet_node_int32(v, &n);
}

static const struct kvet_node *bad_value(const struct kvet_node *v,
					 enum want want)
{
	uint32_t i;
	long long n;

	/* reported for an earlier object sharing it (an alias) */
	if (v->flags & KVET_NODE_INVALID)
		return v;
	switch (want) {
	case WANT_INT:
		if (!kvet_node_int32(v, &n) || n < 0)
			return v;
		return NULL;
	case WANT_INT_OR_STRING:
		if (v->type == KVET_NODE_STRING)
			return NULL;
		return kvet_node_int32(v, &n) ? NULL : v;
	case WANT_STRING:
		return v->type == KVET_NODE_STRING ? NULL : v;
	case WANT_MAP:
		return v->type == KVET_NODE_MAP ? NULL : v;
	case WANT_STRING_MAP:
		if (v->type != KVET_NODE_MAP)
			return v;
		/* label values are strings: "version: 1.0" must be quoted */
		for (i = 0; i < v->len; i++)
			if (v->u.pairs[i].value.type != KVET_NODE_STRING &&
			    v->u.pairs[i].value.type != KVET_NODE_NULL)
				return &v->u.pairs[i].value;
		return NULL;
	}
	return NULL;
}

static const char *describe(const struct kvet_node *v, char *buf, size_t len)
{
	enum kvet_node_type type = loaded_type(v);

	if (type == KVET_NODE_MAP || type == KVET_NODE_SEQ)
		snprintf(buf, len, "%s", kvet_node_type_a(type));
	else
		snprintf(buf, len, "the %s \"%.*s\"", kvet_node_type_name(type),
			 (int)(v->len > 40 ? 40 : v->len), v->u.str);
	return buf;
}

/* What to write instead, for the help line. */
static const char *want_help(enum want want)
{
	switch (want) {
	case WANT_INT:
		return "write a whole number of 0 or more, without quotes (`replicas: 2`)";
	case WANT_INT_OR_STRING:
		return "write an integer (`1`) or a percentage in quotes (`\"50%\"`)";
	case WANT_STRING:
		return "quote the value so that YAML reads it as a string";
	case WANT_MAP:
		return "write a mapping, such as `matchLabels: {app: web}`";
	case WANT_STRING_MAP:
		return "write a mapping of keys to quoted strings";
	}
	return NULL;
}

static const char reason[] =
	"the API server rejects an object whose field has the wrong type, so "
	"`kubectl apply` fails; kvet's other rules read the field as unset";

int kvet_check_field_types(struct kvet_findings *fs,
			   const struct kvet_object *obj, size_t file_order)
{
	size_t i, k;

	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		const struct field *fd = &fields[i];
		const struct kvet_node *v = obj->root, *bad;
		const struct kvet_pair *pair = NULL;
		struct kvet_finding_text text = { .reason = reason };
		char path[128] = "", what[80], headline[320], help[160];
		size_t used = 0, depth;

		if ((fd->group && strcmp(fd->group, obj->group) != 0) ||
		    (fd->kind && strcmp(fd->kind, obj->kind) != 0))
			continue;
		for (depth = 0; depth < 5 && fd->path[depth] && v; depth++) {
			pair = kvet_node_get_pair(v, fd->path[depth]);
			v = pair ? &pair->value : NULL;
		}
		if (!v || (kvet_node_is_null(v) &&
			   !(v->flags & KVET_NODE_INVALID)))
			continue;
		bad = bad_value(v, fd->want);
		if (!bad)
			continue;
		/* written only for a finding: every object passes here */
		for (k = 0; k < depth; k++)
			used += (size_t)snprintf(path + used, sizeof(path) - used,
						 "%s%s", k ? "." : "",
						 fd->path[k]);
		text.headline = headline;
		text.help = help;
		if (bad != v) {
			const struct kvet_pair *bp =
				(const struct kvet_pair *)((const char *)bad -
							   offsetof(struct kvet_pair, value));

			snprintf(headline, sizeof(headline),
				 "%s \"%.*s\" must be a string, not %s", path,
				 (int)(bp->key.len > 80 ? 80 : bp->key.len),
				 bp->key.u.str,
				 describe(bad, what, sizeof(what)));
			if (kvet_node_is_scalar(bad))
				snprintf(help, sizeof(help),
					 "quote the value: \"%.*s\"",
					 (int)(bad->len > 40 ? 40 : bad->len),
					 bad->u.str);
			else
				snprintf(help, sizeof(help), "%s",
					 "write the value as a quoted string");
			if (!kvet_findings_add(fs, KVET_RULE_FIELD_TYPE,
					       KVET_SEV_ERROR, obj, file_order,
					       bad, &text))
				return -1;
			continue;
		}
		snprintf(headline, sizeof(headline), "%s must be %s, not %s",
			 path,
			 out_of_range(v) ? "a 32-bit integer" : want_name(fd->want),
			 describe(v, what, sizeof(what)));
		snprintf(help, sizeof(help), "%s",
			 out_of_range(v) ? "write a number below 2147483648"
					 : want_help(fd->want));
		if (!kvet_findings_add(fs, KVET_RULE_FIELD_TYPE, KVET_SEV_ERROR,
				       obj, file_order, v, &text))
			return -1;
		/* the rules must not compute with it: "minReplicas -inf" */
		if ((fd->want == WANT_INT || fd->want == WANT_INT_OR_STRING) &&
		    kvet_findings_invalidate(fs, v) < 0)
			return -1;
	}
	return 0;
}
