/* SPDX-License-Identifier: Apache-2.0 */
#include "report/report_index.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/render.h"

static int entry_cmp(const void *a, const void *b)
{
	const struct kvet_report_entry *x = a, *y = b;
	int c = strcmp(x->finding->rule ? x->finding->rule : "",
		       y->finding->rule ? y->finding->rule : "");

	if (c)
		return c;
	if (x->object != y->object)
		return x->object < y->object ? -1 : 1;
	if (!x->reason != !y->reason)
		return x->reason ? 1 : -1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int collect_entries(struct kvet_report_index *idx,
			   const struct kvet_ctx *ctx)
{
	size_t nf = kvet_ctx_finding_count(ctx);
	size_t ns = kvet_ctx_suppressed_count(ctx), i, n = 0;

	idx->entries = calloc(nf + ns + 1, sizeof(*idx->entries));
	if (!idx->entries)
		return -1;
	for (i = 0; i < nf; i++) {
		struct kvet_report_entry *e = &idx->entries[n];

		e->finding = kvet_ctx_finding(ctx, i);
		e->order = i;
		e->object = e->finding ? e->finding->object_index : SIZE_MAX;
		n += e->finding != NULL;
	}
	for (i = 0; i < ns; i++) {
		const struct kvet_suppressed *sup = kvet_ctx_suppressed(ctx, i);
		struct kvet_report_entry *e = &idx->entries[n];

		if (!sup)
			continue;
		e->finding = &sup->finding;
		e->reason = sup->reason ? sup->reason : "";
		e->justification = sup->justification;
		e->order = nf + i;
		e->object = sup->finding.object_index;
		n++;
	}
	idx->n_entries = n;
	qsort(idx->entries, n, sizeof(*idx->entries), entry_cmp);
	return 0;
}

static int rule_cmp(const void *a, const void *b)
{
	const struct kvet_rule_info *const *x = a, *const *y = b;

	return strcmp((*x)->id, (*y)->id);
}

/* The sorted union of the context's rule ids and the entries' ones. */
static int make_suites(struct kvet_report_index *idx,
		       const struct kvet_ctx *ctx)
{
	size_t nr = kvet_ctx_rule_count(ctx), r = 0, e = 0, n = 0;
	const struct kvet_report_entry *ent = idx->entries;
	const struct kvet_rule_info **rules;

	rules = malloc((nr ? nr : 1) * sizeof(*rules));
	idx->suites = calloc(nr + idx->n_entries + 1, sizeof(*idx->suites));
	if (!rules || !idx->suites) {
		free(rules);
		return -1;
	}
	for (r = 0; r < nr; r++)
		rules[r] = kvet_ctx_rule(ctx, r);
	qsort(rules, nr, sizeof(*rules), rule_cmp);
	r = 0;
	while (r < nr || e < idx->n_entries) {
		struct kvet_report_suite *s = &idx->suites[n++];
		const struct kvet_rule_info *rule = r < nr ? rules[r] : NULL;
		const char *eid = NULL;
		int c;

		if (e < idx->n_entries)
			eid = ent[e].finding->rule ? ent[e].finding->rule : "";
		c = !rule ? 1 : !eid ? -1 : strcmp(rule->id, eid);
		s->id = c <= 0 ? rule->id : eid;
		s->rule = c <= 0 ? rule : NULL;
		r += c <= 0;
		s->lo = e;
		while (e < idx->n_entries &&
		       !strcmp(ent[e].finding->rule ? ent[e].finding->rule : "",
			       s->id))
			e++;
		s->hi = e;
	}
	idx->n_suites = n;
	free(rules);
	return 0;
}

size_t kvet_report_reported_end(const struct kvet_report_index *idx,
				size_t lo, size_t hi)
{
	while (lo < hi && !idx->entries[lo].reason)
		lo++;
	return lo;
}

bool kvet_report_fails(const struct kvet_report_index *idx, size_t lo,
		       size_t hi)
{
	const struct kvet_report_entry *e = idx->entries;
	size_t k;

	for (k = lo; k < hi; k++)
		if (!e[k].reason &&
		    kvet_finding_fails(e[k].finding, idx->gate->fail_on,
				       idx->gate->fail_never))
			return true;
	return false;
}

/* One test case from entries [lo, hi): a failure, skipped when all its
 * findings are suppressed, or a pass. */
static void count_case(struct kvet_report_index *idx,
		       struct kvet_report_suite *s, size_t lo, size_t hi)
{
	s->tests++;
	if (kvet_report_fails(idx, lo, hi))
		s->failures++;
	else if (idx->entries[lo].reason)
		s->skipped++;
}

/* Count the test cases of one suite, as render_junit.c writes them. */
static int count_suite(struct kvet_report_index *idx,
		       struct kvet_report_suite *s, const struct kvet_ctx *ctx)
{
	const struct kvet_report_entry *e = idx->entries;
	size_t n_obj = kvet_ctx_object_count(ctx), i, k = s->lo;

	if (s->rule) {
		s->applies = calloc(n_obj ? n_obj : 1, sizeof(*s->applies));
		if (!s->applies)
			return -1;
		for (i = 0; i < n_obj; i++)
			s->applies[i] = kvet_ctx_rule_applies(ctx, s->id, i);
	}
	for (i = 0; i < n_obj; i++) {
		size_t lo = k;

		while (k < s->hi && e[k].object == i)
			k++;
		if (lo == k) {
			s->tests += kvet_report_applies(idx, s, i);
			continue;
		}
		count_case(idx, s, lo, k);
	}
	for (; k < s->hi; k++)
		count_case(idx, s, k, k + 1);
	idx->tests += s->tests;
	idx->failures += s->failures;
	idx->skipped += s->skipped;
	return 0;
}

int kvet_report_index_init(struct kvet_report_index *idx,
			   const struct kvet_ctx *ctx,
			   const struct kvet_render_options *gate)
{
	size_t i;

	memset(idx, 0, sizeof(*idx));
	idx->gate = gate;
	if (collect_entries(idx, ctx) < 0 || make_suites(idx, ctx) < 0)
		goto fail;
	for (i = 0; i < idx->n_suites; i++)
		if (count_suite(idx, &idx->suites[i], ctx) < 0)
			goto fail;
	return 0;
fail:
	kvet_report_index_release(idx);
	return -1;
}

void kvet_report_index_release(struct kvet_report_index *idx)
{
	size_t i;

	if (!idx)
		return;
	for (i = 0; i < idx->n_suites; i++)
		free(idx->suites[i].applies);
	free(idx->suites);
	free(idx->entries);
	memset(idx, 0, sizeof(*idx));
}

bool kvet_report_applies(const struct kvet_report_index *idx,
			 const struct kvet_report_suite *suite, size_t i)
{
	(void)idx;
	return suite->applies && suite->applies[i];
}
