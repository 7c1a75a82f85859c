/* SPDX-License-Identifier: MIT */
/* ML-DSA kernel interface (FIPS 204).
 *
 * These are the hot, self-contained operations a native backend may replace one by
 * one (lib/native/<arch>/). Every kernel has a portable C version, <name>_c (ntt.c,
 * rounding.c, sample.c, pack.c), that is always compiled, so that a native kernel can
 * be tested differentially against it; the frontend calls <name>, which is the
 * backend's kernel when it declares one, else the C version. A backend is selected with
 *   -DPQLAB_MLDSA_BACKEND_HEADER='"mldsa_native.h"'
 * That header defines PQLAB_MLDSA_NATIVE_<NAME> (NAME: the namespaced name in upper
 * case, e.g. PQLAB_MLDSA_NATIVE_NTT, PQLAB_MLDSA_NATIVE_POLY_REJ_NTT_X4) for each kernel
 * it replaces and declares the replacement as PQLAB_NAMESPACE(<name>_native) with the
 * prototype of the C version. lib/mldsa/testing/fake_backend.h is an example.
 * Every kernel states its input bounds (which the frontend guarantees) and its
 * output bounds (which the frontend relies on). All symbols are namespaced, so
 * the three parameter sets and several implementations link together.
 *
 * Conventions: a polynomial is 256 int32_t coefficients. "Montgomery factor" is
 * R = 2^32; mont(x) = x * R^-1 mod q. q = 8380417.
 */
#ifndef PQLAB_MLDSA_KERNELS_H
#define PQLAB_MLDSA_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "params.h"
#include "../native/api.h" /* the backend contract: its meta header names the backend header */

typedef struct {
    int32_t c[MLDSA_N];
} mldsa_poly;

#ifdef PQLAB_MLDSA_BACKEND_HEADER
#include PQLAB_MLDSA_BACKEND_HEADER
#endif

/* ---- arithmetic in Z_q and T_q (FIPS 204 section 7.5, Algorithms 41-45) ---- */

/* Forward NTT (Algorithm 41), in place, bit-reversed output order as in FIPS 204.
 * In: |a_i| <= 2^31 - 1 - 8q. Out: |a_i| < max|in| + 8q (each of the 8 layers adds
 * a Montgomery product of absolute value < q). A backend may narrow this to
 * In: |a_i| <= 2^28, Out: |a_i| < max|in| + 9q (every caller's input is below 2^24 and
 * every caller's use of the output allows 9q); its header then defines
 * PQLAB_MLDSA_NTT_IN_MAX and the other bounds kernels_contract.h checks (rv32). */
#define mldsa_ntt_c PQLAB_NAMESPACE(ntt_c)
void mldsa_ntt_c(int32_t a[MLDSA_N]);
#ifdef PQLAB_MLDSA_NATIVE_NTT
#define mldsa_ntt PQLAB_NAMESPACE(ntt_native)
#else
#define mldsa_ntt mldsa_ntt_c
#endif

/* Inverse NTT (Algorithm 42) times 2^32, in place.
 * In: |a_i| < q. Out: |a_i| < q, a = NTT^-1(in) * 2^32 mod q.
 * (Additions at most double per layer: 256 (q-1) < 2^31 after 8 layers.) */
#define mldsa_invntt_tomont_c PQLAB_NAMESPACE(invntt_tomont_c)
void mldsa_invntt_tomont_c(int32_t a[MLDSA_N]);
#ifdef PQLAB_MLDSA_NATIVE_INVNTT_TOMONT
#define mldsa_invntt_tomont PQLAB_NAMESPACE(invntt_tomont_native)
#else
#define mldsa_invntt_tomont mldsa_invntt_tomont_c
#endif

/* c = a o b * 2^-32 (Algorithm 45 with a Montgomery factor).
 * In: |a_i * b_i| < 2^31 q. Out: |c_i| < q. c may alias a or b. */
#define mldsa_pointwise_mont_c PQLAB_NAMESPACE(pointwise_mont_c)
void mldsa_pointwise_mont_c(int32_t c[MLDSA_N], const int32_t a[MLDSA_N], const int32_t b[MLDSA_N]);
#ifdef PQLAB_MLDSA_NATIVE_POINTWISE_MONT
#define mldsa_pointwise_mont PQLAB_NAMESPACE(pointwise_mont_native)
#else
#define mldsa_pointwise_mont mldsa_pointwise_mont_c
#endif

