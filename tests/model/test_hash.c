/* SPDX-License-Identifier: Apache-2.0 */
/* The composite-key hash table behind the graph's indexes. */
#include "support.h"

#include "model/hash.h"

static void put_get_grow_iterate(void **state)
{
	struct kvet_arena arena;
	struct kvet_hash h;
	char names[2000][8];
	size_t i, pos = 0, seen = 0;
	struct kvet_hash_slot *s;
	bool created;

	(void)state;
	kvet_arena_init(&arena);
	kvet_hash_init(&h, &arena);
	assert_null(kvet_hash_get(&h, NULL, 0));
	for (i = 0; i < 2000; i++) {
		struct kvet_slice parts[2] = { kvet_slice_of("ns"), { 0, 0 } };
		void **slot;

		snprintf(names[i], sizeof(names[i]), "k%zu", i);
		parts[1] = kvet_slice_of(names[i]);
		slot = kvet_hash_put(&h, parts, 2, &created);
		assert_non_null(slot);
		assert_true(created);
		assert_null(*slot);
		*slot = names[i];
	}
	assert_int_equal(h.n, 2000);
	for (i = 0; i < 2000; i++) {
		struct kvet_slice parts[2] = { kvet_slice_of("ns"),
					       kvet_slice_of(names[i]) };

		assert_ptr_equal(kvet_hash_get(&h, parts, 2), names[i]);
		assert_ptr_equal(*kvet_hash_put(&h, parts, 2, &created),
				 names[i]);
		assert_false(created);
	}
	while ((s = kvet_hash_next(&h, &pos)) != NULL)
		seen++;
	assert_int_equal(seen, 2000);
	kvet_hash_release(&h);
	kvet_hash_release(&h);
	kvet_arena_release(&arena);
}

static void parts_do_not_run_together(void **state)
{
	struct kvet_arena arena;
	struct kvet_hash h;
	struct kvet_slice ab_c[2] = { { "ab", 2 }, { "c", 1 } };
	struct kvet_slice a_bc[2] = { { "a", 1 }, { "bc", 2 } };
	struct kvet_slice abc[1] = { { "abc", 3 } };
	struct kvet_slice nul1[2] = { { "a\0b", 3 }, { "", 0 } };
	struct kvet_slice nul2[2] = { { "a", 1 }, { "\0b", 2 } };
	struct kvet_slice empty[2] = { { "", 0 }, { "", 0 } };
	int x = 1, y = 2, z = 3, w = 4;

	(void)state;
	kvet_arena_init(&arena);
	kvet_hash_init(&h, &arena);
	*kvet_hash_put(&h, ab_c, 2, NULL) = &x;
	assert_null(kvet_hash_get(&h, a_bc, 2));
	assert_null(kvet_hash_get(&h, abc, 1));
	*kvet_hash_put(&h, nul1, 2, NULL) = &y;
	assert_null(kvet_hash_get(&h, nul2, 2));
	*kvet_hash_put(&h, nul2, 2, NULL) = &z;
	*kvet_hash_put(&h, empty, 2, NULL) = &w;
	assert_ptr_equal(kvet_hash_get(&h, ab_c, 2), &x);
	assert_ptr_equal(kvet_hash_get(&h, nul1, 2), &y);
	assert_ptr_equal(kvet_hash_get(&h, nul2, 2), &z);
	assert_ptr_equal(kvet_hash_get(&h, empty, 2), &w);
	assert_null(kvet_hash_get(&h, empty, 1));
	kvet_hash_release(&h);
	kvet_arena_release(&arena);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(put_get_grow_iterate),
		cmocka_unit_test(parts_do_not_run_together),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
