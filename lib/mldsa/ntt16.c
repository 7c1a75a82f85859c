/* SPDX-License-Identifier: MIT */
/* Small-modulus NTT for the products c s1 and c s2 of signing (portable kernels
 * mldsa_poly_ntt16_c and mldsa_poly_mul16_add_c; contract in kernels.h).
 *
 * Every coefficient of c s (c: tau coefficients +-1, s in [-eta, eta]) has absolute
 * value <= tau eta <= 196, so the product is its centred residue modulo any prime
 * p > 392. p = 7681 (= 1 mod 512) has a primitive 512th root of unity (62), so the
 * negacyclic NTT of FIPS 204 Algorithms 41/42 works unchanged with 16-bit coefficients
 * and a 16-bit Montgomery reduction (R = 2^16). Constants and the int16 bounds of every
 * layer are computed and checked by lib/mldsa/gen_ntt16.py (interval arithmetic):
 * forward input |a| <= 64, output < 12,206; inverse <= 30,720 in every layer, with
 * reductions (mont16 of every coefficient: times 2^-16) before the forward layer len = 2
 * and before the inverse layers len = 4 and len = 32; the final scaling F = 2^96 / 256
 * mod p cancels those factors, the Montgomery factor of the pointwise product and 256; it is
 * merged with the last inverse layer (F on the sums, F_LAST = -zetas16[1] F 2^-16 on the
 * differences). The final reduction leaves |x| <= 5280, so x is the exact product when that
 * has coefficients of absolute value <= 7681 - 5281 = 2400 (no centring step needed).
 * No branch or address depends on the data. */
#include "kernels.h"

#define P16 7681
#define P16_NINV 7679      /* -p^-1 mod 2^16 */
#define P16_F 183          /* 2^96 / 256 mod p, centred */
#define P16_F_LAST (-3072) /* -zetas16[1] F 2^-16 mod p, centred */

/* zetas16[m] = 62^BitRev8(m) * 2^16 mod p, centred (gen_ntt16.py); index 0 unused */
static const int16_t zetas16[MLDSA_N] = {
    -3593, 3777,  -3182, 3625,  -3696, -1100, 2456,  2194,  121,   -2250, 834,   -2495, -2319, 2876,  -1701, 1414,
    2816,  -2088, -2237, 1986,  -1599, 1993,  3706,  -2006, -1525, -2557, 1296,  1483,  -2830, 3364,  617,   1921,
    -3689, -1738, 3266,  -3600, 810,   1887,  -638,  -7,    -438,  -679,  -1305, -1760, 396,   -3174, -3555, -1881,
    3772,  -2535, -2440, -2555, 1535,  -549,  3153,  2310,  -1399, 1321,  514,   -2956, -103,  2804,  -2043, -1431,
    -1054, 1698,  -3456, 1166,  2426,  3831,  915,   -2,    -3417, -194,  2919,  2789,  3405,  2385,  -2113, -2732,
    2175,  373,   3692,  -730,  -1756, 3135,  -2391, 660,   -1497, 2572,  -3145, 1350,  -2224, -3588, -1681, 2883,
    -1390, 1598,  3750,  2762,  2835,  2764,  -2233, 3816,  -1533, 1464,  -727,  1521,  1386,  -3428, -921,  -2743,
    -2160, 2649,  -859,  2579,  1532,  1919,  -486,  404,   -1056, 783,   1799,  -2665, 3480,  2133,  -3310, -1168,
    -17,   3744,  2422,  2001,  1278,  929,   -1348, -2230, -179,  -1242, -2059, -1070, 2161,  1649,  2072,  3177,
    -2071, 1121,  -436,  236,   715,   670,   -658,  -1476, -2378, 2767,  3542,  -226,  1203,  1181,  -151,  -3794,
    1712,  -222,  2786,  -451,  -3547, 1779,  -1151, -434,  3568,  -3693, 3581,  -1586, 1509,  2918,  2339,  -1407,
    3434,  -3550, 2340,  2891,  2998,  -3314, 3461,  -2719, -2247, -2589, 1144,  1072,  1295,  -2815, -3770, 3450,
    3781,  -2258, 796,   3163,  -3208, -589,  2963,  -124,  3214,  3334,  -3366, -3745, 3723,  1931,  -429,  -402,
    -3408, 83,    -1526, 826,   -1338, 2345,  -2303, 2515,  -642,  -1837, -2965, -791,  370,   293,   3312,  2083,
    -1689, -777,  2070,  2262,  -893,  2386,  -188,  -1519, -2874, -1404, 1012,  2130,  1441,  2532,  -3335, -1084,
    -3343, 2937,  509,   -1403, 2812,  3763,  592,   2005,  3657,  2460,  -3677, 3752,  692,   1669,  2167,  -3287,
};

