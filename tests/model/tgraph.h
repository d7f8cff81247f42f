/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_TESTS_TGRAPH_H
#define KVET_TESTS_TGRAPH_H

/* A graph over a YAML text, loaded with the real loader. */
#include "support.h"

#include "model/graph.h"

struct tgraph {
	struct loaded *l;
	struct kvet_graph *g;
};

static inline struct tgraph tg_load_cfg(const char *yaml,
				       const struct kvet_graph_config *cfg)
{
	struct tgraph t;

	t.l = load_str(yaml);
	if (t.l->diag.n)
		fail_msg("input error: %s", t.l->diag.errors[0].message);
	t.g = kvet_graph_create(&t.l->arena, t.l->objs.v, t.l->objs.n, cfg);
	assert_non_null(t.g);
	return t;
}

static inline struct tgraph tg_load(const char *yaml, unsigned int flags)
{
	struct kvet_graph_config cfg = { 0 };

	cfg.flags = flags;
	return tg_load_cfg(yaml, &cfg);
}

static inline void tg_free(struct tgraph *t)
{
	kvet_graph_destroy(t->g);
	loaded_free(t->l);
}

/* The workload of object (@group, @kind, @ns, @name); fails when none. */
static inline const struct kvet_workload *
tg_wl(const struct tgraph *t, const char *group, const char *kind,
      const char *ns, const char *name)
{
	const struct kvet_object *obj = kvet_graph_find(t->g, group, kind, ns,
							name);

	if (!obj)
		fail_msg("no object %s/%s %s/%s", group, kind, ns, name);
	return kvet_graph_workload_of(t->g, obj);
}

#endif
