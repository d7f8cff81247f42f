/* SPDX-License-Identifier: Apache-2.0 */
#include "model/quantity.h"

#include <string.h>

/* More digits than this are beyond int64 anyway; they only shift. */
enum { MAX_DIGITS = 18 };

struct parsed {
	uint64_t mantissa;	/* the significant digits */
	int exp10;		/* times 10^exp10 */
	int exp2;		/* times 2^exp2 (binary suffixes) */
};

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Digits into the mantissa; extra ones past MAX_DIGITS raise @exp10 when
 * they are integer digits and are dropped when they are fractional. */
static size_t read_digits(const char *s, size_t len, size_t i,
			  struct parsed *p, size_t *ndigits, bool fraction)
{
	while (i < len && is_digit(s[i])) {
		if (p->mantissa == 0 && s[i] == '0') {
			if (fraction)
				p->exp10--;
		} else if (*ndigits < MAX_DIGITS) {
			p->mantissa = p->mantissa * 10 + (uint64_t)(s[i] - '0');
			(*ndigits)++;
			if (fraction)
				p->exp10--;
		} else if (!fraction) {
			p->exp10++;
		}
		i++;
	}
	return i;
}

static bool read_suffix(const char *s, size_t len, struct parsed *p)
{
	static const struct {
		const char *name;
		int exp10, exp2;
	} suffixes[] = {
		{ "", 0, 0 },	{ "n", -9, 0 }, { "u", -6, 0 },
		{ "m", -3, 0 }, { "k", 3, 0 },	{ "M", 6, 0 },
		{ "G", 9, 0 },	{ "T", 12, 0 }, { "P", 15, 0 },
		{ "E", 18, 0 }, { "Ki", 0, 10 }, { "Mi", 0, 20 },
		{ "Gi", 0, 30 }, { "Ti", 0, 40 }, { "Pi", 0, 50 },
		{ "Ei", 0, 60 },
	};
	size_t i;
	int sign = 1, e = 0;

	for (i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++)
		if (strlen(suffixes[i].name) == len &&
		    !memcmp(suffixes[i].name, s, len)) {
			p->exp10 += suffixes[i].exp10;
			p->exp2 += suffixes[i].exp2;
			return true;
		}
	/* a decimal exponent: e or E, then a signed integer */
	if (len < 2 || (s[0] != 'e' && s[0] != 'E'))
		return false;
	i = 1;
	if (s[i] == '+' || s[i] == '-')
		sign = s[i++] == '-' ? -1 : 1;
	if (i == len)
		return false;
	for (; i < len; i++) {
		if (!is_digit(s[i]) || e > 1000)
			return false;
		e = e * 10 + (s[i] - '0');
	}
	p->exp10 += sign * e;
	return true;
}

static bool parse(struct kvet_slice sl, struct parsed *p)
{
	const char *s = sl.s;
	size_t len = sl.len, i = 0, nd = 0, start;

	memset(p, 0, sizeof(*p));
	if (i < len && (s[i] == '+' || s[i] == '-')) {
		if (s[i] == '-')
			return false;
		i++;
	}
	start = i;
	i = read_digits(s, len, i, p, &nd, false);
	if (i < len && s[i] == '.')
		i = read_digits(s, len, i + 1, p, &nd, true);
	/* a number needs a digit somewhere: "." and "" are not numbers */
	if (i == start || (i == start + 1 && s[start] == '.'))
		return false;
	return read_suffix(s + i, len - i, p);
}

/* @v * 10^@e rounded up; false when it does not fit in int64. */
static bool scale10(uint64_t v, int e, uint64_t *out)
{
	uint64_t rem = 0;

	for (; e > 0; e--) {
		if (v > (uint64_t)INT64_MAX / 10)
			return false;
		v *= 10;
	}
	for (; e < 0 && v; e++) {
		rem |= v % 10;
		v /= 10;
	}
	*out = v + (rem ? 1 : 0);
	return *out <= (uint64_t)INT64_MAX;
}

bool kvet_quantity_scaled(struct kvet_slice s, int scale, int64_t *out)
{
	struct parsed p;
	uint64_t v;
	int e2;

	if (scale < 0 || scale > 9 || !parse(s, &p))
		return false;
	v = p.mantissa;
	/* binary suffixes multiply exactly before any rounding division */
	for (e2 = p.exp2; e2 > 0 && v; e2--) {
		if (v > (uint64_t)INT64_MAX / 2) {
			*out = INT64_MAX;
			return true;
		}
		v *= 2;
	}
	if (!scale10(v, p.exp10 + scale, &v)) {
		*out = INT64_MAX;
		return true;
	}
	*out = (int64_t)v;
	return true;
}

bool kvet_quantity_node(const struct kvet_node *n, int scale, int64_t *out)
{
	struct kvet_slice s;

	if (!n || (n->type != KVET_NODE_STRING && n->type != KVET_NODE_INT &&
		   n->type != KVET_NODE_FLOAT))
		return false;
	s.s = n->u.str;
	s.len = n->len;
	return kvet_quantity_scaled(s, scale, out);
}
