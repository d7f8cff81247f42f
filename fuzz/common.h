/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_FUZZ_COMMON_H
#define KVET_FUZZ_COMMON_H

/*
 * What the libFuzzer harnesses share: a template context whose built-in
 * rules are compiled once (kvet_ctx_create_borrowing()), a fixture that
 * makes every built-in rule fire (the failing example of each rule file),
 * checks that a report is well-formed, and a way to hand the bytes of an
 * input to an API that takes a path.
 *
 * Any crash, leak, sanitizer report or abort() here is a bug of kvet; a
 * report that is not well-formed is one too, and aborts.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <libxml/parser.h>

#include "kvet/kvet.h"
#include "api/borrow.h"
#include "api/context.h"
#include "rules/rules.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);

/* The LLVMFuzzerInitialize() of a harness that needs the template (the
 * built-in rules, compiled once) and nothing else at start. */
#define FUZZ_INITIALIZE_TEMPLATE()                                        \
	int LLVMFuzzerInitialize(int *argc, char ***argv)                 \
	{                                                                 \
		(void)argc;                                               \
		(void)argv;                                               \
		fuzz_init_template();                                     \
		return 0;                                                 \
	}

/* The report checks are not kvet: their branches are no coverage to
 * chase, and uninstrumented they cost a tenth. */
#if defined(__clang__)
#define FUZZ_NOCOV __attribute__((no_sanitize("coverage")))
#else
#define FUZZ_NOCOV
#endif
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ---- the template and its rules ---- */

/* What settings may write into a borrowed rule, to put it back. */
struct fuzz_rule_state {
	struct kvet_rule *rule;
	bool tolerate_errors;
	struct cel_value *params;	/* the rule's n_params values */
};

static struct kvet_ctx *fuzz_tmpl;
static struct fuzz_rule_state *fuzz_states;
static size_t fuzz_n_states;
static char *fuzz_fixture;	/* every rule's first failing example */
static size_t fuzz_fixture_len;

static inline void fuzz_die(const char *what)
{
	fprintf(stderr, "fuzz: %s\n", what);
	abort();
}

/* Join the first failing example of every rule, as one multi-document
 * stream: objects for every rule to fire on, relations included. */
static inline void fuzz_make_fixture(const struct kvet_rule_set *set)
{
	size_t i, j, len = 0;
	char *p;

	for (i = 0; i < set->n; i++)
		for (j = 0; j < set->v[i]->n_examples; j++)
			if (set->v[i]->examples[j].fails) {
				len += set->v[i]->examples[j].len + 5;
				break;
			}
	fuzz_fixture = p = malloc(len + 1);
	if (!p)
		fuzz_die("out of memory");
	for (i = 0; i < set->n; i++)
		for (j = 0; j < set->v[i]->n_examples; j++) {
			const struct kvet_rule_example *ex =
				&set->v[i]->examples[j];

			if (!ex->fails)
				continue;
			memcpy(p, ex->manifest, ex->len);
			p += ex->len;
			memcpy(p, "\n---\n", 5);
			p += 5;
			break;
		}
	*p = '\0';
	fuzz_fixture_len = (size_t)(p - fuzz_fixture);
}

static void fuzz_dump_seeds(void);

/* Compile the built-in rules once; call from LLVMFuzzerInitialize(). */
static inline void fuzz_init_template(void)
{
	size_t i, j;

	fuzz_tmpl = kvet_ctx_create(NULL);
	if (!fuzz_tmpl)
		fuzz_die("cannot create the template context");
	fuzz_n_states = fuzz_tmpl->rules.n;
	fuzz_states = calloc(fuzz_n_states + 1, sizeof(*fuzz_states));
	if (!fuzz_states)
		fuzz_die("out of memory");
	for (i = 0; i < fuzz_n_states; i++) {
		struct kvet_rule *r = fuzz_tmpl->rules.v[i];

		fuzz_states[i].rule = r;
		fuzz_states[i].tolerate_errors = r->tolerate_errors;
		fuzz_states[i].params = calloc(r->n_params + 1,
					       sizeof(struct cel_value));
		if (!fuzz_states[i].params)
			fuzz_die("out of memory");
		for (j = 0; j < r->n_params; j++)
			fuzz_states[i].params[j] = *r->param_list[j].value;
	}
	fuzz_make_fixture(&fuzz_tmpl->rules);
	fuzz_dump_seeds();
}