/* c += a o b * 2^-32. In as above and |c_i| + q < 2^31. */
#define mldsa_pointwise_acc_mont_c PQLAB_NAMESPACE(pointwise_acc_mont_c)
void mldsa_pointwise_acc_mont_c(int32_t c[MLDSA_N], const int32_t a[MLDSA_N], const int32_t b[MLDSA_N]);
#ifdef PQLAB_MLDSA_NATIVE_POINTWISE_ACC_MONT
#define mldsa_pointwise_acc_mont PQLAB_NAMESPACE(pointwise_acc_mont_native)
#else
#define mldsa_pointwise_acc_mont mldsa_pointwise_acc_mont_c
#endif

/* w = sum_{j < count} a_j o b_j * 2^-32 mod q with one Montgomery reduction of the exact
 * (64-bit) sum: the C version's value is mldsa_montgomery_reduce(sum_j a_j,i b_j,i) per
 * coefficient. In: 1 <= count, sum_j |a_j,i b_j,i| < 2^31 q (signing's row of A hat, in
 * [0, q), times NTT(y), |.| < gamma1 + 8q: l 9 q^2 < 2^31 q). Out: |w_i| < q. w does not alias
 * a or b. Signing computes A hat NTT(y) with it where a backend provides it (in place of
 * pointwise_mont, pointwise_acc_mont and reduce32, which other backends keep). */
#define mldsa_polyvec_pointwise_acc_mont_c PQLAB_NAMESPACE(polyvec_pointwise_acc_mont_c)
void mldsa_polyvec_pointwise_acc_mont_c(int32_t w[MLDSA_N], const mldsa_poly *a, const mldsa_poly *b,
                                        unsigned int count);
#ifdef PQLAB_MLDSA_NATIVE_POLYVEC_POINTWISE_ACC_MONT
#define mldsa_polyvec_pointwise_acc_mont PQLAB_NAMESPACE(polyvec_pointwise_acc_mont_native)
#else
#define mldsa_polyvec_pointwise_acc_mont mldsa_polyvec_pointwise_acc_mont_c
#endif

/* r_j = base_j + u_j exactly, for j < count, where u_j = NTT^-1(chat o shat_j) is the
 * product c s_j in Z_q[X]/(X^256 + 1) with chat = NTT(c), shat_j = NTT(s_j) (outputs of
 * mldsa_ntt) and the caller guarantees that every coefficient of c s_j has absolute value
 * < 2089217 (then the centred residue is the integer product; signing's c s1, c s2 and c t0:
 * |.| <= tau 2^12 < 2^18). base == NULL means zero. r may alias base (not chat or shat).
 * In: |chat_i shat_j_i| < 2^31 q, |base_i| + 2^21 < 2^31. Out: r as above (unique).
 * The C version is pointwise_mont, invntt_tomont and reduce32 per product; a backend that
 * provides this kernel makes signing keep s1 and s2 in this NTT (sign.c) instead of the
 * small-modulus NTT below (a backend whose transforms are cheap, e.g. the NTT unit, where
 * c stays in the unit for all count products). */
#define mldsa_polyvec_nttmul_add_c PQLAB_NAMESPACE(polyvec_nttmul_add_c)
void mldsa_polyvec_nttmul_add_c(mldsa_poly *r, const mldsa_poly *base, const mldsa_poly *chat, const mldsa_poly *shat,
                                unsigned int count);
#ifdef PQLAB_MLDSA_NATIVE_POLYVEC_NTTMUL_ADD
#define mldsa_polyvec_nttmul_add PQLAB_NAMESPACE(polyvec_nttmul_add_native)
#else
#define mldsa_polyvec_nttmul_add mldsa_polyvec_nttmul_add_c
#endif

/* a_i -> a_i - round(a_i / 2^23) q. In: |a_i| <= 2^31 - 2^22 - 1.
 * Out: congruent, |a_i| <= 6291200 < q; equal to the centred representative of
 * a_i whenever that has absolute value < 2089217 (then no other representative
 * fits the output range). */
#define mldsa_poly_reduce32_c PQLAB_NAMESPACE(poly_reduce32_c)
void mldsa_poly_reduce32_c(int32_t a[MLDSA_N]);
#ifdef PQLAB_MLDSA_NATIVE_POLY_REDUCE32
#define mldsa_poly_reduce32 PQLAB_NAMESPACE(poly_reduce32_native)
#else
#define mldsa_poly_reduce32 mldsa_poly_reduce32_c
#endif

