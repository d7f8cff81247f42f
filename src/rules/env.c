/* SPDX-License-Identifier: Apache-2.0 */
#include "rules/env.h"

#include <stddef.h>
#include <string.h>

#include "model/run.h"
#include "rules/bind.h"

const struct cel_lib *const kvet_cel_libs[] = {
	&cel_lib_std,
	&cel_lib_strings,
	&bind_core_lib,
	&bind_pdb_lib,
	&bind_spread_lib,
	&bind_webhook_lib,
	&bind_intercept_lib,
	&bind_roles_lib,
};
const size_t kvet_cel_n_libs = sizeof(kvet_cel_libs) / sizeof(kvet_cel_libs[0]);

/*
 * An item of a typed list (DeploymentList) has its kind and apiVersion
 * from the list: they are the object's all the same, so object.kind
 * works on every object (kvet_objects_from_docs() records them).
 */
bool kvet_cel_object_field(const struct cel_host *host,
			 const struct cel_value *v, const char *name,
			 size_t len, struct cel_value *out)
{
	const struct kvet_object *obj = kvet_cel_object(v);

	if (obj && len == 4 && !memcmp(name, "kind", 4)) {
		*out = cel_string(obj->kind, strlen(obj->kind));
		return true;
	}
	if (obj && len == 10 && !memcmp(name, "apiVersion", 10)) {
		*out = cel_string(obj->api_version, strlen(obj->api_version));
		return true;
	}
	return false;
}

void kvet_cel_host_attach(struct cel_env *env, struct kvet_cel_host *h,
			  struct kvet_run *run)
{
	h->host.field = kvet_cel_object_field;
	h->graph = kvet_run_graph(run);
	h->run = run;
	env->host = &h->host;
}

const struct kvet_graph *kvet_cel_graph(const struct cel_eval *ev)
{
	const struct kvet_cel_host *h = kvet_cel_host_of(ev);

	return h ? h->graph : NULL;
}

struct kvet_run *kvet_cel_run(const struct cel_eval *ev)
{
	const struct kvet_cel_host *h = kvet_cel_host_of(ev);

	return h ? h->run : NULL;
}
