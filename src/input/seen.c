/* SPDX-License-Identifier: Apache-2.0 */
#include "input/seen.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void kvet_seen_release(struct kvet_seen *seen)
{
	if (!seen)
		return;
	free(seen->v);
	memset(seen, 0, sizeof(*seen));
}

/* splitmix64's finaliser: inodes are often sequential, slots must not be */
static size_t slot_of(dev_t dev, ino_t ino, size_t cap)
{
	uint64_t x = (uint64_t)ino ^ ((uint64_t)dev * 0x9e3779b97f4a7c15u);

	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9u;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebu;
	x ^= x >> 31;
	return (size_t)x & (cap - 1);
}

static struct kvet_seen_entry *find(struct kvet_seen_entry *v, size_t cap,
				    dev_t dev, ino_t ino)
{
	size_t i = slot_of(dev, ino, cap);

	while (v[i].name && (v[i].dev != dev || v[i].ino != ino))
		i = (i + 1) & (cap - 1);
	return &v[i];
}

/* Keep the table at most half full, so that probes stay short. */
static int grow(struct kvet_seen *seen)
{
	size_t cap = seen->cap ? seen->cap * 2 : 64, i;
	struct kvet_seen_entry *v;

	if (cap > SIZE_MAX / 2 / sizeof(*v))
		return -1;
	v = calloc(cap, sizeof(*v));
	if (!v)
		return -1;
	for (i = 0; i < seen->cap; i++)
		if (seen->v[i].name)
			*find(v, cap, seen->v[i].dev, seen->v[i].ino) =
				seen->v[i];
	free(seen->v);
	seen->v = v;
	seen->cap = cap;
	return 0;
}

int kvet_seen_add(struct kvet_seen *seen, dev_t dev, ino_t ino,
		  const char *name, const char **first)
{
	struct kvet_seen_entry *e;

	if ((seen->n + 1) * 2 > seen->cap && grow(seen) < 0)
		return -1;
	e = find(seen->v, seen->cap, dev, ino);
	if (e->name) {
		*first = e->name;
		return 0;
	}
	e->dev = dev;
	e->ino = ino;
	e->name = name;
	seen->n++;
	return 1;
}