/* Write @len bytes of @text to DIR/@name. */
static inline void fuzz_seed_file(const char *dir, const char *name,
			   const char *text, size_t len)
{
	char path[4096];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "w");
	if (!fp || fwrite(text, 1, len, fp) != len || fclose(fp))
		fuzz_die("cannot write a seed");
}

/*
 * With KVET_FUZZ_SEED_DIR=DIR, write seeds only the compiled rules know
 * (scripts/fuzz-seeds runs each harness once with -runs=0 for this):
 * DIR/example-RULE-N.yaml, every example of every built-in rule;
 * DIR/condition-RULE.cel and DIR/each-RULE.cel, their expressions;
 * DIR/fixture.yaml, the cluster the harnesses lint; and
 * DIR/fixture-baseline.yaml, its baseline.
 */
static inline void fuzz_dump_seeds(void)
{
	const char *dir = getenv("KVET_FUZZ_SEED_DIR");
	const struct kvet_rule_set *set = &fuzz_tmpl->rules;
	struct kvet_options opts = { .jobs = 1 };
	struct kvet_ctx *ctx;
	char name[256], *buf = NULL;
	size_t i, j, len = 0;
	FILE *fp;

	if (!dir)
		return;
	for (i = 0; i < set->n; i++) {
		const struct kvet_rule *r = set->v[i];

		for (j = 0; j < r->n_examples; j++) {
			snprintf(name, sizeof(name), "example-%s-%zu.yaml",
				 r->info.id, j);
			fuzz_seed_file(dir, name, r->examples[j].manifest,
				       r->examples[j].len);
		}
		snprintf(name, sizeof(name), "condition-%s.cel", r->info.id);
		fuzz_seed_file(dir, name, r->condition_text,
			       strlen(r->condition_text));
		if (r->has_each) {
			snprintf(name, sizeof(name), "each-%s.cel", r->info.id);
			fuzz_seed_file(dir, name, r->each_text,
				       strlen(r->each_text));
		}
	}
	fuzz_seed_file(dir, "fixture.yaml", fuzz_fixture, fuzz_fixture_len);
	ctx = kvet_ctx_create_borrowing(&opts, fuzz_tmpl);
	fp = open_memstream(&buf, &len);
	if (!ctx || !fp ||
	    kvet_ctx_add_buffer(ctx, "fixture.yaml", fuzz_fixture,
				fuzz_fixture_len) ||
	    kvet_ctx_run(ctx) || kvet_ctx_write_baseline(ctx, fp) || fclose(fp))
		fuzz_die("cannot write the fixture's baseline");
	fuzz_seed_file(dir, "fixture-baseline.yaml", buf, len);
	free(buf);
	kvet_ctx_destroy(ctx);
}

/* A context with the template's rules, as kvet_ctx_create(@opts). */
static inline struct kvet_ctx *fuzz_ctx(const struct kvet_options *opts)
{
	if (opts && (opts->flags & KVET_CTX_NO_BUILTIN_RULES))
		return kvet_ctx_create(opts);
	return kvet_ctx_create_borrowing(opts, fuzz_tmpl);
}

/* Undo what a context's settings wrote into the shared rules; after
 * kvet_ctx_destroy(), since a parameter may point into its arena. */
