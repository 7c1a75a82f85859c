/* SPDX-License-Identifier: MIT */
/* ML-KEM (FIPS 203 section 4.3) NTT, inverse NTT and base multiplication with Advanced SIMD,
 * eight 16-bit coefficients per vector. Contract: lib/mlkem/kernels.h (q = 3329, R = 2^16).
 *
 * Montgomery multiplication in 16-bit lanes, exactly the value of lib/mlkem/reduce.h's
 * mlkem_fqmul(a, z) = (a z - t q) / 2^16 with t = (a z q^-1) mod 2^16 (signed):
 *   hi = SQDMULH(a, z)        = floor(2 a z / 2^16)
 *   t  = MUL(a, z q^-1)       = a z q^-1 mod 2^16     (low half, wraps like C's int16 cast)
 *   tq = SQDMULH(t, q)        = floor(2 t q / 2^16)
 *   r  = SHSUB(hi, tq)        = (hi - tq) >> 1
 * Since a z = t q (mod 2^16), 2 a z and 2 t q agree in their low 17 bits, so
 * hi - tq = (2 a z - 2 t q) / 2^16 exactly and r = (a z - t q) / 2^16. SQDMULH saturates
 * only for (-2^15)(-2^15); z and q are never -2^15.
 * Barrett reduction, exactly mlkem_barrett_reduce: t = round(a 20159 / 2^26) is
 * SRSHR(SQDMULH(a, 20159), 11) (floor(a v / 2^15), then (x + 2^10) >> 11: the nested floors
 * equal floor((a v + 2^25) / 2^26)), r = a - t q.
 *
 * ntt and basemul_acc therefore give the values of the C kernels bit for bit; invntt
 * reduces on its own schedule (below) and gives values congruent to mlkem_invntt_c's, within
 * the contract's bound. Constant time: no branch or address depends on the coefficients. */
#include <arm_neon.h>
#include <stdint.h>

#include "mlkem_neon.h"

#define KEM_Q 3329
#define KEM_QINV (-3327) /* q^-1 mod 2^16, signed */
#define KEM_BARRETT_V 20159
#define INVNTT_F 1441 /* 2^32 / 128 mod q (lib/mlkem/ntt.c) */

/* zeta^BitRev7(i) 2^16 mod q, centred, zeta = 17 (FIPS 203 section 4.3, Appendix A times
 * 2^16): the same numbers as lib/mlkem/ntt.c's mlkem_zetas, which is namespaced per parameter
 * set; this one table serves all three. */
static const int16_t zetas[128] = {
    -1044, -758,  -359,  -1517, 1493,  1422,  287,   202,   -171,  622,  1577,  182,   962,   -1202, -1474, 1468,
    573,   -1325, 264,   383,   -829,  1458,  -1602, -130,  -681,  1017, 732,   608,   -1542, 411,   -205,  -1571,
    1223,  652,   -552,  1015,  -1293, 1491,  -282,  -1544, 516,   -8,   -320,  -666,  -1618, -1162, 126,   1469,
    -853,  -90,   -271,  830,   107,   -1421, -247,  -951,  -398,  961,  -1508, -725,  448,   -1065, 677,   -1275,
    -1103, 430,   555,   843,   -1251, 871,   1550,  105,   422,   587,  177,   -235,  -291,  -460,  1574,  1653,
    -246,  778,   1159,  -147,  -777,  1483,  -602,  1119,  -1590, 644,  -872,  349,   418,   329,   -156,  -75,
    817,   1097,  603,   610,   1322,  -1285, -1465, 384,   -1215, -136, 1218,  -1335, -874,  220,   -1187, -1659,
    -1185, -1530, -1278, 794,   -1510, -854,  -870,  478,   -108,  -308, 996,   991,   958,   -1460, 1522,  1628};

/* a z 2^-16 mod q, |result| < q, for |a z| < q 2^15 (the C kernel's precondition) */
static inline int16x8_t kem_fqmul(int16x8_t a, int16x8_t z)
{
    const int16x8_t hi = vqdmulhq_s16(a, z);
    const int16x8_t t = vmulq_s16(a, vmulq_n_s16(z, KEM_QINV));
    const int16x8_t tq = vqdmulhq_n_s16(t, KEM_Q);
    return vhsubq_s16(hi, tq);
}

