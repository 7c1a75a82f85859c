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
 * State layout. With a native Keccak backend (PQLAB_KECCAKF1600_NATIVE, docs/native.md)
 * the states of F, H, PRF and of the WOTS+ chains are built directly in the backend's
 * bit-interleaved layout (lane = E | O << 32, E its even bits, O its odd bits) and
 * permuted with pqlab_keccakf1600_il, so the permutation skips its two
 * whole-state conversions; only the input lanes are converted (PK.seed once per
 * operation) and only the n output bytes converted back. Along a WOTS+ chain
 * (slh_chain) the value stays interleaved from one F to the next: the output lanes are
 * the next input lanes, and the ADRS lanes are converted once per chain (the hash
 * address, the only field that changes, is XORed in: the conversion is linear). Without
 * a backend the same code runs on standard-layout lanes and the portable permutation.
 * T_l, H_msg and PRF_msg use the common sponge (pqlab_shake256_*), whose state is
 * interleaved with the backend as well. */
#include "params.h"

#ifdef PQLAB_SLHDSA_HASH_SHAKE

#include <string.h>

#include "ct.h"
#include "fips202.h"
#include "fips202x4.h"
#include "hash.h"

#ifdef PQLAB_KECCAKF1600_NATIVE
/* the backend's lane conversions (fips202.h) */
/* the SHAKE domain byte 0x1F after the message and the final padding bit 0x80 in byte
 * 135 (bit 63 of lane 16), interleaved: 0x1F has even bits 0, 2, 4 (E = 0x7) and odd
 * bits 1, 3 (O = 0x3); bit 63 is odd bit 31 */
#define LANE_DS 0x0000000300000007ULL
#define LANE_END 0x8000000000000000ULL

/* nlanes >= 1 little-endian lanes of `in` into lanes that are zero */
static inline void lanes_set(uint64_t *s, const uint8_t *in, unsigned int nlanes)
{
    pqlab_keccak_native_xor_il(s, in, nlanes);
}

static inline void lanes_get(uint8_t *out, const uint64_t *s, unsigned int nlanes)
{
    pqlab_keccak_native_extract_il(out, s, nlanes);
}

static inline void permute(uint64_t s[25])
{
    pqlab_keccakf1600_il(s); /* common layer: counted in the hashing share */
}

/* the lane of byte value h at byte 7 (bits 56..63): its even bits go to E bits 28..31,
 * its odd bits to O bits 28..31 */
static inline uint64_t lane_top_byte(uint32_t h)
{
    uint32_t e = h & 0x55u, o = (h >> 1) & 0x55u;
    e = (e | (e >> 1)) & 0x33u;
    o = (o | (o >> 1)) & 0x33u;
    e = (e | (e >> 2)) & 0x0Fu;
    o = (o | (o >> 2)) & 0x0Fu;
    return (uint64_t)(e << 28) | (uint64_t)(o << 28) << 32;
}
#else
#define LANE_DS 0x1FULL
#define LANE_END 0x8000000000000000ULL

static inline uint64_t load64_le(const uint8_t *p)
{
    uint64_t r = 0;
    for (int i = 7; i >= 0; i--) {
        r = (r << 8) | p[i];
    }
    return r;
}

static inline void lanes_set(uint64_t *s, const uint8_t *in, unsigned int nlanes)
{
    for (unsigned int i = 0; i < nlanes; i++) {
        s[i] = load64_le(in + 8 * i);
    }
}

static inline void lanes_get(uint8_t *out, const uint64_t *s, unsigned int nlanes)
{
    for (unsigned int i = 0; i < nlanes; i++) {
        for (unsigned int j = 0; j < 8; j++) {
            out[8 * i + j] = (uint8_t)(s[i] >> (8 * j));
        }
    }
}

static inline void permute(uint64_t s[25])
{
    pqlab_keccakf1600(s);
}

static inline uint64_t lane_top_byte(uint32_t h)
{
    return (uint64_t)h << 56;
}
#endif

/* lanes of the one-block input PK.seed || ADRS || M */
#define SEED_LANES (SLH_N / 8)
#define ADRS_LANE0 SEED_LANES
#define MSG_LANE0 (SEED_LANES + 4)

void slh_ctx_init(slh_ctx *ctx, const uint8_t *pk_seed, const uint8_t *sk_seed)
{
    memcpy(ctx->pk_seed, pk_seed, SLH_N);
    if (sk_seed != NULL) {
        memcpy(ctx->sk_seed, sk_seed, SLH_N);
    } else {
        memset(ctx->sk_seed, 0, SLH_N);
    }
    for (unsigned int i = 0; i < SEED_LANES; i++) {
        ctx->seed_lanes[i] = 0;
    }
    lanes_set(ctx->seed_lanes, pk_seed, SEED_LANES);
}

