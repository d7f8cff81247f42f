/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_RULES_RULES_H
#define KVET_RULES_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "kvet/kvet.h"
#include "base/arena.h"
#include "base/diag.h"
#include "model/graph.h"
#include "cel/cel.h"
#include "load/node.h"
#include "rules/findings.h"

/*
 * Rules as data (docs/rule-language.md): one YAML file per rule, loaded
 * and validated into a rule set, whose conditions, messages and `at`
 * fields are compiled CEL programs. Built-in rules are the files of
 * rules/, embedded at build time (builtin_rules.c, generated); users add
 * theirs with --rules DIR.
 */

/* "info", "warning", "error": the spelling of each enum kvet_severity. */
extern const char *const kvet_rule_severity_names[KVET_SEV_COUNT];

/* Variable slots of every rule expression. */
enum {
	KVET_RULE_VAR_OBJECT,
	KVET_RULE_VAR_PARAMS,
	KVET_RULE_VAR_EACH,	/* the `each.as` variable, when there is one */
	KVET_RULE_VAR_GROUP,	/* `group`, with `each.group_by` */
};

struct kvet_rule_example {
	const char *name;
	bool fails;		/* expect: fail */
	long findings;		/* exact count expected; -1: at least one */
	bool complete;		/* lint with --complete-input */
	int severity;		/* of every finding; -1: any */
	const char *message;	/* a part of every finding's message */
	const char *manifest;
	size_t len;
	unsigned int line;	/* of the example in its rule file */
};

/* One piece of a message template: text, or a {{ expression }}. */
struct kvet_msg_part {
	const char *text;	/* NULL for an expression */
	size_t len;
	struct cel_program prog;
};

/* A message template (`message`, `headline`, `reason`, `help`): its
 * pieces, present when @text is. */
struct kvet_template {
	struct kvet_msg_part *parts;
	size_t n;
	const char *text;	/* as written; NULL: the rule has none */
	/* a template without expressions, rendered once when loaded (a
	 * help is often one), so that each finding need not copy it */
	const char *constant;
};

/* A named expression of the rule's `variables:`, read as variables.NAME. */
struct kvet_rule_var {
	const char *name;
	const char *text;		/* the expression, for documentation */
};

/* Variables per rule: each read lazily (cel.h, struct cel_lazy). */
enum { KVET_RULE_MAX_VARS = 64 };

struct kvet_rule_param {
	const char *name;
	struct cel_value *value;	/* in the rule's params map */
};

struct kvet_rule {
	struct kvet_rule_info info;
	const char *file;
	const char *const *kinds;	/* "Kind", "group/Kind", or the word
					 * "workload" or "scalable-workload" */
	size_t n_kinds;
	/* what the words select: KVET_KIND_WORKLOAD, every workload kind
	 * (built in or declared in `workloads`); KVET_KIND_SCALABLE_WORKLOAD,
	 * those with a scale; KVET_KIND_OTHER, none */
	enum kvet_kind_class kind_class;
	const char *const *namespaces;	/* none: every namespace */
	size_t n_namespaces;
	const struct cel_entry *labels;	/* metadata.labels to require */
	size_t n_labels;
	struct cel_value params;	/* a map */
	struct kvet_rule_param *param_list;
	size_t n_params;
	struct cel_program condition;
	const char *condition_text;
	struct kvet_rule_var *vars;
	struct cel_program *var_progs;	/* n_vars, in order */
	size_t n_vars;
	bool has_each;
	const char *each_as;
	const char *each_text;
	struct cel_program each;
	/* each.group_by: the items whose key is equal give one finding,
	 * at the first, with `group` the list of them (docs/rule-language.md,
	 * "One cause, one finding") */
	bool has_group;
	const char *group_text;
	struct cel_program group_by;
	bool has_severity_expr;
	struct cel_program severity_expr;
	/* the words of a finding (docs/rule-language.md, "Messages"):
	 * `message:` (a team's rule), or `headline:` and `reason:`, joined
	 * into the message; `help:`, or help_default */
	struct kvet_template message, headline, reason, help;
	const char *help_default;	/* from the remediation, or NULL */
	struct cel_program *at;		/* the first giving a field wins */
	size_t n_at;
	bool has_related;
	struct cel_program related;	/* objects, or a list of them */
	struct kvet_rule_example *examples;
	size_t n_examples;
	unsigned int n_slots;		/* the most any program needs */
	bool disabled;			/* switched off by the settings */
	bool builtin;			/* one of rules/, embedded */
	const char *text;		/* the rule file, for its examples */
	size_t text_len;
	/* on_error: tolerate, or the settings: evaluation errors are
	 * listed but leave the exit status alone */
	bool tolerate_errors;
	/* a built-in rule of a lint or a drain, its programs not compiled
	 * yet (kvet_rule_set_compile()): its tree; never run while set */
	const struct kvet_node *pending;
};

