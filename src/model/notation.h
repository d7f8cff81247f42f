/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_MODEL_NOTATION_H
#define KVET_MODEL_NOTATION_H

#include <stddef.h>

#include "base/strbuf.h"
#include "model/object.h"
#include "model/pdb.h"
#include "model/selector.h"
#include "model/spread.h"

/*
 * How kvet writes Kubernetes values in messages, each in one place:
 * selectors as kubectl prints them, IntOrString values as written, term
 * names and scopes, lists of workloads. Rule messages quote these, so
 * the goldens pin every spelling.
 */

enum kvet_notation_flags {
	/* a value of a runtime key (pod-template-hash, ...) is no value
	 * the input shows: "<pod-template-hash of this pod>" */
	KVET_NOTE_RUNTIME = 1u << 0,
};

/**
 * kvet_requirement_notation() - one requirement as
 * labels.Requirement.String() of k8s.io/apimachinery writes it: k=v for
 * an In of one value (matchLabels), k in (a,b), k notin (a,b), k, !k.
 * @flags: enum kvet_notation_flags.
 */
void kvet_requirement_notation(struct kvet_strbuf *sb,
			       const struct kvet_requirement *r,
			       unsigned int flags);

/* The requirements of @sel, comma-separated (labels.Selector.String()). */
void kvet_requirements_notation(struct kvet_strbuf *sb,
				const struct kvet_selector *sel,
				unsigned int flags);

/**
 * kvet_selector_notation() - a selector field as written: "null" when
 * absent, "{}" when empty, "(invalid: <why>)", else its requirements (a
 * PodDisruptionBudget's, Service's or workload's spec.selector).
 */
void kvet_selector_notation(struct kvet_strbuf *sb,
			    const struct kvet_selector *sel);

/**
 * kvet_selector_meaning_notation() - a selector by what it selects:
 * "(no selector: nothing)", "(invalid selector: nothing)", "{} (every
 * pod)", else its requirements with runtime values as placeholders (a
 * term's merged selector, a namespaceSelector).
 */
void kvet_selector_meaning_notation(struct kvet_strbuf *sb,
				    const struct kvet_selector *sel);

/* An IntOrString as written: "50%" quoted, 1 bare, null, "a mapping". */
void kvet_intstr_notation(struct kvet_strbuf *sb, const struct kvet_intstr *v);

/* "required pod anti-affinity term #1", "topology spread constraint #2". */
void kvet_term_name(struct kvet_strbuf *sb, const struct kvet_term *t);

/* The namespaces a term looks in: "namespace ops", "every namespace",
 * "namespaces a, b and namespaces matching team=x". */
void kvet_term_scope_notation(struct kvet_strbuf *sb,
			      const struct kvet_term *t);

/**
 * kvet_object_names() - "Deployment ops/a, StatefulSet ops/b and 2
 * more": @shown of @objs, then how many of @total are left.
 */
void kvet_object_names(struct kvet_strbuf *sb,
		       const struct kvet_object *const *objs, size_t shown,
		       size_t total);

#endif
