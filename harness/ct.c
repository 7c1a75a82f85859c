/* SPDX-License-Identifier: MIT */
/* ct: constant-time check of one implementation through its NIST API, run under
 * valgrind memcheck (platform host-ct, built with -DPQLAB_CT_VALGRIND).
 *
 * Every byte of randomness the implementation draws is marked secret
 * (PQLAB_SECRET = "undefined" for memcheck), so the secret key, the KEM message
 * and the signing randomness are secret from birth. Memcheck then reports every
 * conditional branch, memory address or system call that depends on them.
 * Outputs the standard makes public are declassified here, each with its reason:
 * the public key, the ciphertext, the signature. What an implementation reveals on
 * purpose (e.g. ML-DSA's rejection decision) it must declassify itself, next to
 * the reason. Valgrind's exit code (--error-exitcode) makes any report fail the run.
 * Signature schemes whose api.h defines CRYPTO_EXPANDEDKEYBYTES (FN-DSA) also run key
 * expansion and signing with the expanded key; harness/ct_<driver>.c adds operations of
 * the family beyond the NIST API (pqlab_ct_family).
 * Records: "test ct-<op> ok" per operation reached (functional results checked after
 * declassification); "ct-under-memcheck" (with PQLAB_CT_VALGRIND) and "ct-secret-input"
 * fail a run that could not have seen anything (the host-ct binary run outside valgrind, or
 * no randomness drawn and so nothing secret). Built without PQLAB_CT_VALGRIND (any other
 * platform) the program only runs the operations: `pqlab ct` refuses those platforms. */
#include <stddef.h>
#include <stdint.h>

#include "../lib/common/ct.h"
#ifdef PQLAB_CT_VALGRIND
#include <valgrind/valgrind.h>
#endif
#include "../lib/common/randombytes.h"
#include "api_glue.h"
#include "harness.h"

#ifndef PQLAB_CT_ITERATIONS
#define PQLAB_CT_ITERATIONS 2
#endif

#define CHECK(name, cond) pqlab_test_result(name, (cond) ? 1 : 0)

#ifdef PQLAB_KIND_KEM

static uint8_t pk[CRYPTO_PUBLICKEYBYTES], sk[CRYPTO_SECRETKEYBYTES], ct[CRYPTO_CIPHERTEXTBYTES];
static uint8_t ss_a[CRYPTO_BYTES], ss_b[CRYPTO_BYTES], ss_c[CRYPTO_BYTES];

static void run(void)
{
    for (int it = 0; it < PQLAB_CT_ITERATIONS; it++) {
        int r = crypto_kem_keypair(pk, sk);
        PQLAB_DECLASSIFY(&r, sizeof r);
        PQLAB_DECLASSIFY(pk, sizeof pk); /* public key: public by definition */
        CHECK("ct-keypair", r == 0);
        r = crypto_kem_enc(ct, ss_a, pk);
        PQLAB_DECLASSIFY(&r, sizeof r);
        PQLAB_DECLASSIFY(ct, sizeof ct); /* ciphertext: sent over the wire */
        CHECK("ct-encaps", r == 0);
        r = crypto_kem_dec(ss_b, ct, sk);
        PQLAB_DECLASSIFY(&r, sizeof r);
        CHECK("ct-decaps", r == 0);
        /* a modified ciphertext exercises implicit rejection with the same secret key */
        ct[it % CRYPTO_CIPHERTEXTBYTES] ^= 1;
        r = crypto_kem_dec(ss_c, ct, sk);
        PQLAB_DECLASSIFY(&r, sizeof r);
        CHECK("ct-decaps-modified", r == 0 || r < 0);
        /* only to check correctness, after the operations under test */
        PQLAB_DECLASSIFY(ss_a, sizeof ss_a);
        PQLAB_DECLASSIFY(ss_b, sizeof ss_b);
        PQLAB_DECLASSIFY(ss_c, sizeof ss_c);
        CHECK("ct-roundtrip", pqlab_bytes_equal(ss_a, ss_b, CRYPTO_BYTES));
        CHECK("ct-rejection", !pqlab_bytes_equal(ss_a, ss_c, CRYPTO_BYTES));
    }
}

#else

#define MLEN 33
static uint8_t pk[CRYPTO_PUBLICKEYBYTES], sk[CRYPTO_SECRETKEYBYTES];
static uint8_t m[MLEN], sm[MLEN + CRYPTO_BYTES], m2[MLEN + CRYPTO_BYTES];

static void run(void)
{
    for (int it = 0; it < PQLAB_CT_ITERATIONS; it++) {
        size_t smlen = 0, mlen = 0;
        int r = crypto_sign_keypair(pk, sk);
        PQLAB_DECLASSIFY(&r, sizeof r);
        PQLAB_DECLASSIFY(pk, sizeof pk); /* public key: public by definition */
        CHECK("ct-keypair", r == 0);
        for (size_t i = 0; i < MLEN; i++) {
            m[i] = (uint8_t)(i * 7 + (size_t)it); /* the message is public */
        }
        r = crypto_sign(sm, &smlen, m, MLEN, sk);
        PQLAB_DECLASSIFY(&r, sizeof r);
        PQLAB_DECLASSIFY(&smlen, sizeof smlen); /* signature length is public */
        PQLAB_DECLASSIFY(sm, sizeof sm);        /* signed message: published */
        CHECK("ct-sign", r == 0);
        r = crypto_sign_open(m2, &mlen, sm, smlen, pk);
        CHECK("ct-verify", r == 0 && mlen == MLEN && pqlab_bytes_equal(m, m2, MLEN));
#ifdef CRYPTO_EXPANDEDKEYBYTES
        {
            static uint8_t esk[CRYPTO_EXPANDEDKEYBYTES], sig[CRYPTO_BYTES];
            size_t siglen = 0;
            r = crypto_sign_expand(esk, sk);
            PQLAB_DECLASSIFY(&r, sizeof r);
            CHECK("ct-expand", r == 0);
            r = crypto_sign_signature_tree(sig, &siglen, m, MLEN, esk);
            PQLAB_DECLASSIFY(&r, sizeof r);
            PQLAB_DECLASSIFY(&siglen, sizeof siglen); /* signature length is public */
            PQLAB_DECLASSIFY(sig, sizeof sig);        /* signature: published */
            CHECK("ct-sign_tree", r == 0);
            CHECK("ct-verify_tree", crypto_sign_verify(sig, siglen, m, MLEN, pk) == 0);
        }
#endif
    }
}

#endif

int main(void)
{
    pqlab_harness_begin("ct");
    pqlab_rng_fixed();
    pqlab_rng_secret(1);
#ifdef PQLAB_CT_VALGRIND
    CHECK("ct-under-memcheck", RUNNING_ON_VALGRIND != 0);
#endif
    run();
    pqlab_ct_family();
    CHECK("ct-secret-input", pqlab_rng_secret_count() > 0);
    pqlab_harness_end(pqlab_test_report());
}
