/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_RULES_BASELINE_H
#define KVET_RULES_BASELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "kvet/kvet.h"
#include "base/arena.h"
#include "base/diag.h"

/*
 * A baseline: the findings a team has accepted, by fingerprint (rule,
 * object identity, headline; never a line number), so that CI fails only
 * on what is new. The file is YAML, sorted, one entry per finding, with
 * the readable parts beside the hash so that a review can see what was
 * accepted and a diff shows what changed.
 *
 * Version 2 hashes the headline (kvet_finding_fingerprint()). Version 1,
 * written before findings had headlines, hashed the message, whose words
 * have changed since: its entries still match a finding whose message
 * hashes the same (a team rule's message: is unchanged), and otherwise a
 * finding of the same rule on the same object, one finding each, until
 * `kvet lint --write-baseline` rewrites the file (docs/usage.md).
 */
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
	unsigned int version;		/* 1 or 2 */
	unsigned int version_line;	/* in the file, for the notice */
	struct kvet_baseline_entry *v;	/* arena; in file order */
	size_t n;
	/* entries sorted by fingerprint, then file order: a finding finds
	 * its entry by binary search, not by a scan of every entry */
	struct kvet_baseline_entry **by_fp;	/* arena */
	/* version 1: sorted by rule and object, then file order */
	struct kvet_baseline_entry **by_object;	/* arena, or NULL */
};

/* Read @path into @bl; errors go to @diag with positions.
 * Returns: 0, or -1 after reporting why. */
int kvet_baseline_load(struct kvet_baseline *bl, struct kvet_arena *arena,
		       struct kvet_diag *diag, const char *path);

/* The first unused entry with @f's fingerprint, marked used; else, in a
 * version 1 baseline, the first unused entry of @f's rule and object;
 * else NULL. Equal findings each consume one entry, so a duplicate is
 * new. */
struct kvet_baseline_entry *kvet_baseline_match(struct kvet_baseline *bl,
						const struct kvet_finding *f);

/* Write a version 2 baseline of the @n findings at @fs, sorted.
 * Returns 0 or -1. */
int kvet_baseline_write(const struct kvet_finding *fs, size_t n, FILE *fp);

#endif
