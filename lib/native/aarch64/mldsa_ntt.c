/* SPDX-License-Identifier: MIT */
/* ML-DSA (FIPS 204 section 7.5, Algorithms 41, 42, 45) NTT, inverse NTT and pointwise
 * products with Advanced SIMD, four 32-bit coefficients per vector. Contract:
 * lib/mldsa/kernels.h (q = 8380417, R = 2^32).
 *
 * Montgomery multiplication in 32-bit lanes, exactly lib/mldsa/reduce.h's
 * mldsa_montgomery_reduce(a z) = (a z - t q) / 2^32 with t = a z q^-1 mod 2^32:
 *   hi = SQDMULH(a, z) = floor(2 a z / 2^32), t = MUL(a, z q^-1) (low half; z q^-1 mod 2^32
 *   comes from the table next to z), tq = SQDMULH(t, q), r = SHSUB(hi, tq) = (hi - tq) >> 1.
 * a z and t q agree modulo 2^32, so 2 a z and 2 t q agree in their low 33 bits and
 * hi - tq = (2 a z - 2 t q) / 2^32 exactly; r = (a z - t q) / 2^32, the C's value. SQDMULH
 * saturates only for (-2^31)(-2^31), outside every bound here.
 *
 * The transforms perform the butterflies of lib/mldsa/ntt.c (the same sums, differences and
 * Montgomery products of the same operands, so the same values bit for bit, and the C's
 * bounds; no reduction is added or dropped), grouped for the registers:
 * - layers len = 128, 64, 32, 16 (distance 32 .. 4 vectors): four passes, pass j holds the 16
 *   vectors of coefficients 16 m + 4 j .. + 3 (m = 0..15) in registers through the four layers;
 *   the 15 factors are lanes of four vectors (by-element SQDMULH / MUL);
 * - layers len = 8, 4, 2, 1: per 16-coefficient block, four vectors; len 8 and 4 pair whole
 *   vectors, then a 4 x 4 transpose (TRN1 / TRN2 on 32- and 64-bit elements) makes vector k
 *   hold the coefficients 4 g + k (lane g) so that len 2 and 1 pair whole vectors too, and ST4
 *   stores the transposed vectors back in order (the inverse: LD4 loads them so).
 * Tables mldsa_ntt_tables.h (gen_mldsa_ntt.py, from lib/mldsa/gen_tables.py's zetas). Constant
 * time: no branch or address depends on the coefficients. */
#include <arm_neon.h>
#include <stdint.h>

#include "mldsa_neon.h"
#include "mldsa_ntt_tables.h"

#define DSA_Q 8380417
#define DSA_QINV 58728449 /* q^-1 mod 2^32 */

/* a z 2^-32 mod q with the factor's q^-1 product zq given, |result| < q, for |a z| < 2^31 q */
static inline int32x4_t dsa_fqmul(int32x4_t a, int32x4_t z, int32x4_t zq)
{
    return vhsubq_s32(vqdmulhq_s32(a, z), vqdmulhq_n_s32(vmulq_s32(a, zq), DSA_Q));
}

/* the same with the factor in lane L of z / zq */
#define DSA_FQMUL_LANE(a, z, zq, L)                                                                                    \
    vhsubq_s32(vqdmulhq_laneq_s32((a), (z), L), vqdmulhq_n_s32(vmulq_laneq_s32((a), (zq), L), DSA_Q))

/* (a, b) -> (a + z b, a - z b), Algorithm 41's butterfly */
#define DSA_CT_L(a, b, z, zq, L)                                                                                       \
    do {                                                                                                               \
        const int32x4_t t_ = DSA_FQMUL_LANE((b), (z), (zq), L);                                                        \
        (b) = vsubq_s32((a), t_);                                                                                      \
        (a) = vaddq_s32((a), t_);                                                                                      \
    } while (0)
