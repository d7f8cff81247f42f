/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Label selector semantics: docs/model.md 1.5 (operators, the
 * null-versus-empty table, namespace selectors and ASSUMED results) and
 * 1.6 (runtime labels).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/selector.h"
#include "tlabels.h"
#include "tnode.h"

struct fixture {
	struct kvet_arena arena;
	struct tnode t;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	kvet_arena_init(&f->arena);
	f->t.arena = &f->arena;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	kvet_arena_release(&f->arena);
	free(f);
	return 0;
}

static struct kvet_selector parse(struct fixture *f, const struct kvet_node *n,
				  enum kvet_sel_field field)
{
	struct kvet_selector sel;

	assert_int_equal(kvet_selector_parse(&f->arena, n, field, &sel), 0);
	return sel;
}

/* selector: {matchExpressions: [e]} */
static struct kvet_selector parse_expr(struct fixture *f, struct kvet_node *e)
{
	return parse(f, tn_map(&f->t, 1, "matchExpressions", tn_seq(&f->t, 1, e)),
		     KVET_SEL_FIELD_PDB_V1);
}

static struct kvet_node *values1(struct fixture *f, const char *v)
{
	return tn_seq(&f->t, 1, tn_str(&f->t, v));
}

/* ---- the null-versus-empty table, one test per row ---- */

struct row {
	enum kvet_sel_field field;
	enum kvet_sel_meaning absent, null, empty;
};

static void check_row(struct fixture *f, const struct row *r)
{
	struct kvet_selector s;

	s = parse(f, NULL, r->field);
	assert_int_equal(s.form, KVET_SEL_FORM_ABSENT);
	assert_int_equal(s.meaning, r->absent);
	s = parse(f, tn_null(&f->t), r->field);
	assert_int_equal(s.form, KVET_SEL_FORM_ABSENT);
	assert_int_equal(s.meaning, r->null);
	s = parse(f, tn_map(&f->t, 0), r->field);
	assert_int_equal(s.form, KVET_SEL_FORM_EMPTY);
	assert_int_equal(s.meaning, r->empty);
}

static void row_pdb_v1(void **state)
{
	const struct row r = { KVET_SEL_FIELD_PDB_V1, KVET_SEL_NOTHING,
			       KVET_SEL_NOTHING, KVET_SEL_EVERYTHING };

	check_row(*state, &r);
}

static void row_pdb_v1beta1(void **state)
{
	const struct row r = { KVET_SEL_FIELD_PDB_V1BETA1, KVET_SEL_NOTHING,
			       KVET_SEL_NOTHING, KVET_SEL_NOTHING };

	check_row(*state, &r);
}

static void row_service(void **state)
{
	const struct row r = { KVET_SEL_FIELD_SERVICE, KVET_SEL_NOTHING,
			       KVET_SEL_NOTHING, KVET_SEL_NOTHING };

	check_row(*state, &r);
}

static void row_affinity_term(void **state)
{
	const struct row r = { KVET_SEL_FIELD_AFFINITY_TERM, KVET_SEL_NOTHING,
			       KVET_SEL_NOTHING, KVET_SEL_EVERYTHING };

	check_row(*state, &r);
}

static void row_affinity_namespace_selector(void **state)
{
	/* null selects no namespace; the term's scope rule then falls back
	 * to the pod's own namespace when "namespaces" is empty too */
	const struct row r = { KVET_SEL_FIELD_AFFINITY_NS, KVET_SEL_NOTHING,
			       KVET_SEL_NOTHING, KVET_SEL_EVERYTHING };

	check_row(*state, &r);
}

static void row_spread(void **state)
{
	const struct row r = { KVET_SEL_FIELD_SPREAD, KVET_SEL_NOTHING,
			       KVET_SEL_NOTHING, KVET_SEL_EVERYTHING };

	check_row(*state, &r);
}

