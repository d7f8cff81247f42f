/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The label index: "which workloads in namespace ns does selector S
 * select" must give exactly what checking every workload gives, while
 * examining only the candidates of the most selective requirement.
 */
#include "tgraph.h"
#include "tnode.h"

#include "model/index.h"

struct picked {
	const struct kvet_workload *v[512];
	size_t n;
	size_t stop_after;	/* 0: never */
};

static int pick(void *data, const struct kvet_workload *wl)
{
	struct picked *p = data;

	assert_true(p->n < 512);
	p->v[p->n++] = wl;
	return p->stop_after && p->n == p->stop_after ? 42 : 0;
}

static const char cluster[] =
	"apiVersion: apps/v1\nkind: Deployment\n"
	"metadata: {name: web, namespace: ops}\n"
	"spec: {template: {metadata: {labels: {app: web, tier: front}}}}\n"
	"---\napiVersion: apps/v1\nkind: Deployment\n"
	"metadata: {name: api, namespace: ops}\n"
	"spec: {template: {metadata: {labels: {app: api, tier: back}}}}\n"
	"---\napiVersion: apps/v1\nkind: StatefulSet\n"
	"metadata: {name: db, namespace: ops}\n"
	"spec: {template: {metadata: {labels: {app: db, tier: back}}}}\n"
	"---\napiVersion: apps/v1\nkind: DaemonSet\n"
	"metadata: {name: agent, namespace: ops}\n"
	"spec: {template: {metadata: {labels: {app: agent}}}}\n"
	"---\napiVersion: apps/v1\nkind: Deployment\n"
	"metadata: {name: web, namespace: dev}\n"
	"spec: {template: {metadata: {labels: {app: web}}}}\n";

struct fixture {
	struct tgraph t;
	struct loaded *sel_docs;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	f->t = tg_load(cluster, 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	loaded_free(f->sel_docs);
	tg_free(&f->t);
	free(f);
	return 0;
}

/*
 * Select with @yaml (a LabelSelector of field @field) in @ns and return
 * the selected names joined by spaces, namespace-qualified when @ns is
 * NULL; *@examined is the number of candidates checked.
 */
static const char *run(struct fixture *f, const char *ns, const char *yaml,
		       enum kvet_sel_field field, size_t *examined)
{
	static char out[512];
	struct kvet_workload *const *wls;
	struct kvet_label_index *idx;
	struct picked p = { .n = 0 };
	struct kvet_selector sel;
	size_t i, n, len = 0;