#define DSA_CT_V(a, b, z, zq)                                                                                          \
    do {                                                                                                               \
        const int32x4_t t_ = dsa_fqmul((b), (z), (zq));                                                                \
        (b) = vsubq_s32((a), t_);                                                                                      \
        (a) = vaddq_s32((a), t_);                                                                                      \
    } while (0)

/* (a, b) -> (a + b, -z (a - b)), Algorithm 42's butterfly with the C's operand order (the
 * tables hold -z) */
#define DSA_GS_L(a, b, z, zq, L)                                                                                       \
    do {                                                                                                               \
        const int32x4_t t_ = (a);                                                                                      \
        (a) = vaddq_s32(t_, (b));                                                                                      \
        (b) = DSA_FQMUL_LANE(vsubq_s32(t_, (b)), (z), (zq), L);                                                        \
    } while (0)
#define DSA_GS_V(a, b, z, zq)                                                                                          \
    do {                                                                                                               \
        const int32x4_t t_ = (a);                                                                                      \
        (a) = vaddq_s32(t_, (b));                                                                                      \
        (b) = dsa_fqmul(vsubq_s32(t_, (b)), (z), (zq));                                                                \
    } while (0)

#define TRN64(op, x, y) vreinterpretq_s32_s64(op(vreinterpretq_s64_s32(x), vreinterpretq_s64_s32(y)))

/* 4 x 4 transpose: vector k of the result holds lane k of x0..x3 */
#define DSA_TRANSPOSE4(x0, x1, x2, x3)                                                                                 \
    do {                                                                                                               \
        const int32x4_t p0_ = vtrn1q_s32((x0), (x1)), p1_ = vtrn2q_s32((x0), (x1));                                    \
        const int32x4_t p2_ = vtrn1q_s32((x2), (x3)), p3_ = vtrn2q_s32((x2), (x3));                                    \
        (x0) = TRN64(vtrn1q_s64, p0_, p2_);                                                                            \
        (x2) = TRN64(vtrn2q_s64, p0_, p2_);                                                                            \
        (x1) = TRN64(vtrn1q_s64, p1_, p3_);                                                                            \
        (x3) = TRN64(vtrn2q_s64, p1_, p3_);                                                                            \
    } while (0)

/* Algorithm 41. Bounds as mldsa_ntt_c (kernels.h): in |a| <= 2^31 - 1 - 8q, out
 * |a| < max|in| + 8q. */
