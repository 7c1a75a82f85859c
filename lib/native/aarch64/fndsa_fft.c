/* SPDX-License-Identifier: MIT */
/* FN-DSA's FFT layer on native doubles with Advanced SIMD, two binary64 lanes per vector
 * (contract lib/native/fndsa_fft.h; the C it replaces is lib/fndsa/fft.c, fpr = double).
 *
 * Bit-exactness. Every value is computed by the same IEEE 754 operations on the same operands
 * as fft.c (FADD, FSUB, FMUL, FDIV, FNEG on vectors round each lane exactly as the scalar
 * instructions do); only independent values are computed in another order. Contraction of a
 * multiply and an add into FMLA/FMLS would change the rounding, so it is switched off for this
 * file (the pragmas below: GCC's arm_neon.h writes vmulq_f64 / vaddq_f64 as the C operators,
 * which -ffp-contract=fast, GCC's default, would fuse).
 *
 * FFT (Falcon specification v1.2, 3.6.1; fft.c's order). fft.c is recursive: the FFT of f is
 * merge(FFT(f0), FFT(f1)) with f = f0(x^2) + x f1(x^2). Unrolled, with all real parts in
 * [0, n/2) and all imaginary parts in [n/2, n) of one buffer, level L (L = 2 .. logn) merges
 * blocks of m = 2^(L-1) complex values: block B takes its first half (the FFT of the even
 * part) and its second half (the odd part) from the previous level and writes
 *   out[2u] = a[u] + zeta_{L,u} b[u],  out[2u+1] = conj(a[u] - zeta_{L,u} b[u])
 * (fft.c's merge, the same twiddles, the same expressions). The leaves (level 1) are the
 * complex values (f[r], f[r + n/2]) placed at position brv(r) (bit reversal over logn - 1
 * bits): the recursion's even/odd splits select the low bits of r first. The gather is fused
 * with level 2: blocks B and B + n/8 read (f[r], f[r+1]) with r = brv(2B), so one vector load
 * serves two blocks. Levels 3 .. logn run out of place between tmp and f, ending in f; for
 * even logn level 3 runs in place (a block of four complex values is read whole before it is
 * written). The inverse FFT runs the same steps backwards with fft.c's split:
 *   a = in[2u], b = in[2u+1]: f0[u] = (a + conj b) / 2, f1[u] = (a - conj b) conj(zeta) / 2.
 *
 * Twiddles: the compressed table of fndsa_fft_tables.h (gen_fndsa_fft_tables.py): per level
 * only zeta_{2k}; one 16-byte load gives the real parts (a, b) of (zeta_{2k}, zeta_{2k+1})
 * and EXT gives the imaginary parts (b, a).
 *
 * Declines (the C runs): fft, ifft, split, merge for logn < 3; the kernels over n/2 complex
 * values for logn < 2. Constant time: loops and addresses depend on logn only. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>

#include "../api.h"
#include "../fndsa_fft.h"
#include "../fndsa_sampler.h"
#include "fndsa_fft_tables.h"

typedef float64x2_t v2d;

/* x y + z w and x y - z w, with the two products rounded and then the sum (fft.c's order).
 * PQLAB_FNDSA_FMA (a build option of the platform's flags, off by default) fuses the second
 * product into the addition (FMLA / FMLS): faster on cores with a fused pipeline, but NOT
 * bit-exact with fft.c, so signatures then differ from the KAT files (docs/neon.md). */
#ifdef PQLAB_FNDSA_FMA
#define MUL_ADD(x, y, z, w) vfmaq_f64(vmulq_f64((x), (y)), (z), (w))
#define MUL_SUB(x, y, z, w) vfmsq_f64(vmulq_f64((x), (y)), (z), (w))
#else
#define MUL_ADD(x, y, z, w) vaddq_f64(vmulq_f64((x), (y)), vmulq_f64((z), (w)))
#define MUL_SUB(x, y, z, w) vsubq_f64(vmulq_f64((x), (y)), vmulq_f64((z), (w)))
#endif

static inline v2d ld(const double *p)
{
    return vld1q_f64(p);
}

static inline void st(double *p, v2d v)
{
    vst1q_f64(p, v);
}

