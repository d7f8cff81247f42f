/* SPDX-License-Identifier: Apache-2.0 */
/*
 * event_scan - count libfyaml parser events in a file.
 *
 * Usage: event_scan FILE
 *
 * The lower bound for kvet's loader: it reads the input the way kvet does
 * (the whole file into one malloc'd buffer, then fy_parser_set_string())
 * and does nothing with the events but count and free them. Prints
 * "events N" and exits 0, or reports the parse error and exits 1.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <libfyaml.h>

/* The whole file in one buffer, as kvet holds its inputs for caret lines. */
static char *read_file(const char *path, size_t *lenp)
{
	struct stat st;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	fp = fopen(path, "rb");
	if (!fp)
		return NULL;
	if (fstat(fileno(fp), &st) < 0 || st.st_size < 0)
		goto out;
	len = (size_t)st.st_size;
	buf = malloc(len ? len : 1);
	if (!buf)
		goto out;
	if (fread(buf, 1, len, fp) != len) {
		free(buf);
		buf = NULL;
		errno = EIO;
	}
out:
	fclose(fp);
	*lenp = len;
	return buf;
}

int main(int argc, char **argv)
{
	struct fy_parse_cfg cfg = { .flags = FYPCF_QUIET };
	struct fy_parser *fyp = NULL;
	struct fy_event *fye;
	unsigned long events = 0;
	size_t len;
	char *buf;
	int ret = 1;

	if (argc != 2) {
		fputs("usage: event_scan FILE\n", stderr);
		return 2;
	}
	buf = read_file(argv[1], &len);
	if (!buf) {
		fprintf(stderr, "event_scan: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	fyp = fy_parser_create(&cfg);
	if (!fyp || fy_parser_set_string(fyp, buf, len)) {
		fprintf(stderr, "event_scan: cannot create the parser\n");
		goto out;
	}
	while ((fye = fy_parser_parse(fyp)) != NULL) {
		events++;
		fy_parser_event_free(fyp, fye);
	}
	/* the default diag has already printed the error with its position */
	if (fy_parser_get_stream_error(fyp)) {
		fprintf(stderr, "event_scan: %s: parse error after %lu events\n",
			argv[1], events);
		goto out;
	}
	printf("events %lu\n", events);
	ret = 0;
out:
	fy_parser_destroy(fyp);
	free(buf);
	return ret;
}
