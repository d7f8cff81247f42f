/* SPDX-License-Identifier: Apache-2.0 */
#include "model/object.h"

#include <stdlib.h>
#include <string.h>

#include "base/vec.h"

void kvet_objects_release(struct kvet_objects *objs)
{
	if (!objs)
		return;
	free(objs->v);
	memset(objs, 0, sizeof(*objs));
}

/*
 * Cluster-scoped kinds of the built-in API groups. Custom resources are
 * assumed namespaced unless a CustomResourceDefinition in the input says
 * otherwise (kvet_objects_apply_crd_scopes()).
 */
static const struct {
	const char *group;
	const char *kind;
} cluster_kinds[] = {
	{ "", "Namespace" },
	{ "", "Node" },
	{ "", "PersistentVolume" },
	{ "", "ComponentStatus" },
	{ "admissionregistration.k8s.io", "MutatingWebhookConfiguration" },
	{ "admissionregistration.k8s.io", "ValidatingWebhookConfiguration" },
	{ "admissionregistration.k8s.io", "ValidatingAdmissionPolicy" },
	{ "admissionregistration.k8s.io", "ValidatingAdmissionPolicyBinding" },
	{ "admissionregistration.k8s.io", "MutatingAdmissionPolicy" },
	{ "admissionregistration.k8s.io", "MutatingAdmissionPolicyBinding" },
	{ "apiextensions.k8s.io", "CustomResourceDefinition" },
	{ "apiregistration.k8s.io", "APIService" },
	{ "rbac.authorization.k8s.io", "ClusterRole" },
	{ "rbac.authorization.k8s.io", "ClusterRoleBinding" },
	{ "scheduling.k8s.io", "PriorityClass" },
	{ "storage.k8s.io", "StorageClass" },
	{ "storage.k8s.io", "CSIDriver" },
	{ "storage.k8s.io", "CSINode" },
	{ "storage.k8s.io", "VolumeAttachment" },
	{ "networking.k8s.io", "IngressClass" },
	{ "node.k8s.io", "RuntimeClass" },
	{ "certificates.k8s.io", "CertificateSigningRequest" },
	{ "flowcontrol.apiserver.k8s.io", "FlowSchema" },
	{ "flowcontrol.apiserver.k8s.io", "PriorityLevelConfiguration" },
	{ "authentication.k8s.io", "TokenReview" },
	{ "authorization.k8s.io", "SubjectAccessReview" },
	{ "authorization.k8s.io", "SelfSubjectAccessReview" },
	{ "authorization.k8s.io", "SelfSubjectRulesReview" },
	{ "policy", "PodSecurityPolicy" },
};

bool kvet_kind_is_cluster_scoped(const char *group, const char *kind)
{
	size_t i;

	for (i = 0; i < sizeof(cluster_kinds) / sizeof(cluster_kinds[0]); i++)
		if (strcmp(cluster_kinds[i].kind, kind) == 0 &&
		    strcmp(cluster_kinds[i].group, group) == 0)
			return true;
	return false;
}

static const char *dup_node(struct kvet_arena *arena,
			    const struct kvet_node *n)
{
	return kvet_arena_strndup(arena, n->u.str, n->len);
}

static bool ends_with(const char *s, size_t len, const char *suffix)
{
	size_t sl = strlen(suffix);

	return len >= sl && memcmp(s + len - sl, suffix, sl) == 0;
}

/* The list kinds kubectl and the API server produce: "List" itself and
 * "<Kind>List" (DeploymentList, ConfigMapList, ...). */
static bool is_list(const struct kvet_node *root)
{
	const struct kvet_node *kind = kvet_node_get(root, "kind");

	return kvet_node_is_string(kind) &&
	       ends_with(kind->u.str, kind->len, "List") &&
	       kvet_node_is_seq(kvet_node_get(root, "items"));
}

struct list_defaults {
	const struct kvet_node *kind;		/* item kind, or NULL */
	const struct kvet_node *api_version;
};

