/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The rule list of `kvet rules`: every rule the context knows, sorted by
 * id, the ones the settings switch off marked rather than left out, so a
 * team sees what its configuration turned off. The checks of kvet drain
 * are among them, so that every id a report can name is listed (and has
 * its page in docs/rules/). Text is one line per rule (id, severity, category,
 * summary); JSON (docs/formats.md) is one object for scripts and editors.
 */
#include "kvet/kvet.h"

#include <errno.h>
#include <string.h>

#include "base/json.h"
#include "report/escape.h"
#include "report/render.h"

static void write_text(const struct kvet_ctx *ctx, FILE *fp)
{
	size_t i, n = kvet_ctx_rule_all_count(ctx), w = 2;
	const struct kvet_rule_info *r;

	for (i = 0; i < n; i++)
		if (strlen(kvet_ctx_rule_all(ctx, i)->id) > w)
			w = strlen(kvet_ctx_rule_all(ctx, i)->id);
	for (i = 0; i < n; i++) {
		r = kvet_ctx_rule_all(ctx, i);
		fprintf(fp, "%-*s  %-7s  ", (int)w, r->id,
			kvet_severity_name(r->severity));
		kvet_text_write(fp, r->category, strlen(r->category));
		fprintf(fp, "%*s  ", strlen(r->category) < 12
				     ? (int)(12 - strlen(r->category)) : 0, "");
		kvet_text_write(fp, r->summary, strlen(r->summary));
		fputs(r->disabled ? "  (disabled)\n" : "\n", fp);
	}
}

static void write_json(const struct kvet_ctx *ctx, FILE *fp)
{
	struct kvet_jw jw;
	size_t i, k, n = kvet_ctx_rule_all_count(ctx);
	const struct kvet_rule_info *r;

	kvet_jw_init(&jw, fp);
	kvet_jw_open(&jw, NULL, '{');
	kvet_jw_open(&jw, "tool", '{');
	kvet_jw_str(&jw, "name", "kvet");
	kvet_jw_str(&jw, "version", kvet_version());
	kvet_jw_close(&jw, '}');
	kvet_jw_open(&jw, "rules", '[');
	for (i = 0; i < n; i++) {
		r = kvet_ctx_rule_all(ctx, i);
		kvet_jw_open(&jw, NULL, '{');
		kvet_jw_str(&jw, "id", r->id);
		kvet_jw_open(&jw, "commands", '[');
		if (r->commands & KVET_RULE_IN_LINT)
			kvet_jw_str(&jw, NULL, "lint");
		if (r->commands & KVET_RULE_IN_DRAIN)
			kvet_jw_str(&jw, NULL, "drain");
		kvet_jw_close(&jw, ']');
		kvet_jw_str(&jw, "severity", kvet_severity_name(r->severity));
		kvet_jw_str(&jw, "category", r->category);
		kvet_jw_bool(&jw, "enabled", !r->disabled);
		kvet_jw_str(&jw, "summary", r->summary);
		kvet_jw_str(&jw, "description", r->description);
		kvet_jw_str(&jw, "remediation", r->remediation);
		kvet_jw_str(&jw, "help_uri", r->help_uri);
		kvet_jw_open(&jw, "references", '[');
		for (k = 0; k < r->n_references; k++)
			kvet_jw_str(&jw, NULL, r->references[k]);
		kvet_jw_close(&jw, ']');
		kvet_jw_close(&jw, '}');
	}
	kvet_jw_close(&jw, ']');
	kvet_jw_close(&jw, '}');
	kvet_jw_raw(&jw, "\n", 1);
	kvet_jw_flush(&jw);
}

KVET_API int kvet_ctx_write_rules(const struct kvet_ctx *ctx,
				  enum kvet_format format, FILE *fp)
{
	if (format != KVET_FORMAT_TEXT && format != KVET_FORMAT_JSON) {
		errno = EINVAL;
		return -1;
	}
	/* before writing: a write that fails on the way leaves its errno
	 * (EPIPE for a reader gone) for kvet_render_flush() */
	errno = 0;
	if (format == KVET_FORMAT_TEXT)
		write_text(ctx, fp);
	else
		write_json(ctx, fp);
	return kvet_render_flush(fp);
}
