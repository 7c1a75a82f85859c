/* SPDX-License-Identifier: MIT */
/* SHAKE instantiation of the SLH-DSA hash layer (FIPS 205 section 11.1):
 *   H_msg(R, PK.seed, PK.root, M) = SHAKE256(R || PK.seed || PK.root || M, 8m)
 *   PRF(PK.seed, SK.seed, ADRS)   = SHAKE256(PK.seed || ADRS || SK.seed, 8n)
 *   PRF_msg(SK.prf, opt_rand, M)  = SHAKE256(SK.prf || opt_rand || M, 8n)
 *   F, H, T_l(PK.seed, ADRS, M)   = SHAKE256(PK.seed || ADRS || M, 8n)
 * F, H and PRF inputs are at most 32 + 32 + 64 = 128 bytes, less than the rate of 136
 * bytes, so each is one Keccak-f[1600] call on a state built lane by lane (n, 32 and 2n
 * are multiples of 8, so PK.seed, ADRS and M start on lane boundaries).
 *
 * Keccak state. The states go through the narrow interface of lib/common/fips202.h only
 * (pqlab_keccak_init / _xorbytes / _extractbytes / _permute / _xorlanes): their layout is
 * the Keccak module's (bit-interleaved with the ARMv7E-M backend), so the permutation
 * skips any whole-state conversion and only the bytes that go in or out are converted.
 * slh_ctx holds a state with PK.seed and the padding of an n-byte message already in it
 * (built once per operation); F and PRF copy it and add ADRS and the message. Along a
 * WOTS+ chain (slh_chain) the chain value never leaves the state: the output lanes of one
 * F are XORed into the message lanes of the next (pqlab_keccak_xorlanes), ADRS is absorbed
 * once per chain, and the hash address of each step comes from a state that slh_ctx holds
 * with the w possible values (one lane each), again lane to lane.
 * T_l, H_msg and PRF_msg use the common sponge (pqlab_shake256_*), whose state is
 * interleaved with the backend as well. */
#include "params.h"

#ifdef PQLAB_SLHDSA_HASH_SHAKE

#include <string.h>

#include "ct.h"
#include "fips202.h"
#include "fips202x4.h"
#include "hash.h"

/* byte offsets of the one-block input PK.seed || ADRS || M (n, 32 and 2n are multiples
 * of 8, so ADRS and M start on lane boundaries) */
#define ADRS_OFF SLH_N
#define MSG_OFF (SLH_N + 32)
#define DS_SHAKE 0x1F /* FIPS 202 section 6.2: suffix 1111 and the first padding bit */

/* the SHAKE256 padding of a message of inlen bytes at MSG_OFF: the domain byte after the
 * message, the final padding bit 0x80 in the last byte of the rate (byte 135) */
static void pad_oneblock(uint64_t s[25], unsigned int inlen)
{
    static const uint8_t ds = DS_SHAKE, last = 0x80;
    pqlab_keccak_xorbytes(s, &ds, MSG_OFF + inlen, 1);
    pqlab_keccak_xorbytes(s, &last, PQLAB_SHAKE256_RATE - 1, 1);
}

void slh_ctx_init(slh_ctx *ctx, const uint8_t *pk_seed, const uint8_t *sk_seed)
{
    memcpy(ctx->pk_seed, pk_seed, SLH_N);
    if (sk_seed != NULL) {
        memcpy(ctx->sk_seed, sk_seed, SLH_N);
    } else {
        memset(ctx->sk_seed, 0, SLH_N);
    }
    pqlab_keccak_init(ctx->seed_state);
    pqlab_keccak_xorbytes(ctx->seed_state, pk_seed, 0, SLH_N);
    pad_oneblock(ctx->seed_state, SLH_N);
    pqlab_keccak_init(ctx->hash_lanes);
    for (unsigned int j = 1; j < SLH_W; j++) {
        const uint8_t h = (uint8_t)j;
        pqlab_keccak_xorbytes(ctx->hash_lanes, &h, 8 * j + 7, 1);
    }
}

void slh_ctx_clear(slh_ctx *ctx)
{
    pqlab_zeroize(ctx, sizeof *ctx);
}

/* a copy of a whole state, unrolled (a loop would cost about as much again in its
 * counter and branch, once per F; GCC would otherwise also call the C library's memcpy,
 * which some targets' libraries run a byte at a time) */