/* (a + m p) / 2^16 with m the signed 16-bit value of a (-p^-1) mod 2^16: congruent to
 * a 2^-16, |.| <= (|a| + 2^15 p) / 2^16. In: |a| < 2^31 - 2^15 p. */
static inline int32_t mont16(int32_t a)
{
    const uint32_t m = ((uint32_t)a * P16_NINV) & 0xFFFFu;
    const int32_t ms = (int32_t)m - (int32_t)((m & 0x8000u) << 1);
    return (a + ms * P16) >> 16;
}

void mldsa_poly_ntt16_c(int16_t r[MLDSA_N], const int32_t a[MLDSA_N])
{
    unsigned int k = 0;
    for (unsigned int n = 0; n < MLDSA_N; n++) {
        r[n] = (int16_t)a[n];
    }
    for (unsigned int len = 128; len >= 1; len >>= 1) {
        if (len == 2) {
            for (unsigned int n = 0; n < MLDSA_N; n++) {
                r[n] = (int16_t)mont16(r[n]);
            }
        }
        for (unsigned int start = 0; start < MLDSA_N; start += 2 * len) {
            const int32_t z = zetas16[++k];
            for (unsigned int j = start; j < start + len; j++) {
                const int32_t t = mont16(z * r[j + len]);
                r[j + len] = (int16_t)(r[j] - t);
                r[j] = (int16_t)(r[j] + t);
            }
        }
    }
}

void mldsa_poly_mul16_add_c(int32_t r[MLDSA_N], const int32_t base[MLDSA_N], const int16_t a[MLDSA_N],
                            const int16_t b[MLDSA_N])
{
    int16_t t[MLDSA_N];
    unsigned int k = MLDSA_N;
    for (unsigned int n = 0; n < MLDSA_N; n++) {
        t[n] = (int16_t)mont16((int32_t)a[n] * b[n]);
    }
    for (unsigned int len = 1; len <= 64; len <<= 1) {
        if (len == 4 || len == 32) {
            for (unsigned int n = 0; n < MLDSA_N; n++) {
                t[n] = (int16_t)mont16(t[n]);
            }
        }
        for (unsigned int start = 0; start < MLDSA_N; start += 2 * len) {
            const int32_t z = -zetas16[--k];
            for (unsigned int j = start; j < start + len; j++) {
                const int32_t u = t[j];
                t[j] = (int16_t)(u + t[j + len]);
                t[j + len] = (int16_t)mont16(z * (u - t[j + len]));
            }
        }
    }
    /* the last layer (len = 128) merged with the scaling; |x| <= 5280, so x is the exact
     * product whenever that has |.| <= p - 1 - 5280 = 2400 */
    for (unsigned int j = 0; j < MLDSA_N / 2; j++) {
        const int32_t u = t[j], v = t[j + MLDSA_N / 2];
        r[j] = base[j] + mont16(P16_F * (u + v));
        r[j + MLDSA_N / 2] = base[j + MLDSA_N / 2] + mont16(P16_F_LAST * (u - v));
    }
}
