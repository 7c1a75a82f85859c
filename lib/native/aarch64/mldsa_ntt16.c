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

/* mul16_add's inverse transform: Montgomery products a z 2^-16 in the SQDMULH form of mldsa_ntt.c,
 * (SQDMULH(a, z) - SQDMULH(t, p)) / 2 with t = a z p^-1 mod 2^16 (signed): exactly (a z - t p) / 2^16.
 * The C's mont16 forms (a z + m p) / 2^16 with m = -t as an int16, the same value except when
 * t = -2^15 (then m = t and the C's value is this one minus p): another representative of a z 2^-16
 * with the same bound (|a z| + 2^15 p) / 2^16, so every bound of gen_ntt16.py's inverse_bounds holds
 * and the output x stays within |x| <= 5280, kernels.h's contract; x equals the C's whenever the
 * product's coefficients are below 2400 (signing's c s1, c s2), where the representative is unique. */
#define NTT16_PINV (-7679) /* p^-1 mod 2^16 as int16 */
static inline int16x8_t mont16_q(int16x8_t a, int16x8_t z, int16x8_t zq)
{
    return vhsubq_s16(vqdmulhq_s16(a, z), vqdmulhq_n_s16(vmulq_s16(a, zq), NTT16_P));
}
/* a 2^-16 (the C's reduction points) */
static inline int16x8_t mont16_red(int16x8_t a)
{
    return vhsubq_s16(vqdmulhq_n_s16(a, 1), vqdmulhq_n_s16(vmulq_n_s16(a, NTT16_PINV), NTT16_P));
}
#define INV_BF(a, b, zl, zq, k)                                                                                        \
    do {                                                                                                               \
        const int16x8_t u_ = (a);                                                                                      \
        (a) = vaddq_s16(u_, (b));                                                                                      \
        (b) = mont16_q(vsubq_s16(u_, (b)), vld1q_s16((zl) + (k)), vld1q_s16((zq) + (k)));                              \
    } while (0)
/* the lane-table index of the butterfly whose first operand is coefficient e in a layer of
 * distance len >= 8 (gen_mldsa_ntt16.py's lanes()) */
#define WIDE_K(e, len) (((e) / (2 * (len))) * (len) + (e) % (2 * (len)))

void pqlab_mldsa_mul16_add_neon(int32_t r[256], const int32_t base[256], const int16_t a[256], const int16_t b[256])
{
    int16_t t[256];
    /* the product and the layers len = 1, 2, (reduction), 4, 8 per 16 coefficients, in registers */
    for (unsigned int i = 0, k = 0; i < 256; i += 16, k += 8) {
        const int16x8_t a0 = vld1q_s16(a + i), a1 = vld1q_s16(a + i + 8);
        const int16x8_t b0 = vld1q_s16(b + i), b1 = vld1q_s16(b + i + 8);
        int16x8_t v0 =
            vhsubq_s16(vqdmulhq_s16(a0, b0), vqdmulhq_n_s16(vmulq_n_s16(vmulq_s16(a0, b0), NTT16_PINV), NTT16_P));
        int16x8_t v1 =
            vhsubq_s16(vqdmulhq_s16(a1, b1), vqdmulhq_n_s16(vmulq_n_s16(vmulq_s16(a1, b1), NTT16_PINV), NTT16_P));
        int16x8_t x, y;
        x = vtrn1q_s16(v0, v1);
        y = vtrn2q_s16(v0, v1);
        INV_BF(x, y, ntt16_inv_lanes[0], ntt16_inv_lanes_pinv[0], k);
        v0 = vtrn1q_s16(x, y);
        v1 = vtrn2q_s16(x, y);
        NTT16_TRN_PAIR(32, v0, v1, x, y);
        INV_BF(x, y, ntt16_inv_lanes[1], ntt16_inv_lanes_pinv[1], k);
        NTT16_TRN_PAIR(32, x, y, v0, v1);
        v0 = mont16_red(v0);
        v1 = mont16_red(v1);
        NTT16_TRN_PAIR(64, v0, v1, x, y);
        INV_BF(x, y, ntt16_inv_lanes[2], ntt16_inv_lanes_pinv[2], k);
        NTT16_TRN_PAIR(64, x, y, v0, v1);
        INV_BF(v0, v1, ntt16_inv_lanes[3], ntt16_inv_lanes_pinv[3], k);
        vst1q_s16(t + i, v0);
        vst1q_s16(t + i + 8, v1);
    }
    /* len = 16, (reduction), 32, 64 and the last layer (len = 128) merged with the scaling: two
     * passes of 16 vectors, vector m of pass j holding the coefficients 16 m + 8 j .. + 7 */
    const int16x8_t f = vdupq_n_s16(NTT16_F), fq = vdupq_n_s16((int16_t)(NTT16_F * NTT16_PINV));
    const int16x8_t fl = vdupq_n_s16(NTT16_F_LAST), flq = vdupq_n_s16((int16_t)(NTT16_F_LAST * NTT16_PINV));
    for (unsigned int j = 0; j < 16; j += 8) {
        int16x8_t v[16];
        for (unsigned int m = 0; m < 16; m++) {
            v[m] = vld1q_s16(t + 16 * m + j);
        }
        for (unsigned int m = 0; m < 16; m += 2) {
            INV_BF(v[m], v[m + 1], ntt16_inv_lanes[4], ntt16_inv_lanes_pinv[4], WIDE_K(16 * m + j, 16));
        }
        for (unsigned int m = 0; m < 16; m++) {
            v[m] = mont16_red(v[m]);
        }
        for (unsigned int m = 0; m < 16; m += (m % 4 == 1) ? 3 : 1) {
            INV_BF(v[m], v[m + 2], ntt16_inv_lanes[5], ntt16_inv_lanes_pinv[5], WIDE_K(16 * m + j, 32));
        }
        for (unsigned int m = 0; m < 16; m += (m % 8 == 3) ? 5 : 1) {
            INV_BF(v[m], v[m + 4], ntt16_inv_lanes[6], ntt16_inv_lanes_pinv[6], WIDE_K(16 * m + j, 64));
        }
        for (unsigned int m = 0; m < 8; m++) {
            const unsigned int e = 16 * m + j;
            const int16x8_t x0 = mont16_q(vaddq_s16(v[m], v[m + 8]), f, fq);
            const int16x8_t x1 = mont16_q(vsubq_s16(v[m], v[m + 8]), fl, flq);
            vst1q_s32(r + e, vaddw_s16(vld1q_s32(base + e), vget_low_s16(x0)));
            vst1q_s32(r + e + 4, vaddw_high_s16(vld1q_s32(base + e + 4), x0));
            vst1q_s32(r + e + 128, vaddw_s16(vld1q_s32(base + e + 128), vget_low_s16(x1)));
            vst1q_s32(r + e + 132, vaddw_high_s16(vld1q_s32(base + e + 132), x1));
        }
    }
}
