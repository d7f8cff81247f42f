/* placeholder until the CLI lands */
#include <stdio.h>
#include "kvet/kvet.h"
int main(int argc, char **argv)
{
	struct kvet_ctx *ctx = kvet_ctx_create(NULL);
	struct kvet_summary s;
	size_t i;
	for (i = 1; i < (size_t)argc; i++)
		kvet_ctx_add_path(ctx, argv[i]);
	kvet_ctx_run(ctx);
	for (i = 0; i < kvet_ctx_error_count(ctx); i++) {
		const struct kvet_error *e = kvet_ctx_error(ctx, i);
		printf("%s:%u:%u: error: %s\n", e->pos.file, e->pos.line, e->pos.column, e->message);
	}
	for (i = 0; i < kvet_ctx_finding_count(ctx); i++) {
		const struct kvet_finding *f = kvet_ctx_finding(ctx, i);
		printf("%s:%u:%u: %d: %s [%s]\n", f->pos.file, f->pos.line, f->pos.column, f->severity, f->message, f->rule);
	}
	kvet_ctx_summary(ctx, &s);
	printf("files=%zu documents=%zu objects=%zu\n", s.files, s.documents, s.objects);
	kvet_ctx_destroy(ctx);
	return 0;
}
