/* SPDX-License-Identifier: Apache-2.0 */
#include "chart/chart.h"

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/read_file.h"
#include "base/repo.h"
#include "base/repo.h"
#include "chart/values.h"

enum {
	/* a template or values file larger than this is not read */
	MAX_FILE = 16 * 1024 * 1024,
	/* directories below a chart's templates/ and charts/ walked for
	 * helpers */
	MAX_DIRS = 4096,
};

struct tfile {
	char *abs;		/* real path */
	const char *rel;	/* as reported */
	char *buf;
	size_t len;
	size_t *lines;		/* offsets of each line's start */
	size_t nlines;
	struct kvet_tindex *ti;
};

struct chart {
	const char *name;
	const char *dir;	/* as asked: --chart-dir, or "" for the cwd */
	char *root;		/* real path of the top chart, or NULL */
	struct tfile **helpers;
	size_t nhelpers, cap_helpers;
	bool helpers_read;
};

/* NAME-VERSION of a chart directory, as helm writes helm.sh/chart */
struct label {
	const char *dir;
	const char *text;	/* NULL: no Chart.yaml name or version */
	const char *app;	/* appVersion, or NULL */
};

struct vfile {
	char *abs;
	const char *rel;
	struct kvet_values *vals;	/* NULL: unreadable */
};

struct kvet_chart_map {
	struct kvet_arena arena;
	char *cwd;		/* real path */
	char *top;		/* repository root, real path */
	struct tfile **files;
	size_t nfiles, cap_files;
	struct chart **charts;
	size_t ncharts, cap_charts;
	struct vfile **vfiles;
	size_t nvfiles, cap_vfiles;
	struct label *labels;
	size_t nlabels, cap_labels;
	bool oom;
};

static bool is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

struct kvet_chart_map *kvet_chart_map_create(const char *cwd)
{
	struct kvet_chart_map *m = calloc(1, sizeof(*m));
	char buf[PATH_MAX];

	if (!m)
		return NULL;
	kvet_arena_init(&m->arena);
	if (!realpath(cwd ? cwd : ".", buf))
		snprintf(buf, sizeof(buf), "%s", cwd ? cwd : ".");
	m->cwd = kvet_arena_strdup(&m->arena, buf);
	/* file names are relative to the repository root, else to @cwd */
	m->top = m->cwd ? kvet_repo_top(&m->arena, m->cwd) : NULL;
	if (m->cwd && !m->top)
		m->top = m->cwd;
	if (!m->top) {
		kvet_chart_map_destroy(m);
		return NULL;
	}
	return m;
}

void kvet_chart_map_destroy(struct kvet_chart_map *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->nfiles; i++)
		free(m->files[i]->buf);
	for (i = 0; i < m->nvfiles; i++)
		kvet_values_destroy(m->vfiles[i]->vals);
	kvet_arena_release(&m->arena);
	free(m);
}

static void index_lines(struct kvet_chart_map *m, struct tfile *tf)
{
	size_t i, n = 1;

	for (i = 0; i < tf->len; i++)
		if (tf->buf[i] == '\n')
			n++;
	tf->lines = kvet_arena_array(&m->arena, n, sizeof(*tf->lines));
	if (!tf->lines) {
		m->oom = true;
		return;
	}
	tf->lines[0] = 0;
	for (i = 0, n = 1; i < tf->len; i++)
		if (tf->buf[i] == '\n')
			tf->lines[n++] = i + 1;
	tf->nlines = n;
	if (tf->len && tf->buf[tf->len - 1] == '\n')
		tf->nlines--;
}

/* The template file at @path, read and indexed once; NULL when it
 * cannot be read. */
static struct tfile *get_file(struct kvet_chart_map *m, const char *path)
{
	char real[PATH_MAX];
	struct kvet_file kf;
	struct tfile *tf;
	size_t i;

