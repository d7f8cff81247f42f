/* SPDX-License-Identifier: Apache-2.0 */
#include "report/render.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/escape.h"
#include "base/json.h"
#include "report/fingerprint.h"

/*
 * The SARIF 2.1.0 report (OASIS SARIF v2.1.0, docs/formats.md): one run
 * whose driver lists every rule, one result per finding, suppressed
 * findings as results with a suppression, and input errors as tool
 * execution notifications. Pretty-printed like the JSON report, through
 * the same writer and the same string escaping.
 *
 * Artifact URIs are the paths as given, relative to %SRCROOT%, the
 * directory kvet ran in (§3.4.4 uriBaseId); no absolute path is written
 * unless the user gave one. Columns count code points (§3.14.23
 * columnKind), as everywhere in kvet.
 */

#define SRCROOT "%SRCROOT%"
/* The key of partialFingerprints (§3.27.17); bump the version whenever
 * the hashed fields change, so that consumers do not mix the two. */
#define FINGERPRINT_KEY "kvetFindingHash/v3"

static const char *const levels[KVET_SEV_COUNT] = {
	[KVET_SEV_INFO] = "note",
	[KVET_SEV_WARNING] = "warning",
	[KVET_SEV_ERROR] = "error",
};

static const char *level(enum kvet_severity sev)
{
	return (unsigned int)sev < KVET_SEV_COUNT ? levels[sev] : "error";
}

static bool is_unreserved(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' ||
	       c == '~';
}

void kvet_uri_write(FILE *fp, const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *p = (const unsigned char *)path;

	putc('"', fp);
	if (*p == '/') {
		fputs("file://", fp);
	} else {
		while (p[0] == '.' && p[1] == '/') {
			p += 2;
			while (*p == '/')
				p++;
		}
	}
	for (; *p; p++) {
		if (is_unreserved(*p) || *p == '/') {
			putc(*p, fp);
		} else {
			putc('%', fp);
			putc(hex[*p >> 4], fp);
			putc(hex[*p & 0xf], fp);
		}
	}
	putc('"', fp);
}

/* Input read from standard input has no path; it is named "stdin". */
static void artifact(struct kvet_jw *jw, const char *file)
{
	bool std = !strcmp(file, "<stdin>");

	kvet_jw_open(jw, "artifactLocation", '{');
	kvet_jw_item(jw, "uri");
	kvet_uri_write(kvet_jw_stream(jw), std ? "stdin" : file);
	if (!std && file[0] != '/')
		kvet_jw_str(jw, "uriBaseId", SRCROOT);
	kvet_jw_close(jw, '}');
}

static void physical(struct kvet_jw *jw, const struct kvet_position *pos,
		     bool column)
{
	kvet_jw_open(jw, "physicalLocation", '{');
	artifact(jw, pos->file);
	if (pos->line) {
		kvet_jw_open(jw, "region", '{');
		kvet_jw_uint(jw, "startLine", pos->line);
		if (column && pos->column)
			kvet_jw_uint(jw, "startColumn", pos->column);
		kvet_jw_close(jw, '}');
	}
	kvet_jw_close(jw, '}');
}

static void text(struct kvet_jw *jw, const char *key, const char *val)
{
	kvet_jw_open(jw, key, '{');
	kvet_jw_str(jw, "text", val ? val : "");
	kvet_jw_close(jw, '}');
}

/* "Deployment ns/name", or "Namespace name" when cluster-scoped. */
static char *identity(const struct kvet_object_ref *obj)
{
	char *s = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&s, &len);

	if (!fp)
		return NULL;
	fprintf(fp, "%s ", obj->kind ? obj->kind : "");
	if (obj->namespace && *obj->namespace)
		fprintf(fp, "%s/", obj->namespace);
	fputs(obj->name ? obj->name : "", fp);
	if (fclose(fp)) {
		free(s);
		return NULL;
	}
	return s;
}

