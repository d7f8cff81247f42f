/* SPDX-License-Identifier: Apache-2.0 */
#include "cli/config_file.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/output.h"

/*
 * The path is relative ("../.kvet.yaml"), so that messages about the file
 * and reports that name it hold no absolute path; the absolute @dir only
 * tells when to stop.
 */
const char *kvet_config_find(char *buf, size_t size)
{
	char dir[4096], up[4096] = "";
	size_t used = 0;
	struct stat st;
	char *slash;

	if (!getcwd(dir, sizeof(dir)))
		return NULL;
	for (;;) {
		int n = snprintf(buf, size, "%s" KVET_CONFIG_NAME, up);

		if (n > 0 && (size_t)n < size && stat(buf, &st) == 0 &&
		    S_ISREG(st.st_mode))
			return buf;
		/* a configuration above the repository is someone else's */
		n = snprintf(buf, size, "%s.git", up);
		if (n > 0 && (size_t)n < size && stat(buf, &st) == 0)
			return NULL;
		slash = strrchr(dir, '/');
		if (!slash || strcmp(dir, "/") == 0 || used + 4 > sizeof(up))
			return NULL;
		/* "/a" goes up to "/", "/a/b" to "/a" */
		if (slash == dir)
			slash[1] = '\0';
		else
			*slash = '\0';
		memcpy(up + used, "../", 4);
		used += 3;
	}
}

/* Every key, with the built-in behaviour it changes; all commented out,
 * so the file changes nothing until a team edits it. Prose is marked "##"
 * and settings "#", so removing "# " leaves a valid configuration. */
static const char default_config[] =
	"## kvet configuration: docs/configuration.md documents every key.\n"
	"## kvet lint reads the nearest .kvet.yaml from the working directory\n"
	"## upward; command-line options win over it.\n"
	"\n"
	"# rules:\n"
	"#   # rule ids (kvet rules lists them); '*' stands for every rule\n"
	"#   disable: [pdb-unhealthy-eviction-policy-unset]\n"
	"#   enable: []\n"
	"#   severity:\n"
	"#     multi-replica-without-pdb: warning\n"
	"#   params:\n"
	"#     multi-replica-without-pdb: {minReplicas: 3}\n"
	"#   # evaluation errors of these rules are listed but do not fail\n"
	"#   tolerateErrors: []\n"
	"\n"
	"## Findings to hold back where an annotation cannot go (third-party\n"
	"## charts, cluster dumps); reported as suppressed with reason config.\n"
	"# suppress:\n"
	"#   - rule: pdb-blocks-single-replica\n"
	"#     kind: PodDisruptionBudget\n"
	"#     namespace: kube-system\n"
	"#     name: '*'\n"
	"#     reason: managed by the cloud provider\n"
	"\n"
	"## Input paths to skip (shell globs, matched against the path and\n"
	"## every part of it after a '/').\n"
	"# exclude: ['vendor/*', '*-test.yaml']\n"
	"\n"
	"## Namespace of namespaced objects that name none.\n"
	"# namespace: default\n"
	"\n"
	"## The input is the whole cluster: missing references are reported.\n"
	"# completeInput: false\n"
	"\n"
	"## No Kubernetes object in any input is an input error (exit 2), for\n"
	"## CI gates that must not pass on an empty render.\n"
	"# requireObjects: false\n"
	"\n"
	"## Inputs larger than this are refused (bytes, or 512Mi, 4Gi, ...);\n"
	"## raise it for cluster dumps over 512Mi.\n"
	"# maxInputSize: 512Mi\n"
	"\n"
	"## Reports link rule ID to DOCSURL/ID.md, your copy of kvet's\n"
	"## docs/rules/, instead of the rule's first upstream reference.\n"
	"# docsUrl: https://git.example.com/platform/kvet/docs/rules\n"
	"\n"
	"## Added to the built-in lists of the shared definitions; write\n"
	"## {replace: [...]} instead of a list to use only your values.\n"
	"# spreadingTopologyKeys: [example.com/rack]\n"
	"# managerComponents: [reconciler]\n"
	"# sharedLabelKeys: {add: [app.kubernetes.io/team]}\n"
	"\n"
	"## Custom resources that run pods, with their pod template and replicas.\n"
	"# workloads:\n"
	"#   - apiVersion: argoproj.io/v1alpha1\n"
	"#     kind: Rollout\n"
	"#     podTemplate: spec.template\n"
	"#     replicas: spec.replicas\n"
	"\n"
	"## The node pool rendered manifests are installed on and rolled, by\n"
	"## kvet drain and the rolling-upgrade-stalls check: the defaults,\n"
	"## except nodeLabels and nodeTaints (none by default).\n"
	"# pool:\n"
	"#   size: 3x3               # NODESxZONES\n"
	"#   nodeCPU: \"4\"            # capacity; the kubelet's share is taken off\n"
	"#   nodeMemory: 16Gi\n"
	"#   nodePods: 110\n"
	"#   nodeLabels: {pool: apps}\n"
	"#   nodeTaints: [\"dedicated=apps:NoSchedule\"]\n"
	"#   maxUnavailable: 1       # nodes drained at once\n"
	"#   surge: 0                # new nodes added first (0: in place)\n"
	"\n"
	"## helm template's options per chart, by its path from this file.\n"
	"# charts:\n"
	"#   deploy/chart:\n"
	"#     values: [values-prod.yaml]  # from the chart's directory\n"
	"#     set: [replicas=3]\n"
	"#     namespace: shop           # the release namespace\n"
	"#     releaseName: web\n"
	"#     valuesMatrix: true        # one render per ci/*-values.yaml\n"
	"#     defaultValues: true       # and one with the defaults\n";

static int write_default(const void *data, FILE *fp)
{
	(void)data;
	return fputs(default_config, fp) < 0 ? -1 : 0;
}

enum kvet_exit kvet_config_init(const char *path, FILE *err)
{
	struct stat st;

	if (strcmp(path, "-") == 0) {
		if (write_default(NULL, stdout) || fflush(stdout)) {
			fprintf(err, "kvet: error: cannot write to standard output: %s\n",
				strerror(errno));
			return KVET_EXIT_USAGE;
		}
		return KVET_EXIT_OK;
	}
	if (lstat(path, &st) == 0) {
		fprintf(err, "kvet: error: '%s' already exists\n"
			     "kvet: hint: remove it first, or write to another file\n",
			path);
		return KVET_EXIT_USAGE;
	}
	if (kvet_output_write_atomic(path, write_default, NULL, 0, err))
		return KVET_EXIT_USAGE;
	return KVET_EXIT_OK;
}
