/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Managers, leader election and priority as a run asks them: each
 * verdict once per run (kvet_run_manager), the evidence of each
 * criterion and its place, the leader-election flag, ConfigMap key and
 * the volume that mounts it, every globalDefault class, the
 * ServiceAccount's place.
 */
#include "tgraph.h"
#include "troles.h"

#include "model/leader.h"
#include "model/manager.h"
#include "model/priority.h"
#include "model/rbac.h"
#include "model/run.h"

struct fx {
	struct tgraph tg;
	struct kvet_run *run;
};

static void fx_init(struct fx *f)
{
	f->tg = tg_load(input, 0);
	f->run = kvet_run_create(&f->tg.l->arena, f->tg.g);
	assert_non_null(f->run);
}

static void fx_free(struct fx *f)
{
	kvet_run_destroy(f->run);
	tg_free(&f->tg);
}

static void managers(void **state)
{
	const struct kvet_workload *ctl, *hook;
	const struct kvet_manager *m;
	struct fx f;

	(void)state;
	fx_init(&f);
	hook = tg_wl(&f.tg, "apps", "Deployment", "ops", "hook");
	m = kvet_run_manager(f.run, hook);
	assert_non_null(m);
	assert_ptr_equal(kvet_run_manager(f.run, hook), m);
	assert_int_equal(m->criteria, KVET_MANAGER_BACKEND);
	/* M1's evidence is in another object: no place */
	assert_null(kvet_manager_evidence(hook, m, KVET_MANAGER_BACKEND));
	ctl = tg_wl(&f.tg, "apps", "Deployment", "ops", "ctl");
	m = kvet_run_manager(f.run, ctl);
	assert_int_equal(m->criteria, KVET_MANAGER_LEADER_ELECTION |
			 KVET_MANAGER_COMPONENT | KVET_MANAGER_CONTAINER);
	assert_string_equal(kvet_manager_label_key(ctl, m), "control-plane");
	assert_true(kvet_node_eq(kvet_manager_evidence(ctl, m,
							KVET_MANAGER_COMPONENT),
				 "controller-manager"));
	assert_true(kvet_node_eq(kvet_manager_evidence(ctl, m,
							KVET_MANAGER_CONTAINER),
				 "manager"));
	/* the flag inside its args entry */
	assert_true(kvet_slice_eq0(kvet_leader_flag(&m->leader),
				   "--leader-elect=false"));
	assert_ptr_equal(kvet_leader_at(ctl, &m->leader), m->leader.evidence);
	assert_true(kvet_slice_eq0(kvet_container_name(m->leader.container),
				   "manager"));
	assert_int_equal(kvet_leader_config_key(&m->leader).len, 0);
	assert_true(kvet_node_eq(kvet_workload_service_account_at(ctl),
				 "serviceAccountName"));
	assert_null(kvet_workload_service_account_at(hook));
	fx_free(&f);
}

static void config_map(void **state)
{
	const struct kvet_workload *db;
	const struct kvet_manager *m;
	const struct kvet_node *vol;
	struct fx f;

	(void)state;
	fx_init(&f);
	db = tg_wl(&f.tg, "apps", "StatefulSet", "ops", "db");
	m = kvet_run_manager(f.run, db);
	assert_non_null(m);
	assert_int_equal(m->leader.source, KVET_LEADER_FROM_CONFIG);
	assert_true(kvet_slice_eq0(kvet_leader_config_key(&m->leader),
				   "config.yaml"));
	assert_int_equal(kvet_leader_flag(&m->leader).len, 0);
	/* the ConfigMap's text is in another object: the volume mounting
	 * it is the place */
	vol = kvet_leader_at(db, &m->leader);
	assert_non_null(vol);
	assert_true(kvet_node_eq(kvet_node_get(vol, "name"), "c"));
	fx_free(&f);
}

static void priorities(void **state)
{
	const struct kvet_object *const *v;
	const struct kvet_priorities *p;
	struct fx f;
	size_t n;

	(void)state;
	fx_init(&f);
	p = kvet_run_priorities(f.run);
	assert_non_null(p);
	v = kvet_priorities_defaults(p, &n);
	assert_int_equal(n, 2);
	assert_string_equal(v[0]->name, "default-a");
	assert_string_equal(v[1]->name, "default-b");
	/* the API server admits the lowest */
	assert_string_equal(kvet_priorities_global_default(p, NULL)->name,
			    "default-b");
	fx_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(managers),
		cmocka_unit_test(config_map),
		cmocka_unit_test(priorities),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
