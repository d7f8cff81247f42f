/* SPDX-License-Identifier: Apache-2.0 */
#include "load/quoted.h"

#include <stdint.h>
#include <string.h>

#include "base/utf8.h"

static bool is_break(char c)
{
	return c == '\n' || c == '\r';
}

static bool is_white(char c)
{
	return c == ' ' || c == '\t';
}

/* Past the line break at @i (CR LF is one). */
static size_t skip_break(const char *s, size_t i, size_t len)
{
	return s[i] == '\r' && i + 1 < len && s[i + 1] == '\n' ? i + 2 : i + 1;
}

/*
 * At a line break of the content: the line breaks from @*i on, and the
 * white space around them up to the next line's first character, which
 * is not content. Returns how many breaks there were.
 */
static size_t take_breaks(const char *s, size_t *i, size_t len)
{
	size_t breaks = 0;

	while (*i < len) {
		if (is_break(s[*i])) {
			*i = skip_break(s, *i, len);
			breaks++;
		} else if (is_white(s[*i])) {
			(*i)++;
		} else {
			break;
		}
	}
	return breaks;
}

/* The code point of the escape at @s[@*i] (past its backslash), with
 * @*i moved past it; -1 when this decoder leaves it to libfyaml. */
static long escape(const char *s, size_t *i, size_t len)
{
	static const char simple[] = "abtnvfre \"/\\\t";
	static const unsigned char codes[] = {
		7, 8, 9, 10, 11, 12, 13, 27, ' ', '"', '/', '\\', 9,
	};
	const char *hit;
	size_t digits = 0;
	char c;
	long cp;

	if (*i >= len)
		return -1;
	c = s[(*i)++];
	hit = c ? strchr(simple, c) : NULL;
	if (hit)
		return codes[hit - simple];
	switch (c) {
	case 'N':
		return 0x85;
	case '_':
		return 0xa0;
	case 'L':
		return 0x2028;
	case 'P':
		return 0x2029;
	case 'x':
		digits = 2;
		break;
	case 'u':
		digits = 4;
		break;
	case 'U':
		digits = 8;
		break;
	default:
		return -1;
	}
	if (len - *i < digits)
		return -1;
	cp = kvet_hex_value(s + *i, digits);
	*i += digits;
	/* a surrogate pair, as JSON writes a character past U+FFFF, is the
	 * one character (libfyaml reads it so, and refuses a lone one) */
	if (digits == 4 && cp >= 0xd800 && cp <= 0xdbff && len - *i >= 6 &&
	    s[*i] == '\\' && s[*i + 1] == 'u') {
		long lo = kvet_hex_value(s + *i + 2, 4);

		if (lo >= 0xdc00 && lo <= 0xdfff) {
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			*i += 6;
		}
	}
	if (cp <= 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return -1;
	return cp;
}

long kvet_quoted_text(bool double_quoted, const char *s, size_t len,
		      char *out)
{
	size_t i = 0, o = 0, j, breaks;
	long cp;

	while (i < len) {
		if (!double_quoted && s[i] == '\'' && i + 1 < len &&
		    s[i + 1] == '\'') {
			out[o++] = '\'';
			i += 2;
		} else if (double_quoted && s[i] == '\\' && i + 1 < len &&
			   is_break(s[i + 1])) {
			/* an escaped line break joins the lines; the empty
			 * lines after it are line feeds */
			i = skip_break(s, i + 1, len);
			for (breaks = take_breaks(s, &i, len); breaks;
			     breaks--)
				out[o++] = '\n';
		} else if (double_quoted && s[i] == '\\') {
			i++;
			cp = escape(s, &i, len);
			if (cp < 0)
				return -1;
			o += kvet_utf8_encode(out + o, (uint32_t)cp);
		} else if (is_white(s[i])) {
			for (j = i; j < len && is_white(s[j]); j++)
				;
			/* white space before a line break is not content */
			if (j == len || !is_break(s[j])) {
				memcpy(out + o, s + i, j - i);
				o += j - i;
			}
			i = j;
		} else if (is_break(s[i])) {
			/* one line break is a space, n + 1 of them (n empty
			 * lines) n line feeds */
			breaks = take_breaks(s, &i, len);
			if (breaks == 1)
				out[o++] = ' ';
			for (; breaks > 1; breaks--)
				out[o++] = '\n';
		} else {
			out[o++] = s[i++];
		}
	}
	return (long)o;
}
