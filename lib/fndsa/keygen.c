/* SPDX-License-Identifier: MIT */
/* Falcon key generation (round-3 specification v1.2, section 3.8, alg. 4):
 * f, g from a discrete Gaussian of parameter 1.17 sqrt(q / 2n), rejection of
 * candidates whose (f, g) or orthogonalised (q adj(f)/(f adj(f) + g adj(g)), q adj(g)/(...))
 * norm exceeds 1.17^2 q, public key h = g / f mod q, then NTRUSolve.
 *
 * The Gaussian is the round-3 package's (whose output the KAT files record):
 * a coefficient is the sum of 2^(10 - logn) samples from a 63-bit CDT table
 * for n = 1024, each sample using two 64-bit little-endian words of the
 * SHAKE256 stream (sign and "is zero" from the first, the magnitude from the
 * second); coefficients outside [-127, 127] are drawn again, and the last one
 * is drawn again until f(1) is odd (so the resultant with x^n + 1 is odd).
 * Table scans are full-length counts, without branches (constant time). */
#include "fndsa.h"
#include "tables.h"
#include "ct.h"

unsigned fndsa_keygen_restarts_last = 0;

/* The SHAKE256 stream read 64-bit word by word, squeezed one rate block
 * (136 bytes = 17 words) at a time: the same stream, without a squeeze call
 * per word. The stream is used by key generation only, so reading ahead does
 * not change anything else. */
typedef struct {
    pqlab_keccak_state *st;
    uint8_t buf[136];
    size_t pos;
} kg_rng;

static uint64_t rng_u64(kg_rng *rng)
{
    if (rng->pos == sizeof rng->buf) { /* public position */
        pqlab_shake256_squeeze(rng->buf, sizeof rng->buf, rng->st);
        rng->pos = 0;
    }
    const uint8_t *b = rng->buf + rng->pos;
    rng->pos += 8;
    uint32_t lo = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    uint32_t hi = (uint32_t)b[4] | (uint32_t)b[5] << 8 | (uint32_t)b[6] << 16 | (uint32_t)b[7] << 24;
    return (uint64_t)hi << 32 | lo;
}

static int32_t mkgauss(kg_rng *rng, unsigned logn)
{
    uint32_t cnt = 1u << (10 - logn);
    int32_t val = 0;
    for (uint32_t i = 0; i < cnt; i++) {
        uint64_t r = rng_u64(rng);
        uint32_t neg = (uint32_t)(r >> 63);
        r &= ~((uint64_t)1 << 63);
        /* z = 1: the value is 0 (r < P(0) scaled) */
        uint32_t z = (uint32_t)((r - fndsa_gauss_1024_12289[0]) >> 63);
        r = rng_u64(rng) & ~((uint64_t)1 << 63);
        /* else the magnitude is the first k >= 1 with r >= T[k]; T[1..26] is
         * strictly decreasing and T[26] = 0, so that k is 1 + #{k in 1..25 :
         * r < T[k]} (r, T[k] < 2^63: the sign of r - T[k] is r < T[k]) */
        uint32_t v = 1;
        /* unrolled: no loop counter, table entries at fixed offsets */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 25
#endif
        for (uint32_t k = 1; k < 26; k++) {
            v += (uint32_t)((r - fndsa_gauss_1024_12289[k]) >> 63);
        }
        v &= z - 1;
        v = (v ^ ((uint32_t)0 - neg)) + neg;
        val += (int32_t)v;
    }
    return val;
}

static void poly_small_mkgauss(kg_rng *rng, int8_t *f, unsigned logn)
{
    size_t n = (size_t)1 << logn;
    uint32_t mod2 = 0;
    for (size_t u = 0; u < n; u++) {
        for (;;) {
            int32_t s = mkgauss(rng, logn);
            /* redraw decisions: out of int8 range (never for n >= 512), and
             * the parity of f(1); declassified, a rejected draw is discarded */
            uint32_t redo = (uint32_t)(s < -127 || s > 127);
            if (u == n - 1) {
                redo |= (mod2 ^ (uint32_t)(s & 1)) == 0;
            }
            PQLAB_DECLASSIFY(&redo, sizeof redo);
            if (redo) {
                continue;
            }
            if (u != n - 1) {
                mod2 ^= (uint32_t)(s & 1);
            }
            f[u] = (int8_t)s;
            break;
        }
    }
}