void pqlab_mldsa_ntt_neon(int32_t c[256])
{
    const int32x4_t z0 = vld1q_s32(mldsa_ntt_fwd_top), z1 = vld1q_s32(mldsa_ntt_fwd_top + 4);
    const int32x4_t z2 = vld1q_s32(mldsa_ntt_fwd_top + 8), z3 = vld1q_s32(mldsa_ntt_fwd_top + 12);
    const int32x4_t q0 = vld1q_s32(mldsa_ntt_fwd_top + 16), q1 = vld1q_s32(mldsa_ntt_fwd_top + 20);
    const int32x4_t q2 = vld1q_s32(mldsa_ntt_fwd_top + 24), q3 = vld1q_s32(mldsa_ntt_fwd_top + 28);
    for (unsigned int j = 0; j < 4; j++) {
        int32_t *p = c + 4 * j;
        int32x4_t v0 = vld1q_s32(p), v1 = vld1q_s32(p + 16), v2 = vld1q_s32(p + 32), v3 = vld1q_s32(p + 48);
        int32x4_t v4 = vld1q_s32(p + 64), v5 = vld1q_s32(p + 80), v6 = vld1q_s32(p + 96), v7 = vld1q_s32(p + 112);
        int32x4_t v8 = vld1q_s32(p + 128), v9 = vld1q_s32(p + 144), v10 = vld1q_s32(p + 160), v11 = vld1q_s32(p + 176);
        int32x4_t v12 = vld1q_s32(p + 192), v13 = vld1q_s32(p + 208), v14 = vld1q_s32(p + 224),
                  v15 = vld1q_s32(p + 240);
        /* len 128: zetas[1] */
        DSA_CT_L(v0, v8, z0, q0, 1);
        DSA_CT_L(v1, v9, z0, q0, 1);
        DSA_CT_L(v2, v10, z0, q0, 1);
        DSA_CT_L(v3, v11, z0, q0, 1);
        DSA_CT_L(v4, v12, z0, q0, 1);
        DSA_CT_L(v5, v13, z0, q0, 1);
        DSA_CT_L(v6, v14, z0, q0, 1);
        DSA_CT_L(v7, v15, z0, q0, 1);
        /* len 64: zetas[2], zetas[3] */
        DSA_CT_L(v0, v4, z0, q0, 2);
        DSA_CT_L(v1, v5, z0, q0, 2);
        DSA_CT_L(v2, v6, z0, q0, 2);
        DSA_CT_L(v3, v7, z0, q0, 2);
        DSA_CT_L(v8, v12, z0, q0, 3);
        DSA_CT_L(v9, v13, z0, q0, 3);
        DSA_CT_L(v10, v14, z0, q0, 3);
        DSA_CT_L(v11, v15, z0, q0, 3);
        /* len 32: zetas[4..7] */
        DSA_CT_L(v0, v2, z1, q1, 0);
        DSA_CT_L(v1, v3, z1, q1, 0);
        DSA_CT_L(v4, v6, z1, q1, 1);
        DSA_CT_L(v5, v7, z1, q1, 1);
        DSA_CT_L(v8, v10, z1, q1, 2);
        DSA_CT_L(v9, v11, z1, q1, 2);
        DSA_CT_L(v12, v14, z1, q1, 3);
        DSA_CT_L(v13, v15, z1, q1, 3);
        /* len 16: zetas[8..15] */
        DSA_CT_L(v0, v1, z2, q2, 0);
        DSA_CT_L(v2, v3, z2, q2, 1);
        DSA_CT_L(v4, v5, z2, q2, 2);
        DSA_CT_L(v6, v7, z2, q2, 3);
        DSA_CT_L(v8, v9, z3, q3, 0);
        DSA_CT_L(v10, v11, z3, q3, 1);
        DSA_CT_L(v12, v13, z3, q3, 2);
        DSA_CT_L(v14, v15, z3, q3, 3);
        vst1q_s32(p, v0);
        vst1q_s32(p + 16, v1);
        vst1q_s32(p + 32, v2);
        vst1q_s32(p + 48, v3);
        vst1q_s32(p + 64, v4);
        vst1q_s32(p + 80, v5);
        vst1q_s32(p + 96, v6);
        vst1q_s32(p + 112, v7);
        vst1q_s32(p + 128, v8);
        vst1q_s32(p + 144, v9);
        vst1q_s32(p + 160, v10);
        vst1q_s32(p + 176, v11);
        vst1q_s32(p + 192, v12);
        vst1q_s32(p + 208, v13);
        vst1q_s32(p + 224, v14);
        vst1q_s32(p + 240, v15);
    }
    for (unsigned int b = 0; b < 16; b++) {
        int32_t *p = c + 16 * b;
        const int32_t *t = mldsa_ntt_fwd_bot + 32 * b;
        const int32x4_t za = vld1q_s32(t), qa = vld1q_s32(t + 16);
        int32x4_t w0 = vld1q_s32(p), w1 = vld1q_s32(p + 4), w2 = vld1q_s32(p + 8), w3 = vld1q_s32(p + 12);
        /* len 8: zetas[16 + b]; len 4: zetas[32 + 2b], zetas[33 + 2b] */
        DSA_CT_L(w0, w2, za, qa, 0);
        DSA_CT_L(w1, w3, za, qa, 0);
        DSA_CT_L(w0, w1, za, qa, 1);
        DSA_CT_L(w2, w3, za, qa, 2);
        DSA_TRANSPOSE4(w0, w1, w2, w3);
        /* len 2: lane g uses zetas[64 + 4b + g]; len 1: zetas[128 + 8b + 2g], zetas[129 + 8b + 2g] */
        DSA_CT_V(w0, w2, vld1q_s32(t + 4), vld1q_s32(t + 20));
        DSA_CT_V(w1, w3, vld1q_s32(t + 4), vld1q_s32(t + 20));
        DSA_CT_V(w0, w1, vld1q_s32(t + 8), vld1q_s32(t + 24));
        DSA_CT_V(w2, w3, vld1q_s32(t + 12), vld1q_s32(t + 28));
        const int32x4x4_t o = {{w0, w1, w2, w3}};
        vst4q_s32(p, o);
    }
}

