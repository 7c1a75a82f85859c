/* SPDX-License-Identifier: MIT */
/* Contract of the native kernels of FN-DSA's arithmetic modulo q = 12289 (verification, public
 * key and complete_private: lib/fndsa/modq.c). PQLAB_FNDSA_MODQ_NATIVE (the backend's meta
 * header, lib/native/api.h) selects the NTT and inverse NTT; PQLAB_FNDSA_MODQ_POLYMUL_NATIVE in
 * addition the ring product of verification. Providers: lib/native/rv32/fndsa_modq.S (RV32IM,
 * n = 512 and 1024), lib/native/rv32ntt/ntt_acc.c (the NTT unit, all three). Replacements of
 * modq.c's code:
 *
 *   ntt(a, logn)                          -> pqlab_fndsa_mq_ntt_native(a, logn)
 *   intt(a, logn)                         -> pqlab_fndsa_mq_intt_native(a, logn)
 *   ntt(a); ntt(b); a = a o b; intt(a)    -> pqlab_fndsa_mq_polymul_native(a, b, logn)
 *
 * Contract:
 * - logn in 1..10, n = 2^logn; a, b: n uint16_t, 2-byte aligned, every value in [0, q) on input;
 * - ntt: the negacyclic NTT over Z_q[x]/(x^n + 1) in modq.c's bit-reversed order (entry k is the
 *   value at psi^(2 brv(k) + 1), psi = 11^6 = 1945 mod q for n = 1024: lib/fndsa/gen_tables.py),
 *   every output in [0, q);
 * - intt: its inverse, with the factor 1/n, outputs in [0, q);
 * - polymul: a = a b mod (x^n + 1, q), outputs in [0, q); b is only read.
 *   Reduced residues are unique, so the outputs equal the C's bit for bit.
 * - Run-time decline (lib/native/api.h): a kernel returns PQLAB_NATIVE_DECLINED, writing
 *   nothing, for a logn it was not written for (a public parameter); the C then runs.
 * - No heap, no secret-dependent branch or address (f, g, F pass through the public-key and
 *   complete_private transforms).
 *
 * PQLAB_FNDSA_MODQ_SIGN_NATIVE selects the coefficient-wise work around those transforms in
 * modq.c (fndsa_compute_public, fndsa_complete_private, fndsa_sign_finish_modq; docs/neon.md,
 * "FN-DSA's mod-q work"). Every uint16 input is canonical ([0, q)), every uint16 output too, so
 * the outputs are the C's bit for bit; n = 2^logn; each kernel may decline a logn (public) it
 * was not written for, writing nothing (PQLAB_NATIVE_TRY); arrays named differently do not
 * overlap unless said.
 *   muldiv(r, x, y, z, logn)      r[u] = x[u] y[u] / z[u] mod q (y NULL: x[u] / z[u]), where
 *                                 1 / 0 is 0 (modq.c's z^(q-2)); r may be x or y.
 *   mul2add(r, a, b, c, d, logn)  r[u] = a[u] b[u] + c[u] d[u] mod q; r may be any of them.
 *   of_small(r, f, logn)          r[u] = f[u] mod q for int8 f (any int8).
 *   norm(s2, a, b, hm, logn, s)   s2[u] = centre(a[u]), s1[u] = centre(hm[u] - b[u]) (centre: the
 *                                 representative in [-(q-1)/2, (q-1)/2]); *s = sum of s1[u]^2 +
 *                                 s2[u]^2 (a 64-bit sum, exact); s1 is not stored.
 *   of_rint(r, z, logn)           r[u] = (rint(z[u]) + 2^16 q mod 2^32) mod q, rint rounding to
 *                                 nearest, ties to even (lib/fndsa/fpr.h's fpr_rint on native
 *                                 doubles, which the implementations with PQLAB_FNDSA_FPR_NATIVE
 *                                 alone call it with): input bound |z[u]| < 2^63 (finite; the
 *                                 callers' values are below 2^29).
 *   No secret-dependent branch or address (the values are the private key and the signature
 *   candidate); of_rint uses the FP-to-integer conversion, whose latency does not depend on the
 *   value on the cores this serves (the native-double fpr layer's assumption, fndsa_fft.h). */
#ifndef PQLAB_NATIVE_FNDSA_MODQ_H
#define PQLAB_NATIVE_FNDSA_MODQ_H

#include <stdint.h>

int pqlab_fndsa_mq_ntt_native(uint16_t *a, unsigned logn);
int pqlab_fndsa_mq_intt_native(uint16_t *a, unsigned logn);
int pqlab_fndsa_mq_polymul_native(uint16_t *a, const uint16_t *b, unsigned logn);

int pqlab_fndsa_mq_muldiv_native(uint16_t *r, const uint16_t *x, const uint16_t *y, const uint16_t *z, unsigned logn);
int pqlab_fndsa_mq_mul2add_native(uint16_t *r, const uint16_t *a, const uint16_t *b, const uint16_t *c,
                                  const uint16_t *d, unsigned logn);
int pqlab_fndsa_mq_of_small_native(uint16_t *r, const int8_t *f, unsigned logn);
int pqlab_fndsa_mq_norm_native(int16_t *s2, const uint16_t *a, const uint16_t *b, const uint16_t *hm, unsigned logn,
                               uint64_t *s);
int pqlab_fndsa_mq_of_rint_native(uint16_t *r, const double *z, unsigned logn);

#endif
