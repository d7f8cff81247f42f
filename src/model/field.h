/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_MODEL_FIELD_H
#define KVET_MODEL_FIELD_H

#include "load/node.h"

/*
 * kvet_node_get() of a field named by a string literal, its length
 * counted when compiled: the model reads fields by name on every object
 * and every rule's call, and a strlen() of the name was a part of each
 * read. The same lookup (kvet_node_getn(): the last duplicate wins).
 */
#define KVET_FIELD(map, lit) kvet_node_getn((map), "" lit, sizeof(lit) - 1)

#endif
