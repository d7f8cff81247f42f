/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What teams tune: rules switched on and off, severities, parameters,
 * suppressions (annotations, configuration, baseline) and the lists that
 * tune the shared definitions. The configuration file and the command
 * line both come here, in that order, so the command line wins.
 */
#include "api/context.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "base/vec.h"
#include "model/quantity.h"

static bool builtin_checks_on(const struct kvet_ctx *ctx)
{
	return !(ctx->opts.flags & KVET_CTX_NO_BUILTIN_RULES);
}

static int cmp_state(const void *a, const void *b)
{
	return strcmp(((const struct kvet_rule_state *)a)->info.id,
		      ((const struct kvet_rule_state *)b)->info.id);
}

/* The state of rule @id, or NULL when the context has no such rule. */
static struct kvet_rule_state *state_of(const struct kvet_ctx *ctx,
					const char *id)
{
	struct kvet_rule_state key;

	key.info.id = id;
	if (!ctx->n_states)
		return NULL;
	return bsearch(&key, ctx->states, ctx->n_states, sizeof(key),
		       cmp_state);
}

static bool rule_exists(const struct kvet_ctx *ctx, const char *id)
{
	return strcmp(id, "*") == 0 || state_of(ctx, id);
}

static void set_state(struct kvet_rule_state *st,
		      const struct kvet_rule_setting *s)
{
	if (s->enabled >= 0)
		st->on = s->enabled;
	if (s->severity >= 0) {
		st->severity = s->severity;
		st->info.severity = (enum kvet_severity)s->severity;
	}
}

/*
 * One setting costs one lookup ("*": one pass over the rules), never a
 * replay of the settings before it: a configuration that names a rule
 * 20,000 times is read in linear time.
 */
static void apply_setting(struct kvet_ctx *ctx,
			  const struct kvet_rule_setting *s)
{
	struct kvet_rule_state *st;
	size_t i;

	if (strcmp(s->id, "*") == 0) {
		for (i = 0; i < ctx->n_states; i++)
			set_state(&ctx->states[i], s);
		return;
	}
	st = state_of(ctx, s->id);
	if (st)
		set_state(st, s);
}

/*
 * Where reports link a rule: the team's copy of docs/rules/ when a docs
 * URL is set, else the upstream page the rule cites first, never a site
 * the project does not own. Returns -1 when out of memory.
 */
static int set_help_uri(struct kvet_ctx *ctx, struct kvet_rule_info *info)
{
	info->help_uri = info->n_references ? info->references[0] : NULL;
	if (!ctx->docs_url)
		return 0;
	info->help_uri = kvet_arena_printf(&ctx->arena, "%s/%s.md",
					   ctx->docs_url, info->id);
	return info->help_uri ? 0 : -1;
}

/*
 * The sorted list of enabled rules; a disabled rule file is not run. A
 * drain context runs only its drain checks: its rule files are there for
 * the settings that name them.
 */
static void publish(struct kvet_ctx *ctx)
{
	bool drain = ctx->opts.flags & KVET_CTX_DRAIN;
	unsigned int command = drain ? KVET_RULE_IN_DRAIN : KVET_RULE_IN_LINT;
	size_t i, n = 0;

	for (i = 0; i < ctx->n_states; i++) {
		struct kvet_rule_state *st = &ctx->states[i];

		if (st->rule)
			st->rule->disabled = !st->on || drain;
		st->info.disabled = !st->on;
		if (st->on && (st->info.commands & command))
			ctx->infos[n++] = &st->info;
	}
	ctx->n_infos = n;
}

KVET_API unsigned int kvet_ctx_flags(const struct kvet_ctx *ctx)
{
	return ctx->opts.flags;
}

KVET_API size_t kvet_ctx_rule_all_count(const struct kvet_ctx *ctx)
{
	return ctx->n_states;
}