void slh_ctx_clear(slh_ctx *ctx)
{
    pqlab_zeroize(ctx, sizeof *ctx);
}

/* Lanes from..24 of s become zero. The zero goes through a value barrier: a plain
 * constant-zero loop is turned into a memset call by GCC, and the C library's memset
 * on the targets stores a byte at a time (about 900 cycles for these 128 bytes on the
 * Cortex-M4, 7 % of an F call). */
static inline void lanes_zero(uint64_t s[25], unsigned int from)
{
    const uint64_t z = pqlab_value_barrier_u64(0);
    for (unsigned int i = from; i < 25; i++) {
        s[i] = z;
    }
}

/* SHAKE256(PK.seed || ADRS || in, 8n) for inlen in {n, 2n}: the input fits one rate
 * block (n + 32 + 2n <= 128 < 136), so absorb is a lane-wise copy, then the SHAKE
 * padding: domain bits 1111 and pad10*1 give 0x1F after the message and 0x80 in the
 * last byte of the rate (byte 135 = top byte of lane 16). */
static void shake_oneblock(uint8_t *out, const slh_ctx *ctx, const slh_adrs *adrs, const uint8_t *in,
                           unsigned int inlen)
{
    uint64_t s[25];
    const unsigned int mlanes = inlen / 8;

    lanes_zero(s, 0);
    for (unsigned int i = 0; i < SEED_LANES; i++) {
        s[i] = ctx->seed_lanes[i];
    }
    lanes_set(s + ADRS_LANE0, adrs->b, 4);
    lanes_set(s + MSG_LANE0, in, mlanes);
    s[MSG_LANE0 + mlanes] ^= LANE_DS;
    s[16] ^= LANE_END;
    permute(s);
    lanes_get(out, s, SLH_N / 8);
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

/* chain (Algorithm 5): steps F calls, hash addresses start .. start + steps - 1. The
 * value stays in state lanes between the calls; ADRS lanes 0-2 and lane 3 without the
 * hash address (bytes 24-27 chain address, 28-31 hash address, big-endian) are
 * converted once, and the hash address, < w <= 256 so only byte 31 (the top byte of
 * lane 3), is XORed in per step. */
#if SLH_W > 256
#error "slh_chain assumes hash addresses below 256"
#endif
void slh_chain(uint8_t *out, const uint8_t *in, unsigned int start, unsigned int steps, const slh_ctx *ctx,
               const slh_adrs *adrs)
{
    uint64_t head[MSG_LANE0]; /* PK.seed and ADRS lanes, hash address 0 */
    uint64_t m[SLH_N / 8];
    uint64_t s[25];
    uint8_t a3[8];

    if (steps == 0) {
        if (out != in) {
            memcpy(out, in, SLH_N);
        }
        return;
    }
    for (unsigned int i = 0; i < SEED_LANES; i++) {
        head[i] = ctx->seed_lanes[i];
    }
    for (unsigned int i = ADRS_LANE0; i < MSG_LANE0; i++) {
        head[i] = 0;
    }
    memcpy(a3, adrs->b + 24, 4);
    memset(a3 + 4, 0, 4);
    lanes_set(head + ADRS_LANE0, adrs->b, 3);
    lanes_set(head + ADRS_LANE0 + 3, a3, 1);
    for (unsigned int i = 0; i < SLH_N / 8; i++) {
        m[i] = 0;
    }
    lanes_set(m, in, SLH_N / 8);

    for (unsigned int j = start; j < start + steps; j++) {
        unsigned int i;
        for (i = 0; i < MSG_LANE0; i++) {
            s[i] = head[i];
        }
        s[MSG_LANE0 - 1] ^= lane_top_byte(j);
        for (i = 0; i < SLH_N / 8; i++) {
            s[MSG_LANE0 + i] = m[i];
        }
        s[MSG_LANE0 + SLH_N / 8] = LANE_DS;
        lanes_zero(s, MSG_LANE0 + SLH_N / 8 + 1);
        s[16] ^= LANE_END;
        permute(s);
        for (i = 0; i < SLH_N / 8; i++) {
            m[i] = s[i];
        }
    }
    lanes_get(out, m, SLH_N / 8);
    /* chain values are secret until published */
    pqlab_zeroize(s, sizeof s);
    pqlab_zeroize(m, sizeof m);
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
