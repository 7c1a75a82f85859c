/* SPDX-License-Identifier: MIT */
/* Samplers of ML-KEM and ML-DSA with Advanced SIMD: the matrix rejection samplers (below), ML-KEM's
 * CBD and ML-DSA's RejBoundedPoly step (at the end of the file). Rejection samplers (contracts: lib/mlkem/kernels.h
 * rej_bulk, lib/mldsa/kernels.h rej_uniform; declarations and the exact behaviour in
 * sample_neon.h). Both read public bytes (XOF output of the public seed rho), so they may
 * branch on the values.
 *
 * One vector step takes 12 bytes:
 *   ML-KEM (FIPS 203 Algorithm 7): 8 candidates of 12 bits. Little-endian 16-bit lane 2k holds
 *   bytes 3k, 3k+1 (d1 = lane & 0xfff), lane 2k+1 bytes 3k+1, 3k+2 (d2 = lane >> 4); TBL puts
 *   the bytes in place, USHL by {0, -4, ...} and AND 0xfff extract the values.
 *   ML-DSA (FIPS 204 Algorithms 30, 14): 4 candidates of 23 bits. 32-bit lane k holds bytes 3k,
 *   3k+1, 3k+2 and a zero byte (TBL index 0xff reads 0); AND 0x7fffff clears bit 23.
 * CMHI against q marks the accepted lanes; the mask bits (AND with 1, 2, 4, 8 and ADDV) index
 * a table of TBL patterns that moves the accepted lanes, in order, to the front (16 entries:
 * ML-KEM does its 8 lanes as two halves of 4). */
#include <arm_neon.h>
#include <string.h>

#include "sample_neon.h"
#include "../../common/ct.h"
#include "../../common/fips202.h"
#include "../../common/fips202x4.h"

#define NEON_MLKEM_Q 3329u
#define NEON_MLDSA_Q 8380417u

/* Compaction patterns for four lanes: entry m lists, in order, the lanes whose bit is set in
 * m, then 0xff (TBL reads 0; those lanes are beyond the count and carry no meaning).
 * 16-bit lanes (bytes 2j, 2j+1) for ML-KEM, 32-bit lanes (bytes 4j .. 4j+3) for ML-DSA. */
#define L16(j) (2 * (j)), (2 * (j) + 1)
#define N16 0xff, 0xff
static const uint8_t compact16[16][8] = {
    {N16, N16, N16, N16},             /* 0000 */
    {L16(0), N16, N16, N16},          /* 0001 */
    {L16(1), N16, N16, N16},          /* 0010 */
    {L16(0), L16(1), N16, N16},       /* 0011 */
    {L16(2), N16, N16, N16},          /* 0100 */
    {L16(0), L16(2), N16, N16},       /* 0101 */
    {L16(1), L16(2), N16, N16},       /* 0110 */
    {L16(0), L16(1), L16(2), N16},    /* 0111 */
    {L16(3), N16, N16, N16},          /* 1000 */
    {L16(0), L16(3), N16, N16},       /* 1001 */
    {L16(1), L16(3), N16, N16},       /* 1010 */
    {L16(0), L16(1), L16(3), N16},    /* 1011 */
    {L16(2), L16(3), N16, N16},       /* 1100 */
    {L16(0), L16(2), L16(3), N16},    /* 1101 */
    {L16(1), L16(2), L16(3), N16},    /* 1110 */
    {L16(0), L16(1), L16(2), L16(3)}, /* 1111 */
};
#define L32(j) (4 * (j)), (4 * (j) + 1), (4 * (j) + 2), (4 * (j) + 3)
#define N32 0xff, 0xff, 0xff, 0xff
static const uint8_t compact32[16][16] = {
    {N32, N32, N32, N32},             /* 0000 */
    {L32(0), N32, N32, N32},          /* 0001 */
    {L32(1), N32, N32, N32},          /* 0010 */
    {L32(0), L32(1), N32, N32},       /* 0011 */
    {L32(2), N32, N32, N32},          /* 0100 */
    {L32(0), L32(2), N32, N32},       /* 0101 */
    {L32(1), L32(2), N32, N32},       /* 0110 */
    {L32(0), L32(1), L32(2), N32},    /* 0111 */
    {L32(3), N32, N32, N32},          /* 1000 */
    {L32(0), L32(3), N32, N32},       /* 1001 */
    {L32(1), L32(3), N32, N32},       /* 1010 */
    {L32(0), L32(1), L32(3), N32},    /* 1011 */
    {L32(2), L32(3), N32, N32},       /* 1100 */
    {L32(0), L32(2), L32(3), N32},    /* 1101 */
    {L32(1), L32(2), L32(3), N32},    /* 1110 */
    {L32(0), L32(1), L32(2), L32(3)}, /* 1111 */
};
/* the number of set bits of a 4-bit mask */
static const uint8_t popcount4[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};

