/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The spreading-term functions of CEL (kvet.spread, src/rules/bind_spread.c,
 * docs/model.md 1.8), over a real graph, and the rule field `related`.
 */
#include "tk8s.h"

#include <stdio.h>
#include <time.h>

#include "kvet/kvet.h"
#include "tctx.h"

#include "tspread.h"

static const char *input_text(void)
{
	return tspread_input();
}

static struct fixture *setup(void)
{
	return tk8s_load(input_text());
}

static void bind(struct fixture *f, const char *kind, const char *ns,
		 const char *name)
{
	tk8s_bind(f, "apps", kind, ns, name);
}

#define T(i) "spreadingTerms(object)[" #i "]"

/* A string expression's value must contain @part. */
static void assert_text(struct fixture *f, const char *expr, const char *part)
{
	struct cel_value v = tcel_eval(f->t, expr);

	if (v.type != CEL_STRING)
		fail_msg("%s: %s %s", expr, cel_type_name(v.type),
			 v.type == CEL_ERROR ? v.u.s : "");
	if (!strstr(v.u.s, part))
		fail_msg("%s: \"%.*s\" lacks \"%s\"", expr, (int)v.len, v.u.s,
			 part);
}

static void terms_and_kinds(void **state)
{
	struct fixture *f = setup();

	(void)state;
	bind(f, "Deployment", "ops", "alpha");
	/* required, then preferred, then spread constraints */
	assert_cel_true(f->t, "size(spreadingTerms(object)) == 3");
	assert_cel_true(f->t, "isRequiredAntiAffinity(" T(0) ") && isAntiAffinity(" T(0) ")");
	assert_cel_true(f->t, "isPreferredAntiAffinity(" T(1) ") && !isRequiredAntiAffinity(" T(1) ")");
	assert_cel_true(f->t, "isSpreadConstraint(" T(2) ") && !isAntiAffinity(" T(2) ")");
	/* a term is its mapping: fields read as usual */
	assert_cel_true(f->t, T(1) ".topologyKey == \"kubernetes.io/hostname\"");
	assert_cel_true(f->t, "termName(" T(0) ") == \"required pod anti-affinity term #1\"");
	assert_cel_true(f->t, "termName(" T(2) ") == \"topology spread constraint #1\"");
	/* the same mapping read from the object is the same term */
	assert_cel_true(f->t, "isSpreadConstraint(object.spec.template.spec.topologySpreadConstraints[0])");
	assert_cel_error(f->t, "matchesSiblings({\"topologyKey\": \"x\"})", "needs a term");
	assert_cel_error(f->t, "matchesSiblings(object.spec)", "needs a term");
	bind(f, "Deployment", "ops", "beta");
	assert_cel_true(f->t, "size(spreadingTerms(object)) == 0 && !hasEffectiveSpreadingTerm(object)");
	assert_text(f, "whyNoEffectiveSpreadingTerm(object)", "no pod anti-affinity term and no topology spread constraint");
	bind(f, "StatefulSet", "ops", "db");
	assert_cel_true(f->t, "spreadingTerms(object) == []");
	teardown(f);
}