/* the two twiddle vectors (re, im) of lanes u = 2k, 2k + 1 of level logn >= 3 */
static inline void zeta_pair(unsigned logn, size_t k, v2d *z_re, v2d *z_im)
{
    const uint64_t *p = fndsa_fft_zeta_c + 2 * ((((size_t)1 << (logn - 3)) - 1) + k);
    const v2d z = vreinterpretq_f64_u64(vld1q_u64(p));
    *z_re = z;
    *z_im = vextq_f64(z, z, 1);
}

static inline v2d zeta2(void)
{
    return vreinterpretq_f64_u64(vdupq_n_u64(FNDSA_FFT_ZETA2));
}

static inline unsigned brv(unsigned x, unsigned bits)
{
    unsigned r;
    __asm__("rbit %w0, %w1" : "=r"(r) : "r"(x));
    return r >> (32 - bits);
}

/* t = z b (fft.c's merge: t_re = z_re b_re - z_im b_im, t_im = z_re b_im + z_im b_re) */
#define CMUL_ZB(t_re, t_im, z_re, z_im, b_re, b_im)                                                                    \
    do {                                                                                                               \
        (t_re) = MUL_SUB((z_re), (b_re), (z_im), (b_im));                                                              \
        (t_im) = MUL_ADD((z_re), (b_im), (z_im), (b_re));                                                              \
    } while (0)

/* ---- FFT ---- */

/* gather of the leaves and level 2, f -> (dre, dim) */
static void fft_level2(double *dre, double *dim, const double *f, unsigned logn)
{
    const size_t n = (size_t)1 << logn, hn = n >> 1, qn = n >> 2, en = n >> 3;
    const v2d z = zeta2();
    for (size_t B = 0; B < en; B++) {
        const size_t r = brv((unsigned)B, logn - 2); /* brv over logn-1 bits of 2B; even */
        const v2d a_re = ld(f + r), a_im = ld(f + hn + r);
        const v2d b_re = ld(f + qn + r), b_im = ld(f + hn + qn + r);
        v2d t_re, t_im;
        CMUL_ZB(t_re, t_im, z, z, b_re, b_im);
        const v2d s_re = vaddq_f64(a_re, t_re), d_re = vsubq_f64(a_re, t_re);
        const v2d s_im = vaddq_f64(t_im, a_im), d_im = vsubq_f64(t_im, a_im);
        /* lane 0: block B at 2B; lane 1: block B + n/8 at 2B + n/4 */
        st(dre + 2 * B, vzip1q_f64(s_re, d_re));
        st(dre + 2 * B + qn, vzip2q_f64(s_re, d_re));
        st(dim + 2 * B, vzip1q_f64(s_im, d_im));
        st(dim + 2 * B + qn, vzip2q_f64(s_im, d_im));
    }
}

/* level L >= 3, (sre, sim) -> (dre, dim); in place allowed for L = 3 only */
static void fft_level(double *dre, double *dim, const double *sre, const double *sim, unsigned L, size_t hn)
{
    const size_t m = (size_t)1 << (L - 1), h = m >> 1;
    for (size_t base = 0; base < hn; base += m) {
        for (size_t u = 0; u < h; u += 2) {
            v2d z_re, z_im, t_re, t_im;
            zeta_pair(L, u >> 1, &z_re, &z_im);
            const v2d a_re = ld(sre + base + u), a_im = ld(sim + base + u);
            const v2d b_re = ld(sre + base + h + u), b_im = ld(sim + base + h + u);
            CMUL_ZB(t_re, t_im, z_re, z_im, b_re, b_im);
            float64x2x2_t o_re, o_im;
            o_re.val[0] = vaddq_f64(a_re, t_re);
            o_re.val[1] = vsubq_f64(a_re, t_re);
            o_im.val[0] = vaddq_f64(t_im, a_im);
            o_im.val[1] = vsubq_f64(t_im, a_im);
            vst2q_f64(dre + base + 2 * u, o_re);
            vst2q_f64(dim + base + 2 * u, o_im);
        }
    }
}

int pqlab_fndsa_fft_native(double *f, unsigned logn, double *tmp)
{
    if (logn < 3 || logn > 10) {
        return PQLAB_NATIVE_DECLINED;
    }
    const size_t hn = (size_t)1 << (logn - 1);
    double *src = tmp, *dst = f;
    fft_level2(tmp, tmp + hn, f, logn);
    unsigned L = 3;
    if ((logn & 1) == 0) {
        fft_level(tmp, tmp + hn, tmp, tmp + hn, 3, hn);
        L = 4;
    }
    for (; L <= logn; L++) {
        fft_level(dst, dst + hn, src, src + hn, L, hn);
        double *t = src;
        src = dst;
        dst = t;
    }
    return PQLAB_NATIVE_DONE;
}

