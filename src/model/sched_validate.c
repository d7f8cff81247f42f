/* SPDX-License-Identifier: Apache-2.0 */
#include "model/sched_validate.h"

#include <string.h>

#include "model/selector.h"

struct check {
	struct kvet_arena *arena;
	struct kvet_problems *ps;
	const char *path;
	const struct kvet_node *part;
};

static struct kvet_problem *problem(struct check *ck, int code,
				    const char *field,
				    const struct kvet_node *at,
				    const struct kvet_node *value)
{
	struct kvet_problem *p = kvet_problem_add(ck->arena, ck->ps, code);

	if (p) {
		p->path = ck->path;
		p->part = ck->part;
		p->field = field;
		p->at = at;
		p->value = value;
	}
	return p;
}

static bool present(const struct kvet_node *n)
{
	return n && !kvet_node_is_null(n);
}

/* A selector field; reports an invalid one. Returns 0 or -1 (OOM). */
static int check_selector(struct check *ck, const struct kvet_node *term,
			  const char *field, enum kvet_sel_field kind,
			  struct kvet_selector *sel)
{
	struct kvet_problem *p;

	if (kvet_selector_parse(ck->arena, kvet_node_get(term, field), kind,
				sel))
		return -1;
	if (sel->meaning == KVET_SEL_INVALID) {
		p = problem(ck, KVET_SCHED_SELECTOR_INVALID, field,
			    kvet_field_key(term, field), NULL);
		if (p)
			p->text = sel->error;
	}
	return 0;
}

/* matchLabelKeys or mismatchLabelKeys: only with a selector, no key of
 * the selector repeated. */
static void check_keys(struct check *ck, const struct kvet_node *term,
		       const char *field, const struct kvet_selector *sel)
{
	const struct kvet_node *keys = kvet_node_get(term, field);
	const struct kvet_node *k;
	struct kvet_problem *p;
	uint32_t i;
	size_t j;

	if (!kvet_node_is_seq(keys) || !keys->len)
		return;
	if (sel->form == KVET_SEL_FORM_ABSENT) {
		problem(ck, KVET_SCHED_KEYS_WITHOUT_SELECTOR, field,
			kvet_field_key(term, field), NULL);
		return;
	}
	for (i = 0; i < keys->len; i++) {
		k = &keys->u.items[i];
		if (!kvet_node_is_scalar(k) || kvet_node_is_null(k))
			continue;
		for (j = 0; j < sel->n_reqs; j++) {
			if (sel->reqs[j].key.len != k->len ||
			    memcmp(sel->reqs[j].key.s, k->u.str, k->len))
				continue;
			p = problem(ck, KVET_SCHED_KEY_REPEATED, field, k,
				    NULL);
			if (p)
				p->key = sel->reqs[j].key;
			break;
		}
	}
}

static bool bad_count(const struct kvet_node *n)
{
	long long v;

	return !kvet_node_int(n, &v) || v < 1;
}

static void check_when(struct check *ck, const struct kvet_node *c)
{
	const struct kvet_node *wu = kvet_node_get(c, "whenUnsatisfiable");
	const struct kvet_node *md = kvet_node_get(c, "minDomains");
	struct kvet_problem *p;
	long long v;

	if (!present(wu))
		problem(ck, KVET_SCHED_WHEN_MISSING, "whenUnsatisfiable", NULL,
			NULL);
	else if (!kvet_node_is_scalar(wu))
		problem(ck, KVET_SCHED_WHEN_NOT_SCALAR, "whenUnsatisfiable",
			kvet_field_key(c, "whenUnsatisfiable"), wu);
	else if (!kvet_node_eq(wu, "DoNotSchedule") &&
		 !kvet_node_eq(wu, "ScheduleAnyway"))
		problem(ck, KVET_SCHED_WHEN_BAD, "whenUnsatisfiable",
			kvet_field_key(c, "whenUnsatisfiable"), wu);
	if (!present(md))
		return;
	if (bad_count(md)) {
		problem(ck, KVET_SCHED_MIN_DOMAINS_BAD, "minDomains",
			kvet_field_key(c, "minDomains"), md);
	} else if (!kvet_node_eq(wu, "DoNotSchedule")) {
		p = problem(ck, KVET_SCHED_MIN_DOMAINS_ANYWAY, "minDomains",
			    kvet_field_key(c, "minDomains"), md);
		if (p && kvet_node_int(md, &v))
			p->number = v;
	}
}

static int check_constraint(struct check *ck, const struct kvet_node *c)
{
	static const char *const policies[] = {
		"nodeAffinityPolicy", "nodeTaintsPolicy",
	};
	const struct kvet_node *skew = kvet_node_get(c, "maxSkew");
	const struct kvet_node *tk = kvet_node_get(c, "topologyKey");
	const struct kvet_node *pol;
	struct kvet_selector sel;
	size_t i;

	if (!present(skew))
		problem(ck, KVET_SCHED_SKEW_MISSING, "maxSkew", NULL, NULL);
	else if (bad_count(skew))
		problem(ck, KVET_SCHED_SKEW_BAD, "maxSkew",
			kvet_field_key(c, "maxSkew"), skew);
	if (!present(tk) || !kvet_node_is_scalar(tk) || !tk->len)
		problem(ck, KVET_SCHED_TOPOLOGY_KEY_EMPTY, "topologyKey",
			kvet_field_key(c, "topologyKey"), NULL);
	check_when(ck, c);
	for (i = 0; i < 2; i++) {
		pol = kvet_node_get(c, policies[i]);
		if (present(pol) && !kvet_node_eq(pol, "Honor") &&
		    !kvet_node_eq(pol, "Ignore"))
			problem(ck, KVET_SCHED_POLICY_BAD, policies[i],
				kvet_field_key(c, policies[i]), pol);
	}
	if (check_selector(ck, c, "labelSelector", KVET_SEL_FIELD_SPREAD,
			   &sel))
		return -1;
	check_keys(ck, c, "matchLabelKeys", &sel);
	return 0;
}

