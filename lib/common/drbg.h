/* SPDX-License-Identifier: MIT */
/* The AES-256-CTR DRBG of the NIST PQC KAT generators (rng.c of the NIST submission
 * package: CTR_DRBG of SP 800-90A section 10.2.1 without derivation function, with
 * the package's simplifications: no reseed, no additional input, generate returns
 * the requested bytes from consecutive blocks and then updates once). */
#ifndef PQLAB_DRBG_H
#define PQLAB_DRBG_H

#include "pqlab_config.h" /* an export's configuration (docs/export.md); empty in the tree */

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint8_t key[32];
    uint8_t v[16];
    int reseed_counter;
} pqlab_drbg_state;

/* randombytes_init(entropy, personalization, 256); personalization: 48 bytes or NULL */
void pqlab_drbg_init(pqlab_drbg_state *st, const uint8_t entropy[48], const uint8_t *personalization);
/* randombytes(out, outlen) */
void pqlab_drbg_generate(pqlab_drbg_state *st, uint8_t *out, size_t outlen);

#endif
