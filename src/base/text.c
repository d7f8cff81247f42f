/* SPDX-License-Identifier: Apache-2.0 */
#include "base/text.h"

#include <string.h>

const char *kvet_a_an(const char *word)
{
	return word && *word && strchr("aeiouAEIOU", *word) ? "an" : "a";
}
