/* SPDX-License-Identifier: Apache-2.0 */
/* kvet_path_from(): a path as a user would type it from a directory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "base/repo.h"

static void cases(void **state)
{
	static const struct {
		const char *abs, *dir, *want;
	} t[] = {
		{ "/r/a", "/r/a", "." },
		{ "/r/a/b.yaml", "/r/a", "b.yaml" },
		{ "/r/a/b/c.yaml", "/r", "a/b/c.yaml" },
		{ "/r/x/c.yaml", "/r/a", "../x/c.yaml" },
		{ "/r/x/c.yaml", "/r/a/b", "../../x/c.yaml" },
		{ "/r", "/r/a/b", "../.." },
		{ "/r", "/r/a", ".." },
		/* a shared prefix that is no shared directory */
		{ "/r/ab/c", "/r/a", "../ab/c" },
		{ "/r/a", "/r/ab", "../a" },
		{ "/a/b", "/", "a/b" },
		{ "/", "/", "." },
		{ "/", "/a/b", "../.." },
		{ "/x", "/a", "../x" },
	};
	struct kvet_arena a;
	size_t i;

	(void)state;
	kvet_arena_init(&a);
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		const char *got = kvet_path_from(&a, t[i].abs, t[i].dir);

		assert_non_null(got);
		if (strcmp(got, t[i].want))
			fail_msg("%s from %s: \"%s\", want \"%s\"", t[i].abs,
				 t[i].dir, got, t[i].want);
	}
	kvet_arena_release(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cases),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
