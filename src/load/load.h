/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_LOAD_LOAD_H
#define KVET_LOAD_LOAD_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/diag.h"
#include "load/node.h"

/* One non-empty YAML document (or top-level JSON value) of an input. */
struct kvet_doc {
	const struct kvet_node *root;	/* never NULL */
	const char *source;		/* Helm "# Source:" path, or NULL */
	uint32_t index;			/* 0-based among the input's documents */
};

/* The documents of one input, in order; the vector is malloc'd. */
struct kvet_docs {
	struct kvet_doc *v;
	size_t n, cap;
	size_t skipped;		/* documents dropped because of an error */
};

void kvet_docs_release(struct kvet_docs *docs);

/* Bounds that keep hostile input cheap; see docs/input.md. */
enum {
	KVET_LOAD_MAX_DEPTH = 256,
	/* a document may expand through aliases to at most this many nodes
	 * more than its text holds (billion laughs) */
	KVET_LOAD_MAX_ALIAS_EXPANSION = 1000000,
	/* errors reported per input file; the rest are counted in one line */
	KVET_LOAD_MAX_ERRORS = 100,
	/* parsers libfyaml leaves broken, abandoned (not freed) per input
	 * piece before the rest of it is given up (src/load/fyparser.c) */
	KVET_LOAD_MAX_ABANDONED = 64,
};

/**
 * kvet_load_buffer() - parse a YAML or JSON stream into kvet trees.
 * @arena: where nodes (and copied scalars) go.
 * @diag: where errors go, positioned in @name.
 * @name: the input's name for positions; must outlive @arena's users.
 * @buf: the text; it must outlive the trees, which point into it. The
 *       loader may overwrite invalid bytes in place (see below).
 * @len: its length.
 * @out: documents are appended here.
 *
 * Empty and comment-only documents are skipped. A document with an error
 * (syntax, duplicate key, invalid UTF-8, a NUL byte, an alias bomb, too
 * deep) is reported and dropped, and loading goes on with the next
 * document: one bad document never hides the others.
 *
 * Returns: 0, or -1 when out of memory.
 */
int kvet_load_buffer(struct kvet_arena *arena, struct kvet_diag *diag,
		     const char *name, char *buf, size_t len,
		     struct kvet_docs *out);

/* The same, storing the bytes parsed so far in *@done now and then, for
 * a progress display in another thread. */
int kvet_load_buffer_progress(struct kvet_arena *arena,
			      struct kvet_diag *diag, const char *name,
			      char *buf, size_t len, struct kvet_docs *out,
			      atomic_size_t *done);

/*
 * Loading one input on several threads. kvet_load_job_create() reads the
 * input's layout and plans pieces (none for small inputs and input the
 * sanitizer had to fix); kvet_load_job_piece() parses piece @i, on any
 * thread, each piece once; kvet_load_job_finish(), after every piece,
 * joins them into @out in input order, or loads the whole input as
 * kvet_load_buffer() does when a piece did not parse alone. The result
 * is the same in every case and whatever the number of threads; @arena,
 * @diag and @name are used as by kvet_load_buffer(), @done (or NULL)
 * counts the bytes parsed.
 */
struct kvet_load_job;

struct kvet_load_job *kvet_load_job_create(struct kvet_arena *arena,
					   struct kvet_diag *diag,
					   const char *name, char *buf,
					   size_t len, atomic_size_t *done);
/* The same with pieces of at least @piece bytes, whatever the input's
 * size (0: no pieces); for tests of the joins. */
struct kvet_load_job *kvet_load_job_create_sized(struct kvet_arena *arena,
						 struct kvet_diag *diag,
						 const char *name, char *buf,
						 size_t len,
						 atomic_size_t *done,
						 size_t piece);
/*
 * kvet_load_job_detach() - make the pieces read without libfyaml copy
 * their scalars' text out of the input (detach.h) once parsed. With
 * @give_back, the input is a private, writable mapping of a regular file
 * (input/source.h) and each such piece then gives the whole pages of its
 * text back to the kernel (madvise): they are read from the file again
 * when something reads them. Call before the first piece.
 */
void kvet_load_job_detach(struct kvet_load_job *job, bool give_back);
size_t kvet_load_job_pieces(const struct kvet_load_job *job);
/* Returns 0, or -1 when out of memory. */
int kvet_load_job_piece(struct kvet_load_job *job, size_t i);
/* Returns 0, or -1 when out of memory. */
int kvet_load_job_finish(struct kvet_load_job *job, struct kvet_docs *out);
void kvet_load_job_destroy(struct kvet_load_job *job);

/* The libfyaml path alone, never the JSON fast path or split parsing:
 * tests and the fuzzer check that the fast paths build the same trees. */
int kvet_load_buffer_fyaml(struct kvet_arena *arena, struct kvet_diag *diag,
			   const char *name, char *buf, size_t len,
			   struct kvet_docs *out);

#endif
