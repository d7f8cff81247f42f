/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the model says about a webhook entry beyond its backend's
 * resolution (test_webhook.c): its configuration's entries and who they
 * are served by, ports and Secrets of the backend, spreading, the URL and
 * CA injection (client_config.c), who may rewrite the configuration
 * (rbac.c), and interception in some namespace (intercept.c).
 */
#include "tgraph.h"
#include "twebhook.h"

#include "model/client_config.h"
#include "model/intercept.h"
#include "model/rbac.h"
#include "model/run.h"
#include "model/webhook.h"

struct fx {
	struct tgraph tg;
	struct kvet_run *run;
	const struct kvet_webhooks *whs;
	const struct kvet_webhook **e;	/* the injector's entries */
	size_t n;
};

static void fx_init(struct fx *f, const char *kind, const char *name)
{
	const struct kvet_object *obj;

	f->tg = tg_load(input, 0);
	f->run = kvet_run_create(&f->tg.l->arena, f->tg.g);
	f->whs = kvet_run_webhooks(f->run);
	assert_non_null(f->whs);
	obj = kvet_graph_find(f->tg.g, kind[0] == 'C' ? "apiextensions.k8s.io" :
			      "admissionregistration.k8s.io", kind, "", name);
	assert_non_null(obj);
	assert_int_equal(kvet_webhooks_of(&f->tg.l->arena, f->whs, obj, &f->e,
					  &f->n), 0);
}

static void fx_free(struct fx *f)
{
	kvet_run_destroy(f->run);
	tg_free(&f->tg);
}

static struct kvet_slice sl(const char *s)
{
	return kvet_slice_of(s);
}

