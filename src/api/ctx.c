/* SPDX-License-Identifier: Apache-2.0 */
#include "api/context.h"
#include "api/borrow.h"
#include "api/config_charts.h"

#include <pthread.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/diag.h"
#include "input/source.h"
#include "load/load.h"
#include "load/split.h"
#include "model/graph.h"
#include "model/object.h"
#include "model/release.h"
#include "findings/findings.h"
#include "rules/rules.h"

static bool excluded(const void *ctx, const char *path)
{
	return kvet_ctx_excluded(ctx, path);
}

KVET_API struct kvet_ctx *kvet_ctx_create(const struct kvet_options *opts)
{
	struct kvet_ctx *ctx = calloc(1, sizeof(*ctx));

	if (!ctx)
		return NULL;
	if (opts)
		ctx->opts = *opts;
	kvet_arena_init(&ctx->arena);
	kvet_diag_init(&ctx->diag, &ctx->arena);
	kvet_diag_init(&ctx->path_diag, &ctx->arena);
	kvet_findings_init(&ctx->findings, &ctx->arena);
	ctx->namespace_given = ctx->opts.default_namespace != NULL;
	ctx->opts.default_namespace = kvet_arena_strdup(
		&ctx->arena, ctx->opts.default_namespace
				     ? ctx->opts.default_namespace
				     : "default");
	if (!ctx->opts.default_namespace) {
		kvet_ctx_destroy(ctx);
		return NULL;
	}
	if (!ctx->opts.max_file_size)
		ctx->opts.max_file_size = KVET_INPUT_SIZE_DEFAULT;
	if (!ctx->opts.fifo_wait_ms)
		ctx->opts.fifo_wait_ms = KVET_FIFO_WAIT_MS;
	ctx->srcs.excluded = excluded;
	ctx->srcs.render = &ctx->render;
	ctx->srcs.chart_opts = kvet_ctx_chart_opts;
	ctx->srcs.chart_opts_user = ctx;
	ctx->srcs.drain = ctx->opts.flags & KVET_CTX_DRAIN;
	ctx->require_objects = ctx->opts.flags & KVET_CTX_REQUIRE_OBJECTS;
	ctx->srcs.excluded_user = ctx;
	kvet_rule_set_init(&ctx->rules);
	/* the built-in rules are small: parsing them per context is cheap;
	 * they are tested, so only memory can fail them */
	if ((!(ctx->opts.flags & KVET_CTX_NO_BUILTIN_RULES) &&
	     kvet_rule_set_add_builtin(
		     &ctx->rules,
		     !(ctx->opts.flags & KVET_CTX_NO_EXAMPLES)) < 0) ||
	    ctx->rules.diag.oom || kvet_ctx_index_rules(ctx)) {
		kvet_ctx_destroy(ctx);
		return NULL;
	}
	return ctx;
}

struct kvet_ctx *kvet_ctx_create_borrowing(const struct kvet_options *opts,
					   const struct kvet_ctx *tmpl)
{
	struct kvet_options o = { 0 };
	struct kvet_ctx *ctx;

	if (opts)
		o = *opts;
	/* no compile of the built-in rules; the C checks come back below */
	o.flags |= KVET_CTX_NO_BUILTIN_RULES;
	ctx = kvet_ctx_create(&o);
	if (!ctx)
		return NULL;
	ctx->opts.flags = opts ? opts->flags : 0;
	/* the pointers only: the rules stay in @tmpl's arena, and releasing
	 * this set frees the array, not them */
	if (tmpl->rules.n) {
		ctx->rules.v = malloc(tmpl->rules.n * sizeof(*ctx->rules.v));
		if (!ctx->rules.v) {
			kvet_ctx_destroy(ctx);
			return NULL;
		}
		memcpy(ctx->rules.v, tmpl->rules.v,
		       tmpl->rules.n * sizeof(*ctx->rules.v));
		ctx->rules.n = ctx->rules.cap = tmpl->rules.n;
	}
	if (kvet_ctx_index_rules(ctx)) {
		kvet_ctx_destroy(ctx);
		return NULL;
	}
	return ctx;
}

