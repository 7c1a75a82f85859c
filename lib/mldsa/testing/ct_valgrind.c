/* SPDX-License-Identifier: MIT */
/* Constant-time test program for valgrind memcheck (tests/test_mldsa_ct.py). Built with
 * -DPQLAB_CT_VALGRIND: PQLAB_SECRET marks the seed xi, the secret key and the signing
 * randomness rnd as undefined memory; memcheck then reports every branch, memory address
 * or (with --expensive-definedness-checks) operation that depends on them, except where the
 * library declassifies on purpose (PQLAB_DECLASSIFY, each with its reason in the source).
 * Exit code 0 when every operation succeeded; the test also requires a clean valgrind run. */
#include <stdio.h>
#include <string.h>

#include "ct.h"
#include "mldsa.h"
#include "randombytes.h"

static uint32_t rng_state = 0x12345678u;

int pqlab_randombytes(uint8_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        rng_state = rng_state * 1664525u + 1013904223u;
        out[i] = (uint8_t)(rng_state >> 24);
    }
    PQLAB_SECRET(out, n); /* fresh randomness (xi, hedged rnd) is secret */
    return 0;
}

static uint8_t pk[MLDSA_PUBLICKEYBYTES];
static uint8_t sk[MLDSA_SECRETKEYBYTES];
static uint8_t sig[MLDSA_SIGBYTES];

int main(void)
{
    uint8_t xi[MLDSA_SEEDBYTES], rnd[MLDSA_RNDBYTES], mu[MLDSA_CRHBYTES];
    uint8_t msg[64];
    size_t siglen;
    int fails = 0;

    for (int round = 0; round < 3; round++) {
        pqlab_randombytes(xi, sizeof xi);
        fails += mldsa_keypair_internal(pk, sk, xi) != 0;
#ifdef PQLAB_CT_SELFTEST_LEAK
        /* negative control: a branch on a secret-key byte must be reported */
        PQLAB_SECRET(sk, sizeof sk);
        if (sk[200] == 3) {
            puts("leak");
        }
#endif
        PQLAB_DECLASSIFY(pk, sizeof pk);
        for (int i = 0; i < 4; i++) {
            memset(msg, round * 16 + i, sizeof msg);
            PQLAB_SECRET(sk, sizeof sk);
            /* hedged: rnd from randombytes, secret */
            fails += mldsa_signature_ctx(sig, &siglen, msg, sizeof msg, msg, 7, NULL, sk) != 0;
            PQLAB_DECLASSIFY(sig, sizeof sig);
            fails += mldsa_verify_ctx(sig, siglen, msg, sizeof msg, msg, 7, pk) != 0;
            /* given rnd, internal interface, external mu, pre-hash */
            pqlab_randombytes(rnd, sizeof rnd);
            fails += mldsa_signature_internal(sig, &siglen, msg, sizeof msg, rnd, sk) != 0;
            PQLAB_DECLASSIFY(sig, sizeof sig);
            fails += mldsa_verify_internal(sig, siglen, msg, sizeof msg, pk) != 0;
            fails += mldsa_compute_mu(mu, pk, msg, sizeof msg, NULL, 0, 0) != 0;
            pqlab_randombytes(rnd, sizeof rnd);
            fails += mldsa_signature_extmu(sig, &siglen, mu, rnd, sk) != 0;
            PQLAB_DECLASSIFY(sig, sizeof sig);
            fails += mldsa_verify_extmu(sig, siglen, mu, pk) != 0;
            fails += mldsa_signature_prehash(sig, &siglen, msg, sizeof msg, NULL, 0, PQLAB_MLDSA_PH_SHA2_512_256, NULL,
                                             sk) != 0;
            PQLAB_DECLASSIFY(sig, sizeof sig);
            fails += mldsa_verify_prehash(sig, siglen, msg, sizeof msg, NULL, 0, PQLAB_MLDSA_PH_SHA2_512_256, pk) != 0;
            PQLAB_DECLASSIFY(&fails, sizeof fails);
        }
        /* the NIST API: keypair from randombytes */
        fails += mldsa_keypair(pk, sk) != 0;
        PQLAB_DECLASSIFY(&fails, sizeof fails);
    }
    printf("ct-test %s %d\n", MLDSA_ALGNAME, fails);
    return fails != 0;
}
