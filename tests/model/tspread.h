/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_TESTS_TSPREAD_H
#define KVET_TESTS_TSPREAD_H

/*
 * The spreading fixture the model tests (test_spread_run.c,
 * test_sched_validate.c, test_rollout.c) and the kvet.spread binding
 * tests share: workloads with terms of every kind, and Nodes.
 */
#include <stdio.h>

#define DEPLOY(ns, name, replicas, labels, spec)                            \
	"apiVersion: apps/v1\nkind: Deployment\n"                           \
	"metadata: {name: " name ", namespace: " ns "}\n"                   \
	"spec:\n  replicas: " replicas "\n"                                 \
	"  selector: {matchLabels: {app.kubernetes.io/name: " name "}}\n"   \
	"  template:\n    metadata: {labels: " labels "}\n"                 \
	"    spec:\n" spec "---\n"

#define SUITE(name)                                                         \
	"{app.kubernetes.io/name: " name ", app.kubernetes.io/instance: " name \
	", app.kubernetes.io/part-of: suite, app.kubernetes.io/component: manager}"

static const char *const input_workloads =
	/* alpha: a preferred term on shared keys (matches beta), a required
	 * term that excludes itself, a spread constraint without selector */
	DEPLOY("ops", "alpha", "3", SUITE("alpha"),
	       "      affinity:\n        podAntiAffinity:\n"
	       "          requiredDuringSchedulingIgnoredDuringExecution:\n"
	       "          - topologyKey: kubernetes.io/hostname\n"
	       "            labelSelector: {matchLabels: {app.kubernetes.io/part-of: suite}}\n"
	       "            mismatchLabelKeys: [app.kubernetes.io/name]\n"
	       "          preferredDuringSchedulingIgnoredDuringExecution:\n"
	       "          - weight: 100\n"
	       "            podAffinityTerm:\n"
	       "              topologyKey: kubernetes.io/hostname\n"
	       "              labelSelector: {matchLabels: {app.kubernetes.io/part-of: suite,"
	       " app.kubernetes.io/component: manager}}\n"
	       "      topologySpreadConstraints:\n"
	       "      - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone,"
	       " whenUnsatisfiable: ScheduleAnyway}\n")
	DEPLOY("ops", "beta", "2", SUITE("beta"), "      {}\n")
	/* solo: a required term on kubernetes.io/os, own labels, and a
	 * rollout that removes an old pod first */
	DEPLOY("ops", "solo", "4", "{app.kubernetes.io/name: solo}",
	       "      nodeSelector: {pool: system}\n"
	       "      affinity:\n        podAntiAffinity:\n"
	       "          requiredDuringSchedulingIgnoredDuringExecution:\n"
	       "          - topologyKey: kubernetes.io/hostname\n"
	       "            labelSelector: {matchLabels: {app.kubernetes.io/name: solo}}\n"
	       "          - topologyKey: kubernetes.io/os\n"
	       "            labelSelector: {matchLabels: {app.kubernetes.io/name: solo}}\n"
	       "            matchLabelKeys: [pod-template-hash]\n")
	/* far: its only term looks in namespaces labelled team=a, and its
	 * Namespace object is not in the input */
	DEPLOY("far", "far", "2", "{app.kubernetes.io/name: far}",
	       "      affinity:\n        podAntiAffinity:\n"
	       "          preferredDuringSchedulingIgnoredDuringExecution:\n"
	       "          - weight: 1\n"
	       "            podAffinityTerm:\n"
	       "              topologyKey: kubernetes.io/hostname\n"
	       "              namespaceSelector: {matchLabels: {team: a}}\n"
	       "              labelSelector: {matchLabels: {app.kubernetes.io/name: far}}\n")
	/* bad: what the API server rejects */
	DEPLOY("ops", "bad", "1", "{app: bad}",
	       "      affinity:\n        podAffinity:\n"
	       "          preferredDuringSchedulingIgnoredDuringExecution:\n"
	       "          - weight: 101\n"
	       "            podAffinityTerm: {topologyKey: '', labelSelector: {matchLabels: {app: x}}}\n"
	       "      topologySpreadConstraints:\n"
	       "      - {maxSkew: 0, topologyKey: kubernetes.io/hostname,"
	       " whenUnsatisfiable: ScheduleAnyway, minDomains: 2,"
	       " nodeTaintsPolicy: honor}\n")
	"apiVersion: apps/v1\nkind: Deployment\n"
	"metadata: {name: roll, namespace: ops}\n"
	"spec:\n  replicas: 7\n"
	"  strategy: {rollingUpdate: {maxUnavailable: \"20%\"}}\n"
	"  selector: {matchLabels: {app: roll}}\n"
	"  template: {metadata: {labels: {app: roll}}}\n"
	"---\n"
	"apiVersion: apps/v1\nkind: StatefulSet\n"
	"metadata: {name: db, namespace: ops}\n"
	"spec:\n  replicas: 3\n  selector: {matchLabels: {app: db}}\n"
	"  template: {metadata: {labels: {app: db}}}\n"
	"---\n";

/* split: C99 promises string literals of 4095 bytes only */
static const char *const input_nodes =
	"apiVersion: v1\nkind: Node\n"
	"metadata: {name: n1, labels: {pool: system, kubernetes.io/hostname: n1}}\n"
	"---\n"
	"apiVersion: v1\nkind: Node\n"
	"metadata: {name: n2, labels: {pool: system, kubernetes.io/hostname: n2}}\n"
	"---\n"
	"apiVersion: v1\nkind: Node\n"
	"metadata: {name: n3, labels: {pool: system, kubernetes.io/hostname: n3}}\n"
	"spec: {unschedulable: true}\n"
	"---\n"
	"apiVersion: v1\nkind: Node\n"
	"metadata: {name: n4, labels: {pool: user, kubernetes.io/hostname: n4}}\n"
	"---\n"
	"apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: far}\n";

static inline const char *tspread_input(void)
{
	static char buf[8192];

	if (!buf[0])
		snprintf(buf, sizeof(buf), "%s%s", input_workloads, input_nodes);
	return buf;
}

#endif