	if (!realpath(path, real) || !is_file(real))
		return NULL;
	for (i = 0; i < m->nfiles; i++)
		if (!strcmp(m->files[i]->abs, real))
			return m->files[i];
	if (kvet_file_read(real, MAX_FILE, &kf) != KVET_FILE_OK)
		return NULL;
	tf = kvet_arena_alloc(&m->arena, sizeof(*tf));
	if (!tf || !kvet_arena_grow(&m->arena, &m->files, &m->cap_files,
				    m->nfiles, sizeof(*m->files))) {
		free(kf.buf);
		m->oom = true;
		return NULL;
	}
	tf->buf = kf.buf;
	tf->len = kf.len;
	m->files[m->nfiles++] = tf;
	tf->abs = kvet_arena_strdup(&m->arena, real);
	/* from the repository root, "../" where it lies outside */
	tf->rel = tf->abs ? kvet_path_from(&m->arena, tf->abs, m->top) : NULL;
	tf->ti = kvet_tindex_build(&m->arena, tf->rel ? tf->rel : "", tf->buf,
				   tf->len);
	if (!tf->abs || !tf->rel || !tf->ti) {
		m->oom = true;
		return NULL;
	}
	index_lines(m, tf);
	return m->oom ? NULL : tf;
}

/* The value of @key ("name:") in @dir/Chart.yaml, or NULL. Read as
 * lines: the keys are at the left margin in every Chart.yaml. */
static char *chart_key(struct kvet_chart_map *m, const char *dir,
		       const char *key)
{
	char *path = kvet_arena_printf(&m->arena, "%s/Chart.yaml", dir);
	struct kvet_file kf;
	char *p, *e, *out = NULL;

	if (!path || kvet_file_read(path, MAX_FILE, &kf) != KVET_FILE_OK)
		return NULL;
	for (p = kf.buf; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1
						      : NULL) {
		if (strncmp(p, key, strlen(key)))
			continue;
		p += strlen(key);
		while (*p == ' ')
			p++;
		for (e = p; *e && *e != '\n' && *e != '#'; e++)
			;
		while (e > p && (e[-1] == ' ' || e[-1] == '\r'))
			e--;
		if (e - p >= 2 && (*p == '"' || *p == '\'') && e[-1] == *p) {
			p++;
			e--;
		}
		out = kvet_arena_strndup(&m->arena, p, (size_t)(e - p));
		break;
	}
	free(kf.buf);
	return out;
}

static char *real_dir(struct kvet_chart_map *m, const char *dir)
{
	char real[PATH_MAX];

	if (!dir || !realpath(dir, real))
		return NULL;
	return kvet_arena_strdup(&m->arena, real);
}

static bool has_chart(struct kvet_chart_map *m, const char *dir)
{
	char *p = kvet_arena_printf(&m->arena, "%s/Chart.yaml", dir);

	return p && is_file(p);
}

/* The top chart named @name: @dir (--chart-dir) or the cwd when its
 * Chart.yaml names it, else NAME/ or charts/NAME/ there. */
static char *find_root(struct kvet_chart_map *m, const char *dir,
		       const char *name)
{
	const char *base = *dir ? dir : m->cwd;
	char *p;

	/* the chart named in the source, never another one that is here */
	if (has_chart(m, base)) {
		const char *n = chart_key(m, base, "name:");

		if (n && !strcmp(n, name))
			return real_dir(m, base);
	}
	p = kvet_arena_printf(&m->arena, "%s/%s", base, name);
	if (p && has_chart(m, p))
		return real_dir(m, p);
	p = kvet_arena_printf(&m->arena, "%s/charts/%s", base, name);
	if (p && has_chart(m, p))
		return real_dir(m, p);
	return NULL;
}