KVET_API const struct kvet_rule_info *kvet_ctx_rule_all(const struct kvet_ctx *ctx,
							size_t i)
{
	return i < ctx->n_states ? &ctx->states[i].info : NULL;
}

KVET_API const char *kvet_ctx_rule_suggest(const struct kvet_ctx *ctx,
					   const char *id)
{
	const char **ids = malloc((ctx->n_states + 1) * sizeof(*ids));
	const char *best;
	size_t i;

	if (!ids)
		return NULL;
	for (i = 0; i < ctx->n_states; i++)
		ids[i] = ctx->states[i].info.id;
	best = kvet_suggest(id, ids, ctx->n_states);
	free(ids);
	return best;
}

KVET_API int kvet_ctx_set_docs_url(struct kvet_ctx *ctx, const char *base)
{
	size_t i, len = base ? strlen(base) : 0;

	while (len && base[len - 1] == '/')
		len--;
	if (len && strncmp(base, "https://", 8) && strncmp(base, "http://", 7))
		return -1;
	ctx->docs_url = len ? kvet_arena_strndup(&ctx->arena, base, len)
			    : NULL;
	if (len && !ctx->docs_url)
		return -1;
	for (i = 0; i < ctx->n_states; i++)
		if (set_help_uri(ctx, &ctx->states[i].info) < 0)
			return -1;
	return 0;
}

KVET_API const char *kvet_ctx_docs_url(const struct kvet_ctx *ctx)
{
	return ctx->docs_url;
}

const struct kvet_rule_info *kvet_ctx_rule_known(const struct kvet_ctx *ctx,
						 const char *id)
{
	const struct kvet_rule_state *st = state_of(ctx, id);

	return st ? &st->info : NULL;
}

bool kvet_ctx_rule_disabled(const struct kvet_ctx *ctx, const char *id)
{
	const struct kvet_rule_state *st = state_of(ctx, id);

	return st && !st->on;
}

/*
 * The C checks a context knows: all of them, or with the built-in rules
 * switched off only the drain's, in a drain context, where they are what
 * it reports. A lint context knows the drain checks too, so that kvet
 * rules and kvet explain list them, and one configuration file can tune
 * both commands. Returns their number, writing them to @out.
 */
static size_t known_checks(const struct kvet_ctx *ctx,
			   const struct kvet_check **out)
{
	const struct kvet_check *c;
	size_t i, n, k = 0;

	c = kvet_checks(&n);
	for (i = 0; i < n; i++)
		if (builtin_checks_on(ctx) ||
		    (c[i].stage == KVET_CHECK_BY_DRAIN &&
		     (ctx->opts.flags & KVET_CTX_DRAIN)))
			out[k++] = &c[i];
	return k;
}

int kvet_ctx_index_rules(struct kvet_ctx *ctx)
{
	const struct kvet_check *c[KVET_MAX_C_CHECKS];
	size_t i, nc = known_checks(ctx, c);
	size_t n = nc + ctx->rules.n;
	const struct kvet_rule_info **v;
	struct kvet_rule_state *states;

	kvet_rule_set_sort(&ctx->rules);
	v = malloc((n + 1) * sizeof(*v));
	states = calloc(n + 1, sizeof(*states));
	if (!v || !states) {
		free(v);
		free(states);
		return -1;
	}
	for (i = 0; i < n; i++) {
		states[i].rule = i < nc ? NULL : ctx->rules.v[i - nc];
		states[i].info = i < nc ? *c[i]->info : states[i].rule->info;
		if (states[i].rule)
			states[i].info.commands = KVET_RULE_IN_LINT;
		states[i].on = true;
		states[i].severity = -1;
		if (set_help_uri(ctx, &states[i].info) < 0) {
			free(v);
			free(states);
			return -1;
		}
	}
	qsort(states, n, sizeof(*states), cmp_state);
	free(ctx->infos);
	free(ctx->states);
	ctx->infos = v;
	ctx->states = states;
	ctx->n_states = n;
	/* rules added after the settings get them too */
	for (i = 0; i < ctx->n_settings; i++)
		apply_setting(ctx, &ctx->settings[i]);
	publish(ctx);
	return 0;
}

