/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The CEL engine on hostile expressions (issue 11): long chains, huge
 * literals, expensive macros. Inputs are generated here, not committed;
 * each test is bounded by the engine's limits, not by timing.
 */
#include "tcel.h"

/* @head, then @link @n times, then @tail, in a malloc'd string. */
static char *repeat(const char *head, const char *link, size_t n,
		    const char *tail)
{
	size_t hl = strlen(head), ll = strlen(link), tl = strlen(tail), i;
	char *s = malloc(hl + ll * n + tl + 1), *p;

	assert_non_null(s);
	memcpy(s, head, hl);
	for (i = 0, p = s + hl; i < n; i++, p += ll)
		memcpy(p, link, ll);
	memcpy(p, tail, tl + 1);
	return s;
}

/* Item 1: a chain of 40,000 operators was a tree 40,000 deep, and the
 * checker's recursion overflowed the stack. */
static void chains_are_refused(void **state)
{
	static const struct {
		const char *head, *link;
	} chains[] = {
		{ "1", " + 1" },
		{ "object", ".a" },
		{ "object", "[\"a\"]" },
		{ "object", ".f()" },
		{ "object.spec.x", " == 1 ? 1 : 1" },
	};
	struct tcel *t = tcel_new_std();
	struct cel_program prog;
	size_t i;
	char *s;

	(void)state;
	for (i = 0; i < sizeof(chains) / sizeof(chains[0]); i++) {
		s = repeat(chains[i].head, chains[i].link, 40000, "");
		if (!tcel_compile(t, s, &prog))
			fail_msg("chain %zu compiled", i);
		if (!strstr(t->err.msg, "nested more than 64 deep"))
			fail_msg("chain %zu: %s", i, t->err.msg);
		/* refused where the 64th level is, not at the end */
		assert_true(t->err.off < 66 * strlen(chains[i].link) + 20);
		free(s);
	}
	/* 63 operators make a tree 64 deep: the most there may be, which
	 * the evaluator walks too */
	s = repeat("object", " + 1", CEL_MAX_DEPTH - 1, "");
	assert_int_equal(tcel_compile(t, s, &prog), 0);
	t->vars[0] = cel_int(1);
	assert_int_equal(cel_eval(&t->env, &prog, t->vars).u.i, CEL_MAX_DEPTH);
	free(s);
	s = repeat("1", " + 1", CEL_MAX_DEPTH, "");
	assert_int_equal(tcel_compile(t, s, &prog), -1);
	free(s);
	tcel_destroy(t);
}

/* Item 9: a 300-term || was 300 deep, and evaluation gave up at 256
 * with "expression too deep", so the rule never fired. */
static void logic_chains_are_balanced(void **state)
{
	struct tcel *t = tcel_new_std();
	struct cel_program prog;
	struct cel_value v;
	char *s;

	(void)state;
	s = repeat("1 == 1", " || 1 == 2", 299, "");
	assert_cel_true(t, s);
	free(s);
	s = repeat("1 == 2", " || 1 == 2", 298, " || 1 == 1");
	assert_cel_true(t, s);
	free(s);
	s = repeat("1 == 1", " && 1 == 1", 299, "");
	assert_cel_true(t, s);
	free(s);
	s = repeat("1 == 1", " && 1 == 1", 298, " && 1 == 2");
	assert_cel_false(t, s);
	free(s);
	/* errors are absorbed as before: an error term and a true one */
	s = repeat("object.missing == 1", " || 1 == 2", 298, " || 1 == 1");
	t->vars[0] = cel_null();
	assert_cel_true(t, s);
	free(s);
	/* 100,000 terms: about 17 levels */
	s = repeat("object == 1", " || object == 1", 99999, "");
	assert_int_equal(tcel_compile(t, s, &prog), 0);
	assert_true(prog.root->height <= 20);
	t->vars[0] = cel_int(1);
	v = cel_eval(&t->env, &prog, t->vars);
	assert_int_equal(v.type, CEL_BOOL);
	free(s);
	/* an operator of another precedence still ends the chain */
	assert_cel_true(t, "false && true || true");
	assert_cel_false(t, "true || false && false ? false : false");
	assert_cel_true(t, "(false || true) && (true || false) && true");
	tcel_destroy(t);
}

