/* SPDX-License-Identifier: MIT */
/* FFT over R[x]/(x^n + 1) and polynomial arithmetic in FFT representation
 * (Falcon round-3 specification v1.2, sections 3.6.1 and 3.7, algorithms 1-2
 * splitfft / mergefft).
 *
 * Representation: a real polynomial f of degree < n is stored by its values
 * at the n/2 roots of x^n + 1 in the upper half plane (the other half are
 * conjugates), real parts in f[0..n/2), imaginary parts in f[n/2..n).
 * Root order: R_2 = {i}; for n >= 4, the pair of indices (2u, 2u+1) holds
 * zeta_u and -conj(zeta_u), where zeta_u is the square root in the first
 * quadrant of the n/2-level root u. Then, with f = f0(x^2) + x f1(x^2):
 *   f(zeta_u)          = f0(w_u) + zeta_u f1(w_u)
 *   f(-conj(zeta_u))   = conj(f0(w_u) - zeta_u f1(w_u))
 * which gives mergefft directly and splitfft by inversion. Both are exact
 * up to one rounding per operation; no scaling is needed (the 1/2 of the
 * split is an exact exponent change).
 * Arithmetic: only fpr add/sub/addsub/mul/div/half; the operation order is
 * fixed, so both fpr layers produce identical bits. The butterflies take the sum
 * and the difference of the same two operands with one fpr_addsub. */
#include "fndsa.h"
#include "tables.h"
#include "fft_step.h"

/* Native kernels of this file (contract lib/native/fndsa_fft.h, selected by the backend's meta
 * header) for the native-double layer only: each function first offers its arguments to the
 * kernel, which computes the same bits or declines (then the C below runs). */
#if defined(PQLAB_FNDSA_FFT_NATIVE) && defined(PQLAB_FNDSA_FPR_NATIVE)
#include "../native/fndsa_fft.h"
#define FFT_NATIVE(name, ...)                                                                                          \
    do {                                                                                                               \
        if (pqlab_fndsa_##name##_native(__VA_ARGS__) == PQLAB_NATIVE_DONE) {                                           \
            return;                                                                                                    \
        }                                                                                                              \
    } while (0)
#else
#define FFT_NATIVE(name, ...) ((void)0)
#endif

static inline fpr zeta_re(unsigned logn, size_t u)
{
    return fndsa_fft_zeta[2 * (((size_t)1 << (logn - 2)) - 1 + u)];
}

static inline fpr zeta_im(unsigned logn, size_t u)
{
    return fndsa_fft_zeta[2 * (((size_t)1 << (logn - 2)) - 1 + u) + 1];
}

void fndsa_poly_merge_fft(fpr *f, const fpr *f0, const fpr *f1, unsigned logn)
{
    FFT_NATIVE(poly_merge_fft, f, f0, f1, logn);
    if (logn == 1) {
        f[0] = f0[0];
        f[1] = f1[0];
        return;
    }
    size_t n = (size_t)1 << logn, hn = n >> 1, qn = n >> 2;
    for (size_t u = 0; u < qn; u++) {
        fndsa_merge_step(&f[2 * u], &f[2 * u + 1], &f[2 * u + hn], &f[2 * u + 1 + hn], f0[u], f0[u + qn], f1[u],
                         f1[u + qn], zeta_re(logn, u), zeta_im(logn, u));
    }
}

/* The real parts of the merge above, the same operations on the same operands (f[2u],
 * f[2u + 1] from f0[u] and f1[u], f1[u + n/4]), written over f0 from the last u down: the
 * values 2u, 2u + 1 are written after f0[u] is read, and every f0[v] still to be read has
 * v < u <= 2u. (The NTRU solver's depth-0 D, a self-adjoint polynomial whose division
 * reads only these.) */
void fndsa_poly_merge_fft_re(fpr *f0, const fpr *f1, unsigned logn)
{
    size_t qn = (size_t)1 << (logn - 2);
    for (size_t u = qn; u-- > 0;) {
        fpr a_re = f0[u];
        fpr b_re = f1[u], b_im = f1[u + qn];
        fpr z_re = zeta_re(logn, u), z_im = zeta_im(logn, u);
        fpr t_re = fpr_sub(fpr_mul(z_re, b_re), fpr_mul(z_im, b_im));
        fpr s, d;
        fpr_addsub(a_re, t_re, &s, &d);
        f0[2 * u] = s;
        f0[2 * u + 1] = d;
    }
}

