/* SPDX-License-Identifier: MIT */
/* ML-DSA signing's small-modulus NTT (p = 7681, 16-bit coefficients, R = 2^16) for c s1 and
 * c s2 with Advanced SIMD, eight coefficients per vector: the kernels poly_ntt16 and
 * poly_mul16_add of lib/mldsa/kernels.h, the butterflies and reduction points of
 * lib/mldsa/ntt16.c (so gen_ntt16.py's int16 bounds hold).
 *
 * Montgomery products a z 2^-16 in the SQDMULH form of mldsa_ntt.c: (SQDMULH(a, z) -
 * SQDMULH(t, p)) / 2 (SHSUB) with t = a z p^-1 mod 2^16 (MUL by z p^-1 from the lane tables),
 * exactly (a z - t p) / 2^16. The C's mont16 forms (a z + m p) / 2^16 with m = -t as an int16:
 * the same value except when t = -2^15 (then m = t and the C's value is this one minus p), so
 * another representative of a z 2^-16 with the same bound (|a z| + 2^15 p) / 2^16; every bound of
 * gen_ntt16.py's forward_bounds / inverse_bounds holds as for the C, ntt16's output stays within
 * |r| <= 12206 and mul16_add's x within |x| <= 5280 (kernels.h's contract: any representative),
 * and x equals the C's whenever the product's coefficients are below 2400 (signing's c s1, c s2),
 * where the representative is unique. The C forms the inverse butterflies' differences u - v
 * (and the last layer's u + v) in int32; they are bounded like the sums it stores as int16
 * (< 2^15, gen_ntt16.py's check()), so the 16-bit differences here are exact.
 *
 * Layers are merged in registers: distances 128 .. 16 in two passes of 16 vectors, distances
 * 8 .. 1 per 16 coefficients (two vectors), the distances 4, 2, 1 transposed with TRN1 / TRN2 on
 * 64-, 32- and 16-bit elements (transposed back the same way). The twiddle factor of every
 * butterfly and its p^-1 product are read in lane order from mldsa_ntt16_tables.h
 * (gen_mldsa_ntt16.py). Constant time: no branch or address depends on the coefficients. */
#include <arm_neon.h>
#include <stdint.h>

#include "mldsa_neon.h"
#include "mldsa_ntt16_tables.h"

#define NTT16_P 7681
#define NTT16_F 183          /* 2^96 / 256 mod p, centred */
#define NTT16_F_LAST (-3072) /* -zetas16[1] F 2^-16 mod p, centred */

/* transposes of two vectors v0, v1 (coefficients i..i+15) into the butterflies' operands
 * A, B = A + len and back (TRN1 / TRN2 are their own inverse on such a pair) */
#define NTT16_TRN_PAIR(bits, x, y, a, b)                                                                               \
    do {                                                                                                               \
        a = vreinterpretq_s16_s##bits(vtrn1q_s##bits(vreinterpretq_s##bits##_s16(x), vreinterpretq_s##bits##_s16(y))); \
        b = vreinterpretq_s16_s##bits(vtrn2q_s##bits(vreinterpretq_s##bits##_s16(x), vreinterpretq_s##bits##_s16(y))); \
    } while (0)

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
#define NTT16_INV_BF(a, b, zl, zq, k)                                                                                  \
    do {                                                                                                               \
        const int16x8_t u_ = (a);                                                                                      \
        (a) = vaddq_s16(u_, (b));                                                                                      \
        (b) = mont16_q(vsubq_s16(u_, (b)), vld1q_s16((zl) + (k)), vld1q_s16((zq) + (k)));                              \
    } while (0)
/* the lane-table index of the butterfly whose first operand is coefficient e in a layer of
 * distance len >= 8 (gen_mldsa_ntt16.py's lanes()) */
#define NTT16_WIDE_K(e, len) (((e) / (2 * (len))) * (len) + (e) % (2 * (len)))

#define NTT16_FWD_BF(a, b, zl, zq, k)                                                                                  \
    do {                                                                                                               \
        const int16x8_t t_ = mont16_q((b), vld1q_s16((zl) + (k)), vld1q_s16((zq) + (k)));                              \
        (b) = vsubq_s16((a), t_);                                                                                      \
        (a) = vaddq_s16((a), t_);                                                                                      \
    } while (0)

/* the forward transform with the same Montgomery products as mul16_add's inverse: the C's
 * butterflies and reduction point with other representatives of the same bounds (gen_ntt16.py's
 * forward_bounds), within kernels.h's output bound |r| <= 12206 */
