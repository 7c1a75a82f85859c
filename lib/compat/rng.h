/* SPDX-License-Identifier: MIT */
/* Compat: the rng.h of the NIST PQC submission packages, for a folder that includes it
 * without carrying it (a folder's own rng.h is found first and is used as it is).
 * randombytes takes the NIST arguments and is the symbol pqlab_nist_randombytes
 * (compat_randombytes.c), never the size_t randombytes of randombytes.h: the two
 * prototypes pass the length differently on 32-bit targets. The AES-256 seed expander
 * of rng.c is nistseedexpander.h's (same context layout as rng.h's AES_XOF_struct).
 * randombytes_init is not provided: the harness seeds pqlab's DRBG itself. */
#ifndef PQLAB_COMPAT_NIST_RNG_H
#define PQLAB_COMPAT_NIST_RNG_H

#include "nistseedexpander.h"

#define randombytes pqlab_nist_randombytes
/* fills x[0..xlen-1]; returns 0 (RNG_SUCCESS) on success */
int randombytes(unsigned char *x, unsigned long long xlen);

#endif
