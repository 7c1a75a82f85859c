/* SPDX-License-Identifier: MIT */
/* Dummy signature: sk = s || pk, pk = mix(s); signature = 8 random bytes r ||
 * mix(pk, r || m), 40 bytes; sm = signature || m. Anyone can "sign": it only
 * exercises the harness. -DDUMMY_ACCEPT_ALL makes verification accept anything. */
#include <stddef.h>
#include <stdint.h>

#include "../../../mix.h"
#include "api.h"
#include "randombytes.h"

int crypto_sign_keypair(unsigned char *pk, unsigned char *sk)
{
    pqlab_randombytes(sk, 32);
    dummy_mix(pk, sk, 32, NULL, 0);
    for (int i = 0; i < 32; i++) {
        sk[32 + i] = pk[i];
    }
    return 0;
}

static void tagof(uint8_t t[32], const uint8_t *pk, const uint8_t r[8], const uint8_t *m, size_t mlen)
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

#ifdef DUMMY_EXPANDED
unsigned dummy_sign_attempts;
#endif

int crypto_sign_signature(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen, const uint8_t *sk)
{
    pqlab_randombytes(sig, 8);
    tagof(sig + 8, sk + 32, sig, m, mlen);
    *siglen = CRYPTO_BYTES;
#ifdef DUMMY_EXPANDED
    dummy_sign_attempts = 1u + (sig[0] & 3u);
#endif
    return 0;
}

int crypto_sign_verify(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen, const uint8_t *pk)
{
    uint8_t t[32], d = 0;
    if (siglen != CRYPTO_BYTES) {
        return -1;
    }
    tagof(t, pk, sig, m, mlen);
    for (int i = 0; i < 32; i++) {
        d |= (uint8_t)(t[i] ^ sig[8 + i]);
    }
#ifdef DUMMY_ACCEPT_ALL
    d = 0;
#endif
    return d == 0 ? 0 : -1;
}

int crypto_sign(unsigned char *sm, unsigned long long *smlen, const unsigned char *m, unsigned long long mlen,
                const unsigned char *sk)
{
    size_t siglen;
    for (unsigned long long i = mlen; i > 0; i--) {
        sm[CRYPTO_BYTES + i - 1] = m[i - 1]; /* backwards: sm may alias m */
    }
    crypto_sign_signature(sm, &siglen, sm + CRYPTO_BYTES, (size_t)mlen, sk);
    *smlen = siglen + mlen;
    return 0;
}

int crypto_sign_open(unsigned char *m, unsigned long long *mlen, const unsigned char *sm, unsigned long long smlen,
                     const unsigned char *pk)
{
    if (smlen < CRYPTO_BYTES) {
        return -1;
    }
    if (crypto_sign_verify(sm, CRYPTO_BYTES, sm + CRYPTO_BYTES, (size_t)(smlen - CRYPTO_BYTES), pk) != 0) {
        return -1;
    }
    for (unsigned long long i = 0; i < smlen - CRYPTO_BYTES; i++) {
        m[i] = sm[CRYPTO_BYTES + i];
    }
    *mlen = smlen - CRYPTO_BYTES;
    return 0;
}

#ifdef DUMMY_EXPANDED
int crypto_sign_expand(uint8_t *esk, const uint8_t *sk)
{
    for (int i = 0; i < 64; i++) {
        esk[i] = sk[i];
    }
    dummy_mix(esk + 64, sk, 64, NULL, 0);
    return 0;
}

int crypto_sign_signature_tree(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen, const uint8_t *esk)
{
    return crypto_sign_signature(sig, siglen, m, mlen, esk);
}
#endif
