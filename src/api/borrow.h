/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_API_BORROW_H
#define KVET_API_BORROW_H

/*
 * Not public API: for the fuzz harnesses (fuzz/), which create a context
 * per input. Compiling the built-in rules costs more than linting most
 * inputs (16 inputs a second under ASan), so a harness compiles them once
 * into a template context and lends them to every context after it.
 */
#include "kvet/kvet.h"

/**
 * kvet_ctx_create_borrowing() - kvet_ctx_create() with the compiled rules
 * of @tmpl instead of a fresh compile of the built-in ones.
 * @opts: as for kvet_ctx_create().
 * @tmpl: a context that has not run; it must outlive the new context.
 *
 * The rules are shared, not copied: settings that write into a rule
 * (kvet_ctx_set_param(), kvet_ctx_set_rule_tolerate_errors(), and a
 * configuration that does either) change @tmpl's rules too, so the
 * caller puts them back (fuzz/common.h does). Rules added to the new
 * context with kvet_ctx_add_rules_*() are its own.
 *
 * Returns: the context, or NULL when out of memory.
 */
struct kvet_ctx *kvet_ctx_create_borrowing(const struct kvet_options *opts,
					   const struct kvet_ctx *tmpl);

#endif
