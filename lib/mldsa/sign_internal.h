/* SPDX-License-Identifier: MIT */
/* What sign.c (the speed-first KeyGen / Sign / Verify) and stream.c (the stack-first
 * ones, -DPQLAB_MLDSA_SMALLSTACK) share: the byte layouts of the encodings, the matrix
 * nonce and the hint-encoding helpers. Internal to lib/mldsa; namespaced. */
#ifndef PQLAB_MLDSA_SIGN_INTERNAL_H
#define PQLAB_MLDSA_SIGN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "kernels.h"
#include "params.h"

/* skEncode layout (Algorithm 24): rho || K || tr || s1 || s2 || t0 */
#define SK_RHO 0
#define SK_KEY MLDSA_SEEDBYTES
#define SK_TR (2 * MLDSA_SEEDBYTES)
#define SK_S1 (SK_TR + MLDSA_TRBYTES)
#define SK_S2 (SK_S1 + MLDSA_L * MLDSA_POLYETA_BYTES)
#define SK_T0 (SK_S2 + MLDSA_K * MLDSA_POLYETA_BYTES)
/* pkEncode (Algorithm 22): rho || t1 */
#define PK_T1 MLDSA_SEEDBYTES
/* sigEncode (Algorithm 26): c~ || z || h (HintBitPack: omega indices + k limits) */
#define SIG_Z MLDSA_CTILDEBYTES
#define SIG_H (SIG_Z + MLDSA_L * MLDSA_POLYZ_BYTES)

#if SK_T0 + MLDSA_K * MLDSA_POLYT0_BYTES != MLDSA_SECRETKEYBYTES
#error "secret key layout"
#endif
#if SIG_H + MLDSA_OMEGA + MLDSA_K != MLDSA_SIGBYTES
#error "signature layout"
#endif

/* keeps a helper's frame (e.g. a Keccak state) out of its caller's */
#if defined(__GNUC__) || defined(__clang__)
#define MLDSA_NOINLINE __attribute__((noinline))
#else
#define MLDSA_NOINLINE
#endif

/* ExpandA (Algorithm 32): A[i][j] = RejNTTPoly(rho || j || i) */
static inline uint16_t mldsa_a_nonce(unsigned int i, unsigned int j)
{
    return (uint16_t)((i << 8) | j);
}

/* KeyGen_internal's (Algorithm 6) first steps: seeds = (rho, rho', K) = H(xi || k || l, 128),
 * rho (declassified: it is published) into pk and sk, K into sk */
#define mldsa_keypair_seeds PQLAB_NAMESPACE(keypair_seeds)
void mldsa_keypair_seeds(uint8_t seeds[2 * MLDSA_SEEDBYTES + MLDSA_CRHBYTES], uint8_t *pk, uint8_t *sk,
                         const uint8_t xi[MLDSA_SEEDBYTES]);

/* KeyGen_internal's last steps for row i: t = t_i + s2_i (t_i after the inverse NTT, |.| < q),
 * (t1, t0) = Power2Round(t) packed into pk and sk; t and s2 are overwritten */
#define mldsa_keypair_row_out PQLAB_NAMESPACE(keypair_row_out)
void mldsa_keypair_row_out(uint8_t *pk, uint8_t *sk, unsigned int i, int32_t t[MLDSA_N], int32_t s2[MLDSA_N]);

/* the public key is complete: declassified (it is output), tr = H(pk, 64) into sk */
#define mldsa_keypair_finish PQLAB_NAMESPACE(keypair_finish)
void mldsa_keypair_finish(const uint8_t *pk, uint8_t *sk);

/* ExpandMask (Algorithm 34) with a 32-byte buffer instead of the 576 / 640 bytes of
 * the kernel mldsa_poly_expand_mask (sample.c; same output; for the stack-first build);
 * add: y += ExpandMask(rho'', nonce) instead of y = (|y_i| + gamma1 < 2^31) */
#define mldsa_poly_expand_mask_small PQLAB_NAMESPACE(poly_expand_mask_small)
void mldsa_poly_expand_mask_small(mldsa_poly *y, const uint8_t rhopp[MLDSA_CRHBYTES], uint16_t nonce, int add);

/* Sign_internal (Algorithm 7) from mu = H(tr || M', 64): sig gets sigEncode(c~, z, h).
 * Returns 0 or MLDSA_ERR_SK (s1 / s2 outside [-eta, eta]). */
#define mldsa_sign_mu PQLAB_NAMESPACE(sign_mu)
int mldsa_sign_mu(uint8_t *sig, const uint8_t mu[MLDSA_CRHBYTES], const uint8_t rnd[MLDSA_RNDBYTES], const uint8_t *sk);

/* Verify_internal (Algorithm 8) from mu: 0 or MLDSA_ERR_VERIFY */
#define mldsa_verify_mu PQLAB_NAMESPACE(verify_mu)
int mldsa_verify_mu(const uint8_t *sig, size_t siglen, const uint8_t mu[MLDSA_CRHBYTES], const uint8_t *pk);

/* Verify_internal's (Algorithm 8) checks that need no hashing, shared by both verifiers:
 * the length, HintBitUnpack's validity (limits non-decreasing and <= omega, indices strictly
 * increasing within each polynomial, unused index bytes zero) and ||z||inf < gamma1 - beta.
 * z_j is unpacked into z[j mod nz] (nz = l keeps every z_j, nz = 1 one scratch polynomial).
 * Returns 0 or MLDSA_ERR_VERIFY. */
#define mldsa_sig_check PQLAB_NAMESPACE(sig_check)
int mldsa_sig_check(const uint8_t *sig, size_t siglen, mldsa_poly *z, unsigned int nz);

/* the hint bits of polynomial i (0/1 bytes; encoding already checked); h 4-byte aligned */
#define mldsa_hints_row PQLAB_NAMESPACE(hints_row)
void mldsa_hints_row(uint8_t h[MLDSA_N], const uint8_t y[MLDSA_OMEGA + MLDSA_K], unsigned int i);

#endif
