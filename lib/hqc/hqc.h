/* SPDX-License-Identifier: MIT */
/* HQC-KEM API of pqlab's portable implementation for the parameter set chosen by
 * PQLAB_HQC_LEVEL. The NIST-form api.h of each set (lib/crypto_kem/hqc-N/ref/api.h)
 * maps the plain names onto these symbols. Version: round-4 specification of
 * 2023-04-30 (docs/hqc.md). Sizes: params.h.
 *
 * Return values: 0 on success; HQC_ERR_RNG (-3) when pqlab_randombytes failed, with
 * every output zeroised. Decapsulation always returns 0: a ciphertext that does not
 * re-encrypt to itself gets the implicit-rejection key K(sigma || u || v) (2023), or
 * J(H(pk) || sigma || ct) (2025). PQLAB_HQC_VERSION (params.h) selects the version. */
#ifndef PQLAB_HQC_H
#define PQLAB_HQC_H

#include <stdint.h>
#include "params.h"

#define HQC_ERR_RNG (-3)

#if PQLAB_HQC_VERSION == 2025
/* HQC-KEM.Keygen (2025-08-22): seed_KEM (32) from one pqlab_randombytes call */
#else
/* HQC.KEM.Keygen: sk_seed (40), sigma (k), pk_seed (40) from three pqlab_randombytes calls */
#endif
int PQLAB_NAMESPACE(crypto_kem_keypair)(uint8_t *pk, uint8_t *sk);
/* HQC.KEM.Encaps: m (k), then salt (16) from two pqlab_randombytes calls */
int PQLAB_NAMESPACE(crypto_kem_enc)(uint8_t *ct, uint8_t *ss, const uint8_t *pk);
/* HQC.KEM.Decaps with implicit rejection */
int PQLAB_NAMESPACE(crypto_kem_dec)(uint8_t *ss, const uint8_t *ct, const uint8_t *sk);

/* Deterministic forms for KAT and ACVP-style tests: the randomness given explicitly. */
#if PQLAB_HQC_VERSION == 2025
int PQLAB_NAMESPACE(crypto_kem_keypair_derand)(uint8_t *pk, uint8_t *sk, const uint8_t *seed_kem);
#else
int PQLAB_NAMESPACE(crypto_kem_keypair_derand)(uint8_t *pk, uint8_t *sk, const uint8_t *sk_seed, const uint8_t *sigma,
                                               const uint8_t *pk_seed);
#endif
int PQLAB_NAMESPACE(crypto_kem_enc_derand)(uint8_t *ct, uint8_t *ss, const uint8_t *pk, const uint8_t *m,
                                           const uint8_t *salt);

#endif
