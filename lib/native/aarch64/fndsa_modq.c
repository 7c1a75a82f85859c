/* SPDX-License-Identifier: MIT */
/* FN-DSA's NTT and inverse NTT modulo q = 12289 (verification, public key, complete_private;
 * contract lib/native/fndsa_modq.h) with Advanced SIMD, eight 16-bit words per vector.
 * Canonical values in and out; residues mod q are unique, so the outputs equal
 * lib/fndsa/modq.c's bit for bit. Written for logn = 6 .. 10 (n >= 64: eight vectors); smaller
 * logn decline (a public parameter) and the C runs.
 *
 * Arithmetic on signed representatives:
 *  - Montgomery product a z 2^-16 with z in Montgomery form (the tables), |result| < q for
 *    |a z| < q 2^15: SQDMULH / MUL / SQDMULH / SHSUB as in mlkem_ntt.c (that file shows why
 *    the result is (a z - t q) / 2^16 exactly); |z| <= q/2 allows any int16 a.
 *  - Barrett: a - round(a 5461 / 2^26) q, round(2^26 / q) = 5461, in [-q/2 - 2, q/2 + 2] for
 *    |a| < 2^15 (lib/fndsa/modq.c's mq_barrett, same quotient: SRSHR(SQDMULH(a, 5461), 11)).
 *  16-bit words hold up to 2.66 q.
 *
 * Layers: those whose butterfly distance is 8 words or more pair whole vectors; the last three
 * (distances 4, 2, 1) run on 64 words at a time after an 8 x 8 transpose, where they pair
 * whole vectors too and each lane has its own twiddle (loaded with LD1/LD2/LD4 from the
 * tables in the order the lanes need). Block b of the layer with half-size len uses
 * zetas[n / (2 len) + b] (forward) and izetas[n / (2 len) + b] (inverse), as modq.c.
 * Constant time: no branch or address depends on the values. */
#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>

#include "../api.h"
/* fndsa_ntt_zetas, fndsa_ntt_izetas: the frontend's own tables (modq.c), from lib/fndsa/gen_tables.py */
#include "../fndsa_modq_zetas.h"

#define MQ_Q 12289
#define MQ_QINV (-12287) /* q^-1 mod 2^16 = 53249, signed */
#define BARRETT_V 5461

static inline int16x8_t neon_mq_mont(int16x8_t a, int16x8_t z)
{
    const int16x8_t hi = vqdmulhq_s16(a, z);
    const int16x8_t t = vmulq_s16(a, vmulq_n_s16(z, MQ_QINV));
    return vhsubq_s16(hi, vqdmulhq_n_s16(t, MQ_Q));
}

static inline int16x8_t neon_mq_barrett(int16x8_t a)
{
    return vmlsq_n_s16(a, vrshrq_n_s16(vqdmulhq_n_s16(a, BARRETT_V), 11), MQ_Q);
}

/* (-q, q) -> [0, q) */
static inline int16x8_t neon_mq_canon(int16x8_t a)
{
    return vaddq_s16(a, vandq_s16(vshrq_n_s16(a, 15), vdupq_n_s16(MQ_Q)));
}

/* [0, q) -> [-(q-1)/2, (q-1)/2] */
static inline int16x8_t neon_mq_centre(int16x8_t a)
{
    const uint16x8_t big = vcgtq_s16(a, vdupq_n_s16((MQ_Q - 1) / 2));
    return vsubq_s16(a, vandq_s16(vreinterpretq_s16_u16(big), vdupq_n_s16(MQ_Q)));
}

#define MQ_CT(a, b, z)                                                                                                 \
    do {                                                                                                               \
        const int16x8_t t_ = neon_mq_mont((b), (z));                                                                   \
        (b) = vsubq_s16((a), t_);                                                                                      \
        (a) = vaddq_s16((a), t_);                                                                                      \
    } while (0)

/* (a, b) -> (Barrett(a + b), z (a - b)): the inverse keeps every value below q on entry to a
 * layer (sums reduced to q/2 + 2, products below q), so the sum and difference stay below 2q */
