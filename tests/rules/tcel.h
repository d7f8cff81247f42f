/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_TESTS_TCEL_H
#define KVET_TESTS_TCEL_H

/*
 * Compile and evaluate CEL expressions as rules do: with kvet's
 * libraries and kvet as the host, `object` bound to a Kubernetes object
 * with kvet_cel_from_object(). tcel_attach() gives the functions the
 * graph of a run.
 */
#include "support.h"

#include "../cel/tcel.h"
#include "model/run.h"
#include "rules/env.h"

struct tcel_kvet {
	struct tcel t;	/* first: a struct tcel * is one of these */
	struct kvet_cel_host host;
};

static inline struct tcel_kvet *tcel_kvet(struct tcel *t)
{
	return (struct tcel_kvet *)t;
}

static inline struct tcel *tcel_new(void)
{
	struct tcel_kvet *k = (struct tcel_kvet *)tcel_create(
		sizeof(*k), kvet_cel_libs, kvet_cel_n_libs);

	kvet_cel_host_attach(&k->t.env, &k->host, NULL);
	return &k->t;
}

/* Evaluate in the run of graph @g, or outside a run when @g is NULL. */
static inline void tcel_attach(struct tcel *t, struct kvet_arena *arena,
			       const struct kvet_graph *g)
{
	struct kvet_cel_host *h = &tcel_kvet(t)->host;

	kvet_run_destroy(h->run);
	kvet_cel_host_attach(&t->env, h, g ? kvet_run_create(arena, g) : NULL);
}

static inline void tcel_free(struct tcel *t)
{
	kvet_run_destroy(tcel_kvet(t)->host.run);
	tcel_destroy(t);
}

#endif