static void write_rule(struct kvet_jw *jw, const struct kvet_rule_info *r)
{
	kvet_jw_open(jw, NULL, '{');
	kvet_jw_str(jw, "id", r->id);
	text(jw, "shortDescription", r->summary);
	text(jw, "fullDescription", r->description ? r->description
						   : r->summary);
	kvet_jw_open(jw, "help", '{');
	kvet_jw_str(jw, "text", r->remediation ? r->remediation : "");
	kvet_jw_str(jw, "markdown", r->remediation ? r->remediation : "");
	kvet_jw_close(jw, '}');
	if (r->help_uri)
		kvet_jw_str(jw, "helpUri", r->help_uri);
	kvet_jw_open(jw, "defaultConfiguration", '{');
	kvet_jw_str(jw, "level", level(r->severity));
	kvet_jw_close(jw, '}');
	kvet_jw_open(jw, "properties", '{');
	kvet_jw_str(jw, "category", r->category);
	kvet_jw_open(jw, "tags", '[');
	kvet_jw_str(jw, NULL, r->category);
	kvet_jw_close(jw, ']');
	kvet_jw_close(jw, '}');
	kvet_jw_close(jw, '}');
}

/* A result to write: a finding or a suppressed finding. */
struct result {
	const struct kvet_finding *f;
	const char *reason;	/* non-NULL when suppressed */
	const char *justification;	/* the suppression's own words */
	struct kvet_report_fp fp;
};

/* The index of rule @id in the driver's rules, which list the context's
 * rules in its order, or -1. */
static long rule_index(const struct kvet_ctx *ctx, const char *id)
{
	size_t i, n = kvet_ctx_rule_count(ctx);

	for (i = 0; id && i < n; i++)
		if (!strcmp(kvet_ctx_rule(ctx, i)->id, id))
			return (long)i;
	return -1;
}

static int write_related(struct kvet_jw *jw, const struct kvet_finding *f)
{
	size_t i;
	char *id;

	if (!f->n_related)
		return 0;
	kvet_jw_open(jw, "relatedLocations", '[');
	for (i = 0; i < f->n_related; i++) {
		const struct kvet_object_ref *rel = &f->related[i];

		if (!rel->pos.file)
			continue;
		id = identity(rel);
		if (!id)
			return -1;
		kvet_jw_open(jw, NULL, '{');
		kvet_jw_uint(jw, "id", i + 1);
		physical(jw, &rel->pos, false);
		text(jw, "message", id);
		kvet_jw_close(jw, '}');
		free(id);
	}
	kvet_jw_close(jw, ']');
	return 0;
}

