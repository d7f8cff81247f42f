/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_KVET_H
#define KVET_KVET_H

/*
 * libkvet: load Kubernetes manifests into one object graph, lint it, and
 * iterate the findings and input errors.
 *
 * A context holds everything of one run. Contexts share nothing, so a
 * program may run several at once in different threads. The library never
 * prints and never aborts: failures come back as return values and as
 * error records with positions.
 *
 * Strings handed out by a context (findings, errors, positions) are
 * borrowed: they stay valid until kvet_ctx_destroy().
 *
 * The API is in five headers, one per part; this one includes them all:
 *   kvet/common.h   versions, exit codes, severities and the records of a
 *                   run (findings, errors, notices)
 *   kvet/context.h  a context: its inputs, its run, what it found
 *   kvet/lint.h     rules, rule files and tests, the settings of a lint
 *   kvet/drain.h    kvet drain: plans, pools, nodes and steps
 *   kvet/report.h   report formats and writers
 */

#include "kvet/common.h"
#include "kvet/context.h"
#include "kvet/lint.h"
#include "kvet/drain.h"
#include "kvet/report.h"

#endif