/* Report @v unless it is a non-empty string; true when it is one. */
static bool required_string(struct kvet_diag *diag, const char *file,
			    const struct kvet_node *obj,
			    const struct kvet_node *v, const char *what)
{
	if (kvet_node_is_null(v)) {
		kvet_diag_addf(diag, file, obj->line, obj->col,
			       "object has no \"%s\"", what);
		return false;
	}
	if (!kvet_node_is_string(v) || v->len == 0) {
		kvet_diag_addf(diag, file, v->line, v->col,
			       "\"%s\" must be a non-empty string, not %s",
			       what,
			       v->type == KVET_NODE_STRING ? "an empty string"
							   : kvet_node_type_a(v->type));
		return false;
	}
	return true;
}

/* KVET_OBJ_HELM_TEST, KVET_OBJ_HELM_HOOK or 0 from the helm.sh/hook
 * annotation ("pre-install,post-upgrade", "test-success") */
static unsigned int helm_hook_flag(const struct kvet_node *meta)
{
	const struct kvet_node *hook =
		kvet_node_path(meta, "annotations", "helm.sh/hook", NULL);
	size_t i;

	if (!kvet_node_is_scalar(hook) || !hook->len)
		return 0;
	for (i = 0; i + 4 <= hook->len; i++)
		if (memcmp(hook->u.str + i, "test", 4) == 0)
			return KVET_OBJ_HELM_TEST;
	return KVET_OBJ_HELM_HOOK;
}

bool kvet_status_observed(const struct kvet_node *status)
{
	uint32_t i;

	if (!status)
		return false;
	switch (status->type) {
	case KVET_NODE_MAP:
		for (i = 0; i < status->len; i++)
			if (kvet_status_observed(&status->u.pairs[i].value))
				return true;
		return false;
	case KVET_NODE_SEQ:
		for (i = 0; i < status->len; i++)
			if (kvet_status_observed(&status->u.items[i]))
				return true;
		return false;
	case KVET_NODE_NULL:
		return false;
	case KVET_NODE_STRING:
		return status->len != 0;
	default:
		/* a number or a boolean, false and 0 included, was observed */
		return true;
	}
}

int kvet_objects_push(struct kvet_objects *out, struct kvet_object *obj)
{
	if (!kvet_vec_grow((void **)&out->v, &out->cap, out->n + 1,
			   sizeof(*out->v)))
		return -1;
	out->v[out->n++] = obj;
	return 0;
}

/* Returns 1 when an object was added, 0 when it was reported, -1 on OOM. */
static int add_object(struct kvet_arena *arena, struct kvet_diag *diag,
		      const char *file, const struct kvet_doc *doc,
		      const struct kvet_node *root,
		      const struct list_defaults *defs, const char *default_ns,
		      struct kvet_objects *out)
{
	const struct kvet_node *kind, *apiv, *meta, *name, *ns, *status;
	struct kvet_object *obj;
	const char *slash;