static void siblings_and_effectiveness(void **state)
{
	struct fixture *f = setup();

	(void)state;
	bind(f, "Deployment", "ops", "alpha");
	/* mismatchLabelKeys on its own name excludes its siblings */
	assert_cel_false(f->t, "matchesSiblings(" T(0) ")");
	assert_cel_true(f->t, "matchesSiblings(" T(1) ") && hasSpreadingTopologyKey(" T(1) ")");
	assert_cel_true(f->t, "isEffectiveSpreadingTerm(" T(1) ") && !isEffectiveSpreadingTerm(" T(0) ")");
	/* a null labelSelector counts nothing */
	assert_cel_false(f->t, "matchesSiblings(" T(2) ")");
	assert_cel_true(f->t, "hasValidSelector(" T(2) ")");
	assert_cel_true(f->t, "hasEffectiveSpreadingTerm(object) && size(effectiveSpreadingTerms(object)) == 1");
	assert_cel_true(f->t, "whyNotEffective(" T(1) ") == \"\"");
	assert_text(f, "whyNotEffective(" T(0) ")", "excludes the workload's own pods through mismatchLabelKeys app.kubernetes.io/name");
	assert_text(f, "whyNotEffective(" T(2) ")", "has no labelSelector");
	assert_cel_error(f->t, "ineffectiveField(" T(1) ")", "effective");
	assert_cel_true(f->t, "ineffectiveField(" T(0) ") == " T(0));
	assert_cel_false(f->t, "scopeAssumed(" T(1) ")");
	/* merged selectors in kubectl syntax, runtime values described */
	assert_cel_true(f->t, "mergedSelector(" T(0) ") == \"app.kubernetes.io/part-of=suite,app.kubernetes.io/name notin (alpha)\"");
	assert_cel_true(f->t, "mergedSelector(" T(2) ") == \"(no selector: nothing)\"");
	assert_cel_true(f->t, "termScope(" T(1) ") == \"namespace ops\"");

	bind(f, "Deployment", "ops", "solo");
	/* kubernetes.io/os is no spreading key; pod-template-hash keeps
	 * siblings of one revision but not of the next */
	assert_cel_true(f->t, "matchesSiblings(" T(1) ") && !hasSpreadingTopologyKey(" T(1) ")");
	assert_cel_true(f->t, "matchesSiblingsAcrossRevisions(" T(0) ") && !matchesSiblingsAcrossRevisions(" T(1) ")");
	assert_text(f, "whyNotEffective(" T(1) ")", "topologyKey kubernetes.io/os, which is not a node, zone or region key");
	assert_text(f, "mergedSelector(" T(1) ")", "pod-template-hash=<pod-template-hash of this pod>");

	bind(f, "Deployment", "far", "far");
	/* the namespaceSelector decides on an absent Namespace: ASSUMED */
	assert_cel_true(f->t, "scopeAssumed(" T(0) ") && !isEffectiveSpreadingTerm(" T(0) ")");
	assert_text(f, "whyNotEffective(" T(0) ")", "presumably does not include");
	assert_text(f, "termScope(" T(0) ")", "namespaces matching team=a");
	assert_text(f, "whyNoEffectiveSpreadingTerm(object)", "preferred pod anti-affinity term #1 looks in");
	teardown(f);
}

static void foreign_workloads(void **state)
{
	struct fixture *f = setup();

	(void)state;
	bind(f, "Deployment", "ops", "alpha");
	assert_cel_true(f->t, "foreignWorkloadsOf(" T(1) ").map(w, w.metadata.name) == [\"beta\"]");
	assert_cel_true(f->t, "foreignWorkloadsOf(" T(0) ").map(w, w.metadata.name) == [\"beta\"]");
	assert_cel_true(f->t, "size(foreignWorkloadsOf(" T(2) ")) == 0");
	assert_cel_false(f->t, "foreignScopeAssumed(" T(1) ")");
	assert_cel_true(f->t, "foreignPodCount(" T(1) ") == 2");
	assert_cel_true(f->t, "selectsOnlySharedKeys(" T(1) ") && !selectsOnlySharedKeys(" T(0) ")");
	assert_cel_true(f->t, "matchesWorkloadsElsewhere(" T(1) ")");
	assert_cel_true(f->t, "foreignWorkloadCount(" T(1) ") == 1 && foreignWorkloadCount(" T(2) ") == 0");
	assert_cel_true(f->t, "foreignWorkloadNames(" T(1) ") == \"Deployment ops/beta\"");
	assert_cel_true(f->t, "workloadNames(foreignWorkloadsOf(" T(1) ")) == \"Deployment ops/beta\"");
	assert_cel_true(f->t, "workloadNames(objects(\"Deployment\", \"ops\")) == \"Deployment ops/alpha, Deployment ops/beta, Deployment ops/solo and 2 more\"");
	assert_cel_true(f->t, "workloadNames([]) == \"\"");
	assert_cel_error(f->t, "workloadNames([1])", "list of objects");
	bind(f, "Deployment", "ops", "solo");
	assert_cel_false(f->t, "matchesWorkloadsElsewhere(" T(0) ")");
	bind(f, "Deployment", "far", "far");
	assert_cel_true(f->t, "size(foreignWorkloadsOf(" T(0) ")) == 0 && !foreignScopeAssumed(" T(0) ")");
	teardown(f);
}

