/* SPDX-License-Identifier: Apache-2.0 */
#include "findings/baseline.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "load/strict.h"
#include "base/json.h"
#include "findings/findings.h"

static const char *const top_keys[] = { "version", "findings", NULL };
static const char *const entry_keys[] = { "rule", "kind", "namespace", "name",
					  "field", "fingerprint",
					  "headline", "message", NULL };

static bool parse_hex(const struct kvet_node *n, uint64_t *out)
{
	uint64_t v = 0;
	uint32_t i;

	if (!kvet_node_is_scalar(n) || n->len != 16)
		return false;
	for (i = 0; i < n->len; i++) {
		char c = n->u.str[i];
		unsigned int d;

		if (c >= '0' && c <= '9')
			d = (unsigned int)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned int)(c - 'a' + 10);
		else
			return false;
		v = (v << 4) | d;
	}
	*out = v;
	return true;
}

static bool load_entry(struct kvet_strict *s, const struct kvet_node *n,
		       struct kvet_baseline_entry *e)
{
	const struct kvet_node *fp;

	if (!kvet_strict_map(s, n, "a baseline entry", entry_keys))
		return false;
	e->line = n->line;
	e->rule = kvet_strict_required_string(s, n, "rule", "a baseline entry");
	e->kind = kvet_strict_required_string(s, n, "kind", "a baseline entry");
	e->name = kvet_strict_required_string(s, n, "name", "a baseline entry");
	e->namespace = kvet_node_get(n, "namespace")
			       ? kvet_strict_string(s, kvet_node_get(n, "namespace"),
						    "namespace")
			       : "";
	/* version 2 records the headline, version 1 the message */
	if (kvet_node_get(n, "headline"))
		e->message = kvet_strict_string(s, kvet_node_get(n, "headline"),
						"headline");
	else if (kvet_node_get(n, "message"))
		e->message = kvet_strict_string(s, kvet_node_get(n, "message"),
						"message");
	fp = kvet_strict_required(s, n, "fingerprint", "a baseline entry");
	if (!fp)
		return false;
	if (!parse_hex(fp, &e->fingerprint)) {
		kvet_strict_errorf(s, fp,
				   "fingerprint must be 16 lowercase hex digits");
		return false;
	}
	return e->rule && e->kind && e->name && e->namespace;
}

/* By fingerprint; equal ones keep file order, so the first in the file
 * is used first, as a scan would. */
static int cmp_fingerprint(const void *pa, const void *pb)
{
	const struct kvet_baseline_entry *a =
		*(const struct kvet_baseline_entry *const *)pa;
	const struct kvet_baseline_entry *b =
		*(const struct kvet_baseline_entry *const *)pb;

	if (a->fingerprint != b->fingerprint)
		return a->fingerprint < b->fingerprint ? -1 : 1;
	return (a > b) - (a < b);
}

/* Rule, kind, namespace, name of an entry against those of a finding. */
static int cmp_ids(const struct kvet_baseline_entry *e, const char *rule,
		   const char *kind, const char *ns, const char *name)
{
	int c;

	if ((c = strcmp(e->rule, rule)) || (c = strcmp(e->kind, kind)) ||
	    (c = strcmp(e->namespace, ns)))
		return c;
	return strcmp(e->name, name);
}

/* By rule and object; equal ones keep file order. */
static int cmp_object(const void *pa, const void *pb)
{
	const struct kvet_baseline_entry *a =
		*(const struct kvet_baseline_entry *const *)pa;
	const struct kvet_baseline_entry *b =
		*(const struct kvet_baseline_entry *const *)pb;
	int c = cmp_ids(a, b->rule, b->kind, b->namespace, b->name);

	return c ? c : (a > b) - (a < b);
}

int kvet_baseline_load(struct kvet_baseline *bl, struct kvet_arena *arena,
		       struct kvet_diag *diag, const char *path)
{
	struct kvet_strict s = { arena, diag, path, false };
	const struct kvet_node *root, *version, *list;
	uint32_t i;

	memset(bl, 0, sizeof(*bl));
	bl->path = path;
	root = kvet_strict_load(&s, path, KVET_BASELINE_MAX_SIZE,
				"baseline file");
	if (!root || !kvet_strict_map(&s, root, "the baseline", top_keys))
		return -1;
	version = kvet_strict_required(&s, root, "version", "the baseline");
	if (!version)
		return -1;
	if (version->type == KVET_NODE_INT && kvet_node_text_eq(version, "1"))
		bl->version = 1;
	else if (version->type == KVET_NODE_INT &&
		 kvet_node_text_eq(version, "2"))
		bl->version = 2;
	else if (version->type == KVET_NODE_INT &&
		 kvet_node_text_eq(version, "3"))
		bl->version = 3;
	if (!bl->version) {
		kvet_strict_errorf(&s, version,
				   "unsupported baseline version (expected version: 3, 2 or 1)");
		return -1;
	}
	bl->version_line = version->line;
	list = kvet_node_get(root, "findings");
	if (kvet_node_is_null(list))
		return 0;
	if (!kvet_node_is_seq(list)) {
		kvet_strict_errorf(&s, list, "findings must be a list");
		return -1;
	}
	bl->v = kvet_arena_array(arena, list->len + 1, sizeof(*bl->v));
	if (!bl->v)
		return -1;
	for (i = 0; i < list->len; i++)
		if (load_entry(&s, &list->u.items[i], &bl->v[bl->n]))
			bl->n++;
	if (s.failed)
		return -1;
	bl->by_fp = kvet_arena_array(arena, bl->n + 1, sizeof(*bl->by_fp));
	if (!bl->by_fp)
		return -1;
	for (i = 0; i < bl->n; i++)
		bl->by_fp[i] = &bl->v[i];
	qsort(bl->by_fp, bl->n, sizeof(*bl->by_fp), cmp_fingerprint);
	if (bl->version >= KVET_BASELINE_VERSION)
		return 0;
	bl->by_object = kvet_arena_array(arena, bl->n + 1,
					 sizeof(*bl->by_object));
	if (!bl->by_object)
		return -1;
	for (i = 0; i < bl->n; i++)
		bl->by_object[i] = &bl->v[i];
	qsort(bl->by_object, bl->n, sizeof(*bl->by_object), cmp_object);
	return 0;
}