static void row_webhook(void **state)
{
	const struct row r = { KVET_SEL_FIELD_WEBHOOK, KVET_SEL_EVERYTHING,
			       KVET_SEL_EVERYTHING, KVET_SEL_EVERYTHING };

	check_row(*state, &r);
}

static void row_workload(void **state)
{
	struct fixture *f = *state;
	const struct row r = { KVET_SEL_FIELD_WORKLOAD, KVET_SEL_INVALID,
			       KVET_SEL_INVALID, KVET_SEL_INVALID };
	struct kvet_selector s;

	check_row(f, &r);
	s = parse(f, NULL, KVET_SEL_FIELD_WORKLOAD);
	assert_string_equal(s.error, "selector is missing");
	s = parse(f, tn_map(&f->t, 0), KVET_SEL_FIELD_WORKLOAD);
	assert_string_equal(s.error, "empty selector is invalid");
}

static void empty_match_lists_are_empty_selector(void **state)
{
	struct fixture *f = *state;
	struct kvet_labels l = tl_labels(&f->arena, 1, "app", "x");
	struct kvet_selector s;

	s = parse(f, tn_map(&f->t, 2, "matchLabels", tn_map(&f->t, 0),
			    "matchExpressions", tn_seq(&f->t, 0)),
		  KVET_SEL_FIELD_PDB_V1);
	assert_int_equal(s.form, KVET_SEL_FORM_EMPTY);
	assert_int_equal(s.meaning, KVET_SEL_EVERYTHING);
	assert_true(kvet_selector_matches(&s, &l, NULL));
	assert_true(kvet_selector_matches(&s, NULL, NULL));

	s = parse(f, tn_map(&f->t, 1, "matchLabels", tn_null(&f->t)),
		  KVET_SEL_FIELD_PDB_V1BETA1);
	assert_int_equal(s.form, KVET_SEL_FORM_EMPTY);
	assert_int_equal(s.meaning, KVET_SEL_NOTHING);
	assert_false(kvet_selector_matches(&s, &l, NULL));
}

/* ---- operators ---- */

static void match_labels_is_in(void **state)
{
	struct fixture *f = *state;
	struct kvet_labels l = tl_labels(&f->arena, 2, "app", "web",
					 "tier", "front");
	struct kvet_labels other = tl_labels(&f->arena, 1, "app", "db");
	struct kvet_selector s;

	s = parse(f, tn_map(&f->t, 1, "matchLabels",
			    tn_map(&f->t, 2, "app", tn_plain(&f->t, "web"),
				   "tier", tn_plain(&f->t, "front"))),
		  KVET_SEL_FIELD_PDB_V1);
	assert_int_equal(s.meaning, KVET_SEL_MATCH);
	assert_int_equal(s.n_reqs, 2);
	assert_int_equal(s.reqs[0].op, KVET_SEL_IN);
	assert_int_equal(s.reqs[0].n_values, 1);
	assert_true(kvet_selector_matches(&s, &l, NULL));
	assert_false(kvet_selector_matches(&s, &other, NULL));
	/* requirements are ANDed: one label is not enough */
	other = tl_labels(&f->arena, 1, "app", "web");
	assert_false(kvet_selector_matches(&s, &other, NULL));
}

static void op_in(void **state)
{
	struct fixture *f = *state;
	struct kvet_selector s;
	struct kvet_labels a = tl_labels(&f->arena, 1, "env", "prod");
	struct kvet_labels b = tl_labels(&f->arena, 1, "env", "dev");
	struct kvet_labels none = tl_labels(&f->arena, 1, "app", "x");

	s = parse_expr(f, tn_expr(&f->t, "env", "In",
				  tn_seq(&f->t, 2, tn_str(&f->t, "staging"),
					 tn_str(&f->t, "prod"))));
	assert_int_equal(s.meaning, KVET_SEL_MATCH);
	assert_true(kvet_selector_matches(&s, &a, NULL));
	assert_false(kvet_selector_matches(&s, &b, NULL));
	assert_false(kvet_selector_matches(&s, &none, NULL));
}

