/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_API_CONTEXT_H
#define KVET_API_CONTEXT_H

/*
 * The context's insides, shared by the files of src/api: ctx.c runs the
 * pipeline, settings.c applies rule settings, suppressions and baselines,
 * config.c reads .kvet.yaml. Nothing outside src/api includes this.
 */
#include "kvet/kvet.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/diag.h"
#include "chart/chart.h"
#include "input/source.h"
#include "drain/drain.h"
#include "load/load.h"
#include "model/graph.h"
#include "model/object.h"
#include "findings/baseline.h"
#include "findings/check.h"
#include "findings/findings.h"
#include "rules/rules.h"
#include "findings/suppress.h"

struct kvet_chart_entry;

/* A rule's setting: enabled or not, and its severity if overridden. */
struct kvet_rule_setting {
	const char *id;		/* a rule id, or "*" */
	int enabled;		/* -1: unchanged, 0: off, 1: on */
	int severity;		/* -1: the rule's own */
};

/*
 * A rule the context knows, with the settings applied: one array of them
 * sorted by id, so that a setting or a finding finds its rule by binary
 * search.
 */
struct kvet_rule_state {
	struct kvet_rule_info info;	/* severity: the effective one */
	struct kvet_rule *rule;		/* its rule file; NULL: a C check */
	bool on;
	int severity;			/* -1: the rule's own */
};

/*
 * Everything one input produces. Inputs load in parallel, each into its
 * own arena and error list, so no lock is taken while parsing; the
 * results are joined in input order, which keeps output independent of
 * the number of threads.
 */
struct unit {
	struct kvet_source *src;
	struct kvet_arena arena;
	struct kvet_diag diag;
	struct kvet_docs docs;
	struct kvet_objects objs;
	struct kvet_load_job *job;	/* while loading */
	atomic_size_t bytes_done;	/* for progress */
	size_t *lines;		/* line breaks before each chunk of the
				 * input (ctx.c), built lazily */
	size_t nchunks;
	size_t nlines;		/* lines in the input */
	int oom;
};

/* What only a lint context has: the rules' evaluation errors, the change
 * it reports on, and the template lines of the charts it rendered. */
struct ctx_lint {
	size_t rule_errors;		/* evaluation errors, listed or not */
	/* changed.c: kvet lint --changed (changed_mode); else everything
	 * is reported */
	bool changed_mode;
	const char **changed;		/* real paths of the changed files */
	size_t n_changed, cap_changed;
	struct changed_memo *memo;	/* file names met, in a change or not */
	size_t n_memo, cap_memo;
	/* template_lines.c: findings moved to the charts' template lines */
	const char *chart_dir;		/* --chart-dir, or NULL: the cwd */
	struct kvet_chart_map *chart_map;	/* the files read, or NULL */
};

/* What only a drain context (KVET_CTX_DRAIN) has: the plan it was given
 * and what the simulation found, per node and per step. */
struct ctx_drain {
	struct drain_options opts;
	bool set;			/* kvet_ctx_set_drain() was called */
	struct kvet_selector selector;	/* of --nodes, when a selector */
	struct drain_result res;
	struct kvet_drain_node *nodes;
	size_t n_nodes;
	struct kvet_drain_step *steps;
	size_t n_steps;
	bool ran;
};

struct kvet_ctx {
	struct kvet_options opts;
	struct kvet_arena arena;
	struct kvet_diag diag;		/* every error, in order */
	struct kvet_diag path_diag;	/* errors from expanding paths */
	struct kvet_sources srcs;
	struct kvet_render_opts render;	/* how charts and kustomizations
					 * are rendered (srcs.render) */
	struct kvet_chart_entry *chart_entries;	/* .kvet.yaml charts: */
	size_t n_chart_entries;
	struct unit *units;
	size_t nunits;
	struct kvet_objects objects;
	struct kvet_graph *graph;
	struct kvet_graph **unit_graphs;	/* of every unit but the last,
						 * which is graph */
	size_t n_unit_graphs;
	struct kvet_findings findings;
	struct kvet_rule_set rules;	/* rule files: built-in and --rules */
	struct kvet_rule_state *states;	/* every rule, sorted by id */
	size_t n_states;
	const struct kvet_rule_info **infos;	/* the enabled ones */
	size_t n_infos;
	size_t documents;
	size_t skipped;			/* documents that are not objects */
	bool ran;

