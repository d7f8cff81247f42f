/* SPDX-License-Identifier: Apache-2.0 */
/* Charts on disk: finding the chart and its files, values lines, paths. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "chart/chart.h"
#include "tpath.h"

static char dir[] = "/tmp/kvet-chart-XXXXXX";

static void put(const char *rel, const char *text)
{
	char path[512];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static void sub(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	assert_int_equal(mkdir(path, 0755), 0);
}

/* /tmp/kvet-chart-X/web: a chart with a subchart, outside any git
 * repository, so paths are relative to @dir. */
static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	sub("web");
	sub("web/templates");
	sub("web/charts");
	sub("web/charts/db");
	sub("web/charts/db/templates");
	put("web/Chart.yaml", "apiVersion: v2\nname: \"web\"\nversion: 1.0.0\n"
	    "appVersion: \"2.1\"\n");
	put("web/values.yaml", "# defaults\nreplicas: 2\ndb:\n  size: 5\n");
	put("web/templates/deploy.yaml",
	    "apiVersion: apps/v1\nkind: Deployment\nspec:\n"
	    "  replicas: {{ .Values.replicas }}\n");
	put("web/charts/db/Chart.yaml", "apiVersion: v2\nname: db\n");
	put("web/charts/db/values.yaml", "size: 1\nother: 3\n");
	put("web/charts/db/templates/sts.yaml",
	    "kind: StatefulSet\nspec:\n  replicas: {{ .Values.size }}\n"
	    "  other: {{ .Values.other }}\n");
	put("prod.yaml", "replicas: 4\n");
	return 0;
}

