/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_LOAD_FYPARSER_H
#define KVET_LOAD_FYPARSER_H

#include <libfyaml.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * kvet_fyparser_create() - a libfyaml event parser over @buf (@len bytes,
 * not copied), quiet, its errors collected in *@diag for the loader to
 * report. Returns: the parser, or NULL when out of memory (*@diag may be
 * set: kvet_fyparser_destroy() it all the same).
 */
struct fy_parser *kvet_fyparser_create(const char *buf, size_t len,
				       struct fy_diag **diag);

/*
 * kvet_fyparser_destroy() - destroy @fyp and @diag (either may be NULL),
 * unless libfyaml stopped at an error known to leave the parser broken,
 * in which case destroying it would crash: it is abandoned instead.
 * Returns: true when @fyp was abandoned (the caller bounds how often).
 */
bool kvet_fyparser_destroy(struct fy_parser *fyp, struct fy_diag *diag);

#endif