/* ---- inverse FFT ---- */

/* split of level L >= 3, (sre, sim) -> (dre, dim); in place allowed for L = 3 only */
static void ifft_level(double *dre, double *dim, const double *sre, const double *sim, unsigned L, size_t hn)
{
    const size_t m = (size_t)1 << (L - 1), h = m >> 1;
    const v2d half = vdupq_n_f64(0.5);
    for (size_t base = 0; base < hn; base += m) {
        for (size_t u = 0; u < h; u += 2) {
            v2d z_re, z_im;
            zeta_pair(L, u >> 1, &z_re, &z_im);
            const float64x2x2_t x_re = vld2q_f64(sre + base + 2 * u), x_im = vld2q_f64(sim + base + 2 * u);
            /* a = x[2u], b = x[2u+1]: s = a + conj b, d = a - conj b */
            const v2d s_re = vaddq_f64(x_re.val[0], x_re.val[1]), d_re = vsubq_f64(x_re.val[0], x_re.val[1]);
            const v2d d_im = vaddq_f64(x_im.val[0], x_im.val[1]), s_im = vsubq_f64(x_im.val[0], x_im.val[1]);
            st(dre + base + u, vmulq_f64(s_re, half));
            st(dim + base + u, vmulq_f64(s_im, half));
            const v2d e_re = MUL_ADD(d_re, z_re, d_im, z_im);
            const v2d e_im = MUL_SUB(d_im, z_re, d_re, z_im);
            st(dre + base + h + u, vmulq_f64(e_re, half));
            st(dim + base + h + u, vmulq_f64(e_im, half));
        }
    }
}

/* level 2 and the scatter of the leaves, (sre, sim) -> f */
static void ifft_level2(double *f, const double *sre, const double *sim, unsigned logn)
{
    const size_t n = (size_t)1 << logn, hn = n >> 1, qn = n >> 2, en = n >> 3;
    const v2d z = zeta2(), half = vdupq_n_f64(0.5);
    for (size_t B = 0; B < en; B++) {
        const size_t r = brv((unsigned)B, logn - 2);
        /* lane 0: block B (positions 2B, 2B+1); lane 1: block B + n/8 (2B + n/4, ...) */
        const v2d p_re = ld(sre + 2 * B), q_re = ld(sre + 2 * B + qn);
        const v2d p_im = ld(sim + 2 * B), q_im = ld(sim + 2 * B + qn);
        const v2d a_re = vzip1q_f64(p_re, q_re), b_re = vzip2q_f64(p_re, q_re);
        const v2d a_im = vzip1q_f64(p_im, q_im), b_im = vzip2q_f64(p_im, q_im);
        const v2d s_re = vaddq_f64(a_re, b_re), d_re = vsubq_f64(a_re, b_re);
        const v2d d_im = vaddq_f64(a_im, b_im), s_im = vsubq_f64(a_im, b_im);
        st(f + r, vmulq_f64(s_re, half));
        st(f + hn + r, vmulq_f64(s_im, half));
        const v2d e_re = MUL_ADD(d_re, z, d_im, z);
        const v2d e_im = MUL_SUB(d_im, z, d_re, z);
        st(f + qn + r, vmulq_f64(e_re, half));
        st(f + hn + qn + r, vmulq_f64(e_im, half));
    }
}

int pqlab_fndsa_ifft_native(double *f, unsigned logn, double *tmp)
{
    if (logn < 3 || logn > 10) {
        return PQLAB_NATIVE_DECLINED;
    }
    const size_t hn = (size_t)1 << (logn - 1);
    /* levels logn .. 3 out of place, ending in tmp: logn - 2 of them for odd logn; for even
     * logn, logn .. 4 out of place and level 3 in place in tmp */
    double *src = f, *dst = tmp;
    const unsigned last = (logn & 1) ? 3 : 4;
    for (unsigned L = logn; L >= last; L--) {
        ifft_level(dst, dst + hn, src, src + hn, L, hn);
        double *t = src;
        src = dst;
        dst = t;
    }
    if ((logn & 1) == 0) {
        ifft_level(tmp, tmp + hn, tmp, tmp + hn, 3, hn);
    }
    ifft_level2(f, tmp, tmp + hn, logn);
    return PQLAB_NATIVE_DONE;
}

