/* SPDX-License-Identifier: MIT */
/* ML-DSA signing's small-modulus NTT (p = 7681, 16-bit coefficients, R = 2^16) for c s1 and
 * c s2 with Advanced SIMD, eight coefficients per vector: the kernels poly_ntt16 and
 * poly_mul16_add of lib/mldsa/kernels.h, the same butterflies, reductions and values as
 * lib/mldsa/ntt16.c bit for bit (so the same int16 bounds, lib/mldsa/gen_ntt16.py).
 *
 * mont16(x) = (x + m p) / 2^16 with m the signed low half of x (-p^-1), exactly the C's:
 * x = a z is formed in 32-bit lanes (SMULL, exact), its low half in 16-bit lanes (MUL, the
 * same bits), m = MUL(low, -p^-1), x + m p by SMLAL, and the result is the high halves
 * (UZP2). The C's inputs keep x + m p inside int32, so no lane wraps. The C forms the
 * inverse butterflies' differences u - v (and the last layer's u + v) in int32; they are
 * bounded by the same bound as the sums it stores as int16 (gen_ntt16.py's inverse_bounds,
 * every one < 2^15, checked by its check()), so the 16-bit differences here are exact.
 *
 * Layers of distance >= 8 pair whole vectors; the distances 4, 2, 1 work on two vectors
 * transposed with TRN1 / TRN2 on 64-, 32- and 16-bit elements (transposed back the same way).
 * The twiddle factor of every butterfly is read in lane order from mldsa_ntt16_tables.h
 * (gen_mldsa_ntt16.py). Constant time: no branch or address depends on the coefficients. */
#include <arm_neon.h>
#include <stdint.h>

#include "mldsa_neon.h"
#include "mldsa_ntt16_tables.h"

#define NTT16_P 7681
#define NTT16_NINV 7679      /* -p^-1 mod 2^16 (lib/mldsa/ntt16.c) */
#define NTT16_F 183          /* 2^96 / 256 mod p, centred */
#define NTT16_F_LAST (-3072) /* -zetas16[1] F 2^-16 mod p, centred */

/* (x + m p) >> 16 for x = (xl, xh) in 32-bit lanes with low halves lo */
static inline int16x8_t mont16_x(int32x4_t xl, int32x4_t xh, int16x8_t lo)
{
    const int16x8_t m = vmulq_n_s16(lo, NTT16_NINV);
    xl = vmlal_n_s16(xl, vget_low_s16(m), NTT16_P);
    xh = vmlal_high_n_s16(xh, m, NTT16_P);
    return vuzp2q_s16(vreinterpretq_s16_s32(xl), vreinterpretq_s16_s32(xh));
}

/* mont16(a b), a b exact in 32 bits */
static inline int16x8_t mont16_mul(int16x8_t a, int16x8_t b)
{
    return mont16_x(vmull_s16(vget_low_s16(a), vget_low_s16(b)), vmull_high_s16(a, b), vmulq_s16(a, b));
}

/* mont16(a) of every coefficient */
static inline int16x8_t mont16_one(int16x8_t a)
{
    return mont16_x(vmovl_s16(vget_low_s16(a)), vmovl_high_s16(a), a);
}

static inline void ntt16_fwd_bf(int16x8_t *a, int16x8_t *b, int16x8_t z)
{
    const int16x8_t t = mont16_mul(*b, z);
    *b = vsubq_s16(*a, t);
    *a = vaddq_s16(*a, t);
}

static inline void ntt16_inv_bf(int16x8_t *a, int16x8_t *b, int16x8_t z)
{
    const int16x8_t u = *a;
    *a = vaddq_s16(u, *b);
    *b = mont16_mul(vsubq_s16(u, *b), z);
}

static void ntt16_reduce_all(int16_t r[256])
{
    for (unsigned int i = 0; i < 256; i += 8) {
        vst1q_s16(r + i, mont16_one(vld1q_s16(r + i)));
    }
}

/* one layer of distance len >= 8 */
static inline void ntt16_layer_wide(int16_t r[256], unsigned int len, const int16_t *zl, int inverse)
{
    unsigned int k = 0;
    for (unsigned int start = 0; start < 256; start += 2 * len) {
        for (unsigned int j = start; j < start + len; j += 8, k += 8) {
            int16x8_t a = vld1q_s16(r + j), b = vld1q_s16(r + j + len);
            const int16x8_t z = vld1q_s16(zl + k);
            if (inverse) {
                ntt16_inv_bf(&a, &b, z);
            } else {
                ntt16_fwd_bf(&a, &b, z);
            }
            vst1q_s16(r + j, a);
            vst1q_s16(r + j + len, b);
        }
    }
}

/* transposes of two vectors v0, v1 (coefficients i..i+15) into the butterflies' operands
 * A, B = A + len and back (TRN1 / TRN2 are their own inverse on such a pair) */
