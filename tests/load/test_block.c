/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The block-style path (src/load/block.c) against libfyaml, piece by
 * piece: on what it takes, the same trees (kvet_node_same: shape, types,
 * flags, line:column, text) as kvet_load_yaml_piece(); on what it leaves
 * to libfyaml, nothing loaded and the arena as it was.
 *
 * `test_block FILE...` compares every piece of the files instead and
 * prints how many pieces each path took (for dumps and corpora).
 */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/block.h"
#include "load/build.h"
#include "load/load.h"
#include "load/node.h"
#include "load/split.h"

/*
 * Compare the two paths on @text[@start, @end), which starts on @line.
 * Returns 1 when the block path took it, 0 when it declined, -1 when
 * the paths differ (*@where_line says where).
 */
static int compare_piece(const char *text, size_t start, size_t end,
			 uint32_t line, uint32_t *where_line)
{
	struct kvet_arena a1, a2;
	struct kvet_diag d2;
	struct kvet_docs fast = { 0 }, slow = { 0 };
	const struct kvet_node *where;
	uint32_t ndocs = 0;
	size_t before;
	int rf, rs, ret;

	kvet_arena_init(&a1);
	kvet_arena_init(&a2);
	kvet_diag_init(&d2, &a2);
	/* something allocated before must survive a decline */
	assert_non_null(kvet_arena_strdup(&a1, "kept"));
	before = a1.total;
	rf = kvet_block_items(&a1, text, start, end, line, &fast);
	rs = kvet_load_yaml_piece(&a2, &d2, "t.yaml", text, start, end, line,
				  &slow, &ndocs);
	ret = rf;
	if (rf == 1) {
		if (rs != 1 || slow.n != 1 || ndocs != 1 ||
		    !kvet_node_same(fast.v[0].root, slow.v[0].root, &where)) {
			*where_line = rs == 1 && slow.n == 1 && where
					      ? where->line
					      : line;
			ret = -1;
		}
	} else if (rf != 0 || fast.n || a1.total > before) {
		*where_line = line;
		ret = -1;
	}
	kvet_docs_release(&fast);
	kvet_docs_release(&slow);
	kvet_diag_release(&d2);
	kvet_arena_release(&a1);
	kvet_arena_release(&a2);
	return ret;
}

/*
 * Compare the two paths on every piece of @text cut in pieces of about
 * @piece bytes. Returns the pieces the block path took, or -1 when a
 * piece differs (*@where_line says where) or no List was found.
 */
static long compare(const char *text, size_t len, size_t piece,
		    uint32_t *where_line, size_t *npieces)
{
	struct kvet_split s;
	long taken = 0;
	size_t i;

	*where_line = 0;
	*npieces = 0;
	if (kvet_split_plan(text, len, piece, &s) < 0 ||
	    s.mode != KVET_SPLIT_YAML_ITEMS) {
		kvet_split_release(&s);
		return -1;
	}
	*npieces = s.n;
	for (i = 0; i < s.n && taken >= 0; i++) {
		int rc = compare_piece(text, s.v[i].start, s.v[i].end,
				       s.v[i].line, where_line);

		taken = rc < 0 ? -1 : taken + rc;
	}
	kvet_split_release(&s);
	return taken;
}

static const char *const head = "apiVersion: v1\nitems:\n";
static const char *const tail = "kind: List\nmetadata:\n  resourceVersion: \"\"\n";

/* The items of a List, as the only piece: what the block path did. */
static int one_piece(const char *items)
{
	size_t len = strlen(items);
	uint32_t line = 0;
	char *text = malloc(len + 1);
	int rc;

	assert_non_null(text);
	memcpy(text, items, len + 1);
	rc = compare_piece(text, 0, len, 1, &line);
	if (rc < 0)
		fail_msg("differs at line %u: %s", line, items);
	free(text);
	return rc;
}

/* The block path must take @items, whole and in the smallest pieces of
 * a List (a last item makes at least two). */
