/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_MODEL_CLIENT_CONFIG_H
#define KVET_MODEL_CLIENT_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "model/graph.h"
#include "model/labels.h"
#include "model/webhook.h"

/*
 * How the API server reaches a webhook (rules
 * webhook-ca-bundle-unverifiable, webhook-url-targets-cluster-dns): its
 * clientConfig.url, and how its caBundle gets filled.
 */

/* clientConfig.url split as RFC 3986 section 3 does; the parts point
 * into the URL. */
struct kvet_url {
	struct kvet_slice scheme, user_info, host, port, path, query,
		fragment;
	bool has_query, has_fragment;	/* an empty "?" or "#" is there */
};

/* Split @url; a host in brackets (IPv6) loses its brackets. */
void kvet_url_split(struct kvet_slice url, struct kvet_url *out);

enum kvet_ca_injection_kind {
	KVET_CA_NONE,
	KVET_CA_CERTIFICATE,	/* cert-manager.io/inject-ca-from */
	KVET_CA_SECRET,		/* cert-manager.io/inject-ca-from-secret */
	KVET_CA_APISERVER,	/* cert-manager.io/inject-apiserver-ca */
};

struct kvet_ca_injection {
	enum kvet_ca_injection_kind kind;
	const struct kvet_node *value;	/* the annotation's value, or NULL */
	bool valid;			/* <namespace>/<name> */
	const char *namespace, *name;	/* "" unless valid */
	const struct kvet_object *object;	/* the Certificate or Secret
						 * named, when in the input */
};

/**
 * kvet_webhook_ca_injection() - the cert-manager cainjector annotation
 * of the entry's configuration (https://cert-manager.io/docs/concepts/
 * ca-injector/), the first of inject-ca-from, inject-ca-from-secret and
 * inject-apiserver-ca that is set, split into namespace and name, with
 * the object it names when the input has it.
 * @arena: where the namespace and name go.
 * Returns: 0, or -1 when out of memory.
 */
int kvet_webhook_ca_injection(struct kvet_arena *arena,
			      const struct kvet_graph *g,
			      const struct kvet_webhook *wh,
			      struct kvet_ca_injection *out);

/* "certificate", "secret", "apiserver" or "none". */
const char *kvet_ca_injection_kind_name(enum kvet_ca_injection_kind kind);

#endif
