/* SPDX-License-Identifier: MIT */
/* SHAKE instantiation of the SLH-DSA hash layer (FIPS 205 section 11.1):
 *   H_msg(R, PK.seed, PK.root, M) = SHAKE256(R || PK.seed || PK.root || M, 8m)
 *   PRF(PK.seed, SK.seed, ADRS)   = SHAKE256(PK.seed || ADRS || SK.seed, 8n)
 *   PRF_msg(SK.prf, opt_rand, M)  = SHAKE256(SK.prf || opt_rand || M, 8n)
 *   F, H, T_l(PK.seed, ADRS, M)   = SHAKE256(PK.seed || ADRS || M, 8n)
 * F, H and PRF inputs are at most 32 + 32 + 64 = 128 bytes, less than the rate of 136
 * bytes, so each is one Keccak-f[1600] call on a state built lane by lane. */
#include "params.h"

#ifdef PQLAB_SLHDSA_HASH_SHAKE

#include <string.h>

#include "ct.h"
#include "fips202.h"
#include "fips202x4.h"
#include "hash.h"

#if defined(PQLAB_KECCAKX4_NATIVE) || defined(PQLAB_KECCAKF1600X4_NATIVE) || \
    defined(PQLAB_SLHDSA_FORCE_X4)
#define SLH_USE_X4 1
#endif

static uint64_t load64_le(const uint8_t *p)
{
    uint64_t r = 0;
    for (int i = 7; i >= 0; i--) {
        r = (r << 8) | p[i];
    }
    return r;
}

static void store64_le(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) {
        p[i] = (uint8_t)(v >> (8 * i));
    }
}

void slh_ctx_init(slh_ctx *ctx, const uint8_t *pk_seed, const uint8_t *sk_seed)
{
    memcpy(ctx->pk_seed, pk_seed, SLH_N);
    if (sk_seed != NULL) {
        memcpy(ctx->sk_seed, sk_seed, SLH_N);
    } else {
        memset(ctx->sk_seed, 0, SLH_N);
    }
    for (unsigned int i = 0; i < SLH_N / 8; i++) {
        ctx->seed_lanes[i] = load64_le(pk_seed + 8 * i);
    }
}

void slh_ctx_clear(slh_ctx *ctx)
{
    pqlab_zeroize(ctx, sizeof *ctx);
}

/* SHAKE256(PK.seed || ADRS || in, 8n) for inlen in {n, 2n}: the input fits one rate
 * block (n + 32 + 2n <= 128 < 136), so absorb is a lane-wise copy, then the SHAKE
 * padding: domain bits 1111 and pad10*1 give 0x1F after the message and 0x80 in the
 * last byte of the rate (byte 135 = top byte of lane 16). */
static void shake_oneblock(uint8_t *out, const slh_ctx *ctx, const slh_adrs *adrs,
                           const uint8_t *in, unsigned int inlen)
{
    uint64_t s[25];
    unsigned int l = 0;
    unsigned int i;

    for (i = 0; i < SLH_N / 8; i++) {
        s[l++] = ctx->seed_lanes[i];
    }
    for (i = 0; i < 4; i++) {
        s[l++] = load64_le(adrs->b + 8 * i);
    }
    for (i = 0; i < inlen / 8; i++) {
        s[l++] = load64_le(in + 8 * i);
    }
    s[l++] = 0x1F;
    while (l < 25) {
        s[l++] = 0;
    }
    s[16] ^= (uint64_t)0x80 << 56;
    pqlab_keccakf1600(s);
    for (i = 0; i < SLH_N / 8; i++) {
        store64_le(out + 8 * i, s[i]);
    }
}

void slh_F(uint8_t *out, const slh_ctx *ctx, const slh_adrs *adrs, const uint8_t *in)
{
    shake_oneblock(out, ctx, adrs, in, SLH_N);
}

void slh_H(uint8_t *out, const slh_ctx *ctx, const slh_adrs *adrs, const uint8_t *in)
{
    shake_oneblock(out, ctx, adrs, in, 2 * SLH_N);
}