static struct chart *get_chart(struct kvet_chart_map *m, const char *dir,
			       const char *name)
{
	struct chart *c;
	size_t i;

	for (i = 0; i < m->ncharts; i++)
		if (!strcmp(m->charts[i]->name, name) &&
		    !strcmp(m->charts[i]->dir, dir))
			return m->charts[i];
	c = kvet_arena_alloc(&m->arena, sizeof(*c));
	if (!c || !kvet_arena_grow(&m->arena, &m->charts, &m->cap_charts,
				   m->ncharts, sizeof(*m->charts))) {
		m->oom = true;
		return NULL;
	}
	c->name = kvet_arena_strdup(&m->arena, name);
	c->dir = kvet_arena_strdup(&m->arena, dir);
	c->root = find_root(m, dir, name);
	if (!c->name || !c->dir) {
		m->oom = true;
		return NULL;
	}
	m->charts[m->ncharts++] = c;
	return c;
}

static void add_helper(struct kvet_chart_map *m, struct chart *c,
		       const char *path)
{
	struct tfile *tf = get_file(m, path);

	if (!tf || !tf->ti->ndefines)
		return;
	if (!kvet_arena_grow(&m->arena, &c->helpers, &c->cap_helpers,
			     c->nhelpers, sizeof(*c->helpers))) {
		m->oom = true;
		return;
	}
	c->helpers[c->nhelpers++] = tf;
}

/*
 * The partials (files whose name starts with "_") of the chart's
 * templates/ and of every subchart's, which share one namespace of
 * defines in Helm. The walk keeps its own list of directories.
 */
static void read_helpers(struct kvet_chart_map *m, struct chart *c)
{
	const char **dirs;
	size_t n = 0, i;
	struct dirent *de;
	DIR *d;

	c->helpers_read = true;
	dirs = kvet_arena_array(&m->arena, MAX_DIRS, sizeof(*dirs));
	if (!dirs) {
		m->oom = true;
		return;
	}
	dirs[n++] = c->root;
	for (i = 0; i < n && !m->oom; i++) {
		d = opendir(dirs[i]);
		if (!d)
			continue;
		while ((de = readdir(d))) {
			const char *p;

			if (de->d_name[0] == '.')
				continue;
			p = kvet_arena_printf(&m->arena, "%s/%s", dirs[i],
					      de->d_name);
			if (!p) {
				m->oom = true;
				break;
			}
			if (is_dir(p)) {
				if (n < MAX_DIRS)
					dirs[n++] = p;
			} else if (de->d_name[0] == '_' && strstr(p, "/templates/")) {
				add_helper(m, c, p);
			}
		}
		closedir(d);
	}
	/* readdir's order is the file system's: sort for a stable search */
	for (i = 1; i < c->nhelpers; i++) {
		struct tfile *t = c->helpers[i];
		size_t j = i;

		while (j && strcmp(c->helpers[j - 1]->abs, t->abs) > 0) {
			c->helpers[j] = c->helpers[j - 1];
			j--;
		}
		c->helpers[j] = t;
	}
}

struct finder {
	struct kvet_chart_map *m;
	struct chart *c;
	const struct tfile *self;
};

/* The one define of @name among the partials and the template itself;
 * NULL when none, or more than one (helm would pick one by load order,
 * which a reader cannot see). */
static const struct kvet_tindex *find_define(void *user, const char *name,
					     int32_t *define)
{
	struct finder *fd = user;
	const struct kvet_tindex *hit = NULL;
	size_t i, j, n = 0;

	if (!fd->c->helpers_read)
		read_helpers(fd->m, fd->c);
	for (i = 0; i <= fd->c->nhelpers; i++) {
		const struct tfile *tf = i < fd->c->nhelpers ? fd->c->helpers[i]
							     : fd->self;

		if (i == fd->c->nhelpers && !tf)
			break;
		if (i < fd->c->nhelpers && tf == fd->self)
			continue;
		for (j = 0; j < tf->ti->ndefines; j++)
			if (!strcmp(tf->ti->defines[j], name)) {
				hit = tf->ti;
				*define = (int32_t)j;
				n++;
			}
	}
	return n == 1 ? hit : NULL;
}

