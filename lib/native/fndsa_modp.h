/* SPDX-License-Identifier: MIT */
/* Contract of the native kernels of FN-DSA key generation's residue-number arithmetic (fndsa_modp.S),
 * selected by PQLAB_FNDSA_MODP_NATIVE (the backend's meta header, lib/native/api.h; ARMv7E-M: lib/native/armv7em/, AArch64:
 * lib/native/aarch64/fndsa_modp.c). Drop-in replacements of mp_ntt,
 * mp_intt and the pointwise loop of rns_mul in lib/fndsa/ntru.c:
 *
 *   mp_ntt(a, psi, logm, q)       -> pqlab_fndsa_mp_ntt_native(a, psi, logm, q->p, q->p0i)
 *   mp_intt(a, ipsi, logm, c, q)  -> pqlab_fndsa_mp_intt_native(a, ipsi, logm, c, q->p, q->p0i)
 *   for (u < m) at[u] = mp_mmul_r(at[u], bt[u], p, p0i)
 *                                 -> pqlab_fndsa_mp_pmul_native(at, at, bt, m, p, p0i)
 *
 * Contract (the results are bit-for-bit those of the C code for every input it accepts):
 * - p: a prime with p = 1 mod 2048 and 2^31 - 2^21 < p < 2^31 (the RNS_P table);
 *   p0i = -1/p mod 2^32 (modp_t.p0i).
 * - logm in 0..10, m = 2^logm; a: m words, word-aligned; every a[u] in [0, p) on input;
 *   on output the transform in normal form [0, p), the same values as the C code.
 * - psi: m words as mp_roots builds them (psi[k] = w^bitrev(k) R mod p, in [0, p), R = 2^32,
 *   w a primitive 2m-th root of unity); ntt reads psi[1..m-1].
 * - ipsi: m words as mp_roots builds them (w^-bitrev(k) R mod p, in [0, p)); intt reads
 *   ipsi[1..m-1]; c in [0, p) (mp_intt_scale): every output is multiplied by c / R, as in
 *   mp_intt (the scaling is merged into the last layer). logm = 0: a[0] = a[0] c / R mod p.
 * - pmul: r[u] = a[u] b[u] / R mod p in [0, p) for u < m, any m (size_t), with a[u], b[u]
 *   in [0, p); r may be a or b (the same array, not a shifted overlap).
 * - No heap, no secret-dependent branch or address; stack: 64 bytes (ntt, intt), 48 (pmul).
 * - ARMv7E-M: AAPCS, r4-r11 preserved; the fifth and sixth arguments on the stack. */
#ifndef PQLAB_NATIVE_FNDSA_MODP_H
#define PQLAB_NATIVE_FNDSA_MODP_H

#include <stddef.h>
#include <stdint.h>

void pqlab_fndsa_mp_ntt_native(uint32_t *a, const uint32_t *psi, unsigned logm, uint32_t p, uint32_t p0i);
void pqlab_fndsa_mp_intt_native(uint32_t *a, const uint32_t *ipsi, unsigned logm, uint32_t c, uint32_t p, uint32_t p0i);
void pqlab_fndsa_mp_pmul_native(uint32_t *r, const uint32_t *a, const uint32_t *b, size_t m, uint32_t p, uint32_t p0i);

#endif
