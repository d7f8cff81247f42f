/* SPDX-License-Identifier: Apache-2.0 */
#include "model/release_label.h"

#include <string.h>

#include "model/spread.h"
#include "model/workload.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Keys every installation of a chart shares besides the shared keys of
 * model/spread.c: the application's name (a chart's "name" helper, not
 * its "fullname") and the legacy labels charts put beside it.
 * https://kubernetes.io/docs/concepts/overview/working-with-objects/common-labels/
 */
static const char *const name_keys[] = {
	"app.kubernetes.io/name",
	"app",
	"name",
	"component",
	"k8s-app",
};

/*
 * The labels that tell one release of a chart from another. Only the
 * first is a recommended label; "release" is also the classic track
 * label (release: stable, release: canary), so the other two count only
 * where Helm made the object (helm_evidence()).
 */
#define INSTANCE_KEY "app.kubernetes.io/instance"
static const char *const helm_release_keys[] = {
	"release",
	"helm.sh/release",
};

static bool listed(struct kvet_slice key, const char *const *keys, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (kvet_slice_eq0(key, keys[i]))
			return true;
	return false;
}

bool kvet_release_agnostic_key(const struct kvet_graph *g,
			       struct kvet_slice key)
{
	return kvet_shared_label_key(g, key) ||
	       (!kvet_graph_config(g)->shared_keys.replace &&
		listed(key, name_keys, N_OF(name_keys)));
}

/* A scalar label of @obj's metadata.labels, as a slice. */
static bool object_label(const struct kvet_object *obj, const char *key,
			 struct kvet_slice *out)
{
	const struct kvet_node *labels =
		kvet_node_path(obj->root, "metadata", "labels", NULL);

	return kvet_node_slice(kvet_node_get(labels, key), out);
}

static bool label(const struct kvet_object *obj,
		  const struct kvet_labels *pods, const char *key,
		  struct kvet_slice *out)
{
	return kvet_labels_get(pods, kvet_slice_of(key), out) ||
	       object_label(obj, key, out);
}

/* Did Helm make @obj: a "# Source:" comment, or Helm's own labels on
 * it or its pods? */
static bool helm_evidence(const struct kvet_object *obj,
			  const struct kvet_labels *pods)
{
	struct kvet_slice v;

	if (obj->source || label(obj, pods, "helm.sh/chart", &v) ||
	    label(obj, pods, "chart", &v))
		return true;
	return (label(obj, pods, "heritage", &v) &&
		kvet_slice_eq0(v, "Helm")) ||
	       (label(obj, pods, "app.kubernetes.io/managed-by", &v) &&
		kvet_slice_eq0(v, "Helm"));
}

/* The release label the pods of @wl carry; @obj is their consumer. */
static bool release_label_of(const struct kvet_object *obj,
			     const struct kvet_workload *wl,
			     struct kvet_release_label *out)
{
	size_t i;

	out->key = kvet_slice_of(INSTANCE_KEY);
	if (kvet_labels_get(&wl->labels, out->key, &out->value) &&
	    out->value.len)
		return true;
	if (!helm_evidence(obj, &wl->labels) &&
	    !helm_evidence(wl->obj, &wl->labels))
		return false;
	for (i = 0; i < N_OF(helm_release_keys); i++) {
		out->key = kvet_slice_of(helm_release_keys[i]);
		if (kvet_labels_get(&wl->labels, out->key, &out->value) &&
		    out->value.len)
			return true;
	}
	return false;
}

/*
 * The chart's name: helm.sh/chart (or chart) is "<name>-<version>", and
 * the version is the last "-<digit>..." part that holds a dot (SemVer,
 * prerelease included: "redis-17.3.2-rc.1" is redis).
 */
static struct kvet_slice chart_name(const struct kvet_object *obj,
				    const struct kvet_labels *pods)
{
	struct kvet_slice v = { "", 0 };
	size_t i;

	if (!label(obj, pods, "helm.sh/chart", &v) &&
	    !label(obj, pods, "chart", &v))
		return v;
	for (i = v.len; i-- > 1;)
		if (v.s[i - 1] == '-' && v.s[i] >= '0' && v.s[i] <= '9' &&
		    memchr(v.s + i, '.', v.len - i)) {
			v.len = i - 1;
			return v;
		}
	return v;
}

