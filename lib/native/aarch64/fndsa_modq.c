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

/* ---- the coefficient-wise work around the transforms (PQLAB_FNDSA_MODQ_SIGN_NATIVE, contract in
 * lib/native/fndsa_modq.h): inverses, products, conversions and the norm of signing's end and of
 * complete_private. Canonical values in and out, so every output equals modq.c's. Written for
 * logn = 4 .. 10 (whole groups of 16 coefficients); smaller logn decline.
 *
 * General Montgomery products: neon_mq_mont(a, b) = a b 2^-16 in (-q, q) holds for any a, b in
 * (-q, q) too (|a b| < q^2 < q 2^15, the bound of the SQDMULH / SHSUB product above). A value x
 * goes to Montgomery form x 2^16 as neon_mq_mont(x, MQ_R2), MQ_R2 = 2^32 mod q centred. */
#define MQ_R2 (-1337) /* 2^32 mod q = 10952 = q - 1337 */

/* z^(q-2) 2^16 for two vectors given in Montgomery form (z 2^16): q - 2 = 12287 =
 * 0b10111111111111, so one squaring (bit 12 is 0) and twelve square-and-multiply steps, the same
 * fixed chain as modq.c's mq_inv (z = 0 gives 0); Montgomery products keep the form (a 2^16 b 2^16
 * 2^-16 = a b 2^16) and every value in (-q, q). Two chains side by side for the latency. */
static inline void neon_mq_inv2(int16x8_t *za, int16x8_t *zb)
{
    const int16x8_t xa = *za, xb = *zb;
    int16x8_t ra = neon_mq_mont(xa, xa), rb = neon_mq_mont(xb, xb);
    for (unsigned int i = 0; i < 12; i++) {
        ra = neon_mq_mont(neon_mq_mont(ra, ra), xa);
        rb = neon_mq_mont(neon_mq_mont(rb, rb), xb);
    }
    *za = ra;
    *zb = rb;
}

int pqlab_fndsa_mq_muldiv_native(uint16_t *r, const uint16_t *x, const uint16_t *y, const uint16_t *z, unsigned logn)
{
    if (logn < 4 || logn > 10) {
        return PQLAB_NATIVE_DECLINED;
    }
    const size_t n = (size_t)1 << logn;
    const int16x8_t r2 = vdupq_n_s16(MQ_R2);
    for (size_t i = 0; i < n; i += 16) {
        /* 1/z 2^16 */
        int16x8_t ia = neon_mq_mont(vreinterpretq_s16_u16(vld1q_u16(z + i)), r2);
        int16x8_t ib = neon_mq_mont(vreinterpretq_s16_u16(vld1q_u16(z + i + 8)), r2);
        neon_mq_inv2(&ia, &ib);
        int16x8_t xa = vreinterpretq_s16_u16(vld1q_u16(x + i)), xb = vreinterpretq_s16_u16(vld1q_u16(x + i + 8));
        if (y != NULL) { /* public: x y = (x 2^16) y 2^-16 */
            xa = neon_mq_mont(neon_mq_mont(xa, r2), vreinterpretq_s16_u16(vld1q_u16(y + i)));
            xb = neon_mq_mont(neon_mq_mont(xb, r2), vreinterpretq_s16_u16(vld1q_u16(y + i + 8)));
        }
        /* x (1/z 2^16) 2^-16, every load of this group done before the stores (r may be x or y) */
        vst1q_u16(r + i, vreinterpretq_u16_s16(neon_mq_canon(neon_mq_mont(xa, ia))));
        vst1q_u16(r + i + 8, vreinterpretq_u16_s16(neon_mq_canon(neon_mq_mont(xb, ib))));
    }
    return PQLAB_NATIVE_DONE;
}

/* a b + c d: (a b 2^-16 + c d 2^-16) in (-2q, 2q), times 2^32 2^-16 (|2q MQ_R2| < q 2^15) */
int pqlab_fndsa_mq_mul2add_native(uint16_t *r, const uint16_t *a, const uint16_t *b, const uint16_t *c,
                                  const uint16_t *d, unsigned logn)
{
    if (logn < 4 || logn > 10) {
        return PQLAB_NATIVE_DECLINED;
    }
    const size_t n = (size_t)1 << logn;
    const int16x8_t r2 = vdupq_n_s16(MQ_R2);
    for (size_t i = 0; i < n; i += 8) {
        const int16x8_t va = vreinterpretq_s16_u16(vld1q_u16(a + i)), vb = vreinterpretq_s16_u16(vld1q_u16(b + i));
        const int16x8_t vc = vreinterpretq_s16_u16(vld1q_u16(c + i)), vd = vreinterpretq_s16_u16(vld1q_u16(d + i));
        const int16x8_t s = vaddq_s16(neon_mq_mont(va, vb), neon_mq_mont(vc, vd));
        vst1q_u16(r + i, vreinterpretq_u16_s16(neon_mq_canon(neon_mq_mont(s, r2))));
    }
    return PQLAB_NATIVE_DONE;
}

