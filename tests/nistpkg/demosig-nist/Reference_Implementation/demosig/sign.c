/* SPDX-License-Identifier: MIT */
/* demosig-nist (INSECURE toy, see api.h).
 * keypair: seed = 32 bytes of demosig_seed() (size_t randombytes); pk = the first 32
 *          bytes of the NIST AES-256 seed expander on seed with diversifier "demosig!"
 *          and maxlen 64 (rng.c refuses a request as long as what remains); sk = seed || pk.
 * sign:    nonce = 40 bytes of randombytes() (NIST prototype, unsigned long long length);
 *          sm = nonce || m || SHAKE256(pk || nonce || m)[0..31].
 * open:    recompute the tag; on a mismatch the message is not released. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "api.h"
#include "fips202.h"
#include "rng.h"
#include "seed.h"

#define NONCE 40
#define TAG 32

static void tag(unsigned char out[TAG], const unsigned char *pk, const unsigned char *nonce,
                const unsigned char *m, unsigned long long mlen)
{
    shake256incctx h;
    shake256_inc_init(&h);
    shake256_inc_absorb(&h, pk, CRYPTO_PUBLICKEYBYTES);
    shake256_inc_absorb(&h, nonce, NONCE);
    shake256_inc_absorb(&h, m, (size_t)mlen);
    shake256_inc_finalize(&h);
    shake256_inc_squeeze(out, TAG, &h);
    shake256_inc_ctx_release(&h);
}

int crypto_sign_keypair(unsigned char *pk, unsigned char *sk)
{
    AES_XOF_struct x;
    unsigned char div[8] = {'d', 'e', 'm', 'o', 's', 'i', 'g', '!'};
    if (demosig_seed(sk, 32) != 0) {
        return -1;
    }
    if (seedexpander_init(&x, sk, div, 64) != RNG_SUCCESS || seedexpander(&x, pk, 32) != RNG_SUCCESS) {
        return -1;
    }
    memcpy(sk + 32, pk, CRYPTO_PUBLICKEYBYTES);
    return 0;
}

int crypto_sign(unsigned char *sm, unsigned long long *smlen, const unsigned char *m, unsigned long long mlen,
                const unsigned char *sk)
{
    if (randombytes(sm, NONCE) != RNG_SUCCESS) {
        return -1;
    }
    memmove(sm + NONCE, m, (size_t)mlen);
    tag(sm + NONCE + mlen, sk + 32, sm, sm + NONCE, mlen);
    *smlen = mlen + CRYPTO_BYTES;
    return 0;
}

int crypto_sign_open(unsigned char *m, unsigned long long *mlen, const unsigned char *sm, unsigned long long smlen,
                     const unsigned char *pk)
{
    unsigned char t[TAG];
    unsigned char diff = 0;
    if (smlen < CRYPTO_BYTES) {
        return -1;
    }
    unsigned long long n = smlen - CRYPTO_BYTES;
    tag(t, pk, sm, sm + NONCE, n);
    for (int i = 0; i < TAG; i++) {
        diff |= t[i] ^ sm[NONCE + n + (unsigned long long)i];
    }
    if (diff != 0) {
        return -1;
    }
    memmove(m, sm + NONCE, (size_t)n);
    *mlen = n;
    return 0;
}