static inline int16x8_t barrett(int16x8_t a)
{
    const int16x8_t t = vrshrq_n_s16(vqdmulhq_n_s16(a, KEM_BARRETT_V), 11);
    return vmlsq_n_s16(a, t, KEM_Q);
}

/* Cooley-Tukey butterfly (a, b) -> (a + z b, a - z b), 16-bit wrapping sums as the C */
#define KEM_CT(a, b, z)                                                                                                \
    do {                                                                                                               \
        const int16x8_t t_ = kem_fqmul((b), (z));                                                                      \
        (b) = vsubq_s16((a), t_);                                                                                      \
        (a) = vaddq_s16((a), t_);                                                                                      \
    } while (0)

/* Algorithm 9. Layers len = 128 .. 8 pair whole vectors (one zeta per block); layers 4 and 2
 * pair coefficients inside a vector and work on two vectors (16 coefficients, blocks 2i and
 * 2i + 1 of the layer-4 split) after transposing them: 64-bit halves for layer 4, 32-bit
 * pairs for layer 2. The sums and products are those of mlkem_ntt_c (bounds there: below
 * 8q = 26632 in magnitude), and a final Barrett pass makes the output reduced. */
void pqlab_mlkem_ntt_neon(int16_t c[256])
{
    int16x8_t v[32];
    for (unsigned int i = 0; i < 32; i++) {
        v[i] = vld1q_s16(c + 8 * i);
    }
    unsigned int k = 1;
    for (unsigned int len = 16; len >= 1; len >>= 1) { /* len in vectors: 128 .. 8 coefficients */
        for (unsigned int start = 0; start < 32; start += 2 * len) {
            const int16x8_t z = vdupq_n_s16(zetas[k++]);
            for (unsigned int j = start; j < start + len; j++) {
                KEM_CT(v[j], v[j + len], z);
            }
        }
    }
    for (unsigned int i = 0; i < 16; i++) {
        int16x8_t x = v[2 * i], y = v[2 * i + 1];
        /* layer 4: x = block 2i, y = block 2i + 1 (8 coefficients each), zetas[32 + block] */
        int16x8_t a = vreinterpretq_s16_s64(vtrn1q_s64(vreinterpretq_s64_s16(x), vreinterpretq_s64_s16(y)));
        int16x8_t b = vreinterpretq_s16_s64(vtrn2q_s64(vreinterpretq_s64_s16(x), vreinterpretq_s64_s16(y)));
        const int16x8_t z4 = vcombine_s16(vdup_n_s16(zetas[32 + 2 * i]), vdup_n_s16(zetas[32 + 2 * i + 1]));
        KEM_CT(a, b, z4);
        /* layer 2: blocks of 4 coefficients 4i .. 4i + 3, zetas[64 + block]; a = x0..3 y0..3,
         * b = x4..7 y4..7 -> p = x01 x45 y01 y45, r = x23 x67 y23 y67 */
        int16x8_t p = vreinterpretq_s16_s32(vtrn1q_s32(vreinterpretq_s32_s16(a), vreinterpretq_s32_s16(b)));
        int16x8_t r = vreinterpretq_s16_s32(vtrn2q_s32(vreinterpretq_s32_s16(a), vreinterpretq_s32_s16(b)));
        const int16x8_t z4x = vcombine_s16(vld1_s16(zetas + 64 + 4 * i), vld1_s16(zetas + 64 + 4 * i));
        /* pairs of coefficients per block: z0 z0 z1 z1 z2 z2 z3 z3 in the order x01 x45 y01 y45 */
        const int16x8_t z2 = vzip1q_s16(z4x, z4x);
        KEM_CT(p, r, z2);
        p = barrett(p);
        r = barrett(r);
        a = vreinterpretq_s16_s32(vtrn1q_s32(vreinterpretq_s32_s16(p), vreinterpretq_s32_s16(r)));
        b = vreinterpretq_s16_s32(vtrn2q_s32(vreinterpretq_s32_s16(p), vreinterpretq_s32_s16(r)));
        v[2 * i] = vreinterpretq_s16_s64(vtrn1q_s64(vreinterpretq_s64_s16(a), vreinterpretq_s64_s16(b)));
        v[2 * i + 1] = vreinterpretq_s16_s64(vtrn2q_s64(vreinterpretq_s64_s16(a), vreinterpretq_s64_s16(b)));
    }
    for (unsigned int i = 0; i < 32; i++) {
        vst1q_s16(c + 8 * i, v[i]);
    }
}