struct kvet_rule_set {
	struct kvet_arena arena;	/* rules, programs, rule file texts */
	struct cel_regexes rx;
	struct kvet_diag diag;		/* rule-file errors, positioned */
	struct kvet_rule **v;		/* malloc'd, sorted by id when done */
	size_t n, cap;
	/* loading the built-in rules: every documenting field (category,
	 * summary, description, remediation, references, examples) is
	 * required, where a team's rule may leave them out */
	bool builtin;
	/* ...without their examples, which a lint or a drain never runs */
	bool lean;
};

void kvet_rule_set_init(struct kvet_rule_set *set);
void kvet_rule_set_release(struct kvet_rule_set *set);

/**
 * kvet_rule_set_add_buffer() - load the rules of one rule file.
 * @set: the set.
 * @name: the file name for positions; copied.
 * @text: the YAML; copied.
 * @len: its length.
 *
 * Each document is one rule. Problems are recorded in @set->diag with
 * their file:line:column; a rule with a problem is not added.
 *
 * Returns: 0, or -1 when the file had a problem or memory ran out.
 */
int kvet_rule_set_add_buffer(struct kvet_rule_set *set, const char *name,
			     const char *text, size_t len);

/* A rule file is a few kilobytes; a larger one is refused at the byte
 * past the limit (docs/reliability.md). */
#define KVET_RULE_FILE_MAX_SIZE ((size_t)4 * 1024 * 1024)

/* Load every *.yaml and *.yml file of @dir (recursively, in byte order);
 * a FIFO that nobody writes to is an error, never a wait. */
int kvet_rule_set_add_dir(struct kvet_rule_set *set, const char *dir);

/*
 * Load the built-in rules embedded in the library; with @examples false,
 * without their examples: most of the rule files' bytes (a lint of one
 * ConfigMap: 78.5 million instructions with them, 42.7 million without),
 * and only kvet rules test, kvet explain and the rule pages use them.
 */
int kvet_rule_set_add_builtin(struct kvet_rule_set *set, bool examples);

/**
 * kvet_rule_fill_defaults() - the documented defaults of the fields a
 * team's rule file may leave out (docs/rule-language.md): category
 * "custom", the summary is the message (or headline) as written, the
 * description the summary, the remediation empty; no references, no
 * examples; without `help:`, the first paragraph of the remediation on
 * one line (in @arena), or none.
 *
 * Returns: 0, or -1 when out of memory.
 */
int kvet_rule_fill_defaults(struct kvet_rule *r, struct kvet_arena *arena);

/**
 * kvet_rule_set_compile() - compile the programs of the pending rules
 * (a lean set's built-in rules: @set->lean) that match one of the @n
 * objects @objs, with the declared workload kinds @custom (@n_custom).
 * Most inputs hold a few kinds, and most rules select other kinds: a
 * lint compiles the rules it can run, not all of them. A disabled rule
 * stays pending; a pending rule matches nothing and is never run.
 *
 * Returns: 0, or -1 when memory ran out (recorded in @set->diag).
 */
