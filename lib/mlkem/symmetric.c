/* SPDX-License-Identifier: MIT */
/* H, G, J and PRF of ML-KEM, FIPS 203 section 4.1 (equations 4.3-4.5). */
#include "symmetric.h"
#include "ct.h"
#include "fips202.h"

void mlkem_hash_h(uint8_t out[32], const uint8_t *in, size_t inlen)
{
    pqlab_sha3_256(out, in, inlen);
}

void mlkem_hash_g(uint8_t out[64], const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
    pqlab_keccak_state st;
    pqlab_sha3_512_init(&st);
    pqlab_sha3_512_absorb(&st, a, alen);
    pqlab_sha3_512_absorb(&st, b, blen);
    pqlab_sha3_512_finalize(out, &st);
    pqlab_zeroize(&st, sizeof st); /* the state holds secret input (d, m) */
}

void mlkem_hash_j(uint8_t out[32], const uint8_t z[32], const uint8_t *c, size_t clen)
{
    pqlab_keccak_state st;
    pqlab_shake256_init(&st);
    pqlab_shake256_absorb(&st, z, 32);
    pqlab_shake256_absorb(&st, c, clen);
    pqlab_shake256_finalize(&st);
    pqlab_shake256_squeeze(out, 32, &st);
    pqlab_zeroize(&st, sizeof st);
}

void mlkem_prf(uint8_t *out, size_t outlen, const uint8_t s[32], uint8_t b)
{
    pqlab_keccak_state st;
    pqlab_shake256_init(&st);
    pqlab_shake256_absorb(&st, s, 32);
    pqlab_shake256_absorb(&st, &b, 1);
    pqlab_shake256_finalize(&st);
    pqlab_shake256_squeeze(out, outlen, &st);
}
