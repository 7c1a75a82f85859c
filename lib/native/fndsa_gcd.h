/* SPDX-License-Identifier: MIT */
/* Contract of the native kernels of FN-DSA key generation's batched binary GCD (fndsa_gcd.S), selected by
 * PQLAB_FNDSA_GCD_NATIVE (the backend's meta header, lib/native/api.h; ARMv7E-M: lib/native/armv7em/): the linear combination lin31 and the 31 decisions
 * of a pass, gcd31, and the corrections finish_mod and neg31 of lib/fndsa/ntru.c.
 *
 * lin31 contract (the same results as the C lin31 for every input it accepts):
 * - a, b (and m unless NULL): len >= 1 limbs of 31 bits (each < 2^31); out: len - 1 limbs
 *   written (out[i - 1] for limb i >= 1); out may be b, not a or m.
 * - co = {ua, ub, sa, sb, f}: ua = (uint32_t)ca, ub = (uint32_t)cb, sa / sb = 0xFFFFFFFF when
 *   ca / cb < 0, else 0, for |ca| + |cb| <= 2^31; f < 2^31 (ignored when m is NULL).
 * - Returns the final carry: (a ca + b cb + m f) / 2^31 = sum of out[i] 2^(31 i) + cc 2^(31 (len - 1)),
 *   where the sum is exactly divisible by 2^31 (the caller's construction).
 * - No heap, no secret-dependent branch or address; stack: 36 bytes. AAPCS. */
#ifndef PQLAB_NATIVE_FNDSA_GCD_H
#define PQLAB_NATIVE_FNDSA_GCD_H

#include <stddef.h>
#include <stdint.h>

int64_t pqlab_fndsa_lin31_native(uint32_t *out, const uint32_t *a, const uint32_t *b, const uint32_t *m, size_t len,
                                 const uint32_t co[5]);

/* gcd31 contract (the same results as the C gcd31 for every input): io = {a_lo, b_lo,
 * a_hi low word, a_hi high word, b_hi low, b_hi high} with a_hi, b_hi < 2^62; returns
 * io[0..3] = {pa, pb, qa, qb} modulo 2^32. Constant time (masks; the loop count is fixed);
 * stack: 40 bytes. */
void pqlab_fndsa_gcd31_native(uint32_t io[6]);

/* finish_mod and neg31 contracts (the same results as the C functions of lib/fndsa/ntru.c
 * for every input): a, x: len >= 1 limbs of 31 bits except the top one (which may hold a
 * sign); finish_mod: the value of a in (-m, 2m), neg = 1 when it is negative, m: len limbs
 * of 31 bits; result in [0, m). neg31: x = -x when neg = 1 (neg in {0, 1}). Constant time;
 * stack: 36 and 8 bytes. */
void pqlab_fndsa_finish_mod_native(uint32_t *a, size_t len, const uint32_t *m, uint32_t neg);
void pqlab_fndsa_neg31_native(uint32_t *x, size_t len, uint32_t neg);

#endif
