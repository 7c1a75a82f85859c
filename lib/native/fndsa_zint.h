/* SPDX-License-Identifier: MIT */
/* Contract of the native kernels of FN-DSA key generation's big-integer arithmetic (fndsa_zint.S),
 * selected by PQLAB_FNDSA_ZINT_NATIVE (the backend's meta header, lib/native/api.h; ARMv7E-M: lib/native/armv7em/), used by lib/fndsa/ntru.c.
 *
 * zmacn contract (exact; lib/fndsa/ntru.c's poly_sub_scaled builds its products from it):
 * - acc: len + 2 limbs, len >= 1; init: NULL (acc is read as it is) or len + 2 words that do
 *   not overlap acc; f: m >= 1 integers of len limbs each (f_j at f + j len), signed (two's
 *   complement, the top limb carries the sign); c < m; up: 2 m unsigned 32-bit multipliers.
 * - acc <- init + sum over i < m of up[2 i + (c < i)] f_{(c - i) mod m}, modulo
 *   2^(32 (len + 2)); acc overlaps no f_j.
 * - No heap, no secret-dependent branch or address (loop counts len and m; the branch on
 *   init == NULL and the row addresses depend on c, m only); stack: 56 bytes. AAPCS.
 *
 * zsub_shifted contract (the same results as the C zsub_shifted of lib/fndsa/ntru.c for every
 * input): x (xlen >= 1 limbs) <- x - (a << s) modulo 2^(32 xlen), a: alen >= 1 limbs signed,
 * any s (x unchanged when s / 32 >= xlen); x and a do not overlap. No secret-dependent branch
 * or address (every branch depends on xlen, alen, s); stack: 36 bytes.
 *
 * rns_crt contract (the same results as the C rns_crt of lib/fndsa/ntru.c for every input):
 * out (olen >= 1 limbs) <- X - B sign-extended or truncated, X = t_0 + p_0 (t_1 + p_1 (...
 * + p_{np-2} t_{np-1})), the digits t_j = t[j m] < p_j, p_j = P[2 j] < 2^31 (RNS_P), B: np + 1
 * limbs, rns_setup's (prod - 1) / 2 or any B < 2^(32 (np - 1)) (the C's np = 2 case works
 * in 64 bits), np >= 1; w: np words of scratch. out does not overlap t, B, w. Loop
 * counts depend on olen, np only; stack: 44 bytes.
 *
 * garner_row contract (the same results as the loop over u of rns_garner in lib/fndsa/ntru.c,
 * for one j): m >= 1 coefficients, 1 <= j < np; res: the digits t_i = res[i m + u] < p_i < 2^31
 * for i < j (already converted) and the residues res[j m + u] < p (replaced by digit j);
 * k = {p, p0i, inv, bj}: p = p_j (2^31 - 2^21 < p < 2^31), p0i = -1/p mod 2^32, inv and bj below
 * p; cj[i] < p for i < j - 1. Loop counts depend on m, j only; stack: 52 bytes.
 *
 * zmul contract (the same results as the C zmul of lib/fndsa/ntru.c for every input):
 * r (rlen >= 1 limbs) <- a b modulo 2^(32 rlen), a: alen >= 1 and b: blen >= 1 limbs, signed;
 * r overlaps neither a nor b. Branches depend on the lengths only; stack: 64 bytes.
 *
 * mp_of_poly contract (the same values as mp_of_zint of lib/fndsa/ntru.c, for every input):
 * t[u] = (x_u mod p) in [0, p) for u < m, x_u = the signed integer of len >= 1 limbs at
 * x + u stride; q: the four words {p, p0i, 2^32 mod p, 2^64 mod p} of a modp_t (2^31 - 2^21 < p <
 * 2^31, an RNS_P prime). t overlaps no x_u. Loop counts depend on m, len; stack: 36 bytes.
 *
 * wmove contract (as wmove of lib/fndsa/ntru.c): d[0..n) <- s[0..n) for any n, d and s may
 * overlap in either direction; word-aligned. Stack: 16 bytes.
 *
 * zint_top3 contract (the same results as zint_top3 of lib/fndsa/ntru.c for every input):
 * x: len >= 1 limbs, signed; returns nl and w[0..2] = limbs nl - 3, nl - 2, nl - 1 (0 below
 * limb 0) of the shortest form (see the C). Constant time for a given len (one pass over
 * every limb, selections by SEL); stack: 40 bytes. */
#ifndef PQLAB_NATIVE_FNDSA_ZINT_H
#define PQLAB_NATIVE_FNDSA_ZINT_H

#include <stddef.h>
#include <stdint.h>

void pqlab_fndsa_zmacn_native(uint32_t *acc, const uint32_t *init, size_t len, const uint32_t *f, size_t c, size_t m,
                              const uint32_t *up);
void pqlab_fndsa_zsub_shifted_native(uint32_t *x, size_t xlen, const uint32_t *a, size_t alen, uint32_t s);
void pqlab_fndsa_rns_crt_native(uint32_t *out, size_t olen, const uint32_t *t, size_t m, size_t np, const uint32_t *B,
                                uint32_t *w, const uint32_t *P);
void pqlab_fndsa_garner_row_native(uint32_t *res, size_t m, size_t j, const uint32_t *cj, const uint32_t k[4]);
void pqlab_fndsa_zmul_native(uint32_t *r, size_t rlen, const uint32_t *a, size_t alen, const uint32_t *b, size_t blen);
void pqlab_fndsa_mp_of_poly_native(uint32_t *t, const uint32_t *x, size_t stride, size_t len, size_t m,
                                   const uint32_t *q);
void pqlab_fndsa_wmove_native(uint32_t *d, const uint32_t *s, size_t n);
uint32_t pqlab_fndsa_zint_top3_native(const uint32_t *x, size_t len, uint32_t w[3]);

#endif
