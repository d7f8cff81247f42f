/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Pathological inputs for the loader (issue 11): each is generated here,
 * large enough that a quadratic loader would run for minutes, and bounded
 * by the test's meson timeout and, outside sanitizer builds, by an
 * address-space limit set in main(). No timing assertions.
 */
#include "support.h"

#include <stdio.h>
#include <sys/resource.h>

#include "kvet/kvet.h"
#include "load/node.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

/* A growing text buffer for the generators. */
struct text {
	char *s;
	size_t len, cap;
};

static void addf(struct text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void addf(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(t->s ? t->s + t->len : NULL,
			      t->s ? t->cap - t->len : 0, fmt, ap);
		va_end(ap);
		assert_true(n >= 0);
		if (t->s && t->len + (size_t)n < t->cap)
			break;
		t->cap = t->cap ? t->cap * 2 : 1 << 16;
		while (t->cap <= t->len + (size_t)n)
			t->cap *= 2;
		t->s = realloc(t->s, t->cap);
		assert_non_null(t->s);
	}
	t->len += (size_t)n;
}

static bool has_error(const struct loaded *l, const char *part)
{
	size_t i;

	for (i = 0; i < l->diag.n; i++)
		if (strstr(l->diag.errors[i].message, part))
			return true;
	return false;
}

/* Issue 11 item 5: one merge of a 100,000-key anchor was quadratic. */
static void test_merge_of_huge_anchor(void **state)
{
	enum { KEYS = 100000, MERGES = 2 };
	struct text t = { 0 };
	const struct kvet_node *data, *m;
	struct loaded *l;
	int i;

	(void)state;
	addf(&t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: m}\n"
		 "x-base: &base\n");
	for (i = 0; i < KEYS; i++)
		addf(&t, "  k%d: v%d\n", i, i);
	addf(&t, "data:\n");
	for (i = 0; i < MERGES; i++)
		addf(&t, "  m%d:\n    k7: own\n    <<: *base\n", i);
	l = load_bytes(t.s, t.len);
	assert_int_equal(l->diag.n, 0);
	assert_int_equal(l->objs.n, 1);
	data = kvet_node_get(l->objs.v[0]->root, "data");
	m = kvet_node_get(data, "m1");
	assert_int_equal(m->len, KEYS);
	/* the mapping's own key wins over the merged one */
	assert_true(kvet_node_text_eq(kvet_node_get(m, "k7"), "own"));
	assert_true(kvet_node_text_eq(kvet_node_get(m, "k99999"), "v99999"));
	loaded_free(l);
	free(t.s);
}

/* Merges of several anchors: the first listed wins, keys stay unique. */
static void test_merge_order_large(void **state)
{
	struct text t = { 0 };
	const struct kvet_node *m;
	struct loaded *l;
	int i;

	(void)state;
	addf(&t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: m}\n"
		 "a: &a\n");
	for (i = 0; i < 40; i++)
		addf(&t, "  k%d: a%d\n", i, i);
	addf(&t, "b: &b\n");
	for (i = 20; i < 60; i++)
		addf(&t, "  k%d: b%d\n", i, i);
	addf(&t, "data:\n  own: 1\n  k0: mine\n  <<: [*a, *b]\n");
	l = load_bytes(t.s, t.len);
	assert_int_equal(l->diag.n, 0);
	m = kvet_node_get(l->objs.v[0]->root, "data");
	assert_int_equal(m->len, 61);
	assert_true(kvet_node_text_eq(kvet_node_get(m, "k0"), "mine"));
	assert_true(kvet_node_text_eq(kvet_node_get(m, "k25"), "a25"));
	assert_true(kvet_node_text_eq(kvet_node_get(m, "k59"), "b59"));
	loaded_free(l);
	free(t.s);
}

/* Issue 11 item 5: every alias searched all anchors defined before it. */
static void test_many_anchors(void **state)
{
	enum { ANCHORS = 100000 };
	struct text t = { 0 };
	const struct kvet_node *data;
	struct loaded *l;
	int i;

	(void)state;
	addf(&t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: m}\n"
		 "anchors:\n");
	for (i = 0; i < ANCHORS; i++)
		addf(&t, "- &a%d v%d\n", i, i);
	addf(&t, "data:\n");
	for (i = 0; i < ANCHORS; i++)
		addf(&t, "  k%d: *a%d\n", i, i % 7);
	/* a redefined anchor: the newest definition wins */
	addf(&t, "  again: &a3 new\n  last: *a3\n");
	l = load_bytes(t.s, t.len);
	assert_int_equal(l->diag.n, 0);
	data = kvet_node_get(l->objs.v[0]->root, "data");
	assert_int_equal(data->len, ANCHORS + 2);
	assert_true(kvet_node_text_eq(kvet_node_get(data, "k99999"), "v4"));
	assert_true(kvet_node_text_eq(kvet_node_get(data, "last"), "new"));
	loaded_free(l);
	free(t.s);
}

