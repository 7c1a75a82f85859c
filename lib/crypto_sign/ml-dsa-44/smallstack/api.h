/* SPDX-License-Identifier: MIT */
/* ML-DSA-44, stack-first build: the same API as ../ref (FIPS 204), built from the same
 * source tree with -DPQLAB_MLDSA_SMALLSTACK (key generation, signing and verification from
 * lib/mldsa/stream.c);
 * symbols carry their own namespace (pqlab.toml). */
#include "../ref/api.h"
