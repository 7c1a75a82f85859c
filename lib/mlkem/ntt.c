/* SPDX-License-Identifier: MIT */
/* Number-theoretic transform of ML-KEM, FIPS 203 section 4.3:
 * NTT (Algorithm 9), NTT^-1 (Algorithm 10), MultiplyNTTs / BaseCaseMultiply
 * (Algorithms 11 and 12). Portable C kernels; see kernels.h for the contract. */
#include <string.h>
#include "kernels.h"
#include "reduce.h"

/* zetas[i] = zeta^BitRev7(i) * 2^16 mod q, as the centred representative in
 * [-(q-1)/2, (q-1)/2], with zeta = 17 (FIPS 203 section 4.3; the values of
 * Appendix A times the Montgomery factor 2^16). Computed with Python:
 *   [c(pow(17, br7(i), 3329) * 2**16) for i in range(128)].
 * zetas[0] is not used by the transforms. */
const int16_t mlkem_zetas[128] = {
    -1044, -758,  -359,  -1517, 1493,  1422,  287,   202,   -171,  622,  1577,  182,   962,   -1202, -1474, 1468,
    573,   -1325, 264,   383,   -829,  1458,  -1602, -130,  -681,  1017, 732,   608,   -1542, 411,   -205,  -1571,
    1223,  652,   -552,  1015,  -1293, 1491,  -282,  -1544, 516,   -8,   -320,  -666,  -1618, -1162, 126,   1469,
    -853,  -90,   -271,  830,   107,   -1421, -247,  -951,  -398,  961,  -1508, -725,  448,   -1065, 677,   -1275,
    -1103, 430,   555,   843,   -1251, 871,   1550,  105,   422,   587,  177,   -235,  -291,  -460,  1574,  1653,
    -246,  778,   1159,  -147,  -777,  1483,  -602,  1119,  -1590, 644,  -872,  349,   418,   329,   -156,  -75,
    817,   1097,  603,   610,   1322,  -1285, -1465, 384,   -1215, -136, 1218,  -1335, -874,  220,   -1187, -1659,
    -1185, -1530, -1278, 794,   -1510, -854,  -870,  478,   -108,  -308, 996,   991,   958,   -1460, 1522,  1628};

/* 2^32 / 128 mod q = 1441: the final factor of NTT^-1 (128^-1, Algorithm 10
 * line 14) times 2^16 for the Montgomery multiplication, times another 2^16 so
 * that the output carries the factor R of the kernels.h convention. */
#define MLKEM_INVNTT_F 1441

/* Algorithm 9. Cooley-Tukey butterflies (a, b) -> (a + zeta b, a - zeta b);
 * layer len (128, 64, ..., 2) uses zetas[128/len + block] for its blocks of
 * 2 len coefficients, exactly the order of Algorithm 9's counter i. Two layers
 * are done per pass (four coefficients in registers), which halves the loads
 * and stores; the arithmetic is the same as one layer at a time.
 * Bounds: fqmul(zeta, b) has |.| < q, so each of the 7 layers adds less than q
 * to the largest magnitude: from |c| < q the values stay below 8q = 26632,
 * within int16. A final Barrett pass makes the output reduced. */
static void ntt_two_layers(int16_t *f, unsigned int len)
{
    const unsigned int h = len >> 1;
    for (unsigned int b = 0; b < MLKEM_N / (2 * len); b++) {
        const unsigned int start = 2 * len * b;
        const int16_t z1 = mlkem_zetas[MLKEM_N / 2 / len + b];     /* layer len */
        const int16_t z2 = mlkem_zetas[MLKEM_N / len + 2 * b];     /* layer len/2, first half */
        const int16_t z3 = mlkem_zetas[MLKEM_N / len + 2 * b + 1]; /* layer len/2, second half */
        for (unsigned int j = start; j < start + h; j++) {
            int16_t a0 = f[j], a1 = f[j + h], a2 = f[j + len], a3 = f[j + len + h];
            int16_t t;
            t = mlkem_fqmul(z1, a2);
            a2 = (int16_t)(a0 - t);
            a0 = (int16_t)(a0 + t);
            t = mlkem_fqmul(z1, a3);
            a3 = (int16_t)(a1 - t);
            a1 = (int16_t)(a1 + t);
            t = mlkem_fqmul(z2, a1);
            a1 = (int16_t)(a0 - t);
            a0 = (int16_t)(a0 + t);
            t = mlkem_fqmul(z3, a3);
            a3 = (int16_t)(a2 - t);
            a2 = (int16_t)(a2 + t);
            f[j] = a0;
            f[j + h] = a1;
            f[j + len] = a2;
            f[j + len + h] = a3;
        }
    }
}

