/* SPDX-License-Identifier: MIT */
/* Dummy KEM for the harness tests (plain pqm4-style names). Not a KEM. */
#ifndef DUMMYKEM_API_H
#define DUMMYKEM_API_H

#include <stdint.h>

#define CRYPTO_ALGNAME "DummyKEM"
#define CRYPTO_PUBLICKEYBYTES 32
#define CRYPTO_SECRETKEYBYTES 64
#define CRYPTO_CIPHERTEXTBYTES 48
#define CRYPTO_BYTES 32

int crypto_kem_keypair(uint8_t *pk, uint8_t *sk);
int crypto_kem_enc(uint8_t *ct, uint8_t *ss, const uint8_t *pk);
int crypto_kem_dec(uint8_t *ss, const uint8_t *ct, const uint8_t *sk);

#endif
