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

const char *kvet_path_from(struct kvet_arena *arena, const char *abs,
			   const char *dir)
{
	size_t i = 0, common = 0, ups = 0, rest;
	const char *p;
	char *out;

	if (!strcmp(dir, "/"))
		return abs[1] ? abs + 1 : ".";
	/* @common: the length of the leading directories both share */
	while (abs[i] && abs[i] == dir[i]) {
		if (abs[i] == '/')
			common = i;
		i++;
	}
	if (!dir[i] && !abs[i])
		return ".";
	if (!dir[i] && abs[i] == '/')
		return abs + i + 1;
	if (!abs[i] && dir[i] == '/')
		common = i;
	for (p = dir + common; *p; p++)
		ups += *p == '/';
	/* "/tail", or none when @abs is above @dir (or is "/") */
	rest = abs[common] && abs[common + 1] ? strlen(abs + common) : 0;
	out = kvet_arena_alloc(arena, 3 * ups + rest + 1);
	if (!out)
		return NULL;
	for (i = 0; i < ups; i++)
		memcpy(out + 3 * i, "../", 3);
	if (rest)
		memcpy(out + 3 * ups, abs + common + 1, rest);
	else
		out[3 * ups - 1] = '\0';	/* "../..", no slash at the end */
	return out;
}
