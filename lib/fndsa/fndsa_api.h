/* SPDX-License-Identifier: MIT */
/* Exported API of lib/fndsa (NIST form plus FN-DSA-specific entry points).
 * The implementation folders' api.h map the plain names onto these
 * namespaced symbols. */
#ifndef PQLAB_FNDSA_API_H
#define PQLAB_FNDSA_API_H

#include <stddef.h>
#include <stdint.h>

#include "namespace.h"
#include "params.h"

/* --- NIST / SUPERCOP API --- */
int PQLAB_NAMESPACE(crypto_sign_keypair)(uint8_t *pk, uint8_t *sk);
/* sm = siglen (2 bytes, big-endian) || nonce (40) || m || 0x20+logn || compressed s2
 * (the round-3 KAT format) */
int PQLAB_NAMESPACE(crypto_sign)(uint8_t *sm, size_t *smlen, const uint8_t *m, size_t mlen, const uint8_t *sk);
int PQLAB_NAMESPACE(crypto_sign_open)(uint8_t *m, size_t *mlen, const uint8_t *sm, size_t smlen, const uint8_t *pk);
/* detached: sig = 0x30+logn || nonce (40) || compressed s2, variable length */
int PQLAB_NAMESPACE(crypto_sign_signature)(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen,
                                           const uint8_t *sk);
int PQLAB_NAMESPACE(crypto_sign_verify)(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen,
                                        const uint8_t *pk);

/* --- expanded private key ("tree") --- */
int PQLAB_NAMESPACE(crypto_sign_expand)(uint8_t *expanded, const uint8_t *sk);
int PQLAB_NAMESPACE(crypto_sign_signature_tree)(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen,
                                                const uint8_t *expanded);

/* number of rejected (f, g) candidates in the last key generation */
unsigned PQLAB_NAMESPACE(crypto_sign_keygen_restarts)(void);
/* signing attempts of the last signature (1 + norm-bound rejections + padded-size retries) */
unsigned PQLAB_NAMESPACE(crypto_sign_sign_attempts)(void);

/* --- deterministic internal functions (fixed randomness) --- */
/* keygen from the 48-byte seed that the NIST API draws from randombytes */
int PQLAB_NAMESPACE(fndsa_keypair_seed)(uint8_t *pk, uint8_t *sk, const uint8_t seed[48]);
/* detached signature with given nonce (40 bytes) and sampler seed (48 bytes);
 * tree != 0 signs with crypto_sign_expand's output given in key instead of sk;
 * padded != 0 produces the padded fixed-length format (FNDSA_SIGPAD bytes). */
int PQLAB_NAMESPACE(fndsa_sign_seed)(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen, const uint8_t *key,
                                     int tree, int padded, const uint8_t nonce[40], const uint8_t seed[48]);
/* verification of a detached signature; padded: the padded format only */
int PQLAB_NAMESPACE(fndsa_verify)(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen, const uint8_t *pk,
                                  int padded);

#endif