/* ---- ML-KEM: rej_bulk ---- */

static const uint8_t mlkem_idx[16] = {0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11};
static const int16_t mlkem_shift[8] = {0, -4, 0, -4, 0, -4, 0, -4};
static const uint16_t bit4x2[8] = {1, 2, 4, 8, 1, 2, 4, 8};

/* the 8 candidates of the 12 bytes at the start of v (bytes 12..15 unused); appends the
 * accepted ones at cand (writes cand[0..7] at most), returns their number */
static inline unsigned int mlkem_group(int16_t *cand, uint8x16_t v)
{
    const uint16x8_t w = vreinterpretq_u16_u8(vqtbl1q_u8(v, vld1q_u8(mlkem_idx)));
    const uint16x8_t d = vandq_u16(vshlq_u16(w, vld1q_s16(mlkem_shift)), vdupq_n_u16(0xfff));
    const uint16x8_t ok = vcltq_u16(d, vdupq_n_u16(NEON_MLKEM_Q));
    const uint16x8_t bits = vandq_u16(ok, vld1q_u16(bit4x2));
    const unsigned int m0 = vaddv_u16(vget_low_u16(bits));
    const unsigned int m1 = vaddv_u16(vget_high_u16(bits));
    const uint8x8_t lo = vtbl1_u8(vreinterpret_u8_u16(vget_low_u16(d)), vld1_u8(compact16[m0]));
    const uint8x8_t hi = vtbl1_u8(vreinterpret_u8_u16(vget_high_u16(d)), vld1_u8(compact16[m1]));
    vst1_u8((uint8_t *)cand, lo);
    const unsigned int n0 = popcount4[m0];
    vst1_u8((uint8_t *)(cand + n0), hi);
    return n0 + popcount4[m1];
}

unsigned int pqlab_mlkem_rej_bulk_neon(int16_t *cand, const uint8_t *buf, unsigned int g)
{
    unsigned int n = 0;
    if (g == 0) {
        return 0;
    }
    /* every group but the last: a 16-byte load stays inside the 12 g bytes */
    for (unsigned int i = 0; i + 1 < g; i++) {
        n += mlkem_group(cand + n, vld1q_u8(buf + 12 * i));
    }
    uint8_t last[16] = {0};
    memcpy(last, buf + 12 * (g - 1), 12);
    n += mlkem_group(cand + n, vld1q_u8(last));
    return n;
}

/* ---- ML-DSA: rej_uniform ---- */

static const uint8_t mldsa_idx[16] = {0, 1, 2, 0xff, 3, 4, 5, 0xff, 6, 7, 8, 0xff, 9, 10, 11, 0xff};
static const uint32_t bit4[4] = {1, 2, 4, 8};

