/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Leader election detection (docs/model.md 1.13), "--leader-elect false"
 * (a Go bool flag takes no separate value) among the edge cases.
 */
#include "tgraph.h"

#include "model/leader.h"

/* Deployment ops/<name> whose pod spec is @spec (indented 4). */
#define DEPLOY(name, spec)                                                  \
	"apiVersion: apps/v1\nkind: Deployment\n"                           \
	"metadata: {name: " name ", namespace: ops}\n"                      \
	"spec:\n  selector: {matchLabels: {app: " name "}}\n"               \
	"  template:\n    metadata: {labels: {app: " name "}}\n"            \
	"    spec:\n" spec "---\n"

/* One container with @fields (a flow mapping's inside). */
#define ONE(fields) "      containers: [{name: c, " fields "}]\n"

static struct kvet_leader detect(struct tgraph *t, const char *name)
{
	struct kvet_leader le;

	assert_int_equal(kvet_leader_election(&t->l->arena, t->g,
					      tg_wl(t, "apps", "Deployment",
						    "ops", name), &le), 0);
	return le;
}

static void flags(void **state)
{
	struct tgraph t = tg_load(
		DEPLOY("yes-flag", ONE("args: [\"--leader-elect\"]"))
		DEPLOY("no-flag", ONE("args: [\"--leader-elect=false\"]"))
		/* a bool flag takes no separate value: "false" is an arg */
		DEPLOY("space", ONE("args: [\"--leader-elect\", \"false\"]"))
		DEPLOY("dash", ONE("args: [\"-leader-elect=0\"]"))
		DEPLOY("enable", ONE("args: [\"--enable-leader-election=t\"]"))
		DEPLOY("election", ONE("command: [/mgr, \"--leader-election=True\"]"))
		DEPLOY("bad", ONE("args: [\"--leader-elect=yes\"]"))
		DEPLOY("last", ONE("args: [\"--leader-elect=false\","
				   " \"--leader-elect\"]"))
		DEPLOY("last2", ONE("args: [\"--leader-elect\","
				    " \"--leader-elect=F\"]"))
		DEPLOY("none", ONE("args: [\"--metrics-bind-address=:8080\","
				   " \"--leader-elect-lease-duration=15s\"]"))
		DEPLOY("empty", "      containers: []\n"),
		0);
	struct kvet_leader le;

	(void)state;
	le = detect(&t, "yes-flag");
	assert_int_equal(le.state, KVET_LEADER_ON);
	assert_int_equal(le.source, KVET_LEADER_FROM_FLAG);
	assert_non_null(le.evidence);
	assert_int_equal(le.evidence->line, 9);
	assert_non_null(le.container);
	assert_string_equal(le.namespace, "ops");
	assert_null(le.namespace_node);
	assert_int_equal(detect(&t, "no-flag").state, KVET_LEADER_OFF);
	assert_int_equal(detect(&t, "space").state, KVET_LEADER_ON);
	assert_int_equal(detect(&t, "dash").state, KVET_LEADER_OFF);
	assert_int_equal(detect(&t, "enable").state, KVET_LEADER_ON);
	assert_int_equal(detect(&t, "election").state, KVET_LEADER_ON);
	le = detect(&t, "bad");
	assert_int_equal(le.state, KVET_LEADER_UNKNOWN);
	assert_null(le.evidence);
	assert_null(le.container);
	assert_int_equal(detect(&t, "last").state, KVET_LEADER_ON);
	assert_int_equal(detect(&t, "last2").state, KVET_LEADER_OFF);
	/* any other --leader-elect* flag shows an election (1.13) */
	le = detect(&t, "none");
	assert_int_equal(le.state, KVET_LEADER_ON);
	assert_int_equal(le.source, KVET_LEADER_FROM_FLAG);
	assert_int_equal(kvet_leader_flag(&le).len,
			 strlen("--leader-elect-lease-duration=15s"));
	le = detect(&t, "empty");
	assert_int_equal(le.state, KVET_LEADER_UNKNOWN);
	assert_string_equal(kvet_leader_state_name(le.state), "unknown");
	tg_free(&t);
}

