/* SPDX-License-Identifier: Apache-2.0 */
#include "base/repo.h"

#include <string.h>
#include <unistd.h>

char *kvet_repo_top(struct kvet_arena *arena, const char *abs_dir)
{
	char *p = kvet_arena_strdup(arena, abs_dir), *slash, *probe;

	if (p && p[0] == '/' && !p[1])
		p[0] = '\0';	/* "" stands for "/" below */
	while (p) {
		probe = kvet_arena_printf(arena, "%s/.git", p);
		if (!probe)
			return NULL;
		if (access(probe, F_OK) == 0)
			return *p ? p : kvet_arena_strdup(arena, "/");
		slash = *p ? strrchr(p, '/') : NULL;
		if (!slash)
			return NULL;
		*slash = '\0';
	}
	return NULL;
}