	if (!kvet_node_is_map(root)) {
		kvet_diag_addf(diag, file, root->line, root->col,
			       "%s is %s, not a mapping: not a Kubernetes object",
			       defs ? "list item" : "document",
			       kvet_node_type_a(root->type));
		return 0;
	}
	kind = kvet_node_get(root, "kind");
	apiv = kvet_node_get(root, "apiVersion");
	if (defs && kvet_node_is_null(kind))
		kind = defs->kind;
	if (defs && kvet_node_is_null(apiv))
		apiv = defs->api_version;
	meta = kvet_node_get(root, "metadata");
	name = kvet_node_get(meta, "name");
	if (kvet_node_is_null(name))
		name = kvet_node_get(meta, "generateName");
	if (!required_string(diag, file, root, kind, "kind") ||
	    !required_string(diag, file, root, apiv, "apiVersion"))
		return 0;
	if (!kvet_node_is_null(meta) && !kvet_node_is_map(meta)) {
		kvet_diag_addf(diag, file, meta->line, meta->col,
			       "\"metadata\" must be a mapping, not %s",
			       kvet_node_type_a(meta->type));
		return 0;
	}
	if (!required_string(diag, file, root, name, "metadata.name"))
		return 0;
	obj = kvet_arena_alloc(arena, sizeof(*obj));
	if (!obj)
		return -1;
	obj->root = root;
	obj->file = file;
	obj->source = doc->source;
	obj->api_version = dup_node(arena, apiv);
	obj->kind = dup_node(arena, kind);
	obj->name = dup_node(arena, name);
	if (!obj->api_version || !obj->kind || !obj->name)
		return -1;
	slash = strchr(obj->api_version, '/');
	if (slash) {
		obj->group = kvet_arena_strndup(arena, obj->api_version,
						(size_t)(slash - obj->api_version));
		obj->version = slash + 1;
	} else {
		obj->group = "";
		obj->version = obj->api_version;
	}
	if (!obj->group)
		return -1;
	obj->line = root->line;
	obj->col = root->col;
	obj->doc = doc->index;
	if (defs)
		obj->flags |= KVET_OBJ_LIST_ITEM;
	ns = kvet_node_get(meta, "namespace");
	if (kvet_kind_is_cluster_scoped(obj->group, obj->kind)) {
		obj->flags |= KVET_OBJ_CLUSTER_SCOPED;
		obj->namespace = "";
	} else if (kvet_node_is_string(ns) && ns->len) {
		obj->namespace = dup_node(arena, ns);
	} else {
		obj->namespace = default_ns;
		obj->flags |= KVET_OBJ_NS_UNSET;
	}
	if (!obj->namespace)
		return -1;
	status = kvet_node_get(root, "status");
	if ((kvet_node_is_map(status) || kvet_node_is_seq(status)) &&
	    kvet_status_observed(status))
		obj->flags |= KVET_OBJ_HAS_STATUS;
	if (strcmp(obj->kind, "Pod") == 0 && !obj->group[0] &&
	    kvet_node_is_string(kvet_node_path(root, "spec", "nodeName", NULL)) &&
	    kvet_node_path(root, "spec", "nodeName", NULL)->len)
		obj->flags |= KVET_OBJ_BOUND_POD;
	obj->flags |= helm_hook_flag(meta);
	if (kvet_objects_push(out, obj) < 0)
		return -1;
	return 1;
}

static const struct kvet_node *item_kind(struct kvet_arena *arena,
					 const struct kvet_node *list_kind)
{
	struct kvet_node *n;

	/* "List" says nothing about its items; "DeploymentList" does. */
	if (list_kind->len <= 4)
		return NULL;
	n = kvet_arena_alloc(arena, sizeof(*n));
	if (!n)
		return NULL;
	*n = *list_kind;
	n->len -= 4;
	return n;
}

/* Does @n look like a Kubernetes object: a mapping with either key? */
static bool looks_like_object(const struct kvet_node *n)
{
	return kvet_node_is_map(n) &&
	       (!kvet_node_is_null(kvet_node_get(n, "apiVersion")) ||
		!kvet_node_is_null(kvet_node_get(n, "kind")));
}

/*
 * Helm's Chart.yaml has an apiVersion (v1 or v2) but no kind: its
 * required fields are name and version, and it has no metadata. It sits
 * in every chart, so a pre-commit hook meets it first.
 */
static bool is_helm_chart_file(const struct kvet_node *n)
{
	const struct kvet_node *av = kvet_node_get(n, "apiVersion");

	return kvet_node_is_null(kvet_node_get(n, "kind")) &&
	       (kvet_node_eq(av, "v1") || kvet_node_eq(av, "v2")) &&
	       kvet_node_is_string(kvet_node_get(n, "name")) &&
	       kvet_node_is_scalar(kvet_node_get(n, "version")) &&
	       !kvet_node_get(n, "metadata");
}

/* Any item of the sequence @seq that looks like an object. */
static bool holds_objects(const struct kvet_node *seq)
{
	uint32_t i;

	for (i = 0; i < seq->len; i++)
		if (looks_like_object(&seq->u.items[i]))
			return true;
	return false;
}

