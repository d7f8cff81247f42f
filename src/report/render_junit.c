/* SPDX-License-Identifier: Apache-2.0 */
#include "report/render.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/xmlwriter.h>

#include "report/escape.h"
#include "report/report_index.h"

/*
 * The JUnit XML report (docs/formats.md), valid against the Surefire
 * schema that Jenkins' xUnit plugin checks (junit-10.xsd):
 *
 *	<testsuites name="kvet" tests= failures= errors= time="0">
 *	  <testsuite name="input-errors" ...>	  only with input errors
 *	    <testcase name="FILE:LINE:COL" classname="input-errors">
 *	      <error type="input-error" message="...">FILE:LINE:COL: ...</error>
 *	  <testsuite name="evaluation-errors" ...>  only with evaluation errors
 *	    <testcase name="RULE-ID FILE:LINE:COL" classname="evaluation-errors">
 *	      <error type="evaluation-error" message="...">...</error>
 *	      or <skipped message="tolerated: ..."/> when the rule tolerates it
 *	  <testsuite name="RULE-ID" ...>	  one per rule, by id
 *	    <properties> severity, category, summary, help
 *	    <testcase name="KIND NS/NAME (FILE)" classname="RULE-ID">
 *	      <failure type="SEVERITY" message="...">positions, related
 *	        objects, remediation</failure>   when a finding fails the
 *	        gate (--fail-on), or <system-out> with the same text when
 *	        none does, or <skipped> when all were suppressed, or nothing
 *
 * One test case per object a rule applies to. A test case carries one
 * <failure> that lists all of its findings, because Jenkins and GitLab
 * show only the first failure of a test case; it carries one <skipped>
 * when all of its findings were suppressed. So every count is a number
 * of test cases, whichever way a reader counts. Times are "0": the
 * report does not depend on the clock.
 */

/* The suite of test cases for input that could not be read or parsed. */
#define INPUT_SUITE "input-errors"
/* The suite of test cases for rules that could not be evaluated. */
#define EVAL_SUITE "evaluation-errors"

struct junit {
	xmlTextWriterPtr w;
	const struct kvet_ctx *ctx;
	struct kvet_report_index idx;
	int err;
};