static void entries_and_backends(void **state)
{
	const struct kvet_object **objs;
	const struct kvet_backend *b;
	struct fx f;
	size_t n;
	bool out;

	(void)state;
	fx_init(&f, "MutatingWebhookConfiguration", "injector");
	assert_int_equal(f.n, 2);
	assert_string_equal(f.e[0]->name, "inject.example.com");
	assert_string_equal(kvet_webhook_config_resource(f.e[0]),
			    "mutatingwebhookconfigurations");
	b = kvet_webhook_backend(&f.tg.l->arena, f.tg.g, f.e[0]);
	assert_int_equal(b->state, KVET_BACKEND_WORKLOADS);
	assert_false(kvet_backend_inferred(b));
	assert_true(kvet_backend_declares_port(b, sl("webhook")));
	assert_false(kvet_backend_declares_port(b, sl("https")));
	assert_true(kvet_backend_mounts_secret(b, sl("serving-tls")));
	assert_false(kvet_backend_mounts_secret(b, sl("x")));
	assert_int_equal(kvet_backend_unspread(&f.tg.l->arena, f.tg.g, b,
					       &out), 0);
	assert_true(out);
	/* a url entry has no backend to spread */
	b = kvet_webhook_backend(&f.tg.l->arena, f.tg.g, f.e[1]);
	assert_int_equal(b->state, KVET_BACKEND_URL);
	assert_int_equal(kvet_backend_unspread(&f.tg.l->arena, f.tg.g, b,
					       &out), 0);
	assert_false(out);
	/* the injector serves two configurations: each once */
	assert_int_equal(kvet_webhooks_served_by(&f.tg.l->arena, f.whs,
						 tg_wl(&f.tg, "apps",
						       "Deployment", "ops",
						       "injector"),
						 &objs, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(objs[0]->name, "injector");
	assert_string_equal(objs[1]->name, "checker");
	fx_free(&f);
}

static void client_config(void **state)
{
	struct kvet_ca_injection ca;
	struct kvet_url u;
	struct fx f;

	(void)state;
	fx_init(&f, "MutatingWebhookConfiguration", "injector");
	kvet_url_split(kvet_string_of(f.e[1]->url), &u);
	assert_true(kvet_slice_eq0(u.scheme, "https"));
	assert_true(kvet_slice_eq0(u.user_info, "user"));
	assert_true(kvet_slice_eq0(u.host, "hook.ops.svc"));
	assert_true(kvet_slice_eq0(u.port, "8443"));
	assert_true(kvet_slice_eq0(u.path, "/x"));
	assert_true(kvet_slice_eq0(u.query, "q=1"));
	assert_true(kvet_slice_eq0(u.fragment, "f"));
	assert_true(u.has_query && u.has_fragment);
	kvet_url_split(sl("https://[::1]:443/"), &u);
	assert_true(kvet_slice_eq0(u.host, "::1"));
	assert_true(kvet_slice_eq0(u.port, "443"));
	kvet_url_split(sl("host/p?"), &u);
	assert_int_equal(u.scheme.len, 0);
	assert_true(kvet_slice_eq0(u.host, "host"));
	assert_true(u.has_query && !u.has_fragment && !u.query.len);
	assert_int_equal(kvet_webhook_ca_injection(&f.tg.l->arena, f.tg.g,
						   f.e[0], &ca), 0);
	assert_int_equal(ca.kind, KVET_CA_CERTIFICATE);
	assert_string_equal(kvet_ca_injection_kind_name(ca.kind),
			    "certificate");
	assert_true(ca.valid);
	assert_string_equal(ca.namespace, "ops");
	assert_string_equal(ca.name, "serving");
	assert_non_null(ca.object);
	assert_string_equal(ca.object->kind, "Certificate");
	fx_free(&f);
}

static void config_writers(void **state)
{
	const struct kvet_config_writers *w;
	struct fx f;

	(void)state;
	fx_init(&f, "ValidatingWebhookConfiguration", "checker");
	/* the aggregated role grants validating configurations */
	w = kvet_run_config_writers(f.run, kvet_webhook_config_resource(f.e[0]));
	assert_non_null(w);
	assert_int_equal(w->n_crbs, 1);
	assert_string_equal(w->crbs[0]->name, "certgen");
	assert_int_equal(w->n_jobs, 1);
	assert_string_equal(w->jobs[0]->obj->name, "certgen");
	/* found once per run */
	assert_ptr_equal(kvet_run_config_writers(f.run,
						 "validatingwebhookconfigurations"),
			 w);
	assert_false(kvet_config_writers_bind(w, tg_wl(&f.tg, "apps",
							 "Deployment", "ops",
							 "injector")));
	w = kvet_run_config_writers(f.run, "mutatingwebhookconfigurations");
	assert_int_equal(w->n_crbs, 1);
	assert_int_equal(w->n_jobs, 0);
	assert_true(kvet_config_writers_bind(w, tg_wl(&f.tg, "apps",
							"Deployment", "ops",
							"injector")));
	assert_null(kvet_run_config_writers(f.run, "pods"));
	fx_free(&f);
}

static enum kvet_match ask(struct fx *f, const char *ns, const char *sub,
			   struct kvet_interception *r)
{
	struct kvet_labels none = { NULL, 0 };
	struct kvet_request req = { "CREATE", "", "v1", "pods", sub, ns,
				    &none, NULL };

	return kvet_webhook_intercepts_any(f->tg.g, f->e[0], &req, r);
}

static void some_namespace(void **state)
{
	struct kvet_interception r;
	struct fx f;

	(void)state;
	fx_init(&f, "MutatingWebhookConfiguration", "injector");
	/* an opt-out selector matches a namespace without labels */
	assert_int_equal(ask(&f, KVET_ANY_NAMESPACE, "", &r), KVET_MATCH_TRUE);
	assert_int_equal(r.namespace_step, KVET_MATCH_TRUE);
	assert_int_equal(ask(&f, KVET_ANY_NAMESPACE, "eviction", &r),
			 KVET_MATCH_FALSE);
	assert_null(r.rule);
	/* a named namespace without its Namespace object: assumed */
	assert_int_equal(ask(&f, "ops", "", &r), KVET_MATCH_ASSUMED_TRUE);
	assert_string_equal(kvet_match_verdict(r.result), "ASSUMED-TRUE");
	fx_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(entries_and_backends),
		cmocka_unit_test(client_config),
		cmocka_unit_test(config_writers),
		cmocka_unit_test(some_namespace),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