int kvet_rule_set_compile(struct kvet_rule_set *set,
			  struct kvet_object *const *objs, size_t n,
			  const struct kvet_custom_workload *custom,
			  size_t n_custom);

/* Sort by id; call after the last add. */
void kvet_rule_set_sort(struct kvet_rule_set *set);

const struct kvet_rule *kvet_rule_set_find(const struct kvet_rule_set *set,
					   const char *id);

/**
 * kvet_rule_set_param() - override parameter @name of rule @id with
 * @value, read as a YAML scalar of the default's type.
 * Returns: 0, or -1 with the reason recorded in @set->diag.
 */
int kvet_rule_set_param(struct kvet_rule_set *set, const char *id,
			const char *name, const char *value);

/* The built-in rule files, generated from rules/ by tools/embed_rules. */
struct kvet_builtin_rule_file {
	const char *name;	/* "rules/ID.yaml" */
	const char *text;
	size_t len;
	/* the bytes before the top-level examples: key, the file's last
	 * (tools/embed_rules.c): what a rule is without its examples */
	size_t rule_len;
	/* the loader's trees of those bytes, one per document, made at
	 * build time: a lint need not parse them */
	const struct kvet_node *roots;
	size_t n_roots;
};

extern const struct kvet_builtin_rule_file kvet_builtin_rule_files[];
extern const size_t kvet_builtin_rule_file_count;

/* ---- running ---- */

struct kvet_rule_runner;

/* Evaluation errors listed per rule; one more entry counts the rest. */
enum { KVET_RULE_ERRORS_LISTED = 10 };

/**
 * kvet_rule_runner_create() - prepare to run @set over a graph.
 * @set: the rules; borrowed.
 * @g: the graph; borrowed.
 * @arena: the run's arena (relations, related-object arrays).
 * @fs: findings go here.
 * @errors: evaluation errors go here (kvet_error with @rule set), at
 *          most KVET_RULE_ERRORS_LISTED per rule until
 *          kvet_rule_runner_finish() counts the others.
 *
 * Returns: the runner, or NULL when out of memory.
 */
struct kvet_rule_runner *kvet_rule_runner_create(const struct kvet_rule_set *set,
						 const struct kvet_graph *g,
						 struct kvet_arena *arena,
						 struct kvet_findings *fs,
						 struct kvet_diag *errors);
void kvet_rule_runner_destroy(struct kvet_rule_runner *r);

/* After the last object: one error per rule whose evaluation errors were
 * not all listed, saying how many more. Returns 0, or -1 (no memory). */
int kvet_rule_runner_finish(struct kvet_rule_runner *r);

/*
 * Does @obj pass the `match` of @rule (kinds, namespaces, labels)? @custom
 * are the workload kinds the configuration declares (@n of them), which
 * the words "workload" and "scalable-workload" select as well.
 */
bool kvet_rule_matches(const struct kvet_rule *rule,
		       const struct kvet_object *obj,
		       const struct kvet_custom_workload *custom, size_t n);

/*
 * kvet_rule_one_line() - a rendered template as findings show it, on one
 * line: YAML folding may leave line breaks, tabs and runs of spaces in a
 * template, and each run becomes one space; leading and trailing spaces
 * go. Rewrites @msg in place and returns it.
 */
char *kvet_rule_one_line(char *msg);

/* Run every rule matching @obj. Returns 0, or -1 when out of memory. */
int kvet_rule_runner_object(struct kvet_rule_runner *r,
			    const struct kvet_object *obj, size_t file_order);

/* Evaluation errors, listed or not. */
size_t kvet_rule_runner_errors(const struct kvet_rule_runner *r);

/* ---- documentation ---- */

/* Write the Markdown documentation of a rule (docs/rules/ID.md). */
int kvet_rule_write_markdown(const struct kvet_rule_info *info,
			     const struct kvet_rule *rule, FILE *fp);

#endif