struct skip_notes {
	struct kvet_diag *diag;
	const char *file;
	size_t listed, more;
};

/*
 * One detail notice per skipped document, for -v; a file of a million
 * such documents lists the first KVET_LOAD_MAX_ERRORS and counts the rest.
 */
static void note_skipped(struct skip_notes *sn, const struct kvet_doc *doc,
			 const char *why)
{
	const struct kvet_node *root = doc->root;

	if (sn->listed == KVET_LOAD_MAX_ERRORS) {
		sn->more++;
		return;
	}
	sn->listed++;
	kvet_diag_notef(sn->diag, KVET_NOTICE_DETAIL, sn->file, root->line,
			root->col,
			"document %u skipped: %s is not a Kubernetes object",
			doc->index + 1, why);
}

/* The items of a List, a *List or a top-level sequence of objects. */
static int add_items(struct kvet_arena *arena, struct kvet_diag *diag,
		     const char *file, const struct kvet_doc *doc,
		     const struct kvet_node *items,
		     const struct list_defaults *defs, const char *default_ns,
		     struct kvet_objects *out)
{
	uint32_t j;

	for (j = 0; j < items->len; j++)
		if (add_object(arena, diag, file, doc, &items->u.items[j], defs,
			       default_ns, out) < 0)
			return -1;
	return 0;
}

long kvet_objects_from_docs(struct kvet_arena *arena, struct kvet_diag *diag,
			    const char *file, const struct kvet_docs *docs,
			    const char *default_ns, struct kvet_objects *out)
{
	static const struct list_defaults bare = { NULL, NULL };
	struct skip_notes sn = { diag, file, 0, 0 };
	size_t start = out->n, i;
	int rc = 0;

	for (i = 0; i < docs->n && rc >= 0; i++) {
		const struct kvet_doc *doc = &docs->v[i];
		const struct kvet_node *root = doc->root;

		if (kvet_node_is_map(root) && is_list(root)) {
			struct list_defaults defs;

			defs.kind = item_kind(arena, kvet_node_get(root, "kind"));
			defs.api_version = kvet_node_get(root, "apiVersion");
			/* a bare "List" is v1 and lends its items nothing */
			if (!defs.kind)
				defs.api_version = NULL;
			rc = add_items(arena, diag, file, doc,
				       kvet_node_get(root, "items"), &defs,
				       default_ns, out);
		} else if (kvet_node_is_seq(root) && !root->len) {
			/* "[]": a dump of no objects, nothing to skip */
		} else if (kvet_node_is_seq(root) && holds_objects(root)) {
			/* a JSON or YAML array of objects, as some dump tools
			 * write; kubectl reads it as a List */
			rc = add_items(arena, diag, file, doc, root, &bare,
				       default_ns, out);
		} else if (kvet_node_is_seq(root)) {
			out->skipped++;
			note_skipped(&sn, doc,
				     "a sequence whose items have neither apiVersion nor kind");
		} else if (!kvet_node_is_map(root)) {
			out->skipped++;
			note_skipped(&sn, doc, root->type == KVET_NODE_STRING
						       ? "a string"
						       : "a scalar");
		} else if (!looks_like_object(root)) {
			out->skipped++;
			note_skipped(&sn, doc,
				     "a mapping with neither apiVersion nor kind");
		} else if (is_helm_chart_file(root)) {
			out->skipped++;
			note_skipped(&sn, doc,
				     "a Helm Chart.yaml (apiVersion, name and version, no kind)");
		} else {
			rc = add_object(arena, diag, file, doc, root, NULL,
					default_ns, out);
		}
	}
	if (rc < 0)
		return -1;
	if (sn.more)
		kvet_diag_notef(diag, KVET_NOTICE_DETAIL, file, 0, 0,
				"%zu more documents skipped, not listed",
				sn.more);
	return (long)(out->n - start);
}