/* ---- split / merge (one level, separate arrays) ---- */

/* logn 1 and 2 (ffSampling's lowest levels, called 2^(logn_top - 1) and 2^(logn_top - 2) times
 * per tree walk): fft.c's expressions on scalars, so the C's call after a decline is saved.
 * logn 1: one complex value, copied; logn 2: qn = 1, the root of level 2 is (c, c). */
static inline double zeta2_scalar(void)
{
    return vgetq_lane_f64(zeta2(), 0);
}
/* x y + z w and x y - z w on scalars, fused like MUL_ADD / MUL_SUB under PQLAB_FNDSA_FMA */
#ifdef PQLAB_FNDSA_FMA
#define SMUL_ADD(x, y, z, w) __builtin_fma((z), (w), (x) * (y))
#define SMUL_SUB(x, y, z, w) __builtin_fma(-(z), (w), (x) * (y))
#else
#define SMUL_ADD(x, y, z, w) ((x) * (y) + (z) * (w))
#define SMUL_SUB(x, y, z, w) ((x) * (y) - (z) * (w))
#endif

int pqlab_fndsa_poly_split_fft_native(double *f0, double *f1, const double *f, unsigned logn)
{
    if (logn == 1) {
        f0[0] = f[0];
        f1[0] = f[1];
        return PQLAB_NATIVE_DONE;
    }
    if (logn == 2) {
        const double c = zeta2_scalar();
        const double s_re = f[0] + f[1], d_re = f[0] - f[1];
        const double d_im = f[2] + f[3], s_im = f[2] - f[3];
        f0[0] = s_re * 0.5;
        f0[1] = s_im * 0.5;
        f1[0] = SMUL_ADD(d_re, c, d_im, c) * 0.5;
        f1[1] = SMUL_SUB(d_im, c, d_re, c) * 0.5;
        return PQLAB_NATIVE_DONE;
    }
    if (logn < 3 || logn > 10) {
        return PQLAB_NATIVE_DECLINED;
    }
    const size_t hn = (size_t)1 << (logn - 1), qn = hn >> 1;
    const v2d half = vdupq_n_f64(0.5);
    for (size_t u = 0; u < qn; u += 2) {
        v2d z_re, z_im;
        zeta_pair(logn, u >> 1, &z_re, &z_im);
        const float64x2x2_t x_re = vld2q_f64(f + 2 * u), x_im = vld2q_f64(f + hn + 2 * u);
        const v2d s_re = vaddq_f64(x_re.val[0], x_re.val[1]), d_re = vsubq_f64(x_re.val[0], x_re.val[1]);
        const v2d d_im = vaddq_f64(x_im.val[0], x_im.val[1]), s_im = vsubq_f64(x_im.val[0], x_im.val[1]);
        st(f0 + u, vmulq_f64(s_re, half));
        st(f0 + qn + u, vmulq_f64(s_im, half));
        const v2d e_re = MUL_ADD(d_re, z_re, d_im, z_im);
        const v2d e_im = MUL_SUB(d_im, z_re, d_re, z_im);
        st(f1 + u, vmulq_f64(e_re, half));
        st(f1 + qn + u, vmulq_f64(e_im, half));
    }
    return PQLAB_NATIVE_DONE;
}