unsigned fndsa_keygen(pqlab_keccak_state *rng, int8_t *f, int8_t *g, int8_t *F, int8_t *G,
                      uint16_t *h, unsigned logn, uint8_t *tmp)
{
    size_t n = (size_t)1 << logn;
    unsigned restarts = 0;
    fpr *rt = (fpr *)(void *)tmp;
    int32_t lim = 1 << ((logn == 10 ? 5 : 6) - 1);
    kg_rng kr;
    kr.st = rng;
    kr.pos = sizeof kr.buf;
    for (;; restarts++) {
        poly_small_mkgauss(&kr, f, logn);
        poly_small_mkgauss(&kr, g, logn);

        /* coefficients must fit the private-key encoding: |x| < lim */
        uint32_t bad = 0, sq = 0;
        for (size_t u = 0; u < n; u++) {
            bad |= (uint32_t)(lim - 1 - f[u]) >> 31 | (uint32_t)(f[u] + lim - 1) >> 31;
            bad |= (uint32_t)(lim - 1 - g[u]) >> 31 | (uint32_t)(g[u] + lim - 1) >> 31;
            sq += (uint32_t)(f[u] * f[u] + g[u] * g[u]);
        }
        /* squared norm of (f, g) below 1.17^2 q = 16822.4: 16823 is the
         * first integer above */
        bad |= (16822u - sq) >> 31;
        PQLAB_DECLASSIFY(&bad, sizeof bad);
        if (bad) {
            continue;
        }

        /* orthogonalised vector norm ||(q adj(f)/(f adj(f) + g adj(g)), q adj(g)/(...))||^2,
         * evaluated in the FFT domain: in slot j the pair has squared modulus
         * q^2 (|f_j|^2 + |g_j|^2) / D_j^2 = q^2 / D_j with D_j = |f_j|^2 + |g_j|^2,
         * and for a real polynomial sum x_i^2 = (2/n) sum over the n/2 slots of
         * |x_j|^2 (Parseval), so the norm is (2 q^2 / n) sum_j 1/D_j. The same value
         * as the coefficient-domain sum (the reference's order) up to rounding
         * (relative 2^-40 at most): only a candidate within that distance of the
         * bound could be judged differently. */
        fpr *r1 = rt, *r2 = rt + n, *r3 = rt + 2 * n, *sc = rt + 3 * n;
        for (size_t u = 0; u < n; u++) {
            r1[u] = fpr_of(f[u]);
            r2[u] = fpr_of(g[u]);
        }
        fndsa_fft(r1, logn, sc);
        fndsa_fft(r2, logn, sc);
        fndsa_poly_invnorm2_fft(r3, r1, r2, logn);
        fpr bn = FPR_ZERO;
        for (size_t u = 0; u < (n >> 1); u++) {
            bn = fpr_add(bn, r3[u]);
        }
        /* 2 q^2 = 302039042 (exact), / n by the exponent */
        bn = fpr_ldexp(fpr_mul(bn, fpr_of(2 * 12289 * 12289)), -(int)logn);
        int okn = fpr_lt(bn, FPR_BNORM_MAX);
        PQLAB_DECLASSIFY(&okn, sizeof okn);
        if (!okn) {
            continue;
        }

        if (!fndsa_compute_public(h, f, g, logn, (uint16_t *)(void *)tmp)) {
            continue;
        }
        if (!fndsa_solve_ntru(F, G, f, g, logn, (uint32_t *)(void *)tmp)) {
            continue;
        }
        break;
    }
    pqlab_zeroize(kr.buf, sizeof kr.buf);
    fndsa_keygen_restarts_last = restarts;
    return restarts;
}
