/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_RULES_EXPLAIN_H
#define KVET_RULES_EXPLAIN_H

#include "base/strbuf.h"
#include "model/intercept.h"
#include "model/leader.h"
#include "model/manager.h"
#include "model/priority.h"
#include "model/problem.h"
#include "model/spread.h"
#include "model/webhook.h"
#include "model/workload.h"

/*
 * The words of the model's reasons. The model says why as data (a code,
 * the field it concerns, the values it saw: model/problem.h,
 * kvet_term_why); these functions turn that into the English of rule
 * messages, and are the one place to reword it.
 */

/* "has no topologyKey", "looks in namespace a, which does not include
 * namespace b", ...; nothing when the term is effective. */
void explain_term_flaw(struct kvet_strbuf *sb, const struct kvet_term *t,
		       const struct kvet_term_why *why);

/* Why each of a workload's terms falls short ("preferred pod
 * anti-affinity term #1 uses topologyKey kubernetes.io/os, ..."),
 * separated by "; "; effective terms say nothing. */
void explain_terms_flaws(struct kvet_strbuf *sb, const struct kvet_graph *g,
			 const struct kvet_terms *tm);

/* A problem of kvet_pod_spec_term_problems(): "maxSkew 0 is not an
 * integer of at least 1". */
void explain_sched_problem(struct kvet_strbuf *sb,
			   const struct kvet_problem *p);

/* A problem of kvet_pdb_problems(): "maxUnavailable -1 is negative". */
void explain_pdb_problem(struct kvet_strbuf *sb, const struct kvet_problem *p);

/* The requirement @wl's pods fail, and what they have instead:
 * "app=mgr, its pods have app=manager", "..., its pods lack app". */
void explain_unmet_requirement(struct kvet_strbuf *sb,
			       const struct kvet_requirement *r,
			       const struct kvet_workload *wl);

/* The autoscaler that decides @wl's minimum, or "": 'HPA "web"
 * minReplicas 2', 'ScaledObject "web" minReplicaCount 0: 1 pod once
 * active' (docs/model.md 1.4). */
void explain_scaler(struct kvet_strbuf *sb, const struct kvet_workload *wl);

/* Why the API server refuses @wl's selector for its template, or ""
 * when it does not: "its selector app=web needs app=web, and the pod
 * template has app=website", "it has no spec.selector", ... */
void explain_template_flaw(struct kvet_strbuf *sb,
			   const struct kvet_workload *wl);

/* Why @wh intercepts @req or not (@r), as a sentence: "rules[0] matches
 * CREATE core/pods in namespace \"ops\" (the namespaceSelector matches
 * it); ..."; @pods: the labels were a workload's pods'. */
void explain_interception(struct kvet_strbuf *sb, const struct kvet_webhook *wh,
			  const struct kvet_request *req,
			  const struct kvet_interception *r, bool pods);

/* B for a message: each workload with its N_min and where it comes
 * from, or "no workload labelled ... in namespace ...". */
void explain_backend(struct kvet_strbuf *sb, const struct kvet_webhook *wh,
		     const struct kvet_backend *b);

/* How leader election was decided: "--leader-elect=false in container
 * \"manager\"", "leaderElect: true in key ... of ConfigMap ...". */
void explain_leader(struct kvet_strbuf *sb, const struct kvet_leader *le);

/* Why criterion @c makes @wl a manager: "M1: it serves webhook ...",
 * "M3: label control-plane=controller-manager"; nothing for an M1 whose
 * entry is gone. @whs may be NULL. */
void explain_manager_criterion(struct kvet_strbuf *sb,
			       const struct kvet_webhooks *whs,
			       const struct kvet_workload *wl,
			       const struct kvet_manager *m,
			       enum kvet_manager_criteria c);

/* Where an effective priority comes from: "priorityClassName \"x\":
 * PriorityClass value 1000", "spec.priority of its live Pod". */
void explain_priority_origin(struct kvet_strbuf *sb,
			     const struct kvet_priority *p);

/* The Lease verbs of @verbs (enum kvet_lease_verbs) in English: "get",
 * "get and update", "get, create and update", with @last ("and", "or")
 * before the last. */
void explain_lease_verbs(struct kvet_strbuf *sb, unsigned int verbs,
			 const char *last);

#endif
