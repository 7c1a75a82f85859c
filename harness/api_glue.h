/* SPDX-License-Identifier: MIT */
/* Includes the implementation's api.h (found through -I<impl dir>) and gives the
 * harness plain NIST names whatever the implementation's style:
 *  - pqlab and pqm4/mupq style: plain names (mupq's MUPQ_NAMESPACE and pqlab's
 *    PQLAB_NAMESPACE are resolved inside api.h);
 *  - PQClean style: the build passes -DPQLAB_API_PREFIX=PQCLEAN_<X>_ and the
 *    prefixed functions and CRYPTO_* sizes are mapped here.
 * It also hides the two prototypes of crypto_sign/crypto_sign_open in use (NIST
 * unsigned long long lengths, PQClean/mupq size_t lengths) behind
 * pqlab_api_sign() / pqlab_api_open(), chosen at compile time with _Generic.
 *
 * Signature API forms (the registry reads api.h and passes what it declares):
 *  - PQLAB_API_SIGN_CTX: crypto_sign_ctx and crypto_sign_open_ctx are declared
 *    (FIPS 204/205 context strings; pqm4's and PQClean's ML-DSA);
 *  - PQLAB_API_SIGNATURE_CTX: crypto_sign_signature_ctx and
 *    crypto_sign_verify_ctx are declared (detached, with context; pqlab's
 *    ML-DSA takes the signing randomness before sk, NULL for hedged);
 *  - PQLAB_API_PLAIN_MACROS: the context-free names are function-like macros
 *    (over the _ctx functions with an empty context), so they can be called but
 *    have no address: pqlab_api_sign/open call them as written;
 *  - PQLAB_API_NO_PLAIN: there are no context-free names at all; the empty
 *    context of the _ctx functions stands for them (FIPS 204 section 5.2: the
 *    context-free call is the one with the empty context string).
 * With PQLAB_API_SIGN_CTX, pqlab_api_sign_ctx / pqlab_api_open_ctx, and with
 * PQLAB_API_SIGNATURE_CTX, pqlab_api_signature_ctx / pqlab_api_verify_ctx
 * exist; the _ctx functions must have the size_t lengths of pqm4, PQClean and
 * pqlab (a static assertion says so otherwise). */
#ifndef PQLAB_API_GLUE_H
#define PQLAB_API_GLUE_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"

#if defined(PQLAB_KIND_KEM) == defined(PQLAB_KIND_SIGN)
#error "compile the harness with exactly one of -DPQLAB_KIND_KEM and -DPQLAB_KIND_SIGN"
#endif

#ifdef PQLAB_API_PREFIX
#define PQLAB_GLUE_(a, b) a##b
#define PQLAB_GLUE(a, b) PQLAB_GLUE_(a, b)
#ifndef CRYPTO_SECRETKEYBYTES
#define CRYPTO_SECRETKEYBYTES PQLAB_GLUE(PQLAB_API_PREFIX, CRYPTO_SECRETKEYBYTES)
#endif
#ifndef CRYPTO_PUBLICKEYBYTES
#define CRYPTO_PUBLICKEYBYTES PQLAB_GLUE(PQLAB_API_PREFIX, CRYPTO_PUBLICKEYBYTES)
#endif
#ifndef CRYPTO_BYTES
#define CRYPTO_BYTES PQLAB_GLUE(PQLAB_API_PREFIX, CRYPTO_BYTES)
#endif
#ifndef CRYPTO_ALGNAME
#define CRYPTO_ALGNAME PQLAB_GLUE(PQLAB_API_PREFIX, CRYPTO_ALGNAME)
#endif
#ifdef PQLAB_KIND_KEM
#ifndef CRYPTO_CIPHERTEXTBYTES
#define CRYPTO_CIPHERTEXTBYTES PQLAB_GLUE(PQLAB_API_PREFIX, CRYPTO_CIPHERTEXTBYTES)
#endif
#define crypto_kem_keypair PQLAB_GLUE(PQLAB_API_PREFIX, crypto_kem_keypair)
#define crypto_kem_enc PQLAB_GLUE(PQLAB_API_PREFIX, crypto_kem_enc)
#define crypto_kem_dec PQLAB_GLUE(PQLAB_API_PREFIX, crypto_kem_dec)
#else
#define crypto_sign_keypair PQLAB_GLUE(PQLAB_API_PREFIX, crypto_sign_keypair)
#define crypto_sign PQLAB_GLUE(PQLAB_API_PREFIX, crypto_sign)
#define crypto_sign_open PQLAB_GLUE(PQLAB_API_PREFIX, crypto_sign_open)
#define crypto_sign_signature PQLAB_GLUE(PQLAB_API_PREFIX, crypto_sign_signature)
#define crypto_sign_verify PQLAB_GLUE(PQLAB_API_PREFIX, crypto_sign_verify)
#define crypto_sign_ctx PQLAB_GLUE(PQLAB_API_PREFIX, crypto_sign_ctx)
#define crypto_sign_open_ctx PQLAB_GLUE(PQLAB_API_PREFIX, crypto_sign_open_ctx)
#define crypto_sign_signature_ctx PQLAB_GLUE(PQLAB_API_PREFIX, crypto_sign_signature_ctx)
#define crypto_sign_verify_ctx PQLAB_GLUE(PQLAB_API_PREFIX, crypto_sign_verify_ctx)
#endif
#endif

