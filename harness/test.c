/* SPDX-License-Identifier: MIT */
/* test: functional tests of one implementation through its NIST API.
 * KEM: keypair / encaps / decaps round trips; a modified ciphertext and a wrong
 * secret key must not give the same shared secret (implicit rejection returns a
 * different key, or the call fails); so must the last ciphertext byte inverted.
 * Signatures: keypair / sign / open round trips over several message lengths; a
 * modified signature, a modified message, the last signed-message byte inverted
 * and a wrong public key must be rejected.
 * Where api.h has the context functions (FIPS 204 section 5.2, FIPS 205 section
 * 10.2; api_glue.h), the first iteration also signs with a non-empty context and
 * checks that it verifies only with that context, that the context-free names
 * mean the empty context, and that a context over 255 bytes is refused.
 * Every buffer passed to the API sits between two 16-byte canaries that are
 * checked after every call ("test canary-<buffer> fail" on an overrun).
 * Randomness: the fixed-seed stream (harness.h). Results: one "test <name>
 * ok|fail" record per check, accumulated over PQLAB_TEST_ITERATIONS iterations. */
#include <stddef.h>
#include <stdint.h>

#include "api_glue.h"
#include "harness.h"
#include "../lib/common/randombytes.h"

#ifndef PQLAB_TEST_ITERATIONS
#define PQLAB_TEST_ITERATIONS 4
#endif

#define CHECK(name, cond) pqlab_test_result(name, (cond) ? 1 : 0)

#ifdef PQLAB_KIND_KEM

PQLAB_GUARDED(pk, CRYPTO_PUBLICKEYBYTES);
PQLAB_GUARDED(sk, CRYPTO_SECRETKEYBYTES);
PQLAB_GUARDED(ct, CRYPTO_CIPHERTEXTBYTES);
PQLAB_GUARDED(ss_a, CRYPTO_BYTES);
PQLAB_GUARDED(ss_b, CRYPTO_BYTES);
PQLAB_GUARDED(pk2, CRYPTO_PUBLICKEYBYTES);
PQLAB_GUARDED(sk2, CRYPTO_SECRETKEYBYTES);

static void run(void)
{
    pqlab_guard_register("pk", pk, CRYPTO_PUBLICKEYBYTES);
    pqlab_guard_register("sk", sk, CRYPTO_SECRETKEYBYTES);
    pqlab_guard_register("ct", ct, CRYPTO_CIPHERTEXTBYTES);
    pqlab_guard_register("ss", ss_a, CRYPTO_BYTES);
    pqlab_guard_register("ss-dec", ss_b, CRYPTO_BYTES);
    pqlab_guard_register("pk2", pk2, CRYPTO_PUBLICKEYBYTES);
    pqlab_guard_register("sk2", sk2, CRYPTO_SECRETKEYBYTES);
    for (int it = 0; it < PQLAB_TEST_ITERATIONS; it++) {
        CHECK("keypair", crypto_kem_keypair(pk, sk) == 0);
        pqlab_guard_check_all();
        CHECK("encaps", crypto_kem_enc(ct, ss_a, pk) == 0);
        pqlab_guard_check_all();
        CHECK("decaps", crypto_kem_dec(ss_b, ct, sk) == 0);
        pqlab_guard_check_all();
        CHECK("roundtrip", pqlab_bytes_equal(ss_a, ss_b, CRYPTO_BYTES));

        /* one flipped bit at a pseudo-random position of the ciphertext */
        size_t pos = pqlab_rng_u32() % CRYPTO_CIPHERTEXTBYTES;
        uint8_t bit = (uint8_t)(1u << (pqlab_rng_u32() & 7u));
        ct[pos] ^= bit;
        int r = crypto_kem_dec(ss_b, ct, sk);
        pqlab_guard_check_all();
        CHECK("wrong-ciphertext", r != 0 || !pqlab_bytes_equal(ss_a, ss_b, CRYPTO_BYTES));
        ct[pos] ^= bit;
        /* and the last byte, inverted: every ciphertext byte counts (a build with another
         * parameter set's shorter ciphertext leaves it unread) */
        ct[CRYPTO_CIPHERTEXTBYTES - 1] ^= 0xff;
        r = crypto_kem_dec(ss_b, ct, sk);
        pqlab_guard_check_all();
        CHECK("wrong-ciphertext", r != 0 || !pqlab_bytes_equal(ss_a, ss_b, CRYPTO_BYTES));
        ct[CRYPTO_CIPHERTEXTBYTES - 1] ^= 0xff;

        CHECK("keypair", crypto_kem_keypair(pk2, sk2) == 0);
        pqlab_guard_check_all();
        CHECK("keys-differ", !pqlab_bytes_equal(pk, pk2, CRYPTO_PUBLICKEYBYTES));
        r = crypto_kem_dec(ss_b, ct, sk2);
        pqlab_guard_check_all();
        CHECK("wrong-key", r != 0 || !pqlab_bytes_equal(ss_a, ss_b, CRYPTO_BYTES));
    }
}

