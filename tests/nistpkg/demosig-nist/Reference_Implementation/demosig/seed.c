/* SPDX-License-Identifier: MIT */
/* The key seed is drawn through the PQClean/mupq randombytes.h (size_t length), which
 * this folder does not carry: pqlab's lib/compat provides it. So the folder uses both
 * randombytes prototypes, each in its own translation unit. */
#include <stddef.h>
#include <stdint.h>

#include "randombytes.h"
#include "seed.h"

int demosig_seed(unsigned char *seed, size_t n) { return randombytes(seed, n); }
