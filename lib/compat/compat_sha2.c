/* SPDX-License-Identifier: MIT */
/* Compat sha2.h over pqlab's FIPS 180-4 code. The context holds the chaining value and
 * the byte count in the machine's word order; every call loads it, works on whole
 * blocks with pqlab_sha256/512_compress, and stores it back. */
#include <string.h>

#include "sha2.h"

#include "../common/ct.h"
#include "../common/sha2.h"

_Static_assert(sizeof(((pqlab_sha256_state *)0)->h) + sizeof(uint64_t) == PQC_SHA256CTX_BYTES,
               "sha256ctx holds h and the count");
_Static_assert(sizeof(((pqlab_sha512_state *)0)->h) + sizeof(uint64_t) == PQC_SHA512CTX_BYTES,
               "sha512ctx holds h and the count");

/* ---- SHA-224 / SHA-256: 32-byte chaining value + 8-byte count ---- */

/* The context holds the state's chaining value and byte count as they are in memory
 * (no byte-order conversion: only these functions read it); the context is a byte
 * array of any alignment, so they are moved with fixed-size memcpy, which the
 * compiler expands inline. */
static void ctx256_load(pqlab_sha256_state *st, const uint8_t *ctx)
{
    memcpy(st->h, ctx, sizeof st->h);
    memcpy(&st->nbytes, ctx + sizeof st->h, sizeof st->nbytes);
    st->buflen = 0;
}

static void ctx256_store(uint8_t *ctx, const pqlab_sha256_state *st)
{
    memcpy(ctx, st->h, sizeof st->h);
    memcpy(ctx + sizeof st->h, &st->nbytes, sizeof st->nbytes);
}

static void blocks256(uint8_t *ctx, const uint8_t *in, size_t inblocks)
{
    pqlab_sha256_state st;
    ctx256_load(&st, ctx);
    pqlab_sha256_compress(st.h, in, inblocks);
    st.nbytes += (uint64_t)inblocks * 64;
    ctx256_store(ctx, &st);
    pqlab_zeroize(&st, sizeof st);
}

void sha224_inc_init(sha224ctx *state)
{
    pqlab_sha256_state st;
    pqlab_sha224_init(&st);
    ctx256_store(state->ctx, &st);
}

void sha256_inc_init(sha256ctx *state)
{
    pqlab_sha256_state st;
    pqlab_sha256_init(&st);
    ctx256_store(state->ctx, &st);
}

void sha224_inc_ctx_clone(sha224ctx *stateout, const sha224ctx *statein)
{
    memcpy(stateout->ctx, statein->ctx, sizeof stateout->ctx);
}
void sha256_inc_ctx_clone(sha256ctx *stateout, const sha256ctx *statein)
{
    memcpy(stateout->ctx, statein->ctx, sizeof stateout->ctx);
}

void sha224_inc_blocks(sha224ctx *state, const uint8_t *in, size_t inblocks)
{
    blocks256(state->ctx, in, inblocks);
}
void sha256_inc_blocks(sha256ctx *state, const uint8_t *in, size_t inblocks)
{
    blocks256(state->ctx, in, inblocks);
}

void sha224_inc_finalize(uint8_t *out, sha224ctx *state, const uint8_t *in, size_t inlen)
{
    pqlab_sha256_state st;
    ctx256_load(&st, state->ctx);
    pqlab_sha256_update(&st, in, inlen);
    pqlab_sha224_final(out, &st);
    pqlab_zeroize(&st, sizeof st);
}
void sha256_inc_finalize(uint8_t *out, sha256ctx *state, const uint8_t *in, size_t inlen)
{
    pqlab_sha256_state st;
    ctx256_load(&st, state->ctx);
    pqlab_sha256_update(&st, in, inlen);
    pqlab_sha256_final(out, &st);
    pqlab_zeroize(&st, sizeof st);
}

void sha224_inc_ctx_release(sha224ctx *state)
{
    pqlab_zeroize(state, sizeof *state);
}
void sha256_inc_ctx_release(sha256ctx *state)
{
    pqlab_zeroize(state, sizeof *state);
}

void sha224(uint8_t *out, const uint8_t *in, size_t inlen)
{
    pqlab_sha224(out, in, inlen);
}
void sha256(uint8_t *out, const uint8_t *in, size_t inlen)
{
    pqlab_sha256(out, in, inlen);
}

/* ---- SHA-384 / SHA-512: 64-byte chaining value + 8-byte count ---- */

static void ctx512_load(pqlab_sha512_state *st, const uint8_t *ctx)
{
    memcpy(st->h, ctx, sizeof st->h);
    memcpy(&st->nbytes, ctx + sizeof st->h, sizeof st->nbytes);
    st->buflen = 0;
}

static void ctx512_store(uint8_t *ctx, const pqlab_sha512_state *st)
{
    memcpy(ctx, st->h, sizeof st->h);
    memcpy(ctx + sizeof st->h, &st->nbytes, sizeof st->nbytes);
}

static void blocks512(uint8_t *ctx, const uint8_t *in, size_t inblocks)
{
    pqlab_sha512_state st;
    ctx512_load(&st, ctx);
    pqlab_sha512_compress(st.h, in, inblocks);
    st.nbytes += (uint64_t)inblocks * 128;
    ctx512_store(ctx, &st);
    pqlab_zeroize(&st, sizeof st);
}

void sha384_inc_init(sha384ctx *state)
{
    pqlab_sha512_state st;
    pqlab_sha384_init(&st);
    ctx512_store(state->ctx, &st);
}

void sha512_inc_init(sha512ctx *state)
{
    pqlab_sha512_state st;
    pqlab_sha512_init(&st);
    ctx512_store(state->ctx, &st);
}

void sha384_inc_ctx_clone(sha384ctx *stateout, const sha384ctx *statein)
{
    memcpy(stateout->ctx, statein->ctx, sizeof stateout->ctx);
}
void sha512_inc_ctx_clone(sha512ctx *stateout, const sha512ctx *statein)
{
    memcpy(stateout->ctx, statein->ctx, sizeof stateout->ctx);
}

void sha384_inc_blocks(sha384ctx *state, const uint8_t *in, size_t inblocks)
{
    blocks512(state->ctx, in, inblocks);
}
void sha512_inc_blocks(sha512ctx *state, const uint8_t *in, size_t inblocks)
{
    blocks512(state->ctx, in, inblocks);
}

void sha384_inc_finalize(uint8_t *out, sha384ctx *state, const uint8_t *in, size_t inlen)
{
    pqlab_sha512_state st;
    ctx512_load(&st, state->ctx);
    pqlab_sha512_update(&st, in, inlen);
    pqlab_sha384_final(out, &st);
    pqlab_zeroize(&st, sizeof st);
}
void sha512_inc_finalize(uint8_t *out, sha512ctx *state, const uint8_t *in, size_t inlen)
{
    pqlab_sha512_state st;
    ctx512_load(&st, state->ctx);
    pqlab_sha512_update(&st, in, inlen);
    pqlab_sha512_final(out, &st);
    pqlab_zeroize(&st, sizeof st);
}

void sha384_inc_ctx_release(sha384ctx *state)
{
    pqlab_zeroize(state, sizeof *state);
}
void sha512_inc_ctx_release(sha512ctx *state)
{
    pqlab_zeroize(state, sizeof *state);
}

void sha384(uint8_t *out, const uint8_t *in, size_t inlen)
{
    pqlab_sha384(out, in, inlen);
}
void sha512(uint8_t *out, const uint8_t *in, size_t inlen)
{
    pqlab_sha512(out, in, inlen);
}
