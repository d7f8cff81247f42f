/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_BASE_BANNED_H
#define KVET_BASE_BANNED_H

/*
 * Functions with no bound on what they write, or with hidden state, fail
 * to compile inside the library (as git's banned.h does). Use snprintf,
 * memcpy with a checked length, strtol and the arena instead.
 *
 * It is force-included into every library file; the system headers that
 * declare these functions come first so that their prototypes survive.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BANNED(func) sorry_##func##_is_a_banned_function

#undef strcpy
#define strcpy(x, y) BANNED(strcpy)
#undef strcat
#define strcat(x, y) BANNED(strcat)
#undef sprintf
#define sprintf(...) BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) BANNED(vsprintf)
#undef strtok
#define strtok(x, y) BANNED(strtok)
#undef atoi
#define atoi(x) BANNED(atoi)
#undef gets
#define gets(x) BANNED(gets)

#endif
