/* SPDX-License-Identifier: MIT */
/* Compat fips202.h and keccakf1600.h over pqlab's Keccak module (lib/common/fips202.h).
 * The contexts hold the state in the module's layout (compat_keccak.h), so every
 * permutation is the module's, with no conversion of the whole state. */

#include "fips202.h"
#include "keccakf1600.h"
#include "compat_keccak.h"

#include "../common/ct.h"
#include "../common/fips202.h"

#define DS_SHAKE 0x1F  /* FIPS 202 section 6.2 suffix 1111 + first pad bit */
#define DS_SHA3 0x06   /* FIPS 202 section 6.1 suffix 01 + first pad bit */
#define DS_CSHAKE 0x04 /* SP 800-185 section 3.3 suffix 00 + first pad bit */

/* ---- the state of the contexts: the Keccak module's layout (compat_keccak.h) ----
 * Everything goes through the narrow interface of lib/common/fips202.h, so a context's
 * state is in the module's layout (bit-interleaved with the ARMv7E-M backend) and every
 * permutation is the module's, with no conversion of the whole state. */
void pqlab_compat_keccak_permute(uint64_t s[25])
{
    pqlab_keccak_permute(s);
}

void pqlab_compat_keccak_xorbytes(uint64_t s[25], const uint8_t *in, unsigned int offset, unsigned int len)
{
    pqlab_keccak_xorbytes(s, in, offset, len);
}

void pqlab_compat_keccak_extractbytes(const uint64_t s[25], uint8_t *out, unsigned int offset, unsigned int len)
{
    pqlab_keccak_extractbytes(s, out, offset, len);
}

void pqlab_compat_keccak_finalize(uint64_t s[25], unsigned int pos, unsigned int rate, uint8_t ds)
{
    pqlab_keccak_finalize(s, pos, rate, ds);
}

/* the module's sponge (FIPS 202 section 4) */
unsigned int pqlab_compat_keccak_absorb(uint64_t s[25], unsigned int pos, unsigned int rate, const uint8_t *in,
                                        size_t inlen)
{
    return pqlab_keccak_absorb(s, pos, rate, in, inlen);
}

unsigned int pqlab_compat_keccak_squeeze(uint8_t *out, size_t outlen, uint64_t s[25], unsigned int pos,
                                         unsigned int rate)
{
    return pqlab_keccak_squeeze(out, outlen, s, pos, rate);
}

void pqlab_compat_keccak_squeezeblocks(uint8_t *out, size_t nblocks, uint64_t s[25], unsigned int rate)
{
    pqlab_keccak_squeezeblocks(out, nblocks, s, rate);
}

/* ---- keccakf1600.h: the same layout as the contexts ---- */

void KeccakF1600_StateExtractBytes(uint64_t *state, unsigned char *data, unsigned int offset, unsigned int length)
{
    pqlab_compat_keccak_extractbytes(state, data, offset, length);
}

void KeccakF1600_StateXORBytes(uint64_t *state, const unsigned char *data, unsigned int offset, unsigned int length)
{
    pqlab_compat_keccak_xorbytes(state, data, offset, length);
}

void KeccakF1600_StatePermute(uint64_t *state)
{
    pqlab_compat_keccak_permute(state);
}

/* ---- helpers on (25 lanes, position word) ---- */

/* word-wise zeroing: a plain loop becomes a call of picolibc's byte-wise memset */
static void inc_init(uint64_t *s)
{
    pqlab_memzero_words(s, 26 * sizeof s[0]);
}

static void inc_absorb(uint64_t *s, unsigned int rate, const uint8_t *in, size_t inlen)
{
    s[25] = pqlab_compat_keccak_absorb(s, (unsigned int)s[25], rate, in, inlen);
}

/* The position word has PQClean's and pqm4's meaning, which foreign code relies on (AIMer's
 * m4speed skips squeezed output by lowering it): while absorbing, the bytes absorbed into the
 * current block; after finalize and while squeezing, the bytes of the current block NOT yet
 * squeezed (0 right after finalize: the next squeeze permutes first). */
