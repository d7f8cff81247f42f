/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fail-closed webhooks that never get a backend back (src/drain/
 * deadlock.c): one that rejects its own backend's replacement, and rings
 * of them, each rejecting the creation of the next one's backend pods.
 *
 * Upstream, what makes a ring a deadlock: the ReplicaSet controller
 * (pkg/controller/replicaset/replica_set.go, manageReplicas) creates a
 * replacement for an evicted pod with a POST of the pod, and retries
 * when the API server refuses it; the API server's admission calls every
 * webhook whose rules, namespaceSelector and objectSelector match the
 * request, and a webhook whose Service has no ready endpoint cannot be
 * called (k8s.io/apiserver/pkg/util/proxy, ResolveEndpoint: "no
 * endpoints available for service"), which under failurePolicy: Fail
 * rejects the request ("Internal error occurred: failed calling webhook
 * ...", k8s.io/apiserver/pkg/admission/plugin/webhook/validating and
 * mutating dispatchers); under failurePolicy: Ignore the request goes on
 * without it. A webhook's backend comes back only through such a
 * replacement, so when A rejects B's and B rejects A's, no retry ever
 * succeeds.
 */
#include "tdrain.h"

#define NODE(name)                                                          \
	"apiVersion: v1\nkind: Node\nmetadata: {name: " name ", labels:"   \
	" {kubernetes.io/hostname: " name "}}\nstatus: {allocatable:"       \
	" {cpu: \"4\", memory: 8Gi, pods: \"110\"}, conditions: [{type:"    \
	" Ready, status: \"True\"}]}\n---\n"

/* Webhook NAME.example.com, served by Service NAME in namespace NAME,
 * intercepts the creation of the pods labelled to: NAME. */
#define HOOK(name, policy)                                                  \
	"apiVersion: admissionregistration.k8s.io/v1\n"                     \
	"kind: ValidatingWebhookConfiguration\nmetadata: {name: " name "}\n" \
	"webhooks:\n- name: " name ".example.com\n"                         \
	"  failurePolicy: " policy "\n  sideEffects: None\n"                \
	"  admissionReviewVersions: [v1]\n"                                 \
	"  clientConfig: {service: {name: " name ", namespace: " name "}}\n" \
	"  objectSelector: {matchLabels: {to: " name "}}\n"                 \
	"  rules: [{apiGroups: [''], apiVersions: [v1],"                    \
	" operations: [CREATE], resources: [pods]}]\n---\n"                 \
	"apiVersion: v1\nkind: Service\nmetadata: {name: " name ","          \
	" namespace: " name "}\nspec: {selector: {app: " name "}, ports:"   \
	" [{port: 443}]}\n---\n"

/* A backend pod of webhook SVC on NODE, whose creation webhook TO
 * intercepts, asking for CPU cores. */
#define BACKEND(svc, pod, node, to, cpu)                                    \
	"apiVersion: v1\nkind: Pod\nmetadata: {name: " pod ", namespace: "  \
	svc ", labels: {app: " svc ", to: " to "}, ownerReferences:"        \
	" [{apiVersion: apps/v1, kind: ReplicaSet, name: " svc ","          \
	" controller: true}]}\nspec: {nodeName: " node ", containers:"      \
	" [{name: c, resources: {requests: {cpu: \"" cpu "\"}}}]}\n"        \
	"status: {phase: Running, conditions: [{type: Ready, status:"       \
	" \"True\"}]}\n---\n"

static struct drain_options rolling(void)
{
	struct drain_options o = td_options();

	o.plan = KVET_DRAIN_ROLLING;
	o.order = KVET_DRAIN_ORDER_NAME;
	return o;
}

/* The deadlock issue about webhook @name, failing when there is none. */
static const struct drain_issue *deadlock_of(const struct tdrain *t,
					     const char *name)
{
	size_t i;

	for (i = 0; i < t->res.n_issues; i++)
		if (t->res.issues[i].rule == DRAIN_RULE_WEBHOOK_DEADLOCK &&
		    !strcmp(t->res.issues[i].webhook, name))
			return &t->res.issues[i];
	fail_msg("no deadlock of %s", name);
	return NULL;
}

/* a's backend must pass b, b's must pass a; both on n1 */
static const char ring2[] =
	NODE("n1") NODE("n2") HOOK("a", "Fail") HOOK("b", "Fail")
	BACKEND("a", "a-1", "n1", "b", "1") BACKEND("b", "b-1", "n1", "a", "1");

static void ring_of_two(void **state)
{
	struct drain_options o = td_options();
	const struct drain_issue *is;
	struct tdrain t;

	(void)state;
	td_load(&t, ring2);
	td_run(&t, &o);
	assert_int_equal(t.rc, 0);
	/* each node alone: n1 evicts both backends and is blocked by the
	 * two webhooks, each naming the other; n2 has nothing */
	assert_int_equal(td_count(&t, "n1", DRAIN_RULE_WEBHOOK_DEADLOCK), 2);
	assert_int_equal(td_count(&t, "n2", DRAIN_RULE_WEBHOOK_DEADLOCK), 0);
	is = deadlock_of(&t, "a.example.com");
	assert_int_equal(is->sev, KVET_SEV_ERROR);
	assert_true(is->ring);
	td_contains(is->message, "deadlocks fail-closed webhook \"a.example.com\": its backend pod \"a/a-1\" is evicted, and the creation of its replacement must pass fail-closed webhook \"b.example.com\"");
	td_contains(is->message, "the replacement of its backend pod \"b/b-1\" must pass \"a.example.com\"; in this ring of 2");
	td_contains(is->message, "failed calling webhook \"b.example.com\"");
	td_contains(is->message, "no endpoints available for service \"b\"");
	is = deadlock_of(&t, "b.example.com");
	td_contains(is->message, "must pass fail-closed webhook \"a.example.com\"");
	/* the other webhook's configuration is related, after node,
	 * Service and pod */
	assert_int_equal(is->n_related, 4);
	assert_string_equal(is->related[3].name, "a");
	/* rolled back: the next run says the same, once each */
	td_run(&t, &o);
	assert_int_equal(td_count(&t, NULL, DRAIN_RULE_WEBHOOK_DEADLOCK), 2);
	/* rolled: step 1 stalls on it */
	o = rolling();
	td_run(&t, &o);
	assert_int_equal(t.res.n_steps, 1);
	assert_true(t.res.steps[0].stalled);
	assert_int_equal(td_count(&t, "n1", DRAIN_RULE_WEBHOOK_DEADLOCK), 2);
	td_free(&t);
}

static void ignore_is_no_ring(void **state)
{
	struct drain_options o = td_options();
	struct tdrain t;

	(void)state;
	/* b fails open: a's replacement is created without it, a is back,
	 * and b's replacement passes a */
	td_load(&t, NODE("n1") NODE("n2") HOOK("a", "Fail")
		HOOK("b", "Ignore") BACKEND("a", "a-1", "n1", "b", "1")
		BACKEND("b", "b-1", "n1", "a", "1"));
	td_run(&t, &o);
	assert_int_equal(td_count(&t, NULL, DRAIN_RULE_WEBHOOK_DEADLOCK), 0);
	assert_int_equal(td_count(&t, "n1", DRAIN_RULE_WEBHOOK_OUTAGE), 1);
	o = rolling();
	td_run(&t, &o);
	assert_int_equal(t.res.n_steps, 2);
	assert_false(t.res.steps[0].stalled);
	assert_false(t.res.steps[1].stalled);
	td_free(&t);
}

static void backends_apart(void **state)
{
	struct drain_options o = td_options();
	struct tdrain t;

	(void)state;
	/* each node alone takes one backend: the other webhook is up and
	 * passes its replacement */
	td_load(&t, NODE("n1") NODE("n2") HOOK("a", "Fail") HOOK("b", "Fail")
		BACKEND("a", "a-1", "n1", "b", "1")
		BACKEND("b", "b-1", "n2", "a", "1"));
	td_run(&t, &o);
	assert_int_equal(td_count(&t, NULL, DRAIN_RULE_WEBHOOK_DEADLOCK), 0);
	/* rolled: a's replacement goes to n2, where b's backend runs, so
	 * step 2 evicts both */
	o = rolling();
	td_run(&t, &o);
	assert_int_equal(td_count(&t, "n1", DRAIN_RULE_WEBHOOK_DEADLOCK), 0);
	assert_int_equal(td_count(&t, "n2", DRAIN_RULE_WEBHOOK_DEADLOCK), 2);
	assert_int_equal(t.res.n_steps, 2);
	assert_true(t.res.steps[1].stalled);
	td_free(&t);
}

static void ring_of_three_and_a_tail(void **state)
{
	struct drain_options o = td_options();
	const struct drain_issue *is;
	struct tdrain t;

	(void)state;
	/* a -> b -> c -> a, and d, whose backend must pass a: d never comes
	 * back either, but it is not on the ring: its replacement is refused
	 * (the roll says so), not a deadlock of its own */
	td_load(&t, NODE("n1") NODE("n2") HOOK("a", "Fail") HOOK("b", "Fail")
		HOOK("c", "Fail") HOOK("d", "Fail")
		BACKEND("a", "a-1", "n1", "b", "1")
		BACKEND("b", "b-1", "n1", "c", "1")
		BACKEND("c", "c-1", "n1", "a", "1")
		BACKEND("d", "d-1", "n1", "a", "1"));
	td_run(&t, &o);
	assert_int_equal(td_count(&t, "n1", DRAIN_RULE_WEBHOOK_DEADLOCK), 3);
	is = deadlock_of(&t, "b.example.com");
	td_contains(is->message, "its backend pod \"b/b-1\" is evicted, and the creation of its replacement must pass fail-closed webhook \"c.example.com\", which has no backend left either: the replacement of its backend pod \"c/c-1\" must pass \"a.example.com\", that of \"a.example.com\"'s backend pod \"a/a-1\" must pass \"b.example.com\"; in this ring of 3");
	td_free(&t);
}

static void pending_opens_the_ring(void **state)
{
	struct drain_options o = td_options();
	struct tdrain t;

	(void)state;
	/* a's second backend fits no node (5 cores) but passes every
	 * webhook: a may come back once a node has room, and then b's and
	 * a's other replacement pass, so the ring is not a deadlock */
	td_load(&t, NODE("n1") NODE("n2") HOOK("a", "Fail") HOOK("b", "Fail")
		BACKEND("a", "a-1", "n1", "b", "1")
		BACKEND("a", "a-2", "n1", "none", "5")
		BACKEND("b", "b-1", "n1", "a", "1"));
	td_run(&t, &o);
	assert_int_equal(td_count(&t, NULL, DRAIN_RULE_WEBHOOK_DEADLOCK), 0);
	assert_int_equal(td_count(&t, "n1", DRAIN_RULE_POD_UNSCHEDULABLE), 1);
	td_free(&t);
}

static void ring_of_one(void **state)
{
	struct drain_options o = td_options();
	const struct drain_issue *is;
	struct tdrain t;

	(void)state;
	/* the webhook rejects its own backend's replacement: the words of
	 * the single webhook, not of a ring */
	td_load(&t, NODE("n1") NODE("n2") HOOK("a", "Fail")
		BACKEND("a", "a-1", "n1", "a", "1"));
	td_run(&t, &o);
	assert_int_equal(td_count(&t, "n1", DRAIN_RULE_WEBHOOK_DEADLOCK), 1);
	is = deadlock_of(&t, "a.example.com");
	assert_false(is->ring);
	td_contains(is->message, "its backend pod \"a/a-1\" is evicted, and the creation of its replacement is a request the webhook itself intercepts and, with no backend left, rejects: Internal error occurred: failed calling webhook \"a.example.com\"");
	td_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ring_of_two),
		cmocka_unit_test(ignore_is_no_ring),
		cmocka_unit_test(backends_apart),
		cmocka_unit_test(ring_of_three_and_a_tail),
		cmocka_unit_test(pending_opens_the_ring),
		cmocka_unit_test(ring_of_one),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
