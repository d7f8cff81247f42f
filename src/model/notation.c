/* SPDX-License-Identifier: Apache-2.0 */
#include "model/notation.h"

#include <string.h>

/* Findings' words are built here hundreds of thousands of times in a
 * findings-heavy run: pieces are appended, not formatted. Like "%.*s", a
 * slice ends at a NUL byte (a JSON "\u0000" decodes to one). */
static void add_slice(struct kvet_strbuf *sb, struct kvet_slice x)
{
	const char *nul = x.len ? memchr(x.s, '\0', x.len) : NULL;

	kvet_strbuf_add(sb, x.s, nul ? (size_t)(nul - x.s) : x.len);
}

/* "%llu" of @n, appended. */
static void add_uint(struct kvet_strbuf *sb, unsigned long long n)
{
	char buf[24], *p = buf + sizeof(buf);

	do {
		*--p = (char)('0' + n % 10);
		n /= 10;
	} while (n);
	kvet_strbuf_add(sb, p, (size_t)(buf + sizeof(buf) - p));
}

static void value_notation(struct kvet_strbuf *sb, struct kvet_slice key,
			   struct kvet_slice v, unsigned int flags)
{
	if ((flags & KVET_NOTE_RUNTIME) && kvet_runtime_key(key)) {
		kvet_strbuf_adds(sb, "<");
		add_slice(sb, key);
		kvet_strbuf_adds(sb, " of this pod>");
	} else {
		add_slice(sb, v);
	}
}

/*
 * labels.Requirement.String() (k8s.io/apimachinery/pkg/labels/
 * selector.go) writes "=" for the Equals of matchLabels and "notin (v)"
 * for a NotIn of any number of values, as `kubectl get -o wide` shows;
 * kvet keeps matchLabels as an In of one value, so that is "=".
 */
void kvet_requirement_notation(struct kvet_strbuf *sb,
			       const struct kvet_requirement *r,
			       unsigned int flags)
{
	size_t i;

	switch (r->op) {
	case KVET_SEL_IN:
	case KVET_SEL_NOT_IN:
		if (r->op == KVET_SEL_IN && r->n_values == 1) {
			add_slice(sb, r->key);
			kvet_strbuf_adds(sb, "=");
			value_notation(sb, r->key, r->values[0], flags);
			return;
		}
		add_slice(sb, r->key);
		kvet_strbuf_adds(sb, r->op == KVET_SEL_IN ? " in (" : " notin (");
		for (i = 0; i < r->n_values; i++) {
			if (i)
				kvet_strbuf_adds(sb, ",");
			value_notation(sb, r->key, r->values[i], flags);
		}
		kvet_strbuf_adds(sb, ")");
		return;
	case KVET_SEL_EXISTS:
		add_slice(sb, r->key);
		return;
	case KVET_SEL_DOES_NOT_EXIST:
		kvet_strbuf_adds(sb, "!");
		add_slice(sb, r->key);
		return;
	}
}

void kvet_requirements_notation(struct kvet_strbuf *sb,
				const struct kvet_selector *sel,
				unsigned int flags)
{
	size_t i;

	for (i = 0; i < sel->n_reqs; i++) {
		if (i)
			kvet_strbuf_adds(sb, ",");
		kvet_requirement_notation(sb, &sel->reqs[i], flags);
	}
}

void kvet_selector_notation(struct kvet_strbuf *sb,
			    const struct kvet_selector *sel)
{
	if (sel->meaning == KVET_SEL_INVALID)
		kvet_strbuf_addf(sb, "(invalid: %s)",
				 sel->error ? sel->error : "?");
	else if (sel->form == KVET_SEL_FORM_ABSENT)
		kvet_strbuf_adds(sb, "null");
	else if (sel->form == KVET_SEL_FORM_EMPTY)
		kvet_strbuf_adds(sb, "{}");
	else
		kvet_requirements_notation(sb, sel, 0);
}

void kvet_selector_meaning_notation(struct kvet_strbuf *sb,
				    const struct kvet_selector *sel)
{
	switch (sel->meaning) {
	case KVET_SEL_NOTHING:
		kvet_strbuf_adds(sb, "(no selector: nothing)");
		return;
	case KVET_SEL_INVALID:
		kvet_strbuf_adds(sb, "(invalid selector: nothing)");
		return;
	case KVET_SEL_EVERYTHING:
		kvet_strbuf_adds(sb, "{} (every pod)");
		return;
	case KVET_SEL_MATCH:
		kvet_requirements_notation(sb, sel, KVET_NOTE_RUNTIME);
		return;
	}
}

void kvet_intstr_notation(struct kvet_strbuf *sb, const struct kvet_intstr *v)
{
	const struct kvet_node *n = v->node;

	if (!n)
		kvet_strbuf_adds(sb, "null");
	else if (kvet_node_is_string(n))
		kvet_strbuf_addf(sb, "\"%.*s\"", (int)n->len, n->u.str);
	else if (kvet_node_is_scalar(n))
		kvet_strbuf_addf(sb, "%.*s", (int)n->len, n->u.str);
	else
		kvet_strbuf_adds(sb, kvet_node_type_a(n->type));
}

void kvet_term_name(struct kvet_strbuf *sb, const struct kvet_term *t)
{
	kvet_strbuf_adds(sb, kvet_term_kind_name(t->kind));
	kvet_strbuf_adds(sb, " #");
	add_uint(sb, (unsigned int)(t->index + 1));
}

void kvet_term_scope_notation(struct kvet_strbuf *sb,
			      const struct kvet_term *t)
{
	size_t i;

	if (t->scope_own) {
		kvet_strbuf_adds(sb, "namespace ");
		kvet_strbuf_adds(sb, t->wl->obj->namespace);
		return;
	}
	if (t->ns_selector.meaning == KVET_SEL_EVERYTHING) {
		kvet_strbuf_adds(sb, "every namespace");
		return;
	}
	if (t->n_namespaces) {
		kvet_strbuf_adds(sb, t->n_namespaces > 1 ? "namespaces "
							 : "namespace ");
		for (i = 0; i < t->n_namespaces; i++) {
			if (i)
				kvet_strbuf_adds(sb, ", ");
			add_slice(sb, t->namespaces[i]);
		}
	}
	if (t->ns_selector.form != KVET_SEL_FORM_ABSENT) {
		kvet_strbuf_adds(sb, t->n_namespaces
					     ? " and namespaces matching "
					     : "namespaces matching ");
		kvet_selector_meaning_notation(sb, &t->ns_selector);
	}
}

void kvet_object_names(struct kvet_strbuf *sb,
		       const struct kvet_object *const *objs, size_t shown,
		       size_t total)
{
	size_t i;

	for (i = 0; i < shown; i++) {
		if (i)
			kvet_strbuf_adds(sb, i + 1 == shown && shown == total ?
					 " and " : ", ");
		kvet_strbuf_adds(sb, objs[i]->kind);
		kvet_strbuf_adds(sb, " ");
		kvet_strbuf_adds(sb, objs[i]->namespace);
		if (*objs[i]->namespace)
			kvet_strbuf_adds(sb, "/");
		kvet_strbuf_adds(sb, objs[i]->name);
	}
	if (total > shown) {
		kvet_strbuf_adds(sb, " and ");
		add_uint(sb, total - shown);
		kvet_strbuf_adds(sb, " more");
	}
}
