/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every file of the shared corpus of real manifests, and of the peer
 * linters' fixtures, loads with no error, and kvet counts as many objects
 * as the corpus' own count.sh. count.sh counts every document that is no
 * List as one object; kvet skips those that are not Kubernetes objects
 * (a support bundle's metadata.yaml, a server version), so its objects
 * and skipped documents together make count.sh's number. The corpus
 * lives beside the repository, not in it: without it the test is skipped
 * (exit 77), saying so, as on a user's clone.
 */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kvet/kvet.h"

enum { SKIP = 77 };

static long count_sh_objects(const char *dir, const char *path)
{
	char cmd[8400], out[4096];
	const char *p;
	long n = -1;
	FILE *fp;

	snprintf(cmd, sizeof(cmd), "bash '%s/count.sh' '%s'", dir, path);
	fp = popen(cmd, "r");
	if (!fp)
		return -1;
	if (fgets(out, sizeof(out), fp) && (p = strstr(out, " objects=")))
		n = strtol(p + 9, NULL, 10);
	pclose(fp);
	return n;
}

static int check(const char *dir, const char *path)
{
	struct kvet_options opts = { .jobs = 1 };
	struct kvet_ctx *ctx = kvet_ctx_create(&opts);
	struct kvet_summary s;
	long want = count_sh_objects(dir, path);
	size_t i;
	int bad = 0;

	if (!ctx || kvet_ctx_add_path(ctx, path) < 0 || kvet_ctx_run(ctx) < 0) {
		printf("not ok - %s: could not run\n", path);
		kvet_ctx_destroy(ctx);
		return 1;
	}
	kvet_ctx_summary(ctx, &s);
	for (i = 0; i < kvet_ctx_error_count(ctx); i++) {
		const struct kvet_error *e = kvet_ctx_error(ctx, i);

		printf("# %s:%u:%u: %s\n", e->pos.file, e->pos.line,
		       e->pos.column, e->message);
		bad = 1;
	}
	if (want < 0 || (size_t)want != s.objects + s.skipped)
		bad = 1;
	printf("%s - %s: objects=%zu skipped=%zu count.sh=%ld errors=%zu\n",
	       bad ? "not ok" : "ok", path, s.objects, s.skipped, want,
	       kvet_ctx_error_count(ctx));
	kvet_ctx_destroy(ctx);
	return bad;
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Chart and kustomize sources are templates and overlays, not manifests:
 * the chart tests (tests/helm) render them. */
static bool is_source_dir(const char *dir)
{
	static const char *const marks[] = { "Chart.yaml", "kustomization.yaml",
					     "kustomization.yml",
					     "Kustomization" };
	char path[4096];
	struct stat st;
	size_t i;

	for (i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, marks[i]);
		if (stat(path, &st) == 0)
			return true;
	}
	return false;
}

static int check_dir(const char *root, const char *dir, int *files)
{
	struct dirent *de;
	char *names[256];
	size_t n = 0, i;
	int failed = 0;
	DIR *d = opendir(dir);

	if (!d)
		return 1;
	if (is_source_dir(dir)) {
		closedir(d);
		return 0;
	}
	while ((de = readdir(d)) != NULL && n < 256) {
		size_t len = strlen(de->d_name);

		if (de->d_name[0] == '.')
			continue;
		/* chart sources and kustomize trees are no manifests: their
		 * templates are not YAML until helm or kustomize has built
		 * them (tests/helm, tests/kustomize lint them that way) */
		if (strcmp(dir, root) == 0 &&
		    (strcmp(de->d_name, "charts") == 0 ||
		     strcmp(de->d_name, "kustomize") == 0))
			continue;
		if ((len > 5 && strcmp(de->d_name + len - 5, ".yaml") == 0) ||
		    (len > 5 && strcmp(de->d_name + len - 5, ".json") == 0) ||
		    (len > 4 && strcmp(de->d_name + len - 4, ".yml") == 0) ||
		    strchr(de->d_name, '.') == NULL)
			names[n++] = strdup(de->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp);
	for (i = 0; i < n; i++) {
		char path[4096];
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
			failed |= check_dir(root, path, files);
		} else if (stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
			   strchr(names[i], '.')) {
			failed |= check(root, path);
			(*files)++;
		}
		free(names[i]);
	}
	return failed;
}

int main(int argc, char **argv)
{
	struct stat st;
	int files = 0, failed, i;

	if (argc < 2 || stat(argv[1], &st) != 0 || !S_ISDIR(st.st_mode)) {
		printf("# SKIP: corpus not found at %s (it sits beside the "
		       "repository as ../shared/corpus; a standalone clone "
		       "has none)\n",
		       argc > 1 ? argv[1] : "(no path)");
		return SKIP;
	}
	failed = check_dir(argv[1], argv[1], &files);
	/* more real inputs (peer linters' fixtures), counted by count.sh */
	for (i = 2; i < argc; i++)
		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode))
			failed |= check_dir(argv[1], argv[i], &files);
	printf("# %d corpus files checked\n", files);
	return failed || files == 0;
}
