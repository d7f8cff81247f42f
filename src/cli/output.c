/* SPDX-License-Identifier: Apache-2.0 */
#include "cli/output.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TMP_SUFFIX ".tmp.XXXXXX"

int kvet_output_write_atomic(const char *path, kvet_output_fn write,
			     const void *data, FILE *err)
{
	size_t size = strlen(path) + sizeof(TMP_SUFFIX);
	char *tmp = NULL;
	FILE *fp = NULL;
	mode_t mask;
	int ret = -1, fd = -1, saved;
	bool created = false;

	tmp = malloc(size);
	if (!tmp) {
		fprintf(err, "kvet: error: cannot write '%s': %s\n", path,
			strerror(ENOMEM));
		return -1;
	}
	snprintf(tmp, size, "%s" TMP_SUFFIX, path);
	fd = mkstemp(tmp);
	if (fd < 0)
		goto fail;
	created = true;
	/* mkstemp() makes the file 0600; a report is an ordinary file. */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask))
		goto fail;
	fp = fdopen(fd, "w");
	if (!fp)
		goto fail;
	if (write(data, fp) || fflush(fp) || fsync(fd))
		goto fail;
	saved = fclose(fp);
	fp = NULL;
	fd = -1;
	if (saved || rename(tmp, path))
		goto fail_unlink;
	ret = 0;
	goto out_free;

fail:
	saved = errno;
	if (fp)
		fclose(fp);
	else if (fd >= 0)
		close(fd);
	errno = saved;
fail_unlink:
	saved = errno;
	if (created)
		unlink(tmp);
	fprintf(err, "kvet: error: cannot write '%s': %s\n", path,
		strerror(saved));
out_free:
	free(tmp);
	return ret;
}

struct report {
	const struct kvet_ctx *ctx;
	enum kvet_format format;
	unsigned int flags;
};

static int write_report(const void *data, FILE *fp)
{
	const struct report *r = data;

	return kvet_render(r->ctx, r->format, r->flags, fp);
}

int kvet_output_write_file(const struct kvet_ctx *ctx, enum kvet_format format,
			   unsigned int flags, const char *path, FILE *err)
{
	struct report r = { ctx, format, flags };

	return kvet_output_write_atomic(path, write_report, &r, err);
}