static int add_setting(struct kvet_ctx *ctx, const char *id, int enabled,
		       int severity)
{
	struct kvet_rule_setting *s;

	if (!rule_exists(ctx, id))
		return -1;
	if (!kvet_vec_grow((void **)&ctx->settings, &ctx->cap_settings,
			   ctx->n_settings + 1, sizeof(*ctx->settings)))
		return -1;
	s = &ctx->settings[ctx->n_settings];
	s->id = kvet_arena_strdup(&ctx->arena, id);
	if (!s->id)
		return -1;
	s->enabled = enabled;
	s->severity = severity;
	ctx->n_settings++;
	apply_setting(ctx, s);
	publish(ctx);
	return 0;
}

KVET_API int kvet_ctx_set_rule_enabled(struct kvet_ctx *ctx, const char *id,
				       bool enabled)
{
	return add_setting(ctx, id, enabled ? 1 : 0, -1);
}

KVET_API int kvet_ctx_set_rule_severity(struct kvet_ctx *ctx, const char *id,
					enum kvet_severity sev)
{
	return add_setting(ctx, id, -1, (int)sev);
}

KVET_API int kvet_severity_from_name(const char *name,
				     enum kvet_severity *out)
{
	static const char *const names[KVET_SEV_COUNT] = {
		[KVET_SEV_INFO] = "info",
		[KVET_SEV_WARNING] = "warning",
		[KVET_SEV_ERROR] = "error",
	};
	int i;

	for (i = 0; i < KVET_SEV_COUNT; i++)
		if (strcmp(names[i], name) == 0) {
			*out = (enum kvet_severity)i;
			return 0;
		}
	return -1;
}

static const char *dup_or_null(struct kvet_ctx *ctx, const char *s, bool *oom)
{
	const char *copy;

	if (!s)
		return NULL;
	copy = kvet_arena_strdup(&ctx->arena, s);
	if (!copy)
		*oom = true;
	return copy;
}

KVET_API int kvet_ctx_suppress(struct kvet_ctx *ctx, const char *rule,
			       const char *kind, const char *namespace,
			       const char *name, const char *justification)
{
	struct kvet_suppress_entry *e;
	bool oom = false;

	if (!kvet_vec_grow((void **)&ctx->suppress, &ctx->cap_suppress,
			   ctx->n_suppress + 1, sizeof(*ctx->suppress)))
		return -1;
	e = &ctx->suppress[ctx->n_suppress];
	memset(e, 0, sizeof(*e));
	e->rule = dup_or_null(ctx, rule, &oom);
	e->kind = dup_or_null(ctx, kind, &oom);
	e->namespace = dup_or_null(ctx, namespace, &oom);
	e->name = dup_or_null(ctx, name, &oom);
	e->reason = dup_or_null(ctx, justification, &oom);
	if (oom)
		return -1;
	ctx->n_suppress++;
	return 0;
}

KVET_API int kvet_ctx_load_baseline(struct kvet_ctx *ctx, const char *path)
{
	path = kvet_arena_strdup(&ctx->arena, path);
	if (!path)
		return -1;
	if (kvet_baseline_load(&ctx->baseline, &ctx->rules.arena,
			       &ctx->rules.diag, path) < 0)
		return -1;
	ctx->have_baseline = true;
	/* the fingerprints of version 1 hashed messages whose words have
	 * changed since: say how to get exact matching back */
	if (ctx->baseline.version == 1)
		kvet_diag_notef(&ctx->path_diag, KVET_NOTICE_NOTE, path,
				ctx->baseline.version_line, 1,
				"this baseline (version 1) is from before findings had headlines: an entry that matches no finding exactly accepts one finding of its rule on its object; once the run shows only what you accept, `kvet lint --write-baseline %s` rewrites it in version 3",
				path);

	return 0;
}

