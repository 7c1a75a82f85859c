/* SPDX-License-Identifier: MIT */
/* demosig-mupq: an INSECURE toy one-time signature (Winternitz-style chains) in the
 * mupq folder style: the build passes -DMUPQ_NAMESPACE=<prefix> and every exported
 * symbol becomes <prefix><name>; without it the names stay plain. */
#ifndef DEMOSIG_API_H
#define DEMOSIG_API_H

#include <stddef.h>
#include <stdint.h>

#ifndef MUPQ_NAMESPACE
#define MUPQ_NAMESPACE
#endif
#define DEMOSIG_PASTE(a, b) a##b
#define DEMOSIG_EVAL(a, b) DEMOSIG_PASTE(a, b)
#define DEMOSIG_NAMESPACE(s) DEMOSIG_EVAL(MUPQ_NAMESPACE, s)

#define CRYPTO_SECRETKEYBYTES 80
#define CRYPTO_PUBLICKEYBYTES 48
#define CRYPTO_BYTES 560
#define CRYPTO_ALGNAME "demosig-mupq"

#define crypto_sign_keypair DEMOSIG_NAMESPACE(crypto_sign_keypair)
#define crypto_sign_signature DEMOSIG_NAMESPACE(crypto_sign_signature)
#define crypto_sign_verify DEMOSIG_NAMESPACE(crypto_sign_verify)
#define crypto_sign DEMOSIG_NAMESPACE(crypto_sign)
#define crypto_sign_open DEMOSIG_NAMESPACE(crypto_sign_open)

int crypto_sign_keypair(uint8_t *pk, uint8_t *sk);
int crypto_sign_signature(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen,
                          const uint8_t *sk);
int crypto_sign_verify(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen,
                       const uint8_t *pk);
int crypto_sign(uint8_t *sm, size_t *smlen, const uint8_t *m, size_t mlen, const uint8_t *sk);
int crypto_sign_open(uint8_t *m, size_t *mlen, const uint8_t *sm, size_t smlen, const uint8_t *pk);

#endif