	/* settings.c: what the configuration and the command line change */
	struct kvet_rule_setting *settings;
	size_t n_settings, cap_settings;
	struct kvet_suppress_entry *suppress;
	size_t n_suppress, cap_suppress;
	struct kvet_baseline baseline;
	bool have_baseline;
	const struct kvet_baseline_entry **stale;	/* after the run */
	size_t n_stale;
	struct kvet_suppressed *suppressed;	/* the findings held back */
	size_t n_suppressed, cap_suppressed;
	/* malloc'd vectors that double: appending is amortised O(1) */
	const char **graph_values[KVET_GRAPH_LIST_COUNT];
	size_t n_graph_values[KVET_GRAPH_LIST_COUNT];
	size_t cap_graph_values[KVET_GRAPH_LIST_COUNT];
	bool graph_replace[KVET_GRAPH_LIST_COUNT];	/* built-ins off */
	const char **excludes;
	size_t n_excludes, cap_excludes;
	struct kvet_custom_workload *custom_workloads;
	size_t n_custom_workloads, cap_custom_workloads;
	bool namespace_given;		/* --namespace or namespace: */
	bool require_objects;		/* no object at all: exit 2 */
	const char *docs_url;		/* rule pages at BASE/ID.md, or NULL */

	/* what only kvet lint has (below), and only kvet drain */
	struct ctx_lint lint;
	struct ctx_drain drain;

	/* pool.c: the synthetic pool; zero fields take the defaults */
	struct drain_pool pool;
	struct kvet_label *pool_labels;
	size_t n_pool_labels, cap_pool_labels;
	struct kvet_taint *pool_taints;
	size_t n_pool_taints, cap_pool_taints;
	unsigned int pool_max_unavailable;	/* 0: the plan's */
	unsigned int pool_surge;
	bool pool_surge_set;
	bool pool_given;		/* nodes described by the API, not only
					 * by the configuration */
	bool pool_configured;		/* pool: in the configuration */
	struct kvet_drain_pool pool_info;
	bool pool_ran;
};

/* load_all.c: read, parse and turn into objects every input, in
 * parallel (-j); results in ctx->units. */
void kvet_ctx_load_all(struct kvet_ctx *ctx);

/* The number of threads -j asks for: 0 is one per core, at most 64. */
unsigned int kvet_ctx_jobs(const struct kvet_options *opts);

/* The unit of @obj's file, at @u or after it: the objects are in input
 * order, so a walk over them moves through the units only forward. */
static inline size_t kvet_ctx_unit_from(const struct kvet_ctx *ctx,
					size_t u,
					const struct kvet_object *obj)
{
	while (u < ctx->nunits && ctx->units[u].src->name != obj->file)
		u++;
	return u;
}

/* pass.c: one thread's share of a pass over objects, with its own
 * arena, findings and error list; @state is the pass's own. */
struct kvet_pass_lane {
	struct kvet_ctx *ctx;
	struct kvet_arena arena;
	struct kvet_findings findings;
	struct kvet_diag diag;
	void *state;
	size_t errors;			/* evaluation errors */
	bool first;			/* the caller's thread */
	int failed;			/* out of memory */
};

/* What a pass does: @object on each object, with the index of its unit;
 * @open and @close (may be NULL) once per lane, on its thread. Each
 * returns 0, or -1 when out of memory. */
struct kvet_pass {
	int (*open)(struct kvet_pass_lane *lane, void *arg);
	int (*object)(struct kvet_pass_lane *lane,
		      const struct kvet_object *obj, size_t unit, void *arg);
	int (*close)(struct kvet_pass_lane *lane, void *arg);
	void *arg;
};

