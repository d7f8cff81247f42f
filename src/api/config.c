/* SPDX-License-Identifier: Apache-2.0 */
/*
 * .kvet.yaml: read strictly (a misspelt key is an error at its line and
 * column, never ignored) and applied through the same setters the command
 * line uses. docs/configuration.md documents every key.
 */
#include "api/context.h"
#include "api/config_charts.h"

#include <string.h>

#include "load/strict.h"

static const char *const top_keys[] = {
	"rules", "suppress", "exclude", "namespace", "completeInput",
	"requireObjects", "maxInputSize", "spreadingTopologyKeys",
	"managerComponents", "sharedLabelKeys", "workloads", "docsUrl", "pool",
	"charts",
	NULL,
};
static const char *const rules_keys[] = { "enable", "disable", "severity",
					  "params", "tolerateErrors", NULL };
static const char *const suppress_keys[] = { "rule", "kind", "namespace",
					     "name", "reason", NULL };
static const char *const workload_keys[] = { "apiVersion", "kind",
					     "podTemplate", "replicas", NULL };
static const char *const pool_keys[] = { "size", "nodeCPU", "nodeMemory",
					 "nodePods", "nodeLabels", "nodeTaints",
					 "maxUnavailable", "surge", NULL };

/* A rule id the context knows ("*" too when @star), else an error. */
static const char *rule_id(struct kvet_strict *s, struct kvet_ctx *ctx,
			   const struct kvet_node *n, bool star)
{
	const char *id = kvet_strict_string(s, n, "a rule id"), *near;

	if (!id)
		return NULL;
	if ((star && strcmp(id, "*") == 0) ||
	    kvet_ctx_rule_known(ctx, id))
		return id;
	near = kvet_ctx_rule_suggest(ctx, id);
	if (near)
		kvet_strict_errorf(s, n, "unknown rule \"%s\" (did you mean \"%s\"?)",
				   id, near);
	else
		kvet_strict_errorf(s, n, "unknown rule \"%s\" (kvet rules lists them)",
				   id);
	return NULL;
}

static void apply_enable(struct kvet_strict *s, struct kvet_ctx *ctx,
			 const struct kvet_node *list, bool on)
{
	uint32_t i;

	if (!list)
		return;
	if (!kvet_node_is_seq(list)) {
		kvet_strict_errorf(s, list, "rules.%s must be a list of rule ids",
				   on ? "enable" : "disable");
		return;
	}
	for (i = 0; i < list->len; i++) {
		const char *id = rule_id(s, ctx, &list->u.items[i], true);

		if (id && kvet_ctx_set_rule_enabled(ctx, id, on) < 0)
			kvet_strict_errorf(s, &list->u.items[i], "out of memory");
	}
}

static void apply_severity(struct kvet_strict *s, struct kvet_ctx *ctx,
			   const struct kvet_node *map)
{
	enum kvet_severity sev;
	uint32_t i;

	if (!map)
		return;
	if (!kvet_node_is_map(map)) {
		kvet_strict_errorf(s, map, "rules.severity must map rule ids to error, warning or info");
		return;
	}
	for (i = 0; i < map->len; i++) {
		const struct kvet_pair *p = &map->u.pairs[i];
		const char *id = rule_id(s, ctx, &p->key, true);
		const char *level = kvet_strict_string(s, &p->value, "a severity");

		if (!id || !level)
			continue;
		if (kvet_severity_from_name(level, &sev) < 0) {
			kvet_strict_errorf(s, &p->value,
					   "unknown severity \"%s\" (expected error, warning or info)",
					   level);
			continue;
		}
		if (kvet_ctx_set_rule_severity(ctx, id, sev) < 0)
			kvet_strict_errorf(s, &p->value, "out of memory");
	}
}