#define MQ_GS(a, b, z)                                                                                                 \
    do {                                                                                                               \
        const int16x8_t d_ = vsubq_s16((a), (b));                                                                      \
        (a) = neon_mq_barrett(vaddq_s16((a), (b)));                                                                    \
        (b) = neon_mq_mont(d_, (z));                                                                                   \
    } while (0)

/* 8 x 8 transpose of 16-bit elements (its own inverse): r[i] lane j <-> r[j] lane i */
static inline void transpose8(int16x8_t r[8])
{
    int16x8_t t[8];
    int32x4_t u[8];
    for (unsigned int i = 0; i < 8; i += 2) {
        t[i] = vtrn1q_s16(r[i], r[i + 1]);
        t[i + 1] = vtrn2q_s16(r[i], r[i + 1]);
    }
    for (unsigned int i = 0; i < 8; i += 4) {
        u[i] = vtrn1q_s32(vreinterpretq_s32_s16(t[i]), vreinterpretq_s32_s16(t[i + 2]));
        u[i + 2] = vtrn2q_s32(vreinterpretq_s32_s16(t[i]), vreinterpretq_s32_s16(t[i + 2]));
        u[i + 1] = vtrn1q_s32(vreinterpretq_s32_s16(t[i + 1]), vreinterpretq_s32_s16(t[i + 3]));
        u[i + 3] = vtrn2q_s32(vreinterpretq_s32_s16(t[i + 1]), vreinterpretq_s32_s16(t[i + 3]));
    }
    for (unsigned int i = 0; i < 4; i++) {
        r[i] = vreinterpretq_s16_s64(vtrn1q_s64(vreinterpretq_s64_s32(u[i]), vreinterpretq_s64_s32(u[i + 4])));
        r[i + 4] = vreinterpretq_s16_s64(vtrn2q_s64(vreinterpretq_s64_s32(u[i]), vreinterpretq_s64_s32(u[i + 4])));
    }
}

/* Bounds: centred input (q/2); a layer adds less than q; Barrett after every second layer
 * (to q/2 + 2) keeps every word below 2.5 q + 2 < 2.66 q; the transposed group starts reduced
 * (a Barrett before it), does two layers, reduces, does the last, and the outputs are
 * Barrett-reduced and made canonical. */
int pqlab_fndsa_mq_ntt_native(uint16_t *a, unsigned logn)
{
    if (logn < 6 || logn > 10) {
        return PQLAB_NATIVE_DECLINED;
    }
    const size_t n = (size_t)1 << logn, nv = n / 8;
    int16_t *w = (int16_t *)(void *)a;
    for (size_t i = 0; i < n; i += 8) {
        vst1q_s16(w + i, neon_mq_centre(vld1q_s16(w + i)));
    }
    unsigned int layer = 0;
    for (size_t lenv = nv / 2; lenv >= 1; lenv >>= 1, layer++) { /* half-size len = 8 lenv words */
        const size_t m = n / (16 * lenv);
        for (size_t b = 0; b < m; b++) {
            const int16x8_t z = vdupq_n_s16(fndsa_ntt_zetas[m + b]);
            int16_t *p = w + 16 * lenv * b;
            for (size_t j = 0; j < 8 * lenv; j += 8) {
                int16x8_t x = vld1q_s16(p + j), y = vld1q_s16(p + j + 8 * lenv);
                MQ_CT(x, y, z);
                if (layer & 1) { /* public */
                    x = neon_mq_barrett(x);
                    y = neon_mq_barrett(y);
                }
                vst1q_s16(p + j, x);
                vst1q_s16(p + j + 8 * lenv, y);
            }
        }
    }
    for (size_t base = 0; base < n; base += 64) {
        int16x8_t c[8];
        for (unsigned int i = 0; i < 8; i++) {
            c[i] = neon_mq_barrett(vld1q_s16(w + base + 8 * i));
        }
        transpose8(c); /* c[j] lane r = word base + 8 r + j */
        /* len 4: block (8 words) base / 8 + r */
        const int16x8_t z4 = vld1q_s16(fndsa_ntt_zetas + n / 8 + base / 8);
        for (unsigned int j = 0; j < 4; j++) {
            MQ_CT(c[j], c[j + 4], z4);
        }
        /* len 2: block (4 words) base / 4 + 2 r + (j >= 4) */
        const int16x8x2_t z2 = vld2q_s16(fndsa_ntt_zetas + n / 4 + base / 4);
        MQ_CT(c[0], c[2], z2.val[0]);
        MQ_CT(c[1], c[3], z2.val[0]);
        MQ_CT(c[4], c[6], z2.val[1]);
        MQ_CT(c[5], c[7], z2.val[1]);
        for (unsigned int j = 0; j < 8; j++) {
            c[j] = neon_mq_barrett(c[j]);
        }
        /* len 1: block (2 words) base / 2 + 4 r + j / 2 */
        const int16x8x4_t z1 = vld4q_s16(fndsa_ntt_zetas + n / 2 + base / 2);
        for (unsigned int j = 0; j < 8; j += 2) {
            MQ_CT(c[j], c[j + 1], z1.val[j / 2]);
        }
        transpose8(c);
        for (unsigned int i = 0; i < 8; i++) {
            vst1q_s16(w + base + 8 * i, neon_mq_canon(neon_mq_barrett(c[i])));
        }
    }
    return PQLAB_NATIVE_DONE;
}

