/* SPDX-License-Identifier: Apache-2.0 */
/*
 * embed_rules - turn the built-in rule files into C, at build time:
 *
 *   embed_rules OUTPUT.c rules/a.yaml rules/b.yaml ...
 *
 * Each file becomes a byte array (string literals have a length limit in
 * ISO C) and a row of kvet_builtin_rule_files[], named "rules/BASENAME"
 * so that errors and docs name the file as it is in the source tree. The
 * row also says where the top-level "examples:" key starts: a lint loads
 * the bytes before it only (rules/rules.h), so that key must come last.
 *
 * Those bytes are also parsed here, by kvet's own loader, and their trees
 * written out as static nodes: a lint then starts from the trees instead
 * of parsing the YAML again at every run (more than half of a small
 * lint's instructions did that). The trees are the loader's, node for
 * node; their scalars point into the byte array as the loader's do into
 * its buffer, so that rule errors keep their positions. A file the loader
 * finds an error in stops the build.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/diag.h"
#include "load/load.h"

/* The arrays of children of one file's trees, in the order they are
 * written: every map's pairs go into pairsN[], every sequence's items
 * (and the documents' roots, first) into itemsN[]. */
struct run {
	const void *p;		/* the loader's array */
	size_t len;
	size_t at;		/* its first index in pairsN[] or itemsN[] */
	int pairs;
};

struct file {
	char *buf;			/* the file */
	size_t len, rule_len;
	char *tree_buf;			/* the loader's copy of the rule */
	struct kvet_arena arena;
	struct kvet_diag diag;
	struct kvet_docs docs;
	struct kvet_node *roots;
	struct run *runs;
	size_t n_runs, cap_runs;
	size_t n_pairs, n_items;
	/* the scalars the loader copied out of the text (decoded quotes,
	 * block scalars): strN[] */
	char *str;
	size_t n_str, cap_str;
};

static void *grow(void *v, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return v;
	*cap = need * 2 + 16;
	v = realloc(v, *cap * size);
	if (!v) {
		perror("embed_rules");
		exit(1);
	}
	return v;
}

static const struct run *run_of(struct file *f, const void *p, size_t len,
				int pairs)
{
	size_t i;

	for (i = 0; i < f->n_runs; i++)
		if (f->runs[i].p == p && f->runs[i].pairs == pairs)
			return &f->runs[i];
	f->runs = grow(f->runs, &f->cap_runs, f->n_runs + 1, sizeof(*f->runs));
	f->runs[f->n_runs] = (struct run){ p, len,
					   pairs ? f->n_pairs : f->n_items,
					   pairs };
	if (pairs)
		f->n_pairs += len;
	else
		f->n_items += len;
	return &f->runs[f->n_runs++];
}

/* Give the children of @n their place (the run is then walked in turn:
 * a list of runs, not a recursion). */
static void place(struct file *f, const struct kvet_node *n)
{
	if (n->type == KVET_NODE_MAP && n->len)
		run_of(f, n->u.pairs, n->len, 1);
	else if (n->type == KVET_NODE_SEQ && n->len)
		run_of(f, n->u.items, n->len, 0);
}

static void emit_node(FILE *out, struct file *f, int i,
		      const struct kvet_node *n)
{
	fprintf(out, "{ %u, %u, %u, 0, %u, %u, %u, ", n->type, n->flags,
		n->invalid_type, n->line, n->col, n->len);
	if (n->type == KVET_NODE_MAP && n->len) {
		fprintf(out, "{ .pairs = &pairs%d[%zu] } }", i,
			run_of(f, n->u.pairs, n->len, 1)->at);
	} else if (n->type == KVET_NODE_SEQ && n->len) {
		fprintf(out, "{ .items = &items%d[%zu] } }", i,
			run_of(f, n->u.items, n->len, 0)->at);
	} else if (n->type >= KVET_NODE_MAP || !n->u.str) {
		fputs("{ .str = NULL } }", out);
	} else if (n->u.str >= f->tree_buf &&
		   n->u.str + n->len <= f->tree_buf + f->rule_len) {
		fprintf(out, "{ .str = file%d + %zu } }", i,
			(size_t)(n->u.str - f->tree_buf));
	} else {
		f->str = grow(f->str, &f->cap_str, f->n_str + n->len + 1, 1);
		memcpy(f->str + f->n_str, n->u.str, n->len);
		fprintf(out, "{ .str = str%d + %zu } }", i, f->n_str);
		f->n_str += n->len;
		f->str[f->n_str++] = '\0';
	}
}

