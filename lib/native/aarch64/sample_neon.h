/* SPDX-License-Identifier: MIT */
/* Rejection samplers of the AArch64 backend (sample.c), one unnamespaced copy for every
 * parameter set; tests/test_native_aarch64.py compares them with the C.
 *   pqlab_mlkem_rej_bulk_neon(cand, buf, g)
 *       lib/mlkem/kernels.h rej_bulk (FIPS 203 Algorithm 7 lines 5-15 without the count
 *       limit) on the 12 g bytes of buf (any alignment, g >= 0): appends every 12-bit value
 *       d < q to cand in order and returns their number n <= 8 g. Writes cand[0 .. 8 g - 1]
 *       at most (as the contract allows); cand[0 .. n-1] are the C's values.
 *   pqlab_mldsa_rej_uniform_neon(a, ctr, buf, buflen)
 *       lib/mldsa/kernels.h rej_uniform (FIPS 204 Algorithm 30 with Algorithm 14): for each
 *       triple of buf while ctr < 256, the 23-bit value appended at a[ctr] when < q; returns
 *       the new ctr. In: ctr <= 256, any buflen (a trailing partial triple is ignored), any
 *       alignment. Writes exactly the entries of a the C writes, with the same values. */
#ifndef PQLAB_NATIVE_AARCH64_SAMPLE_NEON_H
#define PQLAB_NATIVE_AARCH64_SAMPLE_NEON_H

#include <stddef.h>
#include <stdint.h>

unsigned int pqlab_mlkem_rej_bulk_neon(int16_t *cand, const uint8_t *buf, unsigned int g);
unsigned int pqlab_mldsa_rej_uniform_neon(int32_t a[256], unsigned int ctr, const uint8_t *buf, size_t buflen);

#endif