unsigned int pqlab_mldsa_rej_uniform_neon(int32_t a[256], unsigned int ctr, const uint8_t *buf, size_t buflen)
{
    size_t pos = 0;
    const uint8x16_t idx = vld1q_u8(mldsa_idx);
    const uint32x4_t mask23 = vdupq_n_u32(0x7fffff), q = vdupq_n_u32(NEON_MLDSA_Q), bits = vld1q_u32(bit4);
    /* four triples per step while a full 16-byte load stays inside buf and four more values
     * fit in a; the lanes of a beyond the accepted ones keep their old values (read, select,
     * write back), so a is written exactly where the C writes it */
    while (ctr + 4 <= 256 && pos + 16 <= buflen) {
        const uint32x4_t t = vandq_u32(vreinterpretq_u32_u8(vqtbl1q_u8(vld1q_u8(buf + pos), idx)), mask23);
        const uint32x4_t ok = vcltq_u32(t, q);
        const unsigned int m = vaddvq_u32(vandq_u32(ok, bits));
        const uint32x4_t packed = vreinterpretq_u32_u8(vqtbl1q_u8(vreinterpretq_u8_u32(t), vld1q_u8(compact32[m])));
        const unsigned int k = popcount4[m];
        /* lanes 0..k-1 take the new values */
        const uint32x4_t keep =
            vcltq_u32(vcombine_u32(vcreate_u32(0x100000000ull), vcreate_u32(0x300000002ull)), vdupq_n_u32(k));
        int32_t *dst = a + ctr;
        vst1q_s32(dst, vreinterpretq_s32_u32(vbslq_u32(keep, packed, vreinterpretq_u32_s32(vld1q_s32(dst)))));
        ctr += k;
        pos += 12;
    }
    /* the rest (fewer than 16 bytes left or fewer than 4 places in a): one triple at a time */
    for (; ctr < 256 && pos + 3 <= buflen; pos += 3) {
        const uint32_t t =
            (uint32_t)buf[pos] | ((uint32_t)buf[pos + 1] << 8) | (((uint32_t)buf[pos + 2] & 0x7fu) << 16);
        if (t < NEON_MLDSA_Q) {
            a[ctr++] = (int32_t)t;
        }
    }
    return ctr;
}

/* ---- ML-KEM: CBD (FIPS 203 Algorithm 8) ---- */

void pqlab_mlkem_cbd2_neon(int16_t r[256], const uint8_t buf[128])
{
    /* byte k gives coefficients 2k (its low nibble) and 2k + 1 (its high nibble): per
     * nibble, x = bit 0 + bit 1, y = bit 2 + bit 3, coefficient x - y */
    const uint8x16_t m55 = vdupq_n_u8(0x55), m3 = vdupq_n_u8(3);
    for (unsigned int i = 0; i < 8; i++) {
        const uint8x16_t v = vld1q_u8(buf + 16 * i);
        const uint8x16_t s = vaddq_u8(vandq_u8(v, m55), vandq_u8(vshrq_n_u8(v, 1), m55));
        const int8x16_t lo =
            vsubq_s8(vreinterpretq_s8_u8(vandq_u8(s, m3)), vreinterpretq_s8_u8(vandq_u8(vshrq_n_u8(s, 2), m3)));
        const int8x16_t hi =
            vsubq_s8(vreinterpretq_s8_u8(vandq_u8(vshrq_n_u8(s, 4), m3)), vreinterpretq_s8_u8(vshrq_n_u8(s, 6)));
        const int8x16_t c0 = vzip1q_s8(lo, hi), c1 = vzip2q_s8(lo, hi);
        int16_t *out = r + 32 * i;
        vst1q_s16(out, vmovl_s8(vget_low_s8(c0)));
        vst1q_s16(out + 8, vmovl_high_s8(c0));
        vst1q_s16(out + 16, vmovl_s8(vget_low_s8(c1)));
        vst1q_s16(out + 24, vmovl_high_s8(c1));
    }
}

