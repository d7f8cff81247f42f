/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_MODEL_RELEASE_LABEL_H
#define KVET_MODEL_RELEASE_LABEL_H

#include <stdbool.h>

#include "model/graph.h"
#include "model/labels.h"
#include "model/pdb.h"
#include "model/selector.h"
#include "model/service.h"
#include "model/term.h"

/*
 * Release-agnostic selectors (docs/model.md 1.7, rule
 * selector-ignores-release): a selector that constrains only the keys
 * every installation of a chart shares (app.kubernetes.io/name, app,
 * component, ...) while the pods it is meant for carry the label that
 * tells one release from another (app.kubernetes.io/instance, release)
 * selects a second release of the chart in the namespace too. The
 * selectors and terms are the ones model/selector.c and model/term.c
 * read; this file only compares their keys with the pods' labels.
 */

/* The label that names a release, as the pods carry it. */
struct kvet_release_label {
	struct kvet_slice key;		/* app.kubernetes.io/instance, ... */
	struct kvet_slice value;	/* the release's name */
};

/**
 * kvet_release_agnostic_key() - does every installation of a chart share
 * @key: a shared key (kvet_shared_label_key()), or app.kubernetes.io/name,
 * app, name, component or k8s-app (off, like the shared keys, when the
 * configuration replaces sharedLabelKeys)?
 */
bool kvet_release_agnostic_key(const struct kvet_graph *g,
			       struct kvet_slice key);

/**
 * kvet_budget_ignores_release() - does the PDB's selector constrain only
 * release-agnostic keys, none of them with a value that carries the
 * release's name, while every workload it selects carries one release
 * label with one value? A budget that selects nothing, or the workloads
 * of several releases (the input shows the second release: rule
 * pdb-overlapping and the others report it), does not.
 * @out: the release label the selector leaves out, when it does.
 */
bool kvet_budget_ignores_release(const struct kvet_graph *g,
				 const struct kvet_budget *b,
				 struct kvet_release_label *out);

/**
 * kvet_service_ignores_release() - the same question for a Service's
 * selector over @wls, the workloads it selects (kvet_run_selected_by()):
 * a second release's pods would be its endpoints too.
 * @out: the release label the selector leaves out, when it does.
 */
bool kvet_service_ignores_release(const struct kvet_graph *g,
				  const struct kvet_service *svc,
				  const struct kvet_workload *const *wls,
				  size_t n, struct kvet_release_label *out);

/**
 * kvet_term_ignores_release() - the same question for a term's merged
 * selector (docs/model.md 1.8) and its own workload's pods.
 * @out: the release label the selector leaves out, when it does.
 */
bool kvet_term_ignores_release(const struct kvet_graph *g,
			       const struct kvet_term *t,
			       struct kvet_release_label *out);

#endif
