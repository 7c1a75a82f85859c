/* SPDX-License-Identifier: MIT */
/* Number-theoretic transform of ML-KEM, FIPS 203 section 4.3:
 * NTT (Algorithm 9), NTT^-1 (Algorithm 10), MultiplyNTTs / BaseCaseMultiply
 * (Algorithms 11 and 12). Portable C kernels; see kernels.h for the contract. */
#include "kernels.h"
#include "reduce.h"

/* zetas[i] = zeta^BitRev7(i) * 2^16 mod q, as the centred representative in
 * [-(q-1)/2, (q-1)/2], with zeta = 17 (FIPS 203 section 4.3; the values of
 * Appendix A times the Montgomery factor 2^16). Computed with Python:
 *   [c(pow(17, br7(i), 3329) * 2**16) for i in range(128)].
 * zetas[0] is not used by the transforms. */
const int16_t mlkem_zetas[128] = {
    -1044, -758,  -359,  -1517, 1493,  1422,  287,   202,   -171,  622,   1577,  182,   962,
    -1202, -1474, 1468,  573,   -1325, 264,   383,   -829,  1458,  -1602, -130,  -681,  1017,
    732,   608,   -1542, 411,   -205,  -1571, 1223,  652,   -552,  1015,  -1293, 1491,  -282,
    -1544, 516,   -8,    -320,  -666,  -1618, -1162, 126,   1469,  -853,  -90,   -271,  830,
    107,   -1421, -247,  -951,  -398,  961,   -1508, -725,  448,   -1065, 677,   -1275, -1103,
    430,   555,   843,   -1251, 871,   1550,  105,   422,   587,   177,   -235,  -291,  -460,
    1574,  1653,  -246,  778,   1159,  -147,  -777,  1483,  -602,  1119,  -1590, 644,   -872,
    349,   418,   329,   -156,  -75,   817,   1097,  603,   610,   1322,  -1285, -1465, 384,
    -1215, -136,  1218,  -1335, -874,  220,   -1187, -1659, -1185, -1530, -1278, 794,   -1510,
    -854,  -870,  478,   -108,  -308,  996,   991,   958,   -1460, 1522,  1628};

/* 2^32 / 128 mod q = 1441: the final factor of NTT^-1 (128^-1, Algorithm 10
 * line 14) times 2^16 for the Montgomery multiplication, times another 2^16 so
 * that the output carries the factor R of the kernels.h convention. */
#define MLKEM_INVNTT_F 1441

/* Algorithm 9. Cooley-Tukey butterflies (a, b) -> (a + zeta b, a - zeta b).
 * Bounds: fqmul(zeta, b) has |.| < q, so each of the 7 layers adds less than q
 * to the largest magnitude: from |c| < q the values stay below 8q = 26632,
 * within int16. A final Barrett pass makes the output reduced. */
void mlkem_ntt_c(mlkem_poly *r) {
    int16_t *f = r->c;
    unsigned int k = 1;
    for (unsigned int len = 128; len >= 2; len >>= 1) {
        for (unsigned int start = 0; start < MLKEM_N; start += 2 * len) {
            const int16_t zeta = mlkem_zetas[k++];
            for (unsigned int j = start; j < start + len; j++) {
                int16_t t = mlkem_fqmul(zeta, f[j + len]); /* |zeta| <= 1664: valid for any int16 */
                f[j + len] = (int16_t)(f[j] - t);
                f[j] = (int16_t)(f[j] + t);
            }
        }
    }
    for (unsigned int j = 0; j < MLKEM_N; j++) {
        f[j] = mlkem_barrett_reduce(f[j]);
    }
}

/* Algorithm 10 (times R, see kernels.h). Gentleman-Sande butterflies
 * (a, b) -> (a + b, zeta (b - a)) with the zetas in reverse order.
 * Bounds: the input is first Barrett-reduced to |c| <= (q-1)/2 < q/2. A sum
 * doubles the bound, a product is < q. After layers 1..3 (len 2, 4, 8) values
 * are < 4q; layer 4 (len 16) forms sums < 8q and reduces them again, so layers
 * 5..7 end below 8q = 26632; differences are formed in int32 and fed to fqmul
 * (|zeta| <= 1664, |b - a| < 16q: product < q*2^15). The final fqmul by 1441
 * gives |c| < q. */
void mlkem_invntt_c(mlkem_poly *r) {
    int16_t *f = r->c;
    unsigned int k = 127;
    for (unsigned int j = 0; j < MLKEM_N; j++) {
        f[j] = mlkem_barrett_reduce(f[j]);
    }
    for (unsigned int len = 2; len <= 128; len <<= 1) {
        for (unsigned int start = 0; start < MLKEM_N; start += 2 * len) {
            const int16_t zeta = mlkem_zetas[k--];
            for (unsigned int j = start; j < start + len; j++) {
                int16_t t = f[j];
                int16_t s = (int16_t)(t + f[j + len]);
                if (len == 16) { /* public loop bound, not data */
                    s = mlkem_barrett_reduce(s);
                }
                f[j] = s;
                f[j + len] = mlkem_montgomery_reduce((int32_t)zeta * ((int32_t)f[j + len] - t));
            }
        }
    }
    for (unsigned int j = 0; j < MLKEM_N; j++) {
        f[j] = mlkem_fqmul(f[j], MLKEM_INVNTT_F);
    }
}

/* Algorithm 11: BaseCaseMultiply (Algorithm 12, reduce.h) on each of the 128
 * pairs, accumulated into r with the factor R^-1. */
void mlkem_basemul_acc_c(mlkem_poly *r, const mlkem_poly *a, const mlkem_poly *b) {
    for (unsigned int p = 0; p < MLKEM_N / 2; p++) {
        mlkem_basemul_pair(&r->c[2 * p], a->c[2 * p], a->c[2 * p + 1], &b->c[2 * p], p);
    }
}