/* Issue 11 item 11: duplicates more than 4,096 keys apart went unseen. */
static void test_duplicate_keys_far_apart(void **state)
{
	static const int sizes[] = { 20, 5000, 200000 };
	size_t k;

	(void)state;
	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		struct text t = { 0 };
		struct loaded *l;
		int i;

		addf(&t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: d}\n"
			 "data:\n");
		for (i = 0; i < sizes[k]; i++)
			addf(&t, "  key%d: v\n", i);
		addf(&t, "  key0: again\n---\n"
			 "apiVersion: v1\nkind: Pod\nmetadata: {name: ok}\n");
		l = load_bytes(t.s, t.len);
		assert_int_equal(l->diag.n, 1);
		assert_int_equal(l->diag.errors[0].pos.line, 5 + sizes[k]);
		assert_int_equal(l->diag.errors[0].pos.column, 3);
		assert_true(has_error(l, "duplicate key \"key0\""));
		/* the next document still loads */
		assert_int_equal(l->objs.n, 1);
		assert_string_equal(l->objs.v[0]->name, "ok");
		loaded_free(l);
		free(t.s);
	}
}

/* A big mapping without duplicates, and keys that only share a hash
 * bucket or a prefix, are no duplicates. */
static void test_large_mapping_no_false_duplicates(void **state)
{
	struct text t = { 0 };
	struct loaded *l;
	int i;

	(void)state;
	addf(&t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: d}\n"
		 "data:\n  \"\": empty\n");
	for (i = 0; i < 50000; i++)
		addf(&t, "  a%d: v\n  a%d_: v\n", i, i);
	l = load_bytes(t.s, t.len);
	assert_int_equal(l->diag.n, 0);
	assert_int_equal(kvet_node_get(l->objs.v[0]->root, "data")->len,
			 100001);
	loaded_free(l);
	free(t.s);
}

static size_t errors_in(struct kvet_ctx *ctx, const char *file,
			const struct kvet_error **last)
{
	size_t i, n = 0;

	for (i = 0; i < kvet_ctx_error_count(ctx); i++) {
		const struct kvet_error *e = kvet_ctx_error(ctx, i);

		if (strcmp(e->pos.file, file) == 0) {
			n++;
			*last = e;
		}
	}
	return n;
}

/* Issue 11 item 7: 100 errors per file, then one line with the rest. */
static void test_error_cap(void **state)
{
	enum { BAD_LINES = 200000, BAD_ITEMS = 150, BAD_DOCS = 3000 };
	struct kvet_options opts = { .jobs = 2,
				     .flags = KVET_CTX_NO_BUILTIN_RULES };
	struct text bin = { 0 }, list = { 0 }, docs = { 0 };
	const struct kvet_error *last = NULL;
	struct kvet_summary sum;
	struct kvet_ctx *ctx;
	int i;

	(void)state;
	for (i = 0; i < BAD_LINES; i++)
		addf(&bin, "\xff\n");
	addf(&list, "apiVersion: v1\nkind: List\nitems:\n");
	for (i = 0; i < BAD_ITEMS; i++)
		addf(&list, "- {metadata: {name: x}}\n");
	addf(&list, "- {apiVersion: v1, kind: Pod, metadata: {name: ok}}\n");
	for (i = 0; i < BAD_DOCS; i++)
		addf(&docs, "---\n]\n");
	addf(&docs, "---\napiVersion: v1\nkind: Pod\nmetadata: {name: last}\n");
	ctx = kvet_ctx_create(&opts);
	assert_non_null(ctx);
	assert_int_equal(kvet_ctx_add_buffer(ctx, "bin.yaml", bin.s, bin.len), 0);
	assert_int_equal(kvet_ctx_add_buffer(ctx, "list.yaml", list.s, list.len),
			 0);
	assert_int_equal(kvet_ctx_add_buffer(ctx, "docs.yaml", docs.s, docs.len),
			 0);
	assert_int_equal(kvet_ctx_run(ctx), 0);
	assert_int_equal(errors_in(ctx, "bin.yaml", &last), 101);
	assert_int_equal(last->pos.line, 0);
	assert_string_equal(last->message,
			    "too many errors: 199900 more in this file not shown (only the first 100 are reported)");
	assert_int_equal(errors_in(ctx, "list.yaml", &last), 101);
	assert_non_null(strstr(last->message, ": 50 more in this file"));
	assert_int_equal(errors_in(ctx, "docs.yaml", &last), 101);
	assert_non_null(strstr(last->message, ": 2900 more in this file"));
	/* every good object of the three files still loads */
	kvet_ctx_summary(ctx, &sum);
	assert_int_equal(sum.objects, 2);
	kvet_ctx_destroy(ctx);
	free(bin.s);
	free(list.s);
	free(docs.s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merge_of_huge_anchor),
		cmocka_unit_test(test_merge_order_large),
		cmocka_unit_test(test_many_anchors),
		cmocka_unit_test(test_duplicate_keys_far_apart),
		cmocka_unit_test(test_large_mapping_no_false_duplicates),
		cmocka_unit_test(test_error_cap),
	};
#ifndef UNDER_ASAN
	/* generous: the inputs here are a few MB; a blow-up is not */
	struct rlimit rl = { 1024ul << 20, 1024ul << 20 };

	setrlimit(RLIMIT_AS, &rl);
#endif
	return cmocka_run_group_tests(tests, NULL, NULL);
}