KVET_API int kvet_ctx_write_baseline(const struct kvet_ctx *ctx, FILE *fp)
{
	struct kvet_finding *all;
	size_t i, n = 0;
	int ret;

	all = malloc((ctx->findings.n + ctx->n_suppressed + 1) * sizeof(*all));
	if (!all)
		return -1;
	for (i = 0; i < ctx->findings.n; i++)
		all[n++] = ctx->findings.v[i];
	for (i = 0; i < ctx->n_suppressed; i++)
		if (strcmp(ctx->suppressed[i].reason, "baseline") == 0)
			all[n++] = ctx->suppressed[i].finding;
	ret = kvet_baseline_write(all, n, fp);
	free(all);
	return ret;
}

KVET_API bool kvet_ctx_baseline_loaded(const struct kvet_ctx *ctx)
{
	return ctx->have_baseline;
}

KVET_API size_t kvet_ctx_baseline_stale_count(const struct kvet_ctx *ctx)
{
	return ctx->n_stale;
}

KVET_API int kvet_ctx_baseline_stale(const struct kvet_ctx *ctx, size_t i,
				     struct kvet_baseline_stale *out)
{
	const struct kvet_baseline_entry *e;

	memset(out, 0, sizeof(*out));
	if (i >= ctx->n_stale)
		return -1;
	e = ctx->stale[i];
	out->rule = e->rule;
	out->kind = e->kind;
	out->namespace = e->namespace;
	out->name = e->name;
	out->message = e->message;
	out->pos.file = ctx->baseline.path;
	out->pos.line = e->line;
	out->pos.column = 1;
	return 0;
}

/* The entries no finding used, in file order: renderers ask for each by
 * index, so that must not be a scan. */
static int list_stale(struct kvet_ctx *ctx)
{
	size_t i;

	ctx->stale = kvet_arena_array(&ctx->arena, ctx->baseline.n + 1,
				      sizeof(*ctx->stale));
	if (!ctx->stale)
		return -1;
	for (i = 0; i < ctx->baseline.n; i++)
		if (!ctx->baseline.v[i].used)
			ctx->stale[ctx->n_stale++] = &ctx->baseline.v[i];
	/* version 2 hashed headlines, which can quote what else was linted
	 * (the pool's node where a roll stalls): say so only when an entry
	 * held a finding back by its rule and object alone */
	if (ctx->baseline.version == 2 && ctx->baseline.loose)
		kvet_diag_notef(&ctx->diag, KVET_NOTICE_NOTE,
				ctx->baseline.path, ctx->baseline.version_line,
				1,
				"this baseline (version 2) hashed headlines: %zu of its entries matched no finding exactly, and each accepted one finding of its rule on its object; once the run shows only what you accept, `kvet lint --write-baseline %s` rewrites it in version 3, whose fingerprints no other input changes",
				ctx->baseline.loose, ctx->baseline.path);
	return 0;
}

KVET_API int kvet_ctx_add_graph_value(struct kvet_ctx *ctx,
				      enum kvet_graph_list list,
				      const char *value)
{
	size_t n;

	if ((unsigned int)list >= KVET_GRAPH_LIST_COUNT)
		return -1;
	n = ctx->n_graph_values[list];
	if (!kvet_vec_grow((void **)&ctx->graph_values[list],
			   &ctx->cap_graph_values[list], n + 1,
			   sizeof(*ctx->graph_values[list])))
		return -1;
	ctx->graph_values[list][n] = kvet_arena_strdup(&ctx->arena, value);
	if (!ctx->graph_values[list][n])
		return -1;
	ctx->n_graph_values[list] = n + 1;
	return 0;
}