void slh_PRF(uint8_t *out, const slh_ctx *ctx, const slh_adrs *adrs)
{
    shake_oneblock(out, ctx, adrs, ctx->sk_seed, SLH_N);
}

void slh_F_x4(uint8_t *const out[4], const slh_ctx *ctx, const slh_adrs adrs[4],
              const uint8_t *const in[4], unsigned int nlanes)
{
#ifdef SLH_USE_X4
    /* Inputs laid out contiguously per lane; unused lanes repeat lane 0 and their
     * output goes to a scratch buffer. */
    uint8_t buf[4][2 * SLH_N + 32];
    uint8_t scratch[SLH_N];
    uint8_t *o[4];
    for (unsigned int i = 0; i < 4; i++) {
        unsigned int src = i < nlanes ? i : 0;
        const uint8_t *m = in[src] != NULL ? in[src] : ctx->sk_seed;
        memcpy(buf[i], ctx->pk_seed, SLH_N);
        memcpy(buf[i] + SLH_N, adrs[src].b, 32);
        memcpy(buf[i] + SLH_N + 32, m, SLH_N);
        o[i] = i < nlanes ? out[i] : scratch;
    }
    pqlab_shake256x4(o[0], o[1], o[2], o[3], SLH_N, buf[0], buf[1], buf[2], buf[3],
                     sizeof buf[0]);
    pqlab_zeroize(buf, sizeof buf);
#else
    for (unsigned int i = 0; i < nlanes; i++) {
        shake_oneblock(out[i], ctx, &adrs[i], in[i] != NULL ? in[i] : ctx->sk_seed, SLH_N);
    }
#endif
}

void slh_T_init(slh_thash_state *st, const slh_ctx *ctx, const slh_adrs *adrs)
{
    pqlab_shake256_init(&st->keccak);
    pqlab_shake256_absorb(&st->keccak, ctx->pk_seed, SLH_N);
    pqlab_shake256_absorb(&st->keccak, adrs->b, 32);
}

void slh_T_update(slh_thash_state *st, const uint8_t *in, size_t inlen)
{
    pqlab_shake256_absorb(&st->keccak, in, inlen);
}

void slh_T_final(uint8_t *out, slh_thash_state *st)
{
    pqlab_shake256_finalize(&st->keccak);
    pqlab_shake256_squeeze(out, SLH_N, &st->keccak);
}

void slh_PRF_msg(uint8_t *out, const uint8_t *sk_prf, const uint8_t *opt_rand, const uint8_t *hdr,
                 size_t hdrlen, const uint8_t *m, size_t mlen)
{
    pqlab_keccak_state st;
    pqlab_shake256_init(&st);
    pqlab_shake256_absorb(&st, sk_prf, SLH_N);
    pqlab_shake256_absorb(&st, opt_rand, SLH_N);
    pqlab_shake256_absorb(&st, hdr, hdrlen);
    pqlab_shake256_absorb(&st, m, mlen);
    pqlab_shake256_finalize(&st);
    pqlab_shake256_squeeze(out, SLH_N, &st);
    pqlab_zeroize(&st, sizeof st);
}

void slh_H_msg(uint8_t *out, const uint8_t *r, const uint8_t *pk_seed, const uint8_t *pk_root,
               const uint8_t *hdr, size_t hdrlen, const uint8_t *m, size_t mlen)
{
    pqlab_keccak_state st;
    pqlab_shake256_init(&st);
    pqlab_shake256_absorb(&st, r, SLH_N);
    pqlab_shake256_absorb(&st, pk_seed, SLH_N);
    pqlab_shake256_absorb(&st, pk_root, SLH_N);
    pqlab_shake256_absorb(&st, hdr, hdrlen);
    pqlab_shake256_absorb(&st, m, mlen);
    pqlab_shake256_finalize(&st);
    pqlab_shake256_squeeze(out, SLH_M, &st);
}

#else
/* ISO C forbids an empty translation unit */
typedef int pqlab_slhdsa_hash_shake_unused;
#endif