int pqlab_fndsa_poly_merge_fft_native(double *f, const double *f0, const double *f1, unsigned logn)
{
    if (logn == 1) {
        f[0] = f0[0];
        f[1] = f1[0];
        return PQLAB_NATIVE_DONE;
    }
    if (logn == 2) {
        const double c = zeta2_scalar();
        const double a_re = f0[0], a_im = f0[1], b_re = f1[0], b_im = f1[1];
        const double t_re = SMUL_SUB(c, b_re, c, b_im), t_im = SMUL_ADD(c, b_im, c, b_re);
        f[0] = a_re + t_re;
        f[1] = a_re - t_re;
        f[2] = t_im + a_im;
        f[3] = t_im - a_im;
        return PQLAB_NATIVE_DONE;
    }
    if (logn < 3 || logn > 10) {
        return PQLAB_NATIVE_DECLINED;
    }
    const size_t hn = (size_t)1 << (logn - 1), qn = hn >> 1;
    for (size_t u = 0; u < qn; u += 2) {
        v2d z_re, z_im, t_re, t_im;
        zeta_pair(logn, u >> 1, &z_re, &z_im);
        const v2d a_re = ld(f0 + u), a_im = ld(f0 + qn + u);
        const v2d b_re = ld(f1 + u), b_im = ld(f1 + qn + u);
        CMUL_ZB(t_re, t_im, z_re, z_im, b_re, b_im);
        float64x2x2_t o_re, o_im;
        o_re.val[0] = vaddq_f64(a_re, t_re);
        o_re.val[1] = vsubq_f64(a_re, t_re);
        o_im.val[0] = vaddq_f64(t_im, a_im);
        o_im.val[1] = vsubq_f64(t_im, a_im);
        vst2q_f64(f + 2 * u, o_re);
        vst2q_f64(f + hn + 2 * u, o_im);
    }
    return PQLAB_NATIVE_DONE;
}

/* ---- coefficient-wise ---- */

int pqlab_fndsa_poly_add_native(double *a, const double *b, unsigned logn)
{
    if (logn < 1 || logn > 10) {
        return PQLAB_NATIVE_DECLINED;
    }
    const size_t n = (size_t)1 << logn;
    for (size_t u = 0; u < n; u += 2) {
        st(a + u, vaddq_f64(ld(a + u), ld(b + u)));
    }
    return PQLAB_NATIVE_DONE;
}

int pqlab_fndsa_poly_sub_native(double *a, const double *b, unsigned logn)
{
    if (logn < 1 || logn > 10) {
        return PQLAB_NATIVE_DECLINED;
    }
    const size_t n = (size_t)1 << logn;
    for (size_t u = 0; u < n; u += 2) {
        st(a + u, vsubq_f64(ld(a + u), ld(b + u)));
    }
    return PQLAB_NATIVE_DONE;
}

int pqlab_fndsa_poly_neg_native(double *a, unsigned logn)
{
    if (logn < 1 || logn > 10) {
        return PQLAB_NATIVE_DECLINED;
    }
    const size_t n = (size_t)1 << logn;
    for (size_t u = 0; u < n; u += 2) {
        st(a + u, vnegq_f64(ld(a + u)));
    }
    return PQLAB_NATIVE_DONE;
}

int pqlab_fndsa_poly_adj_fft_native(double *a, unsigned logn)
{
    if (logn < 2 || logn > 10) {
        return PQLAB_NATIVE_DECLINED;
    }
    const size_t n = (size_t)1 << logn;
    for (size_t u = n >> 1; u < n; u += 2) {
        st(a + u, vnegq_f64(ld(a + u)));
    }
    return PQLAB_NATIVE_DONE;
}

int pqlab_fndsa_poly_mulconst_native(double *a, double x, unsigned logn)
{
    if (logn < 1 || logn > 10) {
        return PQLAB_NATIVE_DECLINED;
    }
    const size_t n = (size_t)1 << logn;
    const v2d vx = vdupq_n_f64(x);
    for (size_t u = 0; u < n; u += 2) {
        st(a + u, vmulq_f64(ld(a + u), vx));
    }
    return PQLAB_NATIVE_DONE;
}

/* d = a b (fft.c's CMUL: d_re = a_re b_re - a_im b_im, d_im = a_re b_im + a_im b_re) */
static inline void cmul(v2d *d_re, v2d *d_im, v2d a_re, v2d a_im, v2d b_re, v2d b_im)
{
    *d_re = MUL_SUB(a_re, b_re, a_im, b_im);
    *d_im = MUL_ADD(a_re, b_im, a_im, b_re);
}

int pqlab_fndsa_poly_mul_fft_native(double *a, const double *b, unsigned logn)
{
    if (logn < 2 || logn > 10) {
        return PQLAB_NATIVE_DECLINED;
    }
    const size_t hn = (size_t)1 << (logn - 1);
    for (size_t u = 0; u < hn; u += 2) {
        v2d d_re, d_im;
        cmul(&d_re, &d_im, ld(a + u), ld(a + hn + u), ld(b + u), ld(b + hn + u));
        st(a + u, d_re);
        st(a + hn + u, d_im);
    }
    return PQLAB_NATIVE_DONE;
}