static int write_result(struct kvet_jw *jw, const struct kvet_ctx *ctx,
			const struct result *r)
{
	const struct kvet_finding *f = r->f;
	long ri = rule_index(ctx, f->rule);
	char *id = identity(&f->object);
	char *msg = kvet_finding_message_dup(f);

	if (!id || !msg) {
		free(id);
		free(msg);
		return -1;
	}
	kvet_jw_open(jw, NULL, '{');
	kvet_jw_str(jw, "ruleId", f->rule);
	if (ri >= 0)
		kvet_jw_uint(jw, "ruleIndex", (unsigned long long)ri);
	kvet_jw_str(jw, "level", level(f->severity));
	text(jw, "message", msg);
	free(msg);
	kvet_jw_open(jw, "locations", '[');
	if (f->pos.file) {
		kvet_jw_open(jw, NULL, '{');
		physical(jw, &f->pos, true);
		kvet_jw_open(jw, "logicalLocations", '[');
		kvet_jw_open(jw, NULL, '{');
		kvet_jw_str(jw, "name", f->object.name);
		kvet_jw_str(jw, "fullyQualifiedName", id);
		kvet_jw_str(jw, "kind", "resource");
		kvet_jw_close(jw, '}');
		kvet_jw_close(jw, ']');
		kvet_jw_close(jw, '}');
	}
	kvet_jw_close(jw, ']');
	free(id);
	if (write_related(jw, f) < 0)
		return -1;
	kvet_jw_open(jw, "partialFingerprints", '{');
	kvet_jw_item(jw, FINGERPRINT_KEY);
	kvet_report_fp_write(kvet_jw_stream(jw), &r->fp);
	kvet_jw_close(jw, '}');
	if (r->reason) {
		/* §3.35: an annotation is in the source, the rest outside */
		kvet_jw_open(jw, "suppressions", '[');
		kvet_jw_open(jw, NULL, '{');
		kvet_jw_str(jw, "kind", !strcmp(r->reason, "annotation")
						? "inSource"
						: "external");
		kvet_jw_str(jw, "justification",
			    r->justification ? r->justification : r->reason);
		kvet_jw_close(jw, '}');
		kvet_jw_close(jw, ']');
	}
	/* §3.8 property bag: the text report's first line and help line,
	 * for viewers with little room; message.text stays the sentence */
	kvet_jw_open(jw, "properties", '{');
	kvet_jw_str(jw, "headline", f->headline ? f->headline : f->message);
	if (f->help)
		kvet_jw_str(jw, "help", f->help);
	if (f->source)
		kvet_jw_str(jw, "helmSource", f->source);
	/* the location is the template's; the render's place stays */
	kvet_jw_rendered(jw, f);
	if (f->unit)
		kvet_jw_str(jw, "kvetUnit", f->unit);
	kvet_jw_close(jw, '}');
	kvet_jw_close(jw, '}');
	return 0;
}

/* Notices are notifications of their own level; they never fail the run. */
static void write_notice(struct kvet_jw *jw, const struct kvet_notice *nt)
{
	kvet_jw_open(jw, NULL, '{');
	kvet_jw_str(jw, "level",
		    nt->level == KVET_NOTICE_WARNING ? "warning" : "note");
	text(jw, "message", nt->message);
	kvet_jw_open(jw, "locations", '[');
	if (nt->pos.file) {
		kvet_jw_open(jw, NULL, '{');
		physical(jw, &nt->pos, true);
		kvet_jw_close(jw, '}');
	}
	kvet_jw_close(jw, ']');
	kvet_jw_open(jw, "descriptor", '{');
	kvet_jw_str(jw, "id", nt->level == KVET_NOTICE_DETAIL
				      ? "skipped-document" : "notice");
	kvet_jw_close(jw, '}');
	kvet_jw_close(jw, '}');
}

static void write_dropped(struct kvet_jw *jw, size_t dropped, size_t max)
{
	char msg[256];

	snprintf(msg, sizeof(msg),
		 "%zu results left out: code scanning rejects a run of more "
		 "than %zu results, so this report keeps the %zu worst "
		 "(reported before suppressed, errors first); the JSON or "
		 "text report lists every finding",
		 dropped, max, max);
	kvet_jw_open(jw, NULL, '{');
	kvet_jw_str(jw, "level", "warning");
	text(jw, "message", msg);
	kvet_jw_open(jw, "descriptor", '{');
	kvet_jw_str(jw, "id", "results-left-out");
	kvet_jw_close(jw, '}');
	kvet_jw_close(jw, '}');
}

