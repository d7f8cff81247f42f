/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The VolumeZone filter: cases after the scheduler plugin's
 * volume_zone_test.go (beta and GA keys, "__"-joined zones, a node
 * without zone labels).
 */
#include "tgraph.h"

#include "model/volume_zone.h"

#define PV(name, labels)                                                    \
	"apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: " name    \
	", labels: " labels "}\n---\n"

static const char input[] =
	PV("ga", "{topology.kubernetes.io/zone: a}")
	PV("beta", "{failure-domain.beta.kubernetes.io/zone: b}")
	PV("multi", "{topology.kubernetes.io/zone: x__a__y}")
	PV("number", "{topology.kubernetes.io/zone: 1}")
	PV("none", "{app: db}");

/* Does PV @name fit a node labelled @key=@value? */
static bool fits(struct tgraph *t, const char *name, const char *key,
		 const char *value)
{
	struct kvet_label l = { kvet_slice_of(key), kvet_slice_of(value) };
	struct kvet_labels node = { &l, 1 };

	return kvet_volume_zone_matches(
		kvet_graph_find(t->g, "", "PersistentVolume", "", name),
		&node);
}

static void zones(void **state)
{
	struct tgraph t = tg_load(input, 0);

	(void)state;
	assert_true(fits(&t, "ga", "topology.kubernetes.io/zone", "a"));
	assert_false(fits(&t, "ga", "topology.kubernetes.io/zone", "b"));
	/* a beta key of the volume is met by the node's GA label too */
	assert_true(fits(&t, "beta", "topology.kubernetes.io/zone", "b"));
	assert_true(fits(&t, "beta", "failure-domain.beta.kubernetes.io/zone",
			 "b"));
	assert_false(fits(&t, "ga", "failure-domain.beta.kubernetes.io/zone",
			  "a"));
	assert_true(fits(&t, "multi", "topology.kubernetes.io/zone", "a"));
	assert_false(fits(&t, "multi", "topology.kubernetes.io/zone", "x__a"));
	/* only a string value names zones */
	assert_false(fits(&t, "number", "topology.kubernetes.io/zone", "1"));
	assert_true(fits(&t, "none", "topology.kubernetes.io/zone", "a"));
	/* a node without zone or region labels passes */
	assert_true(fits(&t, "ga", "kubernetes.io/hostname", "n1"));
	/* no volume object in the input */
	assert_true(fits(&t, "missing", "topology.kubernetes.io/zone", "a"));
	tg_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(zones),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