KVET_API int kvet_ctx_replace_graph_values(struct kvet_ctx *ctx,
					   enum kvet_graph_list list)
{
	if ((unsigned int)list >= KVET_GRAPH_LIST_COUNT)
		return -1;
	ctx->graph_replace[list] = true;
	ctx->n_graph_values[list] = 0;
	return 0;
}

/* "spec.template" as the keys "spec", "template"; NULL when empty. */
static const char *const *split_path(struct kvet_arena *arena,
				     const char *path, size_t *n)
{
	const char **keys;
	const char *p, *dot;
	size_t count = 1, i = 0;

	if (!path || !*path)
		return NULL;
	for (p = path; *p; p++)
		count += *p == '.';
	keys = kvet_arena_array(arena, count, sizeof(*keys));
	if (!keys)
		return NULL;
	for (p = path; p; p = dot ? dot + 1 : NULL) {
		dot = strchr(p, '.');
		keys[i] = kvet_arena_strndup(arena, p,
					     dot ? (size_t)(dot - p) : strlen(p));
		if (!keys[i] || !*keys[i])
			return NULL;
		i++;
	}
	*n = count;
	return keys;
}

KVET_API int kvet_ctx_add_workload_kind(struct kvet_ctx *ctx,
					const char *api_version,
					const char *kind,
					const char *pod_template,
					const char *replicas)
{
	struct kvet_custom_workload *w;
	const char *slash = strchr(api_version, '/');

	if (!kvet_vec_grow((void **)&ctx->custom_workloads,
			   &ctx->cap_custom_workloads,
			   ctx->n_custom_workloads + 1,
			   sizeof(*ctx->custom_workloads)))
		return -1;
	w = &ctx->custom_workloads[ctx->n_custom_workloads];
	memset(w, 0, sizeof(*w));
	w->group = kvet_arena_strndup(&ctx->arena, api_version,
				      slash ? (size_t)(slash - api_version) : 0);
	w->kind = kvet_arena_strdup(&ctx->arena, kind);
	w->template_path = split_path(&ctx->arena, pod_template,
				      &w->n_template_path);
	if (replicas) {
		w->replicas_path = split_path(&ctx->arena, replicas,
					      &w->n_replicas_path);
		if (!w->replicas_path)
			return -1;
	}
	if (!w->group || !w->kind || !w->template_path)
		return -1;
	ctx->n_custom_workloads++;
	return 0;
}

static void set_names(struct kvet_name_list *l, const struct kvet_ctx *ctx,
		      enum kvet_graph_list list)
{
	l->v = ctx->graph_values[list];
	l->n = ctx->n_graph_values[list];
	l->replace = ctx->graph_replace[list];
}

void kvet_ctx_graph_config(const struct kvet_ctx *ctx,
			   struct kvet_graph_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	if (ctx->opts.flags & KVET_CTX_COMPLETE_INPUT)
		cfg->flags |= KVET_GRAPH_COMPLETE;
	set_names(&cfg->spread_keys, ctx, KVET_GRAPH_SPREADING_KEYS);
	set_names(&cfg->manager_components, ctx,
		  KVET_GRAPH_MANAGER_COMPONENTS);
	set_names(&cfg->shared_keys, ctx, KVET_GRAPH_SHARED_LABEL_KEYS);
	cfg->custom_workloads = ctx->custom_workloads;
	cfg->n_custom_workloads = ctx->n_custom_workloads;
}

KVET_API int kvet_ctx_set_namespace(struct kvet_ctx *ctx, const char *ns)
{
	const char *copy = kvet_arena_strdup(&ctx->arena, ns);

	if (!copy)
		return -1;
	ctx->opts.default_namespace = copy;
	ctx->namespace_given = true;
	return 0;
}

KVET_API void kvet_ctx_set_complete_input(struct kvet_ctx *ctx, bool on)
{
	if (on)
		ctx->opts.flags |= KVET_CTX_COMPLETE_INPUT;
	else
		ctx->opts.flags &= ~(unsigned int)KVET_CTX_COMPLETE_INPUT;
}