	loaded_free(f->sel_docs);
	f->sel_docs = load_str(yaml);
	assert_int_equal(kvet_selector_parse(&f->sel_docs->arena,
			 f->sel_docs->docs.n ? f->sel_docs->docs.v[0].root :
					       NULL, field, &sel), 0);
	wls = kvet_graph_workloads(f->t.g, &n);
	idx = kvet_label_index_create(&f->t.l->arena, wls, n);
	assert_non_null(idx);
	assert_int_equal(kvet_label_index_select(idx, ns, &sel, pick, &p,
						 examined), 0);
	kvet_label_index_destroy(idx);
	out[0] = '\0';
	for (i = 0; i < p.n; i++) {
		int w = snprintf(out + len, sizeof(out) - len, "%s%s%s%s",
				 i ? " " : "",
				 ns ? "" : p.v[i]->obj->namespace,
				 ns ? "" : "/", p.v[i]->obj->name);

		assert_true(w > 0 && (size_t)w < sizeof(out) - len);
		len += (size_t)w;
	}
	return out;
}

static void equality(void **state)
{
	struct fixture *f = *state;
	size_t ex;

	assert_string_equal(run(f, "ops", "matchLabels: {app: web}",
				KVET_SEL_FIELD_PDB_V1, &ex), "web");
	/* only the one candidate carrying app=web in ops */
	assert_int_equal(ex, 1);
	assert_string_equal(run(f, NULL, "matchLabels: {app: web}",
				KVET_SEL_FIELD_PDB_V1, &ex),
			    "ops/web dev/web");
	assert_int_equal(ex, 2);
	assert_string_equal(run(f, "ops", "{app: web, tier: back}",
				KVET_SEL_FIELD_SERVICE, &ex), "");
	assert_string_equal(run(f, "ops", "{tier: back}",
				KVET_SEL_FIELD_SERVICE, &ex), "api db");
	assert_string_equal(run(f, "nowhere", "{tier: back}",
				KVET_SEL_FIELD_SERVICE, &ex), "");
	assert_int_equal(ex, 0);
}

static void in_and_exists(void **state)
{
	struct fixture *f = *state;
	size_t ex;

	assert_string_equal(run(f, "ops", "matchExpressions: [{key: app, "
				"operator: In, values: [db, api, nope]}]",
				KVET_SEL_FIELD_PDB_V1, &ex), "api db");
	assert_int_equal(ex, 2);
	assert_string_equal(run(f, "ops", "matchExpressions: [{key: tier, "
				"operator: Exists}]",
				KVET_SEL_FIELD_PDB_V1, &ex), "web api db");
	assert_int_equal(ex, 3);
	/* the most selective requirement drives: app In [web] */
	assert_string_equal(run(f, "ops", "matchLabels: {app: web}\n"
				"matchExpressions: [{key: tier, "
				"operator: Exists}]",
				KVET_SEL_FIELD_PDB_V1, &ex), "web");
	assert_int_equal(ex, 1);
}

static void negative_only_selectors_scan(void **state)
{
	struct fixture *f = *state;
	size_t ex;

	assert_string_equal(run(f, "ops", "matchExpressions: [{key: app, "
				"operator: NotIn, values: [web]}]",
				KVET_SEL_FIELD_PDB_V1, &ex), "api db agent");
	assert_int_equal(ex, 4);
	assert_string_equal(run(f, "ops", "matchExpressions: [{key: tier, "
				"operator: DoesNotExist}]",
				KVET_SEL_FIELD_PDB_V1, &ex), "agent");
	assert_int_equal(ex, 4);
	assert_string_equal(run(f, NULL, "matchExpressions: [{key: tier, "
				"operator: DoesNotExist}]",
				KVET_SEL_FIELD_PDB_V1, &ex),
			    "ops/agent dev/web");
	assert_int_equal(ex, 5);
}

static void runtime_keys(void **state)
{
	struct fixture *f = *state;
	size_t ex;

	/* only Deployment pods carry pod-template-hash */
	assert_string_equal(run(f, "ops", "matchExpressions: [{key: "
				"pod-template-hash, operator: Exists}]",
				KVET_SEL_FIELD_PDB_V1, &ex), "web api");
	assert_string_equal(run(f, "ops", "matchExpressions: [{key: "
				"controller-revision-hash, operator: Exists}]",
				KVET_SEL_FIELD_PDB_V1, &ex), "db agent");
	assert_string_equal(run(f, "ops", "matchExpressions: [{key: "
				"statefulset.kubernetes.io/pod-name, "
				"operator: In, values: [db-0]}]",
				KVET_SEL_FIELD_PDB_V1, &ex), "db");
}

static void empty_null_and_invalid(void **state)
{
	struct fixture *f = *state;
	size_t ex;

	assert_string_equal(run(f, "ops", "{}", KVET_SEL_FIELD_PDB_V1, &ex),
			    "web api db agent");
	assert_string_equal(run(f, "ops", "{}", KVET_SEL_FIELD_PDB_V1BETA1,
				&ex), "");
	assert_string_equal(run(f, "ops", "", KVET_SEL_FIELD_PDB_V1, &ex), "");
	assert_string_equal(run(f, "ops", "matchExpressions: [{key: app, "
				"operator: in, values: [web]}]",
				KVET_SEL_FIELD_PDB_V1, &ex), "");
	assert_int_equal(ex, 0);
}

static void callback_stops_the_walk(void **state)
{
	struct fixture *f = *state;
	struct kvet_selector sel;
	struct picked p = { .n = 0, .stop_after = 2 };
	struct loaded *y = load_str("{}");

	assert_int_equal(kvet_selector_parse(&y->arena, y->docs.v[0].root,
					     KVET_SEL_FIELD_PDB_V1, &sel), 0);
	assert_int_equal(kvet_graph_select_workloads(f->t.g, "ops", &sel,
						     pick, &p), 42);
	assert_int_equal(p.n, 2);
	loaded_free(y);
}

/* ---- the index against brute force on a generated input ---- */

static uint32_t rng(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return (*s >> 16) & 0x7fff;
}

static const char *const keys[] = { "app", "tier", "team", "zone" };
static const char *const vals[] = { "a", "b", "c", "d", "e" };
static const char *const nss[] = { "n0", "n1", "n2" };
static const char *const ops[] = { "In", "NotIn", "Exists", "DoesNotExist" };

static char *generate(size_t n, uint32_t *seed)
{
	size_t cap = n * 256, len = 0, i, k;
	char *buf = malloc(cap);

	assert_non_null(buf);
	for (i = 0; i < n; i++) {
		len += (size_t)snprintf(buf + len, cap - len,
			"---\napiVersion: apps/v1\nkind: %s\n"
			"metadata: {name: w%zu, namespace: %s}\n"
			"spec: {template: {metadata: {labels: {",
			rng(seed) % 4 ? "Deployment" : "StatefulSet", i,
			nss[rng(seed) % 3]);
		for (k = 0; k < 4; k++)
			if (rng(seed) % 3)
				len += (size_t)snprintf(buf + len, cap - len,
					"%s: %s, ", keys[k],
					vals[rng(seed) % 5]);
		len += (size_t)snprintf(buf + len, cap - len, "x: y}}}}\n");
		assert_true(len < cap);
	}
	return buf;
}

struct brute {
	const char *ns;
	const struct kvet_selector *sel;
	struct picked p;
};

static void index_equals_brute_force(void **state)
{
	uint32_t seed = 7;
	char *yaml = generate(300, &seed);
	struct tgraph t = tg_load(yaml, 0);
	struct kvet_arena arena;
	struct tnode tn = { &arena, 0 };
	struct kvet_workload *const *wls;
	size_t n, round, total_examined = 0, total_scan = 0;

	(void)state;
	kvet_arena_init(&arena);
	wls = kvet_graph_workloads(t.g, &n);
	assert_int_equal(n, 300);
	for (round = 0; round < 400; round++) {
		struct kvet_node *exprs[3];
		struct kvet_selector sel;
		struct picked got = { .n = 0 }, want = { .n = 0 };
		struct kvet_label_index *idx;
		const char *ns = round % 5 ? nss[rng(&seed) % 3] : NULL;
		size_t i, nexpr = 1 + rng(&seed) % 3, examined;

		for (i = 0; i < 3; i++) {
			const char *op = ops[rng(&seed) % 4];
			const char *key = keys[rng(&seed) % 4];
			struct kvet_node *v;

			if (op[0] == 'E' || op[0] == 'D')
				v = NULL;
			else if (rng(&seed) % 2)
				v = tn_seq(&tn, 1, tn_str(&tn, vals[rng(&seed) % 5]));
			else
				v = tn_seq(&tn, 2, tn_str(&tn, vals[rng(&seed) % 5]),
					   tn_str(&tn, vals[rng(&seed) % 5]));
			exprs[i] = tn_expr(&tn, key, op, v);
		}
		assert_int_equal(kvet_selector_parse(&arena,
			tn_map(&tn, 1, "matchExpressions",
			       tn_seq(&tn, (unsigned)nexpr, exprs[0], exprs[1],
				      exprs[2])),
			KVET_SEL_FIELD_PDB_V1, &sel), 0);
		assert_int_equal(sel.meaning, KVET_SEL_MATCH);
		idx = kvet_label_index_create(&arena, wls, n);
		assert_int_equal(kvet_label_index_select(idx, ns, &sel, pick,
							 &got, &examined), 0);
		kvet_label_index_destroy(idx);
		for (i = 0; i < n; i++) {
			if (ns && strcmp(wls[i]->obj->namespace, ns) != 0)
				continue;
			total_scan++;
			if (kvet_workload_selected_by(wls[i], &sel))
				pick(&want, wls[i]);
		}
		total_examined += examined;
		if (got.n != want.n)
			fail_msg("round %zu: index gave %zu, scan %zu", round,
				 got.n, want.n);
		for (i = 0; i < got.n; i++)
			assert_ptr_equal(got.v[i], want.v[i]);
	}
	/* the index must save work overall */
	assert_true(total_examined < total_scan);
	kvet_arena_release(&arena);
	tg_free(&t);
	free(yaml);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
		T(equality),
		T(in_and_exists),
		T(negative_only_selectors_scan),
		T(runtime_keys),
		T(empty_null_and_invalid),
		T(callback_stops_the_walk),
#undef T
		cmocka_unit_test(index_equals_brute_force),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
