/* SPDX-License-Identifier: MIT */
/* Prototypes of the functions api.c exports (the implementation folders' api.h maps the
 * plain names onto the namespaced ones). */
#ifndef PQLAB_HAWK_API_H
#define PQLAB_HAWK_API_H

#include <stddef.h>
#include <stdint.h>

#include "namespace.h"

#define crypto_sign_keypair PQLAB_NAMESPACE(crypto_sign_keypair)
#define crypto_sign PQLAB_NAMESPACE(crypto_sign)
#define crypto_sign_open PQLAB_NAMESPACE(crypto_sign_open)
#define crypto_sign_signature PQLAB_NAMESPACE(crypto_sign_signature)
#define crypto_sign_verify PQLAB_NAMESPACE(crypto_sign_verify)
#define crypto_sign_keygen_restarts PQLAB_NAMESPACE(crypto_sign_keygen_restarts)
#define crypto_sign_sign_attempts PQLAB_NAMESPACE(crypto_sign_sign_attempts)
#define hawk_keypair_seed PQLAB_NAMESPACE(hawk_keypair_seed)

int crypto_sign_keypair(uint8_t *pk, uint8_t *sk);
int crypto_sign(uint8_t *sm, size_t *smlen, const uint8_t *m, size_t mlen, const uint8_t *sk);
int crypto_sign_open(uint8_t *m, size_t *mlen, const uint8_t *sm, size_t smlen, const uint8_t *pk);
int crypto_sign_signature(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen, const uint8_t *sk);
int crypto_sign_verify(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen, const uint8_t *pk);
unsigned crypto_sign_keygen_restarts(void);
unsigned crypto_sign_sign_attempts(void);
/* one key-generation candidate from a given kgseed (kgseedlen bytes): 0 and the keys, or
 * -1 when the specification rejects the candidate */
int hawk_keypair_seed(uint8_t *pk, uint8_t *sk, const uint8_t *kgseed);

#endif
