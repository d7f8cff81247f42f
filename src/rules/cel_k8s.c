/* SPDX-License-Identifier: Apache-2.0 */
/* Helpers of the binding files not yet on rules/bind.h. */
#include "rules/cel_k8s.h"

#include <stdlib.h>
#include <string.h>

#include "base/vec.h"
#include "model/pdb.h"
#include "model/webhook.h"

void *cel_k8s_cache(struct cel_eval *ev, enum kvet_run_slot slot,
		    kvet_run_build_fn build, kvet_run_free_fn free)
{
	return kvet_run_index(kvet_cel_run(ev), slot, build, free);
}

const struct kvet_webhooks *cel_k8s_webhooks(struct cel_eval *ev)
{
	return kvet_run_webhooks(kvet_cel_run(ev));
}

bool cel_k8s_is_kind(const struct kvet_object *obj, const char *group,
		     const char *kind)
{
	return !strcmp(obj->kind, kind) && !strcmp(obj->group, group);
}

/* The object behind an argument, or an error naming the function. */
#define OBJ_ARG(ev, v, name)						\
	if (!kvet_cel_object(v))					\
		return cel_eval_errorf(ev, "%s() needs an object, not %s", \
				       name, cel_type_name((v)->type))

struct cel_value cel_k8s_no_graph(struct cel_eval *ev, const char *name)
{
	return cel_eval_errorf(ev, "%s() needs the object graph of a run", name);
}

struct cel_value cel_k8s_object_list(struct cel_eval *ev,
				     const struct kvet_object *const *objs,
				     size_t n)
{
	struct cel_value v = { .type = CEL_LIST }, *items;
	size_t i;

	items = kvet_arena_array(ev->env->scratch, n + 1, sizeof(*items));
	if (!items)
		return cel_eval_errorf(ev, "out of memory");
	for (i = 0; i < n; i++)
		items[i] = kvet_cel_from_object(objs[i]);
	v.u.items = items;
	v.len = (uint32_t)n;
	return v;
}

struct cel_value cel_k8s_workload_list(struct cel_eval *ev,
				       const struct kvet_workload *const *wls,
				       size_t n)
{
	struct cel_value v = { .type = CEL_LIST }, *items;
	size_t i;

	items = kvet_arena_array(ev->env->scratch, n + 1, sizeof(*items));
	if (!items)
		return cel_eval_errorf(ev, "out of memory");
	for (i = 0; i < n; i++)
		items[i] = kvet_cel_from_object(wls[i]->obj);
	v.u.items = items;
	v.len = (uint32_t)n;
	return v;
}

const struct kvet_workload *cel_k8s_workload_arg(struct cel_eval *ev,
						 const struct cel_value *v,
						 const char *name,
						 struct cel_value *err)
{
	const struct kvet_workload *wl;

	if (!kvet_cel_object(v)) {
		*err = cel_eval_errorf(ev, "%s() needs an object, not %s", name,
				       cel_type_name(v->type));
		return NULL;
	}
	if (!kvet_cel_graph(ev)) {
		*err = cel_k8s_no_graph(ev, name);
		return NULL;
	}
	wl = kvet_graph_workload_of(kvet_cel_graph(ev), kvet_cel_object(v));
	if (!wl)
		*err = cel_eval_errorf(ev, "%s(): %s \"%s\" is not a workload",
				       name, kvet_cel_object(v)->kind,
				       kvet_cel_object(v)->name);
	return wl;
}

