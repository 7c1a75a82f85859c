/* SPDX-License-Identifier: MIT */
/* The hash functions of ML-KEM, FIPS 203 section 4.1, on top of lib/common.
 * Out of line (symmetric.c) on purpose: the Keccak state then lives only in the
 * callee's frame while hashing, not in the frames of the long-lived callers. */
#ifndef PQLAB_MLKEM_SYMMETRIC_H
#define PQLAB_MLKEM_SYMMETRIC_H

#include <stddef.h>
#include <stdint.h>
#include "params.h"

#define mlkem_hash_h PQLAB_NAMESPACE(mlkem_hash_h)
#define mlkem_hash_g PQLAB_NAMESPACE(mlkem_hash_g)
#define mlkem_hash_j PQLAB_NAMESPACE(mlkem_hash_j)
#define mlkem_prf PQLAB_NAMESPACE(mlkem_prf)

/* H(s) = SHA3-256(s) (equation 4.4). */
void mlkem_hash_h(uint8_t out[32], const uint8_t *in, size_t inlen);
/* G(a || b) = SHA3-512(a || b), the two 32-byte halves in out (equation 4.5). */
void mlkem_hash_g(uint8_t out[64], const uint8_t *a, size_t alen, const uint8_t *b, size_t blen);
/* J(z || c) = SHAKE256(z || c, 8 * 32) (equation 4.4). */
void mlkem_hash_j(uint8_t out[32], const uint8_t z[32], const uint8_t *c, size_t clen);
/* PRF_eta(s, b) = SHAKE256(s || b, 8 * 64 * eta) (equation 4.3); outlen = 64 eta. */
void mlkem_prf(uint8_t *out, size_t outlen, const uint8_t s[32], uint8_t b);

#endif