/* a_i -> a_i mod+ q. In: -q < a_i < q. Out: 0 <= a_i < q. */
#define mldsa_poly_caddq_c PQLAB_NAMESPACE(poly_caddq_c)
void mldsa_poly_caddq_c(int32_t a[MLDSA_N]);
#ifdef PQLAB_MLDSA_NATIVE_POLY_CADDQ
#define mldsa_poly_caddq PQLAB_NAMESPACE(poly_caddq_native)
#else
#define mldsa_poly_caddq mldsa_poly_caddq_c
#endif

/* ---- small-modulus NTT for c s1, c s2 (lib/mldsa/ntt16.c, gen_ntt16.py) ----
 * Modulo p = 7681 (a prime = 1 mod 512), 16-bit coefficients, Montgomery factor 2^16.
 * Only for products whose exact coefficients have absolute value <= 2400,
 * such as c s with |c| <= 1 (tau ones) and |s| <= eta: |c s| <= tau eta <= 196. */

/* r = NTT_p(a) 2^-16 mod p, bit-reversed order as Algorithm 41 (root 62 instead of
 * zeta). In: |a_i| <= 64. Out: |r_i| <= 12206 (any representative: a native kernel may
 * return another one in that range; only mul16_add's output is unique). */
#define mldsa_poly_ntt16_c PQLAB_NAMESPACE(poly_ntt16_c)
void mldsa_poly_ntt16_c(int16_t r[MLDSA_N], const int32_t a[MLDSA_N]);
#ifdef PQLAB_MLDSA_NATIVE_POLY_NTT16
#define mldsa_poly_ntt16 PQLAB_NAMESPACE(poly_ntt16_native)
#else
#define mldsa_poly_ntt16 mldsa_poly_ntt16_c
#endif

/* r = base + x, where x is a representative (|x_i| <= 5280) of the polynomial product
 * u v mod (X^256 + 1, p), a = ntt16(u), b = ntt16(v). So x = u v exactly when every
 * coefficient of u v has absolute value <= p - 5281 = 2400 (then no other representative
 * fits).
 * In: a, b outputs of ntt16 (|.| <= 12206); |base_i| < 2^31 - 5281. r may alias base
 * (not a or b). */
#define mldsa_poly_mul16_add_c PQLAB_NAMESPACE(poly_mul16_add_c)
void mldsa_poly_mul16_add_c(int32_t r[MLDSA_N], const int32_t base[MLDSA_N], const int16_t a[MLDSA_N],
                            const int16_t b[MLDSA_N]);
#ifdef PQLAB_MLDSA_NATIVE_POLY_MUL16_ADD
#define mldsa_poly_mul16_add PQLAB_NAMESPACE(poly_mul16_add_native)
#else
#define mldsa_poly_mul16_add mldsa_poly_mul16_add_c
#endif

/* ---- rounding (FIPS 204 section 7.4, Algorithms 35-40) ---- */

/* Power2Round (Algorithm 35) on each coefficient. In: 0 <= a_i < q. a0 may alias a.
 * Out: a1_i in [0, 2^10), a0_i in (-2^12, 2^12], a = a1 2^13 + a0. */
#define mldsa_poly_power2round_c PQLAB_NAMESPACE(poly_power2round_c)
void mldsa_poly_power2round_c(int32_t a1[MLDSA_N], int32_t a0[MLDSA_N], const int32_t a[MLDSA_N]);
#ifdef PQLAB_MLDSA_NATIVE_POLY_POWER2ROUND
#define mldsa_poly_power2round PQLAB_NAMESPACE(poly_power2round_native)
#else
#define mldsa_poly_power2round mldsa_poly_power2round_c
#endif

/* Decompose (Algorithm 36) on each coefficient. In: 0 <= a_i < q.
 * Out: a1_i in [0, (q-1)/(2 gamma2)), a0_i in [-gamma2, gamma2]. a1 or a0 may be NULL
 * (HighBits / LowBits, Algorithms 37, 38); with a0 NULL, a1 may alias a (HighBits in
 * place, as the stack-first signing in stream.c uses it). */
