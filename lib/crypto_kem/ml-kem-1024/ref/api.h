/* SPDX-License-Identifier: MIT */
/* ML-KEM-1024 (FIPS 203, k = 4), pqlab's portable implementation "ref".
 * NIST KEM API; the plain names map onto namespaced symbols of lib/mlkem/,
 * built with -DPQLAB_MLKEM_K=4 -DPQLAB_NS=pqlab_mlkem1024_ref_ (pqlab.toml).
 * Sizes: FIPS 203 Table 3. Return values: 0 success; negative failure with the
 * outputs zeroised (-1 encapsulation-key check, -2 decapsulation-key check,
 * -3 randombytes). */
#ifndef PQLAB_MLKEM1024_REF_API_H
#define PQLAB_MLKEM1024_REF_API_H

#include <stdint.h>

/* The build passes -DPQLAB_NS (pqlab.toml); the default keeps this header usable alone. */
#ifndef PQLAB_NS
#define PQLAB_NS pqlab_mlkem1024_ref_
#endif
#include "namespace.h"

#define CRYPTO_ALGNAME "ML-KEM-1024"
#define CRYPTO_SECRETKEYBYTES 3168  /* dk */
#define CRYPTO_PUBLICKEYBYTES 1568  /* ek */
#define CRYPTO_CIPHERTEXTBYTES 1568 /* c */
#define CRYPTO_BYTES 32             /* shared secret K */

#define crypto_kem_keypair PQLAB_NAMESPACE(crypto_kem_keypair) /* -> pqlab_mlkem1024_ref_crypto_kem_keypair */
#define crypto_kem_enc PQLAB_NAMESPACE(crypto_kem_enc)         /* -> pqlab_mlkem1024_ref_crypto_kem_enc */
#define crypto_kem_dec PQLAB_NAMESPACE(crypto_kem_dec)         /* -> pqlab_mlkem1024_ref_crypto_kem_dec */
#define crypto_kem_keypair_derand                                                                                      \
    PQLAB_NAMESPACE(crypto_kem_keypair_derand) /* -> pqlab_mlkem1024_ref_crypto_kem_keypair_derand */
#define crypto_kem_enc_derand PQLAB_NAMESPACE(crypto_kem_enc_derand) /* -> pqlab_mlkem1024_ref_crypto_kem_enc_derand */
#define crypto_kem_dec_internal                                                                                        \
    PQLAB_NAMESPACE(crypto_kem_dec_internal)                     /* -> pqlab_mlkem1024_ref_crypto_kem_dec_internal */
#define crypto_kem_check_ek PQLAB_NAMESPACE(crypto_kem_check_ek) /* -> pqlab_mlkem1024_ref_crypto_kem_check_ek */
#define crypto_kem_check_dk PQLAB_NAMESPACE(crypto_kem_check_dk) /* -> pqlab_mlkem1024_ref_crypto_kem_check_dk */

/* ML-KEM.KeyGen / Encaps / Decaps (FIPS 203 Algorithms 19-21) */
int crypto_kem_keypair(uint8_t *pk, uint8_t *sk);
int crypto_kem_enc(uint8_t *ct, uint8_t *ss, const uint8_t *pk);
int crypto_kem_dec(uint8_t *ss, const uint8_t *ct, const uint8_t *sk);

/* Deterministic internal functions (FIPS 203 Algorithms 16-18) and the input
 * checks of sections 7.2 and 7.3; see lib/mlkem/mlkem.h. */
int crypto_kem_keypair_derand(uint8_t *pk, uint8_t *sk, const uint8_t *d, const uint8_t *z);
int crypto_kem_enc_derand(uint8_t *ct, uint8_t *ss, const uint8_t *pk, const uint8_t *m);
int crypto_kem_dec_internal(uint8_t *ss, const uint8_t *ct, const uint8_t *sk);
int crypto_kem_check_ek(const uint8_t *pk);
int crypto_kem_check_dk(const uint8_t *sk);

#endif