/* Lex @text to the end; return the bytes its arena obtained. */
static size_t lex_all(const char *text, size_t len)
{
	struct kvet_arena arena;
	struct cel_lexer lx;
	struct cel_token tok;
	struct cel_error err;
	size_t total, n = 0;

	kvet_arena_init(&arena);
	cel_lexer_init(&lx, &arena, text, len);
	do {
		if (cel_lex_next(&lx, &tok, &err))
			fail_msg("lex error at %zu: %s", err.off, err.msg);
		n++;
	} while (tok.kind != CEL_T_EOF);
	assert_true(n > 1);
	total = arena.total;
	kvet_arena_release(&arena);
	return total;
}

/* An arena rounds each literal up to 16 bytes: '' takes 16 for 2. */
#define LINEAR(len) (8 * (len) + 1024 * 1024)

/* Item 2: each string literal allocated the rest of the expression, so
 * memory grew with the square of its length (2.7 MB took 15 GB). */
static void lexer_memory_is_linear(void **state)
{
	size_t len, total;
	char *s;

	(void)state;
	/* 50 KB: quadratic was some 120 MB */
	s = repeat("\"a\"", " == \"b\" || 'c'", 3000, "");
	len = strlen(s);
	total = lex_all(s, len);
	if (total > LINEAR(len))
		fail_msg("%zu bytes of text took %zu bytes", len, total);
	free(s);
	/* 2.7 MB of literals, escapes and raw and triple-quoted strings */
	s = repeat("''", " + \"a\\u00e9\" + r'\\d' + '''x''' + 'bc'", 74000, "");
	len = strlen(s);
	assert_true(len > 2700000);
	total = lex_all(s, len);
	if (total > LINEAR(len))
		fail_msg("%zu bytes of text took %zu bytes", len, total);
	free(s);
}

/* A 2.7 MB condition of a balanced || compiles in memory linear in it. */
static void long_condition_compiles(void **state)
{
	struct tcel *t = tcel_new_std();
	struct cel_program prog;
	size_t len;
	char *s;

	(void)state;
	s = repeat("object == \"x\"", " || object == \"yyy\"", 143000, "");
	len = strlen(s);
	assert_true(len > 2700000);
	assert_int_equal(tcel_compile(t, s, &prog), 0);
	/* about 100 bytes per node, 3 nodes per term */
	if (t->arena.total > 64 * len)
		fail_msg("%zu bytes of text took %zu bytes", len, t->arena.total);
	t->vars[0] = cel_string("yyy", 3);
	assert_cel_true(t, "object == \"yyy\"");
	assert_int_equal(cel_eval(&t->env, &prog, t->vars).type, CEL_BOOL);
	free(s);
	tcel_destroy(t);
}

/* A list of @n ints 0..n-1, in @t's scratch arena. */
static struct cel_value int_list(struct tcel *t, size_t n)
{
	struct cel_value v = { .type = CEL_LIST, .len = (uint32_t)n };
	struct cel_value *items = kvet_arena_array(&t->scratch, n, sizeof(*items));
	size_t i;

	assert_non_null(items);
	for (i = 0; i < n; i++)
		items[i] = cel_int((int64_t)i);
	v.u.items = items;
	return v;
}

/* Evaluate @e and expect kvet to give up on it: a CEL_V_FAILURE error
 * whose message has @part. A new budget follows. */
static void expect_failure(struct tcel *t, const char *e, const char *part)
{
	struct cel_value v = tcel_eval(t, e);

	if (v.type != CEL_ERROR || !(v.flags & CEL_V_FAILURE) ||
	    !strstr(v.u.s, part))
		fail_msg("%s: %s %s", e, cel_type_name(v.type),
			 v.type == CEL_ERROR ? v.u.s : "");
	cel_env_meter(&t->env, CEL_COST_LIMIT, CEL_MEMORY_LIMIT);
}

