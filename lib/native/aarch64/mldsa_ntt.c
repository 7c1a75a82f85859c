/* SPDX-License-Identifier: MIT */
/* ML-DSA (FIPS 204 section 7.5, Algorithms 41, 42, 45) NTT, inverse NTT and pointwise
 * products with Advanced SIMD, four 32-bit coefficients per vector. Contract:
 * lib/mldsa/kernels.h (q = 8380417, R = 2^32).
 *
 * Montgomery multiplication in 32-bit lanes, exactly lib/mldsa/reduce.h's
 * mldsa_montgomery_reduce(a z) = (a z - t q) / 2^32 with t = a z q^-1 mod 2^32:
 *   hi = SQDMULH(a, z) = floor(2 a z / 2^32), t = MUL(a, z q^-1) (low half),
 *   tq = SQDMULH(t, q), r = SHSUB(hi, tq) = (hi - tq) >> 1.
 * a z and t q agree modulo 2^32, so 2 a z and 2 t q agree in their low 33 bits and
 * hi - tq = (2 a z - 2 t q) / 2^32 exactly; r = (a z - t q) / 2^32, the C's value. SQDMULH
 * saturates only for (-2^31)(-2^31), outside every bound here.
 *
 * The transforms perform the butterflies of lib/mldsa/ntt.c (the same sums, differences and
 * Montgomery products, so the same values bit for bit, and the C's bounds): layers whose
 * distance is four coefficients or more pair whole vectors; the layers of distance 2 and 1
 * work on two vectors transposed (64-bit halves, then 32-bit elements). Constant time: no
 * branch or address depends on the coefficients. */
#include <arm_neon.h>
#include <stdint.h>

#include "mldsa_neon.h"
#include "../mldsa_zetas.h"

#define DSA_Q 8380417
#define DSA_QINV 58728449 /* q^-1 mod 2^32 */
#define INVN_MONT2 41978  /* 256^-1 2^64 mod q (lib/mldsa/ntt.c) */
#define INVN_LAST 3975713 /* -zeta^BitRev8(1) 256^-1 2^64 mod q, centred (lib/mldsa/ntt.c) */

/* zeta^BitRev8(m) 2^32 mod q, centred, zeta = 1753 (FIPS 204 Appendix B times 2^32): lib/mldsa's
 * table (lib/native/mldsa_zetas.h, from lib/mldsa/gen_tables.py), one copy for the C and this backend */

/* a z 2^-32 mod q, |result| < q, for |a z| < 2^31 q */
static inline int32x4_t dsa_fqmul(int32x4_t a, int32x4_t z)
{
    const int32x4_t hi = vqdmulhq_s32(a, z);
    const int32x4_t t = vmulq_s32(a, vmulq_n_s32(z, (int32_t)DSA_QINV));
    const int32x4_t tq = vqdmulhq_n_s32(t, DSA_Q);
    return vhsubq_s32(hi, tq);
}

#define DSA_CT(a, b, z)                                                                                                \
    do {                                                                                                               \
        const int32x4_t t_ = dsa_fqmul((b), (z));                                                                      \
        (b) = vsubq_s32((a), t_);                                                                                      \
        (a) = vaddq_s32((a), t_);                                                                                      \
    } while (0)

/* (a, b) -> (a + b, -z (a - b)), Algorithm 42's butterfly with the C's operand order */
#define DSA_GS(a, b, negz)                                                                                             \
    do {                                                                                                               \
        const int32x4_t t_ = (a);                                                                                      \
        (a) = vaddq_s32(t_, (b));                                                                                      \
        (b) = dsa_fqmul(vsubq_s32(t_, (b)), (negz));                                                                   \
    } while (0)

#define TRN64(op, x, y) vreinterpretq_s32_s64(op(vreinterpretq_s64_s32(x), vreinterpretq_s64_s32(y)))

/* Algorithm 41. Bounds as mldsa_ntt_c (kernels.h): in |a| <= 2^31 - 1 - 8q, out
 * |a| < max|in| + 8q. */
