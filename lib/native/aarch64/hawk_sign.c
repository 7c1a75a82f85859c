/* SPDX-License-Identifier: MIT */
/* Hawk signing's kernels with Advanced SIMD (contract: lib/native/hawk_sign.h; the C they
 * replace: lib/hawk/sampler.c). Plain ARMv8-A, no optional extension: they never decline on
 * a CPU, only on parameters outside the contract.
 *
 * Sampler: two samples per vector in 64-bit lanes. With c = chi 2^64 + clo and an entry
 * T = hi 2^64 + lo, c < T exactly when chi - hi - [clo < lo] is negative: CMHI gives the
 * borrow as 0 / -1, SUB and ADD form the 64-bit difference (|chi|, hi < 2^16, no wrap), and
 * USRA adds its sign bit to the count. Every entry of both tables for every sample; t selects
 * the count with BSL, the sign of a negates with EOR / SUB. No branch or address depends on
 * the samples.
 *
 * GF(2) product, where the CPU has FEAT_PMULL (cpu.h; the Cryptographic Extension's
 * carry-less multiplication, which takes the same time for every operand): with a and b as
 * W = n / 64 words of 64 bits, word s of the product before folding is
 * C_s = XOR over i of a_i b_((s - i) mod W), each a_i b_k one PMULL of 128 bits; C_s's low
 * half goes to word s of acc and its high half to word s + 1 (mod W: x^n = 1). Reading b
 * from bb = b || b makes (s - i) mod W a plain index s - i + W. W^2 PMULLs and XORs per
 * product (256 for n = 1024).
 *
 * Without FEAT_PMULL: acc[i] ^= r[(i - q) mod W] & m_q for every 32-bit word q of a and bit
 * j of it, r = b rotated by j bits; with rr = r || r the rotated read is rr[i - q + W .. ],
 * four words per vector load, and the accumulator (W/4 vectors, W = 16 or 32) stays in
 * registers for a whole bit position j. Masks m from the bits of a (public, but not branched
 * on). */
#include <arm_neon.h>
#include <string.h>

#include "../api.h"
#include "cpu.h"

int pqlab_hawk_sample16_native(int32_t x[16], const uint8_t grp[5][32], const uint8_t t[16], const pqlab_hawk_cdt *t0,
                               unsigned n0, const pqlab_hawk_cdt *t1, unsigned n1)
{
    if (n0 > 16 || n1 > 16) {
        return PQLAB_NATIVE_DECLINED;
    }
    const uint64x2_t low63 = vdupq_n_u64(0x7FFFFFFFFFFFFFFFull);
    const uint64x2_t m15 = vdupq_n_u64(0x7FFF);
    const int64x2_t shift_lo = {0, -16}; /* k = 0, 1 of a pair: bits 0.. and 16.. */
    const int64x2_t shift_hi = {-32, -48};
    int64_t out[16];
    for (unsigned j = 0; j < 4; j++) {
        /* lanes: k = 0, 1 (vector 0) and k = 2, 3 (vector 1) of instance j */
        uint64_t w;
        memcpy(&w, grp[4] + 8 * j, 8);
        const uint64x2_t hiw = vdupq_n_u64(w);
        uint64x2_t a[2], b[2], chi[2], clo[2];
        for (unsigned h = 0; h < 2; h++) {
            a[h] = vcombine_u64(vld1_u64((const uint64_t *)(const void *)(grp[2 * h] + 8 * j)),
                                vld1_u64((const uint64_t *)(const void *)(grp[2 * h + 1] + 8 * j)));
            b[h] = vandq_u64(vshlq_u64(hiw, h == 0 ? shift_lo : shift_hi), m15);
            chi[h] = vshrq_n_u64(b[h], 1);
            clo[h] = vorrq_u64(vandq_u64(a[h], low63), vshlq_n_u64(b[h], 63));
        }
        uint64x2_t k0[2] = {vdupq_n_u64(0), vdupq_n_u64(0)}, k1[2] = {vdupq_n_u64(0), vdupq_n_u64(0)};
        for (unsigned v = 0; v < n0; v++) {
            const uint64x2_t lo = vdupq_n_u64(t0[v].lo), hi = vdupq_n_u64(t0[v].hi);
            for (unsigned h = 0; h < 2; h++) {
                uint64x2_t d = vaddq_u64(vsubq_u64(chi[h], hi), vcgtq_u64(lo, clo[h]));
                k0[h] = vsraq_n_u64(k0[h], d, 63);
            }
        }
        for (unsigned v = 0; v < n1; v++) {
            const uint64x2_t lo = vdupq_n_u64(t1[v].lo), hi = vdupq_n_u64(t1[v].hi);
            for (unsigned h = 0; h < 2; h++) {
                uint64x2_t d = vaddq_u64(vsubq_u64(chi[h], hi), vcgtq_u64(lo, clo[h]));
                k1[h] = vsraq_n_u64(k1[h], d, 63);
            }
        }
        for (unsigned h = 0; h < 2; h++) {
            const uint64x2_t tv = {t[4 * j + 2 * h], t[4 * j + 2 * h + 1]};
            const uint64x2_t tm = vreinterpretq_u64_s64(vnegq_s64(vreinterpretq_s64_u64(tv))); /* 0 / -1 */
            uint64x2_t k = vbslq_u64(tm, k1[h], k0[h]);
            uint64x2_t xv = vaddq_u64(vaddq_u64(k, k), tv);
            uint64x2_t s = vreinterpretq_u64_s64(vshrq_n_s64(vreinterpretq_s64_u64(a[h]), 63));
            xv = vsubq_u64(veorq_u64(xv, s), s);
            vst1q_s64(out + 4 * j + 2 * h, vreinterpretq_s64_u64(xv));
        }
    }
    for (unsigned r = 0; r < 16; r++) {
        x[r] = (int32_t)out[r];
    }
    return PQLAB_NATIVE_DONE;
}