static inline void state_copy(uint64_t d[25], const uint64_t s[25])
{
#define COPY5(i)                                                                                                       \
    do {                                                                                                               \
        const uint64_t a0 = s[(i)], a1 = s[(i) + 1], a2 = s[(i) + 2], a3 = s[(i) + 3], a4 = s[(i) + 4];                \
        d[(i)] = pqlab_value_barrier_u64(a0);                                                                          \
        d[(i) + 1] = a1;                                                                                               \
        d[(i) + 2] = a2;                                                                                               \
        d[(i) + 3] = a3;                                                                                               \
        d[(i) + 4] = a4;                                                                                               \
    } while (0)
    COPY5(0);
    COPY5(5);
    COPY5(10);
    COPY5(15);
    COPY5(20);
#undef COPY5
}

/* SHAKE256(PK.seed || ADRS || in, 8n) for inlen in {n, 2n}: the input fits one rate
 * block (n + 32 + 2n <= 128 < 136), so it is one permutation of ctx's state with ADRS and
 * the message added. For inlen = 2n the padding of the n-byte message is moved. */
static void shake_oneblock(uint8_t *out, const slh_ctx *ctx, const slh_adrs *adrs, const uint8_t *in,
                           unsigned int inlen)
{
    uint64_t s[25];

    state_copy(s, ctx->seed_state);
    pqlab_keccak_xorbytes(s, adrs->b, ADRS_OFF, 32);
    if (inlen != SLH_N) {
        static const uint8_t ds = DS_SHAKE;
        pqlab_keccak_xorbytes(s, &ds, MSG_OFF + SLH_N, 1); /* cancels the n-byte padding */
        pqlab_keccak_xorbytes(s, &ds, MSG_OFF + inlen, 1);
    }
    pqlab_keccak_xorbytes(s, in, MSG_OFF, inlen);
    pqlab_keccak_permute(s);
    pqlab_keccak_extractbytes(s, out, 0, SLH_N);
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

/* chain (Algorithm 5): steps F calls, hash addresses start .. start + steps - 1. ADRS
 * without the hash address (bytes 28-31, big-endian; < w, so only byte 31 is nonzero)
 * goes into a template state once per chain; each step copies the template, adds the lane
 * of its hash address (ctx->hash_lanes) and the previous output (state to state) and
 * permutes. */
#if SLH_W > 25
#error "slh_chain takes the hash address from one of the 25 lanes of ctx->hash_lanes"
#endif
void slh_chain(uint8_t *out, const uint8_t *in, unsigned int start, unsigned int steps, const slh_ctx *ctx,
               const slh_adrs *adrs)
{
    uint64_t tmpl[25];
    uint64_t s[2][25];
    uint64_t *prev = s[0], *cur = s[1];

    if (steps == 0) {
        if (out != in) {
            memcpy(out, in, SLH_N);
        }
        return;
    }
    state_copy(tmpl, ctx->seed_state);
    pqlab_keccak_xorbytes(tmpl, adrs->b, ADRS_OFF, 28);

    /* first step: the input bytes */
    state_copy(cur, tmpl);
    pqlab_keccak_xorlanes(cur, ADRS_OFF + 24, ctx->hash_lanes, 8 * start, 8);
    pqlab_keccak_xorbytes(cur, in, MSG_OFF, SLH_N);
    pqlab_keccak_permute(cur);
    /* the others: the previous output, state to state */
    for (unsigned int j = start + 1; j < start + steps; j++) {
        uint64_t *t = prev;
        prev = cur;
        cur = t;
        state_copy(cur, tmpl);
        pqlab_keccak_xorlanes(cur, ADRS_OFF + 24, ctx->hash_lanes, 8 * j, 8);
        pqlab_keccak_xorlanes(cur, MSG_OFF, prev, 0, SLH_N);
        pqlab_keccak_permute(cur);
    }
    pqlab_keccak_extractbytes(cur, out, 0, SLH_N);
    /* chain values are secret until published */
    pqlab_zeroize(s, sizeof s);
}

void slh_F_x4(uint8_t *const out[4], const slh_ctx *ctx, const slh_adrs adrs[4], const uint8_t *const in[4],
              unsigned int nlanes)
{
#ifdef SLH_F_X4_BATCHED
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
    pqlab_shake256x4(o[0], o[1], o[2], o[3], SLH_N, buf[0], buf[1], buf[2], buf[3], sizeof buf[0]);
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

void slh_PRF_msg(uint8_t *out, const uint8_t *sk_prf, const uint8_t *opt_rand, const uint8_t *hdr, size_t hdrlen,
                 const uint8_t *m, size_t mlen)
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

void slh_H_msg(uint8_t *out, const uint8_t *r, const uint8_t *pk_seed, const uint8_t *pk_root, const uint8_t *hdr,
               size_t hdrlen, const uint8_t *m, size_t mlen)
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
