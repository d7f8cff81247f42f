/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A drain context: the plan from the caller, the simulation run on the
 * object graph, and its issues turned into findings (sorted, with the
 * settings applied, as lint findings are) and into per-node and per-step
 * records that point at them.
 */
#include "api/context.h"

#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

#include "model/selector_text.h"

/* kubectl's selector notation, or names separated by commas. */
static bool looks_like_selector(const char *s)
{
	return strpbrk(s, "=!()") || strstr(s, " in ") ||
	       strstr(s, " notin ");
}

static int set_names(struct kvet_ctx *ctx, const char *list)
{
	const char **names;
	const char *p, *comma;
	size_t n = 1, k = 0;

	for (p = list; *p; p++)
		n += *p == ',';
	names = kvet_arena_array(&ctx->arena, n, sizeof(*names));
	if (!names)
		return -1;
	for (p = list; p; p = comma ? comma + 1 : NULL) {
		comma = strchr(p, ',');
		names[k] = kvet_arena_strndup(&ctx->arena, p,
					      comma ? (size_t)(comma - p)
						    : strlen(p));
		if (!names[k])
			return -1;
		if (*names[k])
			k++;
	}
	ctx->drain.opts.names = names;
	ctx->drain.opts.n_names = k;
	return 0;
}

KVET_API int kvet_ctx_set_drain(struct kvet_ctx *ctx,
				const struct kvet_drain_options *opts)
{
	struct drain_options *o = &ctx->drain.opts;
	const char *err = NULL;
	int rc;

	if (!(ctx->opts.flags & KVET_CTX_DRAIN))
		return -1;
	memset(o, 0, sizeof(*o));
	ctx->drain.set = true;
	o->plan = opts->plan;
	o->force = opts->flags & KVET_DRAIN_FORCE;
	o->delete_emptydir = !(opts->flags & KVET_DRAIN_KEEP_EMPTYDIR);
	o->ignore_daemonsets = !(opts->flags & KVET_DRAIN_NO_IGNORE_DAEMONSETS);
	o->skip_wait_for_delete = opts->skip_wait_for_delete_timeout;
	o->max_unavailable = opts->max_unavailable ? opts->max_unavailable : 1;
	o->surge = opts->surge;
	o->order = opts->order;
	if (!opts->nodes || !*opts->nodes)
		return 0;
	if (!looks_like_selector(opts->nodes))
		return set_names(ctx, opts->nodes);
	rc = kvet_selector_parse_text(&ctx->arena, opts->nodes,
				      &ctx->drain.selector, &err);
	if (rc > 0)
		kvet_diag_addf(&ctx->rules.diag, NULL, 0, 0,
			       "invalid node selector '%s': %s", opts->nodes,
			       err);
	if (rc)
		return -1;
	o->selector = &ctx->drain.selector;
	return 0;
}

KVET_API const char *kvet_drain_verdict_name(enum kvet_drain_verdict v)
{
	switch (v) {
	case KVET_DRAIN_DRAINS:
		return "drains";
	case KVET_DRAIN_WARNINGS:
		return "drains-with-warnings";
	case KVET_DRAIN_BLOCKED:
		return "blocked";
	case KVET_DRAIN_NOT_REACHED:
		break;
	}
	return "not-reached";
}

/* The input order of @file, for sorting findings like lint's. */
static size_t file_order(const struct kvet_ctx *ctx, const char *file)
{
	size_t i;

	for (i = 0; i < ctx->nunits; i++)
		if (ctx->units[i].src->name == file ||
		    !strcmp(ctx->units[i].src->name, file))
			return i;
	return ctx->nunits;
}

static void ref_of(struct kvet_object_ref *out, const struct drain_ref *r)
{
	memset(out, 0, sizeof(*out));
	if (r->obj) {
		kvet_object_ref_set(out, r->obj);
		return;
	}
	out->api_version = "v1";
	out->kind = r->kind;
	out->namespace = r->ns;
	out->name = r->name;
}

int kvet_ctx_add_drain_issue(struct kvet_ctx *ctx,
			     const struct drain_issue *is, const char *rule,
			     const struct kvet_finding_text *words)
{
	struct kvet_finding_text text = {
		.message = is->message,
		.help = drain_issue_help(is, false),
	};
	struct kvet_finding *f;
	struct kvet_object_ref *rel;
	size_t i;

	if (words) {
		text = *words;
	} else {
		text.headline = is->headline;
		text.reason = is->reason;
	}
	f = kvet_findings_add(&ctx->findings, rule, is->sev, is->obj,
			      file_order(ctx, is->obj->file), is->at, &text);
	if (!f)
		return -1;
	/* the node the issue is of (none: past every node), for the
	 * per-node records */
	ctx->findings.meta[ctx->findings.n - 1].tag = is->node;
	if (!is->n_related)
		return 0;
	rel = kvet_arena_array(&ctx->arena, is->n_related, sizeof(*rel));
	if (!rel)
		return -1;
	for (i = 0; i < is->n_related; i++)
		ref_of(&rel[i], &is->related[i]);
	f->related = rel;
	f->n_related = is->n_related;
	return 0;
}