/* bytes 3k, 3k + 1, 3k + 2 of the 12 at offset 0 (cbd3_idx0) or 4 (cbd3_idx4) of a 16-byte
 * vector as 32-bit lane k (TBL index 0xff reads 0) */
static const uint8_t cbd3_idx0[16] = {0, 1, 2, 0xff, 3, 4, 5, 0xff, 6, 7, 8, 0xff, 9, 10, 11, 0xff};
static const uint8_t cbd3_idx4[16] = {4, 5, 6, 0xff, 7, 8, 9, 0xff, 10, 11, 12, 0xff, 13, 14, 15, 0xff};

void pqlab_mlkem_cbd3_neon(int16_t r[256], const uint8_t buf[192])
{
    /* 3 bytes (24 bits) give 4 coefficients of 6 bits: the sum of 3 bits x, then y; eight
     * words per step (24 bytes: the 16-byte loads at 24 i and 24 i + 8 stay inside buf),
     * coefficient j of word k at 4 k + j: VST4 interleaves the four coefficient vectors */
    const uint32x4_t m249 = vdupq_n_u32(0x249249), m7 = vdupq_n_u32(7);
    const uint8x16_t idx0 = vld1q_u8(cbd3_idx0), idx4 = vld1q_u8(cbd3_idx4);
    for (unsigned int i = 0; i < 8; i++) {
        uint32x4_t s[2];
        s[0] = vreinterpretq_u32_u8(vqtbl1q_u8(vld1q_u8(buf + 24 * i), idx0));
        s[1] = vreinterpretq_u32_u8(vqtbl1q_u8(vld1q_u8(buf + 24 * i + 8), idx4));
        for (unsigned int h = 0; h < 2; h++) {
            const uint32x4_t w = s[h];
            s[h] = vaddq_u32(vaddq_u32(vandq_u32(w, m249), vandq_u32(vshrq_n_u32(w, 1), m249)),
                             vandq_u32(vshrq_n_u32(w, 2), m249));
        }
        int16x8x4_t c;
#define CBD3_COEF(j)                                                                                                   \
    vcombine_s16(vmovn_s32(vsubq_s32(vreinterpretq_s32_u32(vandq_u32(vshrq_n_u32(s[0], 6 * (j)), m7)),                 \
                                     vreinterpretq_s32_u32(vandq_u32(vshrq_n_u32(s[0], 6 * (j) + 3), m7)))),           \
                 vmovn_s32(vsubq_s32(vreinterpretq_s32_u32(vandq_u32(vshrq_n_u32(s[1], 6 * (j)), m7)),                 \
                                     vreinterpretq_s32_u32(vandq_u32(vshrq_n_u32(s[1], 6 * (j) + 3), m7)))))
        c.val[0] = vcombine_s16(vmovn_s32(vsubq_s32(vreinterpretq_s32_u32(vandq_u32(s[0], m7)),
                                                    vreinterpretq_s32_u32(vandq_u32(vshrq_n_u32(s[0], 3), m7)))),
                                vmovn_s32(vsubq_s32(vreinterpretq_s32_u32(vandq_u32(s[1], m7)),
                                                    vreinterpretq_s32_u32(vandq_u32(vshrq_n_u32(s[1], 3), m7)))));
        c.val[1] = CBD3_COEF(1);
        c.val[2] = CBD3_COEF(2);
        c.val[3] = CBD3_COEF(3);
#undef CBD3_COEF
        vst4q_s16(r + 32 * i, c);
    }
}

/* ---- ML-DSA: RejBoundedPoly's rejection step (FIPS 204 Algorithms 31, 15) ---- */

