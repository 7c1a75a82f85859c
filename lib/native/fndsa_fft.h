/* SPDX-License-Identifier: MIT */
/* Contract of the native kernels of FN-DSA's FFT layer (lib/fndsa/fft.c) for the native-double
 * fpr layer (PQLAB_FNDSA_FPR_NATIVE: fpr is a C double, implementation `fpu`). Selected by
 * PQLAB_FNDSA_FFT_NATIVE in the backend's meta header (lib/native/api.h); an implementation
 * with the emulated fpr (ref, fpu-ct) never calls them. Provider: lib/native/aarch64/fndsa_fft.c.
 *
 * Each kernel replaces the fft.c function of the same name without the pqlab_ prefix and the
 * _native suffix, with the same arguments (fpr = double) and the same representation: n = 2^logn
 * real values, or n/2 complex values in FFT form with real parts in [0, n/2) and imaginary parts
 * in [n/2, n), in fft.c's root order.
 *
 * Contract:
 * - Bit for bit: every output double equals the one fft.c computes, for every input (the same
 *   binary64 operations on the same operands, each rounded to nearest-even once: no fused
 *   multiply-add, no reassociation, no reciprocal estimate). Only the order in which
 *   independent values are computed may differ.
 * - logn in 1..10. A kernel may decline a logn it was not written for (a public parameter):
 *   it returns PQLAB_NATIVE_DECLINED having written nothing, and the C runs
 *   (PQLAB_NATIVE_TRY); PQLAB_NATIVE_DONE otherwise.
 * - fft / ifft: f and tmp (n doubles, contents on return unspecified) do not overlap.
 *   split / merge / invnorm2 / ldl: the arrays do not overlap each other. a and b of the
 *   two-operand kernels are either the same array or do not overlap.
 * - mul_fft_bytes: b is n doubles in host byte order at any alignment.
 * - Constant time: no branch or address depends on the values (binary64 add, sub, mul and
 *   div have data-independent latency on the cores this serves; division is what the C does).
 * - No heap; stack bounded. */
#ifndef PQLAB_NATIVE_FNDSA_FFT_H
#define PQLAB_NATIVE_FNDSA_FFT_H

#include <stdint.h>

int pqlab_fndsa_fft_native(double *f, unsigned logn, double *tmp);
int pqlab_fndsa_ifft_native(double *f, unsigned logn, double *tmp);
int pqlab_fndsa_poly_split_fft_native(double *f0, double *f1, const double *f, unsigned logn);
int pqlab_fndsa_poly_merge_fft_native(double *f, const double *f0, const double *f1, unsigned logn);
int pqlab_fndsa_poly_add_native(double *a, const double *b, unsigned logn);
int pqlab_fndsa_poly_sub_native(double *a, const double *b, unsigned logn);
int pqlab_fndsa_poly_neg_native(double *a, unsigned logn);
int pqlab_fndsa_poly_adj_fft_native(double *a, unsigned logn);
int pqlab_fndsa_poly_mulconst_native(double *a, double x, unsigned logn);
int pqlab_fndsa_poly_mul_fft_native(double *a, const double *b, unsigned logn);
int pqlab_fndsa_poly_mul_fft_bytes_native(double *a, const uint8_t *b, unsigned logn);
int pqlab_fndsa_poly_muladj_fft_native(double *a, const double *b, unsigned logn);
int pqlab_fndsa_poly_mulselfadj_fft_native(double *a, unsigned logn);
int pqlab_fndsa_poly_mul_autoadj_fft_native(double *a, const double *b, unsigned logn);
int pqlab_fndsa_poly_div_autoadj_fft_native(double *a, const double *b, unsigned logn);
int pqlab_fndsa_poly_invnorm2_fft_native(double *d, const double *a, const double *b, unsigned logn);
int pqlab_fndsa_poly_ldl_fft_native(const double *g00, double *g01, double *g11, unsigned logn);

#endif
