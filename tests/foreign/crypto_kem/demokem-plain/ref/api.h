/* SPDX-License-Identifier: MIT */
/* demokem-plain: an INSECURE toy KEM in the pqm4 folder style (plain names).
 * Anyone holding the public key can decapsulate. For testing pqlab's compat layer. */
#ifndef API_H
#define API_H

#define CRYPTO_SECRETKEYBYTES 96
#define CRYPTO_PUBLICKEYBYTES 32
#define CRYPTO_CIPHERTEXTBYTES 48
#define CRYPTO_BYTES 32
#define CRYPTO_ALGNAME "demokem-plain"

int crypto_kem_keypair(unsigned char *pk, unsigned char *sk);
int crypto_kem_enc(unsigned char *ct, unsigned char *ss, const unsigned char *pk);
int crypto_kem_dec(unsigned char *ss, const unsigned char *ct, const unsigned char *sk);

#endif
