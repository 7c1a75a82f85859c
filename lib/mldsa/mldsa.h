/* SPDX-License-Identifier: MIT */
/* ML-DSA frontend API (FIPS 204), namespaced. The implementation folders'
 * api.h (lib/crypto_sign/ml-dsa-NN/ref/api.h) declare the same functions under the
 * plain NIST names; tests/test_mldsa_api.py compiles both together to keep them in
 * step. Return values: 0 success, negative failure; on failure outputs are zeroised.
 * Byte strings: sk, pk, sig have the sizes of params.h; xi, rnd 32 bytes; mu 64. */
#ifndef PQLAB_MLDSA_H
#define PQLAB_MLDSA_H

#include <stddef.h>
#include <stdint.h>

#include "params.h"

#define MLDSA_ERR_VERIFY (-1) /* signature does not verify */
#define MLDSA_ERR_ARG (-2)    /* bad length: context > 255 bytes, signature size, ... */
#define MLDSA_ERR_RNG (-3)    /* randombytes failed */
#define MLDSA_ERR_SK (-4)     /* malformed secret key (s1/s2 out of range) */
#define MLDSA_ERR_HASH (-5)   /* unknown pre-hash function */

/* HashML-DSA pre-hash functions (FIPS 204 section 5.4.1 and its Table of OIDs) */
#define PQLAB_MLDSA_PH_SHA2_224 1
#define PQLAB_MLDSA_PH_SHA2_256 2
#define PQLAB_MLDSA_PH_SHA2_384 3
#define PQLAB_MLDSA_PH_SHA2_512 4
#define PQLAB_MLDSA_PH_SHA2_512_224 5
#define PQLAB_MLDSA_PH_SHA2_512_256 6
#define PQLAB_MLDSA_PH_SHA3_224 7
#define PQLAB_MLDSA_PH_SHA3_256 8
#define PQLAB_MLDSA_PH_SHA3_384 9
#define PQLAB_MLDSA_PH_SHA3_512 10
#define PQLAB_MLDSA_PH_SHAKE128 11
#define PQLAB_MLDSA_PH_SHAKE256 12

/* NIST API: ML-DSA (pure, empty context, hedged) */
#define mldsa_keypair PQLAB_NAMESPACE(crypto_sign_keypair)
int mldsa_keypair(uint8_t *pk, uint8_t *sk);
#define mldsa_signature PQLAB_NAMESPACE(crypto_sign_signature)
int mldsa_signature(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen, const uint8_t *sk);
#define mldsa_verify PQLAB_NAMESPACE(crypto_sign_verify)
int mldsa_verify(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen, const uint8_t *pk);
#define mldsa_sign PQLAB_NAMESPACE(crypto_sign)
int mldsa_sign(uint8_t *sm, size_t *smlen, const uint8_t *m, size_t mlen, const uint8_t *sk);
#define mldsa_open PQLAB_NAMESPACE(crypto_sign_open)
int mldsa_open(uint8_t *m, size_t *mlen, const uint8_t *sm, size_t smlen, const uint8_t *pk);

/* Internal functions (FIPS 204 section 6): KeyGen_internal(xi),
 * Sign_internal(sk, M', rnd), Verify_internal(pk, M', sig) */
#define mldsa_keypair_internal PQLAB_NAMESPACE(crypto_sign_keypair_internal)
int mldsa_keypair_internal(uint8_t *pk, uint8_t *sk, const uint8_t xi[MLDSA_SEEDBYTES]);
#define mldsa_signature_internal PQLAB_NAMESPACE(crypto_sign_signature_internal)
int mldsa_signature_internal(uint8_t *sig, size_t *siglen, const uint8_t *mp, size_t mplen,
                             const uint8_t rnd[MLDSA_RNDBYTES], const uint8_t *sk);
#define mldsa_verify_internal PQLAB_NAMESPACE(crypto_sign_verify_internal)
int mldsa_verify_internal(const uint8_t *sig, size_t siglen, const uint8_t *mp, size_t mplen, const uint8_t *pk);

