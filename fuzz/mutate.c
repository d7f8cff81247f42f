/* SPDX-License-Identifier: Apache-2.0 */
#include "mutate.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"

void fuzz_rng_seed(struct fuzz_rng *rng, uint64_t seed)
{
	/* xorshift must not start at 0; splitmix the seed so that seeds 1
	 * and 2 do not begin with near-identical streams */
	seed += 0x9e3779b97f4a7c15u;
	seed = (seed ^ (seed >> 30)) * 0xbf58476d1ce4e5b9u;
	seed = (seed ^ (seed >> 27)) * 0x94d049bb133111ebu;
	seed ^= seed >> 31;
	rng->s = seed ? seed : 1;
}

uint64_t fuzz_rng_next(struct fuzz_rng *rng)
{
	rng->s ^= rng->s >> 12;
	rng->s ^= rng->s << 25;
	rng->s ^= rng->s >> 27;
	return rng->s * 0x2545f4914f6cdd1du;
}

size_t fuzz_rng_below(struct fuzz_rng *rng, size_t n)
{
	return (size_t)(fuzz_rng_next(rng) % n);
}

/* ---- the dictionary ---- */

/* The token quoted in @line into @out (room for strlen(@line)); its
 * length, or -1 when the line is no entry. */
static long parse_entry(const char *line, uint8_t *out)
{
	const char *p = strchr(line, '"');
	const char *end = strrchr(line, '"');
	long n = 0, byte;

	if (!p || end == p)
		return -1;
	for (p++; p < end; p++) {
		if (*p != '\\') {
			out[n++] = (uint8_t)*p;
			continue;
		}
		p++;
		if (*p == '\\' || *p == '"') {
			out[n++] = (uint8_t)*p;
		} else if (*p == 'x' && p + 2 < end &&
			   (byte = kvet_hex_value(p + 1, 2)) >= 0) {
			out[n++] = (uint8_t)byte;
			p += 2;
		} else {
			return -1;
		}
	}
	return n;
}

static bool blank_or_comment(const char *line)
{
	while (*line == ' ' || *line == '\t')
		line++;
	return !*line || *line == '\n' || *line == '#';
}

/* Room for one more token. */
static int grow(struct fuzz_dict *dict)
{
	uint8_t **tok = realloc(dict->tok, (dict->n + 1) * sizeof(*tok));
	size_t *len;

	if (!tok)
		return -1;
	dict->tok = tok;
	len = realloc(dict->len, (dict->n + 1) * sizeof(*len));
	if (!len)
		return -1;
	dict->len = len;
	return 0;
}

int fuzz_dict_load(struct fuzz_dict *dict, const char *path)
{
	FILE *fp = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t got;

	memset(dict, 0, sizeof(*dict));
	if (!fp) {
		perror(path);
		return -1;
	}
	while ((got = getline(&line, &cap, fp)) >= 0) {
		uint8_t *tok;
		long n;

		lineno++;
		if (blank_or_comment(line))
			continue;
		tok = malloc((size_t)got + 1);
		n = tok ? parse_entry(line, tok) : -1;
		if (n <= 0) {
			fprintf(stderr, "%s:%zu: not a dictionary entry\n",
				path, lineno);
			free(tok);
			goto fail;
		}
		if (grow(dict)) {
			free(tok);
			goto fail;
		}
		dict->tok[dict->n] = tok;
		dict->len[dict->n++] = (size_t)n;
	}
	free(line);
	fclose(fp);
	return 0;
fail:
	free(line);
	fclose(fp);
	fuzz_dict_release(dict);
	return -1;
}

void fuzz_dict_release(struct fuzz_dict *dict)
{
	size_t i;

	for (i = 0; dict->tok && i < dict->n; i++)
		free(dict->tok[i]);
	free(dict->tok);
	free(dict->len);
	memset(dict, 0, sizeof(*dict));
}

/* ---- the mutations ---- */

/* Bytes the parsers branch on, more likely to matter than any byte. */
static const uint8_t special[] = {
	0, 0x7f, 0x80, 0xff, '\n', '\r', '\t', ' ', '"', '\'', '\\', ':',
	'-', '#', '{', '}', '[', ']', ',', '&', '*', '!', '|', '>', '%', '@',
	'`', '?', '.', '0', '9', 'e', 0xc3, 0xe2, 0xf0,
};

struct buf {
	uint8_t *p;
	size_t len, max;
};

/* Make room for @n bytes at @at (@n ≤ max - len). */
static void open_gap(struct buf *b, size_t at, size_t n)
{
	memmove(b->p + at + n, b->p + at, b->len - at);
	b->len += n;
}

static void put(struct buf *b, size_t at, const uint8_t *src, size_t n,
		bool insert)
{
	if (insert) {
		if (n > b->max - b->len)
			n = b->max - b->len;
		open_gap(b, at, n);
	} else if (n > b->len - at) {
		n = b->len - at;
	}
	memmove(b->p + at, src, n);
}

static void flip_bit(struct fuzz_rng *r, struct buf *b)
{
	if (b->len)
		b->p[fuzz_rng_below(r, b->len)] ^=
			(uint8_t)(1u << fuzz_rng_below(r, 8));
}

