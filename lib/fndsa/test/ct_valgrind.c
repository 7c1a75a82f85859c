/* SPDX-License-Identifier: MIT */
/* Constant-time check of FN-DSA under valgrind memcheck (tests/test_fndsa_ct.py).
 * Built with -DPQLAB_CT_VALGRIND: the key-generation seed, the private key and
 * the signing seed are marked secret (PQLAB_SECRET = undefined for memcheck);
 * memcheck reports any branch, address or syscall that depends on them. What the
 * library reveals on purpose it declassifies itself (restart decisions, sampler
 * acceptance, the signature); here only public outputs are declassified. */
#include <stdio.h>
#include <string.h>

#include "../fndsa.h"
#include "../fndsa_api.h"
#include "ct.h"

int pqlab_randombytes(uint8_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        out[i] = (uint8_t)(i * 29 + 7);
    }
    return 0;
}

static uint8_t pk[FNDSA_PKBYTES], sk[FNDSA_SKBYTES];
static uint8_t sig[FNDSA_SIGPAD + FNDSA_CRYPTO_BYTES];
static uint8_t esk[FNDSA_EXPANDEDKEYBYTES];

int main(void)
{
    uint8_t seed[48], sseed[48], nonce[40], msg[33];
    size_t siglen;
    for (int i = 0; i < 48; i++) {
        seed[i] = (uint8_t)(3 * i + 1);
        sseed[i] = (uint8_t)(5 * i + 2);
    }
    memset(nonce, 0xA5, sizeof nonce);
    memset(msg, 0x3C, sizeof msg);

    PQLAB_SECRET(seed, sizeof seed);
    int r = PQLAB_NAMESPACE(fndsa_keypair_seed)(pk, sk, seed);
    PQLAB_DECLASSIFY(&r, sizeof r);
    PQLAB_DECLASSIFY(pk, sizeof pk);
    if (r != 0) {
        return 1;
    }
    /* Key generation again, on the seed of a KAT record whose key generation
     * goes through a candidate that the reference-schedule replay of the NTRU
     * solver rejects (record 50 of falcon512-KAT, record 1 of falcon1024-KAT;
     * the seed is the first 48 bytes of the record's DRBG): the whole solver,
     * every depth and the rejection path included, runs on secret data. */
    {
#if FNDSA_LOGN == 9
        static const char *hex = "771cbb7c9fbd9fc5db93e3e4de6c034e58be9bade93748c422971421246962347b5f037cd6cf229c695e650c3a3aca4f";
#else
        static const char *hex = "4b622de1350119c45a9f2e2ef3dc5df50a759d138cdfbd64c81cc7cc2f513345d5a45a4ced06403c5557e87113cb30ea";
#endif
        uint8_t seed2[48];
        static uint8_t pk2[FNDSA_PKBYTES], sk2[FNDSA_SKBYTES];
        for (int i = 0; i < 48; i++) {
            unsigned hi = (unsigned)hex[2 * i], lo = (unsigned)hex[2 * i + 1];
            hi = hi <= '9' ? hi - '0' : hi - 'a' + 10;
            lo = lo <= '9' ? lo - '0' : lo - 'a' + 10;
            seed2[i] = (uint8_t)(hi << 4 | lo);
        }
        PQLAB_SECRET(seed2, sizeof seed2);
        r = PQLAB_NAMESPACE(fndsa_keypair_seed)(pk2, sk2, seed2);
        PQLAB_DECLASSIFY(&r, sizeof r);
        unsigned restarts = PQLAB_NAMESPACE(crypto_sign_keygen_restarts)();
        PQLAB_DECLASSIFY(&restarts, sizeof restarts);
        if (r != 0 || restarts == 0) {
            return 5;
        }
    }

    PQLAB_SECRET(sk, sizeof sk);
    PQLAB_SECRET(sseed, sizeof sseed);
    r = PQLAB_NAMESPACE(fndsa_sign_seed)(sig, &siglen, msg, sizeof msg, sk, 0, 0, nonce, sseed);
    PQLAB_DECLASSIFY(&r, sizeof r);
    PQLAB_DECLASSIFY(&siglen, sizeof siglen);
    PQLAB_DECLASSIFY(sig, sizeof sig);
    if (r != 0 || PQLAB_NAMESPACE(fndsa_verify)(sig, siglen, msg, sizeof msg, pk, 0) != 0) {
        return 2;
    }
    r = PQLAB_NAMESPACE(crypto_sign_expand)(esk, sk);
    PQLAB_DECLASSIFY(&r, sizeof r);
    if (r != 0) {
        return 3;
    }
    r = PQLAB_NAMESPACE(fndsa_sign_seed)(sig, &siglen, msg, sizeof msg, esk, 1, 1, nonce, sseed);
    PQLAB_DECLASSIFY(&r, sizeof r);
    PQLAB_DECLASSIFY(&siglen, sizeof siglen);
    PQLAB_DECLASSIFY(sig, sizeof sig);
    if (r != 0 || PQLAB_NAMESPACE(fndsa_verify)(sig, siglen, msg, sizeof msg, pk, 1) != 0) {
        return 4;
    }
    printf("ct run ok\n");
    return 0;
}