/* Variables that switch an election or name its lock (1.13). */
static void environment(void **state)
{
	struct tgraph t = tg_load(
		DEPLOY("env-on", ONE("env: [{name: AGENT_INJECT_USE_LEADER_ELECTOR,"
				     " value: \"true\"}]"))
		DEPLOY("env-off", ONE("env: [{name: LEADER_ELECT, value: \"false\"}]"))
		DEPLOY("env-names", ONE("env: [{name: CONFIG_LEADERELECTION_NAME,"
					" value: config-leader-election}]"))
		DEPLOY("env-other", ONE("env: [{name: LEADER_NAME, value: \"true\"}]"))
		DEPLOY("env-flag", ONE("args: [\"--leader-elect=false\"],"
				       " env: [{name: LEADER_ELECT, value: \"true\"}]")),
		0);
	struct kvet_leader le;

	(void)state;
	le = detect(&t, "env-on");
	assert_int_equal(le.state, KVET_LEADER_ON);
	assert_int_equal(le.source, KVET_LEADER_FROM_ENV);
	assert_int_equal(detect(&t, "env-off").state, KVET_LEADER_OFF);
	assert_int_equal(detect(&t, "env-names").state, KVET_LEADER_ON);
	assert_int_equal(detect(&t, "env-other").state, KVET_LEADER_UNKNOWN);
	/* a switch wins over the environment */
	assert_int_equal(detect(&t, "env-flag").state, KVET_LEADER_OFF);
	tg_free(&t);
}

static void election_namespace(void **state)
{
	struct tgraph t = tg_load(
		DEPLOY("shell", ONE("command: [sh, -c, \"exec /manager"
				    " --leader-elect=true"
				    " --leader-election-namespace=infra\"]"))
		DEPLOY("spaced", ONE("args: [\"--leader-elect\","
				     " \"--leader-election-namespace\","
				     " kube-system]"))
		DEPLOY("resource", ONE("args: [\"-leader-elect\","
				       " \"--leader-elect-resource-namespace=leases\"]"))
		DEPLOY("dangling", ONE("args: [\"--leader-elect\","
				       " \"--leader-election-namespace\"]")),
		0);
	struct kvet_leader le;

	(void)state;
	le = detect(&t, "shell");
	assert_int_equal(le.state, KVET_LEADER_ON);
	assert_string_equal(le.namespace, "infra");
	assert_non_null(le.namespace_node);
	le = detect(&t, "spaced");
	assert_string_equal(le.namespace, "kube-system");
	assert_int_equal(le.namespace_node->line, 19);
	le = detect(&t, "resource");
	assert_int_equal(le.state, KVET_LEADER_ON);
	assert_string_equal(le.namespace, "leases");
	le = detect(&t, "dangling");
	assert_string_equal(le.namespace, "ops");
	tg_free(&t);
}

#define CM(name, data)                                                      \
	"apiVersion: v1\nkind: ConfigMap\n"                                 \
	"metadata: {name: " name ", namespace: ops}\n"                      \
	"data:\n  config.yaml: |\n" data "---\n"

#define MOUNTED(vol, flags)                                                 \
	"      containers:\n      - name: manager\n" flags                  \
	"        volumeMounts: [{name: config, mountPath: /etc/c}]\n"       \
	"      volumes: [" vol "]\n"

