/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_INPUT_SOURCE_H
#define KVET_INPUT_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/diag.h"

/* One input to load: a file, stdin, or a caller's buffer. */
struct kvet_source {
	const char *name;	/* for positions; "<stdin>" for "-" */
	const char *path;	/* what to open; NULL for a buffer */
	char *buf;		/* malloc'd text, NUL-terminated; owned */
	size_t len;
	bool is_stdin;
	bool failed;		/* could not be read (reported) */
};

struct kvet_sources {
	struct kvet_source *v;
	size_t n, cap;
};

void kvet_sources_release(struct kvet_sources *srcs);

/*
 * kvet_sources_add_path() - expand one command-line path into sources:
 * "-" is stdin, a file is itself, and a directory gives its *.yaml, *.yml
 * and *.json files, recursively, in byte order of their paths. Paths
 * that do not exist, unreadable directories and symlink loops are
 * reported to @diag (without a line) and skipped.
 * Returns: 0, or -1 when out of memory.
 */
int kvet_sources_add_path(struct kvet_sources *srcs, struct kvet_arena *arena,
			  struct kvet_diag *diag, const char *path);

/* Queue a copy of @data under @name. Returns 0, or -1 on OOM. */
int kvet_sources_add_buffer(struct kvet_sources *srcs,
			    struct kvet_arena *arena, const char *name,
			    const char *data, size_t len);

/*
 * kvet_source_read() - read a file or stdin source into src->buf, at most
 * @max bytes. On failure the error goes to @diag and src->failed is set.
 * Returns: 0 when read, 1 when reported, -1 when out of memory.
 */
int kvet_source_read(struct kvet_source *src, struct kvet_diag *diag,
		     size_t max);

#endif
