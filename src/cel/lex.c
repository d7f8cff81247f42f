/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The CEL lexer: identifiers, keywords, numbers, strings (quoted, raw,
 * triple-quoted) and punctuation, as in the CEL language definition's
 * "Syntax" section. Comments start with // and run to the end of a line.
 */
#include "cel/ast.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"

static const char *const tok_names[] = {
	[CEL_T_EOF] = "end of expression",
	[CEL_T_INT] = "integer",
	[CEL_T_UINT] = "unsigned integer",
	[CEL_T_DOUBLE] = "number",
	[CEL_T_STRING] = "string",
	[CEL_T_IDENT] = "identifier",
	[CEL_T_TRUE] = "'true'",
	[CEL_T_FALSE] = "'false'",
	[CEL_T_NULL] = "'null'",
	[CEL_T_IN] = "'in'",
	[CEL_T_LPAREN] = "'('",
	[CEL_T_RPAREN] = "')'",
	[CEL_T_LBRACKET] = "'['",
	[CEL_T_RBRACKET] = "']'",
	[CEL_T_LBRACE] = "'{'",
	[CEL_T_RBRACE] = "'}'",
	[CEL_T_DOT] = "'.'",
	[CEL_T_COMMA] = "','",
	[CEL_T_COLON] = "':'",
	[CEL_T_QUESTION] = "'?'",
	[CEL_T_NOT] = "'!'",
	[CEL_T_MINUS] = "'-'",
	[CEL_T_PLUS] = "'+'",
	[CEL_T_STAR] = "'*'",
	[CEL_T_SLASH] = "'/'",
	[CEL_T_PERCENT] = "'%'",
	[CEL_T_EQ] = "'=='",
	[CEL_T_NE] = "'!='",
	[CEL_T_LT] = "'<'",
	[CEL_T_LE] = "'<='",
	[CEL_T_GT] = "'>'",
	[CEL_T_GE] = "'>='",
	[CEL_T_AND] = "'&&'",
	[CEL_T_OR] = "'||'",
};

const char *cel_tok_name(enum cel_tok kind)
{
	return (unsigned int)kind <= CEL_T_OR ? tok_names[kind] : "?";
}

void cel_lexer_init(struct cel_lexer *lx, struct kvet_arena *arena,
		    const char *text, size_t len)
{
	lx->text = text;
	lx->len = len;
	lx->pos = 0;
	lx->arena = arena;
}

__attribute__((format(printf, 3, 4)))
static int lex_error(struct cel_error *err, size_t off, const char *fmt, ...)
{
	va_list ap;

	err->off = off;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

static bool is_ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static void skip_space(struct cel_lexer *lx)
{
	while (lx->pos < lx->len) {
		char c = lx->text[lx->pos];

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
		    c == '\f') {
			lx->pos++;
		} else if (c == '/' && lx->pos + 1 < lx->len &&
			   lx->text[lx->pos + 1] == '/') {
			while (lx->pos < lx->len && lx->text[lx->pos] != '\n')
				lx->pos++;
		} else {
			break;
		}
	}
}

static int lex_number(struct cel_lexer *lx, struct cel_token *tok,
		      struct cel_error *err)
{
	const char *s = lx->text;
	size_t p = lx->pos, start = p;
	bool is_double = false, hex = false;
	char buf[128];
	char *end;

	if (s[p] == '0' && p + 1 < lx->len && (s[p + 1] == 'x' || s[p + 1] == 'X')) {
		hex = true;
		p += 2;
		while (p < lx->len && kvet_hex_digit(s[p]) >= 0)
			p++;
	} else {
		while (p < lx->len && is_digit(s[p]))
			p++;
		if (p + 1 < lx->len && s[p] == '.' && is_digit(s[p + 1])) {
			is_double = true;
			p++;
			while (p < lx->len && is_digit(s[p]))
				p++;
		}
		if (p < lx->len && (s[p] == 'e' || s[p] == 'E')) {
			size_t q = p + 1;

			if (q < lx->len && (s[q] == '+' || s[q] == '-'))
				q++;
			if (q < lx->len && is_digit(s[q])) {
				is_double = true;
				p = q;
				while (p < lx->len && is_digit(s[p]))
					p++;
			}
		}
	}
	if (p - start >= sizeof(buf))
		return lex_error(err, start, "number too long");
	memcpy(buf, s + start, p - start);
	buf[p - start] = '\0';
	tok->off = start;
	errno = 0;
	if (is_double) {
		tok->kind = CEL_T_DOUBLE;
		tok->v.d = strtod(buf, &end);
	} else {
		unsigned long long u = strtoull(buf + (hex ? 2 : 0), &end,
						hex ? 16 : 10);

		if (errno || (hex && p - start == 2))
			return lex_error(err, start, "invalid integer '%s'",
					 buf);
		tok->kind = CEL_T_INT;
		if (p < lx->len && (s[p] == 'u' || s[p] == 'U')) {
			tok->kind = CEL_T_UINT;
			p++;
		} else if (u > (unsigned long long)INT64_MAX + 1) {
			return lex_error(err, start,
					 "integer '%s' out of range", buf);
		}
		/* INT64_MAX + 1 is valid only after a minus sign; the parser
		 * negates it and rejects it alone */
		tok->v.i = (int64_t)u;
	}
	if (p < lx->len && (is_ident_start(s[p]) || is_digit(s[p])))
		return lex_error(err, p, "unexpected character '%c' in number",
				 s[p]);
	tok->len = p - start;
	lx->pos = p;
	return 0;
}

