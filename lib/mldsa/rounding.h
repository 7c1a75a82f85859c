/* SPDX-License-Identifier: MIT */
/* Decompose (FIPS 204 Algorithm 36) on one coefficient, constant time (no division, no
 * branch on the value): shared by rounding.c's kernels and the stack-first signing
 * (stream.c), which works on coefficients kept in 3 bytes. */
#ifndef PQLAB_MLDSA_ROUNDING_H
#define PQLAB_MLDSA_ROUNDING_H

#include <stdint.h>

#include "ct.h"
#include "params.h"

#define MLDSA_M ((MLDSA_Q - 1) / (2 * MLDSA_GAMMA2)) /* 44 or 16 high-bit values */

/* floor(x / (2 gamma2)) as (x * MUL) >> SHIFT, exact for 0 <= x < q + gamma2
 * (checked exhaustively by tests/test_mldsa_kernels.py and gen_tables.py). */
#if MLDSA_GAMMA2 == (MLDSA_Q - 1) / 88
#define DEC_MUL 2886403u
#define DEC_SHIFT 39
#else
#define DEC_MUL 16793617u
#define DEC_SHIFT 43
#endif

/* Decompose(a) for 0 <= a < q (Algorithm 36). r0 = a mod+- 2 gamma2 lies in
 * (-gamma2, gamma2] exactly when r1' = floor((a + gamma2 - 1) / (2 gamma2)); the
 * case a - r0 = q - 1 (r1' = M) maps to r1 = 0, r0 - 1. */
static inline int32_t mldsa_decompose(int32_t *r0, int32_t a)
{
    const uint32_t x = (uint32_t)a + (uint32_t)MLDSA_GAMMA2 - 1u;
    const int32_t r1p = (int32_t)(((uint64_t)x * DEC_MUL) >> DEC_SHIFT);
    const uint32_t top = pqlab_ct_is_zero_u32((uint32_t)(r1p ^ MLDSA_M));
    *r0 = a - r1p * 2 * MLDSA_GAMMA2 - (int32_t)top;
    return r1p & ~(int32_t)pqlab_ct_mask_u32(top);
}

#endif
