/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A rule's documentation in Markdown: what `kvet explain ID` prints and
 * what docs/rules/ID.md holds (generated at build time, checked by a
 * test, so the two cannot drift apart).
 */
#include "rules/rules.h"

#include <stdbool.h>
#include <string.h>

#include "base/text.h"

/*
 * Every field comes from a rule file, a team's as well as kvet's, and
 * `kvet explain` writes to a terminal: text goes through
 * kvet_text_write() (one line) or kvet_text_write_lines(), so a control
 * character in a rule file becomes U+FFFD, as in the text report.
 */
static void put(FILE *fp, const char *s)
{
	kvet_text_write(fp, s, strlen(s));
}

/* Text with its trailing line breaks removed, then one. */
static void para(FILE *fp, const char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
		n--;
	kvet_text_write_lines(fp, s, n);
	putc('\n', fp);
}

/* Text on one line: every run of white space written as one space. */
static void one_line(FILE *fp, const char *s)
{
	bool space = false;

	for (; *s == ' ' || *s == '\n' || *s == '\t'; s++)
		;
	for (; *s; s++) {
		if (*s == ' ' || *s == '\n' || *s == '\t' || *s == '\r') {
			space = true;
			continue;
		}
		if (space)
			putc(' ', fp);
		space = false;
		kvet_text_write(fp, s, 1 + strcspn(s + 1, " \n\t\r"));
		s += strcspn(s + 1, " \n\t\r");
	}
}

static void write_example(FILE *fp, const struct kvet_rule_example *e)
{
	size_t n = e->len;

	while (n && e->manifest[n - 1] == '\n')
		n--;
	fprintf(fp, "\n%s%s", e->fails ? "Fires" : "Does not fire",
		e->name && *e->name ? " — " : "");
	put(fp, e->name ? e->name : "");
	fputs(":\n\n```yaml\n", fp);
	kvet_text_write_lines(fp, e->manifest, n);
	fputs("\n```\n", fp);
}

int kvet_rule_write_markdown(const struct kvet_rule_info *info,
			     const struct kvet_rule *rule, FILE *fp)
{
	size_t i, pass;

	fputs("# ", fp);
	put(fp, info->id);
	fprintf(fp, "\n\nSeverity: **%s** · Category: ",
		kvet_rule_severity_names[info->severity]);
	put(fp, info->category);
	fprintf(fp, "%s%s\n\n",
		rule && rule->has_severity_expr ? " · severity depends on the object" : "",
		rule ? "" : " · built into kvet (C)");
	para(fp, info->summary);
	/* a team's rule may leave these out (rule_defaults.c) */
	if (info->description != info->summary) {
		fputs("\n## Why it matters\n\n", fp);
		para(fp, info->description);
	}
	if (*info->remediation) {
		fputs("\n## How to fix it\n\n", fp);
		para(fp, info->remediation);
	}
	if (rule) {
		fputs("\n## Condition\n\nApplies to: ", fp);
		for (i = 0; i < rule->n_kinds; i++) {
			fputs(i ? ", `" : "`", fp);
			put(fp, rule->kinds[i]);
			putc('`', fp);
		}
		for (i = 0; i < rule->n_namespaces; i++) {
			fputs(i ? ", `" : " in namespaces `", fp);
			put(fp, rule->namespaces[i]);
			putc('`', fp);
		}
		if (rule->has_each && rule->each_text) {
			fputs("\n\nFor each `", fp);
			put(fp, rule->each_as);
			fputs("` in:\n\n```cel\n", fp);
			para(fp, rule->each_text);
			fputs("```\n\nwhen:", fp);
		}
		fputs("\n\n```cel\n", fp);
		para(fp, rule->condition_text);
		fputs("```\n", fp);
		if (rule->has_group && rule->group_text) {
			fputs("\nOne finding for the items that share this key (`group` lists them):\n\n```cel\n",
			      fp);
			para(fp, rule->group_text);
			fputs("```\n", fp);
		}
		if (rule->n_vars)
			fprintf(fp, "\nVariables (read as `variables.NAME`, each evaluated at most once per object%s):\n\n",
				rule->has_each ? " and item" : "");
		for (i = 0; i < rule->n_vars; i++) {
			fputs("- `", fp);
			put(fp, rule->vars[i].name);
			fputs("`: `", fp);
			one_line(fp, rule->vars[i].text);
			fputs("`\n", fp);
		}
		if (rule->n_params) {
			fputs("\nParameters (override with `--param ", fp);
			fprintf(fp, "%s.NAME=VALUE`):\n\n", info->id);
			for (i = 0; i < rule->n_params; i++) {
				struct kvet_arena tmp;
				char *v;

				kvet_arena_init(&tmp);
				v = cel_to_text(&tmp, rule->param_list[i].value);
				fputs("- `", fp);
				put(fp, rule->param_list[i].name);
				fputs("` (default `", fp);
				put(fp, v ? v : "?");
				fputs("`)\n", fp);
				kvet_arena_release(&tmp);
			}
		}
	}
	if (info->n_references) {
		fputs("\n## References\n\n", fp);
		for (i = 0; i < info->n_references; i++) {
			fputs("- <", fp);
			put(fp, info->references[i]);
			fputs(">\n", fp);
		}
	}
	if (rule && rule->n_examples) {
		fputs("\n## Examples\n", fp);
		for (pass = 0; pass < 2; pass++)
			for (i = 0; i < rule->n_examples; i++)
				if (rule->examples[i].fails == !pass)
					write_example(fp, &rule->examples[i]);
	}
	fflush(fp);
	return ferror(fp) ? -1 : 0;
}
