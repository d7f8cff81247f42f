/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_BASE_REPO_H
#define KVET_BASE_REPO_H

#include "base/arena.h"

/*
 * kvet_repo_top() - the repository @abs_dir lies in: the nearest
 * directory from @abs_dir (an absolute path) up that holds .git, a
 * directory or, in a worktree or submodule, a file.
 * Returns: that directory's absolute path from @arena, or NULL when no
 * directory up holds .git or when out of memory.
 */
char *kvet_repo_top(struct kvet_arena *arena, const char *abs_dir);

/*
 * kvet_path_from() - the absolute path @abs as a path from the absolute
 * directory @dir: "." when they are one, "a/b" below it, "../../a/b"
 * beside it and "../.." above it, as a user would type it from @dir.
 * Both are canonical (realpath(): no "." or ".." parts, no slash at the
 * end but for "/").
 * Returns: the path in @arena (or a tail of @abs), NULL when out of
 * memory.
 */
const char *kvet_path_from(struct kvet_arena *arena, const char *abs,
			   const char *dir);

#endif