static void write_invocation(struct kvet_jw *jw, const struct kvet_ctx *ctx,
			     size_t dropped, size_t max)
{
	size_t i, n = kvet_ctx_error_count(ctx), failing = 0;
	const struct kvet_error *e;

	for (i = 0; i < n; i++)
		failing += !kvet_ctx_error(ctx, i)->tolerated;
	kvet_jw_open(jw, "invocations", '[');
	kvet_jw_open(jw, NULL, '{');
	/* input errors mean some input was not linted, evaluation errors
	 * that some rule was not (exit code 2), unless it tolerates them */
	kvet_jw_bool(jw, "executionSuccessful", failing == 0);
	kvet_jw_open(jw, "toolExecutionNotifications", '[');
	for (i = 0; i < n; i++) {
		e = kvet_ctx_error(ctx, i);
		kvet_jw_open(jw, NULL, '{');
		kvet_jw_str(jw, "level", e->tolerated ? "warning" : "error");
		text(jw, "message", e->message);
		kvet_jw_open(jw, "locations", '[');
		if (e->pos.file) {
			kvet_jw_open(jw, NULL, '{');
			physical(jw, &e->pos, true);
			kvet_jw_close(jw, '}');
		}
		kvet_jw_close(jw, ']');
		kvet_jw_open(jw, "descriptor", '{');
		kvet_jw_str(jw, "id", e->rule ? "evaluation-error" : "input-error");
		kvet_jw_close(jw, '}');
		if (e->rule) {
			kvet_jw_open(jw, "associatedRule", '{');
			kvet_jw_str(jw, "id", e->rule);
			kvet_jw_close(jw, '}');
		}
		kvet_jw_close(jw, '}');
	}
	n = kvet_ctx_notice_count(ctx);
	for (i = 0; i < n; i++)
		write_notice(jw, kvet_ctx_notice(ctx, i));
	if (dropped)
		write_dropped(jw, dropped, max);
	kvet_jw_close(jw, ']');
	kvet_jw_close(jw, '}');
	kvet_jw_close(jw, ']');
}

static void write_driver(struct kvet_jw *jw, const struct kvet_ctx *ctx)
{
	size_t i, n = kvet_ctx_rule_count(ctx);

	kvet_jw_open(jw, "tool", '{');
	kvet_jw_open(jw, "driver", '{');
	kvet_jw_str(jw, "name", "kvet");
	kvet_jw_str(jw, "version", kvet_version());
	kvet_jw_str(jw, "semanticVersion", kvet_version());
	/* only a site the user named: kvet has no homepage of its own */
	if (kvet_ctx_docs_url(ctx))
		kvet_jw_str(jw, "informationUri", kvet_ctx_docs_url(ctx));
	kvet_jw_open(jw, "rules", '[');
	for (i = 0; i < n; i++)
		write_rule(jw, kvet_ctx_rule(ctx, i));
	kvet_jw_close(jw, ']');
	kvet_jw_close(jw, '}');
	kvet_jw_close(jw, '}');
}

/* Reported findings before suppressed ones, the worst first, then in
 * report order: which results a capped report keeps. */
static int keep_order(const void *pa, const void *pb)
{
	const struct result *a = *(const struct result *const *)pa;
	const struct result *b = *(const struct result *const *)pb;

	if (!a->reason != !b->reason)
		return a->reason ? 1 : -1;
	if (a->f->severity != b->f->severity)
		return a->f->severity > b->f->severity ? -1 : 1;
	return a < b ? -1 : a > b;
}

/*
 * Code scanning rejects a run of more than KVET_SARIF_MAX_RESULTS results
 * whole ("SARIF results exceed hard limit", docs.github.com): keep the
 * @max worst, in report order, and count the others in *@dropped.
 * Returns: the new count, or 0 when out of memory (then nothing moved).
 */
static size_t cap_results(struct result *res, size_t n, size_t max,
			  size_t *dropped)
{
	const struct result **by = malloc(n * sizeof(*by));
	bool *keep = calloc(n, sizeof(*keep));
	size_t i, out = 0;

	if (!by || !keep) {
		free(by);
		free(keep);
		return 0;
	}
	for (i = 0; i < n; i++)
		by[i] = &res[i];
	qsort(by, n, sizeof(*by), keep_order);
	for (i = 0; i < max; i++)
		keep[by[i] - res] = true;
	for (i = 0; i < n; i++)
		if (keep[i])
			res[out++] = res[i];
	*dropped = n - out;
	free(by);
	free(keep);
	return out;
}