/* Decode one escape at s[*p] (just after the backslash). */
static int lex_escape(struct cel_lexer *lx, size_t *p, char *out, size_t *o,
		      struct cel_error *err)
{
	const char *s = lx->text;
	size_t at = *p - 1, digits = 0;
	uint32_t cp;
	long v;
	char c;

	if (*p >= lx->len)
		return lex_error(err, at, "unterminated string");
	c = s[(*p)++];
	switch (c) {
	case 'n': out[(*o)++] = '\n'; return 0;
	case 't': out[(*o)++] = '\t'; return 0;
	case 'r': out[(*o)++] = '\r'; return 0;
	case 'a': out[(*o)++] = '\a'; return 0;
	case 'b': out[(*o)++] = '\b'; return 0;
	case 'f': out[(*o)++] = '\f'; return 0;
	case 'v': out[(*o)++] = '\v'; return 0;
	case '\\': case '\'': case '"': case '`': case '?':
		out[(*o)++] = c;
		return 0;
	case 'x': digits = 2; break;
	case 'u': digits = 4; break;
	case 'U': digits = 8; break;
	default:
		return lex_error(err, at, "invalid escape '\\%c'", c);
	}
	v = lx->len - *p >= digits ? kvet_hex_value(s + *p, digits) : -1;
	if (v < 0)
		return lex_error(err, at, "invalid escape: expected %zu hex digits",
				 digits);
	*p += digits;
	cp = (uint32_t)v;
	if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return lex_error(err, at, "invalid code point in escape");
	*o += kvet_utf8_encode(out + *o, cp);
	return 0;
}

/*
 * Where the body of a string literal that starts at @p ends: at its
 * closing quote, at a line break of a single-quoted one, or at the end
 * of the text. Only the length matters (the decoder reports what is
 * wrong): each literal allocates its own length, not the rest of the
 * expression, so lexing stays linear in memory however many literals
 * the text holds.
 */
static size_t body_end(const struct cel_lexer *lx, size_t p, char q,
		       bool triple, bool raw)
{
	const char *s = lx->text;

	while (p < lx->len) {
		if (s[p] == q && (!triple || (p + 2 < lx->len &&
					     s[p + 1] == q && s[p + 2] == q)))
			return p;
		if (!triple && (s[p] == '\n' || s[p] == '\r'))
			return p;
		p += s[p] == '\\' && !raw ? 2 : 1;
	}
	return lx->len;
}

static int lex_string(struct cel_lexer *lx, struct cel_token *tok,
		      bool raw, struct cel_error *err)
{
	const char *s = lx->text;
	size_t start = lx->pos, p = lx->pos + (raw ? 1 : 0), o = 0, end;
	char q = s[p];
	bool triple = p + 2 < lx->len && s[p + 1] == q && s[p + 2] == q;
	char *out;

	p += triple ? 3 : 1;
	end = body_end(lx, p, q, triple, raw);
	/* decoded text is never longer than the literal */
	out = kvet_arena_alloc(lx->arena, end - p + 1);
	if (!out)
		return lex_error(err, start, "out of memory");
	for (;;) {
		if (p >= lx->len)
			return lex_error(err, start, "unterminated string");
		if (s[p] == q && (!triple || (p + 2 < lx->len &&
					     s[p + 1] == q && s[p + 2] == q))) {
			p += triple ? 3 : 1;
			break;
		}
		if (!triple && (s[p] == '\n' || s[p] == '\r'))
			return lex_error(err, start,
					 "unterminated string (a line break in a quoted string)");
		if (s[p] == '\\' && !raw) {
			p++;
			if (lex_escape(lx, &p, out, &o, err))
				return -1;
			continue;
		}
		out[o++] = s[p++];
	}
	tok->kind = CEL_T_STRING;
	tok->off = start;
	tok->len = p - start;
	tok->v.str.s = out;
	tok->v.str.len = o;
	lx->pos = p;
	return 0;
}

/* The tables carry their words' lengths: an expression is lexed at
 * every start, and most words are compared with every entry. */
#define WORD(w) w, sizeof(w) - 1

/*
 * The punctuation token at @s, of @avail bytes (at least one): its
 * length, and its kind in *@kind; 0 (*@kind untouched) when there is
 * none. A two-byte token wins over its first byte.
 */