void mlkem_ntt_c(mlkem_poly *r)
{
    int16_t *f = r->c;
    ntt_two_layers(f, 128);                          /* layers 128, 64 */
    ntt_two_layers(f, 32);                           /* layers 32, 16 */
    ntt_two_layers(f, 8);                            /* layers 8, 4 */
    for (unsigned int b = 0; b < MLKEM_N / 4; b++) { /* layer 2: zetas[64 + b] */
        const int16_t zeta = mlkem_zetas[64 + b];
        for (unsigned int j = 4 * b; j < 4 * b + 2; j++) {
            int16_t t = mlkem_fqmul(zeta, f[j + 2]); /* |zeta| <= 1664: valid for any int16 */
            f[j + 2] = (int16_t)(f[j] - t);
            f[j] = (int16_t)(f[j] + t);
        }
    }
    for (unsigned int j = 0; j < MLKEM_N; j++) {
        f[j] = mlkem_barrett_reduce(f[j]);
    }
}

/* Gentleman-Sande butterfly (a, b) -> (a + b, zeta (b - a)); the difference is
 * formed in int32 (|b - a| < 16q, |zeta| <= 1664: product < q 2^15). */
static inline void gs(int16_t *a, int16_t *b, int16_t zeta)
{
    const int16_t t = *a;
    *a = (int16_t)(t + *b);
    *b = mlkem_montgomery_reduce((int32_t)zeta * ((int32_t)*b - t));
}

/* Two inverse layers len and 2 len per pass; layer len uses
 * zetas[256/len - 1 - block] for its blocks of 2 len coefficients (Algorithm 10's
 * decreasing counter i). With reduce, the sums of the second layer are
 * Barrett-reduced (used for the layer pair 8, 16). */
static void invntt_two_layers(int16_t *f, unsigned int len, int reduce)
{
    for (unsigned int b = 0; b < MLKEM_N / (4 * len); b++) {
        const unsigned int start = 4 * len * b;
        const int16_t za = mlkem_zetas[MLKEM_N / len - 1 - 2 * b]; /* layer len, 1st */
        const int16_t zb = mlkem_zetas[MLKEM_N / len - 2 - 2 * b]; /* layer len, 2nd */
        const int16_t zc = mlkem_zetas[MLKEM_N / 2 / len - 1 - b]; /* layer 2 len */
        for (unsigned int j = start; j < start + len; j++) {
            int16_t a0 = f[j], a1 = f[j + len], a2 = f[j + 2 * len], a3 = f[j + 3 * len];
            gs(&a0, &a1, za);
            gs(&a2, &a3, zb);
            gs(&a0, &a2, zc);
            gs(&a1, &a3, zc);
            if (reduce) { /* public flag */
                a0 = mlkem_barrett_reduce(a0);
                a1 = mlkem_barrett_reduce(a1);
            }
            f[j] = a0;
            f[j + len] = a1;
            f[j + 2 * len] = a2;
            f[j + 3 * len] = a3;
        }
    }
}

/* Algorithm 10 (times R, see kernels.h), zetas in reverse order.
 * Bounds: the input is first Barrett-reduced to |c| <= (q-1)/2 < q/2. A sum
 * doubles the bound, a product is < q. After layers 2, 4, 8 values are < 4q;
 * layer 16 forms sums < 8q and reduces them again, so layers 32, 64, 128 end
 * below 8q = 26632; differences are < 16q in int32 before fqmul. The final
 * fqmul by 1441 gives |c| < q. */
void mlkem_invntt_c(mlkem_poly *r)
{
    int16_t *f = r->c;
    for (unsigned int j = 0; j < MLKEM_N; j++) {
        f[j] = mlkem_barrett_reduce(f[j]);
    }
    invntt_two_layers(f, 2, 0);              /* layers 2, 4 */
    invntt_two_layers(f, 8, 1);              /* layers 8, 16; the layer-16 sums reduced */
    invntt_two_layers(f, 32, 0);             /* layers 32, 64 */
    for (unsigned int j = 0; j < 128; j++) { /* layer 128: zetas[1] */
        gs(&f[j], &f[j + 128], mlkem_zetas[1]);
    }
    for (unsigned int j = 0; j < MLKEM_N; j++) {
        f[j] = mlkem_fqmul(f[j], MLKEM_INVNTT_F);
    }
}