static void op_not_in_matches_absent_key(void **state)
{
	struct fixture *f = *state;
	struct kvet_selector s;
	struct kvet_labels a = tl_labels(&f->arena, 1, "env", "prod");
	struct kvet_labels b = tl_labels(&f->arena, 1, "env", "dev");
	struct kvet_labels none = tl_labels(&f->arena, 1, "app", "x");

	s = parse_expr(f, tn_expr(&f->t, "env", "NotIn", values1(f, "prod")));
	assert_int_equal(s.meaning, KVET_SEL_MATCH);
	assert_false(kvet_selector_matches(&s, &a, NULL));
	assert_true(kvet_selector_matches(&s, &b, NULL));
	assert_true(kvet_selector_matches(&s, &none, NULL));
	assert_true(kvet_selector_matches(&s, NULL, NULL));
}

static void op_exists_and_does_not_exist(void **state)
{
	struct fixture *f = *state;
	struct kvet_selector ex, dne;
	struct kvet_labels a = tl_labels(&f->arena, 1, "env", "");
	struct kvet_labels none = tl_labels(&f->arena, 1, "app", "x");

	ex = parse_expr(f, tn_expr(&f->t, "env", "Exists", NULL));
	dne = parse_expr(f, tn_expr(&f->t, "env", "DoesNotExist",
				    tn_seq(&f->t, 0)));
	assert_int_equal(ex.meaning, KVET_SEL_MATCH);
	assert_int_equal(dne.meaning, KVET_SEL_MATCH);
	/* an empty value is still a present key */
	assert_true(kvet_selector_matches(&ex, &a, NULL));
	assert_false(kvet_selector_matches(&ex, &none, NULL));
	assert_false(kvet_selector_matches(&dne, &a, NULL));
	assert_true(kvet_selector_matches(&dne, &none, NULL));
}

static void exists_with_values_is_invalid(void **state)
{
	struct fixture *f = *state;
	struct kvet_labels a = tl_labels(&f->arena, 1, "env", "prod");
	struct kvet_node *vals = values1(f, "prod");
	struct kvet_selector s;

	s = parse_expr(f, tn_expr(&f->t, "env", "Exists", vals));
	assert_int_equal(s.meaning, KVET_SEL_INVALID);
	assert_non_null(strstr(s.error, "takes no values"));
	assert_int_equal(s.err_line, vals->line);
	/* an invalid selector matches nothing */
	assert_false(kvet_selector_matches(&s, &a, NULL));

	s = parse_expr(f, tn_expr(&f->t, "env", "DoesNotExist",
				  values1(f, "x")));
	assert_int_equal(s.meaning, KVET_SEL_INVALID);
}

static void in_with_empty_values_is_invalid(void **state)
{
	struct fixture *f = *state;
	struct kvet_selector s;

	s = parse_expr(f, tn_expr(&f->t, "env", "In", tn_seq(&f->t, 0)));
	assert_int_equal(s.meaning, KVET_SEL_INVALID);
	assert_non_null(strstr(s.error, "at least one value"));
	s = parse_expr(f, tn_expr(&f->t, "env", "In", NULL));
	assert_int_equal(s.meaning, KVET_SEL_INVALID);
	s = parse_expr(f, tn_expr(&f->t, "env", "NotIn", tn_null(&f->t)));
	assert_int_equal(s.meaning, KVET_SEL_INVALID);
}

static void operators_are_case_sensitive(void **state)
{
	static const char *const bad[] = {
		"in", "IN", "notin", "Notin", "exists", "doesnotexist",
		"DoesNotExists",
	};
	struct fixture *f = *state;
	struct kvet_labels a = tl_labels(&f->arena, 1, "env", "prod");
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct kvet_node *op = tn_str(&f->t, bad[i]);
		struct kvet_selector s;

		s = parse_expr(f, tn_map(&f->t, 3, "key", tn_str(&f->t, "env"),
					 "operator", op,
					 "values", values1(f, "prod")));
		assert_int_equal(s.meaning, KVET_SEL_INVALID);
		assert_int_equal(s.err_line, op->line);
		assert_false(kvet_selector_matches(&s, &a, NULL));
	}
}

