/* SPDX-License-Identifier: MIT */
/* ML-DSA kernel interface (FIPS 204).
 *
 * These are the hot, self-contained operations a native backend may replace
 * (lib/native/<arch>/). The portable C implementations live in ntt.c,
 * rounding.c, sample.c and pack.c. A backend that provides a kernel defines the
 * matching MLDSA_NATIVE_<NAME> macro and the portable definition compiles out.
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

typedef struct {
    int32_t c[MLDSA_N];
} mldsa_poly;

/* ---- arithmetic in Z_q and T_q (FIPS 204 section 7.5, Algorithms 41-45) ---- */

/* Forward NTT (Algorithm 41), in place, bit-reversed output order as in FIPS 204.
 * In: |a_i| <= 2^31 - 1 - 8q. Out: |a_i| < max|in| + 8q (each of the 8 layers adds
 * a Montgomery product of absolute value < q). */
#define mldsa_ntt PQLAB_NAMESPACE(ntt)
void mldsa_ntt(int32_t a[MLDSA_N]);

/* Inverse NTT (Algorithm 42) times 2^32, in place.
 * In: |a_i| < q. Out: |a_i| < q, a = NTT^-1(in) * 2^32 mod q.
 * (Additions at most double per layer: 256 (q-1) < 2^31 after 8 layers.) */
#define mldsa_invntt_tomont PQLAB_NAMESPACE(invntt_tomont)
void mldsa_invntt_tomont(int32_t a[MLDSA_N]);

/* c = a o b * 2^-32 (Algorithm 45 with a Montgomery factor).
 * In: |a_i * b_i| < 2^31 q. Out: |c_i| < q. c may alias a or b. */
#define mldsa_pointwise_mont PQLAB_NAMESPACE(pointwise_mont)
void mldsa_pointwise_mont(int32_t c[MLDSA_N], const int32_t a[MLDSA_N], const int32_t b[MLDSA_N]);

/* c += a o b * 2^-32. In as above and |c_i| + q < 2^31. */
#define mldsa_pointwise_acc_mont PQLAB_NAMESPACE(pointwise_acc_mont)
void mldsa_pointwise_acc_mont(int32_t c[MLDSA_N], const int32_t a[MLDSA_N],
                              const int32_t b[MLDSA_N]);

/* a_i -> a_i - round(a_i / 2^23) q. In: |a_i| <= 2^31 - 2^22 - 1.
 * Out: congruent, |a_i| <= 6291200 < q; equal to the centred representative of
 * a_i whenever that has absolute value < 2089217 (then no other representative
 * fits the output range). */
#define mldsa_poly_reduce32 PQLAB_NAMESPACE(poly_reduce32)
void mldsa_poly_reduce32(int32_t a[MLDSA_N]);

/* a_i -> a_i mod+ q. In: -q < a_i < q. Out: 0 <= a_i < q. */
#define mldsa_poly_caddq PQLAB_NAMESPACE(poly_caddq)
void mldsa_poly_caddq(int32_t a[MLDSA_N]);

/* ---- rounding (FIPS 204 section 7.4, Algorithms 35-40) ---- */

/* Power2Round (Algorithm 35) on each coefficient. In: 0 <= a_i < q. a0 may alias a.
 * Out: a1_i in [0, 2^10), a0_i in (-2^12, 2^12], a = a1 2^13 + a0. */
#define mldsa_poly_power2round PQLAB_NAMESPACE(poly_power2round)
void mldsa_poly_power2round(int32_t a1[MLDSA_N], int32_t a0[MLDSA_N], const int32_t a[MLDSA_N]);

/* Decompose (Algorithm 36) on each coefficient. In: 0 <= a_i < q.
 * Out: a1_i in [0, (q-1)/(2 gamma2)), a0_i in [-gamma2, gamma2]. a1 or a0 may be NULL
 * (HighBits / LowBits, Algorithms 37, 38). */
#define mldsa_poly_decompose PQLAB_NAMESPACE(poly_decompose)
void mldsa_poly_decompose(int32_t *a1, int32_t *a0, const int32_t a[MLDSA_N]);

/* MakeHint (Algorithm 39) in the form used by signing: h_i = [HighBits(r_i + d_i) !=
 * HighBits(r_i)], written to h (0/1). In: 0 <= r_i < q, |d_i| < 2^22 (d = c t0).
 * Returns the number of ones. Constant time. */
#define mldsa_poly_make_hint PQLAB_NAMESPACE(poly_make_hint)
unsigned int mldsa_poly_make_hint(int32_t h[MLDSA_N], const int32_t r[MLDSA_N],
                                  const int32_t d[MLDSA_N]);

/* UseHint (Algorithm 40). In: 0 <= a_i < q, h_i in {0,1}. Out: b_i in
 * [0, (q-1)/(2 gamma2)). b may alias a. */
#define mldsa_poly_use_hint PQLAB_NAMESPACE(poly_use_hint)
void mldsa_poly_use_hint(int32_t b[MLDSA_N], const int32_t a[MLDSA_N], const uint8_t h[MLDSA_N]);

/* 1 when some |a_i| >= bound, else 0; constant time. In: |a_i| < 2^31 - 1,
 * 0 < bound <= 2^30. */
