/* SPDX-License-Identifier: Apache-2.0 */
#include "model/kinds.h"

#include <string.h>

/* Kinds rules name without their group, and the group they mean. */
static const struct {
	const char *kind, *group;
} kind_groups[] = {
	{ "APIService", "apiregistration.k8s.io" },
	{ "ClusterRole", "rbac.authorization.k8s.io" },
	{ "ClusterRoleBinding", "rbac.authorization.k8s.io" },
	{ "ConfigMap", "" },
	{ "CronJob", "batch" },
	{ "CustomResourceDefinition", "apiextensions.k8s.io" },
	{ "DaemonSet", "apps" },
	{ "Deployment", "apps" },
	{ "HorizontalPodAutoscaler", "autoscaling" },
	{ "Job", "batch" },
	{ "Lease", "coordination.k8s.io" },
	{ "MutatingWebhookConfiguration", "admissionregistration.k8s.io" },
	{ "Namespace", "" },
	{ "Node", "" },
	{ "Pod", "" },
	{ "PodDisruptionBudget", "policy" },
	{ "PriorityClass", "scheduling.k8s.io" },
	{ "ReplicaSet", "apps" },
	{ "ReplicationController", "" },
	{ "Role", "rbac.authorization.k8s.io" },
	{ "RoleBinding", "rbac.authorization.k8s.io" },
	{ "Secret", "" },
	{ "Service", "" },
	{ "ServiceAccount", "" },
	{ "StatefulSet", "apps" },
	{ "ValidatingWebhookConfiguration", "admissionregistration.k8s.io" },
};

const char *kvet_kind_group(const char *kind)
{
	size_t i;

	for (i = 0; i < sizeof(kind_groups) / sizeof(kind_groups[0]); i++)
		if (!strcmp(kind_groups[i].kind, kind))
			return kind_groups[i].group;
	return NULL;
}

/* Split @name ("Kind" or "group/Kind"); see kvet_graph_objects_named(). */
static int split_name(struct kvet_arena *arena, const char *name,
		      const char **group, const char **kind)
{
	const char *slash = strchr(name, '/');

	*kind = slash ? slash + 1 : name;
	*group = slash ? kvet_arena_strndup(arena, name,
					    (size_t)(slash - name))
		       : kvet_kind_group(*kind);
	if (!*group)
		return slash ? -1 : -2;
	return 0;
}

int kvet_graph_objects_named(struct kvet_arena *arena,
			     const struct kvet_graph *g, const char *name,
			     const char *ns, const struct kvet_object ***out,
			     size_t *n)
{
	const char *kind, *group;
	struct kvet_object *const *objs;
	size_t i, cnt;
	int r;

	*out = NULL;
	*n = 0;
	r = split_name(arena, name, &group, &kind);
	if (r)
		return r;
	objs = kvet_graph_kind(g, group, kind, &cnt);
	*out = kvet_arena_array(arena, cnt + 1, sizeof(**out));
	if (!*out)
		return -1;
	for (i = 0; i < cnt; i++)
		if (!ns || !strcmp(objs[i]->namespace, ns))
			(*out)[(*n)++] = objs[i];
	return 0;
}

int kvet_graph_kind_named_known(struct kvet_arena *arena,
				const struct kvet_graph *g, const char *name,
				bool *out)
{
	const char *kind, *group;
	int r = split_name(arena, name, &group, &kind);

	*out = !r && kvet_graph_kind_known(g, group, kind);
	return r;
}