void fndsa_poly_split_fft(fpr *f0, fpr *f1, const fpr *f, unsigned logn)
{
    FFT_NATIVE(poly_split_fft, f0, f1, f, logn);
    if (logn == 1) {
        f0[0] = f[0];
        f1[0] = f[1];
        return;
    }
    size_t n = (size_t)1 << logn, hn = n >> 1, qn = n >> 2;
    for (size_t u = 0; u < qn; u++) {
        fndsa_split_step(&f0[u], &f0[u + qn], &f1[u], &f1[u + qn], f[2 * u], f[2 * u + hn], f[2 * u + 1],
                         f[2 * u + 1 + hn], zeta_re(logn, u), zeta_im(logn, u));
    }
}

/* recursive FFT; tmp holds n values */
void fndsa_fft(fpr *f, unsigned logn, fpr *tmp)
{
    FFT_NATIVE(fft, f, logn, tmp);
    if (logn <= 1) {
        return; /* n = 2: f0 + f1 x at x = i is (f0, f1) itself */
    }
    size_t n = (size_t)1 << logn, hn = n >> 1;
    for (size_t u = 0; u < hn; u++) {
        tmp[u] = f[2 * u];
        tmp[u + hn] = f[2 * u + 1];
    }
    fndsa_fft(tmp, logn - 1, f);
    fndsa_fft(tmp + hn, logn - 1, f + hn);
    fndsa_poly_merge_fft(f, tmp, tmp + hn, logn);
}

void fndsa_ifft(fpr *f, unsigned logn, fpr *tmp)
{
    FFT_NATIVE(ifft, f, logn, tmp);
    if (logn <= 1) {
        return;
    }
    size_t n = (size_t)1 << logn, hn = n >> 1;
    fndsa_poly_split_fft(tmp, tmp + hn, f, logn);
    fndsa_ifft(tmp, logn - 1, f);
    fndsa_ifft(tmp + hn, logn - 1, f + hn);
    for (size_t u = 0; u < hn; u++) {
        f[2 * u] = tmp[u];
        f[2 * u + 1] = tmp[u + hn];
    }
}

void fndsa_poly_add(fpr *a, const fpr *b, unsigned logn)
{
    FFT_NATIVE(poly_add, a, b, logn);
    size_t n = (size_t)1 << logn;
    for (size_t u = 0; u < n; u++) {
        a[u] = fpr_add(a[u], b[u]);
    }
}

void fndsa_poly_sub(fpr *a, const fpr *b, unsigned logn)
{
    FFT_NATIVE(poly_sub, a, b, logn);
    size_t n = (size_t)1 << logn;
    for (size_t u = 0; u < n; u++) {
        a[u] = fpr_sub(a[u], b[u]);
    }
}

void fndsa_poly_neg(fpr *a, unsigned logn)
{
    FFT_NATIVE(poly_neg, a, logn);
    size_t n = (size_t)1 << logn;
    for (size_t u = 0; u < n; u++) {
        a[u] = fpr_neg(a[u]);
    }
}

void fndsa_poly_adj_fft(fpr *a, unsigned logn)
{
    FFT_NATIVE(poly_adj_fft, a, logn);
    size_t n = (size_t)1 << logn;
    for (size_t u = n >> 1; u < n; u++) {
        a[u] = fpr_neg(a[u]);
    }
}

void fndsa_poly_mulconst(fpr *a, fpr x, unsigned logn)
{
    FFT_NATIVE(poly_mulconst, a, x, logn);
    size_t n = (size_t)1 << logn;
    for (size_t u = 0; u < n; u++) {
        a[u] = fpr_mul(a[u], x);
    }
}

void fndsa_poly_mul_fft(fpr *a, const fpr *b, unsigned logn)
{
    FFT_NATIVE(poly_mul_fft, a, b, logn);
    size_t hn = (size_t)1 << (logn - 1);
    for (size_t u = 0; u < hn; u++) {
        CMUL(a[u], a[u + hn], a[u], a[u + hn], b[u], b[u + hn]);
    }
}

