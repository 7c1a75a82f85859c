/* SPDX-License-Identifier: MIT */
/* Includes the implementation's api.h (found through -I<impl dir>) and gives the
 * harness plain NIST names whatever the implementation's style:
 *  - pqlab and pqm4/mupq style: plain names (mupq's MUPQ_NAMESPACE and pqlab's
 *    PQLAB_NAMESPACE are resolved inside api.h);
 *  - PQClean style: the build passes -DPQLAB_API_PREFIX=PQCLEAN_<X>_ and the
 *    prefixed functions and CRYPTO_* sizes are mapped here.
 * It also hides the two prototypes of crypto_sign/crypto_sign_open in use (NIST
 * unsigned long long lengths, PQClean/mupq size_t lengths) behind
 * pqlab_api_sign() / pqlab_api_open(), chosen at compile time with _Generic. */
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
