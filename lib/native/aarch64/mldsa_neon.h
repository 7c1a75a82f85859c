/* SPDX-License-Identifier: MIT */
/* ML-DSA kernels of the AArch64 backend (mldsa_ntt.c), one unnamespaced copy for the three
 * parameter sets; polynomials of 256 int32_t, any 4-byte alignment. Contract:
 * lib/mldsa/kernels.h; every kernel gives the values of its C version (lib/mldsa/ntt.c) bit
 * for bit, within the same bounds, except ntt16 / mul16_add (below).
 *   pqlab_mldsa_ntt_neon(a)                Algorithm 41 in place
 *   pqlab_mldsa_invntt_neon(a)             Algorithm 42 times 2^32 in place
 *   pqlab_mldsa_pointwise_neon(c, a, b)    c = a o b 2^-32 (c may be a or b)
 *   pqlab_mldsa_pointwise_acc_neon(c, a, b) c += a o b 2^-32
 *   pqlab_mldsa_polyvec_pointwise_acc_neon(w, a, b, count)  w = sum_j a_j o b_j 2^-32, one
 *                                          reduction of the 64-bit sum (a_j at a + 256 j, b_j at b + 256 j)
 * and the small-modulus NTT of signing's c s1, c s2 (mldsa_ntt16.c, lib/mldsa/ntt16.c's butterflies with
 * other representatives within kernels.h's bounds; mul16_add's exact product is the C's):
 *   pqlab_mldsa_ntt16_neon(r, a)           r = ntt16(a), int16 output
 *   pqlab_mldsa_mul16_add_neon(r, base, a, b) r = base + the product (r may alias base)
 * and the coefficient-wise kernels of signing (mldsa_poly.c, lib/mldsa/rounding.c's values; the
 * parameters of Decompose passed by mldsa_native.h):
 *   pqlab_mldsa_decompose_neon(a1, a0, a, gamma2, mul, shift, m)   a1 or a0 may be NULL
 *   pqlab_mldsa_make_hint_low_neon(h, a0, d, a1, gamma2)           returns the number of ones
 *   pqlab_mldsa_chknorm_neon(a, bound)                             1 when some |a_i| >= bound
 *   pqlab_mldsa_w1_pack_neon(r, a, bits)                            w1Encode's SimpleBitPack, bits 6 or 4
 * tests/test_native_aarch64.py compares them with the C. */
#ifndef PQLAB_NATIVE_AARCH64_MLDSA_NEON_H
#define PQLAB_NATIVE_AARCH64_MLDSA_NEON_H

#include "pqlab_config.h" /* an export's symbol namespace (docs/export.md); empty in the tree */

#include <stdint.h>

void pqlab_mldsa_ntt_neon(int32_t a[256]);
void pqlab_mldsa_invntt_neon(int32_t a[256]);
void pqlab_mldsa_pointwise_neon(int32_t c[256], const int32_t a[256], const int32_t b[256]);
void pqlab_mldsa_pointwise_acc_neon(int32_t c[256], const int32_t a[256], const int32_t b[256]);
void pqlab_mldsa_polyvec_pointwise_acc_neon(int32_t w[256], const int32_t *a, const int32_t *b, unsigned int count);
void pqlab_mldsa_ntt16_neon(int16_t r[256], const int32_t a[256]);
void pqlab_mldsa_decompose_neon(int32_t *a1, int32_t *a0, const int32_t a[256], int32_t gamma2, int32_t mul,
                                int32_t shift, int32_t m);
unsigned int pqlab_mldsa_make_hint_low_neon(int32_t h[256], const int32_t a0[256], const int32_t d[256],
                                            const int32_t a1[256], int32_t gamma2);
uint32_t pqlab_mldsa_chknorm_neon(const int32_t a[256], int32_t bound);
void pqlab_mldsa_w1_pack_neon(uint8_t *r, const int32_t a[256], unsigned int bits);
void pqlab_mldsa_mul16_add_neon(int32_t r[256], const int32_t base[256], const int16_t a[256], const int16_t b[256]);

#endif