/* Gentleman-Sande butterfly (a, b) -> (a + b, z (b - a)) in 16 bits; callers keep
 * |a|, |b| <= 4q so that both the sum and the difference fit (8q < 2^15) */
#define KEM_GS(a, b, z)                                                                                                \
    do {                                                                                                               \
        const int16x8_t t_ = (a);                                                                                      \
        (a) = vaddq_s16(t_, (b));                                                                                      \
        (b) = kem_fqmul(vsubq_s16((b), t_), (z));                                                                      \
    } while (0)

/* Algorithm 10 times R (kernels.h). Bounds: the input is Barrett-reduced to |c| <= (q-1)/2;
 * a layer at most doubles the largest magnitude of the sums and leaves products below q. The
 * sums are Barrett-reduced after layers 4, 16 and 64 (every second layer), so before any layer
 * every value is below 2q (after a reduction: sums <= q/2, products < q; one layer later: < 2q)
 * and the sums and differences a layer forms stay below 4q (< 2^15); the final kem_fqmul by 1441
 * (valid for any int16) gives |c| < q. */
void pqlab_mlkem_invntt_neon(int16_t c[256])
{
    int16x8_t v[32];
    for (unsigned int i = 0; i < 32; i++) {
        v[i] = barrett(vld1q_s16(c + 8 * i));
    }
    for (unsigned int i = 0; i < 16; i++) {
        /* the transposes of pqlab_mlkem_ntt_neon, layer 2 then layer 4; zetas in the order
         * of Algorithm 10 (k counts down from 127): block b of layer 2 uses zetas[127 - b],
         * block b of layer 4 zetas[63 - b] */
        const int16x8_t x = v[2 * i], y = v[2 * i + 1];
        int16x8_t a = vreinterpretq_s16_s64(vtrn1q_s64(vreinterpretq_s64_s16(x), vreinterpretq_s64_s16(y)));
        int16x8_t b = vreinterpretq_s16_s64(vtrn2q_s64(vreinterpretq_s64_s16(x), vreinterpretq_s64_s16(y)));
        int16x8_t p = vreinterpretq_s16_s32(vtrn1q_s32(vreinterpretq_s32_s16(a), vreinterpretq_s32_s16(b)));
        int16x8_t r = vreinterpretq_s16_s32(vtrn2q_s32(vreinterpretq_s32_s16(a), vreinterpretq_s32_s16(b)));
        /* blocks 4i .. 4i + 3 of layer 2 in the order x01 x45 y01 y45 */
        const int16_t z2s[8] = {zetas[127 - 4 * i],     zetas[127 - 4 * i],     zetas[127 - 4 * i - 1],
                                zetas[127 - 4 * i - 1], zetas[127 - 4 * i - 2], zetas[127 - 4 * i - 2],
                                zetas[127 - 4 * i - 3], zetas[127 - 4 * i - 3]};
        KEM_GS(p, r, vld1q_s16(z2s));
        a = vreinterpretq_s16_s32(vtrn1q_s32(vreinterpretq_s32_s16(p), vreinterpretq_s32_s16(r)));
        b = vreinterpretq_s16_s32(vtrn2q_s32(vreinterpretq_s32_s16(p), vreinterpretq_s32_s16(r)));
        const int16x8_t z4 = vcombine_s16(vdup_n_s16(zetas[63 - 2 * i]), vdup_n_s16(zetas[63 - 2 * i - 1]));
        KEM_GS(a, b, z4);
        a = barrett(a);
        v[2 * i] = vreinterpretq_s16_s64(vtrn1q_s64(vreinterpretq_s64_s16(a), vreinterpretq_s64_s16(b)));
        v[2 * i + 1] = vreinterpretq_s16_s64(vtrn2q_s64(vreinterpretq_s64_s16(a), vreinterpretq_s64_s16(b)));
    }
    unsigned int k = 31;
    unsigned int layer = 0;
    for (unsigned int len = 1; len <= 16; len <<= 1) { /* len in vectors: 8 .. 128 coefficients */
        for (unsigned int start = 0; start < 32; start += 2 * len) {
            const int16x8_t z = vdupq_n_s16(zetas[k--]);
            for (unsigned int j = start; j < start + len; j++) {
                KEM_GS(v[j], v[j + len], z);
                if (layer & 1) { /* public: layers 16 and 64 */
                    v[j] = barrett(v[j]);
                }
            }
        }
        layer++;
    }
    const int16x8_t f = vdupq_n_s16(INVNTT_F);
    for (unsigned int i = 0; i < 32; i++) {
        vst1q_s16(c + 8 * i, kem_fqmul(v[i], f));
    }
}

