/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_MODEL_SELECTOR_TEXT_H
#define KVET_MODEL_SELECTOR_TEXT_H

#include "base/arena.h"
#include "model/selector.h"

/**
 * kvet_selector_parse_text() - a label selector in kubectl's notation
 * (k8s.io/apimachinery/pkg/labels Parse, what `kubectl get -l` takes):
 * requirements separated by commas, each "key", "!key", "key=value",
 * "key==value", "key!=value", "key in (a,b)" or "key notin (a,b)".
 * @arena: where requirements, values and the error go.
 * @text: the selector; "" selects everything.
 * @out: the selector.
 * @err: set to why @text is no selector.
 *
 * Returns: 0, 1 when @text is malformed (@err says why), -1 when out of
 * memory.
 */
int kvet_selector_parse_text(struct kvet_arena *arena, const char *text,
			     struct kvet_selector *out, const char **err);

#endif