#define NTT16_TRN_PAIR(bits, x, y, a, b)                                                                               \
    do {                                                                                                               \
        a = vreinterpretq_s16_s##bits(vtrn1q_s##bits(vreinterpretq_s##bits##_s16(x), vreinterpretq_s##bits##_s16(y))); \
        b = vreinterpretq_s16_s##bits(vtrn2q_s##bits(vreinterpretq_s##bits##_s16(x), vreinterpretq_s##bits##_s16(y))); \
    } while (0)

static inline void ntt16_layer_narrow(int16_t r[256], unsigned int len, const int16_t *zl, int inverse)
{
    for (unsigned int i = 0, k = 0; i < 256; i += 16, k += 8) {
        const int16x8_t v0 = vld1q_s16(r + i), v1 = vld1q_s16(r + i + 8);
        const int16x8_t z = vld1q_s16(zl + k);
        int16x8_t a, b, w0, w1;
        if (len == 4) {
            NTT16_TRN_PAIR(64, v0, v1, a, b);
        } else if (len == 2) {
            NTT16_TRN_PAIR(32, v0, v1, a, b);
        } else {
            a = vtrn1q_s16(v0, v1);
            b = vtrn2q_s16(v0, v1);
        }
        if (inverse) {
            ntt16_inv_bf(&a, &b, z);
        } else {
            ntt16_fwd_bf(&a, &b, z);
        }
        if (len == 4) {
            NTT16_TRN_PAIR(64, a, b, w0, w1);
        } else if (len == 2) {
            NTT16_TRN_PAIR(32, a, b, w0, w1);
        } else {
            w0 = vtrn1q_s16(a, b);
            w1 = vtrn2q_s16(a, b);
        }
        vst1q_s16(r + i, w0);
        vst1q_s16(r + i + 8, w1);
    }
}

void pqlab_mldsa_ntt16_neon(int16_t r[256], const int32_t a[256])
{
    for (unsigned int n = 0; n < 256; n += 8) {
        const int16x4_t lo = vmovn_s32(vld1q_s32(a + n));
        vst1q_s16(r + n, vmovn_high_s32(lo, vld1q_s32(a + n + 4)));
    }
    ntt16_layer_wide(r, 128, ntt16_fwd_lanes[0], 0);
    ntt16_layer_wide(r, 64, ntt16_fwd_lanes[1], 0);
    ntt16_layer_wide(r, 32, ntt16_fwd_lanes[2], 0);
    ntt16_layer_wide(r, 16, ntt16_fwd_lanes[3], 0);
    ntt16_layer_wide(r, 8, ntt16_fwd_lanes[4], 0);
    ntt16_layer_narrow(r, 4, ntt16_fwd_lanes[5], 0);
    ntt16_reduce_all(r);
    ntt16_layer_narrow(r, 2, ntt16_fwd_lanes[6], 0);
    ntt16_layer_narrow(r, 1, ntt16_fwd_lanes[7], 0);
}

void pqlab_mldsa_mul16_add_neon(int32_t r[256], const int32_t base[256], const int16_t a[256], const int16_t b[256])
{
    int16_t t[256];
    for (unsigned int n = 0; n < 256; n += 8) {
        vst1q_s16(t + n, mont16_mul(vld1q_s16(a + n), vld1q_s16(b + n)));
    }
    ntt16_layer_narrow(t, 1, ntt16_inv_lanes[0], 1);
    ntt16_layer_narrow(t, 2, ntt16_inv_lanes[1], 1);
    ntt16_reduce_all(t);
    ntt16_layer_narrow(t, 4, ntt16_inv_lanes[2], 1);
    ntt16_layer_wide(t, 8, ntt16_inv_lanes[3], 1);
    ntt16_layer_wide(t, 16, ntt16_inv_lanes[4], 1);
    ntt16_reduce_all(t);
    ntt16_layer_wide(t, 32, ntt16_inv_lanes[5], 1);
    ntt16_layer_wide(t, 64, ntt16_inv_lanes[6], 1);
    /* the last layer (len = 128) merged with the scaling */
    for (unsigned int j = 0; j < 128; j += 8) {
        const int16x8_t u = vld1q_s16(t + j), v = vld1q_s16(t + j + 128);
        const int16x8_t x0 = mont16_mul(vaddq_s16(u, v), vdupq_n_s16(NTT16_F));
        const int16x8_t x1 = mont16_mul(vsubq_s16(u, v), vdupq_n_s16(NTT16_F_LAST));
        vst1q_s32(r + j, vaddw_s16(vld1q_s32(base + j), vget_low_s16(x0)));
        vst1q_s32(r + j + 4, vaddw_high_s16(vld1q_s32(base + j + 4), x0));
        vst1q_s32(r + j + 128, vaddw_s16(vld1q_s32(base + j + 128), vget_low_s16(x1)));
        vst1q_s32(r + j + 132, vaddw_high_s16(vld1q_s32(base + j + 132), x1));
    }
}