unsigned int pqlab_mldsa_rej_eta_neon(int32_t a[256], unsigned int ctr, const uint8_t *buf, size_t buflen,
                                      unsigned int eta)
{
    size_t pos = 0;
    if (eta != 2 && eta != 4) {
        return ctr; /* outside the contract (sample_neon.h): nothing taken */
    }
    const uint8x16_t m15 = vdupq_n_u8(15), bound = vdupq_n_u8(eta == 2 ? 15 : 9);
    const uint8x16_t bits = {1, 2, 4, 8, 1, 2, 4, 8, 1, 2, 4, 8, 1, 2, 4, 8};
    /* eight bytes (16 half-bytes, low half first) per step while 16 more values fit in a */
    while (ctr + 16 <= 256 && pos + 8 <= buflen) {
        const uint8x8_t v = vld1_u8(buf + pos);
        const uint8x8_t lo = vand_u8(v, vget_low_u8(m15)), hi = vshr_n_u8(v, 4);
        /* lane 2k: the low half of byte k, lane 2k + 1: its high half (the C's order) */
        const uint8x16_t nib = vcombine_u8(vzip1_u8(lo, hi), vzip2_u8(lo, hi));
        const uint8x16_t ok = vcltq_u8(nib, bound);
        int8x16_t val;
        if (eta == 2) {
            /* 2 - (b mod 5), b mod 5 = b - 5 floor(13 b / 64) (exact for b < 15) */
            const uint8x16_t q5 = vshrq_n_u8(vmulq_u8(nib, vdupq_n_u8(13)), 6);
            const uint8x16_t mod5 = vsubq_u8(nib, vmulq_u8(q5, vdupq_n_u8(5)));
            val = vsubq_s8(vdupq_n_s8(2), vreinterpretq_s8_u8(mod5));
        } else {
            val = vsubq_s8(vdupq_n_s8(4), vreinterpretq_s8_u8(nib));
        }
        /* four groups of four lanes: mask -> compaction pattern (compact32) on the lanes
         * widened to 32 bits; the accept decisions are public (as in the C, which
         * declassifies them); the values move through TBL as data */
        const uint8x16_t mb = vandq_u8(ok, bits);
        const int16x8_t w0 = vmovl_s8(vget_low_s8(val)), w1 = vmovl_high_s8(val);
        int32x4_t g[4] = {vmovl_s16(vget_low_s16(w0)), vmovl_high_s16(w0), vmovl_s16(vget_low_s16(w1)),
                          vmovl_high_s16(w1)};
        uint8_t m[16];
        vst1q_u8(m, mb);
        for (unsigned int k = 0; k < 4; k++) {
            const unsigned int mk = (unsigned int)m[4 * k] | m[4 * k + 1] | m[4 * k + 2] | m[4 * k + 3];
            const int32x4_t packed =
                vreinterpretq_s32_u8(vqtbl1q_u8(vreinterpretq_u8_s32(g[k]), vld1q_u8(compact32[mk])));
            vst1q_s32(a + ctr, packed); /* a[ctr .. ctr + 3]: inside a (ctr + 16 <= 256) */
            ctr += popcount4[mk];
        }
        pos += 8;
    }
    /* the rest: one byte at a time, as the C */
    for (; ctr < 256 && pos < buflen; pos++) {
        for (unsigned int h = 0; h < 2 && ctr < 256; h++) {
            const uint32_t b = h == 0 ? (buf[pos] & 15u) : (uint32_t)(buf[pos] >> 4);
            if (eta == 2 && b < 15) {
                a[ctr++] = 2 - (int32_t)(b - 5u * ((205u * b) >> 10)); /* b mod 5, no division */
            } else if (eta == 4 && b < 9) {
                a[ctr++] = 4 - (int32_t)b;
            }
        }
    }
    return ctr;
}

