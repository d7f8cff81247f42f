/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_TESTS_TPDB_H
#define KVET_TESTS_TPDB_H

/*
 * The PodDisruptionBudget fixture the model tests (test_pdb_hints.c) and
 * the kvet.pdb binding tests share: managers with overlapping
 * selectors, budgets of every form, Services, their callers, HPAs.
 */
#include <stdlib.h>
#include <string.h>

/* The documents of the input, joined with "---" (one literal would be
 * longer than C guarantees). */
static const char *const docs[] = {
	/* ops: two managers, the second with a broad selector */
	"apiVersion: apps/v1\nkind: Deployment\n"
	"metadata: {name: alpha-mgr, namespace: ops}\n"
	"spec:\n  selector: {matchLabels: {app.kubernetes.io/instance: alpha}}\n"
	"  template: {metadata: {labels: {app.kubernetes.io/instance: alpha,"
	" app.kubernetes.io/part-of: suite, app.kubernetes.io/component: manager}}}\n",
	"apiVersion: apps/v1\nkind: Deployment\n"
	"metadata: {name: beta-mgr, namespace: ops}\n"
	"spec:\n  selector: {matchLabels: {app.kubernetes.io/part-of: suite,"
	" app.kubernetes.io/component: manager}}\n"
	"  template: {metadata: {labels: {app.kubernetes.io/instance: beta,"
	" app.kubernetes.io/part-of: suite, app.kubernetes.io/component: manager}}}\n",
	"apiVersion: apps/v1\nkind: DaemonSet\n"
	"metadata: {name: agent, namespace: ops}\n"
	"spec:\n  selector: {matchLabels: {app: agent}}\n"
	"  template: {metadata: {labels: {app: agent, app.kubernetes.io/part-of: suite}}}\n",
	"apiVersion: v1\nkind: Pod\n"
	"metadata: {name: debug, namespace: ops, labels: {app: debug}}\n"
	"spec: {containers: [{name: sh, image: busybox}]}\n",
	"apiVersion: batch/v1\nkind: Job\n"
	"metadata: {name: migrate-1, namespace: ops}\n"
	"spec:\n  template: {metadata: {labels: {app: migrate}}}\n",
	"apiVersion: batch/v1\nkind: Job\n"
	"metadata: {name: migrate-2, namespace: ops}\n"
	"spec:\n  template: {metadata: {labels: {app: migrate}}}\n",
	"apiVersion: apps/v1\nkind: Deployment\n"
	"metadata: {name: web, namespace: staging}\n"
	"spec:\n  replicas: 2\n  selector: {matchLabels: {app: web}}\n"
	"  template: {metadata: {labels: {app: web}}}\n"
	/* budgets */,
	"apiVersion: policy/v1\nkind: PodDisruptionBudget\n"
	"metadata: {name: suite, namespace: ops}\n"
	"spec:\n  maxUnavailable: 1\n"
	"  selector: {matchLabels: {app.kubernetes.io/part-of: suite}}\n",
	"apiVersion: policy/v1\nkind: PodDisruptionBudget\n"
	"metadata: {name: bad, namespace: ops}\n"
	"spec:\n"
	"  minAvailable: \"1\"\n"
	"  maxUnavailable: -1\n"
	"  selector: {matchExpressions: [{key: app, operator: in, values: [x]}]}\n",
	"apiVersion: policy/v1\nkind: PodDisruptionBudget\n"
	"metadata: {name: nosel, namespace: ops}\n"
	"spec:\n  minAvailable: 1\n",
	"apiVersion: policy/v1\nkind: PodDisruptionBudget\n"
	"metadata: {name: empty, namespace: ops}\n"
	"spec:\n  minAvailable: \"50%\"\n  selector: {}\n",
	"apiVersion: policy/v1\nkind: PodDisruptionBudget\n"
	"metadata: {name: web, namespace: ops}\n"
	"spec:\n  minAvailable: 1\n  selector: {matchLabels: {app: web}}\n",
	"apiVersion: policy/v1\nkind: PodDisruptionBudget\n"
	"metadata: {name: typo, namespace: ops}\n"
	"spec:\n  maxUnavailable: 1\n"
	"  selector:\n"
	"    matchLabels: {app.kubernetes.io/part-of: suite}\n"
	"    matchExpressions: [{key: app.kubernetes.io/component, operator: In,"
	" values: [manger, ctrl]}]\n",
	"apiVersion: policy/v1\nkind: PodDisruptionBudget\n"
	"metadata: {name: one, namespace: ops}\n"
	"spec:\n  maxUnavailable: 1\n  selector: {matchLabels: {app: agnt}}\n",
	"apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\n"
	"metadata: {name: old, namespace: ops}\n"
	"spec:\n  maxUnavailable: 1\n  selector: {matchLabels: {app: agent}}\n"
	/* Services and who calls them */,
	"apiVersion: v1\nkind: Service\n"
	"metadata: {name: alpha-webhook, namespace: ops}\n"
	"spec:\n  selector: {app.kubernetes.io/part-of: suite,"
	" app.kubernetes.io/component: manager}\n",
	"apiVersion: v1\nkind: Service\n"
	"metadata: {name: metrics, namespace: ops}\n"
	"spec:\n  selector: {app: agent}\n",
	"apiVersion: v1\nkind: Service\n"
	"metadata: {name: plain, namespace: ops}\n"
	"spec:\n  selector: {app: debug}\n",
	"apiVersion: admissionregistration.k8s.io/v1\n"
	"kind: ValidatingWebhookConfiguration\n"
	"metadata: {name: alpha-validator}\n"
	"webhooks:\n"
	"- name: a.example.com\n"
	"  clientConfig: {service: {namespace: ops, name: alpha-webhook}}\n"
	"- name: b.example.com\n"
	"  clientConfig: {service: {namespace: ops, name: alpha-webhook}}\n",
	"apiVersion: apiregistration.k8s.io/v1\nkind: APIService\n"
	"metadata: {name: v1beta1.metrics.k8s.io}\n"
	"spec: {service: {namespace: ops, name: metrics}}\n"
	/* HPAs */,
	"apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\n"
	"metadata: {name: alpha, namespace: ops}\n"
	"spec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: alpha-mgr}\n"
	"  maxReplicas: 3\n",
	"apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\n"
	"metadata: {name: agent, namespace: ops}\n"
	"spec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: DaemonSet, name: agent}\n"
	"  maxReplicas: 3\n",
	"apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\n"
	"metadata: {name: ghost, namespace: ops}\n"
	"spec:\n  scaleTargetRef: {apiVersion: extensions/v1beta1, kind: Deployment,"
	" name: alpha-mgr}\n  maxReplicas: 3\n",
	"apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\n"
	"metadata: {name: lonely, namespace: lonely}\n"
	"spec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: x}\n"
	"  maxReplicas: 3\n",
};

/* The documents joined with "---"; malloc'd. */
static inline char *tpdb_input(void)
{
	size_t i, len = 0;
	char *input;

	for (i = 0; i < sizeof(docs) / sizeof(docs[0]); i++)
		len += strlen(docs[i]) + 4;
	input = calloc(1, len + 1);
	if (!input)
		return NULL;
	for (i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
		if (i)
			strcat(input, "---\n");
		strcat(input, docs[i]);
	}
	return input;
}

#endif
