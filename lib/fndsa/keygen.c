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
#include "tables_fx.h"
#include "fxfft.h"
#include "ct.h"
#include "../native/api.h" /* the backend contract (lib/native/fndsa_*.h) */

unsigned fndsa_keygen_restarts_last = 0;

/* The SHAKE256 stream read 64-bit word by word, squeezed one rate block
 * (136 bytes = 17 words) at a time: the same stream, without a squeeze call
 * per word. The stream is used by key generation only, so reading ahead does
 * not change anything else. */
typedef fndsa_keygen_rng kg_rng; /* fndsa.h */

static uint64_t rng_u64(kg_rng *rng)
{
    if (rng->pos == sizeof rng->buf) { /* public position */
        pqlab_shake256_squeeze(rng->buf, sizeof rng->buf, &rng->st);
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
#ifdef PQLAB_FNDSA_GAUSS_NATIVE
    if (logn == 9) { /* public: Falcon-512's two samples per coefficient in one kernel call */
        if (rng->pos + 32 <= sizeof rng->buf) { /* public position: read in place */
            /* the buffer's 64-bit words are little-endian, the kernel's layout on ARM */
            const uint32_t *w = (const uint32_t *)(const void *)(rng->buf + rng->pos);
            rng->pos += 32;
            return pqlab_fndsa_mkgauss2_native(w, fndsa_gauss_1024_12289);
        }
        uint32_t r[8];
        for (unsigned i = 0; i < 4; i++) {
            uint64_t w = rng_u64(rng);
            r[2 * i] = (uint32_t)w;
            r[2 * i + 1] = (uint32_t)(w >> 32);
        }
        int32_t v = pqlab_fndsa_mkgauss2_native(r, fndsa_gauss_1024_12289);
        pqlab_zeroize(r, sizeof r);
        return v;
    }
#endif
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

/* ---- orthogonalised norm in fixed point ----
 *
 * The norm check needs N = (2 q^2 / n) sum_j 1 / D_j, D_j = |f_j|^2 + |g_j|^2 over the
 * n/2 roots zeta_j of x^n + 1 in the upper half plane (see fndsa_keygen). f and g are small
 * integers, so their FFTs are computed in integers (Q50 fixed point in int64): no
 * floating point until the n/2 reciprocals 1 / D_j (fpr_of, fpr_inv, fpr_add: correctly
 * rounded, so the same bits on both fpr layers), and no secret-dependent branch or address.
 *
 * FFT: a negacyclic Cooley-Tukey FFT in place. The complex polynomial a_j = f_j + i f_{j+n/2}
 * (j < n/2) is f mod (x^{n/2} - i); each level splits every block x^{2m} - c into
 * x^m - s and x^m + s, s = sqrt(c) (a_k, a_{k+m} -> a_k + s a_{k+m}, a_k - s a_{k+m}), down
 * to m = 1, where the block of index k holds f(s_k) and f(-s_k). The order of the n/2 values
 * is not the one of fft.c, but their set is (one root of each conjugate pair, since
 * x^{n/2} = i excludes the conjugates), and the sum does not depend on the order. The s
 * values are the table fndsa_fx_zeta (gen_tables.py, fx_roots): round(s 2^63), each part
 * split into signed 32-bit halves.
 *
 * Bounds (precondition: ||f||^2 + ||g||^2 <= 16822, checked before): every value of every
 * level is a coefficient of f mod (x^m - c) with |c| = 1, so its modulus is at most
 * ||f||_1 <= sqrt(n) ||f||_2 <= sqrt(1024 * 16822) < 4150.4 < 2^12.02, and so are its real
 * and imaginary parts: below 2^62.02 in Q50, and so is every sum and difference below.
 *
 * Error (u = 2^-50): level 1 multiplies the exact integer inputs (|b| < 44) with one
 * rounding per part: |error| <= 0.71 u (the twiddle's rounding adds < 2^-8 u). A later
 * level's real product (fx_mul) is within 1 u of b * Z / 2^63 (rounding 1/2, the dropped
 * bl * zl / 2^63 at most 1/2); a complex product s b is within 2 sqrt(2) u of b times the
 * table's s, which is within 2^-63.5 of the true s (|b| 2^-63.5 < 0.36 u): r <= 3.19 u. With
 * e_l <= 2 e_{l-1} + r over L = logn - 1 levels, every FFT value is within
 * eps = 2^(L-1) 0.71 u + (2^(L-1) - 1) 3.19 u: 496 u = 2^-41.04 (n = 512), 995 u = 2^-40.04
 * (n = 1024). Then D_j (Q38, fx_norm2) is within 2 eps (|f_j| + |g_j|) + 2 eps^2 + 0.51 2^-38
 * <= 2 sqrt(2 D_j) eps + ... of the exact D_j.
 * Decision: with B = 1.17^2 q n / (2 q^2) the bound on S = sum 1/D_j, any D_j < D0 = 1 / (2 B)
 * (17.5 for n = 512, 8.77 for n = 1024) puts S above 2 B and its computed term above
 * 2 B / (1 + rho), so such candidates are rejected as they should be; every other term has a
 * relative error rho <= 2 sqrt(2) eps / sqrt(D0) + (2 eps^2 + 0.51 2^-38) / D0 (2^-41.17 and
 * 2^-39.79), and the n/2 reciprocals, their sum and the scaling by 2 q^2 add (n/2 + 2) 2^-53
 * (2^-45, 2^-44). So the computed N is within a relative delta of the exact one, delta <=
 * 2^-41.07 (n = 512) and 2^-39.71 (n = 1024), whenever N < 2 * 1.17^2 q: only a candidate
 * with N within that relative distance of the bound can be judged differently from an exact
 * computation (the FFT-domain double computation before it was within about 2^-40 too).
 * test_fndsa.py::test_ortho_norm_fixed_point checks these bounds against a 124-bit
 * reference on thousands of (f, g). */

/* a[2k], a[2k+1] (k < n/2) <- real and imaginary parts of f at the n/2 roots, Q50 */
static void fx_fft(int64_t *a, const int8_t *f, unsigned logn)
{
    size_t hn = (size_t)1 << (logn - 1), qn = hn >> 1;
    /* level 1 from the integers: a_j = f_j + i f_{j+hn}, b = a_{j+qn}; b Z exact in
     * 2^-63 units as (b zh) 2^32 + b zl, |b zh| < 2^36.5: one rounding to Q50 */
    const int32_t *z = fndsa_fx_zeta[0];
    for (size_t j = 0; j < qn; j++) {
        int32_t ar = f[j], ai = f[j + hn], br = f[j + qn], bi = f[j + qn + hn];
        int64_t th = (int64_t)br * z[0] - (int64_t)bi * z[2];
        int64_t tl = (int64_t)br * z[1] - (int64_t)bi * z[3];
        int64_t tr = th * ((int64_t)1 << 19) + ((tl + ((int64_t)1 << 12)) >> 13);
        th = (int64_t)br * z[2] + (int64_t)bi * z[0];
        tl = (int64_t)br * z[3] + (int64_t)bi * z[1];
        int64_t ti = th * ((int64_t)1 << 19) + ((tl + ((int64_t)1 << 12)) >> 13);
        int64_t xr = (int64_t)ar * ((int64_t)1 << 50), xi = (int64_t)ai * ((int64_t)1 << 50);
        a[2 * j] = xr + tr;
        a[2 * j + 1] = xi + ti;
        a[2 * (j + qn)] = xr - tr;
        a[2 * (j + qn) + 1] = xi - ti;
    }
    /* levels 2..logn-1 */
    fx_fft_levels(a, qn >> 1, 2);
}

/* round(sum x_k^2 / 2^62) for four Q50 values (a Q38 result), to within 0.51. With
 * x = h 2^32 + l: sum x^2 = 2^64 A + 2^33 M + sum l^2, A = sum h^2, M = sum h l, and
 * sum l^2 / 2^62 is taken as sum (l^2 >> 33) / 2^29 (loses < 2^-27). Bounds for
 * D = sum x^2 / 2^100 = |f_j|^2 + |g_j|^2 <= ||f||_1^2 + ||g||_1^2 <= 16822 n < 2^24.04:
 * 4 A < 2^62.05; sum |h| <= 2 sqrt(D) 2^18 + 4 < 2^31.03, so |M| < 2^62.03; the sum is
 * never negative (the exact value is not). */
static inline int64_t fx_norm2(const int64_t *x0, const int64_t *x1)
{
    const int64_t x[4] = {x0[0], x0[1], x1[0], x1[1]};
    int64_t A = 0, M = 0, C = 0;
    for (int k = 0; k < 4; k++) {
        int32_t h, l;
        fx_split(x[k], &h, &l);
        A += (int64_t)h * h;
        M += (int64_t)h * l;
        C += (int64_t)((uint64_t)((int64_t)l * l) >> 33);
    }
    return 4 * A + ((M + C + ((int64_t)1 << 28)) >> 29);
}

/* N = (2 q^2 / n) sum_j 1 / D_j as an fpr; w: 2n int64 (16n bytes) */
static fpr ortho_norm(const int8_t *f, const int8_t *g, unsigned logn, int64_t *w)
{
    size_t n = (size_t)1 << logn, hn = n >> 1;
    int64_t *wf = w, *wg = w + n;
    fx_fft(wf, f, logn);
    fx_fft(wg, g, logn);
    fpr s = FPR_ZERO;
    for (size_t j = 0; j < hn; j++) {
        int64_t d = fx_norm2(wf + 2 * j, wg + 2 * j);
        /* d = 0 (all four parts below 2^-50: D_j < 2^-98) would have no inverse: 1 instead,
         * whose inverse 2^38 alone rejects, as D_j < D0 must */
        d += (int64_t)((uint64_t)(d - 1) >> 63);
        s = fpr_add(s, fpr_inv(fpr_of(d)));
    }
    /* s = 2^-38 sum_j 1 / D_j; 2 q^2 = 302039042 (exact), 2^38 / n by the exponent */
    return fpr_ldexp(fpr_mul(s, fpr_of(2 * 12289 * 12289)), 38 - (int)logn);
}

#ifdef PQLAB_FNDSA_KEYGEN_TEST
/* test hook (unit tests only): the orthogonalised norm N of (f, g) as fpr bits;
 * w: 2n int64 */
uint64_t FNDSA_NS(fndsa_keygen_test_onorm)(const int8_t *f, const int8_t *g, int64_t *w);

uint64_t FNDSA_NS(fndsa_keygen_test_onorm)(const int8_t *f, const int8_t *g, int64_t *w)
{
    return fpr_to_bits(ortho_norm(f, g, FNDSA_LOGN, w));
}
#endif

unsigned fndsa_keygen(fndsa_keygen_rng *rng, int8_t *f, int8_t *g, int8_t *F, int8_t *G, uint16_t *h, unsigned logn,
                      uint8_t *tmp)
{
    size_t n = (size_t)1 << logn;
    unsigned restarts = 0;
    int32_t lim = 1 << ((logn == 10 ? 5 : 6) - 1);
    rng->pos = sizeof rng->buf;
    for (;; restarts++) {
        poly_small_mkgauss(rng, f, logn);
        poly_small_mkgauss(rng, g, logn);

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
         * |x_j|^2 (Parseval), so the norm is (2 q^2 / n) sum_j 1/D_j. The FFTs are
         * integer (fixed point, ortho_norm above): the value is within a relative 2^-41
         * (n = 512) / 2^-39.7 (n = 1024) of the exact one near the bound, so only a
         * candidate within that distance of the bound could be judged differently from
         * the reference's coefficient-domain computation (itself rounded). */
        int okn = fpr_lt(ortho_norm(f, g, logn, (int64_t *)(void *)tmp), FPR_BNORM_MAX);
        PQLAB_DECLASSIFY(&okn, sizeof okn);
        if (!okn) {
            continue;
        }

        /* h = g / f mod q exists (f invertible mod q): checked before the solver, h itself
         * computed after it (below), so that h may lie in tmp (the caller's key pair needs
         * no buffer of its own for it); the same candidates pass as with h computed here */
        if (!fndsa_invertible_modq(f, logn, (uint16_t *)(void *)tmp)) {
            continue;
        }
        if (!fndsa_solve_ntru(F, G, f, g, logn, (uint32_t *)(void *)tmp)) {
            continue;
        }
        break;
    }
    (void)fndsa_compute_public(h, f, g, logn, (uint16_t *)(void *)(tmp + 2 * n)); /* 1: checked above */
    pqlab_zeroize(rng->buf, sizeof rng->buf);
    fndsa_keygen_restarts_last = restarts;
    return restarts;
}
