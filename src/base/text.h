/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_BASE_TEXT_H
#define KVET_BASE_TEXT_H

/*
 * Text for people to read: the words of messages built around a name
 * from the input.
 */

/* "an" before a word that starts with a vowel letter ("an Ingress",
 * "an integer"), else "a" ("a Deployment"): kinds and type words, which
 * are read letter by letter, not as spoken acronyms. */
const char *kvet_a_an(const char *word);

#endif