#else /* PQLAB_KIND_SIGN */

#define MAXMLEN 1024
static const size_t mlens[] = {0, 1, 33, 1024, 59, 2};
#define NMLENS (sizeof mlens / sizeof mlens[0])

PQLAB_GUARDED(pk, CRYPTO_PUBLICKEYBYTES);
PQLAB_GUARDED(sk, CRYPTO_SECRETKEYBYTES);
PQLAB_GUARDED(pk2, CRYPTO_PUBLICKEYBYTES);
PQLAB_GUARDED(sk2, CRYPTO_SECRETKEYBYTES);
PQLAB_GUARDED(m, MAXMLEN);
PQLAB_GUARDED(sm, MAXMLEN + CRYPTO_BYTES);
PQLAB_GUARDED(m2, MAXMLEN + CRYPTO_BYTES);

/* where the message sits inside the signed message (attached signatures put it
 * at different places: ML-DSA after, Falcon between nonce and signature) */
static size_t find_message(size_t smlen, size_t mlen)
{
    for (size_t o = 0; o + mlen <= smlen; o++) {
        if (pqlab_bytes_equal(sm + o, m, mlen)) {
            return o;
        }
    }
    return (size_t)-1;
}

static int open_ok(size_t smlen, const uint8_t *key, size_t mlen)
{
    size_t m2len = 0;
    int r = pqlab_api_open(m2, &m2len, sm, smlen, key);
    pqlab_guard_check_all();
    return r == 0 && m2len == mlen && pqlab_bytes_equal(m2, m, mlen);
}

#if defined(PQLAB_API_SIGN_CTX) || defined(PQLAB_API_SIGNATURE_CTX)
#define CTX_MAX 256 /* one more than FIPS 204/205 allow */
PQLAB_GUARDED(ctx, CTX_MAX);
#ifdef PQLAB_API_SIGNATURE_CTX
PQLAB_GUARDED(sig, CRYPTO_BYTES);
#endif

/* sm holds the context-free signed message of m (mlen bytes, smlen in all) under sk/pk.
 * Context lengths: the maximum 255 with the attached functions, 7 with the detached ones. */
static void ctx_checks(size_t smlen, size_t mlen)
{
    (void)smlen;
    pqlab_randombytes(ctx, CTX_MAX);
#ifdef PQLAB_API_SIGN_CTX
    {
        size_t m2len = 0;
        int r = pqlab_api_open_ctx(m2, &m2len, sm, smlen, NULL, 0, pk);
        pqlab_guard_check_all();
        CHECK("ctx-empty-is-context-free", r == 0 && m2len == mlen && pqlab_bytes_equal(m2, m, mlen));

        size_t ctxlen = 255;
        CHECK("ctx-sign", pqlab_api_sign_ctx(sm, &smlen, m, mlen, ctx, ctxlen, sk) == 0);
        pqlab_guard_check_all();
        CHECK("ctx-sign-length", smlen >= mlen && smlen <= mlen + CRYPTO_BYTES);
        if (smlen > mlen + CRYPTO_BYTES) {
            smlen = mlen + CRYPTO_BYTES;
        }
        m2len = 0;
        r = pqlab_api_open_ctx(m2, &m2len, sm, smlen, ctx, ctxlen, pk);
        pqlab_guard_check_all();
        CHECK("ctx-roundtrip", r == 0 && m2len == mlen && pqlab_bytes_equal(m2, m, mlen));
        ctx[ctxlen - 1] ^= 1;
        r = pqlab_api_open_ctx(m2, &m2len, sm, smlen, ctx, ctxlen, pk);
        ctx[ctxlen - 1] ^= 1;
        pqlab_guard_check_all();
        CHECK("ctx-wrong-context", r != 0);
        r = pqlab_api_open_ctx(m2, &m2len, sm, smlen, ctx, ctxlen - 1, pk);
        pqlab_guard_check_all();
        CHECK("ctx-wrong-context", r != 0);
        CHECK("ctx-context-free-rejects", !open_ok(smlen, pk, mlen));
        r = pqlab_api_sign_ctx(sm, &smlen, m, mlen, ctx, CTX_MAX, sk);
        pqlab_guard_check_all();
        CHECK("ctx-too-long", r != 0);
    }
#endif
#ifdef PQLAB_API_SIGNATURE_CTX
    {
        size_t ctxlen = 7, siglen = 0;
        CHECK("ctx-signature", pqlab_api_signature_ctx(sig, &siglen, m, mlen, ctx, ctxlen, sk) == 0);
        pqlab_guard_check_all();
        CHECK("ctx-signature-length", siglen <= CRYPTO_BYTES);
        if (siglen > CRYPTO_BYTES) {
            siglen = CRYPTO_BYTES;
        }
        CHECK("ctx-verify", pqlab_api_verify_ctx(sig, siglen, m, mlen, ctx, ctxlen, pk) == 0);
        ctx[0] ^= 0x80;
        CHECK("ctx-verify-wrong-context", pqlab_api_verify_ctx(sig, siglen, m, mlen, ctx, ctxlen, pk) != 0);
        ctx[0] ^= 0x80;
        CHECK("ctx-verify-wrong-context", pqlab_api_verify_ctx(sig, siglen, m, mlen, NULL, 0, pk) != 0);
        pqlab_guard_check_all();
        CHECK("ctx-signature-too-long", pqlab_api_signature_ctx(sig, &siglen, m, mlen, ctx, CTX_MAX, sk) != 0);
        pqlab_guard_check_all();
    }
#endif
}
#endif