/* The fingerprint of @bl's version: version 1 hashed the message,
 * version 2 the headline, version 3 is kvet_finding_fingerprint(). */
static uint64_t fingerprint_of(const struct kvet_baseline *bl,
			       const struct kvet_finding *f)
{
	if (bl->version == 1)
		return kvet_finding_hash_message(f);
	if (bl->version == 2)
		return kvet_finding_hash(f, f->headline ? f->headline
							: f->message);
	return kvet_finding_fingerprint(f);
}

/* Before version 3: the first unused entry of @f's rule and object. */
static struct kvet_baseline_entry *match_object(struct kvet_baseline *bl,
						const struct kvet_finding *f)
{
	const struct kvet_object_ref *o = &f->object;
	size_t lo = 0, hi = bl->n, i;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_ids(bl->by_object[mid], f->rule, o->kind, o->namespace,
			    o->name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < bl->n && !cmp_ids(bl->by_object[i], f->rule, o->kind,
					   o->namespace, o->name); i++) {
		if (!bl->by_object[i]->used) {
			bl->by_object[i]->used = true;
			bl->loose++;
			return bl->by_object[i];
		}
	}
	return NULL;
}

struct kvet_baseline_entry *kvet_baseline_match(struct kvet_baseline *bl,
						const struct kvet_finding *f)
{
	uint64_t fp = fingerprint_of(bl, f);
	size_t lo = 0, hi = bl->n, i;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (bl->by_fp[mid]->fingerprint < fp)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < bl->n && bl->by_fp[i]->fingerprint == fp; i++) {
		struct kvet_baseline_entry *e = bl->by_fp[i];

		if (!e->used && strcmp(e->rule, f->rule) == 0) {
			e->used = true;
			return e;
		}
	}
	return bl->by_object ? match_object(bl, f) : NULL;
}

struct item {
	const struct kvet_finding *f;
	uint64_t fp;
};

static int cmp_item(const void *pa, const void *pb)
{
	const struct item *a = pa, *b = pb;
	int c;

	if ((c = strcmp(a->f->rule, b->f->rule)) ||
	    (c = strcmp(a->f->object.kind, b->f->object.kind)) ||
	    (c = strcmp(a->f->object.namespace, b->f->object.namespace)) ||
	    (c = strcmp(a->f->object.name, b->f->object.name)))
		return c;
	return (a->fp > b->fp) - (a->fp < b->fp);
}

static void write_field(FILE *fp, const char *key, const char *value)
{
	fprintf(fp, "  %s: ", key);
	/* a JSON string is a YAML double-quoted scalar */
	kvet_json_write_string(fp, value, strlen(value));
	fputc('\n', fp);
}

int kvet_baseline_write(const struct kvet_finding *fs, size_t n, FILE *fp)
{
	struct item *items = malloc((n ? n : 1) * sizeof(*items));
	size_t i;

	if (!items)
		return -1;
	for (i = 0; i < n; i++) {
		items[i].f = &fs[i];
		items[i].fp = kvet_finding_fingerprint(&fs[i]);
	}
	qsort(items, n, sizeof(*items), cmp_item);
	fputs("# kvet baseline: findings accepted on purpose. `kvet lint --baseline\n"
	      "# FILE` reports them as suppressed; `--write-baseline FILE` rewrites\n"
	      "# this file. Entries match by fingerprint (rule, object, field and\n"
	      "# related objects), never by line or words, so edits elsewhere keep\n"
	      "# them matching.\n"
	      "version: 3\n",
	      fp);
	fputs(n ? "findings:\n" : "findings: []\n", fp);
	for (i = 0; i < n; i++) {
		const struct kvet_finding *f = items[i].f;

		fprintf(fp, "- rule: %s\n", f->rule);
		write_field(fp, "kind", f->object.kind);
		write_field(fp, "namespace", f->object.namespace);
		write_field(fp, "name", f->object.name);
		write_field(fp, "field", f->field ? f->field : "");
		fprintf(fp, "  fingerprint: \"%016" PRIx64 "\"\n", items[i].fp);
		write_field(fp, "headline",
			    f->headline ? f->headline : f->message);
	}
	free(items);
	return ferror(fp) ? -1 : 0;
}
