/* SPDX-License-Identifier: MIT */
/* Hawk (specification v1.0): internal interface of lib/hawk (not the library's API; that
 * is api.h of each implementation folder). Files by operation: poly.c (SHAKE256x4,
 * (f, g) regeneration, products modulo the 31-bit primes p1, p2 through FN-DSA's NTT),
 * codec.c (Golomb-Rice compression, key and signature encodings), keygen.c, sign.c
 * (SamplerSign and signing), verify.c, api.c (NIST API).
 *
 * Shared with lib/fndsa through its internal headers (no copies): the NTRU solver
 * (fndsa_solve_ntru_q with q = 1), the mod-p arithmetic and NTT of the solver
 * (ntru_internal.h: modp_t, mp_ntt, mp_intt, RNS_P[0] = p1, RNS_P[1] = p2), the
 * floating-point layer and FFT (fpr.h, fndsa_fft) for the two real-valued steps of the
 * specification: the (1/q00)[0] < beta_0 test of key generation and RebuildS0. */
#ifndef PQLAB_HAWK_H
#define PQLAB_HAWK_H

#include <stddef.h>
#include <stdint.h>

#include "namespace.h"
#include "params.h"
#include "fips202.h"
#include "fips202x4.h"

#define HAWK_NS(s) PQLAB_NAMESPACE(s)

/* ---- poly.c ---- */
#define hawk_shake256x4_init HAWK_NS(hawk_shake256x4_init)
#define hawk_shake256x4_next HAWK_NS(hawk_shake256x4_next)
#define hawk_regen_fg HAWK_NS(hawk_regen_fg)
#define hawk_ntt_init HAWK_NS(hawk_ntt_init)
#define hawk_ntt_i32 HAWK_NS(hawk_ntt_i32)
#define hawk_intt_i32 HAWK_NS(hawk_intt_i32)
#define hawk_mp_mul HAWK_NS(hawk_mp_mul)
#define hawk_mp_inv HAWK_NS(hawk_mp_inv)
#define hawk_poly_mul_acc HAWK_NS(hawk_poly_mul_acc)

/* SHAKE256x4 of the specification: four SHAKE256 of seed || j (j = 0..3), read 8 bytes
 * from each in turn; the four instances run through lib/common's four-way sponge
 * (fips202x4.h), one block of each squeezed at a time. seedlen <= HAWK_SHAKE4_MAXSEED
 * (the signing sampler's seed M || kgseed || a || Rnd(320) is the longest). */
#define HAWK_SHAKE4_MAXSEED (HAWK_HMLEN + HAWK_KGSEEDLEN + 4 + HAWK_SIGN_SEEDRND)
typedef struct {
    pqlab_keccakx4_state st;
    uint8_t buf[4][PQLAB_SHAKE256_RATE];
    unsigned pos; /* bytes of buf[j] read */
} hawk_shake4;
void hawk_shake256x4_init(hawk_shake4 *s, const uint8_t *seed, size_t seedlen);
/* the next 32 bytes: 8 from instance 0, 8 from 1, 8 from 2, 8 from 3 */
void hawk_shake256x4_next(hawk_shake4 *s, uint8_t out[32]);

/* Regeneratefg: f, g (coefficients in [-b/2, b/2], b = n/64) from kgseed */
void hawk_regen_fg(int8_t *f, int8_t *g, const uint8_t kgseed[HAWK_KGSEEDLEN]);

/* arithmetic modulo p1 = 2147473409 (which = 0) or p2 = 2147389441 (which = 1):
 * negacyclic NTT over Z_p[x]/(x^n + 1) in plain (non-Montgomery) representation */
typedef struct {
    uint32_t p, p0i, r1, r2; /* the layout of FN-DSA's modp_t */
    uint32_t iscale;         /* 2^32 / n mod p: inverse-NTT scale for plain values */
    uint32_t psi[HAWK_N], ipsi[HAWK_N];
} hawk_ntt;
void hawk_ntt_init(hawk_ntt *c, unsigned which, uint32_t *scratch /* n words */);
/* a (n signed values, |a| < p/2) -> its NTT, in place in out */
void hawk_ntt_i32(uint32_t *out, const int32_t *a, const hawk_ntt *c);
/* inverse NTT, centred result in (-p/2, p/2) */
void hawk_intt_i32(int32_t *out, uint32_t *a, const hawk_ntt *c);
uint32_t hawk_mp_mul(uint32_t a, uint32_t b, const hawk_ntt *c);
uint32_t hawk_mp_inv(uint32_t a, const hawk_ntt *c); /* 0 for 0 */
/* r = a1 * adj?(b1) + a2 * adj?(b2) over Z[x]/(x^n + 1) (adj: b(1/x) when adj != 0),
 * exact when every coefficient of the result is below p1/2; a2 may be NULL (one term).
 * tmp: 3n words */
