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

#define Q 8380417
#define QINV 58728449     /* q^-1 mod 2^32 */
#define INVN_MONT2 41978  /* 256^-1 2^64 mod q (lib/mldsa/ntt.c) */
#define INVN_LAST 3975713 /* -zeta^BitRev8(1) 256^-1 2^64 mod q, centred (lib/mldsa/ntt.c) */

/* zeta^BitRev8(m) 2^32 mod q, centred, zeta = 1753 (FIPS 204 Appendix B times 2^32): the
 * numbers of lib/mldsa/ntt.c's zetas_mont, one table for the three parameter sets */
static const int32_t zetas[256] = {
    -4186625, 25847,    -2608894, -518909,  237124,   -777960,  -876248,  466468,   1826347,  2353451,  -359251,
    -2091905, 3119733,  -2884855, 3111497,  2680103,  2725464,  1024112,  -1079900, 3585928,  -549488,  -1119584,
    2619752,  -2108549, -2118186, -3859737, -1399561, -3277672, 1757237,  -19422,   4010497,  280005,   2706023,
    95776,    3077325,  3530437,  -1661693, -3592148, -2537516, 3915439,  -3861115, -3043716, 3574422,  -2867647,
    3539968,  -300467,  2348700,  -539299,  -1699267, -1643818, 3505694,  -3821735, 3507263,  -2140649, -1600420,
    3699596,  811944,   531354,   954230,   3881043,  3900724,  -2556880, 2071892,  -2797779, -3930395, -1528703,
    -3677745, -3041255, -1452451, 3475950,  2176455,  -1585221, -1257611, 1939314,  -4083598, -1000202, -3190144,
    -3157330, -3632928, 126922,   3412210,  -983419,  2147896,  2715295,  -2967645, -3693493, -411027,  -2477047,
    -671102,  -1228525, -22981,   -1308169, -381987,  1349076,  1852771,  -1430430, -3343383, 264944,   508951,
    3097992,  44288,    -1100098, 904516,   3958618,  -3724342, -8578,    1653064,  -3249728, 2389356,  -210977,
    759969,   -1316856, 189548,   -3553272, 3159746,  -1851402, -2409325, -177440,  1315589,  1341330,  1285669,
    -1584928, -812732,  -1439742, -3019102, -3881060, -3628969, 3839961,  2091667,  3407706,  2316500,  3817976,
    -3342478, 2244091,  -2446433, -3562462, 266997,   2434439,  -1235728, 3513181,  -3520352, -3759364, -1197226,
    -3193378, 900702,   1859098,  909542,   819034,   495491,   -1613174, -43260,   -522500,  -655327,  -3122442,
    2031748,  3207046,  -3556995, -525098,  -768622,  -3595838, 342297,   286988,   -2437823, 4108315,  3437287,
    -3342277, 1735879,  203044,   2842341,  2691481,  -2590150, 1265009,  4055324,  1247620,  2486353,  1595974,
    -3767016, 1250494,  2635921,  -3548272, -2994039, 1869119,  1903435,  -1050970, -1333058, 1237275,  -3318210,
    -1430225, -451100,  1312455,  3306115,  -1962642, -1279661, 1917081,  -2546312, -1374803, 1500165,  777191,
    2235880,  3406031,  -542412,  -2831860, -1671176, -1846953, -2584293, -3724270, 594136,   -3776993, -2013608,
    2432395,  2454455,  -164721,  1957272,  3369112,  185531,   -1207385, -3183426, 162844,   1616392,  3014001,
    810149,   1652634,  -3694233, -1799107, -3038916, 3523897,  3866901,  269760,   2213111,  -975884,  1717735,
    472078,   -426683,  1723600,  -1803090, 1910376,  -1667432, -1104333, -260646,  -3833893, -2939036, -2235985,
    -420899,  -2286327, 183443,   -976891,  1612842,  -3545687, -554416,  3919660,  -48306,   -1362209, 3937738,
    1400424,  -846154,  1976782,
};

/* a z 2^-32 mod q, |result| < q, for |a z| < 2^31 q */
static inline int32x4_t fqmul(int32x4_t a, int32x4_t z)
{
    const int32x4_t hi = vqdmulhq_s32(a, z);
    const int32x4_t t = vmulq_s32(a, vmulq_n_s32(z, (int32_t)QINV));
    const int32x4_t tq = vqdmulhq_n_s32(t, Q);
    return vhsubq_s32(hi, tq);
}