/* Algorithm 11: BaseCaseMultiply (Algorithm 12, reduce.h) on each of the 128
 * pairs, accumulated into r with the factor R^-1. */
void mlkem_basemul_acc_c(mlkem_poly *r, const mlkem_poly *a, const mlkem_poly *b)
{
    for (unsigned int p = 0; p < MLKEM_N / 2; p++) {
        mlkem_basemul_pair(&r->c[2 * p], a->c[2 * p], a->c[2 * p + 1], &b->c[2 * p], p);
    }
}

void mlkem_basemul_pairs_c(int16_t *r, const int16_t *a, const int16_t *b, unsigned int p, unsigned int n)
{
    for (unsigned int i = 0; i < n; i++) {
        mlkem_basemul_pair(&r[2 * i], a[2 * i], a[2 * i + 1], &b[2 * i], p + i);
    }
}

/* r = r R^2 R^-1 + b (fqmul by 2^32 mod q = 1353, then the sum): cancels the R^-1 that the
 * base multiplications leave when no inverse NTT follows (t_hat in key generation). Any
 * int16 r (|r 1353| < q 2^15); |b| <= q. */
void mlkem_tomont_add_c(mlkem_poly *r, const mlkem_poly *b)
{
    for (unsigned int j = 0; j < MLKEM_N; j++) {
        r->c[j] = (int16_t)(mlkem_fqmul(r->c[j], 1353) + b->c[j]);
    }
}

/* The b1 gamma products of Algorithm 12 for each pair of b: bg[p] = b[2p+1] gamma_p mod q
 * (Montgomery product with the table's gamma_p R; |gamma R| <= 1664, so any int16 b is
 * admissible and |bg| < q). Computed once per vector polynomial, they turn every later base
 * multiplication with b into two dot products of pairs (basemul_pairs32). */
void mlkem_mulcache_c(mlkem_polycache *bg, const mlkem_poly *b)
{
    for (unsigned int p = 0; p < MLKEM_N / 2; p++) {
        const int16_t z = mlkem_zetas[64 + (p >> 1)];
        const int16_t gamma = (p & 1) ? (int16_t)-z : z;
        bg->c[p] = mlkem_fqmul(b->c[2 * p + 1], gamma);
    }
}

/* Algorithm 12 without the reductions: (a0 + a1 X)(b0 + b1 X) mod X^2 - gamma is
 * (a0 b0 + a1 b1 gamma) + (a0 b1 + a1 b0) X, and with bg = b1 gamma mod q both coefficients
 * are sums of two products of values below q: each term |t| < 2q^2 = 22,165,282, and k <= 4
 * terms stay below q 2^15 = 109,084,672 (reduce32's bound). */
void mlkem_basemul_pairs32_c(int32_t *r, const int16_t *a, const int16_t *b, const int16_t *bg, unsigned int n)
{
    for (unsigned int i = 0; i < n; i++) {
        const int32_t a0 = a[2 * i], a1 = a[2 * i + 1], b0 = b[2 * i], b1 = b[2 * i + 1];
        r[2 * i] += a0 * b0 + a1 * bg[i];
        r[2 * i + 1] += a0 * b1 + a1 * b0;
    }
}

/* One Montgomery reduction per coefficient: |a| < q 2^15 gives |r| < q (reduce.h). */
void mlkem_reduce32_c(mlkem_poly *r, const mlkem_poly32 *a)
{
    for (unsigned int j = 0; j < MLKEM_N; j++) {
        r->c[j] = mlkem_montgomery_reduce(a->c[j]);
    }
}

/* round(2^32 / q): the 32-bit Barrett constant of reduce32_add. */
#define MLKEM_BARRETT32_V 1290167

/* r = a - round(a V / 2^32) q + b. V q = 2^32 - 1353, so a V / 2^32 = a / q (1 - 1353 / 2^32):
 * for |a| < q 2^15 the quotient is off from a / q by at most 2^15 1353 / 2^32 < 0.011, and
 * |a - t q| <= q / 2 + 0.011 q < 1699. (The rounding is that of SMMULR.) */
void mlkem_reduce32_add_c(mlkem_poly *r, const mlkem_poly32 *a, const mlkem_poly *b)
{
    for (unsigned int j = 0; j < MLKEM_N; j++) {
        const int32_t x = a->c[j];
        const int32_t t = (int32_t)(((int64_t)x * MLKEM_BARRETT32_V + ((int64_t)1 << 31)) >> 32);
        r->c[j] = (int16_t)(x - t * MLKEM_Q + b->c[j]);
    }
}
