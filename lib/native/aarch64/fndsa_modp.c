/* SPDX-License-Identifier: MIT */
/* FN-DSA key generation's (and Hawk's) NTT modulo a 31-bit prime p, its inverse and the
 * pointwise Montgomery product with Advanced SIMD, four 32-bit lanes (contract:
 * lib/native/fndsa_modp.h; the C: lib/fndsa/ntru_rns.c mp_ntt / mp_intt / mp_pmul).
 *
 * Montgomery product a b / 2^32 mod p for a, b in [0, p), p < 2^31: SQDMULH / MUL / SQDMULH /
 * SHSUB (mmul below) gives it in (-p, p), min(r, r + p) as unsigned words the normal form, the
 * value mp_mmul_r returns. Sums and differences likewise: min(x + y, x + y - p),
 * min(x - y, x - y + p) (a wrapped word is large). Every result is the
 * canonical residue, so the transforms give the C's words whatever the order of the
 * butterflies; the layers are the C's (Cooley-Tukey with psi[len + i], Gentleman-Sande with
 * ipsi[len + i], then the scale c / 2^32).
 *
 * Butterfly distance 4 or more: whole vectors; distance 2: LD2 of 64-bit pairs (words 0,1 |
 * 2,3 of a block of four), the block's twiddle in two lanes each; distance 1: LD2 of words
 * (even / odd), four twiddles. logm below 3 (m < 8): the C's scalar loops, here. Constant
 * time: no branch or address depends on the values. */
#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>

#include "../api.h"

/* a b / 2^32 mod p in [0, p) for a, b in [0, p); bq = b p^-1 mod 2^32 (p^-1 = -p0i): the doubling
 * multiply-high form of lib/native/aarch64/mldsa_ntt.c. hi = SQDMULH(a, b) = floor(2 a b / 2^32),
 * k = MUL(a, bq) = a b p^-1 mod 2^32, lo = SQDMULH(k, p) (k signed); a b - k p is a multiple of
 * 2^32, so 2 a b and 2 k p agree in their low 32 bits and SHSUB(hi, lo) = (a b - k p) / 2^32
 * exactly, in (-p, p) (|k| <= 2^31); ADD p and MIN (unsigned) give the residue in [0, p). No
 * saturation: a, b, p >= 0. */
static inline uint32x4_t mmul(uint32x4_t a, uint32x4_t b, uint32x4_t bq, uint32x4_t p)
{
    const int32x4_t sa = vreinterpretq_s32_u32(a), sp = vreinterpretq_s32_u32(p);
    const int32x4_t hi = vqdmulhq_s32(sa, vreinterpretq_s32_u32(b));
    const int32x4_t lo = vqdmulhq_s32(vreinterpretq_s32_u32(vmulq_u32(a, bq)), sp);
    const uint32x4_t r = vreinterpretq_u32_s32(vhsubq_s32(hi, lo));
    return vminq_u32(r, vaddq_u32(r, p));
}

static inline uint32x4_t madd(uint32x4_t x, uint32x4_t y, uint32x4_t p)
{
    const uint32x4_t s = vaddq_u32(x, y);
    return vminq_u32(s, vsubq_u32(s, p));
}

static inline uint32x4_t msub(uint32x4_t x, uint32x4_t y, uint32x4_t p)
{
    const uint32x4_t d = vsubq_u32(x, y);
    return vminq_u32(d, vaddq_u32(d, p));
}

/* the scalar operations for m < 8, with masks as the C (lib/fndsa/ntru_internal.h): a value
 * u = t - p with t < 2p is negative as a 32-bit word exactly when t < p (|u| < 2^31) */