static void mounted_config(void **state)
{
	struct tgraph t = tg_load(
		CM("elect", "    leaderElection:\n      leaderElect: true\n"
		   "      resourceNamespace: infra\n")
		CM("noelect", "    leaderElection:\n      leaderElect:  false  \n")
		DEPLOY("cfg", MOUNTED("{name: config, configMap: {name: elect}}",
				      ""))
		DEPLOY("cfgoff", MOUNTED("{name: config, configMap:"
					 " {name: noelect}}", ""))
		DEPLOY("projected", MOUNTED("{name: config, projected: {sources:"
					    " [{secret: {name: s}},"
					    " {configMap: {name: elect}}]}}",
					    ""))
		/* the flag wins over the file */
		DEPLOY("flag", MOUNTED("{name: config, configMap: {name: elect}}",
				       "        args: [\"--leader-elect=false\"]\n"))
		/* a volume that no container mounts tells nothing */
		DEPLOY("unmounted", "      containers: [{name: c}]\n"
		       "      volumes: [{name: config, configMap: {name: elect}}]\n")
		DEPLOY("missing", MOUNTED("{name: config, configMap:"
					  " {name: absent}}", "")),
		0);
	struct kvet_leader le;

	(void)state;
	le = detect(&t, "cfg");
	assert_int_equal(le.state, KVET_LEADER_ON);
	assert_int_equal(le.source, KVET_LEADER_FROM_CONFIG);
	assert_non_null(le.config_map);
	assert_string_equal(le.config_map->name, "elect");
	assert_string_equal(le.namespace, "infra");
	le = detect(&t, "cfgoff");
	assert_int_equal(le.state, KVET_LEADER_OFF);
	assert_string_equal(le.namespace, "ops");
	assert_int_equal(detect(&t, "projected").state, KVET_LEADER_ON);
	le = detect(&t, "flag");
	assert_int_equal(le.state, KVET_LEADER_OFF);
	assert_int_equal(le.source, KVET_LEADER_FROM_FLAG);
	/* the configuration still names the namespace */
	assert_string_equal(le.namespace, "infra");
	assert_int_equal(detect(&t, "unmounted").state, KVET_LEADER_UNKNOWN);
	assert_int_equal(detect(&t, "missing").state, KVET_LEADER_UNKNOWN);
	tg_free(&t);
}

/* 1.13 as amended: the election keys of operator configs at any depth,
 * YAML or one-line JSON; a key that merely starts with one is not it. */
static void config_keys(void **state)
{
	struct tgraph t = tg_load(
		CM("dashed", "    controller:\n      manager:\n"
		   "        enable-leader-election: true  # on\n")
		CM("json", "    {\"manager\": {\"enableLeaderElection\": false}}\n")
		CM("longer", "    leaderElection:\n      resourceName: x\n"
		   "    leaderElectTimeout: true\n")
		CM("flow", "    {leaderElection: {leader-elect: 'true'}}\n")
		DEPLOY("dashed", MOUNTED("{name: config, configMap: {name: dashed}}", ""))
		DEPLOY("json", MOUNTED("{name: config, configMap: {name: json}}", ""))
		DEPLOY("longer", MOUNTED("{name: config, configMap: {name: longer}}", ""))
		DEPLOY("flow", MOUNTED("{name: config, configMap: {name: flow}}", "")),
		0);
	struct kvet_leader le;

	(void)state;
	le = detect(&t, "dashed");
	assert_int_equal(le.state, KVET_LEADER_ON);
	assert_string_equal(le.setting, "enable-leader-election");
	le = detect(&t, "json");
	assert_int_equal(le.state, KVET_LEADER_OFF);
	assert_string_equal(le.setting, "enableLeaderElection");
	assert_int_equal(detect(&t, "longer").state, KVET_LEADER_UNKNOWN);
	assert_int_equal(detect(&t, "flow").state, KVET_LEADER_ON);
	tg_free(&t);
}

/* LEADER_ELECTION names set by valueFrom count as on; one read from a
 * ConfigMap of the input takes that value, or none when the key is
 * absent. */
static void environment_value_from(void **state)
{
	struct tgraph t = tg_load(
		"apiVersion: v1\nkind: ConfigMap\n"
		"metadata: {name: params, namespace: ops}\n"
		"data: {elect.off: \"false\"}\n---\n"
		DEPLOY("identity", ONE("env: [{name: LEADER_ELECTION_IDENTITY,"
				       " valueFrom: {fieldRef: {fieldPath: metadata.name}}}]"))
		DEPLOY("cm-off", ONE("env: [{name: ENABLE_LEADER_ELECTION, valueFrom:"
				     " {configMapKeyRef: {name: params, key: elect.off}}}]"))
		DEPLOY("cm-unset", ONE("env: [{name: ENABLE_LEADER_ELECTION, valueFrom:"
				       " {configMapKeyRef: {name: params, key: absent, optional: true}}}]"))
		DEPLOY("other", ONE("env: [{name: POD_NAME,"
				    " valueFrom: {fieldRef: {fieldPath: metadata.name}}}]")),
		0);

	(void)state;
	assert_int_equal(detect(&t, "identity").state, KVET_LEADER_ON);
	assert_int_equal(detect(&t, "cm-off").state, KVET_LEADER_OFF);
	assert_int_equal(detect(&t, "cm-unset").state, KVET_LEADER_UNKNOWN);
	assert_int_equal(detect(&t, "other").state, KVET_LEADER_UNKNOWN);
	tg_free(&t);
}

