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

#endif
