/* SPDX-License-Identifier: MIT */
/* toysig: an INSECURE toy signature (the public key equals the secret key) whose only
 * purpose is to present every NIST signature API form that pqm4, mupq and PQClean
 * folders use, for tests/test_foreign_forms.py. The test writes an api.h per form
 * beside this file; api.h defines
 *   TOY_NAME(x)  the exported name of x (plain, PQClean-prefixed, or x itself when
 *                api.h maps the plain names through MUPQ_NAMESPACE),
 *   TOY_CTX      the FIPS 204 style context functions (_ctx, attached and detached),
 *   TOY_PLAIN    context-free functions (absent: none, or macros over the _ctx ones),
 *   TOY_LEN      the length type of the context-free crypto_sign/crypto_sign_open.
 * Deliberate faults for negative tests: TOY_IGNORES_CONTEXT (the context is not
 * bound into the signature), TOY_IGNORES_LAST_BYTE (the last message byte is not
 * signed).
 * sig = SHAKE256(key || ctxlen || ctx || m)[0..32); sm = sig || m. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "api.h"
#include "fips202.h"
#include "randombytes.h"

#define TOY_SIGBYTES 32
#define TOY_KEYBYTES 32

static int toy_sig(uint8_t *sig, const uint8_t *m, size_t mlen, const uint8_t *ctx, size_t ctxlen,
                   const uint8_t *key)
{
    uint8_t c = (uint8_t)ctxlen;
    shake256incctx st;
    if (ctxlen > 255) {
        return -1;
    }
#ifdef TOY_IGNORES_LAST_BYTE
    if (mlen > 0) {
        mlen--;
    }
#endif
    shake256_inc_init(&st);
    shake256_inc_absorb(&st, key, TOY_KEYBYTES);
#ifndef TOY_IGNORES_CONTEXT
    shake256_inc_absorb(&st, &c, 1);
    if (ctxlen > 0) {
        shake256_inc_absorb(&st, ctx, ctxlen);
    }
#else
    (void)c;
    (void)ctx;
#endif
    if (mlen > 0) {
        shake256_inc_absorb(&st, m, mlen);
    }
    shake256_inc_finalize(&st);
    shake256_inc_squeeze(sig, TOY_SIGBYTES, &st);
    shake256_inc_ctx_release(&st);
    return 0;
}

static int sig_ctx(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen, const uint8_t *ctx, size_t ctxlen,
                   const uint8_t *sk)
{
    if (toy_sig(sig, m, mlen, ctx, ctxlen, sk) != 0) {
        return -1;
    }
    *siglen = TOY_SIGBYTES;
    return 0;
}

static int verify_ctx(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen, const uint8_t *ctx,
                      size_t ctxlen, const uint8_t *pk)
{
    uint8_t t[TOY_SIGBYTES];
    if (siglen != TOY_SIGBYTES || toy_sig(t, m, mlen, ctx, ctxlen, pk) != 0) {
        return -1;
    }
    return memcmp(t, sig, TOY_SIGBYTES) == 0 ? 0 : -1;
}

static int sign_ctx(uint8_t *sm, size_t *smlen, const uint8_t *m, size_t mlen, const uint8_t *ctx, size_t ctxlen,
                    const uint8_t *sk)
{
    size_t siglen;
    memmove(sm + TOY_SIGBYTES, m, mlen);
    if (sig_ctx(sm, &siglen, sm + TOY_SIGBYTES, mlen, ctx, ctxlen, sk) != 0) {
        return -1;
    }
    *smlen = mlen + TOY_SIGBYTES;
    return 0;
}

static int open_ctx(uint8_t *m, size_t *mlen, const uint8_t *sm, size_t smlen, const uint8_t *ctx, size_t ctxlen,
                    const uint8_t *pk)
{
    if (smlen < TOY_SIGBYTES ||
        verify_ctx(sm, TOY_SIGBYTES, sm + TOY_SIGBYTES, smlen - TOY_SIGBYTES, ctx, ctxlen, pk) != 0) {
        return -1;
    }
    memmove(m, sm + TOY_SIGBYTES, smlen - TOY_SIGBYTES);
    *mlen = smlen - TOY_SIGBYTES;
    return 0;
}

int TOY_NAME(crypto_sign_keypair)(uint8_t *pk, uint8_t *sk)
{
    randombytes(sk, TOY_KEYBYTES);
    memcpy(pk, sk, TOY_KEYBYTES);
    return 0;
}

#ifdef TOY_CTX
int TOY_NAME(crypto_sign_signature_ctx)(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen,
                                        const uint8_t *ctx, size_t ctxlen, const uint8_t *sk)
{
    return sig_ctx(sig, siglen, m, mlen, ctx, ctxlen, sk);
}

int TOY_NAME(crypto_sign_verify_ctx)(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen,
                                     const uint8_t *ctx, size_t ctxlen, const uint8_t *pk)
{
    return verify_ctx(sig, siglen, m, mlen, ctx, ctxlen, pk);
}

int TOY_NAME(crypto_sign_ctx)(uint8_t *sm, size_t *smlen, const uint8_t *m, size_t mlen, const uint8_t *ctx,
                              size_t ctxlen, const uint8_t *sk)
{
    return sign_ctx(sm, smlen, m, mlen, ctx, ctxlen, sk);
}

int TOY_NAME(crypto_sign_open_ctx)(uint8_t *m, size_t *mlen, const uint8_t *sm, size_t smlen, const uint8_t *ctx,
                                   size_t ctxlen, const uint8_t *pk)
{
    return open_ctx(m, mlen, sm, smlen, ctx, ctxlen, pk);
}
#endif

#ifdef TOY_PLAIN
int TOY_NAME(crypto_sign_signature)(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen, const uint8_t *sk)
{
    return sig_ctx(sig, siglen, m, mlen, NULL, 0, sk);
}

int TOY_NAME(crypto_sign_verify)(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen, const uint8_t *pk)
{
    return verify_ctx(sig, siglen, m, mlen, NULL, 0, pk);
}

int TOY_NAME(crypto_sign)(uint8_t *sm, TOY_LEN *smlen, const uint8_t *m, TOY_LEN mlen, const uint8_t *sk)
{
    size_t len = 0;
    int r = sign_ctx(sm, &len, m, (size_t)mlen, NULL, 0, sk);
    *smlen = len;
    return r;
}

int TOY_NAME(crypto_sign_open)(uint8_t *m, TOY_LEN *mlen, const uint8_t *sm, TOY_LEN smlen, const uint8_t *pk)
{
    size_t len = 0;
    int r = open_ctx(m, &len, sm, (size_t)smlen, NULL, 0, pk);
    *mlen = len;
    return r;
}
#endif