static enum kvet_drain_verdict verdict(const struct kvet_ctx *ctx,
				       const struct kvet_drain_node *dn,
				       bool reached)
{
	bool warn = false;
	size_t i;

	if (!reached)
		return KVET_DRAIN_NOT_REACHED;
	for (i = 0; i < dn->n_findings; i++) {
		enum kvet_severity s = ctx->findings.v[dn->findings[i]].severity;

		if (s == KVET_SEV_ERROR)
			return KVET_DRAIN_BLOCKED;
		warn |= s == KVET_SEV_WARNING;
	}
	return warn ? KVET_DRAIN_WARNINGS : KVET_DRAIN_DRAINS;
}

/* The node of finding @i, by the tag its issue left, or SIZE_MAX. */
static size_t node_of(const struct kvet_ctx *ctx, size_t i)
{
	uint32_t tag = ctx->findings.meta[i].tag;

	return tag < ctx->drain.res.n_nodes ? tag : SIZE_MAX;
}

static int node_records(struct kvet_ctx *ctx)
{
	const struct drain_result *res = &ctx->drain.res;
	size_t *counts, i, *idx, hit;
	int ret = -1;

	ctx->drain.nodes = kvet_arena_array(&ctx->arena, res->n_nodes + 1,
					    sizeof(*ctx->drain.nodes));
	counts = calloc(res->n_nodes + 1, sizeof(*counts));
	if (!ctx->drain.nodes || !counts)
		goto out;
	for (i = 0; i < ctx->findings.n; i++) {
		hit = node_of(ctx, i);
		if (hit != SIZE_MAX)
			counts[hit]++;
	}
	for (i = 0; i < res->n_nodes; i++) {
		struct kvet_drain_node *dn = &ctx->drain.nodes[i];
		const struct drain_node_result *nr = &res->nodes[i];

		if (nr->obj) {
			kvet_object_ref_set(&dn->node, nr->obj);
		} else {
			dn->node.api_version = "v1";
			dn->node.kind = "Node";
			dn->node.namespace = "";
			dn->node.name = nr->name;
		}
		dn->step = nr->step;
		dn->evicted = nr->evicted;
		dn->deleted = nr->deleted;
		dn->left = nr->left;
		dn->findings = idx = kvet_arena_array(&ctx->arena,
						      counts[i] + 1,
						      sizeof(*idx));
		if (!idx)
			goto out;
	}
	for (i = 0; i < ctx->findings.n; i++) {
		hit = node_of(ctx, i);
		if (hit != SIZE_MAX) {
			struct kvet_drain_node *dn = &ctx->drain.nodes[hit];

			((size_t *)dn->findings)[dn->n_findings++] = i;
		}
	}
	for (i = 0; i < res->n_nodes; i++)
		ctx->drain.nodes[i].verdict =
			verdict(ctx, &ctx->drain.nodes[i],
				res->plan != KVET_DRAIN_ROLLING ||
					res->nodes[i].reached);
	ctx->drain.n_nodes = res->n_nodes;
	ret = 0;
out:
	free(counts);
	return ret;
}

static int step_records(struct kvet_ctx *ctx)
{
	const struct drain_result *res = &ctx->drain.res;
	size_t i;

	ctx->drain.steps = kvet_arena_array(&ctx->arena, res->n_steps + 1,
					    sizeof(*ctx->drain.steps));
	if (!ctx->drain.steps)
		return -1;
	for (i = 0; i < res->n_steps; i++) {
		struct kvet_drain_step *st = &ctx->drain.steps[i];
		const struct drain_step_result *sr = &res->steps[i];

		st->index = sr->index;
		st->nodes = sr->nodes;
		st->n_nodes = sr->n_nodes;
		st->stalled = sr->stalled;
		st->causes = sr->causes;
		st->n_causes = sr->n_causes;
	}
	ctx->drain.n_steps = res->n_steps;
	return 0;
}

static bool has_kind(const struct kvet_ctx *ctx, const char *kind)
{
	size_t n;

	kvet_graph_kind(ctx->graph, "", kind, &n);
	return n > 0;
}