/*
 * kvet_ctx_run_pass() - run @pass on the @n objects of @objs (in input
 * order) on @lanes threads, and add their findings to ctx->findings in
 * the order one thread gives. Returns 1 when done, 0 when nothing was
 * added and the pass must run again on one thread: a lane counted errors
 * (their bookkeeping is exact on one thread only), or two objects found
 * the same node unusable (kvet_findings_invalidate(): an alias shares
 * it, and the second reads it invalidated on one thread); -1 when out of
 * memory.
 */
int kvet_ctx_run_pass(struct kvet_ctx *ctx, struct kvet_object *const *objs,
		      size_t n, size_t lanes, const struct kvet_pass *pass);
/* How many lanes a pass over @n objects takes: as many as -j asks for,
 * with at least @per_lane objects each; fewer than 2 means none is worth
 * a thread. */
size_t kvet_ctx_pass_lanes(const struct kvet_ctx *ctx, size_t n,
			   size_t per_lane);

/* lint.c: every rule on every object of the graph, in parallel (-j),
 * then the findings sorted and the settings applied. 0, or -1 (OOM). */
int kvet_ctx_run_rules(struct kvet_ctx *ctx);

/* template_lines.c: move the findings of "# Source:" objects to their
 * template lines, keeping the rendered place. 0, or -1 (OOM). */
int kvet_ctx_map_templates(struct kvet_ctx *ctx);
/* lint.c: the two halves of it: the rules on ctx->graph (one unit:
 * the plain inputs, or one render), and, once every unit ran, the
 * findings sorted, named after their units and the settings applied. */
int kvet_ctx_run_rules_unit(struct kvet_ctx *ctx);
int kvet_ctx_finish_rules(struct kvet_ctx *ctx);

/* units.c: renders as units (input/source.h): each its own graph and
 * rule run; the plain inputs one more. */

/* Put the renders after the plain inputs, sorted by name, and give each
 * chart render its release namespace; before the units are made. */
int kvet_ctx_order_units(struct kvet_ctx *ctx);

/* roots.c: of the kustomizations queued, skip those another one pulls
 * in, and the plain files one pulls in (resources, patches). */
void kvet_ctx_pick_roots(struct kvet_ctx *ctx);

/* The graph of every unit in turn, and the rules on it; 0 or -1 (OOM). */
int kvet_ctx_lint_units(struct kvet_ctx *ctx,
			const struct kvet_graph_config *cfg);

/* After loading: a render that gave no object is a warning, or an error
 * with --require-objects. */
void kvet_ctx_report_empty_renders(struct kvet_ctx *ctx);

/* Each finding of a render names its unit; one of a kustomize build is
 * placed at its object's source file (the origin annotation). */
void kvet_ctx_name_units(struct kvet_ctx *ctx);

/* The object of a render that @ref names (its input and first line);
 * NULL for a plain input's, or one the inputs do not hold (a node of the
 * synthetic pool). */
const struct kvet_object *kvet_ctx_object_at(const struct kvet_ctx *ctx,
					     const struct kvet_object_ref *ref);

/* The render (chart or kustomize build) whose name is @file; NULL for
 * other inputs. */
const struct kvet_source *kvet_ctx_render_of(const struct kvet_ctx *ctx,
					    const char *file);

/* changed.c: with --changed, does @f concern the change (its object or
 * a related object in a changed file, or it comes from a render that a
 * changed file queued)? True without --changed. */
bool kvet_ctx_concerns_change(struct kvet_ctx *ctx,
			      const struct kvet_finding *f);

/* changed.c: with --changed, drop the errors and notices of files the
 * change did not touch. */
void kvet_ctx_keep_changed_diag(struct kvet_ctx *ctx);

/* ctx.c: what the graph read off the input that the user should know:
 * that it decided dump mode, and the duplicate objects it left out. */
void kvet_ctx_note_input_meaning(struct kvet_ctx *ctx);

/* duplicates.c: the duplicate objects of ctx->graph, as warnings: two
 * copies at both places, a pair of folders that mirror each other once. */
void kvet_ctx_note_duplicates(struct kvet_ctx *ctx);

/* settings.c */

/* Rebuild the rule states from the rule set and replay the settings on
 * them; after adding rules. */
