/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A rule set's inputs beyond one buffer: the rule files of a directory,
 * and parameter overrides (--param RULE.NAME=VALUE).
 */
#include "rules/rules.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/read_file.h"

static bool rule_file_name(const char *name)
{
	size_t n = strlen(name);

	if (name[0] == '.')
		return false;
	return (n > 5 && !strcmp(name + n - 5, ".yaml")) ||
	       (n > 4 && !strcmp(name + n - 4, ".yml"));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int add_file(struct kvet_rule_set *set, const char *path)
{
	struct kvet_file f;
	int ret = -1;

	switch (kvet_file_read(path, KVET_RULE_FILE_MAX_SIZE, &f)) {
	case KVET_FILE_OK:
		ret = kvet_rule_set_add_buffer(set, path, f.buf, f.len);
		free(f.buf);
		break;
	case KVET_FILE_CANNOT_OPEN:
	case KVET_FILE_CANNOT_READ:
		kvet_diag_addf(&set->diag, path, 0, 0, "cannot read rule file: %s",
			       strerror(f.err));
		break;
	case KVET_FILE_NO_MEMORY:
		kvet_diag_addf(&set->diag, path, 0, 0, "cannot read rule file: %s",
			       strerror(ENOMEM));
		break;
	case KVET_FILE_TOO_LARGE:
		kvet_diag_addf(&set->diag, path, f.line, f.column,
			       "rule file larger than its limit of %zu MiB: reading stopped here",
			       (size_t)KVET_RULE_FILE_MAX_SIZE / (1024 * 1024));
		break;
	case KVET_FILE_NO_WRITER:
		kvet_diag_addf(&set->diag, path, 0, 0,
			       "nothing to read: no process has this FIFO open for writing");
		break;
	}
	return ret;
}

int kvet_rule_set_add_dir(struct kvet_rule_set *set, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	int ret = 0;

	if (!d) {
		kvet_diag_addf(&set->diag, dir, 0, 0,
			       "cannot open rules directory: %s", strerror(errno));
		return -1;
	}
	/* the files directly in the directory, in byte order */
	while ((de = readdir(d))) {
		if (!rule_file_name(de->d_name))
			continue;
		if (n == cap) {
			char **v;

			cap = cap ? cap * 2 : 16;
			v = realloc(names, cap * sizeof(*v));
			if (!v)
				goto oom;
			names = v;
		}
		names[n] = kvet_arena_printf(&set->arena, "%s%s%s", dir,
					     dir[strlen(dir) - 1] == '/' ? "" : "/",
					     de->d_name);
		if (!names[n])
			goto oom;
		n++;
	}
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);
	for (i = 0; i < n; i++)
		if (add_file(set, names[i]))
			ret = -1;
	goto out;
oom:
	kvet_diag_addf(&set->diag, NULL, 0, 0,
		       "cannot read rules directory %s: out of memory", dir);
	ret = -1;
out:
	free(names);
	closedir(d);
	return ret;
}

static bool parse_value(const char *s, const struct cel_value *def,
			struct cel_value *out, struct kvet_arena *arena)
{
	char *end;
	size_t len = strlen(s);
	char *copy = kvet_arena_strdup(arena, s);

	if (!copy)
		return false;
	errno = 0;
	switch ((enum cel_type)def->type) {
	case CEL_INT:
		*out = cel_int(strtoll(s, &end, 10));
		return len && !*end && !errno;
	case CEL_DOUBLE:
		*out = cel_double(strtod(s, &end));
		return len && !*end;
	case CEL_BOOL:
		*out = cel_bool(!strcmp(s, "true"));
		return !strcmp(s, "true") || !strcmp(s, "false");
	case CEL_STRING:
		*out = cel_string(copy, len);
		return true;
	default:
		return false;
	}
}

int kvet_rule_set_param(struct kvet_rule_set *set, const char *id,
			const char *name, const char *value)
{
	const struct kvet_rule *r = kvet_rule_set_find(set, id);
	struct cel_value v;
	size_t i;

	if (!r) {
		kvet_diag_addf(&set->diag, NULL, 0, 0,
			       "unknown rule \"%s\" in --param %s.%s", id, id, name);
		return -1;
	}
	for (i = 0; i < r->n_params; i++) {
		if (strcmp(r->param_list[i].name, name))
			continue;
		if (!parse_value(value, r->param_list[i].value, &v, &set->arena)) {
			kvet_diag_addf(&set->diag, NULL, 0, 0,
				       "invalid value \"%s\" for --param %s.%s (expected %s)",
				       value, id, name,
				       cel_type_name(r->param_list[i].value->type));
			return -1;
		}
		v.at = r->param_list[i].value->at;
		*r->param_list[i].value = v;
		return 0;
	}
	kvet_diag_addf(&set->diag, NULL, 0, 0,
		       "rule \"%s\" has no parameter \"%s\"", id, name);
	return -1;
}