/* 16 bytes of host-order doubles at any alignment (LD1 of bytes has no alignment requirement) */
static inline v2d ld_bytes(const uint8_t *p)
{
    return vreinterpretq_f64_u8(vld1q_u8(p));
}

int pqlab_fndsa_poly_mul_fft_bytes_native(double *a, const uint8_t *b, unsigned logn)
{
    if (logn < 2 || logn > 10) {
        return PQLAB_NATIVE_DECLINED;
    }
    const size_t hn = (size_t)1 << (logn - 1);
    for (size_t u = 0; u < hn; u += 2) {
        v2d d_re, d_im;
        cmul(&d_re, &d_im, ld(a + u), ld(a + hn + u), ld_bytes(b + 8 * u), ld_bytes(b + 8 * (hn + u)));
        st(a + u, d_re);
        st(a + hn + u, d_im);
    }
    return PQLAB_NATIVE_DONE;
}

int pqlab_fndsa_poly_muladj_fft_native(double *a, const double *b, unsigned logn)
{
    if (logn < 2 || logn > 10) {
        return PQLAB_NATIVE_DECLINED;
    }
    const size_t hn = (size_t)1 << (logn - 1);
    for (size_t u = 0; u < hn; u += 2) {
        v2d d_re, d_im;
        cmul(&d_re, &d_im, ld(a + u), ld(a + hn + u), ld(b + u), vnegq_f64(ld(b + hn + u)));
        st(a + u, d_re);
        st(a + hn + u, d_im);
    }
    return PQLAB_NATIVE_DONE;
}

int pqlab_fndsa_poly_mulselfadj_fft_native(double *a, unsigned logn)
{
    if (logn < 2 || logn > 10) {
        return PQLAB_NATIVE_DECLINED;
    }
    const size_t hn = (size_t)1 << (logn - 1);
    for (size_t u = 0; u < hn; u += 2) {
        const v2d re = ld(a + u), im = ld(a + hn + u);
        st(a + u, MUL_ADD(re, re, im, im));
        st(a + hn + u, vdupq_n_f64(0.0));
    }
    return PQLAB_NATIVE_DONE;
}

int pqlab_fndsa_poly_mul_autoadj_fft_native(double *a, const double *b, unsigned logn)
{
    if (logn < 2 || logn > 10) {
        return PQLAB_NATIVE_DECLINED;
    }
    const size_t hn = (size_t)1 << (logn - 1);
    for (size_t u = 0; u < hn; u += 2) {
        const v2d br = ld(b + u);
        st(a + u, vmulq_f64(ld(a + u), br));
        st(a + hn + u, vmulq_f64(ld(a + hn + u), br));
    }
    return PQLAB_NATIVE_DONE;
}

int pqlab_fndsa_poly_div_autoadj_fft_native(double *a, const double *b, unsigned logn)
{
    if (logn < 2 || logn > 10) {
        return PQLAB_NATIVE_DECLINED;
    }
    const size_t hn = (size_t)1 << (logn - 1);
    const v2d one = vdupq_n_f64(1.0);
    for (size_t u = 0; u < hn; u += 2) {
        const v2d ib = vdivq_f64(one, ld(b + u));
        st(a + u, vmulq_f64(ld(a + u), ib));
        st(a + hn + u, vmulq_f64(ld(a + hn + u), ib));
    }
    return PQLAB_NATIVE_DONE;
}

int pqlab_fndsa_poly_invnorm2_fft_native(double *d, const double *a, const double *b, unsigned logn)
{
    if (logn < 2 || logn > 10) {
        return PQLAB_NATIVE_DECLINED;
    }
    const size_t hn = (size_t)1 << (logn - 1);
    const v2d one = vdupq_n_f64(1.0);
    for (size_t u = 0; u < hn; u += 2) {
        const v2d ar = ld(a + u), ai = ld(a + hn + u), br = ld(b + u), bi = ld(b + hn + u);
        const v2d na = MUL_ADD(ar, ar, ai, ai);
        const v2d nb = MUL_ADD(br, br, bi, bi);
        st(d + u, vdivq_f64(one, vaddq_f64(na, nb)));
    }
    return PQLAB_NATIVE_DONE;
}