static void unknown_or_missing_operator_is_invalid(void **state)
{
	struct fixture *f = *state;
	struct kvet_selector s;

	s = parse_expr(f, tn_expr(&f->t, "env", "Equals", values1(f, "x")));
	assert_int_equal(s.meaning, KVET_SEL_INVALID);
	assert_non_null(strstr(s.error, "\"Equals\""));
	s = parse_expr(f, tn_map(&f->t, 1, "key", tn_str(&f->t, "env")));
	assert_int_equal(s.meaning, KVET_SEL_INVALID);
	assert_non_null(strstr(s.error, "no operator"));
	s = parse_expr(f, tn_map(&f->t, 2, "key", tn_str(&f->t, "env"),
				 "operator", tn_plain(&f->t, "1")));
	assert_int_equal(s.meaning, KVET_SEL_INVALID);
}

static void malformed_selectors_are_invalid(void **state)
{
	struct fixture *f = *state;
	struct kvet_selector s;
	struct kvet_node *k;

	/* Service-style labels straight under a LabelSelector */
	s = parse(f, tn_map(&f->t, 1, "app", tn_str(&f->t, "web")),
		  KVET_SEL_FIELD_PDB_V1);
	assert_int_equal(s.meaning, KVET_SEL_INVALID);
	assert_int_equal(s.form, KVET_SEL_FORM_MALFORMED);
	assert_non_null(strstr(s.error, "unknown field \"app\""));
	/* not a mapping */
	s = parse(f, tn_str(&f->t, "app=web"), KVET_SEL_FIELD_SPREAD);
	assert_int_equal(s.meaning, KVET_SEL_INVALID);
	s = parse(f, tn_map(&f->t, 1, "matchLabels", tn_seq(&f->t, 0)),
		  KVET_SEL_FIELD_PDB_V1);
	assert_int_equal(s.meaning, KVET_SEL_INVALID);
	s = parse(f, tn_map(&f->t, 1, "matchExpressions", tn_map(&f->t, 0)),
		  KVET_SEL_FIELD_PDB_V1);
	assert_int_equal(s.meaning, KVET_SEL_INVALID);
	/* a number where a string is needed */
	k = tn_plain(&f->t, "1.0");
	s = parse(f, tn_map(&f->t, 1, "matchLabels",
			    tn_map(&f->t, 1, "version", k)),
		  KVET_SEL_FIELD_PDB_V1);
	assert_int_equal(s.meaning, KVET_SEL_INVALID);
	assert_int_equal(s.err_line, k->line);
	assert_non_null(strstr(s.error, "quote it"));
	/* the same value quoted is fine */
	s = parse(f, tn_map(&f->t, 1, "matchLabels",
			    tn_map(&f->t, 1, "version", tn_str(&f->t, "1.0"))),
		  KVET_SEL_FIELD_PDB_V1);
	assert_int_equal(s.meaning, KVET_SEL_MATCH);
	/* label syntax */
	s = parse_expr(f, tn_expr(&f->t, "bad key!", "Exists", NULL));
	assert_int_equal(s.meaning, KVET_SEL_INVALID);
	s = parse_expr(f, tn_expr(&f->t, "", "Exists", NULL));
	assert_int_equal(s.meaning, KVET_SEL_INVALID);
	s = parse_expr(f, tn_expr(&f->t, "app", "In", values1(f, "-x")));
	assert_int_equal(s.meaning, KVET_SEL_INVALID);
	s = parse_expr(f, tn_map(&f->t, 3, "key", tn_str(&f->t, "a"),
				 "operator", tn_str(&f->t, "Exists"),
				 "value", tn_str(&f->t, "x")));
	assert_int_equal(s.meaning, KVET_SEL_INVALID);
}