/* Algorithm 42 times 2^32. Bounds as mldsa_invntt_tomont_c: in |a| < q, out |a| < q. */
void pqlab_mldsa_invntt_neon(int32_t c[256])
{
    for (unsigned int b = 0; b < 16; b++) {
        int32_t *p = c + 16 * b;
        const int32_t *t = mldsa_ntt_inv_bot + 32 * b;
        const int32x4x4_t in = vld4q_s32(p); /* vector k, lane g: coefficient 16 b + 4 g + k */
        int32x4_t w0 = in.val[0], w1 = in.val[1], w2 = in.val[2], w3 = in.val[3];
        /* len 1: -zetas[255 - 8b - 2g], -zetas[254 - 8b - 2g]; len 2: -zetas[127 - 4b - g] */
        DSA_GS_V(w0, w1, vld1q_s32(t), vld1q_s32(t + 16));
        DSA_GS_V(w2, w3, vld1q_s32(t + 4), vld1q_s32(t + 20));
        DSA_GS_V(w0, w2, vld1q_s32(t + 8), vld1q_s32(t + 24));
        DSA_GS_V(w1, w3, vld1q_s32(t + 8), vld1q_s32(t + 24));
        DSA_TRANSPOSE4(w0, w1, w2, w3);
        /* len 4: -zetas[63 - 2b], -zetas[62 - 2b]; len 8: -zetas[31 - b] */
        const int32x4_t zd = vld1q_s32(t + 12), qd = vld1q_s32(t + 28);
        DSA_GS_L(w0, w1, zd, qd, 0);
        DSA_GS_L(w2, w3, zd, qd, 1);
        DSA_GS_L(w0, w2, zd, qd, 2);
        DSA_GS_L(w1, w3, zd, qd, 2);
        vst1q_s32(p, w0);
        vst1q_s32(p + 4, w1);
        vst1q_s32(p + 8, w2);
        vst1q_s32(p + 12, w3);
    }
    const int32x4_t z0 = vld1q_s32(mldsa_ntt_inv_top), z1 = vld1q_s32(mldsa_ntt_inv_top + 4);
    const int32x4_t z2 = vld1q_s32(mldsa_ntt_inv_top + 8), z3 = vld1q_s32(mldsa_ntt_inv_top + 12);
    const int32x4_t q0 = vld1q_s32(mldsa_ntt_inv_top + 16), q1 = vld1q_s32(mldsa_ntt_inv_top + 20);
    const int32x4_t q2 = vld1q_s32(mldsa_ntt_inv_top + 24), q3 = vld1q_s32(mldsa_ntt_inv_top + 28);
    /* 41978, 3975713 (lib/mldsa/ntt.c's final scaling) and their q^-1 products */
    const int32x4_t fs = vld1q_s32(mldsa_ntt_inv_top + 32);
    for (unsigned int j = 0; j < 4; j++) {
        int32_t *p = c + 4 * j;
        int32x4_t v0 = vld1q_s32(p), v1 = vld1q_s32(p + 16), v2 = vld1q_s32(p + 32), v3 = vld1q_s32(p + 48);
        int32x4_t v4 = vld1q_s32(p + 64), v5 = vld1q_s32(p + 80), v6 = vld1q_s32(p + 96), v7 = vld1q_s32(p + 112);
        int32x4_t v8 = vld1q_s32(p + 128), v9 = vld1q_s32(p + 144), v10 = vld1q_s32(p + 160), v11 = vld1q_s32(p + 176);
        int32x4_t v12 = vld1q_s32(p + 192), v13 = vld1q_s32(p + 208), v14 = vld1q_s32(p + 224),
                  v15 = vld1q_s32(p + 240);
        /* len 16: block B = m / 2 uses -zetas[15 - B] */
        DSA_GS_L(v0, v1, z3, q3, 3);
        DSA_GS_L(v2, v3, z3, q3, 2);
        DSA_GS_L(v4, v5, z3, q3, 1);
        DSA_GS_L(v6, v7, z3, q3, 0);
        DSA_GS_L(v8, v9, z2, q2, 3);
        DSA_GS_L(v10, v11, z2, q2, 2);
        DSA_GS_L(v12, v13, z2, q2, 1);
        DSA_GS_L(v14, v15, z2, q2, 0);
        /* len 32: -zetas[7 - m / 4] */
        DSA_GS_L(v0, v2, z1, q1, 3);
        DSA_GS_L(v1, v3, z1, q1, 3);
        DSA_GS_L(v4, v6, z1, q1, 2);
        DSA_GS_L(v5, v7, z1, q1, 2);
        DSA_GS_L(v8, v10, z1, q1, 1);
        DSA_GS_L(v9, v11, z1, q1, 1);
        DSA_GS_L(v12, v14, z1, q1, 0);
        DSA_GS_L(v13, v15, z1, q1, 0);
        /* len 64: -zetas[3 - m / 8] */
        DSA_GS_L(v0, v4, z0, q0, 3);
        DSA_GS_L(v1, v5, z0, q0, 3);
        DSA_GS_L(v2, v6, z0, q0, 3);
        DSA_GS_L(v3, v7, z0, q0, 3);
        DSA_GS_L(v8, v12, z0, q0, 2);
        DSA_GS_L(v9, v13, z0, q0, 2);
        DSA_GS_L(v10, v14, z0, q0, 2);
        DSA_GS_L(v11, v15, z0, q0, 2);
        /* len 128 with the scaling, as the C: (t + u) 41978, (t - u) 3975713 */
#define DSA_LAST(x, y)                                                                                                 \
    do {                                                                                                               \
        const int32x4_t s_ = vaddq_s32((x), (y)), d_ = vsubq_s32((x), (y));                                            \
        (x) = vhsubq_s32(vqdmulhq_laneq_s32(s_, fs, 0), vqdmulhq_n_s32(vmulq_laneq_s32(s_, fs, 2), DSA_Q));            \
        (y) = vhsubq_s32(vqdmulhq_laneq_s32(d_, fs, 1), vqdmulhq_n_s32(vmulq_laneq_s32(d_, fs, 3), DSA_Q));            \
    } while (0)
        DSA_LAST(v0, v8);
        DSA_LAST(v1, v9);
        DSA_LAST(v2, v10);
        DSA_LAST(v3, v11);
        DSA_LAST(v4, v12);
        DSA_LAST(v5, v13);
        DSA_LAST(v6, v14);
        DSA_LAST(v7, v15);
#undef DSA_LAST
        vst1q_s32(p, v0);
        vst1q_s32(p + 16, v1);
        vst1q_s32(p + 32, v2);
        vst1q_s32(p + 48, v3);
        vst1q_s32(p + 64, v4);
        vst1q_s32(p + 80, v5);
        vst1q_s32(p + 96, v6);
        vst1q_s32(p + 112, v7);
        vst1q_s32(p + 128, v8);
        vst1q_s32(p + 144, v9);
        vst1q_s32(p + 160, v10);
        vst1q_s32(p + 176, v11);
        vst1q_s32(p + 192, v12);
        vst1q_s32(p + 208, v13);
        vst1q_s32(p + 224, v14);
        vst1q_s32(p + 240, v15);
    }
}

