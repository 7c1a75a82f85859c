/* SPDX-License-Identifier: MIT */
/* SHA-2 instantiation of the SLH-DSA hash layer (FIPS 205 section 11.2).
 * Category 1 (n = 16, section 11.2.1):
 *   H_msg   = MGF1-SHA-256(R || PK.seed || SHA-256(R || PK.seed || PK.root || M), m)
 *   PRF     = Trunc_n(SHA-256(PK.seed || toByte(0, 64 - n) || ADRSc || SK.seed))
 *   PRF_msg = Trunc_n(HMAC-SHA-256(SK.prf, opt_rand || M))
 *   F, H, T_l = Trunc_n(SHA-256(PK.seed || toByte(0, 64 - n) || ADRSc || M))
 * Categories 3 and 5 (n = 24, 32, section 11.2.2): H_msg with MGF1-SHA-512 and SHA-512,
 * PRF_msg with HMAC-SHA-512, H and T_l with SHA-512 and toByte(0, 128 - n); F and PRF
 * stay SHA-256.
 * ADRSc is the 22-byte compressed address (section 11.2): ADRS[3] || ADRS[8:16] ||
 * ADRS[19] || ADRS[20:32].
 * The first block PK.seed || zeros is the same for every call of an operation: its
 * compression is done once in slh_ctx_init (the midstate). F and PRF then cost one
 * compression: 22 + n + 1 + 8 <= 63 bytes fit the second block; so does H for n = 16
 * (22 + 32 + 9 = 63) and H with SHA-512 for n = 24, 32 (22 + 64 + 1 + 16 = 103 <= 128). */
#include "params.h"

#ifdef PQLAB_SLHDSA_HASH_SHA2

#include <string.h>

#include "ct.h"
#include "hash.h"
#include "sha2.h"