static inline uint32_t mfix1(uint32_t u, uint32_t p)
{
    return u + (p & (0u - (u >> 31)));
}
static inline uint32_t mmul1(uint32_t a, uint32_t b, uint32_t p, uint32_t p0i)
{
    const uint64_t z = (uint64_t)a * b;
    const uint32_t k = (uint32_t)z * p0i;
    return mfix1((uint32_t)((z + (uint64_t)k * p) >> 32) - p, p);
}
static inline uint32_t madd1(uint32_t x, uint32_t y, uint32_t p)
{
    return mfix1(x + y - p, p);
}
static inline uint32_t msub1(uint32_t x, uint32_t y, uint32_t p)
{
    return mfix1(x - y, p);
}

void pqlab_fndsa_mp_ntt_native(uint32_t *a, const uint32_t *psi, unsigned logm, uint32_t p, uint32_t p0i)
{
    const size_t m = (size_t)1 << logm;
    if (logm < 3) {
        for (size_t len = 1, t = m; len < m; len <<= 1) {
            const size_t ht = t >> 1;
            for (size_t i = 0; i < len; i++) {
                const uint32_t s = psi[len + i];
                for (size_t j = i * t; j < i * t + ht; j++) {
                    const uint32_t v = mmul1(a[j + ht], s, p, p0i);
                    a[j + ht] = msub1(a[j], v, p);
                    a[j] = madd1(a[j], v, p);
                }
            }
            t = ht;
        }
        return;
    }
    const uint32x4_t vp = vdupq_n_u32(p), vpinv = vdupq_n_u32(0u - p0i);
    size_t len = 1, t = m;
    for (; t > 4; len <<= 1) { /* distance t / 2 >= 4 */
        const size_t ht = t >> 1;
        for (size_t i = 0; i < len; i++) {
            const uint32x4_t s = vdupq_n_u32(psi[len + i]), sq = vmulq_u32(s, vpinv);
            uint32_t *x = a + i * t;
            for (size_t j = 0; j < ht; j += 4) {
                const uint32x4_t x0 = vld1q_u32(x + j), v = mmul(vld1q_u32(x + j + ht), s, sq, vp);
                vst1q_u32(x + j + ht, msub(x0, v, vp));
                vst1q_u32(x + j, madd(x0, v, vp));
            }
        }
        t = ht;
    }
    /* distance 2: blocks of four (len = m / 4 of them), two blocks per step */
    for (size_t i = 0; i < len; i += 2) {
        uint64x2x2_t w = vld2q_u64((const uint64_t *)(const void *)(a + 4 * i));
        const uint32x2_t s2 = vld1_u32(psi + len + i);
        const uint32x4_t s = vzip1q_u32(vcombine_u32(s2, s2), vcombine_u32(s2, s2));
        const uint32x4_t x0 = vreinterpretq_u32_u64(w.val[0]);
        const uint32x4_t v = mmul(vreinterpretq_u32_u64(w.val[1]), s, vmulq_u32(s, vpinv), vp);
        w.val[0] = vreinterpretq_u64_u32(madd(x0, v, vp));
        w.val[1] = vreinterpretq_u64_u32(msub(x0, v, vp));
        vst2q_u64((uint64_t *)(void *)(a + 4 * i), w);
    }
    len <<= 1;
    /* distance 1: pairs (len = m / 2 of them), four per step */
    for (size_t i = 0; i < len; i += 4) {
        uint32x4x2_t w = vld2q_u32(a + 2 * i);
        const uint32x4_t s = vld1q_u32(psi + len + i);
        const uint32x4_t v = mmul(w.val[1], s, vmulq_u32(s, vpinv), vp);
        const uint32x4_t x0 = w.val[0];
        w.val[0] = madd(x0, v, vp);
        w.val[1] = msub(x0, v, vp);
        vst2q_u32(a + 2 * i, w);
    }
}

