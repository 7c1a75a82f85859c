/* SPDX-License-Identifier: MIT */
/* ML-KEM-768, stack-first variant: the same API as ../ref (FIPS 203), built from the same
 * source tree with -DPQLAB_MLKEM_SMALLSTACK (matrix entries one at a time, vectors kept
 * in their 12-bit encoding); symbols carry their own namespace (pqlab.toml). */
#include "../ref/api.h"