#define mldsa_poly_decompose_c PQLAB_NAMESPACE(poly_decompose_c)
void mldsa_poly_decompose_c(int32_t *a1, int32_t *a0, const int32_t a[MLDSA_N]);
#ifdef PQLAB_MLDSA_NATIVE_POLY_DECOMPOSE
#define mldsa_poly_decompose PQLAB_NAMESPACE(poly_decompose_native)
#else
#define mldsa_poly_decompose mldsa_poly_decompose_c
#endif

/* MakeHint (Algorithm 39) in the form used by signing: h_i = [HighBits(r_i + d_i) !=
 * HighBits(r_i)], written to h (0/1). In: 0 <= r_i < q, |d_i| < 2^22 (d = c t0).
 * Returns the number of ones. Constant time. */
#define mldsa_poly_make_hint_c PQLAB_NAMESPACE(poly_make_hint_c)
unsigned int mldsa_poly_make_hint_c(int32_t h[MLDSA_N], const int32_t r[MLDSA_N], const int32_t d[MLDSA_N]);
#ifdef PQLAB_MLDSA_NATIVE_POLY_MAKE_HINT
#define mldsa_poly_make_hint PQLAB_NAMESPACE(poly_make_hint_native)
#else
#define mldsa_poly_make_hint mldsa_poly_make_hint_c
#endif

/* MakeHint from Decompose's parts, as signing uses it: with s = a0_i + d_i,
 * h_i = 1 unless -gamma2 < s <= gamma2 or (s = -gamma2 and a1_i = 0); h (0/1) may alias
 * a1 (same index). Returns the number of ones; constant time. For (a1, a0) = Decompose(r),
 * r in [0, q), this equals MakeHint(-d, r + d) (Algorithm 39: HighBits(r + d) !=
 * HighBits(r)) whenever |a0_i| < gamma2 - beta and |d_i| < gamma2, which every accepted
 * signing iteration satisfies (checked for every r1 and a0 + d by
 * tests/test_mldsa_kernels.py, -m slow). In: |a0_i| <= gamma2, |d_i| < 2^22. */
#define mldsa_poly_make_hint_low_c PQLAB_NAMESPACE(poly_make_hint_low_c)
unsigned int mldsa_poly_make_hint_low_c(int32_t h[MLDSA_N], const int32_t a0[MLDSA_N], const int32_t d[MLDSA_N],
                                        const int32_t a1[MLDSA_N]);
#ifdef PQLAB_MLDSA_NATIVE_POLY_MAKE_HINT_LOW
#define mldsa_poly_make_hint_low PQLAB_NAMESPACE(poly_make_hint_low_native)
#else
#define mldsa_poly_make_hint_low mldsa_poly_make_hint_low_c
#endif

/* UseHint (Algorithm 40). In: 0 <= a_i < q, h_i in {0,1}. Out: b_i in
 * [0, (q-1)/(2 gamma2)). b may alias a. */
#define mldsa_poly_use_hint_c PQLAB_NAMESPACE(poly_use_hint_c)
void mldsa_poly_use_hint_c(int32_t b[MLDSA_N], const int32_t a[MLDSA_N], const uint8_t h[MLDSA_N]);
#ifdef PQLAB_MLDSA_NATIVE_POLY_USE_HINT
#define mldsa_poly_use_hint PQLAB_NAMESPACE(poly_use_hint_native)
#else
#define mldsa_poly_use_hint mldsa_poly_use_hint_c
#endif

/* 1 when some |a_i| >= bound, else 0; constant time. In: |a_i| < 2^31 - 1,
 * 0 < bound <= 2^30. */
#define mldsa_poly_chknorm_c PQLAB_NAMESPACE(poly_chknorm_c)
uint32_t mldsa_poly_chknorm_c(const int32_t a[MLDSA_N], int32_t bound);
#ifdef PQLAB_MLDSA_NATIVE_POLY_CHKNORM
#define mldsa_poly_chknorm PQLAB_NAMESPACE(poly_chknorm_native)
#else
#define mldsa_poly_chknorm mldsa_poly_chknorm_c
#endif

/* ---- samplers (FIPS 204 section 7.3, Algorithms 29-34) ---- */

/* RejNTTPoly (Algorithm 30) on rho || nonce (2 bytes, little endian: column index
 * s then row index r, as ExpandA writes them), four polynomials at once through the
 * 4-way SHAKE128. Out: coefficients in [0, q). */