static void apply_params(struct kvet_strict *s, struct kvet_ctx *ctx,
			 const struct kvet_node *map)
{
	uint32_t i, j;

	if (!map)
		return;
	if (!kvet_node_is_map(map)) {
		kvet_strict_errorf(s, map, "rules.params must map rule ids to parameters");
		return;
	}
	for (i = 0; i < map->len; i++) {
		const struct kvet_pair *p = &map->u.pairs[i];
		const char *id = rule_id(s, ctx, &p->key, false);

		if (!id)
			continue;
		if (!kvet_node_is_map(&p->value)) {
			kvet_strict_errorf(s, &p->value,
					   "the parameters of \"%s\" must be a mapping",
					   id);
			continue;
		}
		for (j = 0; j < p->value.len; j++) {
			const struct kvet_pair *q = &p->value.u.pairs[j];
			const char *name = kvet_strict_string(s, &q->key,
							      "a parameter name");
			const char *value = kvet_strict_string(s, &q->value,
							       "a parameter value");
			size_t before = ctx->rules.diag.n;

			if (!name || !value)
				continue;
			/* the rule set reports a bad name or value itself;
			 * say where in this file it came from */
			if (kvet_ctx_set_param(ctx, id, name, value) < 0 &&
			    ctx->rules.diag.n > before) {
				ctx->rules.diag.errors[before].pos.file = s->file;
				ctx->rules.diag.errors[before].pos.line = q->key.line;
				ctx->rules.diag.errors[before].pos.column = q->key.col;
				s->failed = true;
			}
		}
	}
}

/* Rules whose evaluation errors leave the exit status alone. */
static void apply_tolerate(struct kvet_strict *s, struct kvet_ctx *ctx,
			   const struct kvet_node *list)
{
	uint32_t i;

	if (!list)
		return;
	if (!kvet_node_is_seq(list)) {
		kvet_strict_errorf(s, list, "rules.tolerateErrors must be a list of rule ids");
		return;
	}
	for (i = 0; i < list->len; i++) {
		const char *id = rule_id(s, ctx, &list->u.items[i], true);

		if (id)
			(void)kvet_ctx_set_rule_tolerate_errors(ctx, id, true);
	}
}

static void apply_rules(struct kvet_strict *s, struct kvet_ctx *ctx,
			const struct kvet_node *rules)
{
	if (!rules || (!kvet_strict_map(s, rules, "rules", rules_keys) &&
		       !kvet_node_is_map(rules)))
		return;
	/* disable first, so "disable: ['*']" plus "enable: [a]" keeps a */
	apply_enable(s, ctx, kvet_node_get(rules, "disable"), false);
	apply_enable(s, ctx, kvet_node_get(rules, "enable"), true);
	apply_severity(s, ctx, kvet_node_get(rules, "severity"));
	apply_params(s, ctx, kvet_node_get(rules, "params"));
	apply_tolerate(s, ctx, kvet_node_get(rules, "tolerateErrors"));
}

static const char *optional_string(struct kvet_strict *s,
				   const struct kvet_node *map, const char *key)
{
	const struct kvet_node *n = kvet_node_get(map, key);

	return n ? kvet_strict_string(s, n, key) : NULL;
}

static void set_position(struct kvet_position *pos, const char *file,
			 const struct kvet_node *n)
{
	pos->file = file;
	pos->line = n->line;
	pos->column = n->col;
}

static void apply_suppress(struct kvet_strict *s, struct kvet_ctx *ctx,
			   const struct kvet_node *list)
{
	uint32_t i;

	if (!list)
		return;
	if (!kvet_node_is_seq(list)) {
		kvet_strict_errorf(s, list, "suppress must be a list of {rule, kind, namespace, name, reason}");
		return;
	}
	for (i = 0; i < list->len; i++) {
		const struct kvet_node *e = &list->u.items[i];
		const char *rule, *kind, *ns, *name, *reason;

		if (!kvet_strict_map(s, e, "a suppress entry", suppress_keys))
			continue;
		rule = optional_string(s, e, "rule");
		kind = optional_string(s, e, "kind");
		ns = optional_string(s, e, "namespace");
		name = optional_string(s, e, "name");
		reason = optional_string(s, e, "reason");
		if (!rule && !kind && !ns && !name) {
			kvet_strict_errorf(s, e, "a suppress entry needs rule, kind, namespace or name");
			continue;
		}
		if (kvet_ctx_suppress(ctx, rule, kind, ns, name, reason) < 0) {
			kvet_strict_errorf(s, e, "out of memory");
			continue;
		}
		if (rule)
			set_position(&ctx->suppress[ctx->n_suppress - 1].pos,
				     s->file, kvet_node_get(e, "rule"));
	}
}

