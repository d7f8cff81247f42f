/* SPDX-License-Identifier: Apache-2.0 */
/* kvet_finding_fingerprint(): what it hashes and what it leaves out
 * (issue 27: fingerprints that stay put). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "kvet/kvet.h"

static const struct kvet_object_ref deploy = {
	"apps/v1", "Deployment", "shop", "api", { "a.yaml", 1, 1 } };
static const struct kvet_object_ref svc = {
	"v1", "Service", "shop", "api", { "b.yaml", 3, 1 } };
/* a node of the synthetic pool: no file */
static const struct kvet_object_ref node1 = {
	"v1", "Node", "", "node-1", { NULL, 0, 0 } };
static const struct kvet_object_ref node2 = {
	"v1", "Node", "", "node-2", { NULL, 0, 0 } };

static struct kvet_finding base(void)
{
	struct kvet_finding f = {
		.rule = "pdb-blocks-single-replica",
		.message = "m",
		.headline = "at node \"node-1\"",
		.object = { "policy/v1", "PodDisruptionBudget", "shop", "api",
			    { "a.yaml", 10, 1 } },
		.pos = { "a.yaml", 12, 3 },
		.field = "spec.minAvailable",
	};
	return f;
}

static void test_left_out(void **state)
{
	struct kvet_object_ref rel_a[] = { node1, deploy, svc };
	struct kvet_object_ref rel_b[] = { svc, deploy, node2 };
	struct kvet_finding f = base(), g = base();

	(void)state;
	f.related = rel_a;
	f.n_related = 3;
	g.related = rel_b;
	g.n_related = 3;
	g.headline = "at node \"node-2\"";
	g.message = "other words";
	g.reason = "other reason";
	g.pos.line = 40;
	g.pos.file = "moved.yaml";
	g.object.pos.line = 38;
	g.object.api_version = "policy/v1beta1";
	assert_int_equal(kvet_finding_fingerprint(&f),
			 kvet_finding_fingerprint(&g));
	g.n_related = 2;	/* without the synthetic node: the same */
	assert_int_equal(kvet_finding_fingerprint(&f),
			 kvet_finding_fingerprint(&g));
}

static void test_kept(void **state)
{
	struct kvet_object_ref rel[] = { deploy, svc };
	struct kvet_finding f = base(), g;
	uint64_t h;

	(void)state;
	f.related = rel;
	f.n_related = 2;
	h = kvet_finding_fingerprint(&f);
	g = f;
	g.rule = "pdb-no-policy";
	assert_int_not_equal(h, kvet_finding_fingerprint(&g));
	g = f;
	g.object.name = "web";
	assert_int_not_equal(h, kvet_finding_fingerprint(&g));
	g = f;
	g.object.api_version = "apps/v1";
	assert_int_not_equal(h, kvet_finding_fingerprint(&g));
	g = f;
	g.field = "spec.maxUnavailable";
	assert_int_not_equal(h, kvet_finding_fingerprint(&g));
	g = f;
	g.n_related = 1;
	assert_int_not_equal(h, kvet_finding_fingerprint(&g));
	g = f;
	g.related = &rel[1];	/* the Service alone, not the Deployment */
	g.n_related = 1;
	f.n_related = 1;
	assert_int_not_equal(kvet_finding_fingerprint(&f),
			     kvet_finding_fingerprint(&g));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_left_out),
		cmocka_unit_test(test_kept),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
