/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_TESTS_BANNED_TERMS_H
#define KVET_TESTS_BANNED_TERMS_H

/*
 * The terms no finding's headline, reason or help may hold
 * (docs/rule-language.md, "Messages"), for the tests that check the words
 * of the built-in rules (run_examples.c) and of the built-in checks
 * written in C (tests/api/test_drain.c, rolling-upgrade-stalls). Words
 * that belong to kvet's catalogue and code, not to a reader's
 * Kubernetes: replica-count symbols, the verdicts of the interception
 * algorithm, the catalogue's rule and section numbers, the names of the
 * functions rules call, the shape of an evaluation error. Extended
 * regular expressions (with GNU \b).
 */
static const char *const banned[] = {
	"N_(min|max|spec)",			/* replica counts */
	"\\bL\\(W\\)",				/* a workload's pod labels */
	"\\binterception\\b",
	"\\b(ASSUMED|UNKNOWN|TRUE|FALSE)\\b",	/* interception verdicts */
	"\\bM[1-9]\\b",				/* manager criteria */
	"\\b[A-G][1-9]\\b",			/* catalogue rule numbers */
	"\\(1\\.[0-9]+\\)|\\bsection [0-9]",	/* catalogue sections */
	"RULES-CATALOGUE|[Cc]atalogue",
	"per-run|dump mode|open world|closed world",
	"effective spreading term|foreign workload|merged selector",
	"Configuration/[^ \"]*#",		/* webhookId()'s Kind/config#name */
	"\\b[a-z]+[A-Z][A-Za-z]*\\(",		/* a function call: webhookId( */
	"\\{\\{|\\}\\}|<error",			/* a template or error leaking */
	"\\bnull\\b",
};
#define N_BANNED (sizeof(banned) / sizeof(banned[0]))

#endif