/* a b 2^-32 mod q for two variable operands: t = (a b mod 2^32) q^-1 mod 2^32 */
static inline int32x4_t dsa_mont_product(int32x4_t a, int32x4_t b)
{
    return vhsubq_s32(vqdmulhq_s32(a, b), vqdmulhq_n_s32(vmulq_n_s32(vmulq_s32(a, b), (int32_t)DSA_QINV), DSA_Q));
}

/* c = a o b 2^-32; in |a b| < 2^31 q, out |c| < q; c may be a or b */
void pqlab_mldsa_pointwise_neon(int32_t c[256], const int32_t a[256], const int32_t b[256])
{
    for (unsigned int i = 0; i < 256; i += 4) {
        vst1q_s32(c + i, dsa_mont_product(vld1q_s32(a + i), vld1q_s32(b + i)));
    }
}

/* c += a o b 2^-32; in as above and |c| + q < 2^31 */
void pqlab_mldsa_pointwise_acc_neon(int32_t c[256], const int32_t a[256], const int32_t b[256])
{
    for (unsigned int i = 0; i < 256; i += 4) {
        vst1q_s32(c + i, vaddq_s32(vld1q_s32(c + i), dsa_mont_product(vld1q_s32(a + i), vld1q_s32(b + i))));
    }
}