static void assert_taken(const char *items)
{
	size_t len = strlen(head) + strlen(items) + strlen(tail) + 16;
	char *text = malloc(len + 1);
	uint32_t line;
	size_t n;
	long taken;

	assert_int_equal(one_piece(items), 1);
	assert_non_null(text);
	snprintf(text, len + 1, "%s%s- last: 1\n%s", head, items, tail);
	len = strlen(text);
	taken = compare(text, len, 1, &line, &n);
	if (taken != (long)n)
		fail_msg("%ld of %zu pieces taken (line %u): %s", taken, n,
			 line, items);
	free(text);
}

/* The block path declines @items, leaving no trace. */
static void assert_declined(const char *items)
{
	assert_int_equal(one_piece(items), 0);
}

static void test_kubectl_shapes(void **state)
{
	(void)state;
	assert_taken("- apiVersion: v1\n"
		     "  kind: Service\n"
		     "  metadata:\n"
		     "    annotations:\n"
		     "      meta.helm.sh/release-name: checkout\n"
		     "    creationTimestamp: \"2024-04-24T17:34:21Z\"\n"
		     "    labels:\n"
		     "      app.kubernetes.io/name: api-server\n"
		     "    name: api-server\n"
		     "  spec:\n"
		     "    clusterIPs:\n"
		     "    - 10.43.191.171\n"
		     "    ports:\n"
		     "    - name: http\n"
		     "      port: 80\n"
		     "      targetPort: http\n"
		     "    selector: {}\n"
		     "    empty: []\n"
		     "  status:\n"
		     "    loadBalancer: {}\n"
		     "- apiVersion: v1\n"
		     "  kind: ConfigMap\n"
		     "  data:\n"
		     "    a: ''\n"
		     "    b: 'single'\n"
		     "    config.yaml: |\n"
		     "      server:\n"
		     "        port: 9089\n"
		     "\n"
		     "      log: [x]\n"
		     "    strip: |-\n"
		     "      one\n"
		     "      two\n"
		     "    after: 1\n"
		     "  metadata:\n"
		     "    name: cm\n");
}

static void test_scalars(void **state)
{
	(void)state;
	assert_taken("- a: 1\n  b: 1.5\n  c: true\n  d: null\n  e: ~\n"
		     "  f: -1\n  g: --port=80\n  h: a b  \n  i: x # c\n"
		     "  j: \"q\" # c\n  k: a:b\n  l: a#b\n  \"m\": 2\n"
		     "  'n': 3\n  o: 0x1F\n  p: caf\xc3\xa9\n  80: port\n"
		     "  q: yes\n  r: 2024-01-01\n  s: a, [b] {c}\n");
	assert_taken("- 1\n- \"two\"\n- three # c\n-   four\n");
	assert_taken("- x: \xe2\x82\xac\n  y: [] # c\n");
}

static void test_nesting(void **state)
{
	(void)state;
	/* empty values, at the end of a mapping, a piece and a list */
	assert_taken("- a:\n  b:\n    c:\n  d:\n- e:\n");
	assert_taken("- a:\n  - b\n  - c:\n    - d\n  e: f\n");
	assert_taken("- a:\n    - b\n    -   c: 1\n        d: 2\n");
	/* comments and blank lines anywhere */
	assert_taken("- a: 1 # c\n\n  # c\n     # c\n  b:\n  # c\n    c: 1\n");
	/* managedFields is dropped, in metadata only */
	assert_taken("- metadata:\n    managedFields:\n    - manager: x\n"
		     "      fieldsV1:\n        f:a: {}\n    name: n\n"
		     "  spec:\n    managedFields:\n    - a\n");
	assert_taken("- metadata:\n    managedFields: []\n    name: n\n");
}

/*
 * Values of several lines, as kubectl's YAML writer (go-yaml) breaks a
 * long value at 80 columns, and quoted values with escapes: decoded as
 * the builder decodes them, at their first line (found on
 * kubevious-parser-data-all.yaml, where 37 of 358 items went to
 * libfyaml for them).
 */