#define mldsa_poly_rej_ntt_x4_c PQLAB_NAMESPACE(poly_rej_ntt_x4_c)
void mldsa_poly_rej_ntt_x4_c(mldsa_poly *a0, mldsa_poly *a1, mldsa_poly *a2, mldsa_poly *a3,
                             const uint8_t rho[MLDSA_SEEDBYTES], const uint16_t nonce[4]);
#ifdef PQLAB_MLDSA_NATIVE_POLY_REJ_NTT_X4
#define mldsa_poly_rej_ntt_x4 PQLAB_NAMESPACE(poly_rej_ntt_x4_native)
#else
#define mldsa_poly_rej_ntt_x4 mldsa_poly_rej_ntt_x4_c
#endif
/* The sampling loop of RejNTTPoly (Algorithm 30 with CoeffFromThreeBytes, Algorithm 14)
 * on a buffer of squeezed bytes: for pos = 0, 3, ... while ctr < 256 and pos + 3 <=
 * buflen, the 23-bit little-endian value of buf[pos..pos+2] (top bit cleared) is
 * appended to a (at index ctr) when it is < q. Returns the new ctr. In: ctr <= 256.
 * Public data (rho): may branch on the values. */
#define mldsa_rej_uniform_c PQLAB_NAMESPACE(rej_uniform_c)
unsigned int mldsa_rej_uniform_c(int32_t a[MLDSA_N], unsigned int ctr, const uint8_t *buf, size_t buflen);
#ifdef PQLAB_MLDSA_NATIVE_REJ_UNIFORM
#define mldsa_rej_uniform PQLAB_NAMESPACE(rej_uniform_native)
#else
#define mldsa_rej_uniform mldsa_rej_uniform_c
#endif
#define mldsa_poly_rej_ntt_c PQLAB_NAMESPACE(poly_rej_ntt_c)
void mldsa_poly_rej_ntt_c(mldsa_poly *a, const uint8_t rho[MLDSA_SEEDBYTES], uint16_t nonce);
#ifdef PQLAB_MLDSA_NATIVE_POLY_REJ_NTT
#define mldsa_poly_rej_ntt PQLAB_NAMESPACE(poly_rej_ntt_native)
#else
#define mldsa_poly_rej_ntt mldsa_poly_rej_ntt_c
#endif

/* RejBoundedPoly's sampling loop (Algorithm 31 lines 5-15 with CoeffFromHalfByte, Algorithm
 * 15) on nbytes bytes without the count limit: for each byte, its low then its high half
 * byte is written at a[n] and n advances when it is accepted (b < 15 for eta = 2, b < 9 for
 * eta = 4); returns n. a needs room for 2 nbytes values (the caller keeps the count limit);
 * a[n] may hold a rejected value afterwards. Secret data: no branch; the store addresses
 * depend on the accept decisions only, which every implementation declassifies one at a
 * time (sample.c's top comment says why they may be public). Out:
 * a[0..n-1] in [-eta, eta], n <= 2 nbytes. */
#define mldsa_rej_eta_c PQLAB_NAMESPACE(rej_eta_c)
unsigned int mldsa_rej_eta_c(int32_t *a, const uint8_t *buf, unsigned int nbytes);
#ifdef PQLAB_MLDSA_NATIVE_REJ_ETA
#define mldsa_rej_eta PQLAB_NAMESPACE(rej_eta_native)
#else
#define mldsa_rej_eta mldsa_rej_eta_c
#endif

/* RejBoundedPoly (Algorithm 31) on rho' || nonce (2 bytes LE). Out: [-eta, eta]. */
#define mldsa_poly_rej_bounded_c PQLAB_NAMESPACE(poly_rej_bounded_c)
void mldsa_poly_rej_bounded_c(mldsa_poly *a, const uint8_t rhoprime[MLDSA_CRHBYTES], uint16_t nonce);
#ifdef PQLAB_MLDSA_NATIVE_POLY_REJ_BOUNDED
#define mldsa_poly_rej_bounded PQLAB_NAMESPACE(poly_rej_bounded_native)
#else
#define mldsa_poly_rej_bounded mldsa_poly_rej_bounded_c
#endif

