/* SPDX-License-Identifier: MIT */
/* The ct program's ML-DSA part: the interfaces of FIPS 204 beyond the NIST API that harness/ct.c
 * runs, each with secret inputs: key generation from a secret seed xi (Algorithm 6), signing
 * with a context and hedged randomness, the internal interface with a secret rnd, an external
 * mu, and HashML-DSA. The secret key is re-marked secret before every signature (the public
 * key inside it stays secret too: the library must not branch on any of it). What FIPS 204
 * lets leak (the rejection decisions) the library declassifies itself, next to its reason. */
#include <stddef.h>
#include <stdint.h>

#include "../lib/common/ct.h"
#include "../lib/common/randombytes.h"
#include "api.h"
#include "harness.h"

static uint8_t pk[CRYPTO_PUBLICKEYBYTES], sk[CRYPTO_SECRETKEYBYTES], sig[CRYPTO_BYTES];

static void result(const char *name, int r)
{
    PQLAB_DECLASSIFY(&r, sizeof r);
    pqlab_test_result(name, r == 0);
}

void pqlab_ct_family(void)
{
    uint8_t xi[32], rnd[32], mu[64], msg[64];
    static const uint8_t ctx[7] = {1, 2, 3, 4, 5, 6, 7}; /* the context is public */
    size_t siglen = 0;
    pqlab_randombytes(xi, sizeof xi); /* secret: every randombytes output is (harness/ct.c) */
    result("ct-keypair_internal", crypto_sign_keypair_internal(pk, sk, xi));
    PQLAB_DECLASSIFY(pk, sizeof pk); /* public key: public by definition */
    for (size_t i = 0; i < sizeof msg; i++) {
        msg[i] = (uint8_t)(3 * i + 1); /* the message is public */
    }

    PQLAB_SECRET(sk, sizeof sk);
    result("ct-sign_ctx", crypto_sign_signature_ctx(sig, &siglen, msg, sizeof msg, ctx, sizeof ctx, NULL, sk));
    PQLAB_DECLASSIFY(sig, sizeof sig); /* signature: published */
    PQLAB_DECLASSIFY(&siglen, sizeof siglen);
    result("ct-verify_ctx", crypto_sign_verify_ctx(sig, siglen, msg, sizeof msg, ctx, sizeof ctx, pk));

    pqlab_randombytes(rnd, sizeof rnd);
    PQLAB_SECRET(sk, sizeof sk);
    result("ct-sign_internal", crypto_sign_signature_internal(sig, &siglen, msg, sizeof msg, rnd, sk));
    PQLAB_DECLASSIFY(sig, sizeof sig);
    PQLAB_DECLASSIFY(&siglen, sizeof siglen);
    result("ct-verify_internal", crypto_sign_verify_internal(sig, siglen, msg, sizeof msg, pk));

    result("ct-compute_mu", crypto_sign_compute_mu(mu, pk, msg, sizeof msg, ctx, sizeof ctx, 0));
    pqlab_randombytes(rnd, sizeof rnd);
    PQLAB_SECRET(sk, sizeof sk);
    result("ct-sign_extmu", crypto_sign_signature_extmu(sig, &siglen, mu, rnd, sk));
    PQLAB_DECLASSIFY(sig, sizeof sig);
    PQLAB_DECLASSIFY(&siglen, sizeof siglen);
    result("ct-verify_extmu", crypto_sign_verify_extmu(sig, siglen, mu, pk));

    PQLAB_SECRET(sk, sizeof sk);
    result("ct-sign_prehash", crypto_sign_signature_prehash(sig, &siglen, msg, sizeof msg, ctx, sizeof ctx,
                                                            PQLAB_MLDSA_PH_SHA2_512_256, NULL, sk));
    PQLAB_DECLASSIFY(sig, sizeof sig);
    PQLAB_DECLASSIFY(&siglen, sizeof siglen);
    result("ct-verify_prehash",
           crypto_sign_verify_prehash(sig, siglen, msg, sizeof msg, ctx, sizeof ctx, PQLAB_MLDSA_PH_SHA2_512_256, pk));
}
