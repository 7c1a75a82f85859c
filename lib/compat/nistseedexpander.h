/* SPDX-License-Identifier: MIT */
/* Compat: the AES-256 seed expander of the NIST PQC package (rng.c), used by some
 * submissions to expand a 32-byte seed. Behaviour as in rng.c: the counter block is
 * diversifier (8 bytes) || maxlen (32-bit big endian) || block counter (32-bit big
 * endian, from 0); a request must be shorter than the remaining length. */
#ifndef NISTSEEDEXPANDER_H
#define NISTSEEDEXPANDER_H

#include <stddef.h>
#include <stdint.h>

#define NISTSEEDEXPANDER_SEED_LEN 32

#define RNG_SUCCESS (0)
#define RNG_BAD_MAXLEN (-1)
#define RNG_BAD_OUTBUF (-2)
#define RNG_BAD_REQ_LEN (-3)

typedef struct {
    uint8_t buffer[16];
    size_t buffer_pos;
    size_t length_remaining;
    uint8_t key[NISTSEEDEXPANDER_SEED_LEN];
    uint8_t ctr[16];
} AES_XOF_struct;

/* maxlen must be below 2^32 (else RNG_BAD_MAXLEN) */
int seedexpander_init(AES_XOF_struct *ctx, const uint8_t *seed, const uint8_t *diversifier, size_t maxlen);
int seedexpander(AES_XOF_struct *ctx, uint8_t *x, size_t xlen);

#endif