/* Item 6: nested macros took 36 s and 3.2 GB for one object. */
static void nested_macros_run_out_of_budget(void **state)
{
	struct tcel *t = tcel_new_std();
	struct cel_value v;

	(void)state;
	t->vars[0] = int_list(t, 1000);
	v = tcel_eval(t, "object.all(a, object.all(b, object.all(c, a + b + c >= 0)))");
	assert_int_equal(v.type, CEL_ERROR);
	assert_true(v.flags & CEL_V_FAILURE);
	assert_non_null(strstr(v.u.s, "cost over the limit of 1000000 steps"));
	/* it stopped at the limit, not 10^9 steps later */
	assert_true(t->env.cost > CEL_COST_LIMIT);
	assert_true(t->env.cost < CEL_COST_LIMIT + 100);
	/* the budget is spent: anything more fails at once */
	expect_failure(t, "true", "cost");
	/* || absorbs an error, but not this one: it is no value */
	expect_failure(t, "object.all(a, object.all(b, object.all(c, a >= 0))) || true",
		       "cost");
	expect_failure(t, "object.exists(a, object.exists(b, object.exists(c, a < 0)))",
		       "cost");
	expect_failure(t, "size(object.map(a, object.map(b, object.map(c, c)))) > 0",
		       "cost");
	expect_failure(t, "size(object.filter(a, object.exists(b, object.exists(c, c < 0)))) > 0",
		       "cost");
	/* short circuits spend nothing on what they skip */
	assert_cel_true(t, "true || object.all(a, object.all(b, object.all(c, false)))");
	assert_true(t->env.cost < 10);
	/* what fits in the budget still runs */
	t->vars[0] = int_list(t, 500);
	cel_env_meter(&t->env, CEL_COST_LIMIT, CEL_MEMORY_LIMIT);
	assert_cel_true(t, "object.all(a, object.exists(b, b == a))");
	tcel_destroy(t);
}

/* Copies and scans are charged by size: lists doubled in a macro, long
 * strings searched, big maps compared, big map literals. */
static void sizes_are_charged(void **state)
{
	struct tcel *t = tcel_new_std();
	struct cel_entry *entries;
	struct cel_value big = { .type = CEL_MAP };
	size_t i, base;
	char *s, *p;

	(void)state;
	t->vars[0] = int_list(t, 2000);
	base = t->scratch.total;
	expect_failure(t, "size(object.map(x, object + object)) > 0",
		       "memory over the limit of 65536 KiB");
	assert_true(t->scratch.total - base < CEL_MEMORY_LIMIT + (4u << 20));
	s = repeat("object.map(x, 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa')",
		   ".map(s, s + s)", 30, ".size() > 0");
	expect_failure(t, s, "over the limit");
	free(s);
	/* a 1 MB string searched in a loop */
	s = repeat("", "a", 1 << 20, "");
	t->vars[1] = cel_string(s, 1 << 20);
	expect_failure(t, "object.exists(i, params.contains(\"ab\"))", "cost");
	/* a map of 100,000 keys compared with itself: n^2 lookups */
	entries = kvet_arena_array(&t->scratch, 100000, sizeof(*entries));
	assert_non_null(entries);
	for (i = 0; i < 100000; i++) {
		entries[i].key = cel_int((int64_t)i);
		entries[i].value = cel_int(1);
	}
	big.len = 100000;
	big.u.entries = entries;
	t->vars[1] = big;
	expect_failure(t, "params == params", "cost");
	expect_failure(t, "object.exists(i, params in [params])", "cost");
	free(s);
	/* a map literal of 20,000 keys: each is checked against the others */
	s = malloc(20000 * 16 + 64);
	assert_non_null(s);
	p = s + sprintf(s, "size({0: 0");
	for (i = 1; i < 20000; i++)
		p += sprintf(p, ", %zu: 0", i);
	strcpy(p, "}) > 0");
	expect_failure(t, s, "cost");
	free(s);
	tcel_destroy(t);
}

static void estimate(struct tcel *t, const char *e, struct cel_estimate *est)
{
	struct cel_program prog;

	if (tcel_compile(t, e, &prog))
		fail_msg("%s: %s", e, t->err.msg);
	cel_estimate(&prog, NULL, 0, est);
}

/* The static estimate: lists of unknown size count 100 items; literals
 * and known parameters what they hold; nesting multiplies. */