void pqlab_mldsa_ntt_neon(int32_t c[256])
{
    int32x4_t v[64];
    for (unsigned int i = 0; i < 64; i++) {
        v[i] = vld1q_s32(c + 4 * i);
    }
    unsigned int k = 1;
    for (unsigned int len = 32; len >= 1; len >>= 1) { /* in vectors: 128 .. 4 coefficients */
        for (unsigned int start = 0; start < 64; start += 2 * len) {
            const int32x4_t z = vdupq_n_s32(mldsa_zetas_mont[k++]);
            for (unsigned int j = start; j < start + len; j++) {
                DSA_CT(v[j], v[j + len], z);
            }
        }
    }
    for (unsigned int i = 0; i < 32; i++) {
        /* layer 2: x = block 2i, y = block 2i + 1 (4 coefficients each), mldsa_zetas_mont[64 + block] */
        const int32x4_t x = v[2 * i], y = v[2 * i + 1];
        int32x4_t a = TRN64(vtrn1q_s64, x, y); /* x0 x1 y0 y1 */
        int32x4_t b = TRN64(vtrn2q_s64, x, y); /* x2 x3 y2 y3 */
        DSA_CT(a, b, vcombine_s32(vdup_n_s32(mldsa_zetas_mont[64 + 2 * i]), vdup_n_s32(mldsa_zetas_mont[65 + 2 * i])));
        /* layer 1: blocks 4i .. 4i + 3 (pairs x01 x23 y01 y23), mldsa_zetas_mont[128 + block] */
        int32x4_t p = vtrn1q_s32(a, b); /* x0 x2 y0 y2 */
        int32x4_t r = vtrn2q_s32(a, b); /* x1 x3 y1 y3 */
        DSA_CT(p, r, vld1q_s32(mldsa_zetas_mont + 128 + 4 * i));
        a = vtrn1q_s32(p, r);
        b = vtrn2q_s32(p, r);
        v[2 * i] = TRN64(vtrn1q_s64, a, b);
        v[2 * i + 1] = TRN64(vtrn2q_s64, a, b);
    }
    for (unsigned int i = 0; i < 64; i++) {
        vst1q_s32(c + 4 * i, v[i]);
    }
}

/* Algorithm 42 times 2^32. Bounds as mldsa_invntt_tomont_c: in |a| < q, out |a| < q. */
void pqlab_mldsa_invntt_neon(int32_t c[256])
{
    int32x4_t v[64];
    for (unsigned int i = 0; i < 64; i++) {
        v[i] = vld1q_s32(c + 4 * i);
    }
    for (unsigned int i = 0; i < 32; i++) {
        const int32x4_t x = v[2 * i], y = v[2 * i + 1];
        int32x4_t a = TRN64(vtrn1q_s64, x, y);
        int32x4_t b = TRN64(vtrn2q_s64, x, y);
        int32x4_t p = vtrn1q_s32(a, b);
        int32x4_t r = vtrn2q_s32(a, b);
        /* layer 1: block B (coefficients 2B, 2B + 1) uses -mldsa_zetas_mont[255 - B]; lanes hold the
         * blocks 4i, 4i + 1, 4i + 2, 4i + 3 */
        const int32_t z1[4] = {-mldsa_zetas_mont[255 - 4 * i], -mldsa_zetas_mont[254 - 4 * i],
                               -mldsa_zetas_mont[253 - 4 * i], -mldsa_zetas_mont[252 - 4 * i]};
        DSA_GS(p, r, vld1q_s32(z1));
        a = vtrn1q_s32(p, r);
        b = vtrn2q_s32(p, r);
        /* layer 2: block B (4 coefficients) uses -mldsa_zetas_mont[127 - B]; x is block 2i, y 2i + 1 */
        DSA_GS(a, b,
               vcombine_s32(vdup_n_s32(-mldsa_zetas_mont[127 - 2 * i]), vdup_n_s32(-mldsa_zetas_mont[126 - 2 * i])));
        v[2 * i] = TRN64(vtrn1q_s64, a, b);
        v[2 * i + 1] = TRN64(vtrn2q_s64, a, b);
    }
    unsigned int k = 63;
    for (unsigned int len = 1; len <= 16; len <<= 1) { /* in vectors: 4 .. 64 coefficients */
        for (unsigned int start = 0; start < 64; start += 2 * len) {
            const int32x4_t z = vdupq_n_s32(-mldsa_zetas_mont[k--]);
            for (unsigned int j = start; j < start + len; j++) {
                DSA_GS(v[j], v[j + len], z);
            }
        }
    }
    /* the last layer with the scaling, as the C: (t + u) 41978, (t - u) 3975713 */
    const int32x4_t f0 = vdupq_n_s32(INVN_MONT2), f1 = vdupq_n_s32(INVN_LAST);
    for (unsigned int j = 0; j < 32; j++) {
        const int32x4_t t = v[j], u = v[j + 32];
        vst1q_s32(c + 4 * j, dsa_fqmul(vaddq_s32(t, u), f0));
        vst1q_s32(c + 4 * (j + 32), dsa_fqmul(vsubq_s32(t, u), f1));
    }
}

/* c = a o b 2^-32; in |a b| < 2^31 q, out |c| < q; c may be a or b */
void pqlab_mldsa_pointwise_neon(int32_t c[256], const int32_t a[256], const int32_t b[256])
{
    for (unsigned int i = 0; i < 256; i += 4) {
        vst1q_s32(c + i, dsa_fqmul(vld1q_s32(a + i), vld1q_s32(b + i)));
    }
}

/* c += a o b 2^-32; in as above and |c| + q < 2^31 */
void pqlab_mldsa_pointwise_acc_neon(int32_t c[256], const int32_t a[256], const int32_t b[256])
{
    for (unsigned int i = 0; i < 256; i += 4) {
        vst1q_s32(c + i, vaddq_s32(vld1q_s32(c + i), dsa_fqmul(vld1q_s32(a + i), vld1q_s32(b + i))));
    }
}
