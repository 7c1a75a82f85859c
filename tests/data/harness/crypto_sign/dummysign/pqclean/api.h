/* SPDX-License-Identifier: MIT */
/* Dummy signature in PQClean style: prefixed names, size_t lengths. */
#ifndef PQCLEAN_DUMMYSIGN_CLEAN_API_H
#define PQCLEAN_DUMMYSIGN_CLEAN_API_H

#include <stddef.h>
#include <stdint.h>

#define PQCLEAN_DUMMYSIGN_CLEAN_CRYPTO_ALGNAME "DummySign-PQClean"
#define PQCLEAN_DUMMYSIGN_CLEAN_CRYPTO_PUBLICKEYBYTES 32
#define PQCLEAN_DUMMYSIGN_CLEAN_CRYPTO_SECRETKEYBYTES 64
#define PQCLEAN_DUMMYSIGN_CLEAN_CRYPTO_BYTES 40

int PQCLEAN_DUMMYSIGN_CLEAN_crypto_sign_keypair(uint8_t *pk, uint8_t *sk);
int PQCLEAN_DUMMYSIGN_CLEAN_crypto_sign(uint8_t *sm, size_t *smlen, const uint8_t *m, size_t mlen, const uint8_t *sk);
int PQCLEAN_DUMMYSIGN_CLEAN_crypto_sign_open(uint8_t *m, size_t *mlen, const uint8_t *sm, size_t smlen,
                                             const uint8_t *pk);

#endif
