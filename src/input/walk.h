/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_INPUT_WALK_H
#define KVET_INPUT_WALK_H

/* Shared by source.c and walk.c; nothing outside src/input includes it. */
#include <stdbool.h>
#include <sys/stat.h>

#include "input/source.h"

/* A new, zeroed source at the end of @srcs, or NULL when out of memory. */
struct kvet_source *kvet_sources_push(struct kvet_sources *srcs);

/* Does the file name end in .yaml, .yml or .json? */
bool kvet_manifest_name(const char *name);

/*
 * The files that make a directory the source of manifests rather than
 * manifests (helm.sh/docs/topics/charts: a chart has a Chart.yaml, the
 * first; kustomize reads the first of the other three it finds).
 */
#define KVET_PROJECT_FILES 4
extern const char *const kvet_project_files[KVET_PROJECT_FILES];

/* Does the file name end in .tgz, as a packaged chart's does? */
bool kvet_chart_archive_name(const char *name);

/* Is the file named as a chart's or a kustomization's own are
 * (Chart.yaml, a kustomization file, a YAML or JSON file whose name holds
 * "values")? Inside one, such a file is no object of its own: it stands
 * for the render of its unit. */
bool kvet_unit_file_name(const char *path);

/* Report @path as a duplicate of @first, met earlier (a note). */
void kvet_note_seen(struct kvet_diag *diag, const char *path,
		    const char *first, bool is_dir);

/*
 * kvet_walk_dir() - queue the files below the directory @root, whose
 * stat is @st and which is already in srcs->seen (see
 * kvet_sources_add_path()).
 * Returns: 0, or -1 when out of memory.
 */
int kvet_walk_dir(struct kvet_sources *srcs, struct kvet_arena *arena,
		  struct kvet_diag *diag, const char *root,
		  const struct stat *st);

#endif