static inline void fuzz_restore_rules(void)
{
	size_t i, j;

	for (i = 0; i < fuzz_n_states; i++) {
		struct kvet_rule *r = fuzz_states[i].rule;

		r->tolerate_errors = fuzz_states[i].tolerate_errors;
		r->disabled = false;
		for (j = 0; j < r->n_params; j++)
			*r->param_list[j].value = fuzz_states[i].params[j];
	}
}

/* ---- bytes as a file ---- */

/*
 * A memory file holding @data, for the APIs that read a path
 * (configuration, baseline); its path is written to @path. No file
 * is left behind, whatever happens.
 */
static inline int fuzz_memfile(const uint8_t *data, size_t size, char *path,
			size_t path_size)
{
	int fd = memfd_create("fuzz", MFD_CLOEXEC);
	size_t done = 0;

	if (fd < 0)
		fuzz_die("memfd_create failed");
	while (done < size) {
		ssize_t n = write(fd, data + done, size - done);

		if (n <= 0)
			fuzz_die("cannot write the memory file");
		done += (size_t)n;
	}
	snprintf(path, path_size, "/proc/self/fd/%d", fd);
	return fd;
}

/* ---- reports ---- */

/*
 * The length of the UTF-8 sequence at @p (at most U+10FFFF, no overlong
 * forms, no surrogates), or 0 when it is not valid; @cp gets its code
 * point.
 */
