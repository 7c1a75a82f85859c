/* SPDX-License-Identifier: MIT */
/* Rounding of ML-DSA (FIPS 204 section 7.4, Algorithms 35-40): Power2Round,
 * Decompose, MakeHint, UseHint, and the infinity-norm check. All constant time:
 * no division instruction, no branch on coefficient values. */
#include "kernels.h"
#include "reduce.h"
#include "ct.h"
#include "rounding.h"

#define decompose mldsa_decompose

void mldsa_poly_power2round_c(int32_t a1[MLDSA_N], int32_t a0[MLDSA_N], const int32_t a[MLDSA_N])
{
    for (unsigned int i = 0; i < MLDSA_N; i++) {
        /* r0 = a mod+- 2^13 in (-2^12, 2^12], r1 = (a - r0) / 2^13 */
        const int32_t r1 = (a[i] + (1 << (MLDSA_D - 1)) - 1) >> MLDSA_D;
        a0[i] = a[i] - (r1 << MLDSA_D);
        a1[i] = r1;
    }
}

void mldsa_poly_decompose_c(int32_t *a1, int32_t *a0, const int32_t a[MLDSA_N])
{
    for (unsigned int i = 0; i < MLDSA_N; i++) {
        int32_t r0;
        const int32_t r1 = decompose(&r0, a[i]);
        if (a1 != NULL) {
            a1[i] = r1;
        }
        if (a0 != NULL) {
            a0[i] = r0;
        }
    }
}

/* MakeHint from the low bits (kernels.h): with s = a0 + d, h = 1 unless -gamma2 < s <=
 * gamma2, or s = -gamma2 and a1 = 0. (uint32_t)(s + gamma2 - 1) < 2 gamma2 is the first
 * range; s + gamma2 = 0 with a1 = 0 the second. */
unsigned int mldsa_poly_make_hint_low_c(int32_t h[MLDSA_N], const int32_t a0[MLDSA_N], const int32_t d[MLDSA_N],
                                        const int32_t a1[MLDSA_N])
{
    unsigned int count = 0;
    for (unsigned int i = 0; i < MLDSA_N; i++) {
        const uint32_t s = (uint32_t)a0[i] + (uint32_t)d[i] + (uint32_t)MLDSA_GAMMA2;
        const uint32_t inside = (uint32_t)((s - 1u) < 2u * (uint32_t)MLDSA_GAMMA2);
        const uint32_t edge = pqlab_ct_is_zero_u32(s) & pqlab_ct_is_zero_u32((uint32_t)a1[i]);
        const uint32_t bit = 1u ^ (inside | edge);
        h[i] = (int32_t)bit;
        count += bit;
    }
    return count;
}

unsigned int mldsa_poly_make_hint_c(int32_t h[MLDSA_N], const int32_t r[MLDSA_N], const int32_t d[MLDSA_N])
{
    unsigned int count = 0;
    for (unsigned int i = 0; i < MLDSA_N; i++) {
        int32_t dummy;
        /* r + d in (-2^22, q + 2^22): inside mldsa_freeze's range */
        const int32_t v1 = decompose(&dummy, mldsa_freeze(r[i] + d[i]));
        const int32_t r1 = decompose(&dummy, r[i]);
        const uint32_t bit = 1u ^ pqlab_ct_is_zero_u32((uint32_t)(v1 ^ r1));
        h[i] = (int32_t)bit;
        count += bit;
    }
    return count;
}

void mldsa_poly_use_hint_c(int32_t b[MLDSA_N], const int32_t a[MLDSA_N], const uint8_t h[MLDSA_N])
{
    for (unsigned int i = 0; i < MLDSA_N; i++) {
        int32_t r0;
        int32_t v = decompose(&r0, a[i]);
        /* delta = +1 when r0 > 0, -1 otherwise; only when the hint is set */
        const int32_t pos = (int32_t)((uint32_t)(-r0) >> 31); /* 1 iff r0 > 0 */
        const int32_t delta = (2 * pos - 1) & -(int32_t)(h[i] & 1u);
        v += delta;               /* in [-1, M] */
        v += (v >> 31) & MLDSA_M; /* in [0, M] */
        v -= MLDSA_M;             /* in [-M, 0] */
        v += (v >> 31) & MLDSA_M; /* in [0, M) */
        b[i] = v;
    }
}

uint32_t mldsa_poly_chknorm_c(const int32_t a[MLDSA_N], int32_t bound)
{
    uint32_t bad = 0;
    for (unsigned int i = 0; i < MLDSA_N; i++) {
        const int32_t s = a[i] >> 31;
        const int32_t abs = (a[i] ^ s) - s;
        /* bound - 1 - abs < 0 exactly when abs >= bound */
        bad |= (uint32_t)(bound - 1 - abs) >> 31;
    }
    return bad;
}