static uint8_t some_byte(struct fuzz_rng *r)
{
	if (fuzz_rng_below(r, 2))
		return special[fuzz_rng_below(r, sizeof(special))];
	return (uint8_t)fuzz_rng_next(r);
}

static void set_byte(struct fuzz_rng *r, struct buf *b)
{
	if (b->len)
		b->p[fuzz_rng_below(r, b->len)] = some_byte(r);
}

static void insert_bytes(struct fuzz_rng *r, struct buf *b)
{
	size_t at = fuzz_rng_below(r, b->len + 1);
	size_t n = 1 + fuzz_rng_below(r, 4), i;
	uint8_t c = some_byte(r);
	uint8_t tmp[4];

	/* a run of one byte (indentation, a long number) or mixed bytes */
	for (i = 0; i < n; i++)
		tmp[i] = fuzz_rng_below(r, 2) ? c : some_byte(r);
	put(b, at, tmp, n, true);
}

static void erase_range(struct fuzz_rng *r, struct buf *b)
{
	size_t at, n;

	if (b->len < 2)
		return;
	at = fuzz_rng_below(r, b->len);
	n = 1 + fuzz_rng_below(r, b->len - at < 64 ? b->len - at : 64);
	memmove(b->p + at, b->p + at + n, b->len - at - n);
	b->len -= n;
}

/* A range of the input copied over or into another place: a line or a
 * key repeated, a block moved under another parent. */
static void copy_range(struct fuzz_rng *r, struct buf *b)
{
	size_t from, n, to;
	uint8_t *tmp;

	if (!b->len)
		return;
	from = fuzz_rng_below(r, b->len);
	n = 1 + fuzz_rng_below(r, b->len - from < 256 ? b->len - from : 256);
	tmp = malloc(n);
	if (!tmp)
		return;
	memcpy(tmp, b->p + from, n);
	to = fuzz_rng_below(r, b->len + 1);
	put(b, to, tmp, n, fuzz_rng_below(r, 2) || to == b->len);
	free(tmp);
}

static void dict_token(struct fuzz_rng *r, const struct fuzz_dict *d,
		       struct buf *b)
{
	size_t k, at;

	if (!d->n)
		return;
	k = fuzz_rng_below(r, d->n);
	at = fuzz_rng_below(r, b->len + 1);
	put(b, at, d->tok[k], d->len[k], fuzz_rng_below(r, 2) || at == b->len);
}

/* A decimal number of the input replaced with a boundary or near one. */
static void change_number(struct fuzz_rng *r, struct buf *b)
{
	static const char *const values[] = {
		"0", "-1", "1", "2", "255", "256", "65535", "2147483647",
		"2147483648", "-2147483649", "4294967296",
		"9223372036854775807", "9223372036854775808",
		"18446744073709551616", "1e308", "1e309", "0.5", "-0",
	};
	size_t at, end;
	const char *v;

	if (!b->len)
		return;
	at = fuzz_rng_below(r, b->len);
	while (at < b->len && !isdigit(b->p[at]))
		at++;
	if (at == b->len)
		return;
	for (end = at; end < b->len && isdigit(b->p[end]); end++)
		;
	memmove(b->p + at, b->p + end, b->len - end);
	b->len -= end - at;
	v = values[fuzz_rng_below(r, sizeof(values) / sizeof(values[0]))];
	put(b, at, (const uint8_t *)v, strlen(v), true);
}

/* The head of this input joined to the tail of another. */
static void splice(struct fuzz_rng *r, struct buf *b, const uint8_t *other,
		   size_t other_len)
{
	size_t cut, from;

	if (!other_len)
		return;
	cut = fuzz_rng_below(r, b->len + 1);
	from = fuzz_rng_below(r, other_len);
	b->len = cut;
	put(b, cut, other + from, other_len - from, true);
}

size_t fuzz_mutate(struct fuzz_rng *rng, const struct fuzz_dict *dict,
		   uint8_t *data, size_t len, size_t max,
		   const uint8_t *other, size_t other_len)
{
	struct buf b = { data, len < max ? len : max, max };
	size_t depth = 1 + fuzz_rng_below(rng, 8), i;

	for (i = 0; i < depth; i++) {
		switch (fuzz_rng_below(rng, 10)) {
		case 0:
			flip_bit(rng, &b);
			break;
		case 1:
			set_byte(rng, &b);
			break;
		case 2:
			insert_bytes(rng, &b);
			break;
		case 3:
			erase_range(rng, &b);
			break;
		case 4:
			copy_range(rng, &b);
			break;
		case 5:
		case 6:
			dict_token(rng, dict, &b);
			break;
		case 7:
			change_number(rng, &b);
			break;
		case 8:
			splice(rng, &b, other, other_len);
			break;
		default:
			/* the input cut short: a scalar, a quote, a block or a
			 * UTF-8 sequence left open at the end */
			b.len -= fuzz_rng_below(rng, b.len / 2 + 1);
			break;
		}
	}
	return b.len;
}