char *kvet_xml_sanitize(const char *s, size_t len)
{
	/* worst case: each byte becomes the 3 bytes of U+FFFD */
	char *out = malloc(len * 3 + 1), *o = out;
	size_t i, n;
	uint32_t cp;

	if (!out)
		return NULL;
	for (i = 0; i < len; i += n) {
		n = kvet_utf8_next(s + i, len - i, &cp);
		if ((cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') ||
		    cp == 0xfffe || cp == 0xffff)
			cp = KVET_UTF8_REPLACEMENT;
		if (cp == KVET_UTF8_REPLACEMENT) {
			memcpy(o, "\xef\xbf\xbd", 3);
			o += 3;
		} else {
			/* a valid sequence is copied as it is */
			memcpy(o, s + i, n);
			o += n;
		}
	}
	*o = '\0';
	return out;
}

/* libxml2 calls this for its output; errors stay on the stream, for
 * kvet_render() to report, so libxml2 never prints one of its own. */
static int write_cb(void *fp, const char *buf, int len)
{
	fwrite(buf, 1, (size_t)len, fp);
	return len;
}

static void check(struct junit *j, int rc)
{
	if (rc < 0)
		j->err = 1;
}

static void attr(struct junit *j, const char *name, const char *val)
{
	char *clean;

	if (!val)
		val = "";
	clean = kvet_xml_sanitize(val, strlen(val));
	if (!clean) {
		j->err = 1;
		return;
	}
	check(j, xmlTextWriterWriteAttribute(j->w, BAD_CAST name,
					     BAD_CAST clean));
	free(clean);
}

static void attr_count(struct junit *j, const char *name, size_t n)
{
	check(j, xmlTextWriterWriteFormatAttribute(j->w, BAD_CAST name, "%zu",
						   n));
}

static void start(struct junit *j, const char *name)
{
	check(j, xmlTextWriterStartElement(j->w, BAD_CAST name));
}

static void end(struct junit *j)
{
	check(j, xmlTextWriterEndElement(j->w));
}

/* Element text, sanitised like every attribute. */
static void text(struct junit *j, const char *s, size_t len)
{
	char *clean = kvet_xml_sanitize(s, len);

	if (!clean) {
		j->err = 1;
		return;
	}
	check(j, xmlTextWriterWriteString(j->w, BAD_CAST clean));
	free(clean);
}

/* "Deployment ns/name" or, cluster-scoped, "Namespace name". */
static void write_identity(FILE *fp, const struct kvet_object_ref *obj)
{
	fprintf(fp, "%s ", obj->kind ? obj->kind : "");
	if (obj->namespace && *obj->namespace)
		fprintf(fp, "%s/", obj->namespace);
	fputs(obj->name ? obj->name : "", fp);
}

static void write_place(FILE *fp, const struct kvet_position *pos,
			bool column)
{
	fputs(pos->file ? pos->file : "kvet", fp);
	if (pos->line) {
		fprintf(fp, ":%u", pos->line);
		if (column && pos->column)
			fprintf(fp, ":%u", pos->column);
	}
}

/*
 * Names, messages and bodies are composed with stdio in a memory stream,
 * then sanitised and handed to the writer in one piece.
 */
struct mstr {
	FILE *fp;
	char *buf;
	size_t len;
};

static FILE *mstr_open(struct junit *j, struct mstr *m)
{
	m->buf = NULL;
	m->len = 0;
	m->fp = open_memstream(&m->buf, &m->len);
	if (!m->fp)
		j->err = 1;
	return m->fp;
}

/* Write the string as an attribute (@name) or as text (@name NULL). */
static void mstr_finish(struct junit *j, struct mstr *m, const char *name)
{
	char *clean;

	if (!m->fp)
		return;
	if (fclose(m->fp)) {
		j->err = 1;
	} else if (name) {
		clean = kvet_xml_sanitize(m->buf, m->len);
		if (clean)
			check(j, xmlTextWriterWriteAttribute(
					 j->w, BAD_CAST name, BAD_CAST clean));
		else
			j->err = 1;
		free(clean);
	} else {
		text(j, m->buf, m->len);
	}
	free(m->buf);
}

static void write_finding_text(FILE *fp, const struct kvet_finding *f,
			       const char *reason)
{
	size_t i;

	write_place(fp, &f->pos, true);
	fprintf(fp, ": %s: %s [%s]\n", kvet_severity_name(f->severity),
		f->headline ? f->headline : f->message ? f->message : "",
		f->rule ? f->rule : "");
	if (f->reason)
		fprintf(fp, "  %s\n", f->reason);
	if (f->help)
		fprintf(fp, "  help: %s\n", f->help);
	if (reason)
		fprintf(fp, "  suppressed by %s\n", reason);
	if (f->unit)
		fprintf(fp, "  in the render of %s\n", f->unit);
	if (f->rendered.line) {
		fputs("  rendered at ", fp);
		write_place(fp, &f->rendered, true);
		putc('\n', fp);
	} else if (f->source) {
		fprintf(fp, "  rendered from Helm template %s\n", f->source);
	}
	for (i = 0; i < f->n_related; i++) {
		fputs("  related: ", fp);
		write_identity(fp, &f->related[i]);
		fputs(" at ", fp);
		write_place(fp, &f->related[i].pos, false);
		putc('\n', fp);
	}
}

/* What one test case holds: its findings fail the gate, or were all
 * suppressed, or are below the gate (the case passes and shows them). */
enum result_kind {
	RESULT_FAILURE,
	RESULT_SKIPPED,
	RESULT_OUTPUT,
};

/* One block per finding, as the text report writes it, then where the
 * rule is documented. */
static void write_body(struct junit *j, const struct kvet_rule_info *rule,
		       size_t lo, size_t hi, bool suppressed)
{
	const struct kvet_report_entry *e = j->idx.entries;
	struct mstr m;
	size_t k;

	if (!mstr_open(j, &m))
		return;
	for (k = lo; k < hi; k++)
		write_finding_text(m.fp, e[k].finding,
				   suppressed ? e[k].reason : NULL);
	if (rule && rule->help_uri)
		fprintf(m.fp, "see: %s\n", rule->help_uri);
	mstr_finish(j, &m, NULL);
}

/*
 * The <failure>, <skipped> or <system-out> of one test case, from entries
 * [lo, hi) of the index, which all belong to it and are of one kind.
 */
static void write_result(struct junit *j, const struct kvet_rule_info *rule,
			 size_t lo, size_t hi, enum result_kind kind)
{
	static const char *const elements[] = {
		[RESULT_FAILURE] = "failure",
		[RESULT_SKIPPED] = "skipped",
		[RESULT_OUTPUT] = "system-out",
	};
	const struct kvet_report_entry *e = j->idx.entries;
	enum kvet_severity worst = e[lo].finding->severity;
	bool suppressed = kind == RESULT_SKIPPED;
	struct mstr m;
	size_t k;

	start(j, elements[kind]);
	if (kind == RESULT_OUTPUT) {
		write_body(j, rule, lo, hi, false);
		end(j);
		return;
	}
	for (k = lo; k < hi; k++)
		if (e[k].finding->severity > worst)
			worst = e[k].finding->severity;
	attr(j, "type", kvet_severity_name(worst));
	if (mstr_open(j, &m)) {
		if (suppressed && e[lo].justification)
			fprintf(m.fp, "suppressed by %s (%s): ", e[lo].reason,
				e[lo].justification);
		else if (suppressed)
			fprintf(m.fp, "suppressed by %s: ", e[lo].reason);
		if (hi - lo > 1)
			fprintf(m.fp, "%zu findings: ", hi - lo);
		for (k = lo; k < hi; k++)
			fprintf(m.fp, "%s%s", k > lo ? "; " : "",
				e[k].finding->headline ? e[k].finding->headline
						       : e[k].finding->message);
		mstr_finish(j, &m, "message");
	}
	write_body(j, rule, lo, hi, suppressed);
	end(j);
}

static void write_case(struct junit *j, const char *rule_id,
		       const struct kvet_rule_info *rule,
		       const struct kvet_object_ref *obj, size_t lo, size_t hi)
{
	struct mstr m;
	size_t mid;

	start(j, "testcase");
	if (mstr_open(j, &m)) {
		write_identity(m.fp, obj);
		fputs(" (", m.fp);
		fputs(obj->pos.file ? obj->pos.file : "", m.fp);
		putc(')', m.fp);
		mstr_finish(j, &m, "name");
	}
	attr(j, "classname", rule_id);
	attr(j, "time", "0");
	/* entries of one object: reported findings, then suppressed ones */
	mid = kvet_report_reported_end(&j->idx, lo, hi);
	if (kvet_report_fails(&j->idx, lo, mid))
		write_result(j, rule, lo, mid, RESULT_FAILURE);
	else if (mid > lo)
		write_result(j, rule, lo, mid, RESULT_OUTPUT);
	else if (hi > mid)
		write_result(j, rule, mid, hi, RESULT_SKIPPED);
	end(j);
}

static void property(struct junit *j, const char *name, const char *val)
{
	start(j, "property");
	attr(j, "name", name);
	attr(j, "value", val);
	end(j);
}

static void write_suite(struct junit *j, const struct kvet_report_suite *s)
{
	const struct kvet_rule_info *rule = s->rule;
	const struct kvet_report_entry *e = j->idx.entries;
	struct kvet_object_ref obj;
	size_t i, k;

	start(j, "testsuite");
	attr(j, "name", s->id);
	attr_count(j, "tests", s->tests);
	attr_count(j, "failures", s->failures);
	attr_count(j, "errors", 0);
	attr_count(j, "skipped", s->skipped);
	attr(j, "time", "0");
	if (rule) {
		start(j, "properties");
		property(j, "severity", kvet_severity_name(rule->severity));
		property(j, "category", rule->category);
		property(j, "summary", rule->summary);
		if (rule->help_uri)
			property(j, "help", rule->help_uri);
		end(j);
	}
	k = s->lo;
	for (i = 0; i < kvet_ctx_object_count(j->ctx) && !j->err; i++) {
		size_t lo = k;

		while (k < s->hi && e[k].object == i)
			k++;
		if (lo == k && !kvet_report_applies(&j->idx, s, i))
			continue;
		/* a finding names its object where the user edits it (a
		 * render's template or kustomize source file) */
		kvet_ctx_object(j->ctx, i, &obj);
		write_case(j, s->id, rule, lo < k ? &e[lo].finding->object : &obj,
			   lo, k);
	}
	/* findings on an object the rule does not list: one case each */
	for (; k < s->hi && !j->err; k++)
		write_case(j, s->id, rule, &e[k].finding->object, k, k + 1);
	end(j);
}

/* The errors with a rule (@eval) or without: one test case each. */
static void write_errors(struct junit *j, bool eval)
{
	const char *suite = eval ? EVAL_SUITE : INPUT_SUITE;
	size_t i, n = kvet_ctx_error_count(j->ctx), tests = 0, errors = 0;
	const struct kvet_error *err;
	struct mstr m;

	for (i = 0; i < n; i++) {
		err = kvet_ctx_error(j->ctx, i);
		if (!err->rule == !eval) {
			tests++;
			errors += !err->tolerated;
		}
	}
	if (!tests)
		return;
	start(j, "testsuite");
	attr(j, "name", suite);
	attr_count(j, "tests", tests);
	attr_count(j, "failures", 0);
	attr_count(j, "errors", errors);
	attr_count(j, "skipped", tests - errors);
	attr(j, "time", "0");
	for (i = 0; i < n && !j->err; i++) {
		err = kvet_ctx_error(j->ctx, i);
		if (!err->rule != !eval)
			continue;
		start(j, "testcase");
		if (mstr_open(j, &m)) {
			if (eval)
				fprintf(m.fp, "%s ", err->rule);
			write_place(m.fp, &err->pos, true);
			mstr_finish(j, &m, "name");
		}
		attr(j, "classname", suite);
		attr(j, "time", "0");
		if (err->tolerated) {
			/* listed, but the run does not fail on it */
			start(j, "skipped");
			if (mstr_open(j, &m)) {
				fprintf(m.fp, "tolerated: %s", err->message);
				mstr_finish(j, &m, "message");
			}
			end(j);
			end(j);
			continue;
		}
		start(j, "error");
		attr(j, "type", eval ? "evaluation-error" : "input-error");
		attr(j, "message", err->message);
		if (mstr_open(j, &m)) {
			write_place(m.fp, &err->pos, true);
			fprintf(m.fp, ": error: %s", err->message);
			if (eval)
				fprintf(m.fp, " [%s]", err->rule);
			putc('\n', m.fp);
			mstr_finish(j, &m, NULL);
		}
		end(j);
		end(j);
	}
	end(j);
}

/*
 * kvet drain: one test case per node. A blocked node fails with its
 * findings; a node that drains with warnings passes with them in
 * <system-out>; a node a stalled roll never reached is skipped.
 */
static void write_drain_case(struct junit *j, const struct kvet_drain_node *dn,
			     unsigned int stall)
{
	struct mstr m;
	size_t i;

	start(j, "testcase");
	if (mstr_open(j, &m)) {
		fprintf(m.fp, "node %s", dn->node.name);
		if (dn->step)
			fprintf(m.fp, " (step %u)", dn->step);
		mstr_finish(j, &m, "name");
	}
	attr(j, "classname", "drain");
	attr(j, "time", "0");
	if (dn->verdict == KVET_DRAIN_NOT_REACHED) {
		start(j, "skipped");
		if (mstr_open(j, &m)) {
			fprintf(m.fp, "not reached: the roll stalls at step %u",
				stall);
			mstr_finish(j, &m, "message");
		}
		end(j);
	} else if (dn->n_findings) {
		bool fail = dn->verdict == KVET_DRAIN_BLOCKED;

		start(j, fail ? "failure" : "system-out");
		if (fail && mstr_open(j, &m)) {
			for (i = 0; i < dn->n_findings; i++) {
				const struct kvet_finding *f = kvet_ctx_finding(
					j->ctx, dn->findings[i]);

				if (f->severity == KVET_SEV_ERROR)
					fprintf(m.fp, "%s%s%s%s",
						ftell(m.fp) ? "; " : "",
						f->message ? f->message
							   : f->headline,
						f->message ? "" : ": ",
						f->message ? "" : f->reason);
			}
			mstr_finish(j, &m, "message");
			attr(j, "type", "error");
		}
		if (mstr_open(j, &m)) {
			for (i = 0; i < dn->n_findings; i++)
				write_finding_text(m.fp,
						   kvet_ctx_finding(j->ctx,
								    dn->findings[i]),
						   NULL);
			mstr_finish(j, &m, NULL);
		}
		end(j);
	}
	end(j);
}

static void write_drain_suite(struct junit *j, size_t failures,
			      size_t skipped)
{
	size_t i, n = kvet_ctx_drain_node_count(j->ctx);
	unsigned int stall = 0;

	for (i = 0; i < kvet_ctx_drain_step_count(j->ctx); i++)
		if (kvet_ctx_drain_step(j->ctx, i)->stalled)
			stall = kvet_ctx_drain_step(j->ctx, i)->index;
	start(j, "testsuite");
	attr(j, "name", "drain");
	attr_count(j, "tests", n);
	attr_count(j, "failures", failures);
	attr_count(j, "errors", 0);
	attr_count(j, "skipped", skipped);
	attr(j, "time", "0");
	start(j, "properties");
	property(j, "plan", kvet_ctx_drain_plan(j->ctx) == KVET_DRAIN_ROLLING
				    ? "rolling" : "each-node");
	end(j);
	for (i = 0; i < n && !j->err; i++)
		write_drain_case(j, kvet_ctx_drain_node(j->ctx, i), stall);
	end(j);
}

/* A drain's findings of checks that kvet lint runs too (the field-type
 * check's) belong to no node: their rules' suites, as kvet lint writes
 * them. */
static bool lint_suite(const struct kvet_ctx *ctx,
		       const struct kvet_report_suite *s)
{
	const struct kvet_rule_info *r = kvet_ctx_rule_find(ctx, s->id);

	return s->hi > s->lo && !(r && r->commands == KVET_RULE_IN_DRAIN);
}

static void write_drain_report(struct junit *j, size_t failing)
{
	size_t i, n = kvet_ctx_drain_node_count(j->ctx), failures = 0;
	size_t skipped = 0, tests = n, node_failures;

	for (i = 0; i < n; i++) {
		enum kvet_drain_verdict v = kvet_ctx_drain_node(j->ctx, i)->verdict;

		failures += v == KVET_DRAIN_BLOCKED;
		skipped += v == KVET_DRAIN_NOT_REACHED;
	}
	node_failures = failures;
	for (i = 0; i < j->idx.n_suites; i++)
		if (lint_suite(j->ctx, &j->idx.suites[i])) {
			tests += j->idx.suites[i].tests;
			failures += j->idx.suites[i].failures;
		}
	start(j, "testsuites");
	attr(j, "name", "kvet");
	attr_count(j, "tests", tests + kvet_ctx_error_count(j->ctx));
	attr_count(j, "failures", failures);
	attr_count(j, "errors", failing);
	attr(j, "time", "0");
	write_errors(j, false);
	for (i = 0; i < j->idx.n_suites && !j->err; i++)
		if (lint_suite(j->ctx, &j->idx.suites[i]))
			write_suite(j, &j->idx.suites[i]);
	write_drain_suite(j, node_failures, skipped);
}

/* The document around a command's report (@body): its errors counted
 * once for both. */
static void write_document(struct junit *j,
			   void (*body)(struct junit *j, size_t failing))
{
	size_t n_errors = kvet_ctx_error_count(j->ctx), failing = 0, i;

	for (i = 0; i < n_errors; i++)
		failing += !kvet_ctx_error(j->ctx, i)->tolerated;
	check(j, xmlTextWriterSetIndent(j->w, 1));
	check(j, xmlTextWriterSetIndentString(j->w, BAD_CAST "  "));
	check(j, xmlTextWriterStartDocument(j->w, NULL, "UTF-8", NULL));
	body(j, failing);
	check(j, xmlTextWriterEndDocument(j->w));
	check(j, xmlTextWriterFlush(j->w));
}

static void write_lint_report(struct junit *j, size_t failing)
{
	const struct kvet_report_index *idx = &j->idx;
	size_t i;

	start(j, "testsuites");
	attr(j, "name", "kvet");
	attr_count(j, "tests", idx->tests + kvet_ctx_error_count(j->ctx));
	attr_count(j, "failures", idx->failures);
	attr_count(j, "errors", failing);
	attr(j, "time", "0");
	write_errors(j, false);
	write_errors(j, true);
	for (i = 0; i < idx->n_suites && !j->err; i++)
		write_suite(j, &idx->suites[i]);
}

/* libxml2 2.9 sets up its globals on first use, racily: contexts in
 * several threads may render at once, so the set-up is done here once. */
static pthread_once_t xml_once = PTHREAD_ONCE_INIT;

static void xml_init(void)
{
	xmlInitParser();
}

/* The report of @ctx, with @body for its command. */
static int junit(const struct kvet_ctx *ctx,
		 const struct kvet_render_options *opts, FILE *fp,
		 void (*body)(struct junit *j, size_t failing))
{
	struct junit j = { .ctx = ctx };
	xmlOutputBufferPtr out;

	pthread_once(&xml_once, xml_init);
	if (kvet_report_index_init(&j.idx, ctx, opts) < 0) {
		errno = ENOMEM;
		return -1;
	}
	out = xmlOutputBufferCreateIO(write_cb, NULL, fp, NULL);
	if (out)
		j.w = xmlNewTextWriter(out);	/* owns @out from here on */
	if (!j.w) {
		if (out)
			xmlOutputBufferClose(out);
		j.err = 1;
	} else {
		write_document(&j, body);
		xmlFreeTextWriter(j.w);
	}
	kvet_report_index_release(&j.idx);
	if (j.err) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

/**
 * kvet_render_junit() - write the JUnit XML report of a run.
 * @ctx: a context that has run.
 * @opts: the gate: a test case fails when one of its findings fails it,
 *        so that dashboards agree with the exit status.
 * @fp: the stream.
 *
 * Returns: 0, or -1 when out of memory (errno is set); write errors are
 * left on @fp for kvet_render().
 */
int kvet_render_junit(const struct kvet_ctx *ctx,
		      const struct kvet_render_options *opts, FILE *fp)
{
	return junit(ctx, opts, fp, write_lint_report);
}

/* kvet drain: a test case per node (write_drain_report()). */
int kvet_render_junit_drain(const struct kvet_ctx *ctx,
			    const struct kvet_render_options *opts, FILE *fp)
{
	return junit(ctx, opts, fp, write_drain_report);
}
