/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_INPUT_SEEN_H
#define KVET_INPUT_SEEN_H

#include <stddef.h>
#include <sys/types.h>

/*
 * The files and directories of one run, by device and inode: the identity
 * of a file whatever path (symlink, hard link, "..") leads to it. Each
 * remembers the first path it was met under, for the note that names the
 * path a later one duplicates.
 */
struct kvet_seen_entry {
	dev_t dev;
	ino_t ino;
	const char *name;	/* borrowed; NULL: a free slot */
};

struct kvet_seen {
	struct kvet_seen_entry *v;	/* open addressing, cap a power of 2 */
	size_t n, cap;
};

void kvet_seen_release(struct kvet_seen *seen);

/*
 * kvet_seen_add() - remember @dev/@ino under @name (borrowed: it must live
 * as long as @seen).
 * @first: when the file was met before, set to the path it was met under.
 *
 * Returns: 1 when it is new, 0 when it was met before, -1 when out of
 * memory.
 */
int kvet_seen_add(struct kvet_seen *seen, dev_t dev, ino_t ino,
		  const char *name, const char **first);

#endif
