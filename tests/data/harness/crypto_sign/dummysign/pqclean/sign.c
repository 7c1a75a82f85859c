/* SPDX-License-Identifier: MIT */
/* The dummy signature of ../plain under PQClean names and size_t lengths. */
#include <stddef.h>
#include <stdint.h>

#include "../../../mix.h"
#include "api.h"
#include "randombytes.h"

#define BYTES PQCLEAN_DUMMYSIGN_CLEAN_CRYPTO_BYTES

int PQCLEAN_DUMMYSIGN_CLEAN_crypto_sign_keypair(uint8_t *pk, uint8_t *sk)
{
    pqlab_randombytes(sk, 32);
    dummy_mix(pk, sk, 32, NULL, 0);
    for (int i = 0; i < 32; i++) {
        sk[32 + i] = pk[i];
    }
    return 0;
}

static void tagof(uint8_t t[32], const uint8_t *pk, const uint8_t *r, const uint8_t *m, size_t mlen)
{
    uint8_t pr[40];
    for (int i = 0; i < 32; i++) {
        pr[i] = pk[i];
    }
    for (int i = 0; i < 8; i++) {
        pr[32 + i] = r[i];
    }
    dummy_mix(t, pr, sizeof pr, m, mlen);
}

int PQCLEAN_DUMMYSIGN_CLEAN_crypto_sign(uint8_t *sm, size_t *smlen, const uint8_t *m, size_t mlen, const uint8_t *sk)
{
    for (size_t i = mlen; i > 0; i--) {
        sm[BYTES + i - 1] = m[i - 1];
    }
    pqlab_randombytes(sm, 8);
    tagof(sm + 8, sk + 32, sm, sm + BYTES, mlen);
    *smlen = BYTES + mlen;
    return 0;
}

int PQCLEAN_DUMMYSIGN_CLEAN_crypto_sign_open(uint8_t *m, size_t *mlen, const uint8_t *sm, size_t smlen,
                                             const uint8_t *pk)
{
    uint8_t t[32], d = 0;
    if (smlen < BYTES) {
        return -1;
    }
    tagof(t, pk, sm, sm + BYTES, smlen - BYTES);
    for (int i = 0; i < 32; i++) {
        d |= (uint8_t)(t[i] ^ sm[8 + i]);
    }
    if (d != 0) {
        return -1;
    }
    for (size_t i = 0; i < smlen - BYTES; i++) {
        m[i] = sm[BYTES + i];
    }
    *mlen = smlen - BYTES;
    return 0;
}
