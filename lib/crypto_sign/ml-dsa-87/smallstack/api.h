/* SPDX-License-Identifier: MIT */
/* ML-DSA-87, small-stack variant: the same API as ../ref (FIPS 204), built from the same
 * source tree with -DPQLAB_MLDSA_SMALLSTACK (rows of A regenerated instead of stored);
 * symbols carry their own namespace (pqlab.toml). */
#include "../ref/api.h"
