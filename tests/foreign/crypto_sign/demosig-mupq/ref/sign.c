/* SPDX-License-Identifier: MIT */
/* demosig-mupq (INSECURE toy one-time signature, mupq style).
 *   sk = skseed(32) || pk; pk = pubseed(16) || root(32)
 *   pubseed = AES-256-CTR(skseed, "demosig-pub\0")[0..16)
 *   chain secrets x_0..x_34 = NIST seed expander(skseed, "chainsec", 560 bytes)
 *   root = SHA-256(pubseed || chain_0..34(x_i, 0, 15))
 *   digits = nibbles of SHAKE256(pk || m)[0..16) and a 3-nibble checksum
 *   signature = chain_i(x_i, 0, d_i); verify completes the chains and compares roots */
#include <string.h>

#include "aes.h"
#include "api.h"
#include "crypto_declassify.h"
#include "fips202.h"
#include "nistseedexpander.h"
#include "randombytes.h"
#include "sha2.h"
#include "wots.h"

static void pubseed_from(uint8_t pubseed[WOTS_N], const uint8_t skseed[32])
{
    static const uint8_t iv[AESCTR_NONCEBYTES] = "demosig-pub";
    aes256ctx ctx;
    aes256_ctr_keyexp(&ctx, skseed);
    aes256_ctr(pubseed, WOTS_N, iv, &ctx);
    aes256_ctx_release(&ctx);
}

static int chain_secrets(uint8_t x[WOTS_LEN * WOTS_N], const uint8_t skseed[32])
{
    AES_XOF_struct xof;
    static const uint8_t div[8] = {'c', 'h', 'a', 'i', 'n', 's', 'e', 'c'};
    if (seedexpander_init(&xof, skseed, div, WOTS_LEN * WOTS_N + 1) != RNG_SUCCESS) {
        return -1;
    }
    return seedexpander(&xof, x, WOTS_LEN * WOTS_N) == RNG_SUCCESS ? 0 : -1;
}

static void digits(unsigned int d[WOTS_LEN], const uint8_t *pk, const uint8_t *m, size_t mlen)
{
    uint8_t h[WOTS_LEN1 / 2];
    shake256incctx st;
    shake256_inc_init(&st);
    shake256_inc_absorb(&st, pk, CRYPTO_PUBLICKEYBYTES);
    shake256_inc_absorb(&st, m, mlen);
    shake256_inc_finalize(&st);
    shake256_inc_squeeze(h, sizeof h, &st);
    shake256_inc_ctx_release(&st);
    /* the digits depend on the public key and the message only (and the signature
     * reveals them); the key pair arrives marked secret, so say so */
    crypto_declassify(h, sizeof h);
    unsigned int csum = 0;
    for (unsigned int i = 0; i < WOTS_LEN1; i++) {
        d[i] = (h[i / 2] >> (4 * (1 - i % 2))) & 15u;
        csum += WOTS_W - 1 - d[i];
    }
    d[WOTS_LEN1] = (csum >> 8) & 15u;
    d[WOTS_LEN1 + 1] = (csum >> 4) & 15u;
    d[WOTS_LEN1 + 2] = csum & 15u;
}

static void root_of(uint8_t root[32], const uint8_t pubseed[WOTS_N],
                    const uint8_t ends[WOTS_LEN * WOTS_N])
{
    sha256ctx st;
    uint8_t first[64];
    /* one whole block through inc_blocks, the rest through finalize */
    memcpy(first, pubseed, WOTS_N);
    memcpy(first + WOTS_N, ends, 64 - WOTS_N);
    sha256_inc_init(&st);
    sha256_inc_blocks(&st, first, 1);
    sha256_inc_finalize(root, &st, ends + (64 - WOTS_N), WOTS_LEN * WOTS_N - (64 - WOTS_N));
    sha256_inc_ctx_release(&st);
}

int crypto_sign_keypair(uint8_t *pk, uint8_t *sk)
{
    uint8_t x[WOTS_LEN * WOTS_N];
    randombytes(sk, 32);
    pubseed_from(pk, sk);
    if (chain_secrets(x, sk) != 0) {
        return -1;
    }
    for (unsigned int i = 0; i < WOTS_LEN; i++) {
        wots_chain(x + i * WOTS_N, x + i * WOTS_N, 0, WOTS_W - 1, i, pk);
    }
    root_of(pk + WOTS_N, pk, x);
    memcpy(sk + 32, pk, CRYPTO_PUBLICKEYBYTES);
    return 0;
}

int crypto_sign_signature(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen,
                          const uint8_t *sk)
{
    uint8_t x[WOTS_LEN * WOTS_N];
    unsigned int d[WOTS_LEN];
    const uint8_t *pk = sk + 32;
    if (chain_secrets(x, sk) != 0) {
        return -1;
    }
    digits(d, pk, m, mlen);
    for (unsigned int i = 0; i < WOTS_LEN; i++) {
        wots_chain(sig + i * WOTS_N, x + i * WOTS_N, 0, d[i], i, pk);
    }
    *siglen = CRYPTO_BYTES;
    return 0;
}

int crypto_sign_verify(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen,
                       const uint8_t *pk)
{
    uint8_t ends[WOTS_LEN * WOTS_N], root[32];
    unsigned int d[WOTS_LEN];
    if (siglen != CRYPTO_BYTES) {
        return -1;
    }
    digits(d, pk, m, mlen);
    for (unsigned int i = 0; i < WOTS_LEN; i++) {
        wots_chain(ends + i * WOTS_N, sig + i * WOTS_N, d[i], WOTS_W - 1 - d[i], i, pk);
    }
    root_of(root, pk, ends);
    return memcmp(root, pk + WOTS_N, 32) == 0 ? 0 : -1;
}

int crypto_sign(uint8_t *sm, size_t *smlen, const uint8_t *m, size_t mlen, const uint8_t *sk)
{
    size_t siglen;
    memmove(sm + CRYPTO_BYTES, m, mlen);
    if (crypto_sign_signature(sm, &siglen, sm + CRYPTO_BYTES, mlen, sk) != 0) {
        return -1;
    }
    *smlen = siglen + mlen;
    return 0;
}

int crypto_sign_open(uint8_t *m, size_t *mlen, const uint8_t *sm, size_t smlen, const uint8_t *pk)
{
    if (smlen < CRYPTO_BYTES ||
        crypto_sign_verify(sm, CRYPTO_BYTES, sm + CRYPTO_BYTES, smlen - CRYPTO_BYTES, pk) != 0) {
        *mlen = 0;
        return -1;
    }
    *mlen = smlen - CRYPTO_BYTES;
    memmove(m, sm + CRYPTO_BYTES, *mlen);
    return 0;
}
