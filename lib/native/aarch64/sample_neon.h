/* SPDX-License-Identifier: MIT */
/* Samplers of the AArch64 backend (sample.c), one unnamespaced copy for every
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
 *       alignment. Writes exactly the entries of a the C writes, with the same values.
 *   pqlab_mlkem_cbd2_neon(r, buf), pqlab_mlkem_cbd3_neon(r, buf)
 *       lib/mlkem/kernels.h cbd_eta1 / cbd_eta2 (FIPS 203 Algorithm 8) for eta = 2 (128 bytes)
 *       and eta = 3 (192 bytes): all 256 coefficients in [-eta, eta], the C's values; buf read
 *       inside its 64 eta bytes only, any alignment. Constant time (buf is secret).
 *   pqlab_mldsa_rej_eta_neon(a, ctr, buf, buflen, eta)
 *       the rejection step of lib/mldsa/kernels.h poly_rej_bounded (FIPS 204 Algorithm 31
 *       with CoeffFromHalfByte, Algorithm 15), eta = 2 or 4: for each byte of buf, its low
 *       then its high half-byte b while ctr < 256, eta 2: 2 - (b mod 5) appended when b < 15,
 *       eta 4: 4 - b when b < 9; returns the new ctr. In: ctr <= 256, any buflen and
 *       alignment; another eta takes nothing (returns ctr). a[ctr_in .. ctr_out - 1] are the
 *       C's values; it may also write a[ctr_out .. ctr_out + 3] (never beyond a[255]), which
 *       the caller overwrites or leaves unread. The values are secret and move as data; the
 *       accept decisions are public, as the C treats them (it declassifies them).
 *   pqlab_mldsa_poly_rej_bounded_neon(a, rhoprime, nonce, eta)
 *       lib/mldsa/kernels.h poly_rej_bounded: SHAKE256(rho' || nonce, 2 bytes little-endian)
 *       block by block through pqlab_mldsa_rej_eta_neon until 256 coefficients; eta 2 or 4.
 *   pqlab_mldsa_expand_mask_neon(a, rhopp, nonce, bits), pqlab_mldsa_expand_mask_x4_neon(a0, a1, a2,
 *       a3, rhopp, nonce[4], bits)
 *       lib/mldsa/kernels.h poly_expand_mask / poly_expand_mask_x4 (FIPS 204 Algorithm 34 for one
 *       polynomial each): SHAKE256(rho'' || nonce, 2 bytes little-endian) squeezed as 5 whole
 *       blocks (one state, or four through the library's 4-way SHAKE256) and BitUnpack with
 *       gamma1 = 2^(bits - 1), bits 18 or 20; the C's values. Constant time.
 *   pqlab_mldsa_ball_swap_neon(w, nwords, j, sign4)
 *       lib/mldsa/kernels.h ball_swap (FIPS 204 Algorithm 29 lines 7-8, j secret): w holds the
 *       256 coefficients as bytes (byte k of the array = byte k % 4 of word k / 4, little
 *       endian); over the 16-byte blocks covering words 0 .. nwords - 1 (nwords public) the byte
 *       j is read and replaced by a byte of sign4 (0x01010101 or 0xFFFFFFFF); returns the old
 *       byte. In: j < 4 nwords <= 256. The last block may reach up to 3 words past nwords - 1;
 *       those bytes are positions above j and are written back unchanged. One masked pass
 *       (CMEQ against j, BSL): constant time in j. */
#ifndef PQLAB_NATIVE_AARCH64_SAMPLE_NEON_H
#define PQLAB_NATIVE_AARCH64_SAMPLE_NEON_H

#include "pqlab_config.h" /* an export's symbol namespace (docs/export.md); empty in the tree */

#include <stddef.h>
#include <stdint.h>

unsigned int pqlab_mlkem_rej_bulk_neon(int16_t *cand, const uint8_t *buf, unsigned int g);
unsigned int pqlab_mldsa_rej_uniform_neon(int32_t a[256], unsigned int ctr, const uint8_t *buf, size_t buflen);
void pqlab_mlkem_cbd2_neon(int16_t r[256], const uint8_t buf[128]);
void pqlab_mlkem_cbd3_neon(int16_t r[256], const uint8_t buf[192]);
unsigned int pqlab_mldsa_rej_eta_neon(int32_t a[256], unsigned int ctr, const uint8_t *buf, size_t buflen,
                                      unsigned int eta);
void pqlab_mldsa_poly_rej_bounded_neon(int32_t a[256], const uint8_t rhoprime[64], uint16_t nonce, unsigned int eta);
void pqlab_mldsa_expand_mask_neon(int32_t a[256], const uint8_t rhopp[64], uint16_t nonce, unsigned int bits);
void pqlab_mldsa_expand_mask_x4_neon(int32_t *a0, int32_t *a1, int32_t *a2, int32_t *a3, const uint8_t rhopp[64],
                                     const uint16_t nonce[4], unsigned int bits);
uint32_t pqlab_mldsa_ball_swap_neon(uint32_t w[64], unsigned int nwords, uint32_t j, uint32_t sign4);

#endif