/* A Pod read off a cluster: bound to a node, or with observed status. */
static bool has_live_pod(const struct kvet_ctx *ctx)
{
	struct kvet_object *const *pods;
	size_t i, n;

	pods = kvet_graph_kind(ctx->graph, "", "Pod", &n);
	for (i = 0; i < n; i++)
		if (pods[i]->flags & (KVET_OBJ_BOUND_POD | KVET_OBJ_HAS_STATUS))
			return true;
	return false;
}

/*
 * A dump has Nodes or live Pods (one without the other is told what to
 * add); rendered manifests have neither and are installed on the pool,
 * with their bare Pods (no nodeName, no status): kvet lint's
 * rolling-upgrade-stalls rolls those too, and its finding must be one that
 * kvet drain --rolling can show step by step. Pool
 * options given for a dump are refused rather than silently dropped; the
 * configuration's pool: describes the repository's target cluster and is
 * only noted.
 */
static int run(struct kvet_ctx *ctx)
{
	struct drain_options opts = ctx->drain.opts;
	struct drain_pool pool;
	int rc;

	if (has_kind(ctx, "Node") || has_live_pod(ctx)) {
		if (ctx->pool_given) {
			kvet_diag_addf(&ctx->diag, NULL, 0, 0,
				       "the input is a cluster dump (it has Node or Pod objects): --pool and the --node-* options describe a synthetic pool for rendered manifests; leave them out to drain the dump's own nodes");
			return 1;
		}
		if (ctx->pool_configured)
			kvet_diag_notef(&ctx->diag, KVET_NOTICE_WARNING, NULL,
					0, 0,
					"the configuration's pool: is not used: the input is a cluster dump, drained on its own nodes");
		return drain_run_dump(&ctx->arena, &ctx->diag, ctx->graph,
				      &opts, &ctx->drain.res);
	}
	kvet_ctx_pool(ctx, &pool, &opts);
	rc = drain_run_pool(&ctx->arena, &ctx->diag, ctx->graph, &opts, &pool,
			    &ctx->drain.res);
	if (!rc)
		kvet_ctx_pool_info(ctx, &pool, &ctx->drain.res);
	return rc;
}

int kvet_ctx_run_drain(struct kvet_ctx *ctx)
{
	size_t i;
	int rc;

	static const struct kvet_drain_options defaults;

	if (!ctx->drain.set && kvet_ctx_set_drain(ctx, &defaults) < 0)
		return -1;
	/* the field-type check's findings stay: the drain read those
	 * fields as unset, and the user should know why */
	rc = run(ctx);
	if (rc < 0)
		return -1;
	if (rc > 0)
		return 0;
	for (i = 0; i < ctx->drain.res.n_issues; i++)
		if (kvet_ctx_add_drain_issue(ctx, &ctx->drain.res.issues[i],
					     drain_rule_info(ctx->drain.res.issues[i].rule)->id,
					     NULL) < 0)
			return -1;
	kvet_findings_sort(&ctx->findings);
	/* a chart's or a kustomization's findings at the files the user
	 * edits, as lint's (template_lines.c, units.c) */
	if (ctx->findings.oom || kvet_ctx_map_templates(ctx) < 0)
		return -1;
	kvet_ctx_name_units(ctx);
	if (kvet_ctx_apply_settings(ctx) < 0 || node_records(ctx) < 0 ||
	    step_records(ctx) < 0)
		return -1;
	ctx->drain.ran = true;
	return 0;
}

KVET_API bool kvet_ctx_drain_ran(const struct kvet_ctx *ctx)
{
	return ctx->drain.ran;
}

KVET_API enum kvet_drain_plan kvet_ctx_drain_plan(const struct kvet_ctx *ctx)
{
	return ctx->drain.opts.plan;
}

KVET_API size_t kvet_ctx_drain_node_count(const struct kvet_ctx *ctx)
{
	return ctx->drain.n_nodes;
}

KVET_API const struct kvet_drain_node *
kvet_ctx_drain_node(const struct kvet_ctx *ctx, size_t i)
{
	return i < ctx->drain.n_nodes ? &ctx->drain.nodes[i] : NULL;
}

KVET_API size_t kvet_ctx_drain_step_count(const struct kvet_ctx *ctx)
{
	return ctx->drain.n_steps;
}

KVET_API const struct kvet_drain_step *
kvet_ctx_drain_step(const struct kvet_ctx *ctx, size_t i)
{
	return i < ctx->drain.n_steps ? &ctx->drain.steps[i] : NULL;
}