#define mldsa_poly_chknorm PQLAB_NAMESPACE(poly_chknorm)
uint32_t mldsa_poly_chknorm(const int32_t a[MLDSA_N], int32_t bound);

/* ---- samplers (FIPS 204 section 7.3, Algorithms 29-34) ---- */

/* RejNTTPoly (Algorithm 30) on rho || nonce (2 bytes, little endian: column index
 * s then row index r, as ExpandA writes them), four polynomials at once through the
 * 4-way SHAKE128. Out: coefficients in [0, q). */
#define mldsa_poly_rej_ntt_x4 PQLAB_NAMESPACE(poly_rej_ntt_x4)
void mldsa_poly_rej_ntt_x4(mldsa_poly *a0, mldsa_poly *a1, mldsa_poly *a2, mldsa_poly *a3,
                           const uint8_t rho[MLDSA_SEEDBYTES], const uint16_t nonce[4]);
#define mldsa_poly_rej_ntt PQLAB_NAMESPACE(poly_rej_ntt)
void mldsa_poly_rej_ntt(mldsa_poly *a, const uint8_t rho[MLDSA_SEEDBYTES], uint16_t nonce);

/* RejBoundedPoly (Algorithm 31) on rho' || nonce (2 bytes LE). Out: [-eta, eta]. */
#define mldsa_poly_rej_bounded PQLAB_NAMESPACE(poly_rej_bounded)
void mldsa_poly_rej_bounded(mldsa_poly *a, const uint8_t rhoprime[MLDSA_CRHBYTES],
                            uint16_t nonce);

/* SampleInBall (Algorithm 29). Out: tau coefficients +-1, the rest 0. */
#define mldsa_poly_sample_in_ball PQLAB_NAMESPACE(poly_sample_in_ball)
void mldsa_poly_sample_in_ball(mldsa_poly *c, const uint8_t ctilde[MLDSA_CTILDEBYTES]);

/* One polynomial of ExpandMask (Algorithm 34): y = BitUnpack(H(rho'' || nonce, 32c),
 * gamma1 - 1, gamma1). Out: (-gamma1, gamma1]. */
#define mldsa_poly_expand_mask PQLAB_NAMESPACE(poly_expand_mask)
void mldsa_poly_expand_mask(mldsa_poly *y, const uint8_t rhopp[MLDSA_CRHBYTES], uint16_t nonce);

/* ---- (de)serialisation (FIPS 204 section 7.1, Algorithms 16-19, 28) ---- */

/* t1: SimpleBitPack(t1, 2^10 - 1); in [0, 2^10) */
#define mldsa_polyt1_pack PQLAB_NAMESPACE(polyt1_pack)
void mldsa_polyt1_pack(uint8_t r[MLDSA_POLYT1_BYTES], const int32_t a[MLDSA_N]);
#define mldsa_polyt1_unpack PQLAB_NAMESPACE(polyt1_unpack)
void mldsa_polyt1_unpack(int32_t a[MLDSA_N], const uint8_t r[MLDSA_POLYT1_BYTES]);
/* t0: BitPack(t0, 2^12 - 1, 2^12); in (-2^12, 2^12] */
#define mldsa_polyt0_pack PQLAB_NAMESPACE(polyt0_pack)
void mldsa_polyt0_pack(uint8_t r[MLDSA_POLYT0_BYTES], const int32_t a[MLDSA_N]);
#define mldsa_polyt0_unpack PQLAB_NAMESPACE(polyt0_unpack)
void mldsa_polyt0_unpack(int32_t a[MLDSA_N], const uint8_t r[MLDSA_POLYT0_BYTES]);
/* s1, s2: BitPack(s, eta, eta). unpack returns 1 when some coefficient lies outside
 * [-eta, eta] (a malformed secret key), else 0; constant time. */
#define mldsa_polyeta_pack PQLAB_NAMESPACE(polyeta_pack)
void mldsa_polyeta_pack(uint8_t r[MLDSA_POLYETA_BYTES], const int32_t a[MLDSA_N]);
#define mldsa_polyeta_unpack PQLAB_NAMESPACE(polyeta_unpack)
uint32_t mldsa_polyeta_unpack(int32_t a[MLDSA_N], const uint8_t r[MLDSA_POLYETA_BYTES]);
/* z: BitPack(z, gamma1 - 1, gamma1); in (-gamma1, gamma1] */
#define mldsa_polyz_pack PQLAB_NAMESPACE(polyz_pack)
void mldsa_polyz_pack(uint8_t r[MLDSA_POLYZ_BYTES], const int32_t a[MLDSA_N]);
#define mldsa_polyz_unpack PQLAB_NAMESPACE(polyz_unpack)
void mldsa_polyz_unpack(int32_t a[MLDSA_N], const uint8_t r[MLDSA_POLYZ_BYTES]);
/* w1: SimpleBitPack(w1, (q-1)/(2 gamma2) - 1) */
#define mldsa_polyw1_pack PQLAB_NAMESPACE(polyw1_pack)
void mldsa_polyw1_pack(uint8_t r[MLDSA_POLYW1_BYTES], const int32_t a[MLDSA_N]);

#endif
