/* SPDX-License-Identifier: MIT */
/* demokem-pqclean: an INSECURE toy KEM in the PQClean folder style (prefix hard-coded). */
#ifndef PQCLEAN_DEMOKEMPQCLEAN_CLEAN_API_H
#define PQCLEAN_DEMOKEMPQCLEAN_CLEAN_API_H

#include <stdint.h>

#define PQCLEAN_DEMOKEMPQCLEAN_CLEAN_CRYPTO_SECRETKEYBYTES 96
#define PQCLEAN_DEMOKEMPQCLEAN_CLEAN_CRYPTO_PUBLICKEYBYTES 32
#define PQCLEAN_DEMOKEMPQCLEAN_CLEAN_CRYPTO_CIPHERTEXTBYTES 48
#define PQCLEAN_DEMOKEMPQCLEAN_CLEAN_CRYPTO_BYTES 32
#define PQCLEAN_DEMOKEMPQCLEAN_CLEAN_CRYPTO_ALGNAME "demokem-pqclean"

int PQCLEAN_DEMOKEMPQCLEAN_CLEAN_crypto_kem_keypair(uint8_t *pk, uint8_t *sk);

int PQCLEAN_DEMOKEMPQCLEAN_CLEAN_crypto_kem_enc(uint8_t *ct, uint8_t *ss, const uint8_t *pk);

int PQCLEAN_DEMOKEMPQCLEAN_CLEAN_crypto_kem_dec(uint8_t *ss, const uint8_t *ct, const uint8_t *sk);

#endif