static int check_affinity_term(struct check *ck, const struct kvet_node *t)
{
	const struct kvet_node *tk = kvet_node_get(t, "topologyKey");
	struct kvet_selector sel, ns;

	if (!present(tk) || !kvet_node_is_scalar(tk) || !tk->len)
		problem(ck, KVET_SCHED_TOPOLOGY_KEY_EMPTY, "topologyKey",
			kvet_field_key(t, "topologyKey"), NULL);
	if (check_selector(ck, t, "labelSelector",
			   KVET_SEL_FIELD_AFFINITY_TERM, &sel) ||
	    check_selector(ck, t, "namespaceSelector",
			   KVET_SEL_FIELD_AFFINITY_NS, &ns))
		return -1;
	check_keys(ck, t, "matchLabelKeys", &sel);
	check_keys(ck, t, "mismatchLabelKeys", &sel);
	return 0;
}

static int check_weighted(struct check *ck, const struct kvet_node *e)
{
	const struct kvet_node *wn = kvet_node_get(e, "weight");
	const struct kvet_node *term = kvet_node_get(e, "podAffinityTerm");
	long long w;

	ck->part = e;
	if (!present(wn))
		problem(ck, KVET_SCHED_WEIGHT_MISSING, "weight", NULL, NULL);
	else if (!kvet_node_int(wn, &w) || w < 1 || w > 100)
		problem(ck, KVET_SCHED_WEIGHT_BAD, "weight",
			kvet_field_key(e, "weight"), wn);
	ck->part = term;
	return kvet_node_is_map(term) ? check_affinity_term(ck, term) : 0;
}

/* "@list[@i]", or "@kind.@list[@i]" when @kind is not NULL, in @arena:
 * a path for every term, problem or not, built without printf. */
static char *term_path(struct kvet_arena *arena, const char *kind,
		       const char *list, uint32_t i)
{
	char num[16], *p = num + sizeof(num), *s;
	size_t lk = kind ? strlen(kind) + 1 : 0, ll = strlen(list), ln;

	do {
		*--p = (char)('0' + i % 10);
		i /= 10;
	} while (i);
	ln = (size_t)(num + sizeof(num) - p);
	s = kvet_arena_alloc(arena, lk + ll + ln + 3);
	if (!s)
		return NULL;
	if (kind) {
		memcpy(s, kind, lk - 1);
		s[lk - 1] = '.';
	}
	memcpy(s + lk, list, ll);
	s[lk + ll] = '[';
	memcpy(s + lk + ll + 1, p, ln);
	s[lk + ll + 1 + ln] = ']';
	s[lk + ll + 2 + ln] = '\0';
	return s;
}

static int check_affinity(struct check *ck, const struct kvet_node *spec,
			  const char *kind)
{
	static const char *const lists[] = {
		"requiredDuringSchedulingIgnoredDuringExecution",
		"preferredDuringSchedulingIgnoredDuringExecution",
	};
	const struct kvet_node *a = kvet_node_path(spec, "affinity", kind, NULL);
	const struct kvet_node *l, *e;
	uint32_t i, k;

	for (k = 0; k < 2; k++) {
		l = kvet_node_get(a, lists[k]);
		for (i = 0; kvet_node_is_seq(l) && i < l->len; i++) {
			e = &l->u.items[i];
			ck->path = term_path(ck->arena, kind, lists[k], i);
			ck->part = e;
			if (!ck->path)
				return -1;
			if (!kvet_node_is_map(e))
				continue;
			if (k ? check_weighted(ck, e) :
				check_affinity_term(ck, e))
				return -1;
		}
	}
	return 0;
}

int kvet_pod_spec_term_problems(struct kvet_arena *arena,
				const struct kvet_node *pod_spec,
				struct kvet_problems *out)
{
	struct check ck = { arena, out, NULL, NULL };
	const struct kvet_node *tsc;
	uint32_t i;

	memset(out, 0, sizeof(*out));
	tsc = kvet_node_get(pod_spec, "topologySpreadConstraints");
	for (i = 0; kvet_node_is_seq(tsc) && i < tsc->len; i++) {
		ck.path = term_path(arena, NULL, "topologySpreadConstraints",
				    i);
		ck.part = &tsc->u.items[i];
		if (!ck.path || (kvet_node_is_map(ck.part) &&
				 check_constraint(&ck, ck.part)))
			return -1;
	}
	if (check_affinity(&ck, pod_spec, "podAffinity") ||
	    check_affinity(&ck, pod_spec, "podAntiAffinity") || out->oom)
		return -1;
	return 0;
}
