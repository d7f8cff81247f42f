/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_RULES_RULE_LOAD_H
#define KVET_RULES_RULE_LOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "load/node.h"
#include "rules/rules.h"

/*
 * Inside the rule file loader: what rule_file.c (the file, its documents,
 * the rule as a whole) and rule_fields.c (a loader per field) share.
 */

/* What is being loaded: one rule file. */
struct rfile {
	struct kvet_rule_set *set;
	struct kvet_rule *rule;		/* the rule being loaded */
	const char *name;
	const char *buf;
	size_t len;
	bool failed;
	bool oom;
	/* the cost estimate of the rule being loaded: its expressions, the
	 * ones after `each` once per item */
	double cost, per_item, heavy;
	/* the costliest part: byte @heavy_off of scalar @heavy_node (the
	 * rule's root: its own place), placed only for the error */
	const struct kvet_node *heavy_node;
	size_t heavy_off;
	struct cel_estimate last;		/* of the last expression */
	const struct cel_value *params;		/* of the rule, for sizes */
	/* the rule's variables while it loads: names, and the nodes of
	 * names and expressions, for compile_vars() and positions */
	const char **var_names;
	const struct kvet_node **var_name_nodes, **var_exprs;
	const struct kvet_node *group_by;	/* each.group_by, compiled
						 * after the variables */
};

/* An error at @line:@col of the rule file; the rule is not added. */
__attribute__((format(printf, 4, 5)))
void rfile_error(struct rfile *rf, unsigned int line, unsigned int col,
		 const char *fmt, ...);

#define NERROR(rf, n, ...) rfile_error(rf, (n)->line, (n)->col, __VA_ARGS__)

/* @n elements of @size bytes in the rule set's arena; running out fails
 * the file with one error. */
void *rfile_alloc(struct rfile *rf, size_t n, size_t size);

/* The line and column of byte @off of scalar @n's value. */
void rfile_scalar_pos(const struct rfile *rf, const struct kvet_node *n,
		      size_t off, unsigned int *line, unsigned int *col);

/* Scalar @n as a string in the arena, or NULL after an error. */
const char *rfile_str(struct rfile *rf, const struct kvet_node *n,
		      const char *field);

/* Compile @len bytes of @text, byte @base of scalar @n, with @scope;
 * errors at their place, the cost added to the rule's estimate. */
bool rfile_compile(struct rfile *rf, const struct kvet_node *n, size_t base,
		   const char *text, size_t len, const struct cel_scope *scope,
		   struct cel_program *out, unsigned int *n_slots);
/* The same for the whole scalar @n, which must be a string. */
bool rfile_compile_node(struct rfile *rf, const struct kvet_node *n,
			const char *field, const struct cel_scope *scope,
			struct cel_program *out, unsigned int *n_slots);

/* A list of strings (or one string) into a NULL-free array. */
const char *const *rfile_str_list(struct rfile *rf, const struct kvet_node *n,
				  const char *field, size_t *count);
/* The node of item @i of such a list, for its position: a scalar that
 * stands for a list of one is its own item (its u.items is its text). */
const struct kvet_node *rfile_list_item(const struct kvet_node *n, size_t i);

/* The loaders of the fields (rule_fields.c). */
void rfile_load_match(struct rfile *rf, struct kvet_rule *r,
		      const struct kvet_node *n);
void rfile_load_params(struct rfile *rf, struct kvet_rule *r,
		       const struct kvet_node *n);
void rfile_declare_vars(struct rfile *rf, struct kvet_rule *r,
			const struct kvet_node *n);
void rfile_load_each(struct rfile *rf, struct kvet_rule *r,
		     const struct kvet_node *n, struct cel_scope *scope);
void rfile_compile_vars(struct rfile *rf, struct kvet_rule *r,
			struct cel_scope *scope);
void rfile_load_template(struct rfile *rf, struct kvet_template *t,
			 const char *field, const struct kvet_node *n,
			 const struct cel_scope *scope);
void rfile_load_examples(struct rfile *rf, struct kvet_rule *r,
			 const struct kvet_node *n);

#endif