static void static_estimates(void **state)
{
	struct tcel *t = tcel_new_std();
	struct cel_value params, *known[2] = { NULL, NULL };
	struct cel_entry entry;
	struct cel_program prog;
	struct cel_estimate est;
	char *s;

	(void)state;
	estimate(t, "1 + 2 == object", &est);
	assert_true(est.cost >= 3 && est.cost <= 5);
	assert_int_equal(est.off, 0);
	estimate(t, "[1, 2, 3].map(x, x * 2)", &est);
	assert_true(est.size == 3);
	estimate(t, "object.spec.containers.all(c, c.image != \"\")", &est);
	assert_true(est.cost > 100 && est.cost < 1000);
	/* three nested macros over lists of unknown size */
	estimate(t, "object.a.all(x, object.b.all(y, object.c.all(z, x + y + z > 0)))",
		 &est);
	assert_true(est.cost > 1e6 * 8);
	/* pointing at the outermost macro */
	assert_int_equal(est.off, 9);
	/* literal lists nested seven deep */
	s = repeat("", "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9].all(x, ", 7, "true");
	s = realloc(s, strlen(s) + 8);
	strcat(s, "))))))");
	strcat(s, ")");
	estimate(t, s, &est);
	assert_true(est.cost > CEL_COST_ESTIMATE_LIMIT);
	free(s);
	/* a known parameter counts what it holds */
	entry.key = cel_string("xs", 2);
	entry.value = int_list(t, 3);
	params = (struct cel_value){ .type = CEL_MAP, .len = 1, .u.entries = &entry };
	known[1] = &params;
	assert_int_equal(tcel_compile(t, "params.xs.all(x, params.xs.all(y, x != y))",
				      &prog), 0);
	cel_estimate(&prog, (const struct cel_value *const *)known, 2, &est);
	assert_true(est.cost < 100);
	cel_estimate(&prog, NULL, 0, &est);
	assert_true(est.cost > 10000);
	tcel_destroy(t);
}

/* Four all() nested over literal lists of 10 around a chain of @terms
 * `||`, every other one reading a key that is not there. */
static char *nested_error_chain(size_t terms)
{
	static const char list[] = "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]";
	size_t cap = 512 + terms * 48, i;
	char *s = malloc(cap), *p;

	assert_non_null(s);
	p = s + sprintf(s, "%s.all(a, %s.all(b, %s.all(c, %s.all(d, a + b + c + d",
			list, list, list, list);
	for (i = 0; i < terms; i++)
		p += sprintf(p, " || object.metadata.%s == \"n%zu\"",
			     i % 2 ? "nope" : "name", i);
	strcpy(p, "))))");
	return s;
}

/* Issue 22, fuzzing: units of this shape ran 14 to 42 s in fuzz_cel
 * (ASan, a loaded machine). `int || bool` and a missing key are errors,
 * and all() looks on for a false past an error, so all 10^4 bodies run:
 * 30 to 50 ms per object in a release build. The estimate counts those
 * bodies (so a rule file can be refused for them), and the budget stops
 * each object at 10^6 steps: the cost follows the budget, not the time. */
static void test_fuzz_error_chains_in_nested_all(void **state)
{
	static const size_t terms[] = { 4, 16, 40 };
	struct tcel *t = tcel_new_std();
	struct cel_entry name, meta;
	struct cel_estimate est;
	struct cel_value v;
	uint64_t full;
	size_t i;
	char *s;

	(void)state;
	name.key = cel_string("name", 4);
	name.value = cel_string("m", 1);
	meta.key = cel_string("metadata", 8);
	meta.value = (struct cel_value){ .type = CEL_MAP, .len = 1,
					 .u.entries = &name };
	t->vars[0] = (struct cel_value){ .type = CEL_MAP, .len = 1,
					 .u.entries = &meta };
	for (i = 0; i < sizeof(terms) / sizeof(terms[0]); i++) {
		s = nested_error_chain(terms[i]);
		estimate(t, s, &est);
		/* what the whole evaluation costs, without a budget */
		cel_env_meter(&t->env, 0, 0);
		v = tcel_eval(t, s);
		full = t->env.cost;
		if (v.type != CEL_ERROR || !strstr(v.u.s, "no operator '||'"))
			fail_msg("%zu terms: %s", terms[i], cel_type_name(v.type));
		/* the estimate is that cost, give or take a fifth */
		if (est.cost < 0.8 * (double)full || est.cost > 1.25 * (double)full)
			fail_msg("%zu terms: estimate %.0f, cost %llu", terms[i],
				 est.cost, (unsigned long long)full);
		assert_true(full > 10000 * 2 * terms[i]);
		/* with the budget, a rule stops there */
		cel_env_meter(&t->env, CEL_COST_LIMIT, CEL_MEMORY_LIMIT);
		v = tcel_eval(t, s);
		assert_int_equal(v.type, CEL_ERROR);
		if (full > CEL_COST_LIMIT) {
			assert_non_null(strstr(v.u.s, "cost over the limit"));
			assert_true(t->env.cost < CEL_COST_LIMIT + 100);
		} else {
			assert_true(t->env.cost == full);
		}
		free(s);
	}
	tcel_destroy(t);
}

/* The cost of @e from a fresh budget of @steps (0: none): its steps, and
 * its value in *@v. */