static size_t punct(const char *s, size_t avail, enum cel_tok *kind)
{
	char next = avail > 1 ? s[1] : '\0';

	switch (s[0]) {
	case '=':
		if (next != '=')
			return 0;
		*kind = CEL_T_EQ;
		return 2;
	case '&':
		if (next != '&')
			return 0;
		*kind = CEL_T_AND;
		return 2;
	case '|':
		if (next != '|')
			return 0;
		*kind = CEL_T_OR;
		return 2;
	case '!':
		*kind = next == '=' ? CEL_T_NE : CEL_T_NOT;
		return next == '=' ? 2 : 1;
	case '<':
		*kind = next == '=' ? CEL_T_LE : CEL_T_LT;
		return next == '=' ? 2 : 1;
	case '>':
		*kind = next == '=' ? CEL_T_GE : CEL_T_GT;
		return next == '=' ? 2 : 1;
	case '(': *kind = CEL_T_LPAREN; return 1;
	case ')': *kind = CEL_T_RPAREN; return 1;
	case '[': *kind = CEL_T_LBRACKET; return 1;
	case ']': *kind = CEL_T_RBRACKET; return 1;
	case '{': *kind = CEL_T_LBRACE; return 1;
	case '}': *kind = CEL_T_RBRACE; return 1;
	case '.': *kind = CEL_T_DOT; return 1;
	case ',': *kind = CEL_T_COMMA; return 1;
	case ':': *kind = CEL_T_COLON; return 1;
	case '?': *kind = CEL_T_QUESTION; return 1;
	case '-': *kind = CEL_T_MINUS; return 1;
	case '+': *kind = CEL_T_PLUS; return 1;
	case '*': *kind = CEL_T_STAR; return 1;
	case '/': *kind = CEL_T_SLASH; return 1;
	case '%': *kind = CEL_T_PERCENT; return 1;
	default: return 0;
	}
}

static const struct {
	const char *word;
	size_t len;
	enum cel_tok kind;
} keywords[] = {
	{ WORD("true"), CEL_T_TRUE }, { WORD("false"), CEL_T_FALSE },
	{ WORD("null"), CEL_T_NULL }, { WORD("in"), CEL_T_IN },
};

/* Words CEL reserves; using one as a name is an error (CEL spec). */
static const struct {
	const char *word;
	size_t len;
} reserved[] = {
	{ WORD("as") }, { WORD("break") }, { WORD("const") },
	{ WORD("continue") }, { WORD("else") }, { WORD("for") },
	{ WORD("function") }, { WORD("if") }, { WORD("import") },
	{ WORD("let") }, { WORD("loop") }, { WORD("package") },
	{ WORD("namespace") }, { WORD("return") }, { WORD("var") },
	{ WORD("void") }, { WORD("while") },
};

#undef WORD

int cel_lex_next(struct cel_lexer *lx, struct cel_token *tok,
		 struct cel_error *err)
{
	const char *s = lx->text;
	size_t i, p, n;
	char c;

	skip_space(lx);
	memset(tok, 0, sizeof(*tok));
	tok->off = lx->pos;
	if (lx->pos >= lx->len) {
		/* "expected ..." at the end points just after the last token,
		 * not at trailing space or line breaks */
		while (tok->off > 0 && strchr(" \t\r\n\f", lx->text[tok->off - 1]))
			tok->off--;
		tok->kind = CEL_T_EOF;
		return 0;
	}
	c = s[lx->pos];
	if ((c == 'r' || c == 'R') && lx->pos + 1 < lx->len &&
	    (s[lx->pos + 1] == '"' || s[lx->pos + 1] == '\''))
		return lex_string(lx, tok, true, err);
	if (c == '"' || c == '\'')
		return lex_string(lx, tok, false, err);
	if (is_digit(c))
		return lex_number(lx, tok, err);
	if (is_ident_start(c)) {
		p = lx->pos;
		while (p < lx->len && (is_ident_start(s[p]) || is_digit(s[p])))
			p++;
		n = p - lx->pos;
		tok->kind = CEL_T_IDENT;
		tok->len = n;
		for (i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++)
			if (keywords[i].len == n && keywords[i].word[0] == c &&
			    !memcmp(keywords[i].word, s + lx->pos, n))
				tok->kind = keywords[i].kind;
		for (i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++)
			if (reserved[i].len == n && reserved[i].word[0] == c &&
			    !memcmp(reserved[i].word, s + lx->pos, n))
				return lex_error(err, lx->pos,
						 "'%s' is a reserved word",
						 reserved[i].word);
		tok->v.str.s = s + lx->pos;
		tok->v.str.len = n;
		lx->pos = p;
		return 0;
	}
	n = punct(s + lx->pos, lx->len - lx->pos, &tok->kind);
	if (n) {
		tok->len = n;
		lx->pos += n;
		return 0;
	}
	if (c == '=')
		return lex_error(err, lx->pos,
				 "unexpected '=' (comparison is '==')");
	if (c == '&' || c == '|')
		return lex_error(err, lx->pos, "unexpected '%c' (did you mean '%c%c'?)",
				 c, c, c);
	if ((unsigned char)c < 0x20 || (unsigned char)c >= 0x7f)
		return lex_error(err, lx->pos, "unexpected byte 0x%02x",
				 (unsigned char)c);
	return lex_error(err, lx->pos, "unexpected character '%c'", c);
}