/* a <- a * b with b given as bytes (expanded key, any alignment) */
void fndsa_poly_mul_fft_bytes(fpr *a, const uint8_t *b, unsigned logn)
{
    FFT_NATIVE(poly_mul_fft_bytes, a, b, logn);
    size_t hn = (size_t)1 << (logn - 1);
    for (size_t u = 0; u < hn; u++) {
        fpr b_re = fpr_load(b + 8 * u), b_im = fpr_load(b + 8 * (u + hn));
        CMUL(a[u], a[u + hn], a[u], a[u + hn], b_re, b_im);
    }
}

/* a <- a * adj(b) */
void fndsa_poly_muladj_fft(fpr *a, const fpr *b, unsigned logn)
{
    FFT_NATIVE(poly_muladj_fft, a, b, logn);
    size_t hn = (size_t)1 << (logn - 1);
    for (size_t u = 0; u < hn; u++) {
        CMUL(a[u], a[u + hn], a[u], a[u + hn], b[u], fpr_neg(b[u + hn]));
    }
}

/* a <- a * adj(a): |a|^2, real */
void fndsa_poly_mulselfadj_fft(fpr *a, unsigned logn)
{
    FFT_NATIVE(poly_mulselfadj_fft, a, logn);
    size_t hn = (size_t)1 << (logn - 1);
    for (size_t u = 0; u < hn; u++) {
        a[u] = fpr_add(fpr_sqr(a[u]), fpr_sqr(a[u + hn]));
        a[u + hn] = FPR(0, 0.0);
    }
}

/* a <- a * b where b is self-adjoint (only its real parts are used) */
void fndsa_poly_mul_autoadj_fft(fpr *a, const fpr *b, unsigned logn)
{
    FFT_NATIVE(poly_mul_autoadj_fft, a, b, logn);
    size_t hn = (size_t)1 << (logn - 1);
    for (size_t u = 0; u < hn; u++) {
        a[u] = fpr_mul(a[u], b[u]);
        a[u + hn] = fpr_mul(a[u + hn], b[u]);
    }
}

/* a <- a / b where b is self-adjoint */
void fndsa_poly_div_autoadj_fft(fpr *a, const fpr *b, unsigned logn)
{
    FFT_NATIVE(poly_div_autoadj_fft, a, b, logn);
    size_t hn = (size_t)1 << (logn - 1);
    for (size_t u = 0; u < hn; u++) {
        fpr ib = fpr_inv(b[u]);
        a[u] = fpr_mul(a[u], ib);
        a[u + hn] = fpr_mul(a[u + hn], ib);
    }
}

/* d <- 1 / (|a|^2 + |b|^2) (self-adjoint, real parts only) */
void fndsa_poly_invnorm2_fft(fpr *d, const fpr *a, const fpr *b, unsigned logn)
{
    FFT_NATIVE(poly_invnorm2_fft, d, a, b, logn);
    size_t hn = (size_t)1 << (logn - 1);
    for (size_t u = 0; u < hn; u++) {
        fpr na = fpr_add(fpr_sqr(a[u]), fpr_sqr(a[u + hn]));
        fpr nb = fpr_add(fpr_sqr(b[u]), fpr_sqr(b[u + hn]));
        d[u] = fpr_inv(fpr_add(na, nb));
    }
}

/* LDL decomposition of the self-adjoint 2x2 Gram matrix [[g00, g01],
 * [adj(g01), g11]] (spec 3.6.2, algorithm 8 in FFT form), in place:
 * g00 stays (= d00), g01 <- l10 = adj(g01) / g00, g11 <- d11 = g11 - |g01|^2/g00.
 * g00 is self-adjoint and positive. */
void fndsa_poly_ldl_fft(const fpr *g00, fpr *g01, fpr *g11, unsigned logn)
{
    FFT_NATIVE(poly_ldl_fft, g00, g01, g11, logn);
    size_t hn = (size_t)1 << (logn - 1);
    for (size_t u = 0; u < hn; u++) {
        fndsa_ldl_step(g00[u], &g01[u], &g01[u + hn], &g11[u]);
    }
}
