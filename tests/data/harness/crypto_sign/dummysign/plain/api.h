/* SPDX-License-Identifier: MIT */
/* Dummy signature for the harness tests: NIST prototypes (unsigned long long
 * lengths). Not a signature scheme. With -DDUMMY_EXPANDED it also offers the
 * expanded-key operations and reports signing attempts (PQLAB_SIGN_ITERATIONS). */
#ifndef DUMMYSIGN_API_H
#define DUMMYSIGN_API_H

#include <stddef.h>
#include <stdint.h>

#define CRYPTO_ALGNAME "DummySign"
#define CRYPTO_PUBLICKEYBYTES 32
#define CRYPTO_SECRETKEYBYTES 64
#define CRYPTO_BYTES 40

int crypto_sign_keypair(unsigned char *pk, unsigned char *sk);
int crypto_sign(unsigned char *sm, unsigned long long *smlen, const unsigned char *m, unsigned long long mlen,
                const unsigned char *sk);
int crypto_sign_open(unsigned char *m, unsigned long long *mlen, const unsigned char *sm, unsigned long long smlen,
                     const unsigned char *pk);
int crypto_sign_signature(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen, const uint8_t *sk);
int crypto_sign_verify(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen, const uint8_t *pk);

#ifdef DUMMY_EXPANDED
#define CRYPTO_EXPANDEDKEYBYTES 96
int crypto_sign_expand(uint8_t *esk, const uint8_t *sk);
int crypto_sign_signature_tree(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen, const uint8_t *esk);
extern unsigned dummy_sign_attempts;
#define PQLAB_SIGN_ITERATIONS() (dummy_sign_attempts)
#endif

#endif
