/* SPDX-License-Identifier: MIT */
/* HQC-192 (round-4 specification of 2023-04-30), pqlab's portable implementation "ref".
 * NIST KEM API; the plain names map onto namespaced symbols of lib/hqc/, built with
 * -DPQLAB_HQC_LEVEL=192 -DPQLAB_NS=pqlab_hqc192_smallstack_ (pqlab.toml). Sizes: lib/hqc/params.h
 * (pk = pk_seed || s, sk = sk_seed || sigma || pk, ct = u || v || salt, K 64 bytes).
 * Return values: 0 success; -3 randombytes failed (outputs zeroised). Decapsulation
 * returns 0 and the implicit-rejection key for a ciphertext that does not re-encrypt. */
#ifndef PQLAB_HQC192_REF_API_H
#define PQLAB_HQC192_REF_API_H

#include <stdint.h>

/* The build passes -DPQLAB_NS (pqlab.toml); the default keeps this header usable alone. */
#ifndef PQLAB_NS
#define PQLAB_NS pqlab_hqc192_smallstack_
#endif
#include "namespace.h"

#define CRYPTO_ALGNAME "HQC-192"
#define CRYPTO_SECRETKEYBYTES 4586
#define CRYPTO_PUBLICKEYBYTES 4522
#define CRYPTO_CIPHERTEXTBYTES 8978
#define CRYPTO_BYTES 64

#define crypto_kem_keypair PQLAB_NAMESPACE(crypto_kem_keypair)
#define crypto_kem_enc PQLAB_NAMESPACE(crypto_kem_enc)
#define crypto_kem_dec PQLAB_NAMESPACE(crypto_kem_dec)
#define crypto_kem_keypair_derand PQLAB_NAMESPACE(crypto_kem_keypair_derand)
#define crypto_kem_enc_derand PQLAB_NAMESPACE(crypto_kem_enc_derand)

int crypto_kem_keypair(uint8_t *pk, uint8_t *sk);
int crypto_kem_enc(uint8_t *ct, uint8_t *ss, const uint8_t *pk);
int crypto_kem_dec(uint8_t *ss, const uint8_t *ct, const uint8_t *sk);

/* Deterministic forms (lib/hqc/hqc.h): keypair from sk_seed (40), sigma (24), pk_seed (40);
 * encapsulation from m (24) and salt (16). */
int crypto_kem_keypair_derand(uint8_t *pk, uint8_t *sk, const uint8_t *sk_seed, const uint8_t *sigma,
                              const uint8_t *pk_seed);
int crypto_kem_enc_derand(uint8_t *ct, uint8_t *ss, const uint8_t *pk, const uint8_t *m, const uint8_t *salt);

#endif
