/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `kustomize build` (or `kubectl kustomize`) of one root, through a
 * wrapping kustomization in a temporary directory that asks for
 * `buildMetadata: [originAnnotations]`: kustomize then names each
 * object's source file in `config.kubernetes.io/origin`, which is taken
 * out of the output here (it is kvet's question, not the user's
 * annotation) and kept as the object's place.
 */
#include "input/render.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/read_file.h"
#include "base/repo.h"
#include "base/vec.h"

/* Where the tool is and how it is called: kustomize build, or kubectl
 * kustomize. */
static const char *tool_argv(struct kvet_arena *arena,
			     const struct kvet_render_opts *ro,
			     const char **verb)
{
	const char *tool, *base;

	if (ro->kustomize) {
		tool = kvet_render_find(arena, ro->kustomize);
		base = strrchr(ro->kustomize, '/');
		base = base ? base + 1 : ro->kustomize;
		*verb = strncmp(base, "kubectl", 7) == 0 ? "kustomize"
							  : "build";
		return tool;
	}
	tool = kvet_render_find(arena, "kustomize");
	*verb = "build";
	if (tool)
		return tool;
	*verb = "kustomize";
	return kvet_render_find(arena, "kubectl");
}

/* The wrapper's path to the root: "../" up to / from @tmp, then @abs. */
static char *path_from(struct kvet_arena *arena, const char *tmp,
		       const char *abs, size_t *depth)
{
	const char *p;
	char *up;
	size_t i;

	*depth = 0;
	for (p = tmp; *p; p++)
		if (*p == '/' && p[1])
			(*depth)++;
	up = kvet_arena_alloc(arena, *depth * 3 + 1);
	if (!up)
		return NULL;
	for (i = 0; i < *depth; i++)
		memcpy(up + i * 3, "../", 3);
	up[*depth * 3] = '\0';
	return kvet_arena_printf(arena, "%s%s", up, abs + 1);
}

/* Write the wrapping kustomization; 0 or an errno. */
static int write_wrapper(const char *tmp, const char *rel)
{
	char path[PATH_MAX + 32];
	FILE *fp;
	const char *p;

	snprintf(path, sizeof(path), "%s/kustomization.yaml", tmp);
	/* "e": O_CLOEXEC, as every descriptor a render thread opens, so
	 * that no other thread's helm or kubectl inherits it */
	fp = fopen(path, "we");
	if (!fp)
		return errno;
	fputs("resources:\n- '", fp);
	for (p = rel; *p; p++) {
		if (*p == '\'')
			putc('\'', fp);
		putc(*p, fp);
	}
	fputs("'\nbuildMetadata: [originAnnotations]\n", fp);
	return fclose(fp) ? errno : 0;
}

/* The line of "kind: @kind" in @file, or 1: the object's place there. */
static unsigned int kind_line(const char *file, const char *kind,
			      size_t kind_len)
{
	struct kvet_file t;
	unsigned int line = 1, found = 1;
	const char *p, *end;

	if (kvet_file_read(file, 1u << 24, &t) != KVET_FILE_OK)
		return 1;
	for (p = t.buf, end = t.buf + t.len; p < end; line++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (n >= 6 + kind_len && memcmp(p, "kind: ", 6) == 0 &&
		    memcmp(p + 6, kind, kind_len) == 0 &&
		    (n == 6 + kind_len || p[6 + kind_len] == ' ' ||
		     p[6 + kind_len] == '\r')) {
			found = line;
			break;
		}
		p = nl ? nl + 1 : end;
	}
	free(t.buf);
	return found;
}

struct doc_scan {
	const char *kind;	/* in the output, the top-level kind: */
	size_t kind_len;
	const char *origin;	/* path: or configuredIn: of the origin */
	size_t origin_len;
};

static bool starts(const char *p, size_t n, const char *s)
{
	size_t l = strlen(s);

	return n >= l && memcmp(p, s, l) == 0;
}

/* Indentation of a line: the number of leading spaces. */
static size_t indent(const char *p, size_t n)
{
	size_t i = 0;

	while (i < n && p[i] == ' ')
		i++;
	return i;
}

/*
 * Copy @in to @out without the origin annotations (and an annotations:
 * left empty by that), noting each document's kind and origin in
 * @docs. kustomize writes its output in one shape (keys sorted, two
 * spaces, `---` between documents), which this reads line by line.
 */
