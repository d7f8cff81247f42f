/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_CLI_CLUSTER_H
#define KVET_CLI_CLUSTER_H

#include <stdio.h>

#include "kvet/kvet.h"
#include "cli/args.h"

/* What --cluster asks kubectl for: the kinds kvet's rules and drains
 * read (ConfigMaps for the leader-election checks; docs/usage.md).
 * Secrets are left out: no rule needs their data, and many users may
 * not list them. */
#define KVET_CLUSTER_RESOURCES \
	"nodes,pods,poddisruptionbudgets,deployments,statefulsets," \
	"daemonsets,replicasets,replicationcontrollers,jobs,cronjobs," \
	"horizontalpodautoscalers,services,endpoints,persistentvolumes," \
	"persistentvolumeclaims,storageclasses,priorityclasses,namespaces," \
	"serviceaccounts,roles,rolebindings,clusterroles," \
	"clusterrolebindings,validatingwebhookconfigurations," \
	"mutatingwebhookconfigurations,apiservices,ingressclasses,configmaps"

/**
 * kvet_cli_cluster_add() - run the calling kubectl (KUBECTL, or kubectl
 * on PATH) as `kubectl get KVET_CLUSTER_RESOURCES -A -o json`, with
 * --context, --kubeconfig and --namespace passed on, and queue what it
 * prints as the input, a complete one (the whole cluster).
 * @ctx: the context.
 * @args: the command line (--context, --kubeconfig, --namespace).
 * @err: where a failure is described, kubectl's own error quoted.
 *
 * Returns: 0, or the exit code to end with: KVET_EXIT_INPUT when kubectl
 * could not be run, failed or printed more than the input size limit.
 */
int kvet_cli_cluster_add(struct kvet_ctx *ctx, const struct kvet_args *args,
			 FILE *err);

#endif
