/* SPDX-License-Identifier: MIT */
/* ML-KEM kernels of the AArch64 backend (mlkem_ntt.c), one unnamespaced copy for the three
 * parameter sets; polynomials of 256 int16_t, any 2-byte alignment. Contract: lib/mlkem/kernels.h.
 *   pqlab_mlkem_ntt_neon(c)          Algorithm 9 in place; input |c| < q, output reduced
 *                                    (|c| <= (q-1)/2): the values of mlkem_ntt_c
 *   pqlab_mlkem_invntt_neon(c)       Algorithm 10 times R = 2^16; input any int16, output
 *                                    |c| < q, congruent to mlkem_invntt_c's
 *   pqlab_mlkem_basemul_acc_neon     r += a o b R^-1 (Algorithms 11, 12); a, b: |c| < q: the
 *                                    values of mlkem_basemul_acc_c
 * tests/test_native_aarch64.py compares them with the C. */
#ifndef PQLAB_NATIVE_AARCH64_MLKEM_NEON_H
#define PQLAB_NATIVE_AARCH64_MLKEM_NEON_H

#include "pqlab_config.h" /* an export's symbol namespace (docs/export.md); empty in the tree */

#include <stdint.h>

void pqlab_mlkem_ntt_neon(int16_t c[256]);
void pqlab_mlkem_invntt_neon(int16_t c[256]);
void pqlab_mlkem_basemul_acc_neon(int16_t r[256], const int16_t a[256], const int16_t b[256]);

#endif
