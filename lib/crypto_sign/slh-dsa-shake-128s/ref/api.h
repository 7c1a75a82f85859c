/* SPDX-License-Identifier: MIT */
/* SLH-DSA-SHAKE-128s (FIPS 205), pqlab's portable implementation "ref".
 * NIST signature API plus the FIPS 205 extended API; the plain names map onto
 * namespaced symbols of lib/slhdsa/, built with
 * -DPQLAB_SLHDSA_HASH_SHAKE -DPQLAB_SLHDSA_N=16 -DPQLAB_SLHDSA_VARIANT_S -DPQLAB_NS=pqlab_slhdsa_shake_128s_ref_
 * (pqlab.toml). Sizes: FIPS 205 Table 2. Return values: 0 success, -1 failure
 * (invalid signature, wrong length, context over 255 bytes, unknown pre-hash,
 * randombytes failure); on failure outputs are zeroised. */
#ifndef PQLAB_SLHDSA_SHAKE_128S_REF_API_H
#define PQLAB_SLHDSA_SHAKE_128S_REF_API_H

#include <stddef.h>
#include <stdint.h>

/* The build passes -DPQLAB_NS (pqlab.toml); the default keeps this header usable alone. */
#ifndef PQLAB_NS
#define PQLAB_NS pqlab_slhdsa_shake_128s_ref_
#endif
#include "namespace.h"

#include "../../../slhdsa/slhdsa_ph.h" /* PQLAB_SLHDSA_PH_*: pre-hash identifiers */

#define CRYPTO_ALGNAME "SLH-DSA-SHAKE-128s"
#define CRYPTO_SECRETKEYBYTES 64 /* SK.seed || SK.prf || PK.seed || PK.root */
#define CRYPTO_PUBLICKEYBYTES 32 /* PK.seed || PK.root */
#define CRYPTO_BYTES 7856        /* signature */
#define CRYPTO_N 16              /* n: seeds, addrnd */

#define crypto_sign_keypair                                                                                            \
    PQLAB_NAMESPACE(crypto_sign_keypair) /* -> pqlab_slhdsa_shake_128s_ref_crypto_sign_keypair */
#define crypto_sign_signature                                                                                          \
    PQLAB_NAMESPACE(crypto_sign_signature) /* -> pqlab_slhdsa_shake_128s_ref_crypto_sign_signature */
#define crypto_sign_verify PQLAB_NAMESPACE(crypto_sign_verify) /* -> pqlab_slhdsa_shake_128s_ref_crypto_sign_verify */
#define crypto_sign PQLAB_NAMESPACE(crypto_sign)               /* -> pqlab_slhdsa_shake_128s_ref_crypto_sign */
#define crypto_sign_open PQLAB_NAMESPACE(crypto_sign_open)     /* -> pqlab_slhdsa_shake_128s_ref_crypto_sign_open */
#define crypto_sign_signature_ctx                                                                                      \
    PQLAB_NAMESPACE(crypto_sign_signature_ctx) /* -> pqlab_slhdsa_shake_128s_ref_crypto_sign_signature_ctx */
#define crypto_sign_verify_ctx                                                                                         \
    PQLAB_NAMESPACE(crypto_sign_verify_ctx) /* -> pqlab_slhdsa_shake_128s_ref_crypto_sign_verify_ctx */
#define slh_keygen_internal                                                                                            \
    PQLAB_NAMESPACE(slh_keygen_internal)                     /* -> pqlab_slhdsa_shake_128s_ref_slh_keygen_internal */
#define slh_sign_internal PQLAB_NAMESPACE(slh_sign_internal) /* -> pqlab_slhdsa_shake_128s_ref_slh_sign_internal */
#define slh_verify_internal                                                                                            \
    PQLAB_NAMESPACE(slh_verify_internal)                 /* -> pqlab_slhdsa_shake_128s_ref_slh_verify_internal */
#define slh_sign PQLAB_NAMESPACE(slh_sign)               /* -> pqlab_slhdsa_shake_128s_ref_slh_sign */
#define slh_verify PQLAB_NAMESPACE(slh_verify)           /* -> pqlab_slhdsa_shake_128s_ref_slh_verify */
#define hash_slh_sign PQLAB_NAMESPACE(hash_slh_sign)     /* -> pqlab_slhdsa_shake_128s_ref_hash_slh_sign */
#define hash_slh_verify PQLAB_NAMESPACE(hash_slh_verify) /* -> pqlab_slhdsa_shake_128s_ref_hash_slh_verify */
#define slh_prehash PQLAB_NAMESPACE(slh_prehash)         /* -> pqlab_slhdsa_shake_128s_ref_slh_prehash */

/* NIST API: pure SLH-DSA (Algorithms 21, 22, 24) with an empty context, hedged signing
 * (addrnd from pqlab_randombytes); sm = signature || message */
int crypto_sign_keypair(uint8_t *pk, uint8_t *sk);
int crypto_sign_signature(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen, const uint8_t *sk);
int crypto_sign_verify(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen, const uint8_t *pk);
int crypto_sign(uint8_t *sm, size_t *smlen, const uint8_t *m, size_t mlen, const uint8_t *sk);
int crypto_sign_open(uint8_t *m, size_t *mlen, const uint8_t *sm, size_t smlen, const uint8_t *pk);
/* the same with a context string of at most 255 bytes */
int crypto_sign_signature_ctx(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen, const uint8_t *ctx,
                              size_t ctxlen, const uint8_t *sk);
int crypto_sign_verify_ctx(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen, const uint8_t *ctx,
                           size_t ctxlen, const uint8_t *pk);

/* FIPS 205 functions; addrnd: n bytes, or NULL for deterministic signing
 * (see lib/slhdsa/slhdsa.h) */
int slh_keygen_internal(uint8_t *pk, uint8_t *sk, const uint8_t *sk_seed, const uint8_t *sk_prf,
                        const uint8_t *pk_seed); /* Alg. 18 */
int slh_sign_internal(uint8_t *sig, const uint8_t *m, size_t mlen, const uint8_t *addrnd,
                      const uint8_t *sk); /* Alg. 19 */
int slh_verify_internal(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen,
                        const uint8_t *pk); /* Alg. 20 */
int slh_sign(uint8_t *sig, const uint8_t *m, size_t mlen, const uint8_t *ctx, size_t ctxlen, const uint8_t *addrnd,
             const uint8_t *sk); /* Alg. 22 */
int slh_verify(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen, const uint8_t *ctx, size_t ctxlen,
               const uint8_t *pk); /* Alg. 24 */
int hash_slh_sign(uint8_t *sig, const uint8_t *m, size_t mlen, const uint8_t *ctx, size_t ctxlen, int ph,
                  const uint8_t *addrnd, const uint8_t *sk); /* Alg. 23 */
int hash_slh_verify(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen, const uint8_t *ctx, size_t ctxlen,
                    int ph, const uint8_t *pk); /* Alg. 25 */
/* OID || PH(m) (section 10.2.2), up to 75 bytes; returns its length or -1 */
int slh_prehash(uint8_t *out, int ph, const uint8_t *m, size_t mlen);

#endif