static void service_selector_is_plain_map(void **state)
{
	struct fixture *f = *state;
	struct kvet_labels l = tl_labels(&f->arena, 2, "app", "web",
					 "tier", "front");
	struct kvet_selector s;

	s = parse(f, tn_map(&f->t, 1, "app", tn_str(&f->t, "web")),
		  KVET_SEL_FIELD_SERVICE);
	assert_int_equal(s.meaning, KVET_SEL_MATCH);
	assert_true(kvet_selector_matches(&s, &l, NULL));
	/* "matchLabels" is just a label key in a plain map */
	s = parse(f, tn_map(&f->t, 1, "matchLabels",
			    tn_map(&f->t, 1, "app", tn_str(&f->t, "web"))),
		  KVET_SEL_FIELD_SERVICE);
	assert_int_equal(s.meaning, KVET_SEL_INVALID);
}

static void selector_from_labels(void **state)
{
	struct fixture *f = *state;
	struct kvet_labels l = tl_labels(&f->arena, 2, "app", "web",
					 "tier", "front");
	struct kvet_labels part = tl_labels(&f->arena, 1, "app", "web");
	struct kvet_labels none = { NULL, 0 };
	struct kvet_selector s;

	assert_int_equal(kvet_selector_from_labels(&f->arena, &l,
				KVET_SEL_FIELD_PLAIN_WORKLOAD, &s), 0);
	assert_int_equal(s.meaning, KVET_SEL_MATCH);
	assert_true(kvet_selector_matches(&s, &l, NULL));
	assert_false(kvet_selector_matches(&s, &part, NULL));
	assert_int_equal(kvet_selector_from_labels(&f->arena, &none,
				KVET_SEL_FIELD_PLAIN_WORKLOAD, &s), 0);
	assert_int_equal(s.meaning, KVET_SEL_INVALID);
}

/* ---- runtime labels (1.6) ---- */

static void runtime_template_hash(void **state)
{
	struct fixture *f = *state;
	struct kvet_labels l = tl_labels(&f->arena, 2, "app", "web",
					 "pod-template-hash", "abc");
	struct kvet_pod_runtime deploy = { KVET_RT_TEMPLATE_HASH, { "web", 3 },
					   7, 0, 0 };
	struct kvet_pod_runtime sts = { KVET_RT_STS_POD | KVET_RT_REVISION_HASH,
					{ "web", 3 }, 8, 0, 0 };
	struct kvet_selector ex, in;

	ex = parse_expr(f, tn_expr(&f->t, "pod-template-hash", "Exists", NULL));
	assert_true(kvet_selector_matches(&ex, NULL, &deploy));
	assert_false(kvet_selector_matches(&ex, NULL, &sts));
	assert_false(kvet_selector_matches(&ex, NULL, NULL));
	/* the controller overwrites what the template wrote: the real hash
	 * is never the literal "abc" */
	in = parse_expr(f, tn_expr(&f->t, "pod-template-hash", "In",
				   values1(f, "abc")));
	assert_true(kvet_selector_matches(&in, &l, NULL));
	assert_false(kvet_selector_matches(&in, &l, &deploy));
	assert_true(kvet_runtime_key(kvet_slice_of("pod-template-hash")));
	assert_false(kvet_runtime_key(kvet_slice_of("app")));
}

static void runtime_statefulset_pod_name(void **state)
{
	struct fixture *f = *state;
	struct kvet_pod_runtime p0 = { KVET_RT_STS_POD | KVET_RT_REVISION_HASH,
				       { "db", 2 }, 1, 0, 0 };
	struct kvet_pod_runtime p1 = p0;
	struct kvet_selector name, idx;

	p1.ordinal = 1;
	name = parse_expr(f, tn_expr(&f->t,
				     "statefulset.kubernetes.io/pod-name", "In",
				     values1(f, "db-0")));
	idx = parse_expr(f, tn_expr(&f->t, "apps.kubernetes.io/pod-index",
				    "NotIn", values1(f, "1")));
	assert_true(kvet_selector_matches(&name, NULL, &p0));
	assert_false(kvet_selector_matches(&name, NULL, &p1));
	assert_true(kvet_selector_matches(&idx, NULL, &p0));
	assert_false(kvet_selector_matches(&idx, NULL, &p1));
}

