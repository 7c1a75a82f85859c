/* SPDX-License-Identifier: MIT */
/* Contract of the native HQC kernels (lib/hqc), selected by the backend's meta header
 * (lib/native/api.h; ARMv7E-M: lib/native/armv7em/hqc_gf2x.S, hqc_rm.S):
 *
 *  PQLAB_HQC_GF2X_NATIVE     pqlab_hqc_mul_base_native(r, a, b, n): r[0..2n) = a[0..n) * b[0..n)
 *                            in F_2[x], words little-endian 64-bit (bit i of the polynomial is
 *                            bit i % 64 of word i / 64); n >= 1; any word values; r does not
 *                            overlap a or b. The base case of lib/hqc/gf2x.c's Karatsuba.
 *  PQLAB_HQC_SUPPORT_NATIVE  pqlab_hqc_support_xor_native(v, nw, support, weight): v[0..nw) ^=
 *                            the vector with ones at support[0..weight) (positions < 64 nw,
 *                            distinct; weight may be 0). lib/hqc/sample.c's hqc_support_xor.
 *  PQLAB_HQC_RM_NATIVE       pqlab_hqc_rm_decode_native(sym, cw, n1, mult): lib/hqc/code.c's
 *                            hqc_rm_decode: for each of the n1 symbols, the mult 128-bit copies
 *                            at cw (2 mult words per symbol) decoded by the Hadamard transform,
 *                            sym[i] = x | s << 7 for the first x of largest |F(x)| and s = 1 when
 *                            F(x) < 0 (0 when all F are 0). n1 >= 0, 1 <= mult <= 7; any bits.
 *
 * All run in time independent of the word values and the positions (no branch, no address
 * depends on them); the loops depend on n, nw and weight only. Never decline. AAPCS. */
#ifndef PQLAB_NATIVE_HQC_H
#define PQLAB_NATIVE_HQC_H

#include <stddef.h>
#include <stdint.h>

void pqlab_hqc_mul_base_native(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n);
void pqlab_hqc_support_xor_native(uint64_t *v, size_t nw, const uint32_t *support, size_t weight);
void pqlab_hqc_rm_decode_native(uint8_t *sym, const uint64_t *cw, size_t n1, size_t mult);

#endif
