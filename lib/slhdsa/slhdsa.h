/* SPDX-License-Identifier: MIT */
/* SLH-DSA (FIPS 205): the API of one parameter set (chosen at build time, params.h).
 * Return value: 0 on success, -1 on failure; on failure outputs are zeroised.
 * addrnd: n bytes of additional randomness for hedged signing, or NULL for the
 * deterministic variant (opt_rand = PK.seed, Algorithm 19 / 22 / 23). */
#ifndef PQLAB_SLHDSA_H
#define PQLAB_SLHDSA_H

#include <stddef.h>
#include <stdint.h>

#include "params.h"
#include "slhdsa_ph.h"

#define slh_keygen_internal PQLAB_NAMESPACE(slh_keygen_internal)
#define slh_sign_internal PQLAB_NAMESPACE(slh_sign_internal)
#define slh_verify_internal PQLAB_NAMESPACE(slh_verify_internal)
#define slh_sign PQLAB_NAMESPACE(slh_sign)
#define slh_verify PQLAB_NAMESPACE(slh_verify)
#define hash_slh_sign PQLAB_NAMESPACE(hash_slh_sign)
#define hash_slh_verify PQLAB_NAMESPACE(hash_slh_verify)
#define slh_prehash PQLAB_NAMESPACE(slh_prehash)
#define slh_crypto_sign_keypair PQLAB_NAMESPACE(crypto_sign_keypair)
#define slh_crypto_sign_signature PQLAB_NAMESPACE(crypto_sign_signature)
#define slh_crypto_sign_verify PQLAB_NAMESPACE(crypto_sign_verify)
#define slh_crypto_sign PQLAB_NAMESPACE(crypto_sign)
#define slh_crypto_sign_open PQLAB_NAMESPACE(crypto_sign_open)
#define slh_crypto_sign_signature_ctx PQLAB_NAMESPACE(crypto_sign_signature_ctx)
#define slh_crypto_sign_verify_ctx PQLAB_NAMESPACE(crypto_sign_verify_ctx)

/* slh_keygen_internal (Algorithm 18): pk = PK.seed || PK.root, sk = SK.seed || SK.prf ||
 * PK.seed || PK.root */
int slh_keygen_internal(uint8_t *pk, uint8_t *sk, const uint8_t *sk_seed, const uint8_t *sk_prf,
                        const uint8_t *pk_seed);
/* slh_sign_internal (Algorithm 19) on the message as given; sig: SLH_SIG_BYTES */
int slh_sign_internal(uint8_t *sig, const uint8_t *m, size_t mlen, const uint8_t *addrnd, const uint8_t *sk);
/* slh_verify_internal (Algorithm 20): 0 only for a valid signature of exactly
 * SLH_SIG_BYTES bytes */
int slh_verify_internal(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen, const uint8_t *pk);
/* pure SLH-DSA with a context string of at most 255 bytes (Algorithms 22, 24) */
int slh_sign(uint8_t *sig, const uint8_t *m, size_t mlen, const uint8_t *ctx, size_t ctxlen, const uint8_t *addrnd,
             const uint8_t *sk);
int slh_verify(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen, const uint8_t *ctx, size_t ctxlen,
               const uint8_t *pk);
/* HashSLH-DSA (Algorithms 23, 25); ph is one of PQLAB_SLHDSA_PH_* */
int hash_slh_sign(uint8_t *sig, const uint8_t *m, size_t mlen, const uint8_t *ctx, size_t ctxlen, int ph,
                  const uint8_t *addrnd, const uint8_t *sk);
int hash_slh_verify(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen, const uint8_t *ctx, size_t ctxlen,
                    int ph, const uint8_t *pk);
/* OID || PH(m) as it enters M' (section 10.2.2); out holds up to 11 + 64 bytes.
 * Returns the length, or -1 for an unknown ph. */
int slh_prehash(uint8_t *out, int ph, const uint8_t *m, size_t mlen);

/* NIST API: pure SLH-DSA, empty context, hedged (addrnd from pqlab_randombytes) */
int slh_crypto_sign_keypair(uint8_t *pk, uint8_t *sk);
int slh_crypto_sign_signature(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen, const uint8_t *sk);
int slh_crypto_sign_verify(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen, const uint8_t *pk);
int slh_crypto_sign(uint8_t *sm, size_t *smlen, const uint8_t *m, size_t mlen, const uint8_t *sk);
int slh_crypto_sign_open(uint8_t *m, size_t *mlen, const uint8_t *sm, size_t smlen, const uint8_t *pk);
/* the same with a context string */
int slh_crypto_sign_signature_ctx(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen, const uint8_t *ctx,
                                  size_t ctxlen, const uint8_t *sk);
int slh_crypto_sign_verify_ctx(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen, const uint8_t *ctx,
                               size_t ctxlen, const uint8_t *pk);

#endif