static void inc_finalize(uint64_t *s, unsigned int rate, uint8_t ds)
{
    pqlab_compat_keccak_finalize(s, (unsigned int)s[25], rate, ds);
    s[25] = 0;
}

static void inc_squeeze(uint8_t *out, size_t outlen, uint64_t *s, unsigned int rate)
{
    s[25] = rate - pqlab_compat_keccak_squeeze(out, outlen, s, rate - (unsigned int)s[25], rate);
}

/* absorb-once on a 25-lane context */
static void absorb_once(uint64_t *s, unsigned int rate, const uint8_t *in, size_t inlen, uint8_t ds)
{
    pqlab_memzero_words(s, 25 * sizeof s[0]);
    const unsigned int pos = pqlab_compat_keccak_absorb(s, 0, rate, in, inlen);
    pqlab_compat_keccak_finalize(s, pos, rate, ds);
}

/* squeeze any length from an absorb-once context: whole blocks, then a part block
 * (the context is not usable afterwards, as in mupq) */
static void squeeze_once(uint8_t *out, size_t outlen, uint64_t *s, unsigned int rate)
{
    const size_t nblocks = outlen / rate;
    pqlab_compat_keccak_squeezeblocks(out, nblocks, s, rate);
    out += nblocks * rate;
    outlen -= nblocks * rate;
    if (outlen > 0) {
        pqlab_compat_keccak_permute(s);
        pqlab_compat_keccak_extractbytes(s, out, 0, (unsigned int)outlen);
    }
}

/* cSHAKE with N = "" and S = cstm as two little-endian bytes: the first block is
 * bytepad(left_encode(0) || left_encode(16) || S, rate) (SP 800-185 sections 2.3, 3.3) */
static void cshake_simple_absorb(uint64_t *s, unsigned int rate, uint16_t cstm, const uint8_t *in, size_t inlen)
{
    uint8_t prefix[8];
    prefix[0] = 0x01;          /* left_encode(rate): one byte */
    prefix[1] = (uint8_t)rate; /*   168 or 136 */
    prefix[2] = 0x01;          /* left_encode(0): empty name */
    prefix[3] = 0x00;
    prefix[4] = 0x01; /* left_encode(16): 16-bit customization */
    prefix[5] = 0x10;
    prefix[6] = (uint8_t)cstm;
    prefix[7] = (uint8_t)(cstm >> 8);
    pqlab_memzero_words(s, 25 * sizeof s[0]);
    pqlab_compat_keccak_xorbytes(s, prefix, 0, sizeof prefix);
    pqlab_compat_keccak_permute(s); /* zero padding up to the rate adds nothing to the state */
    const unsigned int pos = pqlab_compat_keccak_absorb(s, 0, rate, in, inlen);
    pqlab_compat_keccak_finalize(s, pos, rate, DS_CSHAKE);
}