static void runtime_revision_hash_is_shared_by_siblings(void **state)
{
	struct fixture *f = *state;
	struct kvet_pod_runtime a = { KVET_RT_REVISION_HASH, { "db", 2 },
				      4, 0, 0 };
	struct kvet_pod_runtime b = a;
	struct kvet_pod_runtime other = a;
	struct kvet_requirement r;
	struct kvet_slice v;

	/* a merged selector carries the incoming pod's synthetic value */
	assert_int_equal(kvet_runtime_value(&f->arena, &a,
			kvet_slice_of("controller-revision-hash"), &v), 1);
	assert_int_equal(kvet_runtime_value(&f->arena, &a,
			kvet_slice_of("pod-template-hash"), &v), 0);
	assert_int_equal(kvet_runtime_value(&f->arena, &a,
			kvet_slice_of("controller-revision-hash"), &v), 1);
	assert_false(kvet_label_value_valid(v));
	b.ordinal = 2;
	other.revision = 1;
	memset(&r, 0, sizeof(r));
	r.key = kvet_slice_of("controller-revision-hash");
	r.op = KVET_SEL_IN;
	r.values = &v;
	r.n_values = 1;
	assert_true(kvet_requirement_matches(&r, NULL, &a));
	assert_true(kvet_requirement_matches(&r, NULL, &b));
	assert_false(kvet_requirement_matches(&r, NULL, &other));
}

static void runtime_job_labels(void **state)
{
	struct fixture *f = *state;
	struct kvet_pod_runtime job = { KVET_RT_JOB, { "migrate", 7 }, 2, 0, 0 };
	struct kvet_pod_runtime cron = { KVET_RT_JOB, { NULL, 0 }, 3, 0, 0 };
	struct kvet_selector s, uid;

	s = parse_expr(f, tn_expr(&f->t, "batch.kubernetes.io/job-name", "In",
				  values1(f, "migrate")));
	assert_true(kvet_selector_matches(&s, NULL, &job));
	assert_false(kvet_selector_matches(&s, NULL, &cron));
	uid = parse_expr(f, tn_expr(&f->t, "controller-uid", "Exists", NULL));
	assert_true(kvet_selector_matches(&uid, NULL, &job));
	assert_true(kvet_selector_matches(&uid, NULL, &cron));
}

/* ---- namespace selectors and ASSUMED ---- */

