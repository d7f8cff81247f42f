/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Declared workload kinds are workloads like the others (docs/model.md
 * 1.2): every example of a built-in rule whose `match.kinds` says
 * `workload` or `scalable-workload` is linted again with each Deployment
 * renamed to a custom kind the configuration declares (an Argo Rollout,
 * with the same pod template and replicas paths), and must give the same
 * findings of its rule: as many, of the same severities. Output is TAP.
 *
 * What a Deployment has and a custom kind has not is left out, with the
 * reason: the Deployment controller's runtime label pod-template-hash
 * (1.6), and ownerReferences naming the kind, which the renaming does
 * not follow. An HPA's scaleTargetRef is renamed with its target.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kvet/kvet.h"
#include "rules/rules.h"

static int n_tests, n_failed;

/* An example that reads something of a Deployment a Rollout lacks. */
static const char *const deployment_only[] = {
	"pod-template-hash",	/* a runtime label of Deployments (1.6) */
	"ownerReferences",
};

static const char *deployment_only_reason(const char *manifest)
{
	size_t i;

	for (i = 0; i < sizeof(deployment_only) / sizeof(deployment_only[0]);
	     i++)
		if (strstr(manifest, deployment_only[i]))
			return deployment_only[i];
	return NULL;
}

/* Append @n bytes of @s to the malloc'd @buf. */
static void put(char **buf, size_t *len, size_t *cap, const char *s,
		size_t n)
{
	if (*len + n + 1 > *cap) {
		*cap = (*len + n + 1) * 2;
		*buf = realloc(*buf, *cap);
		if (!*buf)
			abort();
	}
	memcpy(*buf + *len, s, n);
	*len += n;
	(*buf)[*len] = '\0';
}

/* @text with every @from replaced by @to; @text is freed. */
static char *replace(char *text, const char *from, const char *to)
{
	char *buf = NULL, *p = text, *hit;
	size_t len = 0, cap = 0;

	while ((hit = strstr(p, from))) {
		put(&buf, &len, &cap, p, (size_t)(hit - p));
		put(&buf, &len, &cap, to, strlen(to));
		p = hit + strlen(from);
	}
	put(&buf, &len, &cap, p, strlen(p));
	free(text);
	return buf;
}

/* An HPA's scaleTargetRef follows its Deployment to the new kind, and
 * so does a KEDA ScaledObject's, whose kind defaults to Deployment. */
static char *retarget(char *text)
{
	text = replace(text, "{apiVersion: apps/v1, kind: Deployment,",
		       "{apiVersion: example.com/v1, kind: Rollout,");
	return replace(text, "scaleTargetRef: {name:",
		       "scaleTargetRef: {apiVersion: example.com/v1,"
		       " kind: Rollout, name:");
}

/*
 * @manifest with every document of kind Deployment made a Rollout of
 * group example.com; NULL when it has none. Documents are split at
 * "---" lines, as the examples write them.
 */
static char *renamed(const char *manifest, size_t mlen)
{
	const char *doc = manifest, *end = manifest + mlen, *next;
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int n = 0;

	while (doc < end) {
		const char *sep = strstr(doc, "\n---");
		const char *api, *kind;
		size_t dlen;

		next = sep && sep < end ? sep + 1 : end;
		dlen = (size_t)(next - doc);
		api = memmem(doc, dlen, "apiVersion: apps/v1\n", 20);
		kind = memmem(doc, dlen, "kind: Deployment\n", 17);
		if (!api || !kind) {
			put(&buf, &len, &cap, doc, dlen);
		} else {
			const char *a = api < kind ? api : kind;
			const char *b = api < kind ? kind : api;

			put(&buf, &len, &cap, doc, (size_t)(a - doc));
			put(&buf, &len, &cap,
			    a == api ? "apiVersion: example.com/v1\n"
				     : "kind: Rollout\n",
			    a == api ? 27 : 14);
			a += a == api ? 20 : 17;
			put(&buf, &len, &cap, a, (size_t)(b - a));
			put(&buf, &len, &cap,
			    b == api ? "apiVersion: example.com/v1\n"
				     : "kind: Rollout\n",
			    b == api ? 27 : 14);
			b += b == api ? 20 : 17;
			put(&buf, &len, &cap, b, (size_t)(next - b));
			n++;
		}
		doc = next;
	}
	if (!n) {
		free(buf);
		return NULL;
	}
	return retarget(buf);
}

