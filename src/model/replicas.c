/* SPDX-License-Identifier: Apache-2.0 */
#include "model/replicas.h"

#include <stdint.h>
#include <string.h>

bool kvet_object_is_hpa(const struct kvet_object *obj)
{
	return obj->group && strcmp(obj->group, "autoscaling") == 0 &&
	       obj->kind && strcmp(obj->kind, "HorizontalPodAutoscaler") == 0;
}

static bool is_scaled_object(const struct kvet_object *obj)
{
	return obj->group && strcmp(obj->group, "keda.sh") == 0 &&
	       obj->kind && strcmp(obj->kind, "ScaledObject") == 0;
}

bool kvet_object_is_scaler(const struct kvet_object *obj)
{
	return kvet_object_is_hpa(obj) || is_scaled_object(obj);
}

const char *kvet_api_group(struct kvet_arena *arena, const char *api_version)
{
	const char *slash;

	if (!api_version)
		return "";
	slash = strchr(api_version, '/');
	if (!slash)
		return "";
	return kvet_arena_strndup(arena, api_version,
				  (size_t)(slash - api_version));
}

bool kvet_replicas_field(const struct kvet_node *n, long long *out)
{
	long long v;

	if (!kvet_node_int(n, &v) || v < 0 || v > INT32_MAX)
		return false;
	*out = v;
	return true;
}

static const char *scalar_dup(struct kvet_arena *arena,
			      const struct kvet_node *n)
{
	if (!kvet_node_is_string(n))
		return "";
	return kvet_arena_strndup(arena, n->u.str, n->len);
}

static int parse_keda(const struct kvet_node *spec, struct kvet_hpa *out)
{
	if (!*out->target_kind)
		out->target_kind = "Deployment";
	out->min_node = kvet_node_get(spec, "minReplicaCount");
	out->max_node = kvet_node_get(spec, "maxReplicaCount");
	if (kvet_node_is_null(out->min_node))
		out->min_node = NULL;
	if (kvet_node_is_null(out->max_node))
		out->max_node = NULL;
	out->min = 0;
	kvet_replicas_field(out->min_node, &out->min);
	if (out->min < 1)
		out->min = 1;
	out->max = 100;
	kvet_replicas_field(out->max_node, &out->max);
	if (out->max < out->min)
		out->max = out->min;
	return 0;
}

int kvet_hpa_parse(struct kvet_arena *arena, const struct kvet_object *obj,
		   struct kvet_hpa *out)
{
	const struct kvet_node *spec = kvet_node_get(obj->root, "spec");
	const struct kvet_node *ref = kvet_node_get(spec, "scaleTargetRef");
	const struct kvet_node *av = kvet_node_get(ref, "apiVersion");

	memset(out, 0, sizeof(*out));
	out->obj = obj;
	out->target_node = ref;
	out->target_group = "";
	out->keda = is_scaled_object(obj);
	if (kvet_node_is_string(av)) {
		const char *s = scalar_dup(arena, av);

		out->target_group = s ? kvet_api_group(arena, s) : NULL;
	} else if (out->keda) {
		/* https://keda.sh/docs/latest/reference/scaledobject-spec/:
		 * apiVersion defaults to apps/v1, kind to Deployment */
		out->target_group = "apps";
	}
	out->target_kind = scalar_dup(arena, kvet_node_get(ref, "kind"));
	out->target_name = scalar_dup(arena, kvet_node_get(ref, "name"));
	if (!out->target_group || !out->target_kind || !out->target_name)
		return -1;
	if (out->keda)
		return parse_keda(spec, out);
	out->min_node = kvet_node_get(spec, "minReplicas");
	out->max_node = kvet_node_get(spec, "maxReplicas");
	if (kvet_node_is_null(out->min_node))
		out->min_node = NULL;
	if (kvet_node_is_null(out->max_node))
		out->max_node = NULL;
	/* minReplicas defaults to 1 in every autoscaling version */
	out->min = 1;
	kvet_replicas_field(out->min_node, &out->min);
	if (!kvet_replicas_field(out->max_node, &out->max))
		out->max = out->min;
	return 0;
}