#ifndef CRYPTO_ALGNAME
#define CRYPTO_ALGNAME "unknown"
#endif

#ifdef PQLAB_KIND_SIGN
typedef int (*pqlab_sign_ull_fn)(unsigned char *, unsigned long long *, const unsigned char *, unsigned long long,
                                 const unsigned char *);
typedef int (*pqlab_sign_size_fn)(unsigned char *, size_t *, const unsigned char *, size_t, const unsigned char *);

#define PQLAB_IS_ULL_(f) _Generic(&(f), pqlab_sign_ull_fn: 1, default: 0)
#define PQLAB_IS_SIZE_(f) _Generic(&(f), pqlab_sign_size_fn: 1, default: 0)

/* the _ctx prototypes (pqm4, PQClean, pqlab: size_t lengths) */
typedef int (*pqlab_sign_ctx_fn)(uint8_t *, size_t *, const uint8_t *, size_t, const uint8_t *, size_t,
                                 const uint8_t *);
typedef int (*pqlab_verify_ctx_fn)(const uint8_t *, size_t, const uint8_t *, size_t, const uint8_t *, size_t,
                                   const uint8_t *);

#if (defined(PQLAB_API_PLAIN_MACROS) || defined(PQLAB_API_NO_PLAIN)) && !defined(PQLAB_API_SIGN_CTX)
#error "the context-free crypto_sign/crypto_sign_open are missing or macros, but there is no crypto_sign_ctx/crypto_sign_open_ctx"
#endif

#ifdef PQLAB_API_SIGN_CTX
_Static_assert(_Generic(&(crypto_sign_ctx), pqlab_sign_ctx_fn: 1, default: 0),
               "crypto_sign_ctx has not the prototype (sm, size_t *smlen, m, size_t mlen, ctx, size_t ctxlen, sk)");
_Static_assert(_Generic(&(crypto_sign_open_ctx), pqlab_sign_ctx_fn: 1, default: 0),
               "crypto_sign_open_ctx has not the prototype (m, size_t *mlen, sm, size_t smlen, ctx, size_t ctxlen, pk)");

static inline int pqlab_api_sign_ctx(uint8_t *sm, size_t *smlen, const uint8_t *m, size_t mlen, const uint8_t *ctx,
                                     size_t ctxlen, const uint8_t *sk)
{
    return crypto_sign_ctx(sm, smlen, m, mlen, ctx, ctxlen, sk);
}

static inline int pqlab_api_open_ctx(uint8_t *m, size_t *mlen, const uint8_t *sm, size_t smlen, const uint8_t *ctx,
                                     size_t ctxlen, const uint8_t *pk)
{
    return crypto_sign_open_ctx(m, mlen, sm, smlen, ctx, ctxlen, pk);
}
#endif

#ifdef PQLAB_API_SIGNATURE_CTX
/* pqlab's ML-DSA adds the signing randomness (NULL: hedged, from randombytes) before sk */
typedef int (*pqlab_sign_ctx_rnd_fn)(uint8_t *, size_t *, const uint8_t *, size_t, const uint8_t *, size_t,
                                     const uint8_t *, const uint8_t *);
#define PQLAB_SIGCTX_IS_RND_ _Generic(&(crypto_sign_signature_ctx), pqlab_sign_ctx_rnd_fn: 1, default: 0)
_Static_assert(_Generic(&(crypto_sign_signature_ctx), pqlab_sign_ctx_fn: 1, default: 0) + PQLAB_SIGCTX_IS_RND_ == 1,
               "crypto_sign_signature_ctx has neither the prototype (sig, size_t *siglen, m, size_t mlen, ctx, "
               "size_t ctxlen, sk) nor that with rnd before sk");
