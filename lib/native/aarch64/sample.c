/* SPDX-License-Identifier: MIT */
/* Rejection samplers of ML-KEM and ML-DSA with Advanced SIMD (contracts: lib/mlkem/kernels.h
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

#define MLKEM_Q 3329u
#define MLDSA_Q 8380417u

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
    const uint16x8_t ok = vcltq_u16(d, vdupq_n_u16(MLKEM_Q));
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
    const uint32x4_t mask23 = vdupq_n_u32(0x7fffff), q = vdupq_n_u32(MLDSA_Q), bits = vld1q_u32(bit4);
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
        if (t < MLDSA_Q) {
            a[ctr++] = (int32_t)t;
        }
    }
    return ctr;
}