int kvet_ctx_index_rules(struct kvet_ctx *ctx);

/* The rule @id, enabled or not, or NULL when there is none. */
const struct kvet_rule_info *kvet_ctx_rule_known(const struct kvet_ctx *ctx,
						 const char *id);

/* Is @id switched off by the settings? */
bool kvet_ctx_rule_disabled(const struct kvet_ctx *ctx, const char *id);

/* After the rules ran: drop findings of disabled rules, apply severity
 * overrides, and move suppressed findings aside. Returns 0 or -1 (OOM). */
int kvet_ctx_apply_settings(struct kvet_ctx *ctx);

/*
 * Before the settings apply: will finding @i of the run be reported (its
 * rule on, no annotation or suppress: entry holding it back), and at
 * which severity (*@sev, an override's)? A baseline is left out, as
 * matching an entry uses it up: what a baseline holds back is known only
 * once, in kvet_ctx_apply_settings().
 */
bool kvet_ctx_finding_kept(struct kvet_ctx *ctx, size_t i,
			   enum kvet_severity *sev);

/*
 * Names that would silently do nothing are warnings (notices): a
 * `suppress:` entry whose rule glob matches no rule, before loading (into
 * path_diag), and an unknown id in a kvet.dev/ignore annotation, once the
 * objects are loaded (into diag). Every rule must be loaded by then.
 */
void kvet_ctx_check_suppress_names(struct kvet_ctx *ctx);
void kvet_ctx_check_ignore_names(struct kvet_ctx *ctx);

/* Is @path one the configuration excludes? */
bool kvet_ctx_excluded(const struct kvet_ctx *ctx, const char *path);

/* pool.c */

/* Apply @opts to the pool (from the configuration file when @config);
 * -1 with a rule error when a value is invalid. */
int kvet_ctx_apply_pool(struct kvet_ctx *ctx,
			const struct kvet_pool_options *opts, bool config);

/* The pool with its defaults, and the plan's max-unavailable and surge
 * where the pool sets them. */
void kvet_ctx_pool(const struct kvet_ctx *ctx, struct drain_pool *out,
		   struct drain_options *plan);

/* Record what kvet_ctx_drain_pool() tells of a run on @pool. */
void kvet_ctx_pool_info(struct kvet_ctx *ctx, const struct drain_pool *pool,
			const struct drain_result *res);

/* drain.c: simulate the drain plan instead of linting; 0 or -1 (OOM). */
int kvet_ctx_run_drain(struct kvet_ctx *ctx);

/* drain.c: issue @is as a finding of @rule, in @words (its message split
 * into headline and reason at its first colon when NULL). */
int kvet_ctx_add_drain_issue(struct kvet_ctx *ctx,
			     const struct drain_issue *is, const char *rule,
			     const struct kvet_finding_text *words);

/* checks.c: kvet's C checks, in one table (findings/check.h). */
#define KVET_MAX_C_CHECKS 16
const struct kvet_check *kvet_checks(size_t *n);
/* Those of @stage that the context runs, into @out; their number. */
size_t kvet_ctx_checks_at(const struct kvet_ctx *ctx,
			  enum kvet_check_stage stage,
			  const struct kvet_check **out);
/* Run those of each object, before the graph; 0 or -1 (OOM). */
int kvet_ctx_check_objects(struct kvet_ctx *ctx);

/* roll_check.c: the rolling-upgrade-stalls check of kvet lint. */
#define KVET_RULE_ROLL "rolling-upgrade-stalls"
extern const struct kvet_rule_info kvet_check_roll_info;

/* Roll the pool, findings of what stalls it; 0 or -1 (OOM). */
int kvet_ctx_check_roll(struct kvet_ctx *ctx);

/* What the roll can stall on: workloads, budgets and webhook
 * configurations of rendered manifests. */
bool kvet_ctx_roll_applies(const struct kvet_ctx *ctx,
			   const struct kvet_object *obj);

/* The graph configuration the settings ask for. */
void kvet_ctx_graph_config(const struct kvet_ctx *ctx,
			   struct kvet_graph_config *cfg);

#endif