/*
 * A list of names with built-in values: a plain list, or {add: LIST},
 * adds to them; {replace: LIST} is used instead of them. Adding is the
 * plain form because replacing silently switches findings off.
 */
static void apply_list(struct kvet_strict *s, struct kvet_ctx *ctx,
		       const struct kvet_node *root, const char *key,
		       enum kvet_graph_list list)
{
	static const char *const forms[] = { "add", "replace", NULL };
	const struct kvet_node *n = kvet_node_get(root, key), *add, *repl;
	const char *what = key, **v;
	bool replace = false;
	size_t i, count;

	if (!n)
		return;
	if (kvet_node_is_map(n)) {
		if (!kvet_strict_map(s, n, key, forms))
			return;
		add = kvet_node_get(n, "add");
		repl = kvet_node_get(n, "replace");
		if (!add == !repl) {
			kvet_strict_errorf(s, n, "%s takes either add or replace",
					   key);
			return;
		}
		what = kvet_arena_printf(s->arena, "%s.%s", key,
					 add ? "add" : "replace");
		if (!what) {
			kvet_strict_errorf(s, n, "out of memory");
			return;
		}
		n = add ? add : repl;
		replace = !add;
	} else if (!kvet_node_is_seq(n)) {
		kvet_strict_errorf(s, n, "%s must be a list of strings, {add: [...]} or {replace: [...]}",
				   key);
		return;
	}
	if (!kvet_strict_strings(s, n, what, &v, &count))
		return;
	if (replace)
		(void)kvet_ctx_replace_graph_values(ctx, list);
	for (i = 0; i < count; i++)
		if (kvet_ctx_add_graph_value(ctx, list, v[i]) < 0)
			kvet_strict_errorf(s, n, "out of memory");
}

static void apply_excludes(struct kvet_strict *s, struct kvet_ctx *ctx,
			   const struct kvet_node *n)
{
	const char **v;
	size_t i, count;

	if (!n || !kvet_strict_strings(s, n, "exclude", &v, &count))
		return;
	for (i = 0; i < count; i++)
		if (kvet_ctx_add_exclude(ctx, v[i]) < 0)
			kvet_strict_errorf(s, n, "out of memory");
}

static void apply_workloads(struct kvet_strict *s, struct kvet_ctx *ctx,
			    const struct kvet_node *list)
{
	uint32_t i;

	if (!list)
		return;
	if (!kvet_node_is_seq(list)) {
		kvet_strict_errorf(s, list, "workloads must be a list of {apiVersion, kind, podTemplate, replicas}");
		return;
	}
	for (i = 0; i < list->len; i++) {
		const struct kvet_node *e = &list->u.items[i];
		const char *apiv, *kind, *tmpl, *replicas;

		if (!kvet_strict_map(s, e, "a workload kind", workload_keys))
			continue;
		apiv = kvet_strict_required_string(s, e, "apiVersion",
						   "a workload kind");
		kind = kvet_strict_required_string(s, e, "kind",
						   "a workload kind");
		tmpl = kvet_strict_required_string(s, e, "podTemplate",
						   "a workload kind");
		replicas = optional_string(s, e, "replicas");
		if (!apiv || !kind || !tmpl)
			continue;
		if (kvet_ctx_add_workload_kind(ctx, apiv, kind, tmpl,
					       replicas) < 0)
			kvet_strict_errorf(s, e, "podTemplate and replicas must be dotted paths such as spec.template");
	}
}