void pqlab_mldsa_poly_rej_bounded_neon(int32_t a[256], const uint8_t rhoprime[64], uint16_t nonce, unsigned int eta)
{
    uint8_t seed[64 + 2];
    uint8_t buf[PQLAB_SHAKE256_RATE];
    pqlab_keccak_state st;
    unsigned int ctr = 0;
    memcpy(seed, rhoprime, 64);
    seed[64] = (uint8_t)nonce;
    seed[65] = (uint8_t)(nonce >> 8);
    pqlab_shake256_init(&st);
    pqlab_shake256_absorb(&st, seed, sizeof seed);
    pqlab_shake256_finalize(&st);
    while (ctr < 256) {
        pqlab_shake256_squeezeblocks(buf, 1, &st);
        ctr = pqlab_mldsa_rej_eta_neon(a, ctr, buf, sizeof buf, eta);
    }
    pqlab_zeroize(buf, sizeof buf);
    pqlab_zeroize(&st, sizeof st);
    pqlab_zeroize(seed, sizeof seed);
}

/* ---- ML-DSA: ExpandMask (sample_neon.h) ---- */

/* BitUnpack(., gamma1 - 1, gamma1) (FIPS 204 Algorithm 19 via Algorithm 18): coefficient i is
 * gamma1 minus the bits 'bits' i .. 'bits' (i + 1) - 1 of the stream, least significant first. Four
 * coefficients per vector from the 9 (18 bits) or 10 (20 bits) bytes at 9 i or 10 i: TBL places
 * the three bytes that hold coefficient k in lane k (index 255 gives a zero byte), USHL by
 * -(bit offset mod 8) and AND with 2^bits - 1 leave its bits. Reads 16 bytes from every group
 * start, so up to 6 bytes past the 576 / 640 packed bytes. Constant time (no branch or address
 * depends on the bytes). */
static void aarch64_mask_unpack(int32_t a[256], const uint8_t *buf, unsigned int bits)
{
    static const uint8_t idx18[16] = {0, 1, 2, 255, 2, 3, 4, 255, 4, 5, 6, 255, 6, 7, 8, 255};
    static const int32_t sh18[4] = {0, -2, -4, -6};
    static const uint8_t idx20[16] = {0, 1, 2, 255, 2, 3, 4, 255, 5, 6, 7, 255, 7, 8, 9, 255};
    static const int32_t sh20[4] = {0, -4, 0, -4};
    const uint8x16_t idx = vld1q_u8(bits == 18 ? idx18 : idx20);
    const int32x4_t sh = vld1q_s32(bits == 18 ? sh18 : sh20);
    const uint32x4_t mask = vdupq_n_u32((1u << bits) - 1u);
    const int32x4_t g1 = vdupq_n_s32((int32_t)1 << (bits - 1));
    const unsigned int step = bits / 2; /* bytes per four coefficients */
    for (unsigned int i = 0; i < 256; i += 8, buf += 2 * step) {
        const uint8x16_t b0 = vqtbl1q_u8(vld1q_u8(buf), idx), b1 = vqtbl1q_u8(vld1q_u8(buf + step), idx);
        const uint32x4_t v0 = vandq_u32(vshlq_u32(vreinterpretq_u32_u8(b0), sh), mask);
        const uint32x4_t v1 = vandq_u32(vshlq_u32(vreinterpretq_u32_u8(b1), sh), mask);
        vst1q_s32(a + i, vsubq_s32(g1, vreinterpretq_s32_u32(v0)));
        vst1q_s32(a + i + 4, vsubq_s32(g1, vreinterpretq_s32_u32(v1)));
    }
}

/* whole SHAKE256 blocks covering the 32 (bits) bytes of one polynomial, 5 for both widths, plus
 * room for aarch64_mask_unpack's reads past them */
#define AARCH64_MASK_BLOCKS 5
#define AARCH64_MASK_BUF (AARCH64_MASK_BLOCKS * PQLAB_SHAKE256_RATE + 16)

