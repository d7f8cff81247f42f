/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvet_findings_join(): the lanes' findings land after the list's own,
 * in the order of the parts, whichever lane is the largest and however
 * the parts interleave. Each finding carries its expected place in
 * pos.line, so the result is checked finding by finding.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>

#include "findings/findings.h"

enum { MAX_LANES = 4 };

/* Append a finding numbered @id to @fs. */
static void push(struct kvet_findings *fs, unsigned int id)
{
	if (fs->n == fs->cap) {
		fs->cap = fs->cap ? fs->cap * 2 : 4;
		fs->v = realloc(fs->v, fs->cap * sizeof(*fs->v));
		fs->meta = realloc(fs->meta, fs->cap * sizeof(*fs->meta));
		assert_non_null(fs->v);
		assert_non_null(fs->meta);
	}
	fs->v[fs->n] = (struct kvet_finding){ .pos.line = id };
	fs->meta[fs->n] = (struct kvet_finding_meta){ .file_order = id };
	fs->n++;
}

struct world {
	struct kvet_findings to, lane[MAX_LANES];
	struct kvet_findings *lanes[MAX_LANES];
	struct kvet_findings_part parts[4096];
	size_t n_parts, next;	/* the number the next finding gets */
};

static void world_init(struct world *w, size_t nl, size_t before)
{
	size_t i;

	kvet_findings_init(&w->to, NULL);
	for (i = 0; i < nl; i++) {
		kvet_findings_init(&w->lane[i], NULL);
		w->lanes[i] = &w->lane[i];
	}
	w->n_parts = 0;
	for (w->next = 0; w->next < before; w->next++)
		push(&w->to, (unsigned int)w->next);
}

/* A part of @n findings made by lane @l, the next in the joined order. */
static void part(struct world *w, uint32_t l, size_t n)
{
	struct kvet_findings_part *pt = &w->parts[w->n_parts++];
	size_t i;

	pt->from = l;
	pt->first = w->lane[l].n;
	for (i = 0; i < n; i++)
		push(&w->lane[l], (unsigned int)w->next++);
	pt->end = w->lane[l].n;
}

static void check_joined(struct world *w, size_t nl)
{
	size_t i;

	assert_int_equal(kvet_findings_join(&w->to, w->lanes, nl, w->parts,
					    w->n_parts), 0);
	assert_int_equal(w->to.n, w->next);
	for (i = 0; i < w->to.n; i++) {
		assert_int_equal(w->to.v[i].pos.line, i);
		assert_int_equal(w->to.meta[i].file_order, i);
	}
	for (i = 0; i < nl; i++)
		assert_int_equal(w->lane[i].n, 0);
}

static void world_release(struct world *w, size_t nl)
{
	size_t i;

	kvet_findings_release(&w->to);
	for (i = 0; i < nl; i++)
		kvet_findings_release(&w->lane[i]);
}

static void test_interleaved(void **state)
{
	static struct world w;

	(void)state;
	world_init(&w, 3, 2);
	part(&w, 1, 3);
	part(&w, 0, 1);
	part(&w, 2, 0);
	part(&w, 1, 5);		/* lane 1, the largest, is the base */
	part(&w, 2, 2);
	part(&w, 0, 4);
	part(&w, 1, 1);
	check_joined(&w, 3);
	world_release(&w, 3);
}

/* The base's own parts come last, or first: each moves up or stays. */
static void test_base_at_either_end(void **state)
{
	static struct world w;

	(void)state;
	world_init(&w, 2, 0);
	part(&w, 1, 2);
	part(&w, 0, 7);
	check_joined(&w, 2);
	world_release(&w, 2);

	world_init(&w, 2, 3);
	part(&w, 0, 7);
	part(&w, 1, 2);
	check_joined(&w, 2);
	world_release(&w, 2);
}

/* Enough findings that the other lane gives back its room as the join
 * goes (over a megabyte), in chunks of the pass's size. */
static void test_large(void **state)
{
	static struct world w;
	size_t c;

	(void)state;
	world_init(&w, 2, 100);
	for (c = 0; c < 400; c++)
		part(&w, (uint32_t)(c % 3 == 0), 40 + c % 7);
	check_joined(&w, 2);
	world_release(&w, 2);
}

static void test_nothing_to_join(void **state)
{
	static struct world w;

	(void)state;
	world_init(&w, 2, 5);
	part(&w, 0, 0);
	check_joined(&w, 2);
	world_release(&w, 2);

	world_init(&w, 1, 0);
	check_joined(&w, 1);
	assert_null(w.to.v);
	world_release(&w, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_interleaved),
		cmocka_unit_test(test_base_at_either_end),
		cmocka_unit_test(test_large),
		cmocka_unit_test(test_nothing_to_join),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