/* fft.c's LDL: ig = 1 / g00, mu = g01 ig, g11 -= Re(mu conj(g01)), g01 <- conj(mu) */
int pqlab_fndsa_poly_ldl_fft_native(const double *g00, double *g01, double *g11, unsigned logn)
{
    if (logn < 2 || logn > 10) {
        return PQLAB_NATIVE_DECLINED;
    }
    const size_t hn = (size_t)1 << (logn - 1);
    const v2d one = vdupq_n_f64(1.0);
    for (size_t u = 0; u < hn; u += 2) {
        const v2d ig = vdivq_f64(one, ld(g00 + u));
        const v2d g_re = ld(g01 + u), g_im = ld(g01 + hn + u);
        const v2d mu_re = vmulq_f64(g_re, ig), mu_im = vmulq_f64(g_im, ig);
        const v2d t_re = MUL_ADD(mu_re, g_re, mu_im, g_im);
        st(g11 + u, vsubq_f64(ld(g11 + u), t_re));
        st(g01 + u, mu_re);
        st(g01 + hn + u, vnegq_f64(mu_im));
    }
    return PQLAB_NATIVE_DONE;
}

/* ---- base sampler (contract lib/native/fndsa_sampler.h) ----
 * u < t for 72-bit values split at bit 64 (u_hi, t_hi < 2^8) is u_hi - t_hi - [u_lo < t_lo] < 0:
 * the difference of the high parts with the borrow of the low parts, in (-2^9, 2^8), so no
 * wrap in a 64-bit lane. CMHI gives the borrow as an all-ones mask (-1), added to u_hi - t_hi;
 * USRA adds the sign bit to the count. Four instructions per two entries (the earlier
 * CMHI / CMEQ / CMHI / AND / ORR / SUB took six); nine vectors, no data-dependent branch or
 * address. */
int pqlab_fndsa_rcdt_count_native(uint64_t lo, uint32_t hi)
{
    const uint64x2_t ulo = vdupq_n_u64(lo);
    const int64x2_t uhi = vdupq_n_s64((int64_t)hi);
    uint64x2_t acc = vdupq_n_u64(0);
    for (unsigned int i = 0; i < 18; i += 2) {
        const uint64x2_t tlo = vld1q_u64(fndsa_rcdt_lo + i);
        const int64x2_t thi = vreinterpretq_s64_u64(vld1q_u64(fndsa_rcdt_hi + i));
        const int64x2_t d = vaddq_s64(vsubq_s64(uhi, thi), vreinterpretq_s64_u64(vcltq_u64(ulo, tlo)));
        acc = vsraq_n_u64(acc, vreinterpretq_u64_s64(d), 63);
    }
    return (int)vaddvq_u64(acc);
}

/* two values side by side (the pair sampler's current and next candidate): the same steps with
 * two accumulators, so the two USRA chains overlap */
void pqlab_fndsa_rcdt_count2_native(int z[2], const uint64_t lo[2], const uint32_t hi[2])
{
    const uint64x2_t ulo0 = vdupq_n_u64(lo[0]), ulo1 = vdupq_n_u64(lo[1]);
    const int64x2_t uhi0 = vdupq_n_s64((int64_t)hi[0]), uhi1 = vdupq_n_s64((int64_t)hi[1]);
    uint64x2_t acc0 = vdupq_n_u64(0), acc1 = vdupq_n_u64(0);
    for (unsigned int i = 0; i < 18; i += 2) {
        const uint64x2_t tlo = vld1q_u64(fndsa_rcdt_lo + i);
        const int64x2_t thi = vreinterpretq_s64_u64(vld1q_u64(fndsa_rcdt_hi + i));
        const int64x2_t d0 = vaddq_s64(vsubq_s64(uhi0, thi), vreinterpretq_s64_u64(vcltq_u64(ulo0, tlo)));
        const int64x2_t d1 = vaddq_s64(vsubq_s64(uhi1, thi), vreinterpretq_s64_u64(vcltq_u64(ulo1, tlo)));
        acc0 = vsraq_n_u64(acc0, vreinterpretq_u64_s64(d0), 63);
        acc1 = vsraq_n_u64(acc1, vreinterpretq_u64_s64(d1), 63);
    }
    z[0] = (int)vaddvq_u64(acc0);
    z[1] = (int)vaddvq_u64(acc1);
}

