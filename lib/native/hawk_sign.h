/* SPDX-License-Identifier: MIT */
/* Contract of the native kernels of Hawk signing (lib/hawk/sampler.c; Hawk specification v1.0,
 * SamplerSign and the t0, t1 products of HawkSign), selected in the backend's meta header
 * (lib/native/api.h). Provider: lib/native/aarch64/hawk_sign.c.
 *
 * PQLAB_HAWK_SAMPLER_NATIVE: pqlab_hawk_sample16_native(x, grp, t, t0, n0, t1, n1) computes
 * the 16 samples of one group of SamplerSign, bit for bit sampler.c's hawk_sample16:
 *   for j, k in 0..3, r = 4 j + k: a = little-endian 64-bit word j of grp[k],
 *   b = bits 16 k .. 16 k + 14 of little-endian word j of grp[4]; the 78-bit value
 *   c = (a mod 2^63) + b 2^63; count = #{v : c < T_t[v]} with T_t = t0 (n0 entries) when
 *   t[r] = 0 and t1 (n1 entries) when t[r] = 1, 80-bit entries hi 2^64 + lo (hi < 2^16);
 *   x[r] = 2 count + t[r], negated when bit 63 of a is set.
 * Inputs: t[r] in {0, 1}; n0, n1 <= 16; grp, t, x: any alignment. A call with other n0, n1
 * declines (PQLAB_NATIVE_DECLINED, x untouched); PQLAB_NATIVE_DONE otherwise. Constant
 * time: grp and t are secret (no branch or address depends on them; every entry of both
 * tables is compared for every sample).
 *
 * PQLAB_HAWK_MUL2_NATIVE: pqlab_hawk_mul2_acc_native(acc, a, b, logn): acc ^= a b in
 * GF(2)[x]/(x^n - 1), n = 2^logn, each operand n bits as n/32 little-endian 32-bit words
 * (bit i of the polynomial = bit i mod 32 of word i / 32); sampler.c's hawk_mul2_acc bit for
 * bit. logn in 7..10, else it declines (acc untouched). acc does not overlap a or b. Constant
 * time in b (the secret f, g, F or G mod 2); a (h0, h1) is public but is not branched on
 * either.
 *
 * No heap; stack below 512 bytes. */
#ifndef PQLAB_NATIVE_HAWK_SIGN_H
#define PQLAB_NATIVE_HAWK_SIGN_H

#include <stddef.h>
#include <stdint.h>

/* one entry of SamplerSign's cumulative tables: the 80-bit value hi 2^64 + lo */
typedef struct {
    uint32_t hi;
    uint64_t lo;
} pqlab_hawk_cdt;

int pqlab_hawk_sample16_native(int32_t x[16], const uint8_t grp[5][32], const uint8_t t[16], const pqlab_hawk_cdt *t0,
                               unsigned n0, const pqlab_hawk_cdt *t1, unsigned n1);
int pqlab_hawk_mul2_acc_native(uint32_t *acc, const uint32_t *a, const uint32_t *b, unsigned logn);

#endif