static void emit_bytes(FILE *out, const char *kind, int i, const char *s,
		       size_t n)
{
	size_t k;

	fprintf(out, "static const char %s%d[] = {", kind, i);
	/* bytes above 0x7f (UTF-8 in a description) overflow a signed
	 * char as plain constants: cast them */
	for (k = 0; k < n; k++)
		fprintf(out, "%s%s0x%02x,", k % 12 ? " " : "\n\t",
			(unsigned char)s[k] > 0x7f ? "(char)" : "",
			(unsigned char)s[k]);
	fputs("\n\t0x00\n};\n\n", out);
}

/* Where the top-level "examples:" key starts, or the length. */
static size_t rule_len(const char *s, size_t n)
{
	static const char key[] = "examples:";
	const char *p = s, *end = s + n;

	for (;;) {
		if ((size_t)(end - p) >= sizeof(key) - 1 &&
		    !memcmp(p, key, sizeof(key) - 1))
			return (size_t)(p - s);
		p = memchr(p, '\n', (size_t)(end - p));
		if (!p)
			return n;
		p++;
	}
}

static int read_all(const char *path, struct file *f)
{
	FILE *in = fopen(path, "rb");
	size_t cap = 0, got;
	int ret = 0;

	if (!in) {
		perror(path);
		return -1;
	}
	do {
		f->buf = grow(f->buf, &cap, f->len + 65536, 1);
		got = fread(f->buf + f->len, 1, cap - f->len - 1, in);
		f->len += got;
	} while (got);
	f->buf[f->len] = '\0';
	if (ferror(in)) {
		perror(path);
		ret = -1;
	}
	fclose(in);
	return ret;
}

/* The loader's trees of the rule text of @f: 0, or -1 after saying why. */
static int load(struct file *f, const char *path, const char *name)
{
	size_t k;

	/* the loader's buffer is the text before examples:, as a lint's
	 * was (kvet_rule_set_add_builtin()) */
	f->tree_buf = kvet_arena_strndup(&f->arena, f->buf, f->rule_len);
	if (f->tree_buf &&
	    !kvet_load_buffer(&f->arena, &f->diag, name, f->tree_buf,
			      f->rule_len, &f->docs) &&
	    !f->diag.n && f->docs.n) {
		/* what the trees point to, should the loader have
		 * rewritten a byte */
		memcpy(f->buf, f->tree_buf, f->rule_len);
		return 0;
	}
	for (k = 0; k < f->diag.n; k++)
		fprintf(stderr, "%s:%u:%u: %s\n", name,
			f->diag.errors[k].pos.line, f->diag.errors[k].pos.column,
			f->diag.errors[k].message);
	fprintf(stderr, "embed_rules: %s: cannot load the rule file\n", path);
	return -1;
}

/* The nodes of every run of @f, in their order, written to @out. */
static void emit_runs(FILE *out, struct file *f, int i, int pairs)
{
	size_t r, k;

	for (r = 0; r < f->n_runs; r++) {
		const struct run *ru = &f->runs[r];

		for (k = 0; ru->pairs == pairs && k < ru->len; k++) {
			const struct kvet_pair *pr = ru->p;

			fputs("\t", out);
			if (pairs) {
				fputs("{ ", out);
				emit_node(out, f, i, &pr[k].key);
				fputs(",\n\t  ", out);
				emit_node(out, f, i, &pr[k].value);
				fputs(" }", out);
			} else if (r < f->docs.n) {
				emit_node(out, f, i, f->docs.v[r].root);
			} else {
				emit_node(out, f, i,
					  &((const struct kvet_node *)ru->p)[k]);
			}
			fputs(",\n", out);
		}
	}
}