static void test_long_values(void **state)
{
	(void)state;
	assert_taken("- command: java -Xmx1g\n"
		     "    -Djava.security.egd=file:/dev/urandom\n"
		     "     --port=80\n  next: 1\n");
	assert_taken("- a:\n  - one two\n    three\n  - four\n  b: c\n");
	assert_taken("- message: 'The node was low on resource: memory. A was'\n"
		     "  reason: 'using 886328Ki,\n    which exceeds its request\n"
		     "\n    of 0.'\n  n: 1\n");
	assert_taken("- a: \"esc\\n\\t\\\"q\\\" \\u00e9\\x41\"\n  b: 'it''s'\n");
	assert_taken("- a: \"two\n    lines\\\n    joined \\\n     \"\n  b: 1\n");
	assert_taken("- a:\n  - 'x\n    y'\n  - \"z\n    w\" # c\n");
	assert_taken("- value: :9236\n  q: ?x\n  r: -\xc3\xa9\n");
}

static void test_declined(void **state)
{
	(void)state;
	assert_declined("- a: &x 1\n  b: *x\n");
	assert_declined("- a: !!str 1\n");
	assert_declined("- a: {b: 1}\n");
	assert_declined("- a: [1]\n");
	assert_declined("- a: >\n    folded\n");
	assert_declined("- a: |+\n    keep\n\n");
	assert_declined("- a: |2\n    x\n");
	/* continuations libfyaml may read otherwise or refuse */
	assert_declined("- a: plain\n    - entry\n");
	assert_declined("- a: plain\n    [x]\n");
	assert_declined("- a: plain\n    b: c\n");
	assert_declined("- a: plain\n    b #c\n");
	assert_declined("- a: plain\n\tb\n");
	assert_declined("- a: plain\n\n    after an empty line\n");
	assert_declined("- a: plain\n  at the key's indentation\n");
	assert_declined("- a: 'quoted\n  at the key''s indentation'\n");
	assert_declined("- a: 'quoted\n    then' b\n");
	assert_declined("- 'quoted\n    key': 1\n");
	assert_declined("- a: \"nul \\0\"\n");
	assert_declined("- a: \"tab\n   \there\"\n");
	assert_declined("- :a: 1\n");
	assert_declined("- a: b: c\n");
	assert_declined("- a: 1\n  a: 2\n");
	assert_declined("- <<: {}\n");
	assert_declined("- a:\tb\n");
	assert_declined("- a: b\r\n");
	assert_declined("- - a\n");
	assert_declined("-\n  a: 1\n");
	assert_declined("- ? a\n  : b\n");
	assert_declined("- a: 1\n   b: 2\n");
	assert_declined("- a: x\xc2\x85y\n");
	assert_declined("- caf\xc3\xa9: 1\n");
	assert_declined("- a: |\n\n    late\n");
	assert_declined("- a: |\n    x\n      \n    y\n");
	/* a lone CR ends a comment for YAML: what follows is content
	 * (found by fuzz_block) */
	assert_declined("- a: 1\n# c\rx\n");
	assert_declined("- a: 1 # c\rx\n");
	assert_declined("- a: # c\rx\n    b: 1\n");
	assert_declined("- a: \"q\" # c\rx\n");
	assert_declined("- a: 1\n  # c\xc2\x85x: 2\n");
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kubectl_shapes),
		cmocka_unit_test(test_scalars),
		cmocka_unit_test(test_nesting),
		cmocka_unit_test(test_long_values),
		cmocka_unit_test(test_declined),
	};
	int i, bad = 0;

	if (argc < 2)
		return cmocka_run_group_tests(tests, NULL, NULL);
	for (i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		char *buf = NULL;
		size_t len = 0, cap = 0, got, n;
		uint32_t line;
		long taken;

		if (!f) {
			perror(argv[i]);
			return 2;
		}
		do {
			if (len + 65536 > cap) {
				cap = (len + 65536) * 2;
				buf = realloc(buf, cap);
				if (!buf)
					return 2;
			}
			got = fread(buf + len, 1, cap - len, f);
			len += got;
		} while (got);
		fclose(f);
		taken = compare(buf, len, 1, &line, &n);
		if (taken < 0 && line)
			bad = 1;
		printf("%s: %zu pieces, %ld by the block path%s", argv[i], n,
		       taken, taken < 0 && line ? ", differs at line " : "\n");
		if (taken < 0 && line)
			printf("%u\n", line);
		free(buf);
	}
	return bad;
}