/* w = sum_j a_j o b_j 2^-32 with one Montgomery reduction of the exact sum (lib/mldsa/ntt.c's
 * mldsa_polyvec_pointwise_acc_mont_c): SMULL / SMLAL accumulate the products in 64-bit lanes, t =
 * (sum mod 2^32) q^-1 from the low halves (UZP1, MUL), SMLSL subtracts t q, and the high halves
 * (UZP2) are (sum - t q) / 2^32 exactly, mldsa_montgomery_reduce's value. In: count >= 1,
 * sum_j |a_j b_j| < 2^31 q; out |w| < q. */
void pqlab_mldsa_polyvec_pointwise_acc_neon(int32_t w[256], const int32_t *a, const int32_t *b, unsigned int count)
{
    const int32x2_t q2 = vdup_n_s32(DSA_Q);
    const int32x4_t q4 = vdupq_n_s32(DSA_Q);
    /* 16 coefficients per step: eight independent accumulator chains */
    for (unsigned int i = 0; i < 256; i += 16) {
        int64x2_t s[8];
        for (unsigned int k = 0; k < 4; k++) {
            const int32x4_t x = vld1q_s32(a + i + 4 * k), y = vld1q_s32(b + i + 4 * k);
            s[2 * k] = vmull_s32(vget_low_s32(x), vget_low_s32(y));
            s[2 * k + 1] = vmull_high_s32(x, y);
        }
        for (unsigned int j = 1; j < count; j++) {
            for (unsigned int k = 0; k < 4; k++) {
                const int32x4_t x = vld1q_s32(a + 256 * j + i + 4 * k), y = vld1q_s32(b + 256 * j + i + 4 * k);
                s[2 * k] = vmlal_s32(s[2 * k], vget_low_s32(x), vget_low_s32(y));
                s[2 * k + 1] = vmlal_high_s32(s[2 * k + 1], x, y);
            }
        }
        for (unsigned int k = 0; k < 4; k++) {
            const int32x4_t t = vmulq_n_s32(
                vuzp1q_s32(vreinterpretq_s32_s64(s[2 * k]), vreinterpretq_s32_s64(s[2 * k + 1])), (int32_t)DSA_QINV);
            const int64x2_t lo = vmlsl_s32(s[2 * k], vget_low_s32(t), q2);
            const int64x2_t hi = vmlsl_high_s32(s[2 * k + 1], t, q4);
            vst1q_s32(w + i + 4 * k, vuzp2q_s32(vreinterpretq_s32_s64(lo), vreinterpretq_s32_s64(hi)));
        }
    }
}
