/* SPDX-License-Identifier: MIT */
/* One step of fft.c's per-root operations on scalars (Falcon round-3 specification v1.2,
 * algorithms 1-2 splitfft / mergefft, algorithm 8 LDL in FFT form), shared by fft.c's loops
 * and by sign.c's last levels of ffSampling, which run them on a few values without the calls:
 * the same fpr operations on the same operands in the same order, so the same bits in every
 * fpr layer. Operands are taken by value before any result is written, so outputs may
 * overwrite the inputs' storage. */
#ifndef PQLAB_FNDSA_FFT_STEP_H
#define PQLAB_FNDSA_FFT_STEP_H

#include "fpr.h"

/* complex product (a_re + i a_im)(b_re + i b_im), fixed operation order */
#define CMUL(d_re, d_im, a_re, a_im, b_re, b_im)                                                                       \
    do {                                                                                                               \
        fpr cm_ar = (a_re), cm_ai = (a_im), cm_br = (b_re), cm_bi = (b_im);                                            \
        (d_re) = fpr_sub(fpr_mul(cm_ar, cm_br), fpr_mul(cm_ai, cm_bi));                                                \
        (d_im) = fpr_add(fpr_mul(cm_ar, cm_bi), fpr_mul(cm_ai, cm_br));                                                \
    } while (0)

/* mergefft at one root: a = f0(w), b = f1(w), z = zeta; t = z b, then a + t, a - t (real parts,
 * positions 2u, 2u + 1) and t_im + a_im, t_im - a_im (imaginary parts; binary64 addition is
 * commutative bit for bit in both layers) */
static inline void fndsa_merge_step(fpr *re0, fpr *re1, fpr *im0, fpr *im1, fpr a_re, fpr a_im, fpr b_re, fpr b_im,
                                    fpr z_re, fpr z_im)
{
    fpr t_re, t_im;
    CMUL(t_re, t_im, z_re, z_im, b_re, b_im);
    fpr_addsub(a_re, t_re, re0, re1);
    fpr_addsub(t_im, a_im, im0, im1);
}

/* splitfft at one root pair: a = f(zeta), b = f(-conj zeta); s = a + conj b,
 * d = a - conj b (each a sum and a difference of a_re, b_re and of a_im, b_im);
 * f0 = s / 2, f1 = d conj(zeta) / 2 */
static inline void fndsa_split_step(fpr *f0_re, fpr *f0_im, fpr *f1_re, fpr *f1_im, fpr a_re, fpr a_im, fpr b_re,
                                    fpr b_im, fpr z_re, fpr z_im)
{
    fpr s_re, s_im, d_re, d_im;
    fpr_addsub(a_re, b_re, &s_re, &d_re);
    fpr_addsub(a_im, b_im, &d_im, &s_im);
    *f0_re = fpr_half(s_re);
    *f0_im = fpr_half(s_im);
    *f1_re = fpr_half(fpr_add(fpr_mul(d_re, z_re), fpr_mul(d_im, z_im)));
    *f1_im = fpr_half(fpr_sub(fpr_mul(d_im, z_re), fpr_mul(d_re, z_im)));
}

/* LDL at one root: with the real g00 (self-adjoint), l10 = adj(g01) / g00 into (g01_re, g01_im)
 * and d11 = g11 - |g01|^2 / g00 (= g11 - mu conj(g01), mu = g01 / g00) into g11 */
static inline void fndsa_ldl_step(fpr g00, fpr *g01_re, fpr *g01_im, fpr *g11)
{
    fpr ig = fpr_inv(g00);
    fpr mu_re = fpr_mul(*g01_re, ig);
    fpr mu_im = fpr_mul(*g01_im, ig);
    fpr t_re = fpr_add(fpr_mul(mu_re, *g01_re), fpr_mul(mu_im, *g01_im));
    *g11 = fpr_sub(*g11, t_re);
    *g01_re = mu_re;
    *g01_im = fpr_neg(mu_im);
}

#endif
