/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libfyaml's parser, made and unmade the way kvet needs: errors
 * collected for the loader to report with positions, and a parser that
 * libfyaml has left broken never destroyed.
 */
#include "load/fyparser.h"

#include <string.h>

#if defined(__SANITIZE_ADDRESS__)
#define KVET_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(leak_sanitizer)
#define KVET_LSAN 1
#endif
#endif
#ifdef KVET_LSAN
#include <sanitizer/lsan_interface.h>
#endif

struct fy_parser *kvet_fyparser_create(const char *buf, size_t len,
				       struct fy_diag **diag)
{
	struct fy_diag_cfg dcfg;
	struct fy_parse_cfg cfg = { 0 };
	struct fy_parser *fyp;

	fy_diag_cfg_default(&dcfg);
	dcfg.fp = NULL;
	dcfg.output_fn = NULL;
	*diag = fy_diag_create(&dcfg);
	if (!*diag)
		return NULL;
	fy_diag_set_collect_errors(*diag, true);
	/* go-yaml, and so kubectl, accepts a flow sequence whose "]" sits
	 * at its key's indentation (Tekton's controller.yaml has one) */
	cfg.flags = FYPCF_QUIET | FYPCF_DISABLE_ACCELERATORS |
		    FYPCF_SLOPPY_FLOW_INDENTATION;
	cfg.diag = *diag;
	fyp = fy_parser_create(&cfg);
	if (fyp && fy_parser_set_string(fyp, buf, len)) {
		fy_parser_destroy(fyp);
		fyp = NULL;
	}
	return fyp;
}

/*
 * libfyaml 0.7.12 (Debian 12's) stops at "cannot use tab for indentation
 * of block entry" with a simple key of an explicit key on the same line
 * (`? a:<TAB>- b`) left on two of its free lists, and destroying the
 * parser then frees it twice (found by kvet's `load` fuzzer; libfyaml
 * issue #57, fixed after 0.7.12). Only that error is known to do it.
 */
static bool left_broken(struct fy_diag *diag)
{
	static const char msg[] = "cannot use tab for indentation";
	struct fy_diag_error *de;
	void *iter = NULL;

	while ((de = fy_diag_errors_iterate(diag, &iter)) != NULL)
		if (de->msg && strstr(de->msg, msg))
			return true;
	return false;
}

bool kvet_fyparser_destroy(struct fy_parser *fyp, struct fy_diag *diag)
{
	bool abandoned = false;

	if (fyp && diag && fy_parser_get_stream_error(fyp) &&
	    left_broken(diag)) {
		/* about 3 KB that cannot be freed safely: kept, and not a
		 * leak for the sanitizers either */
#ifdef KVET_LSAN
		__lsan_ignore_object(fyp);
#endif
		abandoned = true;
	} else {
		fy_parser_destroy(fyp);
	}
	fy_diag_destroy(diag);
	return abandoned;
}