KVET_API void kvet_ctx_destroy(struct kvet_ctx *ctx)
{
	size_t i;

	if (!ctx)
		return;
	for (i = 0; i < ctx->nunits; i++) {
		struct unit *u = &ctx->units[i];

		kvet_load_job_destroy(u->job);
		kvet_docs_release(&u->docs);
		kvet_objects_release(&u->objs);
		kvet_diag_release(&u->diag);
		kvet_arena_release(&u->arena);
		free(u->lines);
	}
	free(ctx->units);
	kvet_graph_destroy(ctx->graph);
	for (i = 0; i < ctx->n_unit_graphs; i++)
		kvet_graph_destroy(ctx->unit_graphs[i]);
	free(ctx->unit_graphs);
	free(ctx->chart_entries);
	drain_result_release(&ctx->drain.res);
	kvet_objects_release(&ctx->objects);
	kvet_findings_release(&ctx->findings);
	kvet_chart_map_destroy(ctx->lint.chart_map);
	kvet_rule_set_release(&ctx->rules);
	free(ctx->infos);
	free(ctx->states);
	free(ctx->settings);
	free(ctx->suppress);
	free(ctx->suppressed);
	free(ctx->lint.changed);
	free(ctx->lint.memo);
	free(ctx->custom_workloads);
	free(ctx->excludes);
	free(ctx->pool_labels);
	free(ctx->pool_taints);
	for (i = 0; i < KVET_GRAPH_LIST_COUNT; i++)
		free(ctx->graph_values[i]);
	kvet_sources_release(&ctx->srcs);
	kvet_diag_release(&ctx->path_diag);
	kvet_diag_release(&ctx->diag);
	kvet_arena_release(&ctx->arena);
	free(ctx);
}

/* Configured excludes apply to what a path expands to (srcs.excluded). */
KVET_API int kvet_ctx_add_path(struct kvet_ctx *ctx, const char *path)
{
	return kvet_sources_add_path(&ctx->srcs, &ctx->arena, &ctx->path_diag,
				     path);
}

KVET_API int kvet_ctx_add_default_input(struct kvet_ctx *ctx)
{
	return kvet_sources_add_default(&ctx->srcs, &ctx->arena,
					&ctx->path_diag,
					ctx->opts.max_file_size);
}

KVET_API int kvet_ctx_add_buffer(struct kvet_ctx *ctx, const char *name,
				 const char *data, size_t len)
{
	return kvet_sources_add_buffer(&ctx->srcs, &ctx->arena, name, data,
				       len);
}

KVET_API void kvet_ctx_set_chart_options(struct kvet_ctx *ctx,
					 const struct kvet_chart_options *o)
{
	struct kvet_render_opts *ro = &ctx->render;

	ro->helm = o->helm;
	ro->kustomize = o->kustomize;
	ro->release_name = o->release_name;
	ro->kube_version = o->kube_version;
	ro->api_versions = o->api_versions;
	ro->n_api_versions = o->api_versions ? o->n_api_versions : 0;
	ro->values = o->values;
	ro->n_values = o->values ? o->n_values : 0;
	/* the two structs are one shape: flag and value */
	_Static_assert(sizeof(struct kvet_render_set) ==
			       sizeof(struct kvet_chart_set) &&
		       offsetof(struct kvet_render_set, value) ==
			       offsetof(struct kvet_chart_set, value),
		       "kvet_chart_set and kvet_render_set differ");
	ro->sets = (const struct kvet_render_set *)o->sets;
	ro->n_sets = o->sets ? o->n_sets : 0;
	ro->no_matrix = o->no_matrix;
	ro->no_defaults = o->no_defaults;
	ctx->srcs.owners = o->owners;
}

static int join_units(struct kvet_ctx *ctx)
{
	size_t i, j;

	if (kvet_diag_append(&ctx->diag, &ctx->path_diag) < 0)
		return -1;
	for (i = 0; i < ctx->nunits; i++) {
		struct unit *u = &ctx->units[i];

		if (u->oom)
			return -1;
		if (kvet_diag_append(&ctx->diag, &u->diag) < 0)
			return -1;
		ctx->documents += u->docs.n + u->docs.skipped;
		ctx->skipped += u->objs.skipped;
		if (kvet_release_namespace(&ctx->arena, &ctx->diag, u->objs.v,
					   u->objs.n,
					   u->src->release_ns ? u->src->release_ns
					   : ctx->namespace_given
						   ? ctx->opts.default_namespace
						   : NULL,
					   ctx->opts.default_namespace) < 0)
			return -1;
		for (j = 0; j < u->objs.n; j++) {
			struct kvet_object *obj = u->objs.v[j];

			obj->seq = (uint32_t)ctx->objects.n;
			if (kvet_objects_push(&ctx->objects, obj) < 0)
				return -1;
		}
	}
	return 0;
}

