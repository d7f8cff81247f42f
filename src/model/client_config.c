/* SPDX-License-Identifier: Apache-2.0 */
#include "model/client_config.h"

#include <string.h>

static struct kvet_slice part(const char *from, const char *to)
{
	struct kvet_slice s = { from, (size_t)(to - from) };

	return s;
}

void kvet_url_split(struct kvet_slice url, struct kvet_url *out)
{
	const char *s = url.s, *end = s + url.len;
	const char *p, *auth, *auth_end, *at = NULL, *host_end, *colon = NULL;

	memset(out, 0, sizeof(*out));
	out->scheme = out->user_info = out->port = part(s, s);
	/* a scheme ends at the first ':' before any '/' */
	p = memchr(s, ':', url.len);
	if (!p || memchr(s, '/', (size_t)(p - s)))
		p = s;
	out->scheme = part(s, p);
	auth = p > s ? p + 1 : s;
	if (end - auth >= 2 && auth[0] == '/' && auth[1] == '/')
		auth += 2;
	for (auth_end = auth; auth_end < end && *auth_end != '/' &&
	     *auth_end != '?' && *auth_end != '#'; auth_end++)
		;
	for (p = auth; p < auth_end; p++)
		if (*p == '@')
			at = p;
	if (at) {
		out->user_info = part(auth, at);
		auth = at + 1;
	}
	if (auth < auth_end && *auth == '[') {
		host_end = memchr(auth, ']', (size_t)(auth_end - auth));
		if (!host_end)
			host_end = auth_end;
		out->host = part(auth + 1, host_end);
		if (host_end < auth_end && host_end[1] == ':')
			colon = host_end + 1;
	} else {
		colon = memchr(auth, ':', (size_t)(auth_end - auth));
		out->host = part(auth, colon ? colon : auth_end);
	}
	if (colon)
		out->port = part(colon + 1, auth_end);
	for (p = auth_end; p < end && *p != '?' && *p != '#'; p++)
		;
	out->path = part(auth_end, p);
	at = memchr(s, '#', url.len);
	colon = memchr(s, '?', at ? (size_t)(at - s) : url.len);
	out->query = colon ? part(colon + 1, at ? at : end) : part(s, s);
	out->fragment = at ? part(at + 1, end) : part(s, s);
	out->has_query = colon != NULL;
	out->has_fragment = at != NULL;
}

const char *kvet_ca_injection_kind_name(enum kvet_ca_injection_kind kind)
{
	static const char *const names[] = {
		[KVET_CA_NONE] = "none",
		[KVET_CA_CERTIFICATE] = "certificate",
		[KVET_CA_SECRET] = "secret",
		[KVET_CA_APISERVER] = "apiserver",
	};

	return names[kind];
}

int kvet_webhook_ca_injection(struct kvet_arena *arena,
			      const struct kvet_graph *g,
			      const struct kvet_webhook *wh,
			      struct kvet_ca_injection *out)
{
	static const char *const annotations[] = {
		[KVET_CA_CERTIFICATE] = "cert-manager.io/inject-ca-from",
		[KVET_CA_SECRET] = "cert-manager.io/inject-ca-from-secret",
		[KVET_CA_APISERVER] = "cert-manager.io/inject-apiserver-ca",
	};
	const struct kvet_node *ann, *val;
	const char *slash, *vend;
	int k;

	memset(out, 0, sizeof(*out));
	out->namespace = out->name = "";
	ann = kvet_node_path(wh->obj->root, "metadata", "annotations", NULL);
	for (k = KVET_CA_CERTIFICATE; k <= KVET_CA_APISERVER; k++) {
		val = kvet_node_get(ann, annotations[k]);
		if (kvet_node_is_scalar(val) && !kvet_node_is_null(val))
			break;
	}
	if (k > KVET_CA_APISERVER)
		return 0;
	out->kind = k;
	out->value = val;
	if (k == KVET_CA_APISERVER)
		return 0;
	vend = val->u.str + val->len;
	slash = memchr(val->u.str, '/', val->len);
	out->valid = slash && slash > val->u.str && slash + 1 < vend &&
		     !memchr(slash + 1, '/', (size_t)(vend - slash - 1));
	if (!out->valid)
		return 0;
	out->namespace = kvet_arena_strndup(arena, val->u.str,
					    (size_t)(slash - val->u.str));
	out->name = kvet_arena_strndup(arena, slash + 1,
				       (size_t)(vend - slash - 1));
	if (!out->namespace || !out->name)
		return -1;
	out->object = k == KVET_CA_CERTIFICATE ?
		kvet_graph_find(g, "cert-manager.io", "Certificate",
				out->namespace, out->name) :
		kvet_graph_find(g, "", "Secret", out->namespace, out->name);
	return 0;
}