/* External mu: Sign_internal / Verify_internal with mu = H(tr || M', 64) given */
#define mldsa_signature_extmu PQLAB_NAMESPACE(crypto_sign_signature_extmu)
int mldsa_signature_extmu(uint8_t *sig, size_t *siglen, const uint8_t mu[MLDSA_CRHBYTES],
                          const uint8_t rnd[MLDSA_RNDBYTES], const uint8_t *sk);
#define mldsa_verify_extmu PQLAB_NAMESPACE(crypto_sign_verify_extmu)
int mldsa_verify_extmu(const uint8_t *sig, size_t siglen, const uint8_t mu[MLDSA_CRHBYTES], const uint8_t *pk);
/* mu for a public key and (pure or pre-hash) message: hashalg 0 = pure ML-DSA,
 * else a PQLAB_MLDSA_PH_* id (the message is hashed). */
#define mldsa_compute_mu PQLAB_NAMESPACE(crypto_sign_compute_mu)
int mldsa_compute_mu(uint8_t mu[MLDSA_CRHBYTES], const uint8_t *pk, const uint8_t *m, size_t mlen, const uint8_t *ctx,
                     size_t ctxlen, int hashalg);

/* ML-DSA.Sign / Verify with a context (Algorithms 2, 3). rnd == NULL: hedged, 32
 * fresh bytes from pqlab_randombytes; else the given 32 bytes (all zero =
 * deterministic variant). ctxlen <= 255. */
#define mldsa_signature_ctx PQLAB_NAMESPACE(crypto_sign_signature_ctx)
int mldsa_signature_ctx(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen, const uint8_t *ctx, size_t ctxlen,
                        const uint8_t *rnd, const uint8_t *sk);
#define mldsa_verify_ctx PQLAB_NAMESPACE(crypto_sign_verify_ctx)
int mldsa_verify_ctx(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen, const uint8_t *ctx,
                     size_t ctxlen, const uint8_t *pk);

/* HashML-DSA.Sign / Verify (Algorithms 4, 5): the message is hashed with hashalg */
#define mldsa_signature_prehash PQLAB_NAMESPACE(crypto_sign_signature_prehash)
int mldsa_signature_prehash(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen, const uint8_t *ctx,
                            size_t ctxlen, int hashalg, const uint8_t *rnd, const uint8_t *sk);
#define mldsa_verify_prehash PQLAB_NAMESPACE(crypto_sign_verify_prehash)
int mldsa_verify_prehash(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen, const uint8_t *ctx,
                         size_t ctxlen, int hashalg, const uint8_t *pk);
/* the same with the digest PH(M) given (phlen must be the function's output size) */
#define mldsa_signature_prehash_digest PQLAB_NAMESPACE(crypto_sign_signature_prehash_digest)
int mldsa_signature_prehash_digest(uint8_t *sig, size_t *siglen, const uint8_t *ph, size_t phlen, const uint8_t *ctx,
                                   size_t ctxlen, int hashalg, const uint8_t *rnd, const uint8_t *sk);
#define mldsa_verify_prehash_digest PQLAB_NAMESPACE(crypto_sign_verify_prehash_digest)
int mldsa_verify_prehash_digest(const uint8_t *sig, size_t siglen, const uint8_t *ph, size_t phlen, const uint8_t *ctx,
                                size_t ctxlen, int hashalg, const uint8_t *pk);

/* The number of iterations of the signing loop (Algorithm 7, lines 10-32) of each
 * signature goes to the instrumentation interface (lib/common/instrument.h), not to
 * library state. */

/* pre-hash (prehash.c): digest of m with hashalg; returns its length, or 0 for an
 * unknown id. *oid receives the 11-byte DER OID of FIPS 204 Algorithm 4. */
#define MLDSA_PH_MAXBYTES 64
#define MLDSA_OID_BYTES 11
#define mldsa_prehash PQLAB_NAMESPACE(prehash)
size_t mldsa_prehash(uint8_t ph[MLDSA_PH_MAXBYTES], const uint8_t **oid, int hashalg, const uint8_t *m, size_t mlen);
#define mldsa_prehash_info PQLAB_NAMESPACE(prehash_info)
size_t mldsa_prehash_info(const uint8_t **oid, int hashalg);

#endif
