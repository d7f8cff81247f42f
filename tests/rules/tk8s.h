/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_TESTS_TK8S_H
#define KVET_TESTS_TK8S_H

/*
 * The fixture of the Kubernetes binding tests: a graph loaded from YAML
 * text and a CEL evaluator wired to it, with `object` bound by name.
 */
#include "tcel.h"
#include "tgraph.h"

#include "rules/bind.h"

struct fixture {
	struct tgraph tg;
	struct tcel *t;
};

static inline struct fixture *tk8s_load(const char *input)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->tg = tg_load(input, 0);
	f->t = tcel_new();
	tcel_attach(f->t, &f->tg.l->arena, f->tg.g);
	return f;
}

static inline void teardown(struct fixture *f)
{
	tcel_free(f->t);
	tg_free(&f->tg);
	free(f);
}

/* Bind `object` to (@group, @kind, @ns, @name), which must exist. */
static inline void tk8s_bind(struct fixture *f, const char *group,
			     const char *kind, const char *ns, const char *name)
{
	const struct kvet_object *obj = kvet_graph_find(f->tg.g, group, kind,
							ns, name);

	if (!obj)
		fail_msg("no %s %s/%s", kind, ns, name);
	f->t->vars[0] = kvet_cel_from_object(obj);
}

#endif