static struct vfile *get_values(struct kvet_chart_map *m, const char *path)
{
	char real[PATH_MAX];
	struct vfile *vf;
	size_t i;

	if (!realpath(path, real))
		return NULL;
	for (i = 0; i < m->nvfiles; i++)
		if (!strcmp(m->vfiles[i]->abs, real))
			return m->vfiles[i];
	vf = kvet_arena_alloc(&m->arena, sizeof(*vf));
	if (!vf || !kvet_arena_grow(&m->arena, &m->vfiles, &m->cap_vfiles,
				    m->nvfiles, sizeof(*m->vfiles))) {
		m->oom = true;
		return NULL;
	}
	vf->abs = kvet_arena_strdup(&m->arena, real);
	vf->rel = vf->abs ? kvet_path_from(&m->arena, vf->abs, m->top) : NULL;
	if (!vf->abs || !vf->rel) {
		m->oom = true;
		return NULL;
	}
	vf->vals = kvet_values_load(real);
	m->vfiles[m->nvfiles++] = vf;
	return vf;
}

/*
 * Look @key up in the values file @path: true with @out set. A scalar
 * there that the rendered text @f does not hold was not what the render
 * used (another values file or --set was): it is not named.
 */
static bool values_at(struct kvet_chart_map *m, const char *path,
		      const char *key, const struct kvet_chart_field *f,
		      struct kvet_chart_place *out)
{
	struct vfile *vf = path ? get_values(m, path) : NULL;
	const char *text = NULL;
	size_t len = 0, i;
	unsigned int line;

	line = vf ? kvet_values_line(vf->vals, key, &text, &len) : 0;
	if (!line)
		return false;
	if (text && f->text) {
		for (i = 0; len <= f->text_len && i + len <= f->text_len; i++)
			if (!memcmp(f->text + i, text, len))
				break;
		if (len > f->text_len || i + len > f->text_len)
			return false;
	}
	out->values_file = vf->rel;
	out->values_line = line;
	return true;
}

/*
 * The values file that set @key: the files of the render from the last,
 * then, for a subchart, the parent's values.yaml under the subchart's
 * name, then the chart's own values.yaml.
 */
static void find_value(struct kvet_chart_map *m, const char *root,
		       const char *own, const char *const *values,
		       size_t nvalues, const struct kvet_chart_field *f,
		       struct kvet_chart_place *out)
{
	const char *key = out->values_key, *sub = NULL;
	char *subkey = NULL;
	size_t i;

	if (strcmp(root, own)) {
		sub = strrchr(own, '/') + 1;
		subkey = kvet_arena_printf(&m->arena, "%s.%s", sub, key);
	}
	/* the parent's files set a subchart's values under its name */
	for (i = nvalues; i--;)
		if (values_at(m, values[i], subkey ? subkey : key, f, out))
			goto sub;
	if (subkey && !nvalues &&
	    values_at(m, kvet_arena_printf(&m->arena, "%s/values.yaml", root),
		      subkey, f, out))
		goto sub;
	values_at(m, kvet_arena_printf(&m->arena, "%s/values.yaml", own), key,
		  f, out);
	return;
sub:
	if (subkey)
		out->values_key = subkey;
}

static const struct label *chart_label(struct kvet_chart_map *m,
				       const char *dir)
{
	const char *name, *version;
	struct label *l;
	size_t i;

	for (i = 0; i < m->nlabels; i++)
		if (!strcmp(m->labels[i].dir, dir))
			return &m->labels[i];
	if (!kvet_arena_grow(&m->arena, &m->labels, &m->cap_labels, m->nlabels,
			     sizeof(*m->labels))) {
		m->oom = true;
		return NULL;
	}
	l = &m->labels[m->nlabels++];
	l->dir = dir;
	name = chart_key(m, dir, "name:");
	version = chart_key(m, dir, "version:");
	l->text = name && version ? kvet_arena_printf(&m->arena, "%s-%s", name,
						      version)
				  : NULL;
	l->app = chart_key(m, dir, "appVersion:");
	return l;
}