/* ---- the sampler's PRNG: eight ChaCha20 blocks (contract lib/native/fndsa_sampler.h) ----
 * RFC 8439's block function, four blocks per pass, one per 32-bit lane: lane j of state word
 * v is word v of block cc + j (+ 4 in the second pass). The refill's interleaved layout (word
 * v of block u at byte 32 v + 4 u) is then one 16-byte store per word and pass. Rotations:
 * REV32 on 16-bit halves for 16, SHL + SRI otherwise. */
#define ROTV(x, n) vsriq_n_u32(vshlq_n_u32((x), (n)), (x), 32 - (n))
#define QRV(a, b, c, d)                                                                                                \
    do {                                                                                                               \
        a = vaddq_u32(a, b);                                                                                           \
        d = vreinterpretq_u32_u16(vrev32q_u16(vreinterpretq_u16_u32(veorq_u32(d, a))));                                \
        c = vaddq_u32(c, d);                                                                                           \
        b = veorq_u32(b, c);                                                                                           \
        b = ROTV(b, 12);                                                                                               \
        a = vaddq_u32(a, b);                                                                                           \
        d = veorq_u32(d, a);                                                                                           \
        d = ROTV(d, 8);                                                                                                \
        c = vaddq_u32(c, d);                                                                                           \
        b = veorq_u32(b, c);                                                                                           \
        b = ROTV(b, 7);                                                                                                \
    } while (0)

void pqlab_fndsa_prng_refill_native(uint8_t buf[512], const uint32_t key[12], uint64_t cc)
{
    static const uint32_t sigma[4] = {0x61707865u, 0x3320646eu, 0x79622d32u, 0x6b206574u};
    /* both passes' states side by side in one round loop: a double round of one 4-way state is a
     * chain of about 26 dependent vector operations (QR's 13, twice) while its 120 operations fill
     * the two SIMD pipes for 60 cycles, so one state alone waits on latency; two independent
     * states fill the pipes */
    uint32x4_t x[2][16], w[2][2];
    for (unsigned int half = 0; half < 2; half++) {
        uint32_t lo[4], hi[4];
        for (unsigned int i = 0; i < 4; i++) {
            x[half][i] = vdupq_n_u32(sigma[i]);
            const uint64_t c = cc + 4 * half + i; /* the 64-bit counter of block 4 half + i */
            lo[i] = (uint32_t)c;
            hi[i] = (uint32_t)(c >> 32);
        }
        for (unsigned int i = 0; i < 12; i++) {
            x[half][4 + i] = vdupq_n_u32(key[i]);
        }
        w[half][0] = x[half][14] = veorq_u32(x[half][14], vld1q_u32(lo));
        w[half][1] = x[half][15] = veorq_u32(x[half][15], vld1q_u32(hi));
    }
    for (unsigned int r = 0; r < 10; r++) {
        for (unsigned int h = 0; h < 2; h++) {
            QRV(x[h][0], x[h][4], x[h][8], x[h][12]);
            QRV(x[h][1], x[h][5], x[h][9], x[h][13]);
            QRV(x[h][2], x[h][6], x[h][10], x[h][14]);
            QRV(x[h][3], x[h][7], x[h][11], x[h][15]);
        }
        for (unsigned int h = 0; h < 2; h++) {
            QRV(x[h][0], x[h][5], x[h][10], x[h][15]);
            QRV(x[h][1], x[h][6], x[h][11], x[h][12]);
            QRV(x[h][2], x[h][7], x[h][8], x[h][13]);
            QRV(x[h][3], x[h][4], x[h][9], x[h][14]);
        }
    }
    for (unsigned int half = 0; half < 2; half++) {
        for (unsigned int v = 0; v < 16; v++) {
            /* the input word: sigma, the key, or the counter words of this pass */
            const uint32x4_t in = v < 4 ? vdupq_n_u32(sigma[v]) : v < 14 ? vdupq_n_u32(key[v - 4]) : w[half][v - 14];
            /* little-endian lanes: byte k of word v of block u at 32 v + 4 u + k */
            vst1q_u8(buf + 32 * v + 16 * half, vreinterpretq_u8_u32(vaddq_u32(x[half][v], in)));
        }
    }
}
