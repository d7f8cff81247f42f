/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The synthetic pool of a context: set from the configuration (pool:)
 * and then the command line or a program, checked as it is set, and
 * read with its defaults when a drain or the rolling-upgrade-stalls check
 * needs it.
 */
#include "api/context.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/vec.h"
#include "model/quantity.h"

/* A typical small worker (docs/drain.md): 3 nodes in 3 zones, each of
 * 4 CPU, 16 GiB and the kubelet's default of 110 pods. */
#define DEFAULT_NODES 3
#define DEFAULT_ZONES 3
#define DEFAULT_CPU 4000
#define DEFAULT_MEMORY (INT64_C(16) << 30)
#define DEFAULT_PODS 110
#define MAX_NODES 1000
#define MAX_ZONES 26
#define MAX_PODS 10000

KVET_API int kvet_pool_parse_size(const char *s, unsigned int *nodes,
				  unsigned int *zones)
{
	unsigned long n, z;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	n = strtoul(s, &end, 10);
	if (errno || *end != 'x' || end[1] < '0' || end[1] > '9')
		return -1;
	z = strtoul(end + 1, &end, 10);
	if (errno || *end || !n || !z || n > MAX_NODES || z > MAX_ZONES ||
	    z > n)
		return -1;
	*nodes = (unsigned int)n;
	*zones = (unsigned int)z;
	return 0;
}

__attribute__((format(printf, 2, 3)))
static int pool_error(struct kvet_ctx *ctx, const char *fmt, ...)
{
	va_list ap;
	char msg[512];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	kvet_diag_addf(&ctx->rules.diag, NULL, 0, 0, "%s", msg);
	return -1;
}

static int set_quantity(struct kvet_ctx *ctx, const char *what,
			const char *val, int scale, int64_t *out)
{
	int64_t v;

	if (!val)
		return 0;
	if (!kvet_quantity_scaled(kvet_slice_of(val), scale, &v) || v <= 0 ||
	    v == INT64_MAX)
		return pool_error(ctx, "invalid %s '%s': expected a positive Kubernetes quantity such as %s",
				  what, val, scale ? "4 or 3500m" : "16Gi");
	*out = v;
	return 0;
}

/* "KEY=VALUE": a label key and value as Kubernetes validates them. */
static int add_label(struct kvet_ctx *ctx, const char *s)
{
	const char *eq = strchr(s, '=');
	struct kvet_label l;
	char *copy;

	copy = kvet_arena_strdup(&ctx->arena, s);
	if (!copy)
		return -1;
	if (eq) {
		l.key.s = copy;
		l.key.len = (size_t)(eq - s);
		l.value = kvet_slice_of(copy + (eq - s) + 1);
	}
	if (!eq || !kvet_label_key_valid(l.key) ||
	    !kvet_label_value_valid(l.value))
		return pool_error(ctx, "invalid node label '%s': expected KEY=VALUE with a valid label key and value",
				  s);
	if (!kvet_vec_grow((void **)&ctx->pool_labels, &ctx->cap_pool_labels,
			   ctx->n_pool_labels + 1, sizeof(*ctx->pool_labels)))
		return -1;
	ctx->pool_labels[ctx->n_pool_labels++] = l;
	return 0;
}

static bool effect_of(const char *s, enum kvet_taint_effect *out)
{
	static const char *const names[] = {
		[KVET_TAINT_NO_SCHEDULE] = "NoSchedule",
		[KVET_TAINT_PREFER_NO_SCHEDULE] = "PreferNoSchedule",
		[KVET_TAINT_NO_EXECUTE] = "NoExecute",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i])) {
			*out = (enum kvet_taint_effect)i;
			return true;
		}
	return false;
}

/* "KEY[=VALUE]:EFFECT", as kubectl taint writes a taint. */
static int add_taint(struct kvet_ctx *ctx, const char *s)
{
	char *copy = kvet_arena_strdup(&ctx->arena, s), *colon, *eq;
	struct kvet_taint t;

	if (!copy)
		return -1;
	memset(&t, 0, sizeof(t));
	colon = strrchr(copy, ':');
	if (colon) {
		*colon = '\0';
		t.effect_name = kvet_slice_of(colon + 1);
		eq = strchr(copy, '=');
		if (eq)
			*eq = '\0';
		t.key = kvet_slice_of(copy);
		t.value = kvet_slice_of(eq ? eq + 1 : "");
	}
	if (!colon || !kvet_label_key_valid(t.key) ||
	    !kvet_label_value_valid(t.value) ||
	    !effect_of(colon + 1, &t.effect))
		return pool_error(ctx, "invalid node taint '%s': expected KEY[=VALUE]:EFFECT with EFFECT NoSchedule, PreferNoSchedule or NoExecute",
				  s);
	if (!kvet_vec_grow((void **)&ctx->pool_taints, &ctx->cap_pool_taints,
			   ctx->n_pool_taints + 1, sizeof(*ctx->pool_taints)))
		return -1;
	ctx->pool_taints[ctx->n_pool_taints++] = t;
	return 0;
}