static struct result *collect(const struct kvet_ctx *ctx, size_t max,
			      size_t *count, size_t *dropped)
{
	size_t nf = kvet_ctx_finding_count(ctx);
	size_t ns = kvet_ctx_suppressed_count(ctx), i, n = 0;
	struct result *res = calloc(nf + ns + 1, sizeof(*res));
	const struct kvet_finding **all = calloc(nf + ns + 1, sizeof(*all));
	const struct kvet_suppressed *sup;
	struct kvet_report_fp *fps = NULL;

	if (!res || !all)
		goto fail;
	for (i = 0; i < nf; i++)
		if ((res[n].f = kvet_ctx_finding(ctx, i)))
			n++;
	for (i = 0; i < ns; i++) {
		sup = kvet_ctx_suppressed(ctx, i);
		if (!sup)
			continue;
		res[n].f = &sup->finding;
		res[n].justification = sup->justification;
		res[n++].reason = sup->reason ? sup->reason : "";
	}
	for (i = 0; i < n; i++)
		all[i] = res[i].f;
	fps = kvet_report_fps_create(all, n);
	if (!fps)
		goto fail;
	for (i = 0; i < n; i++)
		res[i].fp = fps[i];
	free(fps);
	free(all);
	/* fingerprints first: they do not depend on what the cap keeps */
	*dropped = 0;
	if (n > max) {
		n = cap_results(res, n, max, dropped);
		if (!n)
			goto fail;
	}
	*count = n;
	return res;
fail:
	free(all);
	free(res);
	return NULL;
}

/**
 * kvet_render_sarif() - write the SARIF 2.1.0 report of a run.
 * @ctx: a context that has run.
 * @opts: @sarif_max, the most results (0: KVET_SARIF_MAX_RESULTS).
 * @fp: the stream.
 *
 * Returns: 0, or -1 when out of memory (errno is set); write errors are
 * left on @fp for kvet_render().
 */
int kvet_render_sarif(const struct kvet_ctx *ctx,
		      const struct kvet_render_options *opts, FILE *fp)
{
	size_t max = opts->sarif_max ? opts->sarif_max
				     : KVET_SARIF_MAX_RESULTS;
	struct kvet_jw jw;
	struct result *res;
	size_t i, n = 0, dropped = 0;
	int ret = 0;

	kvet_jw_init(&jw, fp);
	res = collect(ctx, max, &n, &dropped);
	if (!res) {
		errno = ENOMEM;
		return -1;
	}
	kvet_jw_open(&jw, NULL, '{');
	kvet_jw_str(&jw, "$schema",
		    "https://json.schemastore.org/sarif-2.1.0.json");
	kvet_jw_str(&jw, "version", "2.1.0");
	kvet_jw_open(&jw, "runs", '[');
	kvet_jw_open(&jw, NULL, '{');
	write_driver(&jw, ctx);
	kvet_jw_open(&jw, "originalUriBaseIds", '{');
	kvet_jw_open(&jw, SRCROOT, '{');
	text(&jw, "description", "the directory kvet ran in");
	kvet_jw_close(&jw, '}');
	kvet_jw_close(&jw, '}');
	write_invocation(&jw, ctx, dropped, max);
	kvet_jw_str(&jw, "columnKind", "unicodeCodePoints");
	kvet_jw_open(&jw, "results", '[');
	for (i = 0; i < n && !ret; i++)
		ret = write_result(&jw, ctx, &res[i]);
	kvet_jw_close(&jw, ']');
	kvet_jw_close(&jw, '}');
	kvet_jw_close(&jw, ']');
	kvet_jw_close(&jw, '}');
	kvet_jw_raw(&jw, "\n", 1);
	kvet_jw_flush(&jw);
	free(res);
	if (ret)
		errno = ENOMEM;
	return ret;
}