static void run(void)
{
#if defined(PQLAB_API_SIGN_CTX) || defined(PQLAB_API_SIGNATURE_CTX)
    pqlab_guard_register("ctx", ctx, CTX_MAX);
#ifdef PQLAB_API_SIGNATURE_CTX
    pqlab_guard_register("sig", sig, CRYPTO_BYTES);
#endif
#endif
    pqlab_guard_register("pk", pk, CRYPTO_PUBLICKEYBYTES);
    pqlab_guard_register("sk", sk, CRYPTO_SECRETKEYBYTES);
    pqlab_guard_register("pk2", pk2, CRYPTO_PUBLICKEYBYTES);
    pqlab_guard_register("sk2", sk2, CRYPTO_SECRETKEYBYTES);
    pqlab_guard_register("m", m, MAXMLEN);
    pqlab_guard_register("sm", sm, MAXMLEN + CRYPTO_BYTES);
    pqlab_guard_register("m-open", m2, MAXMLEN + CRYPTO_BYTES);
    for (int it = 0; it < PQLAB_TEST_ITERATIONS; it++) {
        size_t mlen = mlens[(size_t)it % NMLENS];
        size_t smlen = 0;
        pqlab_randombytes(m, mlen);
        CHECK("keypair", crypto_sign_keypair(pk, sk) == 0);
        pqlab_guard_check_all();
        CHECK("sign", pqlab_api_sign(sm, &smlen, m, mlen, sk) == 0);
        pqlab_guard_check_all();
        CHECK("sign-length", smlen >= mlen && smlen <= mlen + CRYPTO_BYTES);
        if (smlen > mlen + CRYPTO_BYTES) {
            smlen = mlen + CRYPTO_BYTES; /* keep the checks below inside the buffer */
        }
        CHECK("roundtrip", open_ok(smlen, pk, mlen));

        size_t o = find_message(smlen, mlen);
        size_t siglen = smlen - mlen;
        if (siglen > 0) {
            /* flip a bit of the signature part (everything but the message) */
            size_t pos = pqlab_rng_u32() % siglen;
            if (o != (size_t)-1 && pos >= o) {
                pos += mlen;
            }
            uint8_t bit = (uint8_t)(1u << (pqlab_rng_u32() & 7u));
            sm[pos] ^= bit;
            CHECK("tampered-signature", !open_ok(smlen, pk, mlen));
            sm[pos] ^= bit;
        }
        if (mlen > 0 && o != (size_t)-1) {
            size_t pos = o + pqlab_rng_u32() % mlen;
            uint8_t bit = (uint8_t)(1u << (pqlab_rng_u32() & 7u));
            sm[pos] ^= bit;
            m[pos - o] ^= bit; /* the message the verifier would return */
            CHECK("tampered-message", !open_ok(smlen, pk, mlen));
            sm[pos] ^= bit;
            m[pos - o] ^= bit;
        }
        CHECK("keypair", crypto_sign_keypair(pk2, sk2) == 0);
        pqlab_guard_check_all();
        CHECK("keys-differ", !pqlab_bytes_equal(pk, pk2, CRYPTO_PUBLICKEYBYTES));
        if (smlen > 0) { /* the last byte, inverted, whether signature or message */
            sm[smlen - 1] ^= 0xff;
            CHECK("tampered-signed-message", !open_ok(smlen, pk, mlen));
            sm[smlen - 1] ^= 0xff;
        }
        CHECK("wrong-key", !open_ok(smlen, pk2, mlen));
        CHECK("roundtrip", open_ok(smlen, pk, mlen)); /* nothing above changed sm */
#if defined(PQLAB_API_SIGN_CTX) || defined(PQLAB_API_SIGNATURE_CTX)
        if (it == 0) {
            ctx_checks(smlen, mlen); /* overwrites sm */
        }
#endif
    }
}

#endif

int main(void)
{
    pqlab_harness_begin("test");
    pqlab_info("algname", CRYPTO_ALGNAME);
    run();
    pqlab_harness_end(pqlab_test_report());
}
