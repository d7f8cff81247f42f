/* SPDX-License-Identifier: Apache-2.0 */
#include "model/orphan.h"

#include "model/hash.h"

static struct kvet_slice text_of(const struct kvet_node *n)
{
	struct kvet_slice s = { "", 0 };

	kvet_node_slice(n, &s);
	return s;
}

bool kvet_workload_controller_ref(const struct kvet_workload *wl,
				  struct kvet_controller_ref *out)
{
	const struct kvet_node *refs, *ref;
	uint32_t i;

	if (!wl->orphan)
		return false;
	refs = kvet_node_path(wl->obj->root, "metadata", "ownerReferences",
			      NULL);
	for (i = 0; kvet_node_is_seq(refs) && i < refs->len; i++) {
		ref = &refs->u.items[i];
		if (!kvet_node_true(kvet_node_get(ref, "controller")))
			continue;
		out->api_version = text_of(kvet_node_get(ref, "apiVersion"));
		out->kind = text_of(kvet_node_get(ref, "kind"));
		out->name = text_of(kvet_node_get(ref, "name"));
		out->uid = text_of(kvet_node_get(ref, "uid"));
		out->node = ref;
		return true;
	}
	return false;
}

int kvet_workloads_distinct(struct kvet_arena *arena,
			    const struct kvet_workload *const *v, size_t n,
			    const struct kvet_workload *const **out,
			    size_t *n_out)
{
	const struct kvet_workload **kept = NULL;
	struct kvet_controller_ref ref;
	struct kvet_hash seen;
	size_t i, k = 0;
	int r = -1;

	*out = v;
	*n_out = n;
	for (i = 0; i < n && !v[i]->orphan; i++)
		;
	if (i == n)
		return 0;
	kvet_hash_init(&seen, arena);
	kept = kvet_arena_array(arena, n, sizeof(*kept));
	if (!kept)
		goto out;
	for (i = 0; i < n; i++) {
		if (kvet_workload_controller_ref(v[i], &ref)) {
			struct kvet_slice key[3] = { ref.kind, ref.name,
						     ref.uid };
			bool created = false;

			if (!kvet_hash_put(&seen, key, 3, &created))
				goto out;
			if (!created)
				continue;
		}
		kept[k++] = v[i];
	}
	*out = kept;
	*n_out = k;
	r = 0;
out:
	kvet_hash_release(&seen);
	return r;
}