/* One setting of pool:, through the setter the command line uses; its
 * error, if any, at @n. */
static void pool_set(struct kvet_strict *s, struct kvet_ctx *ctx,
		     const struct kvet_node *n,
		     const struct kvet_pool_options *o)
{
	size_t before = ctx->rules.diag.n;

	if (!kvet_ctx_apply_pool(ctx, o, true))
		return;
	if (ctx->rules.diag.n > before)
		set_position(&ctx->rules.diag.errors[before].pos, s->file, n);
	s->failed = true;
}

/* A count of @what from @min to @max, else an error at @n. */
static bool pool_count(struct kvet_strict *s, const struct kvet_node *n,
		       const char *what, long long min, long long max,
		       unsigned int *out)
{
	long long v;

	if (!n)
		return false;
	if (!kvet_node_int(n, &v) || v < min || v > max) {
		kvet_strict_errorf(s, n, "pool.%s must be an integer from %lld to %lld",
				   what, min, max);
		return false;
	}
	*out = (unsigned int)v;
	return true;
}

static void apply_pool_labels(struct kvet_strict *s, struct kvet_ctx *ctx,
			      const struct kvet_node *map)
{
	struct kvet_pool_options o = { 0 };
	const char *k, *v, *kv;
	uint32_t i;

	if (!map)
		return;
	if (!kvet_node_is_map(map)) {
		kvet_strict_errorf(s, map, "pool.nodeLabels must map label keys to values");
		return;
	}
	o.n_labels = 1;
	o.labels = &kv;
	for (i = 0; i < map->len; i++) {
		k = kvet_strict_string(s, &map->u.pairs[i].key, "a label key");
		v = kvet_strict_string(s, &map->u.pairs[i].value,
				       "a label value");
		if (!k || !v)
			continue;
		kv = kvet_arena_printf(s->arena, "%s=%s", k, v);
		if (kv)
			pool_set(s, ctx, &map->u.pairs[i].key, &o);
	}
}

static void apply_pool(struct kvet_strict *s, struct kvet_ctx *ctx,
		       const struct kvet_node *pool)
{
	struct kvet_pool_options o;
	const struct kvet_node *n;
	const char **taints, *size;
	size_t count, i;

	if (!pool || !kvet_strict_map(s, pool, "pool", pool_keys))
		return;
	memset(&o, 0, sizeof(o));
	n = kvet_node_get(pool, "size");
	if (n && (size = kvet_strict_string(s, n, "pool.size"))) {
		if (kvet_pool_parse_size(size, &o.nodes, &o.zones) < 0)
			kvet_strict_errorf(s, n, "pool.size must be NODESxZONES such as 3x3: 1 to 1000 nodes in 1 to 26 zones, no more zones than nodes");
		else
			pool_set(s, ctx, n, &o);
	}
	memset(&o, 0, sizeof(o));
	n = kvet_node_get(pool, "nodeCPU");
	if (n && (o.cpu = kvet_strict_string(s, n, "pool.nodeCPU")))
		pool_set(s, ctx, n, &o);
	memset(&o, 0, sizeof(o));
	n = kvet_node_get(pool, "nodeMemory");
	if (n && (o.memory = kvet_strict_string(s, n, "pool.nodeMemory")))
		pool_set(s, ctx, n, &o);
	memset(&o, 0, sizeof(o));
	n = kvet_node_get(pool, "nodePods");
	if (pool_count(s, n, "nodePods", 1, 10000, &o.pods))
		pool_set(s, ctx, n, &o);
	apply_pool_labels(s, ctx, kvet_node_get(pool, "nodeLabels"));
	n = kvet_node_get(pool, "nodeTaints");
	if (n && kvet_strict_strings(s, n, "pool.nodeTaints", &taints,
				     &count)) {
		for (i = 0; i < count; i++) {
			memset(&o, 0, sizeof(o));
			o.taints = &taints[i];
			o.n_taints = 1;
			pool_set(s, ctx, &n->u.items[i], &o);
		}
	}
	memset(&o, 0, sizeof(o));
	n = kvet_node_get(pool, "maxUnavailable");
	if (pool_count(s, n, "maxUnavailable", 1, 10000, &o.max_unavailable))
		pool_set(s, ctx, n, &o);
	memset(&o, 0, sizeof(o));
	n = kvet_node_get(pool, "surge");
	if (pool_count(s, n, "surge", 0, 10000, &o.surge)) {
		o.flags = KVET_POOL_SURGE;
		pool_set(s, ctx, n, &o);
	}
}

