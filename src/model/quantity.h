/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_MODEL_QUANTITY_H
#define KVET_MODEL_QUANTITY_H

#include <stdbool.h>
#include <stdint.h>

#include "load/node.h"
#include "model/labels.h"

/*
 * Kubernetes resource quantities (k8s.io/apimachinery/pkg/api/resource,
 * quantity.go): a signed decimal number with a binary SI suffix (Ki, Mi,
 * Gi, Ti, Pi, Ei), a decimal SI suffix (n, u, m, "", k, M, G, T, P, E) or
 * a decimal exponent (e3, E-2).
 */

/**
 * kvet_quantity_scaled() - parse @s and return its value times 10^@scale,
 * rounded up to an integer, as Quantity.MilliValue() (@scale 3: CPU in
 * millicores) and Quantity.Value() (@scale 0: bytes, counts) do.
 * @s: the text.
 * @scale: 0 to 9.
 * @out: the value; INT64_MAX when it does not fit.
 *
 * Returns: true and sets @out for a well-formed quantity that is not
 * negative (requests and allocatable never are); false otherwise.
 */
bool kvet_quantity_scaled(struct kvet_slice s, int scale, int64_t *out);

/* The same for a YAML scalar: 2, 0.5 and "500m" alike. */
bool kvet_quantity_node(const struct kvet_node *n, int scale, int64_t *out);

#endif
