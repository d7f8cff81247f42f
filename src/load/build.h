/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_LOAD_BUILD_H
#define KVET_LOAD_BUILD_H

#include <libfyaml.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/diag.h"
#include "load/keyset.h"
#include "load/load.h"
#include "load/node.h"
#include "load/sanitize.h"

/*
 * The tree builder: libfyaml events in, kvet_node trees out. Children of
 * open collections wait on one scratch stack; when a collection ends they
 * are copied into the arena in one block, so the finished tree has no
 * per-node allocation and no spare capacity. The stream driver in
 * loader.c feeds it and handles documents, errors and recovery.
 */

struct kvet_build_frame;
struct kvet_build_anchor;

struct kvet_builder {
	struct kvet_arena *arena;
	struct kvet_diag *diag;
	const char *name;
	const char *buf;
	size_t len;

	/* where the current parser started within buf: its first line is
	 * base_line, and that line's first byte is at column base_col + 1 */
	size_t base_pos;
	uint32_t base_line, base_col;
	/* when not 0, the parser reads one JSON value, up to here, which is
	 * at limit_line:limit_col + 1 (loader.c, split_json()) */
	size_t limit;
	uint32_t limit_line, limit_col;
	size_t parser_docs;	/* documents the current parser ended */
	uint32_t nomark_line;	/* if not 0: the line of nodes without mark */

	struct kvet_node *scratch;
	uint64_t *weights;	/* parallel to scratch: expanded size */
	size_t nscratch, capscratch;

	struct kvet_build_frame *frames;
	size_t depth, capframes;

	struct kvet_build_anchor *anchors;
	size_t nanchors, capanchors;
	struct kvet_keyset anchor_index;	/* name -> newest anchor */
	struct kvet_keyset keys;		/* keys of the mapping built */

	/* the document being built */
	bool in_doc;
	bool doc_failed;
	size_t doc_start;	/* byte offset of the document's start */
	size_t root_pos;	/* byte offset of the root node */
	bool have_root_pos;
	uint8_t root_type;	/* of the root collection, once opened */
	bool root_flow;		/* ... and written in flow style */
	bool closing;		/* a mapping is being built from ... */
	size_t closing_start;	/* ... its children from here up */
	uint64_t doc_alias_weight;
	/* just past the root collection of the last document, when it was
	 * written in flow style: a JSON value may follow (loader.c) */
	bool flow_root_ended;
	size_t root_end;
	uint32_t root_end_line, root_end_col;
	size_t skip_depth;	/* > 0 while dropping a subtree */

	/* offsets of bytes that were invalid and replaced (sorted), and
	 * the positions of the first ones, reported as parsing passes them */
	const size_t *bad;
	size_t nbad, badi;
	const struct kvet_utf8_bad *detail;
	size_t ndetail, detaili;
	/* offsets of byte order marks that start a document (sorted) */
	const size_t *boms;
	size_t nboms, bomi;
	/* the last published document, until the next one starts: only
	 * then is its extent known (libfyaml gives no end mark) */
	bool pending;
	size_t pending_start;

	struct kvet_docs *out;
	uint32_t doc_index;
	bool oom;
	unsigned int abandoned;	/* parsers libfyaml left broken */

	atomic_size_t *progress;	/* bytes parsed, or NULL */
	size_t events;
};

/*
 * Where a collection is in the Kubernetes sense: an object is the root
 * mapping or a mapping item of a List's "items" (or of a top-level
 * sequence), and its metadata the "metadata" mapping of an object. The
 * loaders drop what no rule reads by these roles, whatever the depth.
 */
enum kvet_build_role {
	KVET_ROLE_NONE,
	KVET_ROLE_OBJECT,
	KVET_ROLE_ITEMS,
	KVET_ROLE_METADATA,
};

/* The role of a collection of @type (KVET_NODE_MAP or _SEQ) that is the
 * document's @root, or else the value of @key (NULL in a sequence) in a
 * collection of role @parent. */
uint8_t kvet_build_role(uint8_t parent, bool root,
			const struct kvet_node *key, uint8_t type);

/*
 * Is the collection that is the value of @key (NULL in a sequence) in a
 * collection of role @parent dropped, not built? metadata.managedFields of
 * a live object is bookkeeping of the API server's field ownership, often
 * half of a cluster dump, and no rule reads it: every loader drops it, in
 * every object (the root or an item of a List).
 */
bool kvet_build_drops(uint8_t parent, const struct kvet_node *key);

/* Convert a libfyaml mark (0-based, relative to where the current parser
 * started) into kvet's 1-based line and column and a byte offset. */
void kvet_build_mark(const struct kvet_builder *b, const struct fy_mark *m,
		     uint32_t *line, uint32_t *col, size_t *pos);

/*
 * kvet_build_map() - make @n a mapping of the @npairs key/value children
 * at @kv (key, value, key, ...; NULL when @npairs is 0), merge keys
 * applied; a duplicate key or a bad merge source fails the document.
 */
void kvet_build_map(struct kvet_builder *b, size_t npairs,
		    const struct kvet_node *kv, struct kvet_node *n);

/* Report the first problem of a document; the document is then dropped. */
void kvet_build_fail(struct kvet_builder *b, uint32_t line, uint32_t col,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* " (Deployment \"web\")": the kind and name of the document being
 * built, as far as they were read, or "" (for messages). */
void kvet_build_lost(const struct kvet_builder *b, char *buf, size_t size);

/* " (Deployment \"web\")" from a kind and a name, either may be NULL. */
void kvet_build_describe(const struct kvet_node *kind,
			 const struct kvet_node *name, char *buf, size_t size);

/* One event each; the document's root ends up alone on the scratch stack. */
void kvet_build_scalar(struct kvet_builder *b, struct fy_event *fye);
void kvet_build_alias(struct kvet_builder *b, struct fy_event *fye);
void kvet_build_open(struct kvet_builder *b, struct fy_event *fye,
		     uint8_t type);
void kvet_build_close(struct kvet_builder *b);

/* Free the builder's scratch vectors (not the arena). */
void kvet_build_release(struct kvet_builder *b);

/* loader.c, for the loading of an input in pieces (job.c) */

/* Sanitize @buf (kvet_utf8_sanitize(), details up to @diag's limit). */
int kvet_load_sanitize(struct kvet_diag *diag, char *buf, size_t len,
		       struct kvet_utf8_fix *fix);

/* Nothing the sanitizer found, no byte order mark: the fast paths may
 * read it. */
bool kvet_load_clean(const struct kvet_utf8_fix *fix, const char *buf,
		     size_t len);

/* Load all of @buf, sanitized already with @fix; the JSON scanner first
 * when @fast and the input is clean. */
int kvet_load_fixed(struct kvet_arena *arena, struct kvet_diag *diag,
		    const char *name, char *buf, size_t len,
		    struct kvet_docs *out, atomic_size_t *done, bool fast,
		    const struct kvet_utf8_fix *fix);

/*
 * kvet_load_yaml_piece() - parse the clean YAML @buf[@start, @end), which
 * starts a line @line, with one libfyaml parser; *@ndocs counts the
 * documents as the whole stream would number them.
 * Returns: 1 when it parsed without any error, 0 when not (@diag says
 * what), -1 when out of memory.
 */
int kvet_load_yaml_piece(struct kvet_arena *arena, struct kvet_diag *diag,
			 const char *name, const char *buf, size_t start,
			 size_t end, uint32_t line, struct kvet_docs *out,
			 uint32_t *ndocs);

#endif
