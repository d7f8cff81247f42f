/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every rule file's examples as tests (STYLE.md: docs cannot lie), run
 * by the library's own runner (kvet_ctx_test_rules(), what `kvet rules
 * test` uses): the built-in rules, then the rule files of any directory
 * given as an argument. Each rule must also have failing and passing
 * examples. Output is TAP.
 *
 * With --golden FILE, the text report of every failing example of a
 * built-in rule is compared with FILE (--update rewrites it, for review
 * with git diff; never in CI), and the words of each finding are checked
 * as a reader meets them: a headline of at most KVET_HEADLINE_MAX
 * characters, a reason and a help, and none of the internal terms of
 * banned[] in any of them (docs/rule-language.md, "Messages").
 *
 *   run_examples [--golden FILE [--update]] [DIR...]
 */
#define _GNU_SOURCE
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kvet/kvet.h"
#include "rules/rules.h"
#include "banned_terms.h"

static int n_tests, n_failed;


/* Examples seen per rule id, in the order the runner reports them. */
struct seen {
	const char *id;
	size_t fails, passes;
};

struct tally {
	struct seen *v;
	size_t n, cap;
	/* --golden: the text reports, and the compiled banned[] */
	FILE *golden;
	regex_t re[N_BANNED];
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

/* Characters (code points) of UTF-8 @s. */
static size_t chars(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

static void fail_words(const struct kvet_example_result *r,
		       const char *what, const char *why, const char *text)
{
	n_tests++;
	n_failed++;
	printf("not ok %d - %s: %s: the %s %s: %s\n", n_tests, r->rule,
	       *r->name ? r->name : "example", what, why, text);
}

/* The words of the findings of a built-in rule's example. */
static void check_words(struct tally *t, const struct kvet_example_result *r)
{
	size_t i, k, w, bad = 0;

	for (i = 0; i < kvet_ctx_finding_count(r->run); i++) {
		const struct kvet_finding *f = kvet_ctx_finding(r->run, i);
		const char *const words[] = { f->headline, f->reason, f->help };
		static const char *const names[] = { "headline", "reason",
						     "help" };

		if (strcmp(f->rule, r->rule))
			continue;
		if (chars(f->headline) > KVET_HEADLINE_MAX) {
			fail_words(r, "headline", "is longer than 120 characters",
				   f->headline);
			bad++;
		}
		for (w = 0; w < 3; w++) {
			if (!words[w] || !*words[w]) {
				fail_words(r, names[w], "is missing", "");
				bad++;
				continue;
			}
			for (k = 0; k < N_BANNED; k++) {
				if (regexec(&t->re[k], words[w], 0, NULL, 0))
					continue;
				fail_words(r, names[w], "has an internal term",
					   words[w]);
				bad++;
			}
		}
	}
	if (bad)
		return;
	n_tests++;
	printf("ok %d - %s: %s: headlines, reasons and help read well\n",
	       n_tests, r->rule, *r->name ? r->name : "example");
}

/* The text report of a failing example of a built-in rule, as `kvet
 * lint` prints it, under a heading that names the example. */
static void write_report(struct tally *t, const struct kvet_example_result *r)
{
	struct kvet_render_options opts = { .fail_on = KVET_SEV_WARNING };

	fprintf(t->golden, "### %s: %s\n", r->rule,
		*r->name ? r->name : "example");
	fflush(t->golden);
	if (kvet_render(r->run, KVET_FORMAT_TEXT, &opts, t->golden))
		abort();
	fputc('\n', t->golden);
}

static void report(void *user, const struct kvet_example_result *r)
{
	struct tally *t = user;
	struct seen *s = seen_of(t, r->rule);

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
	/* the built-in rules are the files of rules/, embedded */
	if (!t->golden || !r->expect_fail || strncmp(r->file, "rules/", 6))
		return;
	write_report(t, r);
	check_words(t, r);
}

/* Every rule of a rule file needs an example that fires and one that
 * does not; the rule set says which rules come from files. */
static void check_coverage(struct tally *t, char **dirs, int n_dirs)
{
	struct kvet_rule_set set;
	struct seen *s;
	size_t i;
	int d;

	kvet_rule_set_init(&set);
	(void)kvet_rule_set_add_builtin(&set, true);
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
}

/* @path's bytes, malloc'd, or NULL when it cannot be read. */
static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!fp)
		return NULL;
	do {
		if (n == cap) {
			cap = cap ? cap * 2 : 65536;
			buf = realloc(buf, cap);
			if (!buf)
				abort();
		}
		got = fread(buf + n, 1, cap - n, fp);
		n += got;
	} while (got);
	fclose(fp);
	*len = n;
	return buf;
}

/* Compare the reports with the golden file, or rewrite it. */
static void check_golden(const char *path, const char *got, size_t len,
			 int update)
{
	size_t want_len = 0, i, line = 1;
	char *want;
	FILE *fp;

	n_tests++;
	if (update) {
		fp = fopen(path, "wb");
		if (!fp || fwrite(got, 1, len, fp) != len || fclose(fp)) {
			n_failed++;
			printf("not ok %d - cannot write %s\n", n_tests, path);
			return;
		}
		printf("ok %d - %s rewritten: review it with git diff\n",
		       n_tests, path);
		return;
	}
	want = slurp(path, &want_len);
	if (want && want_len == len && !memcmp(want, got, len)) {
		printf("ok %d - every failing example reports as %s shows\n",
		       n_tests, path);
		free(want);
		return;
	}
	n_failed++;
	for (i = 0; want && i < len && i < want_len && got[i] == want[i]; i++)
		line += got[i] == '\n';
	printf("not ok %d - the failing examples report otherwise than %s shows, from line %zu (run_examples --golden FILE --update rewrites it)\n",
	       n_tests, path, line);
	free(want);
}

int main(int argc, char **argv)
{
	struct kvet_ctx *ctx = kvet_ctx_create(NULL);
	struct tally t = { 0 };
	const char *golden = NULL;
	char *buf = NULL;
	size_t i, len = 0;
	int a = 1, first, update = 0;

	if (!ctx)
		return 1;
	if (a + 1 < argc && !strcmp(argv[a], "--golden")) {
		golden = argv[a + 1];
		a += 2;
		if (a < argc && !strcmp(argv[a], "--update")) {
			update = 1;
			a++;
		}
		t.golden = open_memstream(&buf, &len);
		for (i = 0; t.golden && i < N_BANNED; i++)
			if (regcomp(&t.re[i], banned[i], REG_EXTENDED | REG_NOSUB))
				abort();
		if (!t.golden)
			abort();
	}
	first = a;
	for (; a < argc; a++)
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
	check_coverage(&t, argv + first, argc - first);
	if (golden) {
		fclose(t.golden);
		check_golden(golden, buf, len, update);
		free(buf);
		for (i = 0; i < N_BANNED; i++)
			regfree(&t.re[i]);
	}
	printf("1..%d\n# %d failed\n", n_tests, n_failed);
	for (i = 0; i < t.n; i++)
		free((char *)t.v[i].id);
	free(t.v);
	kvet_ctx_destroy(ctx);
	return n_failed ? 1 : 0;
}
