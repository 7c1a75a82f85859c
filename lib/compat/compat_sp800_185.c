/* SPDX-License-Identifier: MIT */
/* Compat sp800-185.h: cSHAKE128/256, NIST SP 800-185 section 3, on the compat sponge
 * (compat_keccak.h: the contexts hold the backend's native state layout, as those of
 * fips202.h). */
#include "sp800-185.h"
#include "compat_keccak.h"

#include "../common/ct.h"

/* left_encode(x) of SP 800-185 section 2.3.1: byte count n (1..8), then x big-endian
 * in n bytes (at least one byte, so 0 encodes as 01 00). Returns the length. */
static unsigned int left_encode(uint8_t buf[9], uint64_t x)
{
    unsigned int n = 1;
    while (n < 8 && (x >> (8 * n)) != 0) {
        n++;
    }
    buf[0] = (uint8_t)n;
    for (unsigned int i = 1; i <= n; i++) {
        buf[i] = (uint8_t)(x >> (8 * (n - i)));
    }
    return n + 1;
}

/* absorbs bytepad(encode_string(N) || encode_string(S), rate) (sections 2.3.2, 2.3.3);
 * encode_string(X) = left_encode(8 * len(X)) || X */
static void cshake_init(uint64_t *s, unsigned int rate, const uint8_t *name, size_t namelen, const uint8_t *cstm,
                        size_t cstmlen)
{
    uint8_t enc[9];
    unsigned int pos = 0;
    pqlab_memzero_words(s, 26 * sizeof s[0]); /* not picolibc's byte-wise memset */
    pos = pqlab_compat_keccak_absorb(s, pos, rate, enc, left_encode(enc, rate));
    pos = pqlab_compat_keccak_absorb(s, pos, rate, enc, left_encode(enc, (uint64_t)namelen * 8));
    pos = pqlab_compat_keccak_absorb(s, pos, rate, name, namelen);
    pos = pqlab_compat_keccak_absorb(s, pos, rate, enc, left_encode(enc, (uint64_t)cstmlen * 8));
    pos = pqlab_compat_keccak_absorb(s, pos, rate, cstm, cstmlen);
    if (pos != 0) { /* zero bytes up to the block end: nothing to XOR, just permute */
        pqlab_compat_keccak_permute(s);
    }
    s[25] = 0;
}

#define DEFINE_CSHAKE(name, shake, rate)                                                                               \
    void name##_inc_init(shake##incctx *state, const uint8_t *n, size_t namelen, const uint8_t *cstm, size_t cstmlen)  \
    {                                                                                                                  \
        cshake_init(state->ctx, (rate), n, namelen, cstm, cstmlen);                                                    \
    }                                                                                                                  \
    void name##_inc_absorb(shake##incctx *state, const uint8_t *input, size_t inlen)                                   \
    {                                                                                                                  \
        state->ctx[25] = pqlab_compat_keccak_absorb(state->ctx, (unsigned int)state->ctx[25], (rate), input, inlen);   \
    }                                                                                                                  \
    void name##_inc_finalize(shake##incctx *state)                                                                     \
    {                                                                                                                  \
        pqlab_compat_keccak_finalize(state->ctx, (unsigned int)state->ctx[25], (rate), 0x04);                          \
        state->ctx[25] = 0; /* bytes left to squeeze in the block (compat_fips202.c) */                                \
    }                                                                                                                  \
    void name##_inc_squeeze(uint8_t *output, size_t outlen, shake##incctx *state)                                      \
    {                                                                                                                  \
        state->ctx[25] = (rate) - pqlab_compat_keccak_squeeze(output, outlen, state->ctx,                              \
                                                              (rate) - (unsigned int)state->ctx[25], (rate));          \
    }                                                                                                                  \
    void name##_inc_ctx_release(shake##incctx *state)                                                                  \
    {                                                                                                                  \
        pqlab_zeroize(state, sizeof *state);                                                                           \
    }                                                                                                                  \
    void name##_inc_ctx_clone(shake##incctx *dest, const shake##incctx *src)                                           \
    {                                                                                                                  \
        pqlab_memcpy_words(dest, src, sizeof *dest);                                                                   \
    }                                                                                                                  \
    void name(uint8_t *output, size_t outlen, const uint8_t *n, size_t namelen, const uint8_t *cstm, size_t cstmlen,   \
              const uint8_t *input, size_t inlen)                                                                      \
    {                                                                                                                  \
        shake##incctx st;                                                                                              \
        name##_inc_init(&st, n, namelen, cstm, cstmlen);                                                               \
        name##_inc_absorb(&st, input, inlen);                                                                          \
        name##_inc_finalize(&st);                                                                                      \
        name##_inc_squeeze(output, outlen, &st);                                                                       \
    }

DEFINE_CSHAKE(cshake128, shake128, SHAKE128_RATE)
DEFINE_CSHAKE(cshake256, shake256, SHAKE256_RATE)
