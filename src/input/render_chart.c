/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `helm template RELEASE CHART --namespace NS --kube-version V
 * --api-versions ... [-f ...] [--set ...]`: the render of one chart with
 * one set of values files.
 */
#include "input/render.h"

#include <stdlib.h>
#include <string.h>

#include "base/vec.h"

/*
 * What a cluster of KVET_KUBE_VERSION serves, in the two spellings charts
 * test with .Capabilities.APIVersions.Has: group/version (helm's default
 * set has most of these) and group/version/Kind (which it has not: a
 * chart testing "policy/v1/PodDisruptionBudget" otherwise falls back to
 * policy/v1beta1, removed in 1.25).
 */
static const char *const api_versions[] = {
	"v1",
	"admissionregistration.k8s.io/v1",
	"admissionregistration.k8s.io/v1/MutatingWebhookConfiguration",
	"admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration",
	"admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy",
	"apiextensions.k8s.io/v1",
	"apiextensions.k8s.io/v1/CustomResourceDefinition",
	"apiregistration.k8s.io/v1",
	"apiregistration.k8s.io/v1/APIService",
	"apps/v1",
	"apps/v1/DaemonSet",
	"apps/v1/Deployment",
	"apps/v1/ReplicaSet",
	"apps/v1/StatefulSet",
	"autoscaling/v1",
	"autoscaling/v2",
	"autoscaling/v2/HorizontalPodAutoscaler",
	"batch/v1",
	"batch/v1/CronJob",
	"batch/v1/Job",
	"certificates.k8s.io/v1",
	"coordination.k8s.io/v1",
	"discovery.k8s.io/v1",
	"discovery.k8s.io/v1/EndpointSlice",
	"events.k8s.io/v1",
	"flowcontrol.apiserver.k8s.io/v1",
	"networking.k8s.io/v1",
	"networking.k8s.io/v1/Ingress",
	"networking.k8s.io/v1/IngressClass",
	"networking.k8s.io/v1/NetworkPolicy",
	"node.k8s.io/v1",
	"node.k8s.io/v1/RuntimeClass",
	"policy/v1",
	"policy/v1/PodDisruptionBudget",
	"rbac.authorization.k8s.io/v1",
	"rbac.authorization.k8s.io/v1/ClusterRole",
	"rbac.authorization.k8s.io/v1/ClusterRoleBinding",
	"rbac.authorization.k8s.io/v1/Role",
	"rbac.authorization.k8s.io/v1/RoleBinding",
	"scheduling.k8s.io/v1",
	"scheduling.k8s.io/v1/PriorityClass",
	"storage.k8s.io/v1",
	"storage.k8s.io/v1/CSIDriver",
	"storage.k8s.io/v1/StorageClass",
};

struct argv {
	const char **v;
	size_t n, cap;
};

static int push(struct argv *a, const char *s)
{
	if (!kvet_vec_grow((void **)&a->v, &a->cap, a->n + 2, sizeof(*a->v)))
		return -1;
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
	return 0;
}

static int push2(struct argv *a, const char *flag, const char *s)
{
	return push(a, flag) < 0 || push(a, s) < 0 ? -1 : 0;
}

static int chart_argv(const struct kvet_render_opts *ro, const char *helm,
		      const char *chart, const char *ns,
		      const char *const *values,
		      size_t n_values, struct argv *a)
{
	size_t i;
	int rc = 0;

	rc |= push(a, helm);
	rc |= push(a, "template");
	rc |= push(a, ro->release_name ? ro->release_name : "release-name");
	rc |= push(a, chart);
	rc |= push2(a, "--namespace",
		    ns ? ns : ro->release_ns ? ro->release_ns : "default");
	rc |= push2(a, "--kube-version",
		    ro->kube_version ? ro->kube_version : KVET_KUBE_VERSION);
	if (ro->api_versions)
		for (i = 0; i < ro->n_api_versions; i++)
			rc |= push2(a, "--api-versions", ro->api_versions[i]);
	else
		for (i = 0; i < sizeof(api_versions) / sizeof(*api_versions);
		     i++)
			rc |= push2(a, "--api-versions", api_versions[i]);
	for (i = 0; i < n_values; i++)
		rc |= push2(a, "--values", values[i]);
	for (i = 0; i < ro->n_sets; i++)
		rc |= push2(a, ro->sets[i].flag, ro->sets[i].value);
	return rc ? -1 : 0;
}

int kvet_render_chart(const struct kvet_render_opts *ro, const char *chart,
		      const char *ns, const char *const *values,
		      size_t n_values,
		      struct kvet_diag *diag, size_t max, char **out,
		      size_t *len)
{
	struct kvet_arena scratch;
	struct argv a = { 0 };
	const char *helm;
	char *err = NULL, *msg;
	bool over;
	int status, ret = -1;

	*out = NULL;
	*len = 0;
	kvet_arena_init(&scratch);
	helm = kvet_render_find(&scratch, ro->helm ? ro->helm : "helm");
	if (!helm) {
		if (ro->helm)
			kvet_diag_addf(diag, chart, 0, 0,
				       "cannot render the chart: helm '%s' is not an executable file",
				       ro->helm);
		else
			kvet_diag_addf(diag, chart, 0, 0,
				       "cannot render the chart: no helm on PATH; install helm (https://helm.sh/docs/intro/install/) or name it with --helm PATH or KVET_HELM");
		ret = 1;
		goto out;
	}
	if (chart_argv(ro, helm, chart, ns, values, n_values, &a) < 0 ||
	    kvet_render_run(a.v, max, out, len, &err, &status, &over) < 0)
		goto out;
	msg = kvet_render_one_line(&scratch, err);
	ret = 1;
	if (status < 0)
		kvet_diag_addf(diag, chart, 0, 0,
			       "cannot run %s: %s", helm, msg);
	else if (over)
		kvet_diag_addf(diag, chart, 0, 0,
			       "the render is larger than the limit of %zu bytes",
			       max);
	else if (status)
		kvet_diag_addf(diag, chart, 0, 0,
			       "helm template failed (exit status %d): %s",
			       status, *msg ? msg : "(no message)");
	else
		ret = 0;
	if (ret) {
		free(*out);
		*out = NULL;
		*len = 0;
	}
out:
	free(err);
	free(a.v);
	kvet_arena_release(&scratch);
	return ret;
}
