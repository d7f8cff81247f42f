/* SPDX-License-Identifier: Apache-2.0 */
#include "model/selector_text.h"

#include <stdlib.h>
#include <string.h>

struct lexer {
	struct kvet_arena *arena;
	const char *s;
	size_t i;
	const char **err;
};

static void skip_space(struct lexer *lx)
{
	while (lx->s[lx->i] == ' ' || lx->s[lx->i] == '\t')
		lx->i++;
}

/* Characters of label keys and values (DNS subdomain prefix, name). */
static bool word_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9') || ch == '-' || ch == '_' ||
	       ch == '.' || ch == '/';
}

static struct kvet_slice word(struct lexer *lx)
{
	struct kvet_slice w;

	skip_space(lx);
	w.s = lx->s + lx->i;
	while (word_char(lx->s[lx->i]))
		lx->i++;
	w.len = (size_t)(lx->s + lx->i - w.s);
	return w;
}

static bool keyword(struct lexer *lx, const char *kw)
{
	size_t n = strlen(kw), save = lx->i;

	skip_space(lx);
	if (!strncmp(lx->s + lx->i, kw, n) && !word_char(lx->s[lx->i + n])) {
		lx->i += n;
		return true;
	}
	lx->i = save;
	return false;
}

static int fail(struct lexer *lx, const char *what)
{
	*lx->err = kvet_arena_printf(lx->arena, "%s at column %zu", what,
				     lx->i + 1);
	return *lx->err ? 1 : -1;
}

static int cmp_slice(const void *a, const void *b)
{
	return kvet_slice_cmp(*(const struct kvet_slice *)a,
			      *(const struct kvet_slice *)b);
}

/* "(a, b)" after in/notin. */
static int value_set(struct lexer *lx, struct kvet_requirement *r)
{
	struct kvet_slice *v;
	size_t n = 0, cap = 8;

	skip_space(lx);
	if (lx->s[lx->i] != '(')
		return fail(lx, "expected '('");
	lx->i++;
	v = kvet_arena_array(lx->arena, cap, sizeof(*v));
	if (!v)
		return -1;
	for (;;) {
		if (n == cap) {
			struct kvet_slice *w = kvet_arena_array(lx->arena,
								2 * cap,
								sizeof(*w));

			if (!w)
				return -1;
			memcpy(w, v, n * sizeof(*w));
			v = w;
			cap *= 2;
		}
		v[n] = word(lx);
		n++;
		skip_space(lx);
		if (lx->s[lx->i] == ',') {
			lx->i++;
			continue;
		}
		if (lx->s[lx->i] != ')')
			return fail(lx, "expected ',' or ')'");
		lx->i++;
		break;
	}
	qsort(v, n, sizeof(*v), cmp_slice);
	r->values = v;
	r->n_values = n;
	return 0;
}

static int one_value(struct lexer *lx, struct kvet_requirement *r)
{
	struct kvet_slice *v = kvet_arena_alloc(lx->arena, sizeof(*v));

	if (!v)
		return -1;
	*v = word(lx);
	r->values = v;
	r->n_values = 1;
	return 0;
}

static int requirement(struct lexer *lx, struct kvet_requirement *r)
{
	bool not = false;

	memset(r, 0, sizeof(*r));
	skip_space(lx);
	if (lx->s[lx->i] == '!') {
		not = true;
		lx->i++;
	}
	r->key = word(lx);
	if (!r->key.len)
		return fail(lx, "expected a label key");
	if (not) {
		r->op = KVET_SEL_DOES_NOT_EXIST;
		return 0;
	}
	skip_space(lx);
	if (!strncmp(lx->s + lx->i, "!=", 2)) {
		lx->i += 2;
		r->op = KVET_SEL_NOT_IN;
		return one_value(lx, r);
	}
	if (lx->s[lx->i] == '=') {
		lx->i += lx->s[lx->i + 1] == '=' ? 2 : 1;
		r->op = KVET_SEL_IN;
		return one_value(lx, r);
	}
	if (keyword(lx, "in")) {
		r->op = KVET_SEL_IN;
		return value_set(lx, r);
	}
	if (keyword(lx, "notin")) {
		r->op = KVET_SEL_NOT_IN;
		return value_set(lx, r);
	}
	r->op = KVET_SEL_EXISTS;
	return 0;
}

int kvet_selector_parse_text(struct kvet_arena *arena, const char *text,
			     struct kvet_selector *out, const char **err)
{
	struct lexer lx = { arena, text, 0, err };
	struct kvet_requirement *reqs;
	size_t n = 0, commas = 0, i;
	int rc;

	memset(out, 0, sizeof(*out));
	*err = NULL;
	for (i = 0; text[i]; i++)
		commas += text[i] == ',';
	reqs = kvet_arena_array(arena, commas + 1, sizeof(*reqs));
	if (!reqs)
		return -1;
	skip_space(&lx);
	while (text[lx.i]) {
		rc = requirement(&lx, &reqs[n]);
		if (rc)
			return rc;
		n++;
		skip_space(&lx);
		if (!text[lx.i])
			break;
		if (text[lx.i] != ',' || n > commas)
			return fail(&lx, "expected ','");
		lx.i++;
	}
	out->field = KVET_SEL_FIELD_SERVICE;
	out->reqs = reqs;
	out->n_reqs = n;
	out->form = n ? KVET_SEL_FORM_REQUIREMENTS : KVET_SEL_FORM_EMPTY;
	out->meaning = n ? KVET_SEL_MATCH : KVET_SEL_EVERYTHING;
	return 0;
}