static int teardown(void **state)
{
	char cmd[600];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static struct kvet_chart_field field(const char *kind, const char *dotted)
{
	static char buf[128];
	struct kvet_chart_field f = { .kind = kind, .count = 1 };

	f.path = tp(buf, sizeof(buf), dotted);
	f.text = "2";
	f.text_len = 1;
	return f;
}

static void chart_dir_and_values(void **state)
{
	struct kvet_chart_map *m = kvet_chart_map_create(dir);
	struct kvet_chart_field f = field("Deployment", "spec.replicas");
	struct kvet_chart_place pl;
	char cd[512], prod[512];
	const char *vals[1] = { prod };
	const char *text;
	size_t len;

	(void)state;
	assert_non_null(m);
	snprintf(cd, sizeof(cd), "%s/web", dir);
	snprintf(prod, sizeof(prod), "%s/prod.yaml", dir);
	assert_int_equal(kvet_chart_map_resolve(m, cd, NULL, 0,
						"web/templates/deploy.yaml",
						&f, &pl), 1);
	assert_string_equal(pl.file, "web/templates/deploy.yaml");
	assert_int_equal(pl.line, 4);
	assert_true(pl.exact);
	assert_string_equal(pl.values_key, "replicas");
	assert_string_equal(pl.values_file, "web/values.yaml");
	assert_int_equal(pl.values_line, 2);
	text = kvet_chart_map_line(m, "web/templates/deploy.yaml", 4, &len);
	assert_non_null(text);
	assert_int_equal(len, strlen("  replicas: {{ .Values.replicas }}"));
	/* a values file of the render wins over the chart's */
	f.text = "4";
	assert_int_equal(kvet_chart_map_resolve(m, cd, vals, 1,
						"web/templates/deploy.yaml",
						&f, &pl), 1);
	assert_string_equal(pl.values_file, "prod.yaml");
	assert_int_equal(pl.values_line, 1);
	/* a value none of them holds came from elsewhere (--set): the key
	 * is named, no line */
	f.text = "7";
	assert_int_equal(kvet_chart_map_resolve(m, cd, vals, 1,
						"web/templates/deploy.yaml",
						&f, &pl), 1);
	assert_string_equal(pl.values_key, "replicas");
	assert_null(pl.values_file);
	assert_int_equal(pl.values_line, 0);
	kvet_chart_map_destroy(m);
}

static void found_from_the_cwd(void **state)
{
	struct kvet_chart_map *m = kvet_chart_map_create(dir);
	struct kvet_chart_field f = field("StatefulSet", "spec.replicas");
	struct kvet_chart_place pl;

	(void)state;
	f.text = "5";
	/* web/ of the cwd; the parent's values set the subchart's */
	assert_int_equal(kvet_chart_map_resolve(
				 m, NULL, NULL, 0,
				 "web/charts/db/templates/sts.yaml", &f, &pl),
			 1);
	assert_string_equal(pl.file, "web/charts/db/templates/sts.yaml");
	assert_int_equal(pl.line, 3);
	assert_string_equal(pl.values_key, "db.size");
	assert_string_equal(pl.values_file, "web/values.yaml");
	assert_int_equal(pl.values_line, 4);
	/* one the parent does not set: the subchart's own values.yaml */
	f = field("StatefulSet", "spec.other");
	f.text = "3";
	assert_int_equal(kvet_chart_map_resolve(
				 m, NULL, NULL, 0,
				 "web/charts/db/templates/sts.yaml", &f, &pl),
			 1);
	assert_string_equal(pl.values_key, "other");
	assert_string_equal(pl.values_file, "web/charts/db/values.yaml");
	assert_int_equal(pl.values_line, 2);
	kvet_chart_map_destroy(m);
}

static void not_found_keeps_the_render(void **state)
{
	struct kvet_chart_map *m = kvet_chart_map_create(dir);
	struct kvet_chart_field f = field("Deployment", "spec.replicas");
	struct kvet_chart_place pl;
	char cd[512];

	(void)state;
	snprintf(cd, sizeof(cd), "%s/web", dir);
	/* a template that is not there */
	assert_int_equal(kvet_chart_map_resolve(m, cd, NULL, 0,
						"web/templates/gone.yaml", &f,
						&pl), 0);
	/* --chart-dir names another chart */
	assert_int_equal(kvet_chart_map_resolve(m, cd, NULL, 0,
						"api/templates/deploy.yaml",
						&f, &pl), 0);
	/* no chart of that name in the cwd */
	assert_int_equal(kvet_chart_map_resolve(m, NULL, NULL, 0,
						"api/templates/deploy.yaml",
						&f, &pl), 0);
	/* the object was rendered by another version of the chart */
	f.chart_label = "web-0.9.0";
	f.chart_label_len = strlen(f.chart_label);
	assert_int_equal(kvet_chart_map_resolve(m, cd, NULL, 0,
						"web/templates/deploy.yaml",
						&f, &pl), 0);
	f.chart_label = "web-1.0.0";
	f.chart_label_len = strlen(f.chart_label);
	assert_int_equal(kvet_chart_map_resolve(m, cd, NULL, 0,
						"web/templates/deploy.yaml",
						&f, &pl), 1);
	f.chart_label = NULL;
	/* without helm.sh/chart, the app version tells */
	f.app_version = "2.0";
	f.app_version_len = 3;
	assert_int_equal(kvet_chart_map_resolve(m, cd, NULL, 0,
						"web/templates/deploy.yaml",
						&f, &pl), 0);
	f.app_version = "2.1";
	assert_int_equal(kvet_chart_map_resolve(m, cd, NULL, 0,
						"web/templates/deploy.yaml",
						&f, &pl), 1);
	f.app_version = NULL;
	/* a source that climbs out of the chart */
	assert_int_equal(kvet_chart_map_resolve(m, cd, NULL, 0,
						"web/templates/../../prod.yaml",
						&f, &pl), 0);
	assert_null(kvet_chart_map_line(m, "web/templates/gone.yaml", 1,
					&(size_t){ 0 }));
	kvet_chart_map_destroy(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(chart_dir_and_values),
		cmocka_unit_test(found_from_the_cwd),
		cmocka_unit_test(not_found_keeps_the_render),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