static void rollouts(void **state)
{
	struct fixture *f = setup();

	(void)state;
	bind(f, "Deployment", "ops", "solo");
	/* 25% of 4 rounds down to 1 */
	assert_cel_true(f->t, "usesRollingUpdate(object) && maxUnavailableSetting(object) == \"25%\"");
	assert_cel_true(f->t, "effectiveMaxUnavailable(object) == 1");
	bind(f, "Deployment", "ops", "alpha");
	assert_cel_true(f->t, "effectiveMaxUnavailable(object) == 0");
	bind(f, "Deployment", "ops", "roll");
	/* 20% of 7 = 1.4 rounds down to 1 */
	assert_cel_true(f->t, "maxUnavailableSetting(object) == \"20%\" && effectiveMaxUnavailable(object) == 1");
	bind(f, "StatefulSet", "ops", "db");
	assert_cel_error(f->t, "usesRollingUpdate(object)", "needs a Deployment");
	teardown(f);
}

static void nodes(void **state)
{
	struct fixture *f = setup();

	(void)state;
	bind(f, "Deployment", "ops", "solo");
	/* pool=system and schedulable: n1, n2 */
	assert_cel_true(f->t, "topologyDomains(" T(0) ") == 2");
	/* the Nodes have no kubernetes.io/os label: no limit */
	assert_cel_true(f->t, "topologyDomains(" T(1) ") == -1");
	bind(f, "Deployment", "ops", "alpha");
	assert_cel_true(f->t, "topologyDomains(" T(1) ") == 3");
	/* Node objects make a dump: its Pods are live */
	assert_cel_true(f->t, "livePodCount(\"far\") == 1 && livePodCount(\"ops\") == 0");
	assert_cel_true(f->t, "livePodCount(\"nowhere\") == 0");
	teardown(f);
}

static void problems(void **state)
{
	struct fixture *f = setup();

	(void)state;
	bind(f, "Deployment", "ops", "bad");
	assert_cel_true(f->t, "size(schedulingTermProblems(object)) == 5");
	assert_cel_true(f->t, "schedulingTermProblems(object).map(p, p.term) == ["
			"\"topologySpreadConstraints[0]\", \"topologySpreadConstraints[0]\","
			" \"topologySpreadConstraints[0]\","
			" \"podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0]\","
			" \"podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0]\"]");
	assert_text(f, "schedulingTermProblems(object)[0].problem", "maxSkew 0");
	assert_text(f, "schedulingTermProblems(object)[1].problem", "minDomains 2 is only allowed with whenUnsatisfiable: DoNotSchedule");
	assert_text(f, "schedulingTermProblems(object)[2].problem", "nodeTaintsPolicy \"honor\"");
	assert_text(f, "schedulingTermProblems(object)[3].problem", "weight 101 is not from 1 to 100");
	assert_text(f, "schedulingTermProblems(object)[4].problem", "topologyKey is empty");
	/* each problem points at its field */
	assert_cel_true(f->t, "schedulingTermProblems(object)[1].field == object.spec.template.spec.topologySpreadConstraints[0]");
	bind(f, "Deployment", "ops", "alpha");
	assert_cel_true(f->t, "schedulingTermProblems(object) == []");
	teardown(f);
}

/*
 * 2,000 releases of one chart whose terms all select each other: one
 * label-index walk serves every term, the lists stop at 50, the counts
 * and names cover them all.
 */
