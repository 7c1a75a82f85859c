/* SPDX-License-Identifier: MIT */
/* NIST API of Hawk (specification v1.0) over lib/hawk.
 * Randomness order (the one the NIST KAT generator records): key generation draws
 * kgseed (kgseedlen bytes) per candidate; signing draws, per attempt, Rnd(saltlen) for
 * the salt and then Rnd(320) for the sampler seed. The signed message is m || sig (the
 * signature has the fixed length CRYPTO_BYTES). */
#include <string.h>

#include "hawk.h"
#include "hawk_api.h"
#include "ct.h"
#include "randombytes.h"

static int nist_rnd(void *ctx, uint8_t *out, size_t len)
{
    (void)ctx;
    return pqlab_randombytes(out, len) == 0 ? 0 : -1;
}

int hawk_keypair_seed(uint8_t *pk, uint8_t *sk, const uint8_t *kgseed)
{
    if (hawk_keygen_try(pk, sk, kgseed)) {
        return 0;
    }
    memset(pk, 0, HAWK_PKBYTES);
    memset(sk, 0, HAWK_SKBYTES);
    return -1;
}

int crypto_sign_keypair(uint8_t *pk, uint8_t *sk)
{
    uint8_t kgseed[HAWK_KGSEEDLEN];
    for (unsigned i = 0; i < HAWK_KEYGEN_MAX_ATTEMPTS; i++) {
        hawk_keygen_restarts_last = i;
        if (pqlab_randombytes(kgseed, sizeof kgseed) != 0) {
            break;
        }
        if (hawk_keygen_try(pk, sk, kgseed)) {
            pqlab_zeroize(kgseed, sizeof kgseed);
            return 0;
        }
    }
    pqlab_zeroize(kgseed, sizeof kgseed);
    memset(pk, 0, HAWK_PKBYTES);
    memset(sk, 0, HAWK_SKBYTES);
    return -1;
}

unsigned crypto_sign_keygen_restarts(void)
{
    return hawk_keygen_restarts_last;
}

unsigned crypto_sign_sign_attempts(void)
{
    return hawk_sign_attempts_last;
}

int crypto_sign_signature(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen, const uint8_t *sk)
{
    *siglen = 0;
    if (!hawk_sign_core(sig, m, mlen, sk, nist_rnd, NULL)) {
        return -1;
    }
    *siglen = HAWK_SIGBYTES;
    return 0;
}

int crypto_sign_verify(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen, const uint8_t *pk)
{
    return hawk_verify_core(sig, siglen, m, mlen, pk, HAWK_PKBYTES) ? 0 : -1;
}

int crypto_sign(uint8_t *sm, size_t *smlen, const uint8_t *m, size_t mlen, const uint8_t *sk)
{
    size_t siglen;
    *smlen = 0;
    memmove(sm, m, mlen);
    if (crypto_sign_signature(sm + mlen, &siglen, sm, mlen, sk) != 0) {
        memset(sm, 0, mlen + HAWK_SIGBYTES);
        return -1;
    }
    *smlen = mlen + siglen;
    return 0;
}

int crypto_sign_open(uint8_t *m, size_t *mlen, const uint8_t *sm, size_t smlen, const uint8_t *pk)
{
    *mlen = 0;
    if (smlen < HAWK_SIGBYTES) {
        return -1;
    }
    size_t dlen = smlen - HAWK_SIGBYTES;
    if (!hawk_verify_core(sm + dlen, HAWK_SIGBYTES, sm, dlen, pk, HAWK_PKBYTES)) {
        return -1;
    }
    memmove(m, sm, dlen);
    *mlen = dlen;
    return 0;
}