/* int8 -> [0, q): sign-extended, q added to the negative ones */
int pqlab_fndsa_mq_of_small_native(uint16_t *r, const int8_t *f, unsigned logn)
{
    if (logn < 4 || logn > 10) {
        return PQLAB_NATIVE_DECLINED;
    }
    const size_t n = (size_t)1 << logn;
    for (size_t i = 0; i < n; i += 16) {
        const int8x16_t v = vld1q_s8(f + i);
        vst1q_u16(r + i, vreinterpretq_u16_s16(neon_mq_canon(vmovl_s8(vget_low_s8(v)))));
        vst1q_u16(r + i + 8, vreinterpretq_u16_s16(neon_mq_canon(vmovl_high_s8(v))));
    }
    return PQLAB_NATIVE_DONE;
}

/* s2 = centre(a), s1 = centre(hm - b) (hm - b in (-q, q), made canonical first); each lane's
 * s1^2 + s2^2 <= 2 6144^2 < 2^27 as an unsigned 32-bit word, pairs of lanes added into two
 * 64-bit accumulators (UADALP): exact, the same sum as modq.c's */
int pqlab_fndsa_mq_norm_native(int16_t *s2, const uint16_t *a, const uint16_t *b, const uint16_t *hm, unsigned logn,
                               uint64_t *s)
{
    if (logn < 4 || logn > 10) {
        return PQLAB_NATIVE_DECLINED;
    }
    const size_t n = (size_t)1 << logn;
    uint64x2_t acc = vdupq_n_u64(0);
    for (size_t i = 0; i < n; i += 8) {
        const int16x8_t x2 = neon_mq_centre(vreinterpretq_s16_u16(vld1q_u16(a + i)));
        const int16x8_t d = vreinterpretq_s16_u16(vsubq_u16(vld1q_u16(hm + i), vld1q_u16(b + i)));
        const int16x8_t x1 = neon_mq_centre(neon_mq_canon(d));
        vst1q_s16(s2 + i, x2);
        const int32x4_t lo =
            vmlal_s16(vmull_s16(vget_low_s16(x1), vget_low_s16(x1)), vget_low_s16(x2), vget_low_s16(x2));
        const int32x4_t hi = vmlal_high_s16(vmull_high_s16(x1, x1), x2, x2);
        acc = vpadalq_u32(acc, vreinterpretq_u32_s32(lo));
        acc = vpadalq_u32(acc, vreinterpretq_u32_s32(hi));
    }
    *s = vaddvq_u64(acc);
    return PQLAB_NATIVE_DONE;
}

/* rint(z) (FCVTNS: nearest, ties to even, the value of fpr.h's fpr_rint for |z| < 2^63), its low
 * 32 bits plus 2^16 q modulo 2^32, then modulo q as modq.c's mq_red: t = floor(u 5591950 / 2^36)
 * is floor(u / q) or one less for u < 2^32, r = u - t q in [0, 2q), min(r, r - q) as unsigned
 * words finishes */
static inline uint32x4_t neon_mq_rint_red(const double *z)
{
    const int64x2_t v0 = vcvtnq_s64_f64(vreinterpretq_f64_u8(vld1q_u8((const uint8_t *)(const void *)z)));
    const int64x2_t v1 = vcvtnq_s64_f64(vreinterpretq_f64_u8(vld1q_u8((const uint8_t *)(const void *)(z + 2))));
    const uint32x4_t u =
        vaddq_u32(vuzp1q_u32(vreinterpretq_u32_s64(v0), vreinterpretq_u32_s64(v1)), vdupq_n_u32((uint32_t)MQ_Q << 16));
    const uint32x4_t m = vdupq_n_u32(5591950u);
    const uint64x2_t pl = vshrq_n_u64(vmull_u32(vget_low_u32(u), vget_low_u32(m)), 36);
    const uint64x2_t ph = vshrq_n_u64(vmull_high_u32(u, m), 36);
    const uint32x4_t t = vuzp1q_u32(vreinterpretq_u32_u64(pl), vreinterpretq_u32_u64(ph));
    const uint32x4_t r = vmlsq_u32(u, t, vdupq_n_u32(MQ_Q));
    return vminq_u32(r, vsubq_u32(r, vdupq_n_u32(MQ_Q)));
}

int pqlab_fndsa_mq_of_rint_native(uint16_t *r, const double *z, unsigned logn)
{
    if (logn < 4 || logn > 10) {
        return PQLAB_NATIVE_DECLINED;
    }
    const size_t n = (size_t)1 << logn;
    for (size_t i = 0; i < n; i += 8) {
        const uint16x8_t v = vcombine_u16(vmovn_u32(neon_mq_rint_red(z + i)), vmovn_u32(neon_mq_rint_red(z + i + 4)));
        vst1q_u16(r + i, v);
    }
    return PQLAB_NATIVE_DONE;
}