static size_t unit_index(const struct kvet_ctx *ctx, const char *file)
{
	size_t i;

	for (i = 0; i < ctx->nunits; i++)
		if (ctx->units[i].src->name == file ||
		    strcmp(ctx->units[i].src->name, file) == 0)
			return i;
	return ctx->nunits;
}

/*
 * A directory named as an input that gave nothing to lint is probably a
 * mistake (a wrong path, a render that wrote nothing, an exclude that
 * covers too much): a warning, and an input error when objects are
 * required. Decided here, since the setting may come after the paths.
 */
static void report_empty_dirs(struct kvet_ctx *ctx)
{
	bool require = ctx->require_objects;
	size_t i;

	for (i = 0; i < ctx->srcs.n_empty; i++) {
		const struct kvet_empty_dir *e = &ctx->srcs.empty[i];
		const char *why = e->excluded
			? "the configuration excludes every *.yaml, *.yml and *.json file below it"
			: "the directory holds no *.yaml, *.yml or *.json file";

		if (require)
			kvet_diag_addf(&ctx->path_diag, e->path, 0, 0,
				       "no file to lint: %s", why);
		else
			kvet_diag_notef(&ctx->path_diag, KVET_NOTICE_WARNING,
					e->path, 0, 0, "no file to lint: %s",
					why);
	}
}

/*
 * What the graph read off the input that the user should know (1.1):
 * that it decided dump mode, and which duplicate objects it left out.
 */
void kvet_ctx_note_input_meaning(struct kvet_ctx *ctx)
{
	const struct kvet_object *cause = kvet_graph_dump_cause(ctx->graph);

	if (cause && !(kvet_graph_config(ctx->graph)->flags & KVET_GRAPH_DUMP))
		kvet_diag_notef(&ctx->diag, KVET_NOTICE_NOTE, cause->file,
				cause->line, cause->col,
				"the input is read as a cluster dump (complete, with observed state), because of %s %s%s%s: %s",
				cause->kind, cause->namespace,
				cause->namespace[0] ? "/" : "", cause->name,
				kvet_object_is(cause, "", "Node")
					? "a Node object"
				: (cause->flags & KVET_OBJ_BOUND_POD)
					? "a Pod bound to a node (spec.nodeName)"
					: "its status carries observed state");
	kvet_ctx_note_duplicates(ctx);
}

/* Is the text only blanks? (an empty render, or a pipe of newlines) */
static bool blank(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r')
			return false;
	return true;
}

/*
 * An empty standard input is most often a render that failed upstream of
 * the pipe (`helm template ... 2>/dev/null | kvet lint`): with
 * --require-objects, say that rather than that no input had an object.
 * Returns whether it was said.
 */
static bool report_empty_stdin(struct kvet_ctx *ctx)
{
	size_t i;

	for (i = 0; i < ctx->nunits; i++) {
		const struct kvet_source *src = ctx->units[i].src;

		if (!src->is_stdin || src->failed || !blank(src->buf, src->len))
			continue;
		/* without --require-objects, a 0-byte input is already an
		 * error of the loader, as for a file, and blanks are not */
		if (!ctx->require_objects)
			return false;
		kvet_diag_addf(&ctx->diag, src->name, 0, 0,
			       "standard input is empty: the render was empty (a failed helm template or kustomize build writes nothing to the pipe), and objects are required");
		return true;
	}
	return false;
}