#define CT(a, b, z)                                                                                                    \
    do {                                                                                                               \
        const int32x4_t t_ = fqmul((b), (z));                                                                          \
        (b) = vsubq_s32((a), t_);                                                                                      \
        (a) = vaddq_s32((a), t_);                                                                                      \
    } while (0)

/* (a, b) -> (a + b, -z (a - b)), Algorithm 42's butterfly with the C's operand order */
#define GS(a, b, negz)                                                                                                 \
    do {                                                                                                               \
        const int32x4_t t_ = (a);                                                                                      \
        (a) = vaddq_s32(t_, (b));                                                                                      \
        (b) = fqmul(vsubq_s32(t_, (b)), (negz));                                                                       \
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
            const int32x4_t z = vdupq_n_s32(zetas[k++]);
            for (unsigned int j = start; j < start + len; j++) {
                CT(v[j], v[j + len], z);
            }
        }
    }
    for (unsigned int i = 0; i < 32; i++) {
        /* layer 2: x = block 2i, y = block 2i + 1 (4 coefficients each), zetas[64 + block] */
        const int32x4_t x = v[2 * i], y = v[2 * i + 1];
        int32x4_t a = TRN64(vtrn1q_s64, x, y); /* x0 x1 y0 y1 */
        int32x4_t b = TRN64(vtrn2q_s64, x, y); /* x2 x3 y2 y3 */
        CT(a, b, vcombine_s32(vdup_n_s32(zetas[64 + 2 * i]), vdup_n_s32(zetas[65 + 2 * i])));
        /* layer 1: blocks 4i .. 4i + 3 (pairs x01 x23 y01 y23), zetas[128 + block] */
        int32x4_t p = vtrn1q_s32(a, b); /* x0 x2 y0 y2 */
        int32x4_t r = vtrn2q_s32(a, b); /* x1 x3 y1 y3 */
        CT(p, r, vld1q_s32(zetas + 128 + 4 * i));
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
        /* layer 1: block B (coefficients 2B, 2B + 1) uses -zetas[255 - B]; lanes hold the
         * blocks 4i, 4i + 1, 4i + 2, 4i + 3 */
        const int32_t z1[4] = {-zetas[255 - 4 * i], -zetas[254 - 4 * i], -zetas[253 - 4 * i], -zetas[252 - 4 * i]};
        GS(p, r, vld1q_s32(z1));
        a = vtrn1q_s32(p, r);
        b = vtrn2q_s32(p, r);
        /* layer 2: block B (4 coefficients) uses -zetas[127 - B]; x is block 2i, y 2i + 1 */
        GS(a, b, vcombine_s32(vdup_n_s32(-zetas[127 - 2 * i]), vdup_n_s32(-zetas[126 - 2 * i])));
        v[2 * i] = TRN64(vtrn1q_s64, a, b);
        v[2 * i + 1] = TRN64(vtrn2q_s64, a, b);
    }
    unsigned int k = 63;
    for (unsigned int len = 1; len <= 16; len <<= 1) { /* in vectors: 4 .. 64 coefficients */
        for (unsigned int start = 0; start < 64; start += 2 * len) {
            const int32x4_t z = vdupq_n_s32(-zetas[k--]);
            for (unsigned int j = start; j < start + len; j++) {
                GS(v[j], v[j + len], z);
            }
        }
    }
    /* the last layer with the scaling, as the C: (t + u) 41978, (t - u) 3975713 */
    const int32x4_t f0 = vdupq_n_s32(INVN_MONT2), f1 = vdupq_n_s32(INVN_LAST);
    for (unsigned int j = 0; j < 32; j++) {
        const int32x4_t t = v[j], u = v[j + 32];
        vst1q_s32(c + 4 * j, fqmul(vaddq_s32(t, u), f0));
        vst1q_s32(c + 4 * (j + 32), fqmul(vsubq_s32(t, u), f1));
    }
}

/* c = a o b 2^-32; in |a b| < 2^31 q, out |c| < q; c may be a or b */
void pqlab_mldsa_pointwise_neon(int32_t c[256], const int32_t a[256], const int32_t b[256])
{
    for (unsigned int i = 0; i < 256; i += 4) {
        vst1q_s32(c + i, fqmul(vld1q_s32(a + i), vld1q_s32(b + i)));
    }
}

/* c += a o b 2^-32; in as above and |c| + q < 2^31 */
void pqlab_mldsa_pointwise_acc_neon(int32_t c[256], const int32_t a[256], const int32_t b[256])
{
    for (unsigned int i = 0; i < 256; i += 4) {
        vst1q_s32(c + i, vaddq_s32(vld1q_s32(c + i), fqmul(vld1q_s32(a + i), vld1q_s32(b + i))));
    }
}