#define DEFINE_SHAKE(name, rate)                                                                                       \
    void name##_absorb(name##ctx *state, const uint8_t *input, size_t inlen)                                           \
    {                                                                                                                  \
        absorb_once(state->ctx, (rate), input, inlen, DS_SHAKE);                                                       \
    }                                                                                                                  \
    void name##_squeezeblocks(uint8_t *output, size_t nblocks, name##ctx *state)                                       \
    {                                                                                                                  \
        pqlab_compat_keccak_squeezeblocks(output, nblocks, state->ctx, (rate));                                        \
    }                                                                                                                  \
    void name##_ctx_release(name##ctx *state)                                                                          \
    {                                                                                                                  \
        pqlab_zeroize(state, sizeof *state);                                                                           \
    }                                                                                                                  \
    void name##_ctx_clone(name##ctx *dest, const name##ctx *src)                                                       \
    {                                                                                                                  \
        pqlab_memcpy_words(dest, src, sizeof *dest);                                                                   \
    }                                                                                                                  \
    void c##name##_simple_absorb(name##ctx *state, uint16_t cstm, const uint8_t *input, size_t inlen)                  \
    {                                                                                                                  \
        cshake_simple_absorb(state->ctx, (rate), cstm, input, inlen);                                                  \
    }                                                                                                                  \
    void c##name##_simple_squeezeblocks(uint8_t *output, size_t nblocks, name##ctx *state)                             \
    {                                                                                                                  \
        pqlab_compat_keccak_squeezeblocks(output, nblocks, state->ctx, (rate));                                        \
    }                                                                                                                  \
    void c##name##_simple(uint8_t *output, size_t outlen, uint16_t cstm, const uint8_t *input, size_t inlen)           \
    {                                                                                                                  \
        name##ctx st;                                                                                                  \
        cshake_simple_absorb(st.ctx, (rate), cstm, input, inlen);                                                      \
        squeeze_once(output, outlen, st.ctx, (rate));                                                                  \
    }                                                                                                                  \
    void name##_inc_init(name##incctx *state)                                                                          \
    {                                                                                                                  \
        inc_init(state->ctx);                                                                                          \
    }                                                                                                                  \
    void name##_inc_absorb(name##incctx *state, const uint8_t *input, size_t inlen)                                    \
    {                                                                                                                  \
        inc_absorb(state->ctx, (rate), input, inlen);                                                                  \
    }                                                                                                                  \
    void name##_inc_finalize(name##incctx *state)                                                                      \
    {                                                                                                                  \
        inc_finalize(state->ctx, (rate), DS_SHAKE);                                                                    \
    }                                                                                                                  \
    void name##_inc_squeeze(uint8_t *output, size_t outlen, name##incctx *state)                                       \
    {                                                                                                                  \
        inc_squeeze(output, outlen, state->ctx, (rate));                                                               \
    }                                                                                                                  \
    void name##_inc_ctx_clone(name##incctx *dest, const name##incctx *src)                                             \
    {                                                                                                                  \
        pqlab_memcpy_words(dest, src, sizeof *dest);                                                                   \
    }                                                                                                                  \
    void name##_inc_ctx_release(name##incctx *state)                                                                   \
    {                                                                                                                  \
        pqlab_zeroize(state, sizeof *state);                                                                           \
    }                                                                                                                  \
    void name(uint8_t *output, size_t outlen, const uint8_t *input, size_t inlen)                                      \
    {                                                                                                                  \
        pqlab_##name(output, outlen, input, inlen); /* the backend's state layout throughout */                        \
    }

DEFINE_SHAKE(shake128, SHAKE128_RATE)
DEFINE_SHAKE(shake256, SHAKE256_RATE)

#define DEFINE_SHA3(name, rate, outbytes)                                                                              \
    void name##_inc_init(name##incctx *state)                                                                          \
    {                                                                                                                  \
        inc_init(state->ctx);                                                                                          \
    }                                                                                                                  \
    void name##_inc_absorb(name##incctx *state, const uint8_t *input, size_t inlen)                                    \
    {                                                                                                                  \
        inc_absorb(state->ctx, (rate), input, inlen);                                                                  \
    }                                                                                                                  \
    void name##_inc_finalize(uint8_t *output, name##incctx *state)                                                     \
    {                                                                                                                  \
        inc_finalize(state->ctx, (rate), DS_SHA3);                                                                     \
        inc_squeeze(output, (outbytes), state->ctx, (rate));                                                           \
    }                                                                                                                  \
    void name##_inc_ctx_clone(name##incctx *dest, const name##incctx *src)                                             \
    {                                                                                                                  \
        pqlab_memcpy_words(dest, src, sizeof *dest);                                                                   \
    }                                                                                                                  \
    void name##_inc_ctx_release(name##incctx *state)                                                                   \
    {                                                                                                                  \
        pqlab_zeroize(state, sizeof *state);                                                                           \
    }                                                                                                                  \
    void name(uint8_t *output, const uint8_t *input, size_t inlen)                                                     \
    {                                                                                                                  \
        pqlab_##name(output, input, inlen);                                                                            \
    }

DEFINE_SHA3(sha3_256, SHA3_256_RATE, 32)
DEFINE_SHA3(sha3_384, SHA3_384_RATE, 48)
DEFINE_SHA3(sha3_512, SHA3_512_RATE, 64)
