/* SPDX-License-Identifier: MIT */
/* ML-KEM (FIPS 203) API of pqlab's portable implementation, for the parameter
 * set chosen by PQLAB_MLKEM_K. The NIST-form api.h of each parameter set
 * (lib/crypto_kem/ml-kem-N/ref/api.h) maps the plain names onto these symbols.
 *
 * Return values: 0 on success; on failure a negative code and every output
 * zeroised: MLKEM_ERR_EK (encapsulation-key modulus check, FIPS 203 section
 * 7.2), MLKEM_ERR_DK (decapsulation-key hash check, section 7.3), MLKEM_ERR_RNG
 * (pqlab_randombytes failed). Lengths are fixed by the parameter set. */
#ifndef PQLAB_MLKEM_H
#define PQLAB_MLKEM_H

#include <stdint.h>
#include "params.h"

#define MLKEM_ERR_EK (-1)
#define MLKEM_ERR_DK (-2)
#define MLKEM_ERR_RNG (-3)

/* ML-KEM.KeyGen (Algorithm 19): d, z from pqlab_randombytes (one call, 64 bytes). */
int PQLAB_NAMESPACE(crypto_kem_keypair)(uint8_t *ek, uint8_t *dk);
/* ML-KEM.Encaps (Algorithm 20): m from pqlab_randombytes; ek modulus check. */
int PQLAB_NAMESPACE(crypto_kem_enc)(uint8_t *c, uint8_t *k, const uint8_t *ek);
/* ML-KEM.Decaps (Algorithm 21): dk hash check, then Decaps_internal. */
int PQLAB_NAMESPACE(crypto_kem_dec)(uint8_t *k, const uint8_t *c, const uint8_t *dk);

/* ML-KEM.KeyGen_internal(d, z) (Algorithm 16). Always succeeds. */
int PQLAB_NAMESPACE(crypto_kem_keypair_derand)(uint8_t *ek, uint8_t *dk, const uint8_t *d, const uint8_t *z);
/* ML-KEM.Encaps_internal(ek, m) (Algorithm 17), preceded by the section 7.2 check. */
int PQLAB_NAMESPACE(crypto_kem_enc_derand)(uint8_t *c, uint8_t *k, const uint8_t *ek, const uint8_t *m);
/* ML-KEM.Decaps_internal(dk, c) (Algorithm 18) without the section 7.3 check;
 * crypto_kem_dec is this plus the check. */
int PQLAB_NAMESPACE(crypto_kem_dec_internal)(uint8_t *k, const uint8_t *c, const uint8_t *dk);
/* The input checks alone: 0 when the key passes, MLKEM_ERR_EK / MLKEM_ERR_DK otherwise. */
int PQLAB_NAMESPACE(crypto_kem_check_ek)(const uint8_t *ek);
int PQLAB_NAMESPACE(crypto_kem_check_dk)(const uint8_t *dk);

#endif
