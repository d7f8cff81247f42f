/* SPDX-License-Identifier: Apache-2.0 */
#include "drain/kubectl.h"

/* kubectl's messages, word for word (filters.go) */
#define DAEMONSET_FATAL "DaemonSet-managed Pods (use --ignore-daemonsets to ignore)"
#define DAEMONSET_WARNING "ignoring DaemonSet-managed Pods"
#define LOCAL_STORAGE_FATAL "Pods with local storage (use --delete-emptydir-data to override)"
#define LOCAL_STORAGE_WARNING "deleting Pods with local storage"
#define UNMANAGED_FATAL "cannot delete Pods that declare no controller (use --force to override)"
#define UNMANAGED_WARNING "deleting Pods that declare no controller"

static void set(struct drain_filter *f, enum drain_filter_status st,
		bool del, const char *msg)
{
	f->status = st;
	f->delete = del;
	f->message = msg;
}

static bool finished(const struct drain_pod *pod)
{
	return kvet_pod_phase_terminal(pod->phase);
}

/*
 * A DaemonSet's pod stays whatever the flags (the DaemonSet would put it
 * back). kubectl asks the API server for the DaemonSet; a dump may lack
 * it (some support bundles collect no DaemonSets), and kvet takes it to
 * exist rather than call a live DaemonSet's pod an orphan.
 */
static bool daemonset(const struct drain_cluster *c,
		      const struct drain_pod *pod, struct drain_filter *f)
{
	if (pod->kind != DRAIN_POD_DAEMONSET || finished(pod))
		return true;
	if (!c->opts.ignore_daemonsets)
		set(f, DRAIN_FILTER_ERROR, false, DAEMONSET_FATAL);
	else
		set(f, DRAIN_FILTER_WARNING, false, DAEMONSET_WARNING);
	return false;
}

static bool mirror(const struct drain_pod *pod, struct drain_filter *f)
{
	if (pod->kind != DRAIN_POD_MIRROR)
		return true;
	set(f, DRAIN_FILTER_SKIP, false, NULL);
	return false;
}

static bool local_storage(const struct drain_cluster *c,
			  const struct drain_pod *pod, struct drain_filter *f)
{
	if (!pod->needs.emptydir || finished(pod))
		return true;
	if (!c->opts.delete_emptydir) {
		set(f, DRAIN_FILTER_ERROR, false, LOCAL_STORAGE_FATAL);
		return false;
	}
	/* kubectl's own TODO: the next filter's status replaces this one */
	set(f, DRAIN_FILTER_WARNING, true, LOCAL_STORAGE_WARNING);
	return true;
}

static void unreplicated(const struct drain_cluster *c,
			 const struct drain_pod *pod, struct drain_filter *f)
{
	if (finished(pod) || pod->kind != DRAIN_POD_BARE)
		set(f, DRAIN_FILTER_OKAY, true, NULL);
	else if (c->opts.force)
		set(f, DRAIN_FILTER_WARNING, true, UNMANAGED_WARNING);
	else
		set(f, DRAIN_FILTER_ERROR, false, UNMANAGED_FATAL);
}

void drain_kubectl_filter(const struct drain_cluster *c, uint32_t p,
			  struct drain_filter *out)
{
	const struct drain_pod *pod = &c->pods[p];

	set(out, DRAIN_FILTER_OKAY, true, NULL);
	if (daemonset(c, pod, out) && mirror(pod, out) &&
	    local_storage(c, pod, out))
		unreplicated(c, pod, out);
}
