/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The CEL engine: bytes as an expression → lexer → parser → checker →
 * cost estimate → evaluation against a few fixed objects of a small
 * cluster (the failing examples of the built-in rules, with their
 * graph, so the Kubernetes functions have relations to follow), under
 * the budgets a rule gets: CEL_COST_LIMIT steps and CEL_MEMORY_LIMIT
 * bytes per object. The result is formatted as a message would be.
 *
 * Variables: object, params (a built-in rule's parameters) and item
 * (what `each` binds: the object's first container, when there is one).
 */
#include "common.h"

#include "cel/cel.h"
#include "model/graph.h"
#include "model/run.h"
#include "rules/env.h"
#include "support_load.h"

enum { MAX_OBJECTS = 8 };

static struct fuzz_loaded fixture;
static struct kvet_graph *graph;
static struct kvet_arena scratch;
static struct cel_env env;
static struct kvet_cel_host host;
static struct cel_regexes rules_rx;
static const struct kvet_object *objects[MAX_OBJECTS];
static size_t n_objects;
static struct cel_value items[MAX_OBJECTS];
static struct cel_value params;

/* kvet's libraries are set in LLVMFuzzerInitialize() */
static struct cel_scope scope = {
	.names = { "object", "params", "item" },
	.n = 3,
};

/* The first object of each of these kinds: workloads, their PDBs,
 * services, autoscalers, webhooks and roles reach every topic. */
static void pick_objects(void)
{
	static const char *const kinds[MAX_OBJECTS] = {
		"Deployment", "StatefulSet", "PodDisruptionBudget", "Service",
		"HorizontalPodAutoscaler", "ValidatingWebhookConfiguration",
		"MutatingWebhookConfiguration", "Role",
	};
	size_t i, k;

	for (k = 0; k < MAX_OBJECTS; k++)
		for (i = 0; i < fixture.objs.n; i++)
			if (fixture.objs.v[i]->kind &&
			    !strcmp(fixture.objs.v[i]->kind, kinds[k])) {
				objects[n_objects++] = fixture.objs.v[i];
				break;
			}
}

/* What `each` would bind: each object's first container, a view of its
 * nodes that outlives the scratch memory of the evaluation. */
static void first_containers(void)
{
	static const char expr[] = "object.spec.template.spec.containers[0]";
	struct cel_value vars[3] = { 0 };
	struct cel_program prog;
	struct cel_error err;
	size_t i;

	if (cel_compile(&fixture.arena, &rules_rx, expr, sizeof(expr) - 1,
			&scope, &prog, &err))
		fuzz_die(err.msg);
	for (i = 0; i < n_objects; i++) {
		vars[0] = kvet_cel_from_object(objects[i]);
		items[i] = cel_eval(&env, &prog, vars);
		if (items[i].type == CEL_ERROR)
			items[i] = cel_null();
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct kvet_graph_config cfg = { 0 };
	size_t i;

	(void)argc;
	(void)argv;
	scope.libs = kvet_cel_libs;
	scope.n_libs = kvet_cel_n_libs;
	fuzz_init_template();
	fuzz_load_text(&fixture, fuzz_fixture, fuzz_fixture_len);
	graph = kvet_graph_create(&fixture.arena, fixture.objs.v,
				  fixture.objs.n, &cfg);
	if (!graph)
		fuzz_die("cannot build the fixture's graph");
	pick_objects();
	kvet_arena_init(&scratch);
	if (cel_env_init(&env, &scratch))
		fuzz_die("cel_env_init failed");
	kvet_cel_host_attach(&env, &host, kvet_run_create(&fixture.arena,
							  graph));
	if (!host.run)
		fuzz_die("kvet_run_create failed");
	params = cel_null();
	for (i = 0; i < fuzz_tmpl->rules.n; i++)
		if (fuzz_tmpl->rules.v[i]->n_params) {
			params = fuzz_tmpl->rules.v[i]->params;
			break;
		}
	first_containers();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kvet_arena arena;
	struct cel_regexes rx = { 0 };
	struct cel_program prog;
	struct cel_error err;
	struct cel_estimate est;
	struct kvet_arena_mark mark;
	struct cel_value *vars;
	size_t i;

	kvet_arena_init(&arena);
	if (cel_compile(&arena, &rx, (const char *)data, size, &scope, &prog,
			&err)) {
		if (err.off > size || !memchr(err.msg, '\0', sizeof(err.msg)))
			fuzz_die("compile error out of the expression");
		goto out;
	}
	cel_estimate(&prog, NULL, 0, &est);
	vars = calloc(prog.n_slots > 3 ? prog.n_slots : 3, sizeof(*vars));
	if (!vars)
		goto out;
	kvet_arena_mark(&scratch, &mark);
	for (i = 0; i < n_objects; i++) {
		struct cel_value v;

		cel_env_meter(&env, CEL_COST_LIMIT, CEL_MEMORY_LIMIT);
		vars[0] = kvet_cel_from_object(objects[i]);
		vars[1] = params;
		vars[2] = items[i];
		v = cel_eval(&env, &prog, vars);
		(void)cel_to_text(&scratch, &v);
		kvet_arena_reset(&scratch, &mark);
	}
	free(vars);
out:
	cel_regexes_release(&rx);
	kvet_arena_release(&arena);
	return 0;
}
