/* SPDX-License-Identifier: MIT */
/* toykem-sim: an INSECURE toy KEM for testing `pqlab ct` (../toykem_sim.c). */
#ifndef API_H
#define API_H

#define CRYPTO_SECRETKEYBYTES 32
#define CRYPTO_PUBLICKEYBYTES 32
#define CRYPTO_CIPHERTEXTBYTES 48
#define CRYPTO_BYTES 32
#define CRYPTO_ALGNAME "toykem-sim"

int crypto_kem_keypair(unsigned char *pk, unsigned char *sk);
int crypto_kem_enc(unsigned char *ct, unsigned char *ss, const unsigned char *pk);
int crypto_kem_dec(unsigned char *ss, const unsigned char *ct, const unsigned char *sk);

#endif