static inline FUZZ_NOCOV int fuzz_utf8(const unsigned char *p, const unsigned char *end,
		     uint32_t *cp)
{
	unsigned char c = *p;
	int n = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : 1, k;
	uint32_t v;

	if (c < 0x80) {
		if (cp)
			*cp = c;
		return 1;
	}
	if (c < 0xc2 || c > 0xf4 || end - p <= n)
		return 0;
	v = c & (0x3f >> n);
	for (k = 1; k <= n; k++) {
		if ((p[k] & 0xc0) != 0x80)
			return 0;
		v = v << 6 | (p[k] & 0x3f);
	}
	if ((n == 2 && v < 0x800) || (n == 3 && v < 0x10000) ||
	    v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	if (cp)
		*cp = v;
	return n + 1;
}

/*
 * Text for a terminal: valid UTF-8 with no control character but tab
 * and line feed (docs of kvet_text_write()), so that no input can move
 * the cursor or send an escape sequence; colours are off here.
 */
static inline FUZZ_NOCOV void fuzz_check_text(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;

	while (p < end) {
		uint32_t cp;
		int n = fuzz_utf8(p, end, &cp);

		if (!n || (cp < 0x20 && cp != '\t' && cp != '\n') ||
		    (cp >= 0x7f && cp < 0xa0)) {
			fprintf(stderr, "fuzz: text report has byte 0x%02x at %zu:\n%.*s\n",
				*p, (size_t)(p - (const unsigned char *)s),
				(int)len, s);
			abort();
		}
		p += n;
	}
}

/*
 * A strict JSON check (RFC 8259): one value, strings with no raw control
 * characters and only the defined escapes, valid UTF-8. A report that
 * fails it would break every consumer, so it aborts.
 */
struct fuzz_json {
	const unsigned char *p, *end;
	int depth;
};

static inline FUZZ_NOCOV void fuzz_json_ws(struct fuzz_json *j)
{
	while (j->p < j->end &&
	       (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

static inline FUZZ_NOCOV bool fuzz_json_string(struct fuzz_json *j)
{
	j->p++;		/* the quote */
	while (j->p < j->end && *j->p != '"') {
		unsigned char c = *j->p;

		if (c < 0x20)
			return false;
		if (c == '\\') {
			if (++j->p >= j->end)
				return false;
			if (*j->p == 'u') {
				int k;

				for (k = 1; k <= 4; k++)
					if (j->p + k >= j->end ||
					    !strchr("0123456789abcdefABCDEF",
						    j->p[k]) || !j->p[k])
						return false;
				j->p += 5;
				continue;
			}
			if (!strchr("\"\\/bfnrt", *j->p) || !*j->p)
				return false;
			j->p++;
			continue;
		}
		if (c >= 0x80) {
			int n = fuzz_utf8(j->p, j->end, NULL);

			if (!n)
				return false;
			j->p += n;
			continue;
		}
		j->p++;
	}
	if (j->p >= j->end)
		return false;
	j->p++;
	return true;
}

static inline FUZZ_NOCOV bool fuzz_json_value(struct fuzz_json *j);

static inline FUZZ_NOCOV bool fuzz_json_number(struct fuzz_json *j)
{
	const unsigned char *s = j->p;

	if (*j->p == '-')
		j->p++;
	if (j->p < j->end && *j->p == '0')
		j->p++;
	else if (j->p < j->end && *j->p >= '1' && *j->p <= '9')
		while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
			j->p++;
	else
		return false;
	if (j->p < j->end && *j->p == '.') {
		j->p++;
		if (j->p >= j->end || *j->p < '0' || *j->p > '9')
			return false;
		while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
			j->p++;
	}
	if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
		j->p++;
		if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
			j->p++;
		if (j->p >= j->end || *j->p < '0' || *j->p > '9')
			return false;
		while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
			j->p++;
	}
	return j->p > s;
}

static inline FUZZ_NOCOV bool fuzz_json_word(struct fuzz_json *j, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(j->end - j->p) < n || memcmp(j->p, w, n))
		return false;
	j->p += n;
	return true;
}

static inline FUZZ_NOCOV bool fuzz_json_items(struct fuzz_json *j, char close, bool keys)
{
	j->p++;
	fuzz_json_ws(j);
	if (j->p < j->end && *j->p == close) {
		j->p++;
		return true;
	}
	for (;;) {
		fuzz_json_ws(j);
		if (keys) {
			if (j->p >= j->end || *j->p != '"' ||
			    !fuzz_json_string(j))
				return false;
			fuzz_json_ws(j);
			if (j->p >= j->end || *j->p++ != ':')
				return false;
		}
		if (!fuzz_json_value(j))
			return false;
		fuzz_json_ws(j);
		if (j->p >= j->end)
			return false;
		if (*j->p == close) {
			j->p++;
			return true;
		}
		if (*j->p++ != ',')
			return false;
	}
}

static inline FUZZ_NOCOV bool fuzz_json_value(struct fuzz_json *j)
{
	bool ok;

	fuzz_json_ws(j);
	if (j->p >= j->end)
		return false;
	switch (*j->p) {
	case '"':
		return fuzz_json_string(j);
	case '{':
	case '[':
		if (++j->depth > 512)
			return false;
		ok = fuzz_json_items(j, *j->p == '{' ? '}' : ']', *j->p == '{');
		j->depth--;
		return ok;
	case 't':
		return fuzz_json_word(j, "true");
	case 'f':
		return fuzz_json_word(j, "false");
	case 'n':
		return fuzz_json_word(j, "null");
	default:
		return fuzz_json_number(j);
	}
}

static inline FUZZ_NOCOV void fuzz_check_json(const char *what, const char *s, size_t len)
{
	struct fuzz_json j = { (const unsigned char *)s,
			       (const unsigned char *)s + len, 0 };

	if (!fuzz_json_value(&j))
		goto bad;
	fuzz_json_ws(&j);
	if (j.p == j.end)
		return;
bad:
	fprintf(stderr, "fuzz: %s report is not JSON at byte %zu:\n%.*s\n",
		what, (size_t)((const char *)j.p - s), (int)len, s);
	abort();
}

static inline void fuzz_xml_quiet(void *user, const char *msg, ...)
{
	(void)user;
	(void)msg;
}

static inline FUZZ_NOCOV void fuzz_check_xml(const char *what, const char *s, size_t len)
{
	xmlDocPtr doc;

	xmlSetGenericErrorFunc(NULL, fuzz_xml_quiet);
	doc = xmlReadMemory(s, (int)len, "report.xml", NULL,
			    XML_PARSE_NONET | XML_PARSE_NOERROR |
			    XML_PARSE_NOWARNING | XML_PARSE_HUGE);
	if (!doc) {
		fprintf(stderr, "fuzz: %s report is not well-formed XML:\n%.*s\n",
			what, (int)len, s);
		abort();
	}
	xmlFreeDoc(doc);
}

/*
 * GitHub workflow commands: every line is "::command props::message",
 * where props holds no raw ':' (values escape it as %3A) and no line
 * holds a control character but tab: a raw line break would end the
 * command and start a line the runner prints or obeys as is. A tab is
 * no separator for the runner (actions/runner's ActionCommand splits
 * the command at a space, properties at ',' and '='), so a title, which
 * is a headline and may quote the input, keeps its tabs.
 */
static inline FUZZ_NOCOV void fuzz_check_github(const char *s, size_t len)
{
	size_t i = 0, k;

	fuzz_check_text(s, len);
	while (i < len) {
		const char *nl = memchr(s + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - s) : len;
		const char *sep;

		if (end - i < 2 || memcmp(s + i, "::", 2))
			goto bad;
		sep = memmem(s + i + 2, end - i - 2, "::", 2);
		if (!sep)
			goto bad;
		for (k = i + 2; s + k < sep; k++)
			if (s[k] == ':')
				goto bad;
		i = end + 1;
		continue;
bad:
		fprintf(stderr, "fuzz: github report line is no workflow command:\n%.*s\n",
			(int)(end - i), s + i);
		abort();
	}
}

/* Render @ctx in every format there is; check those with a grammar. */
static inline void fuzz_render_all(const struct kvet_ctx *ctx)
{
	static const struct kvet_render_options render_opts = {
		.flags = KVET_RENDER_VERBOSE | KVET_RENDER_SHOW_SUPPRESSED |
			 KVET_RENDER_WITH_GITHUB,
		.fail_on = KVET_SEV_WARNING,
	};
	enum kvet_format f;
	const char *name;

	for (f = 0; (name = kvet_format_name(f)); f++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *fp = open_memstream(&buf, &len);

		if (!fp)
			fuzz_die("open_memstream failed");
		if (kvet_render(ctx, f, &render_opts, fp))
			fuzz_die("kvet_render failed on a memory stream");
		if (fclose(fp))
			fuzz_die("cannot close a memory stream");
		if (!strcmp(name, "json") || !strcmp(name, "sarif") ||
		    !strcmp(name, "codequality"))
			fuzz_check_json(name, buf, len);
		else if (!strcmp(name, "junit"))
			fuzz_check_xml(name, buf, len);
		else if (!strcmp(name, "github"))
			fuzz_check_github(buf, len);
		else if (!strcmp(name, "text"))
			fuzz_check_text(buf, len);
		free(buf);
	}
}

/* Write a baseline of @ctx to nowhere, as --write-baseline does. */
static inline void fuzz_write_baseline(const struct kvet_ctx *ctx)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	if (!fp)
		fuzz_die("open_memstream failed");
	if (kvet_ctx_write_baseline(ctx, fp))
		fuzz_die("kvet_ctx_write_baseline failed on a memory stream");
	fclose(fp);
	free(buf);
}

/* What the CLI reads from a context after rendering. */
static inline void fuzz_read_back(const struct kvet_ctx *ctx)
{
	struct kvet_summary sum;
	struct kvet_baseline_stale st;
	size_t i;

	kvet_ctx_summary(ctx, &sum);
	(void)kvet_ctx_exit_code(ctx, KVET_SEV_INFO, false);
	for (i = 0; i < kvet_ctx_baseline_stale_count(ctx); i++)
		(void)kvet_ctx_baseline_stale(ctx, i, &st);
	for (i = 0; i < kvet_ctx_finding_count(ctx); i++)
		(void)kvet_finding_fingerprint(kvet_ctx_finding(ctx, i));
}

#endif
