/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_LOAD_FYTEXT_H
#define KVET_LOAD_FYTEXT_H

#include <libfyaml.h>
#include <stddef.h>

#include "base/arena.h"

/*
 * kvet_fytext() - the text of libfyaml token @tok (a scalar, tag or
 * anchor), copied into @arena with a NUL after it: what
 * fy_token_get_text() gives, read through a token iterator instead. In
 * libfyaml 0.7.12 (Debian 12) that call formats the text into a buffer
 * of the length its scanner measured, and when the formatter writes
 * more (a block scalar whose line breaks are lone CRs: the scanner
 * chomps their trailing breaks, the formatter keeps them) it stops
 * without finishing its iterator, whose chunk array (1 KiB) leaks. The
 * text is cut at the measured length here too, which is the chomped
 * text YAML asks for. libfyaml fixed it after 0.7.12; found by fuzz_json.
 * *@text is "" (and *@len 0) when libfyaml cannot format the text.
 * Returns: 0, or -1 when out of memory.
 */
int kvet_fytext(struct kvet_arena *arena, struct fy_token *tok,
		const char **text, size_t *len);

#endif
