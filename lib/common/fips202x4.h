/* SPDX-License-Identifier: MIT */
/* Four independent SHAKE instances with equal input lengths (batched for SIMD
 * backends). The portable build (fips202x4.c) runs the four lanes one after another.
 * Replacement points for a backend:
 *  - define PQLAB_KECCAKX4_NATIVE and provide every function below (then fips202x4.c
 *    compiles to nothing); or
 *  - define PQLAB_KECCAKF1600X4_NATIVE and provide only pqlab_keccakf1600x4, the
 *    four-way permutation; the portable sponge code then calls it. */
#ifndef PQLAB_FIPS202X4_H
#define PQLAB_FIPS202X4_H

#include "pqlab_config.h" /* an export's configuration (docs/export.md); empty in the tree */

#include <stddef.h>
#include <stdint.h>

#include "fips202.h"

typedef struct {
    pqlab_keccak_state lane[4];
} pqlab_keccakx4_state;

/* permutes lane[i].s for i = 0..3 */
void pqlab_keccakf1600x4(pqlab_keccakx4_state *st);

void pqlab_shake128x4_absorb_once(pqlab_keccakx4_state *st, const uint8_t *in0, const uint8_t *in1, const uint8_t *in2,
                                  const uint8_t *in3, size_t inlen);
/* The same as pqlab_shake128x4_absorb_once on the inputs prefix || in_i (i = 0..3): a prefix
 * common to the four lanes (a public seed, as ML-KEM's rho) absorbed once and the state
 * given to the other lanes (the Keccak lanes it reached, when shorter than the rate; else a
 * copy), then each lane's own inlen bytes. */
void pqlab_shake128x4_absorb_once_prefix(pqlab_keccakx4_state *st, const uint8_t *prefix, size_t prefixlen,
                                         const uint8_t *in0, const uint8_t *in1, const uint8_t *in2, const uint8_t *in3,
                                         size_t inlen);
void pqlab_shake128x4_squeezeblocks(uint8_t *out0, uint8_t *out1, uint8_t *out2, uint8_t *out3, size_t nblocks,
                                    pqlab_keccakx4_state *st);
/* The next block of lane `lane` (0..3) alone, the other lanes untouched (they may go on with
 * squeezeblocks or this function): for an instance that needs more output than the others
 * (rejection sampling), one permutation instead of four. */
void pqlab_shake128x4_squeezeblock_lane(uint8_t *out, unsigned int lane, pqlab_keccakx4_state *st);
void pqlab_shake256x4_absorb_once(pqlab_keccakx4_state *st, const uint8_t *in0, const uint8_t *in1, const uint8_t *in2,
                                  const uint8_t *in3, size_t inlen);
void pqlab_shake256x4_squeezeblocks(uint8_t *out0, uint8_t *out1, uint8_t *out2, uint8_t *out3, size_t nblocks,
                                    pqlab_keccakx4_state *st);
void pqlab_shake256x4(uint8_t *out0, uint8_t *out1, uint8_t *out2, uint8_t *out3, size_t outlen, const uint8_t *in0,
                      const uint8_t *in1, const uint8_t *in2, const uint8_t *in3, size_t inlen);

#endif