void pqlab_mldsa_expand_mask_neon(int32_t a[256], const uint8_t rhopp[64], uint16_t nonce, unsigned int bits)
{
    uint8_t seed[64 + 2];
    uint8_t buf[AARCH64_MASK_BUF];
    pqlab_keccak_state st;
    memcpy(seed, rhopp, 64);
    seed[64] = (uint8_t)nonce;
    seed[65] = (uint8_t)(nonce >> 8);
    pqlab_shake256_init(&st);
    pqlab_shake256_absorb(&st, seed, sizeof seed);
    pqlab_shake256_finalize(&st);
    pqlab_shake256_squeezeblocks(buf, AARCH64_MASK_BLOCKS, &st);
    memset(buf + AARCH64_MASK_BLOCKS * PQLAB_SHAKE256_RATE, 0, 16);
    aarch64_mask_unpack(a, buf, bits);
    pqlab_zeroize(buf, sizeof buf);
    pqlab_zeroize(&st, sizeof st);
    pqlab_zeroize(seed, sizeof seed);
}

void pqlab_mldsa_expand_mask_x4_neon(int32_t *a0, int32_t *a1, int32_t *a2, int32_t *a3, const uint8_t rhopp[64],
                                     const uint16_t nonce[4], unsigned int bits)
{
    uint8_t seed[4][64 + 2];
    uint8_t buf[4][AARCH64_MASK_BUF];
    pqlab_keccakx4_state st;
    int32_t *a[4] = {a0, a1, a2, a3};
    for (unsigned int k = 0; k < 4; k++) {
        memcpy(seed[k], rhopp, 64);
        seed[k][64] = (uint8_t)nonce[k];
        seed[k][65] = (uint8_t)(nonce[k] >> 8);
    }
    pqlab_shake256x4_absorb_once(&st, seed[0], seed[1], seed[2], seed[3], sizeof seed[0]);
    pqlab_shake256x4_squeezeblocks(buf[0], buf[1], buf[2], buf[3], AARCH64_MASK_BLOCKS, &st);
    for (unsigned int k = 0; k < 4; k++) {
        memset(buf[k] + AARCH64_MASK_BLOCKS * PQLAB_SHAKE256_RATE, 0, 16);
        aarch64_mask_unpack(a[k], buf[k], bits);
    }
    pqlab_zeroize(buf, sizeof buf);
    pqlab_zeroize(&st, sizeof st);
    pqlab_zeroize(seed, sizeof seed);
}

/* ---- ML-DSA: SampleInBall's masked step (sample_neon.h) ---- */

/* Sixteen positions per vector: CMEQ of the position indices with j is 0xFF at byte j only;
 * the old byte is ORed into an accumulator under that mask (one nonzero byte at most, so UMAXV
 * reads it out) and BSL writes the sign byte there. Every block is loaded and stored whatever
 * j is, and the number of blocks depends on nwords (public, the step's i) alone. */
uint32_t pqlab_mldsa_ball_swap_neon(uint32_t w[64], unsigned int nwords, uint32_t j, uint32_t sign4)
{
    static const uint8_t pos0[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    uint8_t *b = (uint8_t *)w; /* little endian: byte k % 4 of word k / 4 is b[k] */
    const uint8x16_t vj = vdupq_n_u8((uint8_t)pqlab_value_barrier_u32(j));
    const uint8x16_t vs = vreinterpretq_u8_u32(vdupq_n_u32(sign4));
    const uint8x16_t sixteen = vdupq_n_u8(16);
    uint8x16_t pos = vld1q_u8(pos0);
    uint8x16_t old = vdupq_n_u8(0);
    const unsigned int nvec = (nwords + 3) / 4; /* nwords <= 64: at most 16 blocks */
    for (unsigned int v = 0; v < nvec; v++) {
        const uint8x16_t x = vld1q_u8(b + 16 * v);
        const uint8x16_t m = vceqq_u8(pos, vj);
        old = vorrq_u8(old, vandq_u8(x, m));
        vst1q_u8(b + 16 * v, vbslq_u8(m, vs, x));
        pos = vaddq_u8(pos, sixteen); /* block 15 ends at 255: no wrap before the last use */
    }
    return vmaxvq_u8(old);
}