/* SampleInBall's step at a secret position j (Algorithm 29, lines 7-8) on the 256
 * coefficients held as signed bytes, four per word (byte k % 4 of word k / 4): over the
 * words 0..nwords-1 (nwords = i / 4 + 1, public), the byte at position j is read and
 * replaced by the byte of sign4 (0x01010101 or 0xFFFFFFFF); returns the old byte (c_j,
 * 0..255). Constant time in j (one masked pass). In: j < 4 nwords <= 256. */
#define mldsa_ball_swap_c PQLAB_NAMESPACE(ball_swap_c)
uint32_t mldsa_ball_swap_c(uint32_t w[MLDSA_N / 4], unsigned int nwords, uint32_t j, uint32_t sign4);
#ifdef PQLAB_MLDSA_NATIVE_BALL_SWAP
#define mldsa_ball_swap PQLAB_NAMESPACE(ball_swap_native)
#else
#define mldsa_ball_swap mldsa_ball_swap_c
#endif

/* SampleInBall (Algorithm 29). Out: tau coefficients +-1, the rest 0. */
#define mldsa_poly_sample_in_ball_c PQLAB_NAMESPACE(poly_sample_in_ball_c)
void mldsa_poly_sample_in_ball_c(mldsa_poly *c, const uint8_t ctilde[MLDSA_CTILDEBYTES]);
#ifdef PQLAB_MLDSA_NATIVE_POLY_SAMPLE_IN_BALL
#define mldsa_poly_sample_in_ball PQLAB_NAMESPACE(poly_sample_in_ball_native)
#else
#define mldsa_poly_sample_in_ball mldsa_poly_sample_in_ball_c
#endif

/* One polynomial of ExpandMask (Algorithm 34): y = BitUnpack(H(rho'' || nonce, 32c),
 * gamma1 - 1, gamma1). Out: (-gamma1, gamma1]. */
#define mldsa_poly_expand_mask_c PQLAB_NAMESPACE(poly_expand_mask_c)
void mldsa_poly_expand_mask_c(mldsa_poly *y, const uint8_t rhopp[MLDSA_CRHBYTES], uint16_t nonce);
#ifdef PQLAB_MLDSA_NATIVE_POLY_EXPAND_MASK
#define mldsa_poly_expand_mask PQLAB_NAMESPACE(poly_expand_mask_native)
#else
#define mldsa_poly_expand_mask mldsa_poly_expand_mask_c
#endif

/* Four polynomials of ExpandMask through the 4-way SHAKE256 (same outputs as four
 * calls of mldsa_poly_expand_mask with nonce[0..3]). */
#define mldsa_poly_expand_mask_x4_c PQLAB_NAMESPACE(poly_expand_mask_x4_c)
void mldsa_poly_expand_mask_x4_c(mldsa_poly *y0, mldsa_poly *y1, mldsa_poly *y2, mldsa_poly *y3,
                                 const uint8_t rhopp[MLDSA_CRHBYTES], const uint16_t nonce[4]);
#ifdef PQLAB_MLDSA_NATIVE_POLY_EXPAND_MASK_X4
#define mldsa_poly_expand_mask_x4 PQLAB_NAMESPACE(poly_expand_mask_x4_native)
#else
#define mldsa_poly_expand_mask_x4 mldsa_poly_expand_mask_x4_c
#endif

/* ---- (de)serialisation (FIPS 204 section 7.1, Algorithms 16-19, 28) ---- */