_Static_assert(_Generic(&(crypto_sign_verify_ctx), pqlab_verify_ctx_fn: 1, default: 0),
               "crypto_sign_verify_ctx has not the prototype (sig, size_t siglen, m, size_t mlen, ctx, size_t ctxlen, pk)");

static inline int pqlab_api_signature_ctx(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen,
                                          const uint8_t *ctx, size_t ctxlen, const uint8_t *sk)
{
    /* only the branch of the function's own prototype is taken */
    pqlab_sign_ctx_rnd_fn with_rnd = _Generic(&(crypto_sign_signature_ctx), pqlab_sign_ctx_rnd_fn
                                              : &(crypto_sign_signature_ctx), default: (pqlab_sign_ctx_rnd_fn)0);
    pqlab_sign_ctx_fn plain = _Generic(&(crypto_sign_signature_ctx), pqlab_sign_ctx_fn
                                       : &(crypto_sign_signature_ctx), default: (pqlab_sign_ctx_fn)0);
    if (PQLAB_SIGCTX_IS_RND_) {
        return with_rnd(sig, siglen, m, mlen, ctx, ctxlen, NULL, sk);
    }
    return plain(sig, siglen, m, mlen, ctx, ctxlen, sk);
}

static inline int pqlab_api_verify_ctx(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen,
                                       const uint8_t *ctx, size_t ctxlen, const uint8_t *pk)
{
    return crypto_sign_verify_ctx(sig, siglen, m, mlen, ctx, ctxlen, pk);
}
#endif

#if defined(PQLAB_API_PLAIN_MACROS)
/* the macros call the _ctx functions (checked above to take size_t lengths) */
static inline int pqlab_api_sign(uint8_t *sm, size_t *smlen, const uint8_t *m, size_t mlen, const uint8_t *sk)
{
    return crypto_sign(sm, smlen, m, mlen, sk);
}

static inline int pqlab_api_open(uint8_t *m, size_t *mlen, const uint8_t *sm, size_t smlen, const uint8_t *pk)
{
    return crypto_sign_open(m, mlen, sm, smlen, pk);
}
#elif defined(PQLAB_API_NO_PLAIN)
static inline int pqlab_api_sign(uint8_t *sm, size_t *smlen, const uint8_t *m, size_t mlen, const uint8_t *sk)
{
    return crypto_sign_ctx(sm, smlen, m, mlen, NULL, 0, sk);
}

static inline int pqlab_api_open(uint8_t *m, size_t *mlen, const uint8_t *sm, size_t smlen, const uint8_t *pk)
{
    return crypto_sign_open_ctx(m, mlen, sm, smlen, NULL, 0, pk);
}
#else
_Static_assert(PQLAB_IS_ULL_(crypto_sign) + PQLAB_IS_SIZE_(crypto_sign) == 1,
               "crypto_sign has neither the NIST (unsigned long long) nor the size_t prototype");
_Static_assert(PQLAB_IS_ULL_(crypto_sign_open) + PQLAB_IS_SIZE_(crypto_sign_open) == 1,
               "crypto_sign_open has neither the NIST (unsigned long long) nor the size_t prototype");

/* PQLAB_AS_*_(f) is &f when f has that prototype and a null pointer of that type
 * otherwise; only the branch whose prototype matches is taken, so every call
 * goes through the function's own type. */
#define PQLAB_AS_ULL_(f) _Generic(&(f), pqlab_sign_ull_fn: &(f), default: (pqlab_sign_ull_fn)0)
#define PQLAB_AS_SIZE_(f) _Generic(&(f), pqlab_sign_size_fn: &(f), default: (pqlab_sign_size_fn)0)
static inline int pqlab_api_sign(uint8_t *sm, size_t *smlen, const uint8_t *m, size_t mlen, const uint8_t *sk)
{
    if (PQLAB_IS_ULL_(crypto_sign)) {
        unsigned long long l = 0;
        int r = PQLAB_AS_ULL_(crypto_sign)(sm, &l, m, mlen, sk);
        *smlen = (size_t)l;
        return r;
    }
    return PQLAB_AS_SIZE_(crypto_sign)(sm, smlen, m, mlen, sk);
}

static inline int pqlab_api_open(uint8_t *m, size_t *mlen, const uint8_t *sm, size_t smlen, const uint8_t *pk)
{
    if (PQLAB_IS_ULL_(crypto_sign_open)) {
        unsigned long long l = 0;
        int r = PQLAB_AS_ULL_(crypto_sign_open)(m, &l, sm, smlen, pk);
        *mlen = (size_t)l;
        return r;
    }
    return PQLAB_AS_SIZE_(crypto_sign_open)(m, mlen, sm, smlen, pk);
}
#endif
#endif

#endif