static void default_on_components(void **state)
{
	struct tgraph t = tg_load(
		DEPLOY("sched", ONE("image: \"registry.k8s.io/kube-scheduler:v1.29.0\""))
		DEPLOY("inject", ONE("image: \"quay.io/jetstack/cert-manager-cainjector:"
				     "v1.14.4@sha256:abc\""))
		DEPLOY("webhook", ONE("image: \"quay.io/jetstack/cert-manager-webhook:v1\""))
		DEPLOY("ca", ONE("image: \"example.com/ca:1\", command:"
				 " [/usr/local/bin/cluster-autoscaler,"
				 " \"--cloud-provider=aws\"]"))
		DEPLOY("caoff", ONE("image: \"registry.k8s.io/autoscaling/"
				    "cluster-autoscaler-amd64:v1.28.0\","
				    " args: [\"--leader-elect=false\"]"))
		DEPLOY("kcm", ONE("image: \"example.com/k:1\","
				  " command: [kube-controller-manager]"))
		DEPLOY("lookalike", ONE("image: \"example.com/kube-scheduler-extender:1\"")),
		0);
	struct kvet_leader le;

	(void)state;
	le = detect(&t, "sched");
	assert_int_equal(le.state, KVET_LEADER_ON);
	assert_int_equal(le.source, KVET_LEADER_FROM_COMPONENT);
	assert_string_equal(le.component, "kube-scheduler");
	le = detect(&t, "inject");
	assert_int_equal(le.state, KVET_LEADER_ON);
	assert_string_equal(le.component, "cert-manager-cainjector");
	assert_int_equal(detect(&t, "webhook").state, KVET_LEADER_UNKNOWN);
	le = detect(&t, "ca");
	assert_string_equal(le.component, "cluster-autoscaler");
	assert_int_equal(le.evidence->line, 39);
	assert_int_equal(detect(&t, "caoff").state, KVET_LEADER_OFF);
	assert_int_equal(detect(&t, "kcm").state, KVET_LEADER_ON);
	assert_int_equal(detect(&t, "lookalike").state, KVET_LEADER_UNKNOWN);
	tg_free(&t);
}

/* ON in any container beats OFF in another. */
static void several_containers(void **state)
{
	struct tgraph t = tg_load(
		DEPLOY("two", "      containers:\n"
		       "      - {name: proxy, args: [\"--leader-elect=false\"]}\n"
		       "      - {name: manager, args: [\"--leader-elect\"]}\n")
		DEPLOY("sidecar", "      containers:\n"
		       "      - {name: proxy, args: [\"--secure-listen\"]}\n"
		       "      - {name: manager, args: [\"--leader-elect=0\"]}\n"),
		0);
	struct kvet_leader le;

	(void)state;
	le = detect(&t, "two");
	assert_int_equal(le.state, KVET_LEADER_ON);
	assert_true(kvet_node_eq(kvet_node_get(le.container, "name"),
				 "manager"));
	le = detect(&t, "sidecar");
	assert_int_equal(le.state, KVET_LEADER_OFF);
	assert_int_equal(le.container->line, 23);
	tg_free(&t);
}

static void go_bool(void **state)
{
	static const char *const yes[] = { "1", "t", "T", "true", "TRUE",
					   "True" };
	static const char *const no[] = { "0", "f", "F", "false", "FALSE",
					  "False" };
	static const char *const bad[] = { "", "yes", "on", "tRUE", "2" };
	size_t i;
	bool b;

	(void)state;
	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		b = false;
		assert_true(kvet_go_bool(kvet_slice_of(yes[i]), &b));
		assert_true(b);
		assert_true(kvet_go_bool(kvet_slice_of(no[i]), &b));
		assert_false(b);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_false(kvet_go_bool(kvet_slice_of(bad[i]), &b));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(flags),
		cmocka_unit_test(environment),
		cmocka_unit_test(election_namespace),
		cmocka_unit_test(mounted_config),
		cmocka_unit_test(config_keys),
		cmocka_unit_test(environment_value_from),
		cmocka_unit_test(default_on_components),
		cmocka_unit_test(several_containers),
		cmocka_unit_test(go_bool),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