static uint64_t cost_of(struct tcel *t, const char *e, uint64_t steps,
			struct cel_value *v)
{
	cel_env_meter(&t->env, steps, steps ? CEL_MEMORY_LIMIT : 0);
	*v = tcel_eval(t, e);
	return t->env.cost;
}

/*
 * A chain of + (a + b + c, nested to the left) is evaluated in one loop,
 * its strings copied into one growing buffer: the steps are those of the
 * nested evaluation, node by node and copy by copy, so a budget stops it
 * where it stopped before; errors and other types are what they were.
 */
static void add_chains_cost_as_nested(void **state)
{
	struct tcel *t = tcel_new_std();
	struct cel_value v, w;
	char *s = malloc(301);
	uint64_t chain, nested, i;

	(void)state;
	assert_non_null(s);
	memset(s, 'a', 300);
	s[300] = '\0';
	t->vars[0] = cel_string(s, 100);
	/* 5 nodes; copies of 200 and 300 bytes: 12 and 18 steps */
	chain = cost_of(t, "object + object + object", 0, &v);
	nested = cost_of(t, "object + (object + object)", 0, &w);
	assert_int_equal(chain, 35);
	assert_int_equal(nested, chain);
	assert_int_equal(v.type, CEL_STRING);
	assert_int_equal(v.len, 300);
	assert_memory_equal(v.u.s, s, 300);
	assert_int_equal(v.u.s[300], '\0');
	/* longer: the buffer grows past its first size */
	chain = cost_of(t, "object + object + object + object + object + "
			   "object + object + object + object + object", 0, &v);
	assert_int_equal(v.len, 1000);
	for (i = 0; i < 1000; i++)
		assert_int_equal(v.u.s[i], 'a');
	assert_int_equal(v.u.s[1000], '\0');
	/* 19 nodes; copies of 200 to 1000 bytes, each n / 16 steps */
	assert_int_equal(chain, 19 + 12 + 18 + 25 + 31 + 37 + 43 + 50 + 56 + 62);
	/* each budget short of the whole stops both at the same step */
	for (i = 1; i < 35; i++) {
		chain = cost_of(t, "object + object + object", i, &v);
		nested = cost_of(t, "(object + object) + object", i, &w);
		assert_true(cel_is_failure(&v));
		assert_true(cel_is_failure(&w));
		assert_int_equal(chain, nested);
	}
	/* other types in a chain: arith() as before, strings after them */
	t->vars[1] = cel_int(2);
	cost_of(t, "params + params + params + 1", 0, &v);
	assert_int_equal(v.type, CEL_INT);
	assert_int_equal(v.u.i, 7);
	assert_cel_error(t, "object + params + object",
			 "no operator '+' for (string, int)");
	assert_cel_error(t, "'x' + object.missing + 'y'", "no such key");
	assert_cel_true(t, "'a' + dyn(object) + 'b' + 'c' == 'a' + object + 'bc'");
	assert_cel_true(t, "[1] + [2] + [3] == [1, 2, 3]");
	assert_cel_true(t, "size(object + 'b' + object) == 201");
	tcel_destroy(t);
	free(s);
}

/* A field is found by its name whatever the order of the keys, the first
 * byte compared before the rest; the last of duplicate keys wins. */
static void fields_by_name(void **state)
{
	struct tcel *t = tcel_new_std();

	(void)state;
	assert_cel_true(t, "{'ab': 1, 'ac': 2, 'b': 3}.ac == 2");
	assert_cel_true(t, "{'b': 3, 'ac': 2, 'ab': 1}.ac == 2");
	assert_cel_true(t, "{'ca': 1, 'ac': 2}.ac == 2 && {'ac': 2, 'ca': 1}.ca == 1");
	assert_cel_true(t, "{'': 1, 'a': 2}[''] == 1");
	assert_cel_error(t, "{'ab': 1}.ba", "no such key");
	tcel_destroy(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(add_chains_cost_as_nested),
		cmocka_unit_test(fields_by_name),
		cmocka_unit_test(chains_are_refused),
		cmocka_unit_test(logic_chains_are_balanced),
		cmocka_unit_test(lexer_memory_is_linear),
		cmocka_unit_test(long_condition_compiles),
		cmocka_unit_test(nested_macros_run_out_of_budget),
		cmocka_unit_test(sizes_are_charged),
		cmocka_unit_test(static_estimates),
		cmocka_unit_test(test_fuzz_error_chains_in_nested_all),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