/* The findings of rule @id in a lint of @manifest: count, and the
 * severities as a bit set. */
static int lint(const char *id, const struct kvet_rule *rule,
		const struct kvet_rule_example *ex, const char *manifest,
		bool declare, size_t *count, unsigned int *sevs)
{
	struct kvet_options opts = { .flags = KVET_CTX_NO_BUILTIN_RULES,
				     .jobs = 1 };
	struct kvet_ctx *ctx;
	size_t i;

	if (ex->complete)
		opts.flags |= KVET_CTX_COMPLETE_INPUT;
	ctx = kvet_ctx_create(&opts);
	if (!ctx)
		return -1;
	if ((declare && kvet_ctx_add_workload_kind(ctx, "example.com/v1",
						   "Rollout", "spec.template",
						   "spec.replicas")) ||
	    kvet_ctx_add_rules_buffer(ctx, rule->file, rule->text,
				      rule->text_len) ||
	    kvet_ctx_add_buffer(ctx, "example.yaml", manifest,
				strlen(manifest)) ||
	    kvet_ctx_run(ctx)) {
		kvet_ctx_destroy(ctx);
		return -1;
	}
	*count = 0;
	*sevs = 0;
	for (i = 0; i < kvet_ctx_finding_count(ctx); i++) {
		const struct kvet_finding *f = kvet_ctx_finding(ctx, i);

		if (strcmp(f->rule, id))
			continue;
		(*count)++;
		*sevs |= 1u << f->severity;
	}
	kvet_ctx_destroy(ctx);
	return 0;
}

static void one(const struct kvet_rule *rule,
		const struct kvet_rule_example *ex)
{
	const char *id = rule->info.id, *name = ex->name ? ex->name : "";
	const char *why = deployment_only_reason(ex->manifest);
	char *text = renamed(ex->manifest, ex->len);
	size_t n0 = 0, n1 = 0;
	unsigned int s0 = 0, s1 = 0;

	if (!text)
		return;
	n_tests++;
	if (why) {
		printf("ok %d - %s: %s # SKIP reads %s, which a Deployment has and a declared kind has not\n",
		       n_tests, id, name, why);
		free(text);
		return;
	}
	if (lint(id, rule, ex, ex->manifest, false, &n0, &s0) ||
	    lint(id, rule, ex, text, true, &n1, &s1)) {
		n_failed++;
		printf("not ok %d - %s: %s: out of memory\n", n_tests, id,
		       name);
	} else if (n0 != n1 || s0 != s1) {
		n_failed++;
		printf("not ok %d - %s: %s: %zu finding(s) (severities %#x) as a Deployment, %zu (%#x) as a declared Rollout\n",
		       n_tests, id, name, n0, s0, n1, s1);
	} else {
		printf("ok %d - %s: %s: %zu finding(s) as a Deployment and as a declared Rollout\n",
		       n_tests, id, name, n0);
	}
	free(text);
}

int main(void)
{
	struct kvet_rule_set set;
	size_t i, k, rules = 0;

	kvet_rule_set_init(&set);
	if (kvet_rule_set_add_builtin(&set, true))
		return 1;
	for (i = 0; i < set.n; i++) {
		const struct kvet_rule *rule = set.v[i];

		if (rule->kind_class == KVET_KIND_OTHER)
			continue;
		rules++;
		for (k = 0; k < rule->n_examples; k++)
			one(rule, &rule->examples[k]);
	}
	/* the rules that match workloads say so with the words */
	n_tests++;
	if (rules < 10)
		n_failed++;
	printf("%s %d - %zu built-in rules match workloads by kind class\n",
	       rules >= 10 ? "ok" : "not ok", n_tests, rules);
	printf("1..%d\n# %d failed\n", n_tests, n_failed);
	kvet_rule_set_release(&set);
	return n_failed ? 1 : 0;
}