static void many_releases(void **state)
{
	enum { N = 2000 };
	char *yaml = malloc((size_t)N * 640), *p;
	struct tgraph tg;
	struct tcel *t;
	struct kvet_arena_mark mark;
	clock_t start;
	int i;

	(void)state;
	assert_non_null(yaml);
	p = yaml;
	for (i = 0; i < N; i++)
		p += snprintf(p, 640,
			      "apiVersion: apps/v1\nkind: Deployment\n"
			      "metadata: {name: r%d, namespace: ops}\n"
			      "spec:\n  replicas: 2\n"
			      "  selector: {matchLabels: {app.kubernetes.io/instance: r%d}}\n"
			      "  template:\n    metadata: {labels: {app.kubernetes.io/instance: r%d,"
			      " app.kubernetes.io/part-of: suite}}\n"
			      "    spec:\n      topologySpreadConstraints:\n"
			      "      - {maxSkew: 1, topologyKey: kubernetes.io/hostname,"
			      " whenUnsatisfiable: ScheduleAnyway,"
			      " labelSelector: {matchLabels: {app.kubernetes.io/part-of: suite}}}\n"
			      "---\n", i, i, i);
	tg = tg_load(yaml, 0);
	t = tcel_new();
	tcel_attach(t, &tg.l->arena, tg.g);
	kvet_arena_mark(&t->scratch, &mark);
	start = clock();
	for (i = 0; i < N; i++) {
		char name[16];

		snprintf(name, sizeof(name), "r%d", i);
		t->vars[0] = kvet_cel_from_object(kvet_graph_find(tg.g, "apps",
							     "Deployment", "ops",
							     name));
		assert_cel_true(t, "foreignWorkloadCount(" T(0) ") == 1999");
		assert_cel_true(t, "size(foreignWorkloadsOf(" T(0) ")) == 50");
		assert_cel_true(t, "foreignPodCount(" T(0) ") == 3998");
		assert_cel_true(t, "!foreignWorkloadsOf(" T(0) ").exists(w, w == object)");
		assert_cel_true(t, "foreignWorkloadNames(" T(0) ").endsWith(\" and 1996 more\")");
		kvet_arena_reset(&t->scratch, &mark);
	}
	/* quadratic work would take minutes here */
	assert_true((clock() - start) / CLOCKS_PER_SEC < 20);
	tcel_free(t);
	tg_free(&tg);
	free(yaml);
}

/* `related`: an object or a list, each object once, never the primary */
static void related_field(void **state)
{
	static const char rule[] =
		"id: related-test\nseverity: info\ncategory: test\n"
		"summary: s\ndescription: d\nremediation: r\n"
		"match: {kinds: [apps/Deployment]}\n"
		"condition: object.metadata.name == \"alpha\"\n"
		"message: m\n"
		"related: objects(\"Deployment\", \"ops\") + objects(\"Deployment\", \"ops\")\n";
	struct kvet_options opts = { .flags = KVET_CTX_NO_BUILTIN_RULES };
	struct kvet_ctx *ctx = kvet_ctx_create(&opts);
	const struct kvet_finding *fd;

	(void)state;
	assert_non_null(ctx);
	assert_int_equal(kvet_ctx_add_rules_buffer(ctx, "r.yaml", rule,
						   sizeof(rule) - 1), 0);
	tctx_add(ctx, "in.yaml", input_text());
	assert_int_equal(kvet_ctx_run(ctx), 0);
	assert_int_equal(kvet_ctx_finding_count(ctx), 1);
	fd = kvet_ctx_finding(ctx, 0);
	/* beta, solo, bad, roll: alpha itself and the repeats left out */
	assert_int_equal(fd->n_related, 4);
	assert_string_equal(fd->related[0].name, "beta");
	assert_string_equal(fd->related[3].name, "roll");
	kvet_ctx_destroy(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(terms_and_kinds),
		cmocka_unit_test(siblings_and_effectiveness),
		cmocka_unit_test(foreign_workloads),
		cmocka_unit_test(rollouts),
		cmocka_unit_test(nodes),
		cmocka_unit_test(problems),
		cmocka_unit_test(many_releases),
		cmocka_unit_test(related_field),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