static bool same_text(const char *s, const char *t, size_t len)
{
	return strlen(s) == len && !memcmp(s, t, len);
}

/*
 * Is the template's chart the one that rendered the object? Only its
 * labels can tell: helm.sh/chart (NAME-VERSION), else the app version;
 * without them the name in the source is all there is.
 */
static bool same_version(struct kvet_chart_map *m, const char *own,
			 const struct kvet_chart_field *f)
{
	const struct label *l;

	if (!f->chart_label && !f->app_version)
		return true;
	l = chart_label(m, own);
	if (!l)
		return true;
	if (f->chart_label)
		return !l->text ||
		       same_text(l->text, f->chart_label, f->chart_label_len);
	return !l->app || same_text(l->app, f->app_version, f->app_version_len);
}

int kvet_chart_map_resolve(struct kvet_chart_map *m, const char *chart_dir,
			   const char *const *values, size_t nvalues,
			   const char *source,
			   const struct kvet_chart_field *f,
			   struct kvet_chart_place *out)
{
	const char *slash = strchr(source, '/'), *t;
	struct finder fd = { .m = m };
	struct kvet_tmatch tm;
	char *name, *path, *own;
	struct tfile *tf;
	struct chart *c;

	memset(out, 0, sizeof(*out));
	if (!slash || slash == source || strstr(source, "/../") ||
	    strstr(source, "//"))
		return 0;
	name = kvet_arena_strndup(&m->arena, source, (size_t)(slash - source));
	c = name ? get_chart(m, chart_dir ? chart_dir : "", name) : NULL;
	if (m->oom || !name)
		return -1;
	if (!c || !c->root)
		return 0;
	path = kvet_arena_printf(&m->arena, "%s/%s", c->root, slash + 1);
	tf = path ? get_file(m, path) : NULL;
	if (m->oom || !path)
		return -1;
	if (!tf)
		return 0;
	/* the chart the template belongs to: the path up to its templates/ */
	for (t = strstr(path, "/templates/"), own = NULL; t;
	     t = strstr(t + 1, "/templates/"))
		own = (char *)t;
	own = own ? kvet_arena_strndup(&m->arena, path, (size_t)(own - path))
		  : NULL;
	if (!own)
		return m->oom ? -1 : 0;
	if (!same_version(m, own, f))
		return m->oom ? -1 : 0;
	fd.c = c;
	fd.self = tf;
	kvet_tmatch_field(&m->arena, tf->ti, find_define, &fd, f, &tm);
	if (m->oom)
		return -1;
	out->file = tm.ti->file;
	out->line = tm.line;
	out->column = tm.col;
	out->exact = tm.exact;
	out->values_key = tm.values_key;
	if (out->values_key)
		find_value(m, c->root, own, values, nvalues, f, out);
	return m->oom ? -1 : 1;
}

const char *kvet_chart_map_line(const struct kvet_chart_map *m,
				const char *file, unsigned int line,
				size_t *len)
{
	const struct tfile *tf;
	size_t i, end;

	if (!m || !file || !line)
		return NULL;
	for (i = 0; i < m->nfiles; i++) {
		tf = m->files[i];
		if (strcmp(tf->rel, file) || line > tf->nlines)
			continue;
		end = line < tf->nlines ? tf->lines[line] - 1 : tf->len;
		if (end > tf->lines[line - 1] && tf->buf[end - 1] == '\n')
			end--;
		if (end > tf->lines[line - 1] && tf->buf[end - 1] == '\r')
			end--;
		*len = end - tf->lines[line - 1];
		return tf->buf + tf->lines[line - 1];
	}
	return NULL;
}