static int strip_origins(const char *in, size_t len, char *out, size_t *olen,
			 struct doc_scan **docs, size_t *ndocs)
{
	const char *p = in, *end = in + len;
	size_t o = 0, cap = 0, held = 0;
	bool in_origin = false;
	struct doc_scan *d;

	*docs = NULL;
	*ndocs = 0;
	if (!kvet_vec_grow((void **)docs, &cap, 1, sizeof(**docs)))
		return -1;
	memset(&(*docs)[0], 0, sizeof(**docs));
	*ndocs = 1;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
		size_t ind = indent(p, n);

		d = &(*docs)[*ndocs - 1];
		if (in_origin && ind >= 6) {
			const char *v = p + ind;
			size_t vn = n - ind;

			if (starts(v, vn, "path: ") ||
			    (starts(v, vn, "configuredIn: ") && !d->origin)) {
				const char *s = strchr(v, ' ') + 1;

				d->origin = s;
				d->origin_len = (size_t)(p + n - s);
				while (d->origin_len &&
				       (s[d->origin_len - 1] == '\n' ||
					s[d->origin_len - 1] == '\r'))
					d->origin_len--;
			}
			p += n;
			continue;
		}
		in_origin = false;
		if (starts(p, n, "    config.kubernetes.io/origin: ")) {
			/* an annotations: line just before stays only if
			 * other annotations follow */
			in_origin = true;
			p += n;
			continue;
		}
		if (held && ind < 4) {
			/* annotations: with nothing left under it */
			o -= held;
		}
		held = 0;
		if (starts(p, n, "---")) {
			if (!kvet_vec_grow((void **)docs, &cap, *ndocs + 1,
					   sizeof(**docs)))
				return -1;
			memset(&(*docs)[*ndocs], 0, sizeof(**docs));
			(*ndocs)++;
		} else if (starts(p, n, "kind: ")) {
			d->kind = p + 6;
			d->kind_len = n - 6;
			while (d->kind_len && (d->kind[d->kind_len - 1] == '\n' ||
					       d->kind[d->kind_len - 1] == '\r'))
				d->kind_len--;
		}
		memcpy(out + o, p, n);
		if (starts(p, n, "  annotations:") && n <= 16)
			held = n;
		o += n;
		p += n;
	}
	if (held)
		o -= held;
	out[o] = '\0';
	*olen = o;
	return 0;
}

/*
 * The absolute @abs as a path from the working directory @cwd. Outside
 * it, with ".." steps when @up (the kustomization was named by a
 * relative path): one linted as ../repo/overlay names its files
 * ../repo/base/..., as a chart's do, so reports do not depend on where
 * the checkout is; else @abs itself. Both paths are physical: @abs comes
 * from realpath(), @cwd from getcwd().
 */
static const char *from_cwd(struct kvet_arena *arena, const char *abs,
			    const char *cwd, bool up)
{
	const char *rel = kvet_path_from(arena, abs, cwd);

	if (!up && rel && rel[0] == '.' && rel[1] == '.' &&
	    (!rel[2] || rel[2] == '/'))
		return abs;
	return rel;
}

/*
 * The origin @rel (relative to the wrapper in a directory @depth levels
 * below /) as a path from the working directory @cwd.
 */
static const char *resolve(struct kvet_arena *arena, const char *rel,
			   size_t n, size_t depth, const char *cwd, bool up)
{
	size_t i;
	const char *abs;

	for (i = 0; i < depth; i++) {
		if (n < 3 || memcmp(rel, "../", 3) != 0)
			return NULL;
		rel += 3;
		n -= 3;
	}
	abs = kvet_arena_printf(arena, "/%.*s", (int)n, rel);
	if (!abs || access(abs, R_OK) != 0)
		return NULL;
	return from_cwd(arena, abs, cwd, up);
}

static void remove_wrapper(const char *tmp)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/kustomization.yaml", tmp);
	unlink(path);
	rmdir(tmp);
}

/*
 * Turn the raw output into the stripped text and the origins (@up: the
 * kustomization was named by a relative path, see from_cwd()).
 */
static int take_output(struct kvet_arena *arena, char *raw, size_t rawlen,
		       size_t depth, bool up, char **out, size_t *len,
		       struct kvet_origin **origins, size_t *n_origins)
{
	struct doc_scan *docs;
	char cwd[PATH_MAX];
	size_t nd, i;