/* 32-bit lanes to 16 bits: (x - t q) / 2^16 with t = x q^-1 mod 2^16, exactly
 * mlkem_montgomery_reduce for |x| < q 2^15 */
static inline int16x4_t montgomery_reduce(int32x4_t x)
{
    const int16x4_t t = vmul_n_s16(vmovn_s32(x), KEM_QINV);
    return vshrn_n_s32(vmlsl_n_s16(x, t, KEM_Q), 16);
}

static inline int16x8_t montgomery_reduce8(int32x4_t lo, int32x4_t hi)
{
    return vcombine_s16(montgomery_reduce(lo), montgomery_reduce(hi));
}

/* Algorithms 11, 12 times R^-1, accumulated: lib/mlkem/reduce.h's mlkem_basemul_pair on
 * eight pairs per step (the same three Montgomery reductions, so the same values). The
 * coefficients are de-interleaved by LD2 (even = a0 of each pair, odd = a1). Pair p uses
 * gamma = zetas[64 + p / 2] for even p and its negative for odd p. */
void pqlab_mlkem_basemul_acc_neon(int16_t r[256], const int16_t a[256], const int16_t b[256])
{
    for (unsigned int i = 0; i < 16; i++) {
        const int16x8x2_t av = vld2q_s16(a + 16 * i), bv = vld2q_s16(b + 16 * i);
        int16x8x2_t rv = vld2q_s16(r + 16 * i);
        const int16x8_t z = vcombine_s16(vld1_s16(zetas + 64 + 4 * i), vdup_n_s16(0));
        const int16x8_t gamma = vzip1q_s16(z, vnegq_s16(z)); /* z0 -z0 z1 -z1 z2 -z2 z3 -z3 */
        /* mont(a1 b1), |.| < q */
        const int16x8_t t = montgomery_reduce8(vmull_s16(vget_low_s16(av.val[1]), vget_low_s16(bv.val[1])),
                                               vmull_high_s16(av.val[1], bv.val[1]));
        int32x4_t lo = vmull_s16(vget_low_s16(av.val[0]), vget_low_s16(bv.val[0]));
        int32x4_t hi = vmull_high_s16(av.val[0], bv.val[0]);
        lo = vmlal_s16(lo, vget_low_s16(t), vget_low_s16(gamma));
        hi = vmlal_high_s16(hi, t, gamma);
        rv.val[0] = vaddq_s16(rv.val[0], montgomery_reduce8(lo, hi));
        lo = vmull_s16(vget_low_s16(av.val[0]), vget_low_s16(bv.val[1]));
        hi = vmull_high_s16(av.val[0], bv.val[1]);
        lo = vmlal_s16(lo, vget_low_s16(av.val[1]), vget_low_s16(bv.val[0]));
        hi = vmlal_high_s16(hi, av.val[1], bv.val[0]);
        rv.val[1] = vaddq_s16(rv.val[1], montgomery_reduce8(lo, hi));
        vst2q_s16(r + 16 * i, rv);
    }
}