/* Bounds: centred input; every layer's sums are Barrett-reduced and its differences go
 * through a Montgomery product, so every word is below q on entry to each layer. The final
 * Montgomery product by 2^16 / n divides by n (modq.c's FIN_SCALE) and leaves (-q, q). */
int pqlab_fndsa_mq_intt_native(uint16_t *a, unsigned logn)
{
    if (logn < 6 || logn > 10) {
        return PQLAB_NATIVE_DECLINED;
    }
    const size_t n = (size_t)1 << logn, nv = n / 8;
    int16_t *w = (int16_t *)(void *)a;
    for (size_t base = 0; base < n; base += 64) {
        int16x8_t c[8];
        for (unsigned int i = 0; i < 8; i++) {
            c[i] = neon_mq_centre(vld1q_s16(w + base + 8 * i));
        }
        transpose8(c);
        const int16x8x4_t z1 = vld4q_s16(fndsa_ntt_izetas + n / 2 + base / 2);
        for (unsigned int j = 0; j < 8; j += 2) {
            MQ_GS(c[j], c[j + 1], z1.val[j / 2]);
        }
        const int16x8x2_t z2 = vld2q_s16(fndsa_ntt_izetas + n / 4 + base / 4);
        MQ_GS(c[0], c[2], z2.val[0]);
        MQ_GS(c[1], c[3], z2.val[0]);
        MQ_GS(c[4], c[6], z2.val[1]);
        MQ_GS(c[5], c[7], z2.val[1]);
        const int16x8_t z4 = vld1q_s16(fndsa_ntt_izetas + n / 8 + base / 8);
        for (unsigned int j = 0; j < 4; j++) {
            MQ_GS(c[j], c[j + 4], z4);
        }
        transpose8(c);
        for (unsigned int i = 0; i < 8; i++) {
            vst1q_s16(w + base + 8 * i, c[i]);
        }
    }
    for (size_t lenv = 1; lenv < nv; lenv <<= 1) {
        const size_t m = n / (16 * lenv);
        for (size_t b = 0; b < m; b++) {
            const int16x8_t z = vdupq_n_s16(fndsa_ntt_izetas[m + b]);
            int16_t *p = w + 16 * lenv * b;
            for (size_t j = 0; j < 8 * lenv; j += 8) {
                int16x8_t x = vld1q_s16(p + j), y = vld1q_s16(p + j + 8 * lenv);
                MQ_GS(x, y, z);
                vst1q_s16(p + j, x);
                vst1q_s16(p + j + 8 * lenv, y);
            }
        }
    }
    const int16x8_t scale = vdupq_n_s16((int16_t)(65536u >> logn));
    for (size_t i = 0; i < n; i += 8) {
        vst1q_s16(w + i, neon_mq_canon(neon_mq_mont(vld1q_s16(w + i), scale)));
    }
    return PQLAB_NATIVE_DONE;
}