KVET_API void kvet_ctx_set_require_objects(struct kvet_ctx *ctx, bool on)
{
	ctx->require_objects = on;
}

KVET_API void kvet_ctx_set_max_input_size(struct kvet_ctx *ctx, size_t bytes)
{
	ctx->opts.max_file_size = bytes ? bytes : KVET_INPUT_SIZE_DEFAULT;
}

KVET_API int kvet_input_parse_size(const char *s, size_t *out)
{
	struct kvet_slice sl = kvet_slice_of(s);
	int64_t bytes, milli;

	/* Quantity.Value() rounds up, so 0.5 or 100m would be 1 byte: a
	 * size that is not whole bytes is a mistake, not a tiny limit */
	if (!kvet_quantity_scaled(sl, 0, &bytes) || bytes < 1 ||
	    (uint64_t)bytes > KVET_INPUT_SIZE_MAX ||
	    !kvet_quantity_scaled(sl, 3, &milli) || milli != bytes * 1000)
		return -1;
	*out = (size_t)bytes;
	return 0;
}

KVET_API int kvet_ctx_add_exclude(struct kvet_ctx *ctx, const char *glob)
{
	const char *copy = kvet_arena_strdup(&ctx->arena, glob);

	if (!copy || !kvet_vec_grow((void **)&ctx->excludes,
				    &ctx->cap_excludes, ctx->n_excludes + 1,
				    sizeof(*ctx->excludes)))
		return -1;
	ctx->excludes[ctx->n_excludes++] = copy;
	return 0;
}

bool kvet_ctx_excluded(const struct kvet_ctx *ctx, const char *path)
{
	const char *p;
	size_t i;

	for (i = 0; i < ctx->n_excludes; i++)
		for (p = path; p; p = strchr(p, '/') ? strchr(p, '/') + 1 : NULL)
			if (fnmatch(ctx->excludes[i], p, 0) == 0)
				return true;
	return false;
}

/*
 * Does @match accept a rule of the context, or a built-in one? Manifests
 * annotated for the built-in rules stay free of warnings when a run
 * leaves them out (--no-builtin-rules).
 */
static bool any_rule(const struct kvet_ctx *ctx,
		     bool (*match)(const char *id, const void *arg),
		     const void *arg)
{
	const struct kvet_check *c;
	char id[256];
	size_t i, len, nc;

	for (i = 0; i < ctx->n_states; i++)
		if (match(ctx->states[i].info.id, arg))
			return true;
	c = kvet_checks(&nc);
	for (i = 0; i < nc; i++)
		if (match(c[i].info->id, arg))
			return true;
	for (i = 0; i < kvet_builtin_rule_file_count; i++) {
		/* "rules/ID.yaml" */
		const char *name = kvet_builtin_rule_files[i].name;
		const char *base = strrchr(name, '/');

		base = base ? base + 1 : name;
		len = strlen(base);
		if (len < 5 || len - 5 >= sizeof(id))
			continue;
		memcpy(id, base, len - 5);
		id[len - 5] = '\0';
		if (match(id, arg))
			return true;
	}
	return false;
}

static bool same_id(const char *id, const void *arg)
{
	return strcmp(id, arg) == 0;
}

static bool glob_matches(const char *id, const void *arg)
{
	return fnmatch(arg, id, 0) == 0;
}

static bool known_rule(const void *ctx, const char *id)
{
	return state_of(ctx, id) || any_rule(ctx, same_id, id);
}

void kvet_ctx_check_suppress_names(struct kvet_ctx *ctx)
{
	size_t i;

	for (i = 0; i < ctx->n_suppress; i++) {
		const struct kvet_suppress_entry *e = &ctx->suppress[i];

		if (!e->rule || any_rule(ctx, glob_matches, e->rule))
			continue;
		kvet_diag_notef(&ctx->path_diag, KVET_NOTICE_WARNING,
				e->pos.file, e->pos.line, e->pos.column,
				"rule \"%s\" of this suppress entry matches no rule, so the entry suppresses nothing (kvet rules lists the rules)",
				e->rule);
	}
}

