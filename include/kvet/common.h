/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_COMMON_H
#define KVET_COMMON_H

/*
 * What every part of libkvet speaks: versions, exit codes, severities,
 * positions, the records a run hands out (findings, errors, notices,
 * rule descriptions), and two helpers of every front end: suggestions for
 * a mistyped word and text that is safe to print.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(KVET_BUILDING_LIBRARY)
#define KVET_API __attribute__((visibility("default")))
#else
#define KVET_API
#endif

/* The version of libkvet ("0.1.0"): meson's project version, the one
 * place it is written. */
KVET_API const char *kvet_version(void);

/*
 * The git commit libkvet was built from, as `git describe --always
 * --dirty` abbreviates it ("3f2a1c9d0e1b", "3f2a1c9d0e1b-dirty"), or ""
 * when it was not built from a git checkout.
 */
KVET_API const char *kvet_version_commit(void);

/* The exit codes of the kvet command, defined once for the CLI and tests. */
enum kvet_exit {
	KVET_EXIT_OK = 0,		/* nothing at or above --fail-on */
	KVET_EXIT_FINDINGS = 1,		/* findings at or above --fail-on */
	KVET_EXIT_INPUT = 2,		/* some input could not be used */
	KVET_EXIT_USAGE = 3,		/* usage, config or rule-file error */
};

enum kvet_severity {
	KVET_SEV_INFO = 0,
	KVET_SEV_WARNING = 1,
	KVET_SEV_ERROR = 2,
};
#define KVET_SEV_COUNT 3

/* A 1-based position in an input. line == 0 means "no position". */
struct kvet_position {
	const char *file;		/* as given by the user; "-" is "<stdin>" */
	unsigned int line;
	unsigned int column;
};

/* Identity and place of one Kubernetes object. */
struct kvet_object_ref {
	const char *api_version;
	const char *kind;
	const char *namespace;		/* "" for cluster-scoped objects */
	const char *name;
	struct kvet_position pos;	/* the object's first line */
};

/*
 * A finding, in the compiler convention (docs/formats.md, "text"): a
 * one-line @headline, then the @reason that explains it, and @help, what
 * to do. The full sentence is the headline and the reason joined with
 * ": ", or a team rule's `message:` as written: @message holds it when
 * it is not the joined one, and the headline when there is no reason;
 * NULL means the headline and the reason joined, which the run does not
 * keep a copy of (kvet_finding_message_dup() joins them). The headline
 * is never NULL.
 */
struct kvet_finding {
	const char *rule;
	enum kvet_severity severity;
	const char *message;		/* the full sentence, or NULL */
	struct kvet_object_ref object;
	struct kvet_position pos;	/* the most specific field */
	const char *source;		/* Helm "# Source:" path, or NULL */
	/* the render the finding comes from: "CHART" or "CHART with
	 * ci/x-values.yaml" for a chart kvet rendered, the directory of a
	 * kustomization it built; NULL for plain inputs */
	const char *unit;
	const struct kvet_object_ref *related;
	size_t n_related;
	const char *headline;		/* one line, what is wrong */
	const char *reason;		/* why it matters here, or NULL */
	const char *help;		/* what to do, one line, or NULL */
	/*
	 * Where the field is in the rendered input, when @pos was moved to
	 * the chart's template line (docs/template-lines.md); line 0: @pos
	 * is the place in the input.
	 */
	struct kvet_position rendered;
	/* the field @pos points at, as a path from the object's root
	 * ("spec.minAvailable", "spec.template.spec.containers[name=web]");
	 * "" for the object itself */
	const char *field;
	/* @object's index, as for kvet_ctx_object() */
	size_t object_index;
};

/**
 * kvet_finding_fails() - whether a finding counts for the exit status:
 * its severity is at or above @fail_on, and @fail_never is false. The
 * one place that decides it, for kvet_ctx_exit_code() and the reports.
 */
KVET_API bool kvet_finding_fails(const struct kvet_finding *f,
				 enum kvet_severity fail_on, bool fail_never);

/**
 * kvet_finding_message_dup() - a finding's full sentence: its @message,
 * or its headline and its reason joined with ": " when @message is NULL.
 *
 * Returns: a malloc'd string the caller frees, or NULL when out of memory.
 */
KVET_API char *kvet_finding_message_dup(const struct kvet_finding *f);

/**
 * kvet_finding_message_cmp() - compare the full sentences of @a and @b as
 * strcmp() would compare them joined, without joining them.
 */
KVET_API int kvet_finding_message_cmp(const struct kvet_finding *a,
				      const struct kvet_finding *b);

/* The longest headline a built-in rule gives, in characters (a test
 * checks every example); a team rule's may be longer. */
#define KVET_HEADLINE_MAX 120

