/* SPDX-License-Identifier: Apache-2.0 */
/* A Deployment's maxUnavailable as the controller reads it
 * (model/rollout.c). */
#include "tgraph.h"
#include "tspread.h"

#include "model/rollout.h"

#define ROLL(name, replicas, strategy)                                      \
	"apiVersion: apps/v1\nkind: Deployment\n"                           \
	"metadata: {name: " name ", namespace: ops}\n"                      \
	"spec:\n  replicas: " replicas "\n  strategy: " strategy "\n"       \
	"  selector: {matchLabels: {app: " name "}}\n"                      \
	"  template: {metadata: {labels: {app: " name "}}}\n---\n"

static long long effective(struct tgraph *tg, const char *name,
			   enum kvet_rollout_error want)
{
	long long v = -7;

	assert_int_equal(kvet_deployment_effective_max_unavailable(
				 tg_wl(tg, "apps", "Deployment", "ops", name),
				 &v), want);
	return v;
}

static void max_unavailable(void **state)
{
	struct tgraph tg = tg_load(tspread_input(), 0);
	const struct kvet_workload *wl;

	(void)state;
	/* 25% of 4 rounds down to 1; of 3, to 0 */
	wl = tg_wl(&tg, "apps", "Deployment", "ops", "solo");
	assert_true(kvet_deployment_rolling_update(wl));
	assert_null(kvet_deployment_max_unavailable(wl));
	assert_int_equal(effective(&tg, "solo", KVET_ROLLOUT_OK), 1);
	assert_int_equal(effective(&tg, "alpha", KVET_ROLLOUT_OK), 0);
	/* 20% of 7 = 1.4 rounds down to 1 */
	wl = tg_wl(&tg, "apps", "Deployment", "ops", "roll");
	assert_true(kvet_node_eq(kvet_deployment_max_unavailable(wl), "20%"));
	assert_int_equal(effective(&tg, "roll", KVET_ROLLOUT_OK), 1);
	tg_free(&tg);
}

static void strategies(void **state)
{
	struct tgraph tg = tg_load(
		ROLL("recreate", "4", "{type: Recreate}")
		ROLL("two", "4", "{rollingUpdate: {maxUnavailable: 2}}")
		ROLL("neg", "4", "{rollingUpdate: {maxUnavailable: -1}}")
		ROLL("over", "4", "{rollingUpdate: {maxUnavailable: \"150%\"}}")
		ROLL("word", "4", "{rollingUpdate: {maxUnavailable: half}}"), 0);

	(void)state;
	assert_false(kvet_deployment_rolling_update(
		tg_wl(&tg, "apps", "Deployment", "ops", "recreate")));
	assert_int_equal(effective(&tg, "two", KVET_ROLLOUT_OK), 2);
	effective(&tg, "neg", KVET_ROLLOUT_NEGATIVE);
	effective(&tg, "over", KVET_ROLLOUT_OVER_100);
	effective(&tg, "word", KVET_ROLLOUT_NOT_INTSTR);
	tg_free(&tg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(max_unavailable),
		cmocka_unit_test(strategies),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