/* t1: SimpleBitPack(t1, 2^10 - 1); in [0, 2^10) */
#define mldsa_polyt1_pack_c PQLAB_NAMESPACE(polyt1_pack_c)
void mldsa_polyt1_pack_c(uint8_t r[MLDSA_POLYT1_BYTES], const int32_t a[MLDSA_N]);
#ifdef PQLAB_MLDSA_NATIVE_POLYT1_PACK
#define mldsa_polyt1_pack PQLAB_NAMESPACE(polyt1_pack_native)
#else
#define mldsa_polyt1_pack mldsa_polyt1_pack_c
#endif
#define mldsa_polyt1_unpack_c PQLAB_NAMESPACE(polyt1_unpack_c)
void mldsa_polyt1_unpack_c(int32_t a[MLDSA_N], const uint8_t r[MLDSA_POLYT1_BYTES]);
#ifdef PQLAB_MLDSA_NATIVE_POLYT1_UNPACK
#define mldsa_polyt1_unpack PQLAB_NAMESPACE(polyt1_unpack_native)
#else
#define mldsa_polyt1_unpack mldsa_polyt1_unpack_c
#endif
/* t0: BitPack(t0, 2^12 - 1, 2^12); in (-2^12, 2^12] */
#define mldsa_polyt0_pack_c PQLAB_NAMESPACE(polyt0_pack_c)
void mldsa_polyt0_pack_c(uint8_t r[MLDSA_POLYT0_BYTES], const int32_t a[MLDSA_N]);
#ifdef PQLAB_MLDSA_NATIVE_POLYT0_PACK
#define mldsa_polyt0_pack PQLAB_NAMESPACE(polyt0_pack_native)
#else
#define mldsa_polyt0_pack mldsa_polyt0_pack_c
#endif
#define mldsa_polyt0_unpack_c PQLAB_NAMESPACE(polyt0_unpack_c)
void mldsa_polyt0_unpack_c(int32_t a[MLDSA_N], const uint8_t r[MLDSA_POLYT0_BYTES]);
#ifdef PQLAB_MLDSA_NATIVE_POLYT0_UNPACK
#define mldsa_polyt0_unpack PQLAB_NAMESPACE(polyt0_unpack_native)
#else
#define mldsa_polyt0_unpack mldsa_polyt0_unpack_c
#endif
/* s1, s2: BitPack(s, eta, eta). unpack returns 1 when some coefficient lies outside
 * [-eta, eta] (a malformed secret key), else 0; constant time. */
#define mldsa_polyeta_pack_c PQLAB_NAMESPACE(polyeta_pack_c)
void mldsa_polyeta_pack_c(uint8_t r[MLDSA_POLYETA_BYTES], const int32_t a[MLDSA_N]);
#ifdef PQLAB_MLDSA_NATIVE_POLYETA_PACK
#define mldsa_polyeta_pack PQLAB_NAMESPACE(polyeta_pack_native)
#else
#define mldsa_polyeta_pack mldsa_polyeta_pack_c
#endif
#define mldsa_polyeta_unpack_c PQLAB_NAMESPACE(polyeta_unpack_c)
uint32_t mldsa_polyeta_unpack_c(int32_t a[MLDSA_N], const uint8_t r[MLDSA_POLYETA_BYTES]);
#ifdef PQLAB_MLDSA_NATIVE_POLYETA_UNPACK
#define mldsa_polyeta_unpack PQLAB_NAMESPACE(polyeta_unpack_native)
#else
#define mldsa_polyeta_unpack mldsa_polyeta_unpack_c
#endif
/* z: BitPack(z, gamma1 - 1, gamma1); in (-gamma1, gamma1] */
#define mldsa_polyz_pack_c PQLAB_NAMESPACE(polyz_pack_c)
void mldsa_polyz_pack_c(uint8_t r[MLDSA_POLYZ_BYTES], const int32_t a[MLDSA_N]);
#ifdef PQLAB_MLDSA_NATIVE_POLYZ_PACK
#define mldsa_polyz_pack PQLAB_NAMESPACE(polyz_pack_native)
#else
#define mldsa_polyz_pack mldsa_polyz_pack_c
#endif
#define mldsa_polyz_unpack_c PQLAB_NAMESPACE(polyz_unpack_c)
void mldsa_polyz_unpack_c(int32_t a[MLDSA_N], const uint8_t r[MLDSA_POLYZ_BYTES]);
#ifdef PQLAB_MLDSA_NATIVE_POLYZ_UNPACK
#define mldsa_polyz_unpack PQLAB_NAMESPACE(polyz_unpack_native)
#else
#define mldsa_polyz_unpack mldsa_polyz_unpack_c
#endif
/* w1: SimpleBitPack(w1, (q-1)/(2 gamma2) - 1) */
#define mldsa_polyw1_pack_c PQLAB_NAMESPACE(polyw1_pack_c)
void mldsa_polyw1_pack_c(uint8_t r[MLDSA_POLYW1_BYTES], const int32_t a[MLDSA_N]);
#ifdef PQLAB_MLDSA_NATIVE_POLYW1_PACK
#define mldsa_polyw1_pack PQLAB_NAMESPACE(polyw1_pack_native)
#else
#define mldsa_polyw1_pack mldsa_polyw1_pack_c
#endif

#include "kernels_contract.h" /* entry/exit checks with PQLAB_CONTRACT_CHECKS */

#endif
