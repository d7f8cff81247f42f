/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_TESTS_TDRAIN_H
#define KVET_TESTS_TDRAIN_H

/*
 * The drain engine on a YAML input: a graph loaded with the real loader,
 * the cluster built from it, and helpers to find pods and issues.
 */
#include <stdio.h>

#include "support.h"

#include "base/read_file.h"
#include "drain/cluster.h"
#include "drain/drain.h"
#include "model/graph.h"

struct tdrain {
	struct loaded *l;
	struct kvet_graph *g;
	struct kvet_diag diag;
	struct drain_result res;
	int rc;
};

/* The text of fixture @name (tests/drain/fixtures/NAME). */
static inline char *td_fixture(const char *name)
{
	char path[1024];
	FILE *fp;
	char *buf;
	long len;

	snprintf(path, sizeof(path), "%s/%s", FIXTURES, name);
	fp = fopen(path, "rb");
	assert_non_null(fp);
	fseek(fp, 0, SEEK_END);
	len = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	buf = malloc((size_t)len + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)len, fp), (size_t)len);
	buf[len] = '\0';
	fclose(fp);
	return buf;
}

static inline void td_load(struct tdrain *t, const char *yaml)
{
	memset(t, 0, sizeof(*t));
	t->l = load_str(yaml);
	if (t->l->diag.n)
		fail_msg("input error: %s", t->l->diag.errors[0].message);
	t->g = kvet_graph_create(&t->l->arena, t->l->objs.v, t->l->objs.n,
				 NULL);
	assert_non_null(t->g);
	kvet_diag_init(&t->diag, &t->l->arena);
}

/* Default options: each node alone, kubectl drain with the flags of
 * managed upgrades. */
static inline struct drain_options td_options(void)
{
	struct drain_options o;

	memset(&o, 0, sizeof(o));
	o.plan = KVET_DRAIN_EACH_NODE;
	o.delete_emptydir = true;
	o.ignore_daemonsets = true;
	o.max_unavailable = 1;
	return o;
}

static inline void td_run(struct tdrain *t, const struct drain_options *o)
{
	drain_result_release(&t->res);
	t->rc = drain_run_dump(&t->l->arena, &t->diag, t->g, o, &t->res);
}

static inline void td_free(struct tdrain *t)
{
	drain_result_release(&t->res);
	kvet_diag_release(&t->diag);
	kvet_graph_destroy(t->g);
	loaded_free(t->l);
}

/* The result of node @name. */
static inline const struct drain_node_result *td_node(const struct tdrain *t,
						      const char *name)
{
	size_t i;

	for (i = 0; i < t->res.n_nodes; i++)
		if (!strcmp(t->res.nodes[i].name, name))
			return &t->res.nodes[i];
	fail_msg("no node %s in the result", name);
	return NULL;
}

/* How many issues of @rule node @name has (NULL: any node). */
static inline size_t td_count(const struct tdrain *t, const char *node,
			      enum drain_rule rule)
{
	size_t i, n = 0;

	for (i = 0; i < t->res.n_issues; i++) {
		const struct drain_issue *is = &t->res.issues[i];

		if (is->rule == rule &&
		    (!node || !strcmp(t->res.nodes[is->node].name, node)))
			n++;
	}
	return n;
}

/* The first issue of @rule on node @node, failing when there is none. */
static inline const struct drain_issue *td_issue(const struct tdrain *t,
						 const char *node,
						 enum drain_rule rule)
{
	size_t i;

	for (i = 0; i < t->res.n_issues; i++) {
		const struct drain_issue *is = &t->res.issues[i];

		if (is->rule == rule &&
		    (!node || !strcmp(t->res.nodes[is->node].name, node)))
			return is;
	}
	fail_msg("node %s has no issue of rule %d", node ? node : "*",
		 (int)rule);
	return NULL;
}

static inline void td_contains(const char *s, const char *part)
{
	if (!s || !strstr(s, part))
		fail_msg("\"%s\" lacks \"%s\"", s ? s : "(null)", part);
}

#endif