void pqlab_mldsa_ntt16_neon(int16_t r[256], const int32_t a[256])
{
    /* len = 128, 64, 32, 16: two passes of 16 vectors, vector m of pass j holding the coefficients
     * 16 m + j .. + 7 */
    for (unsigned int j = 0; j < 16; j += 8) {
        int16x8_t v[16];
        for (unsigned int m = 0; m < 16; m++) {
            v[m] = vcombine_s16(vmovn_s32(vld1q_s32(a + 16 * m + j)), vmovn_s32(vld1q_s32(a + 16 * m + j + 4)));
        }
        for (unsigned int m = 0; m < 8; m++) {
            NTT16_FWD_BF(v[m], v[m + 8], ntt16_fwd_lanes[0], ntt16_fwd_lanes_pinv[0], NTT16_WIDE_K(16 * m + j, 128));
        }
        for (unsigned int m = 0; m < 16; m += (m % 8 == 3) ? 5 : 1) {
            NTT16_FWD_BF(v[m], v[m + 4], ntt16_fwd_lanes[1], ntt16_fwd_lanes_pinv[1], NTT16_WIDE_K(16 * m + j, 64));
        }
        for (unsigned int m = 0; m < 16; m += (m % 4 == 1) ? 3 : 1) {
            NTT16_FWD_BF(v[m], v[m + 2], ntt16_fwd_lanes[2], ntt16_fwd_lanes_pinv[2], NTT16_WIDE_K(16 * m + j, 32));
        }
        for (unsigned int m = 0; m < 16; m += 2) {
            NTT16_FWD_BF(v[m], v[m + 1], ntt16_fwd_lanes[3], ntt16_fwd_lanes_pinv[3], NTT16_WIDE_K(16 * m + j, 16));
        }
        for (unsigned int m = 0; m < 16; m++) {
            vst1q_s16(r + 16 * m + j, v[m]);
        }
    }
    /* len = 8, 4, (reduction), 2, 1 per 16 coefficients */
    for (unsigned int i = 0, k = 0; i < 256; i += 16, k += 8) {
        int16x8_t v0 = vld1q_s16(r + i), v1 = vld1q_s16(r + i + 8), x, y;
        NTT16_FWD_BF(v0, v1, ntt16_fwd_lanes[4], ntt16_fwd_lanes_pinv[4], k);
        NTT16_TRN_PAIR(64, v0, v1, x, y);
        NTT16_FWD_BF(x, y, ntt16_fwd_lanes[5], ntt16_fwd_lanes_pinv[5], k);
        NTT16_TRN_PAIR(64, x, y, v0, v1);
        v0 = mont16_red(v0);
        v1 = mont16_red(v1);
        NTT16_TRN_PAIR(32, v0, v1, x, y);
        NTT16_FWD_BF(x, y, ntt16_fwd_lanes[6], ntt16_fwd_lanes_pinv[6], k);
        NTT16_TRN_PAIR(32, x, y, v0, v1);
        x = vtrn1q_s16(v0, v1);
        y = vtrn2q_s16(v0, v1);
        NTT16_FWD_BF(x, y, ntt16_fwd_lanes[7], ntt16_fwd_lanes_pinv[7], k);
        vst1q_s16(r + i, vtrn1q_s16(x, y));
        vst1q_s16(r + i + 8, vtrn2q_s16(x, y));
    }
}

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
        NTT16_INV_BF(x, y, ntt16_inv_lanes[0], ntt16_inv_lanes_pinv[0], k);
        v0 = vtrn1q_s16(x, y);
        v1 = vtrn2q_s16(x, y);
        NTT16_TRN_PAIR(32, v0, v1, x, y);
        NTT16_INV_BF(x, y, ntt16_inv_lanes[1], ntt16_inv_lanes_pinv[1], k);
        NTT16_TRN_PAIR(32, x, y, v0, v1);
        v0 = mont16_red(v0);
        v1 = mont16_red(v1);
        NTT16_TRN_PAIR(64, v0, v1, x, y);
        NTT16_INV_BF(x, y, ntt16_inv_lanes[2], ntt16_inv_lanes_pinv[2], k);
        NTT16_TRN_PAIR(64, x, y, v0, v1);
        NTT16_INV_BF(v0, v1, ntt16_inv_lanes[3], ntt16_inv_lanes_pinv[3], k);
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
            NTT16_INV_BF(v[m], v[m + 1], ntt16_inv_lanes[4], ntt16_inv_lanes_pinv[4], NTT16_WIDE_K(16 * m + j, 16));
        }
        for (unsigned int m = 0; m < 16; m++) {
            v[m] = mont16_red(v[m]);
        }
        for (unsigned int m = 0; m < 16; m += (m % 4 == 1) ? 3 : 1) {
            NTT16_INV_BF(v[m], v[m + 2], ntt16_inv_lanes[5], ntt16_inv_lanes_pinv[5], NTT16_WIDE_K(16 * m + j, 32));
        }
        for (unsigned int m = 0; m < 16; m += (m % 8 == 3) ? 5 : 1) {
            NTT16_INV_BF(v[m], v[m + 4], ntt16_inv_lanes[6], ntt16_inv_lanes_pinv[6], NTT16_WIDE_K(16 * m + j, 64));
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
