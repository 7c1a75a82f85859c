/* SPDX-License-Identifier: MIT */
/* HQC-192 as specified on 2025-08-22 (named HQC-3 there; reference code v5.0.0), pqlab's
 * portable implementation "smallstack2025": lib/hqc built with -DPQLAB_HQC_SMALLSTACK -DPQLAB_HQC_VERSION=2025
 * -DPQLAB_HQC_LEVEL=192 -DPQLAB_NS=pqlab_hqc192_smallstack2025_ (pqlab.toml). Sizes: lib/hqc/params.h
 * (pk = seed_ek || s, sk = pk || seed_dk || sigma || seed_KEM, ct = u || v || salt, K 32 bytes).
 * Return values: 0 success; -3 randombytes failed (outputs zeroised). Decapsulation
 * returns 0 and the implicit-rejection key for a ciphertext that does not re-encrypt. */
#ifndef PQLAB_HQC192_SMALLSTACK2025_API_H
#define PQLAB_HQC192_SMALLSTACK2025_API_H

#include <stdint.h>

/* The build passes -DPQLAB_NS (pqlab.toml); the default keeps this header usable alone. */
#ifndef PQLAB_NS
#define PQLAB_NS pqlab_hqc192_smallstack2025_
#endif
#include "namespace.h"

/* the name in the header line of the reference KAT files (PQCkemKAT_4602.rsp) */
#define CRYPTO_ALGNAME "HQC-3"
#define CRYPTO_SECRETKEYBYTES 4602
#define CRYPTO_PUBLICKEYBYTES 4514
#define CRYPTO_CIPHERTEXTBYTES 8978
#define CRYPTO_BYTES 32

#define crypto_kem_keypair PQLAB_NAMESPACE(crypto_kem_keypair)
#define crypto_kem_enc PQLAB_NAMESPACE(crypto_kem_enc)
#define crypto_kem_dec PQLAB_NAMESPACE(crypto_kem_dec)
#define crypto_kem_keypair_derand PQLAB_NAMESPACE(crypto_kem_keypair_derand)
#define crypto_kem_enc_derand PQLAB_NAMESPACE(crypto_kem_enc_derand)

int crypto_kem_keypair(uint8_t *pk, uint8_t *sk);
int crypto_kem_enc(uint8_t *ct, uint8_t *ss, const uint8_t *pk);
int crypto_kem_dec(uint8_t *ss, const uint8_t *ct, const uint8_t *sk);

/* Deterministic forms (lib/hqc/hqc.h): keypair from seed_KEM (32); encapsulation from m (k)
 * and salt (16). */
int crypto_kem_keypair_derand(uint8_t *pk, uint8_t *sk, const uint8_t *seed_kem);
int crypto_kem_enc_derand(uint8_t *ct, uint8_t *ss, const uint8_t *pk, const uint8_t *m, const uint8_t *salt);

#endif
