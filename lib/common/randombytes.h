/* SPDX-License-Identifier: MIT */
/* Source of randomness for the library. The harness (or the application) provides
 * it: a DRBG for deterministic tests and KATs, a hardware RNG on a board. */
#ifndef PQLAB_RANDOMBYTES_H
#define PQLAB_RANDOMBYTES_H

#include "pqlab_config.h" /* an export's configuration (docs/export.md); empty in the tree */

#include <stddef.h>
#include <stdint.h>

/* fills out[0..n-1]; returns 0 on success, nonzero on failure */
int pqlab_randombytes(uint8_t *out, size_t n);

#endif