	/* a copy: the scan keeps pointers into @raw */
	*out = malloc(rawlen + 1);
	if (!*out)
		return -1;
	if (strip_origins(raw, rawlen, *out, len, &docs, &nd) < 0) {
		free(*out);
		*out = NULL;
		return -1;
	}
	*origins = kvet_arena_alloc(arena, (nd ? nd : 1) * sizeof(**origins));
	if (!*origins || !getcwd(cwd, sizeof(cwd))) {
		free(docs);
		return *origins ? 0 : -1;
	}
	*n_origins = nd;
	for (i = 0; i < nd; i++) {
		struct kvet_origin *og = &(*origins)[i];
		char *kind;

		og->file = docs[i].origin
			? resolve(arena, docs[i].origin, docs[i].origin_len,
				  depth, cwd, up)
			: NULL;
		og->line = 1;
		if (og->file && docs[i].kind) {
			kind = kvet_arena_printf(arena, "%.*s",
						 (int)docs[i].kind_len,
						 docs[i].kind);
			if (kind)
				og->line = kind_line(og->file, kind,
						     docs[i].kind_len);
		}
	}
	free(docs);
	return 0;
}

int kvet_render_kustomize(const struct kvet_render_opts *ro, const char *dir,
			  struct kvet_arena *arena, struct kvet_diag *diag,
			  size_t max, char **out, size_t *len,
			  struct kvet_origin **origins, size_t *n_origins)
{
	char tmpl[PATH_MAX], tmp[PATH_MAX], root[PATH_MAX];
	const char *tool, *verb, *argv[4], *dirs = getenv("TMPDIR");
	char *raw = NULL, *err = NULL, *rel, *msg;
	size_t rawlen, depth;
	bool over;
	int status, rc, ret = 1;

	*out = NULL;
	*len = 0;
	*origins = NULL;
	*n_origins = 0;
	tool = tool_argv(arena, ro, &verb);
	if (!tool) {
		kvet_diag_addf(diag, dir, 0, 0,
			       ro->kustomize
				       ? "cannot build the kustomization: '%s' is not an executable file"
				       : "cannot build the kustomization: neither kustomize nor kubectl is on PATH; install kubectl (https://kubernetes.io/docs/tasks/tools/) or kustomize, or name it with --kustomize PATH or KVET_KUSTOMIZE%s",
			       ro->kustomize ? ro->kustomize : "");
		return 1;
	}
	snprintf(tmpl, sizeof(tmpl), "%s/kvet-kustomize-XXXXXX",
		 dirs && *dirs ? dirs : "/tmp");
	if (!realpath(dir, root) || !mkdtemp(tmpl) || !realpath(tmpl, tmp)) {
		kvet_diag_addf(diag, dir, 0, 0,
			       "cannot build the kustomization: %s",
			       strerror(errno));
		return 1;
	}
	rel = path_from(arena, tmp, root, &depth);
	rc = rel ? write_wrapper(tmp, rel) : ENOMEM;
	if (rc) {
		remove_wrapper(tmp);
		if (rc == ENOMEM)
			return -1;
		kvet_diag_addf(diag, dir, 0, 0,
			       "cannot build the kustomization: %s",
			       strerror(rc));
		return 1;
	}
	argv[0] = tool;
	argv[1] = verb;
	argv[2] = tmp;
	argv[3] = NULL;
	rc = kvet_render_run(argv, max, &raw, &rawlen, &err, &status, &over);
	remove_wrapper(tmp);
	if (rc < 0)
		return -1;
	msg = kvet_render_one_line(arena, err);
	if (status < 0)
		kvet_diag_addf(diag, dir, 0, 0, "cannot run %s: %s", tool, msg);
	else if (over)
		kvet_diag_addf(diag, dir, 0, 0,
			       "the build is larger than the limit of %zu bytes",
			       max);
	else if (status)
		kvet_diag_addf(diag, dir, 0, 0,
			       "%s %s failed (exit status %d): %s", tool, verb,
			       status, *msg ? msg : "(no message)");
	else
		ret = 0;
	/* kustomize's warnings (deprecated fields) are worth passing on */
	if (!ret && *msg)
		kvet_diag_notef(diag, KVET_NOTICE_NOTE, dir, 0, 0,
				"kustomize says: %s", msg);
	free(err);
	if (ret) {
		free(raw);
		return ret;
	}
	rc = take_output(arena, raw, rawlen, depth, dir[0] != '/', out, len,
			 origins, n_origins);
	free(raw);
	return rc < 0 ? -1 : 0;
}