static int embed(FILE *out, const char *path, const char *name, int i)
{
	struct file f = { 0 };
	char *nodes = NULL;
	size_t k, r, n_nodes = 0;
	FILE *mem = NULL;
	int ret = -1;

	kvet_arena_init(&f.arena);
	kvet_diag_init(&f.diag, &f.arena);
	if (read_all(path, &f))
		goto out;
	f.rule_len = rule_len(f.buf, f.len);
	if (load(&f, path, name))
		goto out;
	/* the roots are the first run of items, one node each */
	for (k = 0; k < f.docs.n; k++)
		(void)run_of(&f, &f.docs.v[k], 1, 0);
	/* every run is placed before any is written: then those the
	 * nodes of each run name, once each (a list, not a recursion) */
	for (r = 0; r < f.n_runs; r++) {
		for (k = 0; k < f.runs[r].len; k++) {
			const struct run *ru = &f.runs[r];

			if (r < f.docs.n)
				place(&f, f.docs.v[r].root);
			else if (ru->pairs)
				place(&f, &((const struct kvet_pair *)ru->p)[k].value);
			else
				place(&f, &((const struct kvet_node *)ru->p)[k]);
		}
	}
	/* the copied scalars are known once the nodes are written, and
	 * must be defined before them */
	mem = open_memstream(&nodes, &n_nodes);
	if (!mem) {
		perror("embed_rules");
		goto out;
	}
	fprintf(mem, "static const struct kvet_node items%d[%zu];\n", i,
		f.n_items);
	fprintf(mem, "static const struct kvet_pair pairs%d[%zu] = {\n", i,
		f.n_pairs ? f.n_pairs : 1);
	emit_runs(mem, &f, i, 1);
	if (!f.n_pairs)
		fputs("\t{ { 0 }, { 0 } }\n", mem);
	fprintf(mem, "};\nstatic const struct kvet_node items%d[%zu] = {\n",
		i, f.n_items);
	emit_runs(mem, &f, i, 0);
	fputs("};\n", mem);
	if (fclose(mem)) {
		mem = NULL;
		perror("embed_rules");
		goto out;
	}
	mem = NULL;
	emit_bytes(out, "file", i, f.buf, f.len);
	emit_bytes(out, "str", i, f.str ? f.str : "", f.n_str);
	fwrite(nodes, 1, n_nodes, out);
	fprintf(out, "#define ROW%d { \"%s\", file%d, %zu, %zu, items%d, %zu }\n\n",
		i, name, i, f.len, f.rule_len, i, f.docs.n);
	ret = 0;
out:
	if (mem)
		fclose(mem);
	free(nodes);
	kvet_docs_release(&f.docs);
	kvet_diag_release(&f.diag);
	kvet_arena_release(&f.arena);
	free(f.buf);
	free(f.runs);
	free(f.str);
	return ret;
}

int main(int argc, char **argv)
{
	FILE *out;
	char name[4096];
	int i;

	if (argc < 2) {
		fputs("usage: embed_rules OUTPUT.c RULE.yaml...\n", stderr);
		return 2;
	}
	out = fopen(argv[1], "w");
	if (!out) {
		perror(argv[1]);
		return 1;
	}
	fputs("/* Generated by tools/embed_rules from rules/: do not edit. */\n"
	      "#include \"rules/rules.h\"\n\n", out);
	for (i = 2; i < argc; i++) {
		const char *base = strrchr(argv[i], '/');

		snprintf(name, sizeof(name), "rules/%s",
			 base ? base + 1 : argv[i]);
		if (embed(out, argv[i], name, i - 2)) {
			fclose(out);
			remove(argv[1]);
			return 1;
		}
	}
	fputs("const struct kvet_builtin_rule_file kvet_builtin_rule_files[] = {\n",
	      out);
	for (i = 2; i < argc; i++)
		fprintf(out, "\tROW%d,\n", i - 2);
	fprintf(out, "\t{ NULL, NULL, 0, 0, NULL, 0 },\n};\n\n"
		"const size_t kvet_builtin_rule_file_count = %d;\n", argc - 2);
	return fclose(out) ? 1 : 0;
}
