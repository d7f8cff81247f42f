/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_FINDINGS_BASELINE_H
#define KVET_FINDINGS_BASELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "kvet/common.h"
#include "base/arena.h"
#include "base/diag.h"

/*
 * A baseline: the findings a team has accepted, by fingerprint (rule,
 * object identity, field, related objects; never a line number nor the
 * words), so that CI fails only on what is new. The file is YAML,
 * sorted, one entry per finding, with the readable parts beside the hash
 * so that a review can see what was accepted and a diff shows what
 * changed.
 *
 * Version 3 holds kvet_finding_fingerprint(). Version 2 hashed the
 * headline, which could change with what else was linted (the node of
 * the synthetic pool where a roll stalls), and version 1 the message,
 * whose words have changed since: their entries still match a finding
 * whose headline (version 2) or message (version 1) hashes the same, and
 * otherwise a finding of the same rule on the same object, one finding
 * each, until `kvet lint --write-baseline` rewrites the file in version
 * 3 (docs/configuration.md).
 */
#define KVET_BASELINE_VERSION 3

struct kvet_baseline_entry {
	const char *rule;
	const char *kind;
	const char *namespace;
	const char *name;
	const char *message;	/* the words recorded, for people */
	uint64_t fingerprint;
	unsigned int line;	/* in the baseline file */
	bool used;		/* matched a finding of this run */
};

struct kvet_baseline {
	const char *path;
	unsigned int version;		/* 1, 2 or 3 */
	unsigned int version_line;	/* in the file, for the notice */
	struct kvet_baseline_entry *v;	/* arena; in file order */
	size_t n;
	/* entries sorted by fingerprint, then file order: a finding finds
	 * its entry by binary search, not by a scan of every entry */
	struct kvet_baseline_entry **by_fp;	/* arena */
	/* before version 3: sorted by rule and object, then file order */
	struct kvet_baseline_entry **by_object;	/* arena, or NULL */
	size_t loose;	/* findings matched by rule and object alone */
};

/* Read @path into @bl; errors go to @diag with positions.
 * Returns: 0, or -1 after reporting why. */
int kvet_baseline_load(struct kvet_baseline *bl, struct kvet_arena *arena,
		       struct kvet_diag *diag, const char *path);

/* The first unused entry with @f's fingerprint, marked used; else, in a
 * baseline of version 1 or 2, the first unused entry of @f's rule and object;
 * else NULL. Equal findings each consume one entry, so a duplicate is
 * new. */
struct kvet_baseline_entry *kvet_baseline_match(struct kvet_baseline *bl,
						const struct kvet_finding *f);

/* Write a version 3 baseline of the @n findings at @fs, sorted.
 * Returns 0 or -1. */
int kvet_baseline_write(const struct kvet_finding *fs, size_t n, FILE *fp);

#endif