static void namespace_selector_assumed(void **state)
{
	struct fixture *f = *state;
	struct kvet_labels labelled = tl_labels(&f->arena, 1,
						"istio-injection", "enabled");
	struct kvet_labels plain = tl_labels(&f->arena, 1, "team", "a");
	struct kvet_selector opt_in, opt_out, by_name, mixed, all;

	opt_in = parse_expr(f, tn_expr(&f->t, "istio-injection", "In",
				       values1(f, "enabled")));
	opt_out = parse_expr(f, tn_expr(&f->t, "admission.example.com/ignore",
					"DoesNotExist", NULL));
	by_name = parse_expr(f, tn_expr(&f->t, "kubernetes.io/metadata.name",
					"In", values1(f, "ops")));
	mixed = parse(f, tn_map(&f->t, 1, "matchExpressions",
				tn_seq(&f->t, 2,
				       tn_expr(&f->t, "kubernetes.io/metadata.name",
					       "NotIn", values1(f, "ops")),
				       tn_expr(&f->t, "team", "Exists", NULL))),
		      KVET_SEL_FIELD_WEBHOOK);
	all = parse(f, NULL, KVET_SEL_FIELD_WEBHOOK);

	/* Namespace object absent */
	assert_int_equal(kvet_selector_match_namespace(&opt_in, "ops", NULL),
			 KVET_MATCH_ASSUMED_FALSE);
	assert_int_equal(kvet_selector_match_namespace(&opt_out, "ops", NULL),
			 KVET_MATCH_ASSUMED_TRUE);
	assert_int_equal(kvet_selector_match_namespace(&by_name, "ops", NULL),
			 KVET_MATCH_TRUE);
	assert_int_equal(kvet_selector_match_namespace(&by_name, "dev", NULL),
			 KVET_MATCH_FALSE);
	/* a certain FALSE beats an assumption about another key */
	assert_int_equal(kvet_selector_match_namespace(&mixed, "ops", NULL),
			 KVET_MATCH_FALSE);
	assert_int_equal(kvet_selector_match_namespace(&mixed, "dev", NULL),
			 KVET_MATCH_ASSUMED_FALSE);
	assert_int_equal(kvet_selector_match_namespace(&all, "dev", NULL),
			 KVET_MATCH_TRUE);

	/* Namespace object present: definite answers */
	assert_int_equal(kvet_selector_match_namespace(&opt_in, "ops",
						       &labelled),
			 KVET_MATCH_TRUE);
	assert_int_equal(kvet_selector_match_namespace(&opt_in, "ops", &plain),
			 KVET_MATCH_FALSE);
	assert_int_equal(kvet_selector_match_namespace(&opt_out, "ops", &plain),
			 KVET_MATCH_TRUE);
	assert_int_equal(kvet_selector_match_namespace(&by_name, "ops", &plain),
			 KVET_MATCH_TRUE);
	assert_int_equal(kvet_selector_match_namespace(&mixed, "dev", &plain),
			 KVET_MATCH_TRUE);
}

static void match_combination_order(void **state)
{
	(void)state;
	assert_int_equal(kvet_match_and(KVET_MATCH_TRUE, KVET_MATCH_FALSE),
			 KVET_MATCH_FALSE);
	assert_int_equal(kvet_match_and(KVET_MATCH_ASSUMED_FALSE,
					KVET_MATCH_UNKNOWN),
			 KVET_MATCH_ASSUMED_FALSE);
	assert_int_equal(kvet_match_and(KVET_MATCH_ASSUMED_TRUE,
					KVET_MATCH_UNKNOWN),
			 KVET_MATCH_UNKNOWN);
	assert_int_equal(kvet_match_and(KVET_MATCH_TRUE,
					KVET_MATCH_ASSUMED_TRUE),
			 KVET_MATCH_ASSUMED_TRUE);
	assert_int_equal(kvet_match_and(KVET_MATCH_TRUE, KVET_MATCH_TRUE),
			 KVET_MATCH_TRUE);
	assert_string_equal(kvet_match_name(KVET_MATCH_ASSUMED_TRUE),
			    "assumed-true");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
		T(row_pdb_v1),
		T(row_pdb_v1beta1),
		T(row_service),
		T(row_affinity_term),
		T(row_affinity_namespace_selector),
		T(row_spread),
		T(row_webhook),
		T(row_workload),
		T(empty_match_lists_are_empty_selector),
		T(match_labels_is_in),
		T(op_in),
		T(op_not_in_matches_absent_key),
		T(op_exists_and_does_not_exist),
		T(exists_with_values_is_invalid),
		T(in_with_empty_values_is_invalid),
		T(operators_are_case_sensitive),
		T(unknown_or_missing_operator_is_invalid),
		T(malformed_selectors_are_invalid),
		T(service_selector_is_plain_map),
		T(selector_from_labels),
		T(runtime_template_hash),
		T(runtime_statefulset_pod_name),
		T(runtime_revision_hash_is_shared_by_siblings),
		T(runtime_job_labels),
		T(namespace_selector_assumed),
		T(match_combination_order),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