static void slh_store32_be(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static void slh_store64_be(uint8_t *p, uint64_t v)
{
    slh_store32_be(p, (uint32_t)(v >> 32));
    slh_store32_be(p + 4, (uint32_t)v);
}

static void compress_adrs(uint8_t c[22], const slh_adrs *a)
{
    c[0] = a->b[3];
    memcpy(c + 1, a->b + 8, 8);
    c[9] = a->b[19];
    memcpy(c + 10, a->b + 20, 12);
}

void slh_ctx_init(slh_ctx *ctx, const uint8_t *pk_seed, const uint8_t *sk_seed)
{
    pqlab_sha256_state s256;
    uint8_t block[128];

    memcpy(ctx->pk_seed, pk_seed, SLH_N);
    if (sk_seed != NULL) {
        memcpy(ctx->sk_seed, sk_seed, SLH_N);
    } else {
        memset(ctx->sk_seed, 0, SLH_N);
    }
    memset(block, 0, sizeof block);
    memcpy(block, pk_seed, SLH_N);
    pqlab_sha256_init(&s256);
    memcpy(ctx->mid256, s256.h, sizeof ctx->mid256);
    pqlab_sha256_compress(ctx->mid256, block, 1);
#if SLH_N > 16
    {
        pqlab_sha512_state s512;
        pqlab_sha512_init(&s512);
        memcpy(ctx->mid512, s512.h, sizeof ctx->mid512);
        pqlab_sha512_compress(ctx->mid512, block, 1);
    }
#endif
}

void slh_ctx_clear(slh_ctx *ctx)
{
    pqlab_zeroize(ctx, sizeof *ctx);
}

/* Trunc_n(SHA-256(first block || ADRSc || in)) with 22 + inlen <= 55: one compression */
static void sha256_oneblock(uint8_t *out, const slh_ctx *ctx, const slh_adrs *adrs, const uint8_t *in,
                            unsigned int inlen)
{
    uint8_t blk[64];
    uint32_t h[8];
    unsigned int len = 22 + inlen;

    compress_adrs(blk, adrs);
    memcpy(blk + 22, in, inlen);
    blk[len] = 0x80;
    memset(blk + len + 1, 0, 64 - 8 - (len + 1));
    slh_store64_be(blk + 56, (uint64_t)(64 + len) * 8);
    memcpy(h, ctx->mid256, sizeof h);
    pqlab_sha256_compress(h, blk, 1);
    for (unsigned int i = 0; i < SLH_N / 4; i++) {
        slh_store32_be(out + 4 * i, h[i]);
    }
}

#if SLH_N > 16
/* Trunc_n(SHA-512(first block || ADRSc || in)) with 22 + inlen <= 111: one compression */
static void sha512_oneblock(uint8_t *out, const slh_ctx *ctx, const slh_adrs *adrs, const uint8_t *in,
                            unsigned int inlen)
{
    uint8_t blk[128];
    uint64_t h[8];
    unsigned int len = 22 + inlen;

    compress_adrs(blk, adrs);
    memcpy(blk + 22, in, inlen);
    blk[len] = 0x80;
    memset(blk + len + 1, 0, 128 - 8 - (len + 1));
    slh_store64_be(blk + 120, (uint64_t)(128 + len) * 8); /* upper 64 bits of the length: 0 */
    memcpy(h, ctx->mid512, sizeof h);
    pqlab_sha512_compress(h, blk, 1);
    for (unsigned int i = 0; i < SLH_N / 8; i++) {
        slh_store64_be(out + 8 * i, h[i]);
    }
}
#endif

void slh_F(uint8_t *out, const slh_ctx *ctx, const slh_adrs *adrs, const uint8_t *in)
{
    sha256_oneblock(out, ctx, adrs, in, SLH_N);
}

void slh_H(uint8_t *out, const slh_ctx *ctx, const slh_adrs *adrs, const uint8_t *in)
{
#if SLH_N == 16
    sha256_oneblock(out, ctx, adrs, in, 2 * SLH_N);
#else
    sha512_oneblock(out, ctx, adrs, in, 2 * SLH_N);
#endif
}

void slh_PRF(uint8_t *out, const slh_ctx *ctx, const slh_adrs *adrs)
{
    sha256_oneblock(out, ctx, adrs, ctx->sk_seed, SLH_N);
}

/* no multi-lane SHA-2 kernel: lanes run one after another */
void slh_F_x4(uint8_t *const out[4], const slh_ctx *ctx, const slh_adrs adrs[4], const uint8_t *const in[4],
              unsigned int nlanes)
{
    for (unsigned int i = 0; i < nlanes; i++) {
        sha256_oneblock(out[i], ctx, &adrs[i], in[i] != NULL ? in[i] : ctx->sk_seed, SLH_N);
    }
}

/* chain (Algorithm 5): one compression per step. The second block ADRSc || value ||
 * padding is built once; a step changes only the hash address (the last byte of ADRSc:
 * ADRS bytes 28..31 are the hash address, big-endian, below w = 16) and writes its output
 * straight into the value bytes of the next step's block. */
void slh_chain(uint8_t *out, const uint8_t *in, unsigned int start, unsigned int steps, const slh_ctx *ctx,
               const slh_adrs *adrs)
{
    uint8_t blk[64];
    uint32_t h[8];
    const unsigned int len = 22 + SLH_N;

    compress_adrs(blk, adrs);
    memcpy(blk + 22, in, SLH_N);
    blk[len] = 0x80;
    memset(blk + len + 1, 0, 64 - 8 - (len + 1));
    slh_store64_be(blk + 56, (uint64_t)(64 + len) * 8);
    blk[18] = blk[19] = blk[20] = 0;
    for (unsigned int j = start; j < start + steps; j++) {
        blk[21] = (uint8_t)j;
        memcpy(h, ctx->mid256, sizeof h);
        pqlab_sha256_compress(h, blk, 1);
        for (unsigned int i = 0; i < SLH_N / 4; i++) {
            slh_store32_be(blk + 22 + 4 * i, h[i]);
        }
    }
    memcpy(out, blk + 22, SLH_N);
}

/* T_l resumes from the midstate: the state has absorbed exactly one whole block */
void slh_T_init(slh_thash_state *st, const slh_ctx *ctx, const slh_adrs *adrs)
{
    uint8_t c[22];
    compress_adrs(c, adrs);
#if SLH_N == 16
    memcpy(st->sha.h, ctx->mid256, sizeof st->sha.h);
    st->sha.nbytes = 64;
    st->sha.buflen = 0;
    pqlab_sha256_update(&st->sha, c, sizeof c);
#else
    memcpy(st->sha.h, ctx->mid512, sizeof st->sha.h);
    st->sha.nbytes = 128;
    st->sha.buflen = 0;
    pqlab_sha512_update(&st->sha, c, sizeof c);
#endif
}

void slh_T_update(slh_thash_state *st, const uint8_t *in, size_t inlen)
{
#if SLH_N == 16
    pqlab_sha256_update(&st->sha, in, inlen);
#else
    pqlab_sha512_update(&st->sha, in, inlen);
#endif
}

void slh_T_final(uint8_t *out, slh_thash_state *st)
{
#if SLH_N == 16
    uint8_t d[32];
    pqlab_sha256_final(d, &st->sha);
#else
    uint8_t d[64];
    pqlab_sha512_final(d, &st->sha);
#endif
    memcpy(out, d, SLH_N);
}

#if SLH_N == 16
/* SHA-256 for category 1 */
#define HB 64 /* block bytes */
#define HD 32 /* digest bytes */
typedef pqlab_sha256_state hstate;
#define h_init pqlab_sha256_init
#define h_update pqlab_sha256_update
#define h_final pqlab_sha256_final
#else
/* SHA-512 for categories 3 and 5 */
#define HB 128
#define HD 64
typedef pqlab_sha512_state hstate;
#define h_init pqlab_sha512_init
#define h_update pqlab_sha512_update
#define h_final pqlab_sha512_final
#endif

/* HMAC (FIPS 198-1) with an n-byte key, shorter than the block: K0 = key || zeros */
void slh_PRF_msg(uint8_t *out, const uint8_t *sk_prf, const uint8_t *opt_rand, const uint8_t *hdr, size_t hdrlen,
                 const uint8_t *m, size_t mlen)
{
    uint8_t pad[HB];
    uint8_t inner[HD];
    hstate st;
    unsigned int i;

    memset(pad, 0x36, HB);
    for (i = 0; i < SLH_N; i++) {
        pad[i] ^= sk_prf[i];
    }
    h_init(&st);
    h_update(&st, pad, HB);
    h_update(&st, opt_rand, SLH_N);
    h_update(&st, hdr, hdrlen);
    h_update(&st, m, mlen);
    h_final(inner, &st);

    memset(pad, 0x5c, HB);
    for (i = 0; i < SLH_N; i++) {
        pad[i] ^= sk_prf[i];
    }
    h_init(&st);
    h_update(&st, pad, HB);
    h_update(&st, inner, HD);
    h_final(inner, &st);
    memcpy(out, inner, SLH_N);

    pqlab_zeroize(pad, sizeof pad);
    pqlab_zeroize(inner, sizeof inner);
    pqlab_zeroize(&st, sizeof st);
}

/* H_msg = MGF1-Hash(R || PK.seed || Hash(R || PK.seed || PK.root || M), m);
 * MGF1 (RFC 8017 B.2.1): Hash(seed || I2OSP(counter, 4)) for counter = 0, 1, ... */
void slh_H_msg(uint8_t *out, const uint8_t *r, const uint8_t *pk_seed, const uint8_t *pk_root, const uint8_t *hdr,
               size_t hdrlen, const uint8_t *m, size_t mlen)
{
    uint8_t seed[2 * SLH_N + HD + 4];
    uint8_t d[HD];
    hstate st;
    unsigned int done = 0;
    uint32_t ctr = 0;

    h_init(&st);
    h_update(&st, r, SLH_N);
    h_update(&st, pk_seed, SLH_N);
    h_update(&st, pk_root, SLH_N);
    h_update(&st, hdr, hdrlen);
    h_update(&st, m, mlen);
    h_final(seed + 2 * SLH_N, &st);
    memcpy(seed, r, SLH_N);
    memcpy(seed + SLH_N, pk_seed, SLH_N);
    while (done < SLH_M) {
        unsigned int take = SLH_M - done < HD ? SLH_M - done : HD;
        slh_store32_be(seed + 2 * SLH_N + HD, ctr);
        h_init(&st);
        h_update(&st, seed, sizeof seed);
        h_final(d, &st);
        memcpy(out + done, d, take);
        done += take;
        ctr++;
    }
}

#else
/* ISO C forbids an empty translation unit */
typedef int pqlab_slhdsa_hash_sha2_unused;
#endif
