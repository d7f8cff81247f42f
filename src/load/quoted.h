/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_LOAD_QUOTED_H
#define KVET_LOAD_QUOTED_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The text of a quoted flow scalar, from the bytes between its quotes
 * (YAML 1.2, 7.3.1 and 7.3.2, with line folding as in 6.5). The builder
 * decodes a quoted scalar with escapes or line breaks with this rather
 * than asking libfyaml: libfyaml 0.7.12 (Debian 12) leaks its text
 * iterator's chunk array when a scalar's text is made of more than eight
 * pieces (libfyaml issue #233, fixed after 0.7.12), 512 bytes to 2 KB a
 * scalar: two escaped quotes in a row in a single-quoted scalar, or a
 * quoted scalar that ends in a run of empty CR LF lines. Found by
 * fuzz_pipeline and fuzz_json.
 *
 * @out has room for kvet_quoted_room(@len) bytes. Returns the length of
 * the text, or -1 for what is left to libfyaml: an escape this decoder
 * does not write (\0, which would put a NUL into a text; a lone
 * surrogate or a code point past U+10FFFF; anything libfyaml would have
 * refused). A surrogate pair (\ud83d\ude00) is the one character.
 */
static inline size_t kvet_quoted_room(size_t len)
{
	/* \L and \P are two bytes in the input and three in UTF-8 */
	return len + len / 2 + 1;
}

long kvet_quoted_text(bool double_quoted, const char *s, size_t len,
		      char *out);

#endif