int kvet_ctx_apply_pool(struct kvet_ctx *ctx,
			const struct kvet_pool_options *opts, bool config)
{
	struct drain_pool *p = &ctx->pool;
	size_t i;

	/* a size is both numbers: NODESxZONES */
	if ((opts->nodes || opts->zones) &&
	    (!opts->nodes || !opts->zones || opts->nodes > MAX_NODES ||
	     opts->zones > MAX_ZONES || opts->zones > opts->nodes))
		return pool_error(ctx, "invalid pool of %u nodes in %u zones: expected 1 to %d nodes in 1 to %d zones, no more zones than nodes",
				  opts->nodes, opts->zones, MAX_NODES,
				  MAX_ZONES);
	if (opts->pods > MAX_PODS)
		return pool_error(ctx, "invalid pod limit %u: expected 1 to %d",
				  opts->pods, MAX_PODS);
	if (set_quantity(ctx, "node CPU", opts->cpu, 3, &p->cpu) < 0 ||
	    set_quantity(ctx, "node memory", opts->memory, 0, &p->memory) < 0)
		return -1;
	for (i = 0; i < opts->n_labels; i++)
		if (add_label(ctx, opts->labels[i]) < 0)
			return -1;
	for (i = 0; i < opts->n_taints; i++)
		if (add_taint(ctx, opts->taints[i]) < 0)
			return -1;
	if (opts->nodes) {
		p->nodes = opts->nodes;
		p->zones = opts->zones;
	}
	if (opts->pods)
		p->pods = opts->pods;
	if (opts->max_unavailable)
		ctx->pool_max_unavailable = opts->max_unavailable;
	if (opts->flags & KVET_POOL_SURGE) {
		ctx->pool_surge = opts->surge;
		ctx->pool_surge_set = true;
	}
	/* what describes nodes: a dump has its own */
	if (!config && (opts->nodes || opts->zones || opts->cpu ||
			opts->memory || opts->pods || opts->n_labels ||
			opts->n_taints))
		ctx->pool_given = true;
	ctx->pool_configured |= config;
	return 0;
}

KVET_API int kvet_ctx_set_pool(struct kvet_ctx *ctx,
			       const struct kvet_pool_options *opts)
{
	return kvet_ctx_apply_pool(ctx, opts, false);
}

void kvet_ctx_pool(const struct kvet_ctx *ctx, struct drain_pool *out,
		   struct drain_options *plan)
{
	*out = ctx->pool;
	if (!out->nodes) {
		out->nodes = DEFAULT_NODES;
		out->zones = DEFAULT_ZONES;
	}
	if (!out->cpu)
		out->cpu = DEFAULT_CPU;
	if (!out->memory)
		out->memory = DEFAULT_MEMORY;
	if (!out->pods)
		out->pods = DEFAULT_PODS;
	out->labels = ctx->pool_labels;
	out->n_labels = ctx->n_pool_labels;
	out->taints = ctx->pool_taints;
	out->n_taints = ctx->n_pool_taints;
	if (ctx->pool_max_unavailable)
		plan->max_unavailable = ctx->pool_max_unavailable;
	if (ctx->pool_surge_set)
		plan->surge = ctx->pool_surge;
}

void kvet_ctx_pool_info(struct kvet_ctx *ctx, const struct drain_pool *pool,
			const struct drain_result *res)
{
	struct kvet_drain_pool *info = &ctx->pool_info;
	int64_t cpu, mem, eph;

	drain_pool_allocatable(pool, &cpu, &mem, &eph);
	info->nodes = pool->nodes;
	info->zones = pool->zones;
	info->cpu = cpu;
	info->memory = mem;
	info->pods = pool->pods;
	info->pods_placed = res->pods_placed;
	info->pods_unplaced = res->pods_unplaced;
	ctx->pool_ran = true;
}

KVET_API const struct kvet_drain_pool *
kvet_ctx_drain_pool(const struct kvet_ctx *ctx)
{
	return ctx->pool_ran ? &ctx->pool_info : NULL;
}