void hawk_poly_mul_acc(int32_t *r, const int32_t *a1, const int32_t *b1, const int32_t *a2, const int32_t *b2, int adj,
                       const hawk_ntt *c, uint32_t *tmp);

/* ---- sampler.c: the kernels of signing a backend may replace (lib/native/hawk_sign.h) ---- */
#define HAWK_W (HAWK_N / 32) /* 32-bit words of an n-bit vector */
#define hawk_sample16 HAWK_NS(hawk_sample16)
#define hawk_mul2_acc HAWK_NS(hawk_mul2_acc)
/* SamplerSign for one group of 16 samples: grp[0..4] the five 32-byte reads of
 * SHAKE256x4, t[r] in {0, 1} the bit of t0 || t1 at that sample, x[r] the sample
 * (r = 4 j + k: word j of grp[k], bits 16 k .. 16 k + 14 of word j of grp[4]) */
void hawk_sample16(int32_t x[16], const uint8_t grp[5][32], const uint8_t t[16]);
/* acc ^= a b in GF(2)[x]/(x^n - 1), n-bit vectors as n/32 words (bit i in word i/32) */
void hawk_mul2_acc(uint32_t *acc, const uint32_t *a, const uint32_t *b);

/* ---- codec.c ---- */
#define hawk_encode_public HAWK_NS(hawk_encode_public)
#define hawk_fx_babai_init HAWK_NS(hawk_fx_babai_init)
#define hawk_fx_babai_k HAWK_NS(hawk_fx_babai_k)
#define hawk_decode_public HAWK_NS(hawk_decode_public)
#define hawk_encode_sig HAWK_NS(hawk_encode_sig)
#define hawk_decode_sig HAWK_NS(hawk_decode_sig)
/* 1 on success, 0 when a value does not fit (key generation restarts) */
int hawk_encode_public(uint8_t pk[HAWK_PKBYTES], const int32_t *q00, const int32_t *q01);
/* 1 on success (q00: all n coefficients rebuilt from the self-adjoint half) */
int hawk_decode_public(int32_t *q00, int32_t *q01, const uint8_t pk[HAWK_PKBYTES]);
int hawk_encode_sig(uint8_t sig[HAWK_SIGBYTES], const uint8_t salt[HAWK_SALTLEN], const int32_t *s1);
int hawk_decode_sig(int32_t *s1, const uint8_t sig[HAWK_SIGBYTES]);

/* ---- keygen.c, sign.c, verify.c ---- */
#define hawk_keygen_try HAWK_NS(hawk_keygen_try)
#define hawk_sign_core HAWK_NS(hawk_sign_core)
#define hawk_verify_core HAWK_NS(hawk_verify_core)
#define hawk_sign_attempts_last HAWK_NS(hawk_sign_attempts_last)
#define hawk_keygen_restarts_last HAWK_NS(hawk_keygen_restarts_last)
#define hawk_sym_break HAWK_NS(hawk_sym_break)

/* one key-generation candidate from kgseed (HawkKeyGen after step 1): 1 and the keys
 * on success, 0 when the candidate is rejected (the caller draws a new kgseed) */
int hawk_keygen_try(uint8_t pk[HAWK_PKBYTES], uint8_t sk[HAWK_SKBYTES], const uint8_t kgseed[HAWK_KGSEEDLEN]);

/* the randomness signing draws per attempt: Rnd(saltlen) then Rnd(320) */
typedef int (*hawk_rnd_fn)(void *ctx, uint8_t *out, size_t len);
/* HawkSign of m (M = SHAKE256(m || hpub) computed here): 1 and sig on success, 0 (sig
 * zeroed) when rnd fails or HAWK_SIGN_MAX_ATTEMPTS attempts gave no encodable signature */
int hawk_sign_core(uint8_t sig[HAWK_SIGBYTES], const uint8_t *m, size_t mlen, const uint8_t sk[HAWK_SKBYTES],
                   hawk_rnd_fn rnd, void *rnd_ctx);
/* HawkVerify: 1 when valid */
int hawk_verify_core(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen, const uint8_t *pk, size_t pklen);
/* sym-break: the first non-zero coefficient of w (n values) is positive (public data) */
int hawk_sym_break(const int32_t *w);
extern unsigned hawk_sign_attempts_last;
extern unsigned hawk_keygen_restarts_last;

/* the Hawk reference solver's Babai coefficients in 32.32 fixed point (ntru_fx.c;
 * lib/fndsa's solver calls them through fndsa_ntru_params) */
void hawk_fx_babai_init(int64_t *w, unsigned logm, uint32_t t);
void hawk_fx_babai_k(int32_t *k, int64_t *w, unsigned logm);

#endif