KVET_API int kvet_ctx_run(struct kvet_ctx *ctx)
{
	struct kvet_graph_config cfg;
	size_t i;

	if (!ctx || ctx->ran)
		return -1;
	ctx->ran = true;
	kvet_ctx_check_suppress_names(ctx);
	kvet_ctx_pick_roots(ctx);
	if (kvet_ctx_order_units(ctx) < 0)
		return -1;
	ctx->nunits = ctx->srcs.n;
	ctx->units = calloc(ctx->nunits ? ctx->nunits : 1,
			    sizeof(*ctx->units));
	if (!ctx->units)
		return -1;
	for (i = 0; i < ctx->nunits; i++) {
		struct unit *u = &ctx->units[i];

		u->src = &ctx->srcs.v[i];
		kvet_arena_init(&u->arena);
		kvet_diag_init(&u->diag, &u->arena);
	}
	report_empty_dirs(ctx);
	kvet_ctx_load_all(ctx);
	if (join_units(ctx) < 0 || kvet_ctx_check_objects(ctx) < 0)
		return -1;
	kvet_ctx_check_ignore_names(ctx);
	kvet_ctx_report_empty_renders(ctx);
	/* an empty render must not pass a CI gate: "kvet: error: ..." */
	if (!report_empty_stdin(ctx) && ctx->require_objects &&
	    !ctx->objects.n)
		kvet_diag_addf(&ctx->diag, NULL, 0, 0,
			       "no Kubernetes object in any input, and objects are required");
	kvet_ctx_graph_config(ctx, &cfg);
	/* a drain installs everything it is given on one pool */
	if (ctx->srcs.units && !(ctx->opts.flags & KVET_CTX_DRAIN)) {
		if (kvet_ctx_lint_units(ctx, &cfg) < 0)
			return -1;
		kvet_ctx_keep_changed_diag(ctx);
		return ctx->diag.oom ? -1 : 0;
	}
	ctx->graph = kvet_graph_create(&ctx->arena, ctx->objects.v,
				       ctx->objects.n, &cfg);
	if (!ctx->graph)
		return -1;
	kvet_ctx_note_input_meaning(ctx);
	if (ctx->opts.flags & KVET_CTX_DRAIN) {
		if (kvet_ctx_run_drain(ctx) < 0)
			return -1;
	} else if (kvet_ctx_run_rules(ctx) < 0) {
		return -1;
	}
	kvet_ctx_keep_changed_diag(ctx);
	return ctx->diag.oom ? -1 : 0;
}

KVET_API size_t kvet_ctx_rule_count(const struct kvet_ctx *ctx)
{
	return ctx->n_infos;
}

KVET_API const struct kvet_rule_info *kvet_ctx_rule(const struct kvet_ctx *ctx,
						    size_t i)
{
	return i < ctx->n_infos ? ctx->infos[i] : NULL;
}

