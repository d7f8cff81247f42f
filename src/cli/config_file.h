/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_CLI_CONFIG_FILE_H
#define KVET_CLI_CONFIG_FILE_H

#include <stddef.h>
#include <stdio.h>

#include "kvet/kvet.h"

#define KVET_CONFIG_NAME ".kvet.yaml"

/*
 * kvet_config_find() - the nearest .kvet.yaml from the working directory
 * upward, as git finds its repository, stopping at the top of a git
 * repository.
 * @buf: receives the path, relative to the working directory
 *       (".kvet.yaml", "../.kvet.yaml").
 * Returns: @buf, or NULL when there is none.
 */
const char *kvet_config_find(char *buf, size_t size);

/*
 * kvet_config_init() - write the commented default configuration to
 * @path ("-": standard output), refusing to replace an existing file.
 */
enum kvet_exit kvet_config_init(const char *path, FILE *err);

#endif
