/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every rule file's examples as tests (STYLE.md: docs cannot lie), run
 * by the library's own runner (kvet_ctx_test_rules(), what `kvet rules
 * test` uses): the built-in rules, then the rule files of any directory
 * given as an argument. Each rule must also have failing and passing
 * examples. Output is TAP.
 *
 *   run_examples [DIR...]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kvet/kvet.h"
#include "rules/rules.h"

static int n_tests, n_failed;

/* Examples seen per rule id, in the order the runner reports them. */
struct seen {
	const char *id;
	size_t fails, passes;
};

struct tally {
	struct seen *v;
	size_t n, cap;
};

static struct seen *seen_of(struct tally *t, const char *id)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->v[i].id, id))
			return &t->v[i];
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 64;
		t->v = realloc(t->v, t->cap * sizeof(*t->v));
		if (!t->v)
			abort();
	}
	t->v[t->n].id = strdup(id);
	t->v[t->n].fails = t->v[t->n].passes = 0;
	return &t->v[t->n++];
}

static void report(void *user, const struct kvet_example_result *r)
{
	struct seen *s = seen_of(user, r->rule);

	s->fails += r->expect_fail;
	s->passes += !r->expect_fail;
	n_tests++;
	printf("%s %d - %s:%u %s: %s (%zu finding%s)\n",
	       r->passed ? "ok" : "not ok", n_tests, r->file, r->line,
	       r->rule, *r->name ? r->name : "example", r->findings,
	       r->findings == 1 ? "" : "s");
	if (!r->passed) {
		n_failed++;
		printf("# %s\n", r->why);
	}
}

/* Every rule of a rule file needs an example that fires and one that
 * does not; the rule set says which rules come from files. */
static void check_coverage(const struct kvet_ctx *ctx, struct tally *t,
			   char **dirs, int n_dirs)
{
	struct kvet_rule_set set;
	struct seen *s;
	size_t i;
	int d;

	kvet_rule_set_init(&set);
	(void)kvet_rule_set_add_builtin(&set);
	for (d = 0; d < n_dirs; d++)
		(void)kvet_rule_set_add_dir(&set, dirs[d]);
	for (i = 0; i < set.n; i++) {
		s = seen_of(t, set.v[i]->info.id);
		n_tests++;
		if (!s->fails || !s->passes)
			n_failed++;
		printf("%s %d - %s has failing and passing examples\n",
		       s->fails && s->passes ? "ok" : "not ok", n_tests,
		       s->id);
	}
	kvet_rule_set_release(&set);
	(void)ctx;
}

int main(int argc, char **argv)
{
	struct kvet_ctx *ctx = kvet_ctx_create(NULL);
	struct tally t = { 0 };
	size_t i;
	int a;

	if (!ctx)
		return 1;
	for (a = 1; a < argc; a++)
		(void)kvet_ctx_add_rules_dir(ctx, argv[a]);
	for (i = 0; i < kvet_ctx_rule_error_count(ctx); i++) {
		const struct kvet_error *e = kvet_ctx_rule_error(ctx, i);

		n_tests++;
		n_failed++;
		printf("not ok %d - %s:%u:%u: %s\n", n_tests,
		       e->pos.file ? e->pos.file : "kvet", e->pos.line,
		       e->pos.column, e->message);
	}
	if (kvet_ctx_test_rules(ctx, KVET_TEST_BUILTIN, report, &t) < 0) {
		n_tests++;
		n_failed++;
		printf("not ok %d - out of memory\n", n_tests);
	}
	check_coverage(ctx, &t, argv + 1, argc - 1);
	printf("1..%d\n# %d failed\n", n_tests, n_failed);
	for (i = 0; i < t.n; i++)
		free((char *)t.v[i].id);
	free(t.v);
	kvet_ctx_destroy(ctx);
	return n_failed ? 1 : 0;
}