/* W words (a compile-time constant in each call below, so the accumulator stays in registers) */
static inline __attribute__((always_inline)) void mul2_acc_w(uint32_t *acc, const uint32_t *a, const uint32_t *b,
                                                             const unsigned W)
{
    const unsigned V = W / 4;
    uint32_t r[32], rr[64];
    uint32x4_t ac[8];
    memcpy(r, b, 4 * W);
    for (unsigned i = 0; i < V; i++) {
        ac[i] = vld1q_u32(acc + 4 * i);
    }
    for (unsigned j = 0; j < 32; j++) {
        memcpy(rr, r, 4 * W);
        memcpy(rr + W, r, 4 * W);
        for (unsigned q = 0; q < W; q++) {
            const uint32x4_t m = vdupq_n_u32((uint32_t)0 - ((a[q] >> j) & 1));
            const uint32_t *src = rr + W - q;
            for (unsigned i = 0; i < V; i++) {
                ac[i] = veorq_u32(ac[i], vandq_u32(vld1q_u32(src + 4 * i), m));
            }
        }
        uint32_t top = r[W - 1] >> 31;
        for (unsigned k = W - 1; k > 0; k--) {
            r[k] = (r[k] << 1) | (r[k - 1] >> 31);
        }
        r[0] = (r[0] << 1) | top;
    }
    for (unsigned i = 0; i < V; i++) {
        vst1q_u32(acc + 4 * i, ac[i]);
    }
    memset(r, 0, sizeof r);
    memset(rr, 0, sizeof rr);
    __asm__ volatile("" : : "r"(r), "r"(rr) : "memory"); /* keep the clearing of b's copies */
}

#define PMULL_TARGET __attribute__((target("+crypto")))

/* W = n / 64 words of 64 bits (2..16) */
static PMULL_TARGET void mul2_acc_pmull(uint32_t *acc, const uint32_t *a, const uint32_t *b, unsigned W)
{
    uint64_t av[16], bb[32];
    uint64x2_t c[16];
    memcpy(av, a, 8 * W);
    memcpy(bb, b, 8 * W);
    memcpy(bb + W, b, 8 * W);
    for (unsigned s = 0; s < W; s++) {
        uint64x2_t x = vdupq_n_u64(0);
        for (unsigned i = 0; i < W; i++) {
            x = veorq_u64(x, vreinterpretq_u64_p128(vmull_p64((poly64_t)av[i], (poly64_t)bb[s - i + W])));
        }
        c[s] = x;
    }
    for (unsigned s = 0; s < W; s++) {
        uint64_t w;
        memcpy(&w, acc + 2 * s, 8);
        w ^= vgetq_lane_u64(c[s], 0) ^ vgetq_lane_u64(c[(s + W - 1) % W], 1);
        memcpy(acc + 2 * s, &w, 8);
    }
    memset(bb, 0, sizeof bb);
    memset(c, 0, sizeof c);
    __asm__ volatile("" : : "r"(bb), "r"(c) : "memory"); /* keep the clearing of b's copies */
}

int pqlab_hawk_mul2_acc_native(uint32_t *acc, const uint32_t *a, const uint32_t *b, unsigned logn)
{
    if (logn >= 7 && logn <= 10 && (pqlab_aarch64_features() & PQLAB_AARCH64_FEAT_PMULL)) {
        mul2_acc_pmull(acc, a, b, 1u << (logn - 6));
        return PQLAB_NATIVE_DONE;
    }
    switch (logn) {
    case 7:
        mul2_acc_w(acc, a, b, 4);
        break;
    case 8:
        mul2_acc_w(acc, a, b, 8);
        break;
    case 9:
        mul2_acc_w(acc, a, b, 16);
        break;
    case 10:
        mul2_acc_w(acc, a, b, 32);
        break;
    default:
        return PQLAB_NATIVE_DECLINED;
    }
    return PQLAB_NATIVE_DONE;
}