KVET_API int kvet_ctx_load_config(struct kvet_ctx *ctx, const char *path)
{
	struct kvet_strict s = { &ctx->rules.arena, &ctx->rules.diag, NULL,
				 false };
	const struct kvet_node *root, *n;
	const char *ns;
	size_t size;
	bool on;

	s.file = kvet_arena_strdup(&ctx->rules.arena, path);
	if (!s.file)
		return -1;
	root = kvet_strict_load(&s, s.file, KVET_CONFIG_MAX_SIZE,
				 "configuration file");
	if (!root)
		return -1;
	if (kvet_node_is_null(root))
		return 0;
	/* unknown keys are reported; the known ones are still checked, so
	 * that one run shows every mistake */
	if (!kvet_strict_map(&s, root, "the configuration", top_keys) &&
	    !kvet_node_is_map(root))
		return -1;
	apply_rules(&s, ctx, kvet_node_get(root, "rules"));
	apply_suppress(&s, ctx, kvet_node_get(root, "suppress"));
	apply_excludes(&s, ctx, kvet_node_get(root, "exclude"));
	ns = optional_string(&s, root, "namespace");
	if (ns && kvet_ctx_set_namespace(ctx, ns) < 0)
		kvet_strict_errorf(&s, root, "out of memory");
	n = kvet_node_get(root, "completeInput");
	if (n && kvet_strict_bool(&s, n, "completeInput", &on))
		kvet_ctx_set_complete_input(ctx, on);
	n = kvet_node_get(root, "requireObjects");
	if (n && kvet_strict_bool(&s, n, "requireObjects", &on))
		kvet_ctx_set_require_objects(ctx, on);
	n = kvet_node_get(root, "maxInputSize");
	if (n && (ns = kvet_strict_string(&s, n, "maxInputSize"))) {
		if (kvet_input_parse_size(ns, &size))
			kvet_strict_errorf(&s, n, "maxInputSize must be a size in bytes from 1 to 1Ti, such as 512Mi, 4Gi or 1000000, not \"%s\"",
					   ns);
		else
			kvet_ctx_set_max_input_size(ctx, size);
	}
	apply_list(&s, ctx, root, "spreadingTopologyKeys",
		   KVET_GRAPH_SPREADING_KEYS);
	apply_list(&s, ctx, root, "managerComponents",
		   KVET_GRAPH_MANAGER_COMPONENTS);
	apply_list(&s, ctx, root, "sharedLabelKeys",
		   KVET_GRAPH_SHARED_LABEL_KEYS);
	apply_workloads(&s, ctx, kvet_node_get(root, "workloads"));
	apply_pool(&s, ctx, kvet_node_get(root, "pool"));
	kvet_config_apply_charts(&s, ctx, kvet_node_get(root, "charts"));
	n = kvet_node_get(root, "docsUrl");
	if (n && (ns = kvet_strict_string(&s, n, "docsUrl")) &&
	    kvet_ctx_set_docs_url(ctx, ns) < 0)
		kvet_strict_errorf(&s, n, "docsUrl must be an http:// or https:// URL (the folder that holds ID.md for each rule), not \"%s\"",
				   ns);
	return s.failed ? -1 : 0;
}
