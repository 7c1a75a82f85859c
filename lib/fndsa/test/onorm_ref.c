/* SPDX-License-Identifier: MIT */
/* Host-only reference for the orthogonalised norm of key generation (tests/test_fndsa.py,
 * test_ortho_norm_fixed_point), computed without any FFT, for checking keygen.c's
 * fixed-point value:
 *   N = (2 q^2 / n) sum_{j < n/2} 1 / P(zeta_j),  zeta_j = exp(i pi (2j + 1) / n),
 * with P = f adj(f) + g adj(g) in Z[x]/(x^n + 1), whose integer coefficients are exact here.
 * P is self-adjoint (p_{n-k} = -p_k, p_{n/2} = 0), so P(zeta) = p_0 + 2 sum_{0<k<n/2} p_k
 * cos(k theta). The cosines cos(pi m / n), m < 2n, come from the test as 124-bit fixed-point
 * numbers (hi 2^62 + lo) / 2^124 (hi signed, 0 <= lo < 2^62), computed there with Python
 * integers; the sums are exact in 128-bit integers, so P(zeta_j) is within about
 * sum_k |p_k| 2^-123 of its value, and the last steps (1 / P, the sum of n/2 terms) are in
 * long double (64-bit significand on x86-64, 113 bits on AArch64): relative 2^-54 or better.
 * Not part of any implementation build; needs __int128 (GCC, Clang on 64-bit hosts). */
#include <stddef.h>
#include <stdint.h>

/* significand bits of long double, so the test can require enough of them */
int fndsa_ref_ldbl_bits(void);
double fndsa_ref_onorm(const int8_t *f, const int8_t *g, unsigned logn, const int64_t *chi, const uint64_t *clo,
                       double *lo_out, double *dmin_out);

int fndsa_ref_ldbl_bits(void)
{
    return __LDBL_MANT_DIG__;
}

static void autocorr(int64_t *p, const int8_t *f, size_t n)
{
    /* f(x) f(1/x) mod x^n + 1: x^(i-l) with i - l = k - n < 0 is -x^k; only k < n/2 is
     * needed */
    for (size_t k = 0; k < n / 2; k++) {
        int64_t s = 0;
        for (size_t i = k; i < n; i++) {
            s += (int64_t)f[i] * f[i - k];
        }
        for (size_t i = 0; i < k; i++) {
            s -= (int64_t)f[i] * f[i + n - k];
        }
        p[k] += s;
    }
}

/* returns N rounded to a double; *lo_out = the rest (N - returned value) as a double,
 * *dmin_out = min_j P(zeta_j) */
double fndsa_ref_onorm(const int8_t *f, const int8_t *g, unsigned logn, const int64_t *chi, const uint64_t *clo,
                       double *lo_out, double *dmin_out)
{
    size_t n = (size_t)1 << logn, hn = n >> 1;
    int64_t p[512] = {0};
    autocorr(p, f, n);
    autocorr(p, g, n);
    long double s = 0, dmin = 0;
    for (size_t j = 0; j < hn; j++) {
        __int128 ahi = 0, alo = 0;
        size_t m = 0;
        for (size_t k = 1; k < hn; k++) {
            m += 2 * j + 1; /* k (2j + 1) mod 2n */
            if (m >= 2 * n) {
                m -= 2 * n;
            }
            ahi += (__int128)p[k] * chi[m];
            alo += (__int128)p[k] * (__int128)clo[m];
        }
        /* P(zeta_j) 2^62 = p_0 2^62 + 2 (ahi + alo / 2^62), to within 2 sum |p_k| 2^-62 + 1 */
        __int128 d = ((__int128)p[0] << 62) + 2 * ahi + ((2 * alo) >> 62);
        long double dl = (long double)d / 4611686018427387904.0L; /* 2^62 */
        s += 1.0L / dl;
        if (j == 0 || dl < dmin) {
            dmin = dl;
        }
    }
    long double nv = s * 302039042.0L / (long double)n; /* 2 q^2 / n */
    double hi = (double)nv;
    *lo_out = (double)(nv - (long double)hi);
    *dmin_out = (double)dmin;
    return hi;
}