static bool contains(struct kvet_slice hay, struct kvet_slice needle)
{
	size_t i;

	if (!needle.len || needle.len > hay.len)
		return false;
	for (i = 0; i + needle.len <= hay.len; i++)
		if (!memcmp(hay.s + i, needle.s, needle.len))
			return true;
	return false;
}

/*
 * A value that carries the release's name is release-specific: charts
 * select on their "fullname" (release-chart) under app or name. The
 * name key holds the chart's name by convention, and a release called
 * like its chart gives app.kubernetes.io/name: grafana and instance:
 * grafana alike: the chart's name there is no evidence of the release.
 */
static bool value_names_release(const struct kvet_requirement *r,
				const struct kvet_release_label *rel,
				struct kvet_slice chart)
{
	size_t i;

	for (i = 0; i < r->n_values; i++) {
		if (!contains(r->values[i], rel->value))
			continue;
		if (kvet_slice_eq0(r->key, "app.kubernetes.io/name") &&
		    chart.len && kvet_slice_eq(r->values[i], chart))
			continue;
		return true;
	}
	return false;
}

static bool agnostic(const struct kvet_graph *g,
		     const struct kvet_selector *sel,
		     const struct kvet_release_label *rel,
		     struct kvet_slice chart)
{
	size_t i;

	/* {} is the broad-selector rules' (pdb-selector-scope, ...) */
	if (sel->meaning != KVET_SEL_MATCH || !sel->n_reqs)
		return false;
	for (i = 0; i < sel->n_reqs; i++) {
		const struct kvet_requirement *r = &sel->reqs[i];

		if (kvet_slice_eq(r->key, rel->key) ||
		    !kvet_release_agnostic_key(g, r->key) ||
		    value_names_release(r, rel, chart))
			return false;
	}
	return true;
}

/* A budget's or a Service's selector over the workloads it selects:
 * every one carries one release label with one value, which @sel
 * leaves out. */
static bool selection_ignores_release(const struct kvet_graph *g,
				      const struct kvet_object *consumer,
				      const struct kvet_selector *sel,
				      const struct kvet_workload *const *wls,
				      size_t n, struct kvet_release_label *out)
{
	struct kvet_release_label rel, first;
	size_t i;

	if (!n)
		return false;
	for (i = 0; i < n; i++) {
		if (!release_label_of(consumer, wls[i], &rel))
			return false;
		if (i && (!kvet_slice_eq(rel.key, first.key) ||
			  !kvet_slice_eq(rel.value, first.value)))
			return false;
		first = rel;
	}
	if (!agnostic(g, sel, &first, chart_name(wls[0]->obj, &wls[0]->labels)))
		return false;
	*out = first;
	return true;
}

bool kvet_budget_ignores_release(const struct kvet_graph *g,
				 const struct kvet_budget *b,
				 struct kvet_release_label *out)
{
	return selection_ignores_release(g, b->obj, &b->pdb.selector, b->wls,
					 b->n, out);
}

bool kvet_service_ignores_release(const struct kvet_graph *g,
				  const struct kvet_service *svc,
				  const struct kvet_workload *const *wls,
				  size_t n, struct kvet_release_label *out)
{
	return !svc->external_name &&
	       selection_ignores_release(g, svc->obj, &svc->selector, wls, n,
					 out);
}

bool kvet_term_ignores_release(const struct kvet_graph *g,
			       const struct kvet_term *t,
			       struct kvet_release_label *out)
{
	struct kvet_release_label rel;

	if (!t->wl || !release_label_of(t->wl->obj, t->wl, &rel) ||
	    !agnostic(g, &t->merged, &rel,
		      chart_name(t->wl->obj, &t->wl->labels)))
		return false;
	*out = rel;
	return true;
}
