/* SPDX-License-Identifier: MIT */
/* Compat aes.h over pqlab's bitsliced AES. The PQClean context is an array of 64-bit
 * words; pqlab_aes_ctx is copied in and out with memcpy (no type punning), which
 * costs a 484-byte copy per call, small next to the cipher itself. */
#include <string.h>

#include "aes.h"
#include "aes-publicinputs.h"

#include "../common/aes.h"
#include "../common/ct.h"

_Static_assert(sizeof(pqlab_aes_ctx) <= sizeof(aes128ctx), "aes128ctx too small for pqlab_aes_ctx");
_Static_assert(sizeof(pqlab_aes_ctx) <= sizeof(aes128ctx_publicinputs), "aes128ctx_publicinputs too small");

static void keyexp(uint64_t *sk, const unsigned char *key, size_t keylen)
{
    pqlab_aes_ctx c;
    pqlab_aes_keyexp(&c, key, keylen);
    memcpy(sk, &c, sizeof c);
    pqlab_aes_ctx_release(&c);
}

static void ecb(unsigned char *out, const unsigned char *in, size_t nblocks, const uint64_t *sk)
{
    pqlab_aes_ctx c;
    memcpy(&c, sk, sizeof c);
    pqlab_aes_ecb(out, in, nblocks, &c);
    pqlab_aes_ctx_release(&c);
}

static void ctr(unsigned char *out, size_t outlen, const unsigned char *iv, const uint64_t *sk)
{
    pqlab_aes_ctx c;
    memcpy(&c, sk, sizeof c);
    pqlab_aes_ctr(out, outlen, iv, &c);
    pqlab_aes_ctx_release(&c);
}

#define DEFINE_AES(bits)                                                                                               \
    void aes##bits##_ecb_keyexp(aes##bits##ctx *r, const unsigned char *key)                                           \
    {                                                                                                                  \
        keyexp(r->sk_exp, key, AES##bits##_KEYBYTES);                                                                  \
    }                                                                                                                  \
    void aes##bits##_ctr_keyexp(aes##bits##ctx *r, const unsigned char *key)                                           \
    {                                                                                                                  \
        keyexp(r->sk_exp, key, AES##bits##_KEYBYTES);                                                                  \
    }                                                                                                                  \
    void aes##bits##_ecb(unsigned char *out, const unsigned char *in, size_t nblocks, const aes##bits##ctx *ctx)       \
    {                                                                                                                  \
        ecb(out, in, nblocks, ctx->sk_exp);                                                                            \
    }                                                                                                                  \
    void aes##bits##_ctr(unsigned char *out, size_t outlen, const unsigned char *iv, const aes##bits##ctx *ctx)        \
    {                                                                                                                  \
        ctr(out, outlen, iv, ctx->sk_exp);                                                                             \
    }                                                                                                                  \
    void aes##bits##_ctx_release(aes##bits##ctx *r)                                                                    \
    {                                                                                                                  \
        pqlab_zeroize(r, sizeof *r);                                                                                   \
    }

DEFINE_AES(128)
DEFINE_AES(192)
DEFINE_AES(256)

/* aes-publicinputs.h: the same cipher on contexts of their own type */
#define DEFINE_AES_PUBLICINPUTS(bits)                                                                                  \
    void aes##bits##_ecb_keyexp_publicinputs(aes##bits##ctx_publicinputs *r, const unsigned char *key)                 \
    {                                                                                                                  \
        keyexp(r->sk_exp, key, AES##bits##_KEYBYTES);                                                                  \
    }                                                                                                                  \
    void aes##bits##_ctr_keyexp_publicinputs(aes##bits##ctx_publicinputs *r, const unsigned char *key)                 \
    {                                                                                                                  \
        keyexp(r->sk_exp, key, AES##bits##_KEYBYTES);                                                                  \
    }                                                                                                                  \
    void aes##bits##_ecb_publicinputs(unsigned char *out, const unsigned char *in, size_t nblocks,                     \
                                      const aes##bits##ctx_publicinputs *ctx)                                          \
    {                                                                                                                  \
        ecb(out, in, nblocks, ctx->sk_exp);                                                                            \
    }                                                                                                                  \
    void aes##bits##_ctr_publicinputs(unsigned char *out, size_t outlen, const unsigned char *iv,                      \
                                      const aes##bits##ctx_publicinputs *ctx)                                          \
    {                                                                                                                  \
        ctr(out, outlen, iv, ctx->sk_exp);                                                                             \
    }                                                                                                                  \
    void aes##bits##_ctx_release_publicinputs(aes##bits##ctx_publicinputs *r)                                          \
    {                                                                                                                  \
        pqlab_zeroize(r, sizeof *r);                                                                                   \
    }

DEFINE_AES_PUBLICINPUTS(128)
DEFINE_AES_PUBLICINPUTS(192)
DEFINE_AES_PUBLICINPUTS(256)