void pqlab_fndsa_mp_intt_native(uint32_t *a, const uint32_t *ipsi, unsigned logm, uint32_t c, uint32_t p, uint32_t p0i)
{
    const size_t m = (size_t)1 << logm;
    if (logm < 3) {
        for (size_t len = m >> 1, t = 1; len >= 1; len >>= 1) {
            for (size_t i = 0; i < len; i++) {
                const uint32_t s = ipsi[len + i];
                for (size_t j = 2 * i * t; j < 2 * i * t + t; j++) {
                    const uint32_t d = msub1(a[j], a[j + t], p);
                    a[j] = madd1(a[j], a[j + t], p);
                    a[j + t] = mmul1(d, s, p, p0i);
                }
            }
            t <<= 1;
        }
        for (size_t j = 0; j < m; j++) {
            a[j] = mmul1(a[j], c, p, p0i);
        }
        return;
    }
    const uint32x4_t vp = vdupq_n_u32(p), vpinv = vdupq_n_u32(0u - p0i);
    size_t len = m >> 1;
    /* distance 1: pairs, four per step */
    for (size_t i = 0; i < len; i += 4) {
        uint32x4x2_t w = vld2q_u32(a + 2 * i);
        const uint32x4_t d = msub(w.val[0], w.val[1], vp);
        w.val[0] = madd(w.val[0], w.val[1], vp);
        const uint32x4_t s = vld1q_u32(ipsi + len + i);
        w.val[1] = mmul(d, s, vmulq_u32(s, vpinv), vp);
        vst2q_u32(a + 2 * i, w);
    }
    len >>= 1;
    /* distance 2: blocks of four, two per step */
    for (size_t i = 0; i < len; i += 2) {
        uint64x2x2_t w = vld2q_u64((const uint64_t *)(const void *)(a + 4 * i));
        const uint32x2_t s2 = vld1_u32(ipsi + len + i);
        const uint32x4_t s = vzip1q_u32(vcombine_u32(s2, s2), vcombine_u32(s2, s2));
        const uint32x4_t x0 = vreinterpretq_u32_u64(w.val[0]), x1 = vreinterpretq_u32_u64(w.val[1]);
        w.val[0] = vreinterpretq_u64_u32(madd(x0, x1, vp));
        w.val[1] = vreinterpretq_u64_u32(mmul(msub(x0, x1, vp), s, vmulq_u32(s, vpinv), vp));
        vst2q_u64((uint64_t *)(void *)(a + 4 * i), w);
    }
    len >>= 1;
    for (size_t t = 4; len >= 1; len >>= 1, t <<= 1) { /* distance t >= 4 */
        for (size_t i = 0; i < len; i++) {
            const uint32x4_t s = vdupq_n_u32(ipsi[len + i]), sq = vmulq_u32(s, vpinv);
            uint32_t *x = a + 2 * i * t;
            for (size_t j = 0; j < t; j += 4) {
                const uint32x4_t x0 = vld1q_u32(x + j), x1 = vld1q_u32(x + j + t);
                vst1q_u32(x + j, madd(x0, x1, vp));
                vst1q_u32(x + j + t, mmul(msub(x0, x1, vp), s, sq, vp));
            }
        }
    }
    const uint32x4_t vc = vdupq_n_u32(c), vcq = vmulq_u32(vc, vpinv);
    for (size_t j = 0; j < m; j += 4) {
        vst1q_u32(a + j, mmul(vld1q_u32(a + j), vc, vcq, vp));
    }
}

void pqlab_fndsa_mp_pmul_native(uint32_t *r, const uint32_t *a, const uint32_t *b, size_t m, uint32_t p, uint32_t p0i)
{
    const uint32x4_t vp = vdupq_n_u32(p), vpinv = vdupq_n_u32(0u - p0i);
    size_t u = 0;
    for (; u + 4 <= m; u += 4) {
        const uint32x4_t bv = vld1q_u32(b + u);
        vst1q_u32(r + u, mmul(vld1q_u32(a + u), bv, vmulq_u32(bv, vpinv), vp));
    }
    for (; u < m; u++) {
        r[u] = mmul1(a[u], b[u], p, p0i);
    }
}