/**
 * kvet_finding_fingerprint() - a 64-bit hash of what identifies a finding
 * wherever it is and whatever else is linted with it: the rule, the
 * object's identity (API group, kind, namespace, name), the field it
 * points at (@field) and the objects of the input it relates (@related,
 * in any order; objects not in the input, such as the nodes of kvet
 * lint's synthetic pool, are left out). Lines, files and the finding's
 * words are left out, so a finding keeps its fingerprint when lines move,
 * documents or arguments are reordered, unrelated inputs are added, or a
 * value its headline quotes changes; baselines (version 3), SARIF
 * partialFingerprints (kvetFindingHash/v3) and Code Quality use it.
 */
KVET_API uint64_t kvet_finding_fingerprint(const struct kvet_finding *f);

/*
 * An input that could not be read or used, whole or in part; or, with
 * @rule set, an evaluation error: a rule that could not be evaluated on
 * an object (an expression that gave an error, or a limit it hit; see
 * docs/rule-language.md). Plain data, borrowed from the context.
 */
struct kvet_error {
	struct kvet_position pos;	/* the most specific place known */
	const char *message;
	const char *rule;		/* NULL for an input error */
	const struct kvet_object_ref *object;	/* the object, or NULL */
	bool tolerated;			/* the rule tolerates evaluation
					 * errors: listed, no exit status */
};

/*
 * Something a user should know about the run that is neither a finding
 * nor an input error, and never changes the exit status: a path that
 * matched no file, a Helm chart source that was not linted, an unknown
 * rule id in a suppression.
 */
enum kvet_notice_level {
	KVET_NOTICE_WARNING,	/* probably a mistake of the user's */
	KVET_NOTICE_NOTE,	/* something kvet chose not to lint, and why */
	KVET_NOTICE_DETAIL,	/* one skipped document: text shows it with -v */
};

struct kvet_notice {
	struct kvet_position pos;	/* line 0: the file as a whole */
	enum kvet_notice_level level;
	const char *message;
};

struct kvet_summary {
	size_t files;
	size_t documents;
	size_t objects;
	size_t findings[KVET_SEV_COUNT];	/* indexed by kvet_severity */
	size_t skipped;		/* documents that are not Kubernetes objects */
	size_t input_errors;		/* errors without a rule */
	size_t evaluation_errors;	/* listed or not */
};

/* The commands that run a rule (kvet_rule_info.commands). */
enum kvet_rule_command {
	KVET_RULE_IN_LINT = 1u << 0,
	KVET_RULE_IN_DRAIN = 1u << 1,
};

/*
 * What a rule is, for reports that describe their rules (SARIF) and for
 * `kvet rules` / `kvet explain`. Plain data, borrowed from the context.
 */
struct kvet_rule_info {
	const char *id;			/* kebab-case */
	enum kvet_severity severity;	/* default severity */
	const char *category;
	const char *summary;		/* one line */
	const char *description;	/* why it matters; Markdown */
	const char *remediation;	/* how to fix it; Markdown */
	const char *const *references;	/* URLs; the first is the main one */
	size_t n_references;
	/* Where the rule is documented, for reports that link to it:
	 * BASE/ID.md when a docs URL is set (kvet_ctx_set_docs_url()),
	 * else its first reference, else NULL. Set in the rules a context
	 * hands out (kvet_ctx_rule()), not in a rule file's own info. */
	const char *help_uri;
	/* Switched off by the settings: only kvet_ctx_rule_all() hands out
	 * such rules. */
	bool disabled;
	/* The commands that run it (enum kvet_rule_command): rule files
	 * are kvet lint's; of the checks built into kvet, the field-type
	 * check runs in both commands and the drain checks in kvet drain
	 * alone. Set in the rules a context hands out. */
	unsigned int commands;
};

/**
 * kvet_suggest() - the candidate closest to @word, as git suggests a
 * command for a misspelt one: the smallest Damerau-Levenshtein distance
 * (insertions, deletions, substitutions and swaps of two neighbours), if
 * it is small for the word's length (at most a third of it, and 1 for
 * words of up to five characters), the first candidate winning a tie.
 * @word: what the user typed.
 * @candidates: the known words.
 * @n: their number.
 *
 * Returns: one of @candidates, or NULL when none is close or @word is
 * one of them.
 */
KVET_API const char *kvet_suggest(const char *word,
				  const char *const *candidates, size_t n);

/**
 * kvet_text_write() - write text from kvet's inputs to a terminal or a
 * log: file names, messages, rule fields, as the text report writes them.
 * @fp: the stream.
 * @s: the bytes, not necessarily NUL-terminated.
 * @len: their number.
 *
 * Tabs are kept; every other control character (the C0 controls, line
 * feed included, DEL and the C1 controls) and every invalid byte becomes
 * U+FFFD, so that input cannot move the cursor, start a new line or send
 * escape sequences (CSI, OSC) to a terminal. Each code point stays one
 * code point, so a caret line computed on @s still lines up. Errors are
 * left to ferror().
 */
KVET_API void kvet_text_write(FILE *fp, const char *s, size_t len);

/* Everything of one run (kvet/context.h). */
struct kvet_ctx;

#ifdef __cplusplus
}
#endif

#endif
