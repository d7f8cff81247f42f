/* SPDX-License-Identifier: Apache-2.0 */
#include "chart/values.h"

#include <libfyaml.h>
#include <stdlib.h>
#include <string.h>

struct kvet_values {
	struct fy_document *fyd;
};

struct kvet_values *kvet_values_load(const char *path)
{
	struct fy_parse_cfg cfg = { .flags = FYPCF_QUIET };
	struct kvet_values *vals;
	struct fy_document *fyd;

	fyd = fy_document_build_from_file(&cfg, path);
	if (!fyd)
		return NULL;
	vals = malloc(sizeof(*vals));
	if (!vals) {
		fy_document_destroy(fyd);
		return NULL;
	}
	vals->fyd = fyd;
	return vals;
}

void kvet_values_destroy(struct kvet_values *vals)
{
	if (!vals)
		return;
	fy_document_destroy(vals->fyd);
	free(vals);
}

/*
 * Keys are tried longest first at each step, so that a key holding dots
 * (an annotation name) is found as well as nested keys; the walk is
 * bounded by the path's length, not by the document's depth.
 */
unsigned int kvet_values_line(struct kvet_values *vals, const char *path,
			      const char **text, size_t *len)
{
	struct fy_node *fyn = vals ? fy_document_root(vals->fyd) : NULL;
	struct fy_node_pair *fynp = NULL;
	const struct fy_mark *m;
	struct fy_token *fyt;
	const char *p = path, *e;

	*text = NULL;
	*len = 0;
	while (fyn && *p) {
		if (fy_node_get_type(fyn) != FYNT_MAPPING)
			return 0;
		fynp = NULL;
		for (e = p + strlen(p); e > p;) {
			fynp = fy_node_mapping_lookup_pair_by_string(
				fyn, p, (size_t)(e - p));
			if (fynp && (!*e || *e == '.'))
				break;
			fynp = NULL;
			while (--e > p && *e != '.')
				;
		}
		if (!fynp)
			return 0;
		fyn = fy_node_pair_value(fynp);
		p = *e ? e + 1 : e;
	}
	if (!fynp)
		return 0;
	if (fyn && fy_node_is_scalar(fyn))
		*text = fy_node_get_scalar(fyn, len);
	fyt = fy_node_get_scalar_token(fy_node_pair_key(fynp));
	m = fyt ? fy_token_start_mark(fyt) : NULL;
	return m ? (unsigned int)m->line + 1 : 0;
}