KVET_API const struct kvet_rule_info *kvet_ctx_rule_find(const struct kvet_ctx *ctx,
							 const char *id)
{
	size_t lo = 0, hi = ctx->n_infos;

	/* infos are sorted by id */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(ctx->infos[mid]->id, id);

		if (c == 0)
			return ctx->infos[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* After rule files were added: the index of rules, and a rule error for
 * every failure, so that no refused file goes unsaid. */
static int rules_added(struct kvet_ctx *ctx, int rc)
{
	if (kvet_ctx_index_rules(ctx) < 0) {
		kvet_diag_addf(&ctx->rules.diag, NULL, 0, 0,
			       "cannot index the rules: out of memory");
		return -1;
	}
	return rc;
}

KVET_API int kvet_ctx_add_rules_dir(struct kvet_ctx *ctx, const char *dir)
{
	return rules_added(ctx, kvet_rule_set_add_dir(&ctx->rules, dir));
}

KVET_API int kvet_ctx_add_rules_buffer(struct kvet_ctx *ctx, const char *name,
				       const char *data, size_t len)
{
	return rules_added(ctx, kvet_rule_set_add_buffer(&ctx->rules, name,
							 data, len));
}

/* What is left to say when memory ran out before an error was recorded. */
static const struct kvet_error unrecorded = {
	.message = "out of memory while loading the rules",
};

KVET_API size_t kvet_ctx_rule_error_count(const struct kvet_ctx *ctx)
{
	return ctx->rules.diag.n + (ctx->rules.diag.oom ? 1 : 0);
}

KVET_API const struct kvet_error *kvet_ctx_rule_error(const struct kvet_ctx *ctx,
						      size_t i)
{
	if (i < ctx->rules.diag.n)
		return &ctx->rules.diag.errors[i];
	return i == ctx->rules.diag.n && ctx->rules.diag.oom ? &unrecorded
							     : NULL;
}

KVET_API int kvet_ctx_set_param(struct kvet_ctx *ctx, const char *rule,
				const char *name, const char *value)
{
	return kvet_rule_set_param(&ctx->rules, rule, name, value);
}

KVET_API int kvet_ctx_set_rule_tolerate_errors(struct kvet_ctx *ctx,
					       const char *id, bool tolerate)
{
	bool all = strcmp(id, "*") == 0;
	size_t i;

	for (i = 0; i < ctx->rules.n; i++)
		if (all || strcmp(ctx->rules.v[i]->info.id, id) == 0)
			ctx->rules.v[i]->tolerate_errors = tolerate;
	/* the checks written in C have no expressions to fail */
	return all || kvet_ctx_rule_find(ctx, id) ||
	       kvet_rule_set_find(&ctx->rules, id) ? 0 : -1;
}

KVET_API int kvet_ctx_rule_write_markdown(const struct kvet_ctx *ctx,
					  const char *id, FILE *fp)
{
	/* a rule the settings switch off is still documented */
	const struct kvet_rule_info *info = kvet_ctx_rule_known(ctx, id);
	const struct kvet_rule *rule = kvet_rule_set_find(&ctx->rules, id);

	if (!info)
		return -1;
	/* a lean context compiles a built-in rule when it can run; its
	 * page shows the programs' text, which compiling fills in (the
	 * context is the caller's own, only const in this interface) */
	if (rule && rule->pending &&
	    kvet_rule_set_compile_rule((struct kvet_rule_set *)&ctx->rules,
				       (struct kvet_rule *)rule))
		return -1;
	return kvet_rule_write_markdown(info, rule, fp);
}

KVET_API size_t kvet_ctx_finding_count(const struct kvet_ctx *ctx)
{
	return ctx->findings.n;
}

KVET_API const struct kvet_finding *kvet_ctx_finding(const struct kvet_ctx *ctx,
						     size_t i)
{
	return i < ctx->findings.n ? &ctx->findings.v[i] : NULL;
}

KVET_API size_t kvet_ctx_error_count(const struct kvet_ctx *ctx)
{
	return ctx->ran ? ctx->diag.n : ctx->path_diag.n;
}

KVET_API const struct kvet_error *kvet_ctx_error(const struct kvet_ctx *ctx,
						 size_t i)
{
	const struct kvet_diag *d = ctx->ran ? &ctx->diag : &ctx->path_diag;

	return i < d->n ? &d->errors[i] : NULL;
}

KVET_API size_t kvet_ctx_notice_count(const struct kvet_ctx *ctx)
{
	return ctx->ran ? ctx->diag.n_notices : ctx->path_diag.n_notices;
}

KVET_API const struct kvet_notice *kvet_ctx_notice(const struct kvet_ctx *ctx,
						   size_t i)
{
	const struct kvet_diag *d = ctx->ran ? &ctx->diag : &ctx->path_diag;

	return i < d->n_notices ? &d->notices[i] : NULL;
}

KVET_API const char *kvet_notice_level_name(enum kvet_notice_level level)
{
	switch (level) {
	case KVET_NOTICE_WARNING:
		return "warning";
	case KVET_NOTICE_NOTE:
		break;
	case KVET_NOTICE_DETAIL:
		return "detail";
	}
	return "note";
}

KVET_API void kvet_ctx_summary(const struct kvet_ctx *ctx,
			       struct kvet_summary *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	out->files = ctx->nunits;
	out->documents = ctx->documents;
	out->objects = ctx->objects.n;
	out->skipped = ctx->skipped;
	for (i = 0; i < ctx->findings.n; i++)
		out->findings[ctx->findings.v[i].severity]++;
	for (i = 0; i < kvet_ctx_error_count(ctx); i++)
		if (!kvet_ctx_error(ctx, i)->rule)
			out->input_errors++;
	out->evaluation_errors = ctx->lint.rule_errors;
}

/*
 * An excerpt needs the start of one line. Keeping the offset of every
 * line cost 8 bytes a line, 2.37 GB for 256 MB of blank lines with one
 * error in them, and a memchr() a line to build. What is kept is the
 * number of line breaks before each KVET_LINE_CHUNK bytes, counted a
 * chunk at a time (vectorised); a line is found from the chunk before it
 * with memchr(), over at most a chunk's lines and the line itself.
 */
#define KVET_LINE_CHUNK ((size_t)64 * 1024)

static int index_lines(struct unit *u)
{
	const char *buf = u->src->buf;
	size_t len = u->src->len, n = len / KVET_LINE_CHUNK + 1, k, total = 0;
	size_t *lines = malloc(n * sizeof(*lines));

	if (!lines)
		return -1;
	for (k = 0; k < n; k++) {
		size_t at = k * KVET_LINE_CHUNK;
		size_t step = len - at < KVET_LINE_CHUNK ? len - at
							  : KVET_LINE_CHUNK;

		lines[k] = total;
		total += kvet_count_lines(buf + at, step);
	}
	u->lines = lines;
	u->nchunks = n;
	u->nlines = total + 1;
	return 0;
}

/* The offset of line @line (1-based, at most u->nlines). */
static size_t line_start(const struct unit *u, size_t line)
{
	const char *buf = u->src->buf, *nl;
	size_t lo = 0, hi = u->nchunks, mid, p, skip;

	if (line == 1)
		return 0;
	/* the last chunk with fewer than line - 1 breaks before it */
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (u->lines[mid] < line - 1)
			lo = mid;
		else
			hi = mid;
	}
	p = lo * KVET_LINE_CHUNK;
	for (skip = line - 1 - u->lines[lo]; skip; skip--) {
		nl = memchr(buf + p, '\n', u->src->len - p);
		p = (size_t)(nl - buf) + 1;
	}
	return p;
}

KVET_API const char *kvet_ctx_source_line(const struct kvet_ctx *ctx,
					  const char *file, unsigned int line,
					  size_t *len)
{
	size_t i = unit_index(ctx, file), start, end;
	const char *buf, *nl;
	struct unit *u;

	if (i == ctx->nunits)
		return kvet_chart_map_line(ctx->lint.chart_map, file, line, len);
	if (!line)
		return NULL;
	u = &ctx->units[i];
	buf = u->src->buf;
	if (!buf)
		return NULL;
	/* the context is logically const: the index is a cache */
	if (!u->lines && index_lines(u) < 0)
		return NULL;
	if (line > u->nlines)
		return NULL;
	start = line_start(u, line);
	nl = memchr(buf + start, '\n', u->src->len - start);
	end = nl ? (size_t)(nl - buf) : u->src->len;
	if (end > start && buf[end - 1] == '\r')
		end--;
	*len = end - start;
	return buf + start;
}

KVET_API enum kvet_exit kvet_ctx_exit_code(const struct kvet_ctx *ctx,
					   enum kvet_severity fail_on,
					   bool fail_never)
{
	size_t i;

	for (i = 0; i < kvet_ctx_error_count(ctx); i++)
		if (!kvet_ctx_error(ctx, i)->tolerated)
			return KVET_EXIT_INPUT;
	for (i = 0; i < ctx->findings.n; i++)
		if (kvet_finding_fails(&ctx->findings.v[i], fail_on,
				       fail_never))
			return KVET_EXIT_FINDINGS;
	return KVET_EXIT_OK;
}

KVET_API size_t kvet_ctx_object_count(const struct kvet_ctx *ctx)
{
	return ctx->objects.n;
}

KVET_API int kvet_ctx_object(const struct kvet_ctx *ctx, size_t i,
			     struct kvet_object_ref *out)
{
	if (i >= ctx->objects.n) {
		memset(out, 0, sizeof(*out));
		return -1;
	}
	kvet_object_ref_set(out, ctx->objects.v[i]);
	return 0;
}

/*
 * Which objects a rule looks at. Built-in checks written in C look at
 * every linted object (the roll at what it can stall on); a rule file at
 * those its `match` selects.
 */
static bool rule_matches(const struct kvet_ctx *ctx,
			 const struct kvet_rule_info *rule,
			 const struct kvet_object *obj)
{
	const struct kvet_rule *r = kvet_rule_set_find(&ctx->rules, rule->id);

	if (!strcmp(rule->id, KVET_RULE_ROLL))
		return kvet_ctx_roll_applies(ctx, obj);
	return r ? kvet_rule_matches(r, obj, ctx->custom_workloads,
				     ctx->n_custom_workloads)
		 : true;
}

KVET_API bool kvet_ctx_rule_applies(const struct kvet_ctx *ctx,
				    const char *rule_id, size_t object_index)
{
	const struct kvet_rule_info *rule;
	const struct kvet_object *obj;

	if (!rule_id || object_index >= ctx->objects.n)
		return false;
	rule = kvet_ctx_rule_find(ctx, rule_id);
	obj = ctx->objects.v[object_index];
	/* kvet_ctx_run_rules() skips Helm test hooks: nothing is evaluated on them */
	if (!rule || (obj->flags & KVET_OBJ_HELM_TEST))
		return false;
	return rule_matches(ctx, rule, obj);
}

KVET_API size_t kvet_ctx_suppressed_count(const struct kvet_ctx *ctx)
{
	return ctx->n_suppressed;
}

KVET_API const struct kvet_suppressed *
kvet_ctx_suppressed(const struct kvet_ctx *ctx, size_t i)
{
	return i < ctx->n_suppressed ? &ctx->suppressed[i] : NULL;
}
