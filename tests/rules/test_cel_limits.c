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
	struct tcel *t = tcel_new();
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
	/* 63 operators make a tree 64 deep: the most there may be */
	s = repeat("1", " + 1", CEL_MAX_DEPTH - 1, "");
	assert_int_equal(tcel_compile(t, s, &prog), 0);
	free(s);
	s = repeat("1", " + 1", CEL_MAX_DEPTH, "");
	assert_int_equal(tcel_compile(t, s, &prog), -1);
	free(s);
	tcel_free(t);
}

/* Item 9: a 300-term || was 300 deep, and evaluation gave up at 256
 * with "expression too deep", so the rule never fired. */
static void logic_chains_are_balanced(void **state)
{
	struct tcel *t = tcel_new();
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
	tcel_free(t);
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
	struct tcel *t = tcel_new();
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
	tcel_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(chains_are_refused),
		cmocka_unit_test(logic_chains_are_balanced),
		cmocka_unit_test(lexer_memory_is_linear),
		cmocka_unit_test(long_condition_compiles),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