void kvet_ctx_check_ignore_names(struct kvet_ctx *ctx)
{
	size_t i;

	for (i = 0; i < ctx->objects.n; i++)
		kvet_ignore_check(ctx->objects.v[i], known_rule, ctx,
				  &ctx->diag);
}

static int hold_back(struct kvet_ctx *ctx, const struct kvet_finding *f,
		     const char *reason, const char *justification)
{
	struct kvet_suppressed *s;

	if (!kvet_vec_grow((void **)&ctx->suppressed, &ctx->cap_suppressed,
			   ctx->n_suppressed + 1, sizeof(*ctx->suppressed)))
		return -1;
	s = &ctx->suppressed[ctx->n_suppressed++];
	s->finding = *f;
	s->reason = reason;
	s->justification = justification;
	return 0;
}

/* Why the annotations or the suppress: entries hold @f back, or NULL. */
static const char *suppressed_by_settings(struct kvet_ctx *ctx,
					  const struct kvet_object *obj,
					  const struct kvet_finding *f,
					  const char **justification)
{
	size_t i;

	if (obj && kvet_suppressed_by_annotation(&ctx->arena, obj, f->rule,
						 justification))
		return "annotation";
	for (i = 0; i < ctx->n_suppress; i++)
		if (kvet_suppress_entry_matches(&ctx->suppress[i], f)) {
			*justification = ctx->suppress[i].reason;
			return "config";
		}
	*justification = NULL;
	return NULL;
}

/* Why @f is held back, or NULL when it is reported. */
static const char *suppression(struct kvet_ctx *ctx, const struct kvet_object *obj,
			       const struct kvet_finding *f,
			       const char **justification)
{
	const char *by = suppressed_by_settings(ctx, obj, f, justification);

	if (by)
		return by;
	if (ctx->have_baseline && kvet_baseline_match(&ctx->baseline, f))
		return "baseline";
	return NULL;
}

bool kvet_ctx_finding_kept(struct kvet_ctx *ctx, size_t i,
			   enum kvet_severity *sev)
{
	const struct kvet_finding *f = &ctx->findings.v[i];
	const struct kvet_rule_state *st = state_of(ctx, f->rule);
	const char *why;

	*sev = st && st->severity >= 0 ? (enum kvet_severity)st->severity
				       : f->severity;
	if (st && !st->on)
		return false;
	return !suppressed_by_settings(ctx, ctx->findings.meta[i].obj, f, &why);
}

int kvet_ctx_apply_settings(struct kvet_ctx *ctx)
{
	struct kvet_findings *fs = &ctx->findings;
	size_t i, out = 0;

	for (i = 0; i < fs->n; i++) {
		struct kvet_finding *f = &fs->v[i];
		const struct kvet_rule_state *st = state_of(ctx, f->rule);
		const char *reason, *why;

		if ((st && !st->on) || !kvet_ctx_concerns_change(ctx, f))
			continue;
		/* an override wins over the rule's own, even a computed one */
		if (st && st->severity >= 0)
			f->severity = (enum kvet_severity)st->severity;
		reason = suppression(ctx, fs->meta[i].obj, f, &why);
		if (reason) {
			if (hold_back(ctx, f, reason, why) < 0)
				return -1;
			continue;
		}
		fs->v[out] = *f;
		fs->meta[out] = fs->meta[i];
		out++;
	}
	fs->n = out;
	/* around a change, the entries of other files matched nothing
	 * because their findings were left out, not because they are gone */
	return ctx->have_baseline && !ctx->lint.changed_mode ? list_stale(ctx) : 0;
}
