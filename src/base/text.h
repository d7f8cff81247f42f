/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_BASE_TEXT_H
#define KVET_BASE_TEXT_H

#include <stddef.h>
#include <stdio.h>

#include "kvet/common.h"

/*
 * Text for people to read: the words of messages built around a name
 * from the input, and text from the input made safe for a terminal
 * (kvet_text_write(), declared in kvet/kvet.h for the command and other
 * programs that print kvet's messages).
 */

/* kvet_text_write() with line feeds kept, for text of several lines
 * (a rule's description, an example's manifest); every other control
 * character still becomes U+FFFD. */
void kvet_text_write_lines(FILE *fp, const char *s, size_t len);

/* "an" before a word that starts with a vowel letter ("an Ingress",
 * "an integer"), else "a" ("a Deployment"): kinds and type words, which
 * are read letter by letter, not as spoken acronyms. */
const char *kvet_a_an(const char *word);

#endif
