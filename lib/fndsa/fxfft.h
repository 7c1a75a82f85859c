/* SPDX-License-Identifier: MIT */
/* Fixed-point (int64) negacyclic FFT levels shared by key generation's orthogonalised-norm
 * check (keygen.c, ortho_norm) and the fixed-point Babai steps of the NTRU solver (ntru.c):
 * the products with the Q63 twiddles of tables_fx.h and the level loop. The error analyses
 * are with their callers. */
#ifndef PQLAB_FNDSA_FXFFT_H
#define PQLAB_FNDSA_FXFFT_H

#include <stddef.h>
#include <stdint.h>

#include "tables_fx.h"

/* round(b * Z / 2^63) to within 1 (error analyses: keygen.c, ntru.c), with b = bh 2^32 + bl, Z = zh 2^32 + zl, all
 * halves signed 32-bit: b Z / 2^63 = 2 bh zh + (bh zl + bl zh) / 2^31 + bl zl / 2^63, and
 * the last term (at most 1/2) is dropped. |bh| <= 2^30.02 + 1, so |bh zl + bl zh| < 2^62.6.
 * Signed right shifts are arithmetic (GCC, Clang). */
static inline int64_t fx_mul(int32_t bh, int32_t bl, int32_t zh, int32_t zl)
{
    int64_t p = (int64_t)bh * zh;
    int64_t m = (int64_t)bh * zl + (int64_t)bl * zh + ((int64_t)1 << 30);
    return 2 * p + (m >> 31);
}

/* x = h 2^32 + l, l = the low word as signed (two's complement conversion, GCC and Clang
 * reduce modulo 2^32), h = the high word plus its borrow */
static inline void fx_split(int64_t x, int32_t *h, int32_t *l)
{
    uint32_t lo = (uint32_t)(uint64_t)x;
    *l = (int32_t)lo;
    *h = (int32_t)(x >> 32) + (int32_t)(lo >> 31);
}

/* the levels from the one with blk blocks of 2 len complex values (block k's twiddle at
 * fndsa_fx_zeta[blk - 1 + k]) down to len = 1, in place (values interleaved re, im) */
static inline void fx_fft_levels(int64_t *a, size_t len, size_t blk)
{
    for (; len > 0; len >>= 1, blk <<= 1) {
        for (size_t k = 0; k < blk; k++) {
            const int32_t *z = fndsa_fx_zeta[blk - 1 + k];
            int32_t zrh = z[0], zrl = z[1], zih = z[2], zil = z[3];
            int64_t *pa = a + 4 * len * k, *pb = pa + 2 * len;
            for (size_t j = 0; j < 2 * len; j += 2) {
                int32_t brh, brl, bih, bil;
                fx_split(pb[j], &brh, &brl);
                fx_split(pb[j + 1], &bih, &bil);
                /* real part stored before the imaginary one is computed (fewer live
                 * values; b is in registers already) */
                int64_t t = fx_mul(brh, brl, zrh, zrl) - fx_mul(bih, bil, zih, zil);
                int64_t x = pa[j];
                pa[j] = x + t;
                pb[j] = x - t;
                t = fx_mul(brh, brl, zih, zil) + fx_mul(bih, bil, zrh, zrl);
                x = pa[j + 1];
                pa[j + 1] = x + t;
                pb[j + 1] = x - t;
            }
        }
    }
}

#endif
