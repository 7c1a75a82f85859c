/* SPDX-License-Identifier: MIT */
/* FN-DSA NTRU solver: Babai reduction, floating and fixed point (see ntru.c and ntru_internal.h). */
#include "ntru_internal.h"

/* ---------------------------------------------------------------------- */
/* Babai reduction (spec 3.8.2, alg. 7, "Reduce").                         */

/* x * 2^e, constant time, for any int e: 0 when the result would be below
 * 2^-1022 (or x is 0); 0 and *big set when the biased exponent would exceed maxe
 * (callers that need values below 2^31 use maxe = 1023 + 40). */
static fpr fpr_ldexp_lim(fpr x, int32_t e, int32_t maxe, uint32_t *big)
{
    uint64_t u = fpr_to_bits(x);
    int32_t ex = (int32_t)((u >> 52) & 0x7FF);
    int32_t ne = ex + e;
    uint32_t zero = pqlab_ct_is_zero_u32((uint32_t)ex) | ((uint32_t)(ne - 1) >> 31);
    uint32_t ovf = ((uint32_t)(maxe - ne) >> 31) & (zero ^ 1);
    uint64_t r = (u & 0x800FFFFFFFFFFFFFu) | ((uint64_t)(uint32_t)ne << 52 & 0x7FF0000000000000u);
    r &= (uint64_t)0 - (uint64_t)((zero | ovf) ^ 1);
    *big |= ovf;
    return fpr_from_bits(r);
}

/* one pass: limb i is needed for the signed value when it differs from the
 * sign extension or limb i - 1 has its top bit different from the sign;
 * returns nl = 1 + the highest needed index (secret), and w = (w0, w1, w2) =
 * limbs nl - 3, nl - 2, nl - 1 (0 below limb 0) */
#ifdef PQLAB_FNDSA_ZINT_NATIVE
static inline uint32_t zint_top3(const uint32_t *x, size_t len, uint32_t w[3])
{
    return pqlab_fndsa_zint_top3_native(x, len, w);
}
#else
static uint32_t zint_top3(const uint32_t *x, size_t len, uint32_t w[3])
{
    uint32_t ext = zsign(x, len);
    uint32_t nl = 1, w2 = x[0], w1 = 0, w0 = 0;
    uint32_t p1 = x[0], p2 = 0; /* x[i - 1], x[i - 2] */
    for (size_t i = 1; i < len; i++) {
        uint32_t xi = x[i];
        uint32_t need = (1u ^ pqlab_ct_is_zero_u32(xi ^ ext)) | ((p1 ^ ext) >> 31);
        uint32_t mk = (uint32_t)0 - need;
        nl ^= (nl ^ ((uint32_t)i + 1)) & mk;
        w0 ^= (w0 ^ p2) & mk;
        w1 ^= (w1 ^ p1) & mk;
        w2 ^= (w2 ^ xi) & mk;
        p2 = p1;
        p1 = xi;
    }
    w[0] = w0;
    w[1] = w1;
    w[2] = w2;
    return nl;
}
#endif

/* x * 2^-sc (sc public) from the three most significant limbs that carry the
 * value (relative error below 2^-51); the limbs are picked with masks over the
 * whole integer (zint_top3), so neither the position nor the bit length of x leaks. */
fpr zint_to_fpr_fit(const uint32_t *x, size_t len, int32_t sc)
{
    uint32_t w[3];
    uint32_t nl = zint_top3(x, len, w), w2 = w[2], w1 = w[1], w0 = w[0];
    uint32_t ovf = 0;
    fpr r = fpr_add(fpr_ldexp(fpr_of((int64_t)(((uint64_t)w2 << 32) | w1)), 32), fpr_of((int64_t)w0));
    return fpr_ldexp_lim(r, (int32_t)(32 * nl) - 96 - sc, 2046, &ovf);
}

/* 1 when every coefficient of p (m values of len limbs) is in
 * [-2^bits, 2^bits): constant time, the caller declassifies only the
 * accept/reject decision it takes on it */
uint32_t poly_fits(const uint32_t *p, size_t m, size_t len, uint32_t bits)
{
    /* x fits when every bit at positions bits, ..., 32 len - 1 equals the
     * sign: only the limbs from the one holding bit `bits` up are read (public
     * positions) */
    size_t b = bits / 32;
    unsigned o = bits % 32;
    if (b >= len) {
        return 1;
    }
    uint32_t bad = 0;
    for (size_t u = 0; u < m; u++) {
        const uint32_t *x = p + u * len;
        uint32_t ext = zsign(x, len);
        uint32_t acc = (x[b] ^ ext) >> o;
        for (size_t i = b + 1; i < len; i++) {
            acc |= x[i] ^ ext;
        }
        bad |= acc;
    }
    return pqlab_ct_is_zero_u32(bad);
}

/* x (xlen limbs) -= a (alen limbs, signed) << s (public), modulo 2^(32 xlen) */
#ifdef PQLAB_FNDSA_ZINT_NATIVE
static inline void zsub_shifted(uint32_t *x, size_t xlen, const uint32_t *a, size_t alen, uint32_t s)
{
    pqlab_fndsa_zsub_shifted_native(x, xlen, a, alen, s);
}
#else
static void zsub_shifted(uint32_t *x, size_t xlen, const uint32_t *a, size_t alen, uint32_t s)
{
    if (s == 0 && alen <= xlen) {
        zsub(x, xlen, a, alen);
        return;
    }
    size_t sw = s >> 5;
    uint32_t sb = s & 31;
    uint32_t ext = zsign(a, alen), prev = 0, bw = 0;
    for (size_t z = sw; z < xlen; z++) { /* limbs below sw are unchanged */
        size_t src = z - sw;
        uint32_t cur = src < alen ? a[src] : ext;
        uint32_t w = sb == 0 ? cur : (cur << sb) | (prev >> (32 - sb));
        prev = cur;
        uint64_t t = (uint64_t)x[z] - w - bw;
        x[z] = (uint32_t)t;
        bw = (uint32_t)(t >> 63);
    }
}
#endif

/* F -= (k * f) << s in Z[x]/(x^m + 1) for k with |k_i| < 2^31, schoolbook (the
 * small degrees; babai_sub uses the RNS products from m = 16). F: Flen limbs,
 * f: flen limbs; s public. The sum of the m products of each output
 * coefficient is formed exactly (acc96 for one-limb f: |sum| < m 2^62 < 2^72;
 * alen = flen + 2 limbs otherwise: |sum| < m 2^31 |f| < 2^(32 flen + 41)),
 * then shifted and subtracted. */
#ifdef PQLAB_FNDSA_ZINT_NATIVE
/* The same F (the sums are exact) from unsigned one-limb multipliers, all rows of a
 * coefficient in one kernel call (pqlab_fndsa_zmacn_native, two rows per pass): with
 * kk = +-k_i in (-2^31, 2^31), kk f_j = (kk + 2^31) f_j - 2^31 f_j, and over the m terms of
 * a coefficient every f_j occurs once, so each sum starts from -2^31 (f_0 + ... + f_{m-1}),
 * formed once per call (with the same kernel). The bound above carries over (alen =
 * flen + 2 limbs for every flen). Workspace: 2 alen + 2 m words (m < 16) instead of alen. */
static void poly_sub_scaled(uint32_t *F, size_t Flen, const uint32_t *f, size_t flen, const int32_t *k, size_t m,
                            uint32_t s, ws_t *ws)
{
    size_t mark = ws->used, alen = flen + 2;
    uint32_t *acc = ws_alloc(ws, alen), *base = ws_alloc(ws, alen), *up = ws_alloc(ws, 2 * m);
    if (ws->fail) {
        return;
    }
    /* base = -2^31 (f_0 + ... + f_{m-1}): the sum with multipliers 2^31 (coefficient m - 1
     * takes every row unwrapped), negated */
    for (size_t i = 0; i < m; i++) {
        up[2 * i] = 0x80000000u;
    }
    wzero(base, alen);
    pqlab_fndsa_zmacn_native(base, NULL, flen, f, m - 1, m, up);
    uint32_t cy = 1;
    for (size_t z = 0; z < alen; z++) {
        uint64_t t = (uint64_t)(uint32_t)~base[z] + cy;
        base[z] = (uint32_t)t;
        cy = (uint32_t)(t >> 32);
    }
    /* up[2i] = k_i + 2^31, up[2i + 1] = -k_i + 2^31 (the wrapped terms) */
    for (size_t i = 0; i < m; i++) {
        up[2 * i] = (uint32_t)k[i] + 0x80000000u;
        up[2 * i + 1] = ((uint32_t)0 - (uint32_t)k[i]) + 0x80000000u;
    }
    for (size_t c = 0; c < m; c++) {
        pqlab_fndsa_zmacn_native(acc, base, flen, f, c, m, up);
        zsub_shifted(F + c * Flen, Flen, acc, alen, s);
    }
    ws->used = mark;
}
#else
static void poly_sub_scaled(uint32_t *F, size_t Flen, const uint32_t *f, size_t flen, const int32_t *k, size_t m,
                            uint32_t s, ws_t *ws)
{
    size_t mark = ws->used;
    size_t alen = flen == 1 ? 3 : flen + 2;
    uint32_t *acc = ws_alloc(ws, alen);
    if (ws->fail) {
        return;
    }
    for (size_t c = 0; c < m; c++) {
        if (flen == 1) {
            acc96 a3 = {0, 0};
            for (size_t i = 0; i < m; i++) {
                size_t j = c >= i ? c - i : c + m - i;
                acc_add(&a3, (int64_t)k[i] * (int64_t)(int32_t)f[j], c < i);
            }
            acc_store(acc, 3, &a3);
        } else {
            wzero(acc, alen);
            for (size_t i = 0; i < m; i++) {
                size_t j = c >= i ? c - i : c + m - i;
                int64_t kk = c >= i ? (int64_t)k[i] : -(int64_t)k[i]; /* |k| < 2^31 */
                const uint32_t *y = f + j * flen;
                int64_t cy = 0;
                for (size_t z = 0; z < flen; z++) {
                    int64_t yz = z + 1 < flen ? (int64_t)y[z] : (int64_t)(int32_t)y[z];
                    int64_t t = yz * kk + (int64_t)acc[z] + cy; /* |t| < 2^63 */
                    acc[z] = (uint32_t)t;
                    cy = t >> 32; /* arithmetic shift (two's complement targets) */
                }
                for (size_t z = flen; z < alen; z++) {
                    int64_t t = (int64_t)acc[z] + cy;
                    acc[z] = (uint32_t)t;
                    cy = t >> 32;
                }
            }
        }
        zsub_shifted(F + c * Flen, Flen, acc, alen, s);
    }
    ws->used = mark;
}
#endif /* PQLAB_FNDSA_ZINT_NATIVE */

/* out[u] = x_u 2^-sc for the m coefficients x_u (stride limbs apart, the low rl
 * limbs read: the caller knows the limbs above are sign extension). With win,
 * the limbs below bit sc - 64 are left out: they move a scaled value by less
 * than 2^-64. Only for the scales of the reference's schedule, which reads
 * nothing below bit sc at all (its top ten words), so that a value far below
 * 2^sc reads as 0 there as well; not for the scales taken from a limb count,
 * which can sit far above the value. */
void poly_to_fpr(fpr *out, const uint32_t *x, size_t m, size_t stride, size_t rl, int32_t sc, int win)
{
    size_t lo = win && sc >= 64 ? (size_t)(sc - 64) / 32 : 0;
    if (lo >= rl) {
        lo = rl - 1;
    }
    sc -= 32 * (int32_t)lo;
    for (size_t u = 0; u < m; u++) {
        const uint32_t *xu = x + u * stride + lo;
        if (rl - lo <= 2) { /* public: the value as one int64, the same rounding */
            uint32_t hi = rl - lo == 2 ? xu[1] : (uint32_t)((int32_t)xu[0] >> 31);
            uint32_t ovf = 0;
            out[u] = fpr_ldexp_lim(fpr_of((int64_t)(((uint64_t)hi << 32) | xu[0])), -sc, 2046, &ovf);
        } else {
            out[u] = zint_to_fpr_fit(xu, rl - lo, sc);
        }
    }
}

/* poly_to_fpr(out, x, m, len, len, 0, 0) with x stored at out (m coefficients of
 * len limbs): the fpr of coefficient u takes words 2u, 2u + 1. For len >= 2 they
 * were read with coefficients u and before (forward); for len = 1 with coefficients
 * 2u, 2u + 1 >= u (backward). The compiler barrier keeps every store after the
 * loads it may overwrite (they alias as uint32_t and fpr). */
void poly_to_fpr_inplace(fpr *out, size_t m, size_t len)
{
    const uint32_t *x = (const uint32_t *)(const void *)out;
    for (size_t i = 0; i < m; i++) {
        size_t u = len >= 2 ? i : m - 1 - i;
        fpr v;
        poly_to_fpr(&v, x + u * len, 1, len, len, 0, 0);
#if defined(__GNUC__)
        __asm__ volatile("" : : "r"(&v) : "memory");
#endif
        out[u] = v;
#if defined(__GNUC__)
        __asm__ volatile("" : : : "memory");
#endif
    }
}

/* ---------------------------------------------------------------------- */
/* Babai steps of the reference schedule in fixed point (depths 2..4).       */
/*
 * k = round(x / 2^s), x = (F adj(f) + G adj(g)) / (f adj(f) + g adj(g)) in
 * Q[x]/(x^m + 1), computed with int64 values in block floating point instead of
 * emulated binary64 (babai_init with fft = 2, babai_k_fx), at the intermediate depths
 * up to NTRU_FX_MAX_DEPTH (why not deeper: the comment above babai_k_fx):
 *
 *  - f, g are read at a common exponent: bf = the largest bit length of their
 *    coefficients (x in [-2^b, 2^b)), f'_i = floor(f_i / 2^(bf - Q)), Q = 62 - logm,
 *    so |f'_i| <= 2^Q; F, G likewise at bF (per step). bf, bF are secret: they are
 *    found with masks over all limbs (poly_maxbits) and applied with masked limb
 *    selection and branch-free shifts (zwin64), like the fpr emulation's exponents.
 *  - Negacyclic FFT in place (the one of keygen.c's ortho_norm, fx_fft: the complex
 *    polynomial a_j = c_j + i c_{j+m/2} is c mod (x^{m/2} - i), each level splits
 *    x^{2L} - t into x^L -+ sqrt(t), twiddles fndsa_fx_zeta = round(s 2^63) in signed
 *    32-bit halves). Every value of every level is a coefficient of c mod (x^L - t),
 *    |t| = 1, so its modulus is at most ||c'||_1 <= m 2^Q = 2^62: no overflow.
 *  - Once per depth: D_j = |f_j|^2 + |g_j|^2 exactly in 128 bits, normalised
 *    (D_j ~ D'_j 2^(64 - c_j), D'_j in [2^63, 2^64), c_j = its leading zero count),
 *    R_j = floor(2^126 / D'_j) by restoring division (64 fixed iterations), and
 *    U_j = 2^E conj(f_j) / D_j, V_j = 2^E conj(g_j) / D_j with the common exponent
 *    E = 61 + floor((127 - cmax) / 2) (cmax = max c_j: the smallest D_j), so that
 *    |(U_j, V_j)| = 2^E / sqrt(D_j) <= 2^61.
 *  - Per step: X_j = (F_j U_j + G_j V_j) / 2^63 (|X_j| <= sqrt(2) 2^62 2^61 / 2^63
 *    = 2^60.5), inverse FFT (halving at every level: values stay below 2^60.5 plus
 *    the rounding), then x_i / 2^s = x~_i 2^tau with tau = bF - bf - E + 63 - s
 *    (secret, common to the step): k = floor(x~ 2^tau + 1/2), and "big" (the
 *    reference's reject: |x / 2^s| >= 2^31 - 1) from an integer threshold.
 *
 * No FPU and no fpr: the same values on every target and fpr layer. Precision: the
 * comment above babai_k_fx.
 */

/* the largest bit length b (every coefficient in [-2^b, 2^b)) of m coefficients
 * (stride limbs apart, the low rl limbs read: the caller knows the limbs above
 * are sign extension); 0 when all are 0 or -1. Constant time: one OR per limb
 * of (x ^ sign) over the coefficients, then the top nonzero limb with masks. */
uint32_t poly_maxbits(const uint32_t *p, size_t m, size_t stride, size_t rl)
{
    uint32_t top = 0, idx = 0;
    for (size_t i = 0; i < rl; i++) {
        uint32_t o = 0;
        for (size_t u = 0; u < m; u++) {
            const uint32_t *x = p + u * stride;
            o |= x[i] ^ ((uint32_t)0 - (x[rl - 1] >> 31));
        }
        uint32_t nz = (uint32_t)0 - (1u ^ pqlab_ct_is_zero_u32(o));
        top ^= (top ^ o) & nz;
        idx ^= (idx ^ (uint32_t)(i + 1)) & nz;
    }
    uint32_t cnt;
    (void)fpr_norm64((uint64_t)top << 32, &cnt); /* clz32(top), 63 when top = 0 */
    return (32 * idx - cnt) & ((uint32_t)0 - (1u ^ pqlab_ct_is_zero_u32(idx)));
}

/* floor(x / 2^t) as int64 for a signed x of len limbs (low len limbs read) and a
 * secret t in [-64, 32 len), when the result is below 2^63 in absolute value:
 * bits t .. t + 63 of x 2^64 (two zero limbs below x, sign extension above), the
 * three limbs w, w + 1, w + 2 (w = (t + 64) / 32) gathered with one mask per limb
 * over all limbs (a limb at j joins a0, a1, a2 when j = w, w + 1, w + 2), then
 * shifted without a data-dependent branch */
static int64_t zwin64(const uint32_t *x, size_t len, int32_t t)
{
    uint32_t ext = zsign(x, len);
    uint32_t tt = (uint32_t)(t + 64), w = tt >> 5, r = tt & 31;
    uint32_t a0 = 0, a1 = 0, a2 = 0;
    uint32_t p1 = (uint32_t)0 - pqlab_ct_is_zero_u32(w - 1); /* j - 1 == w for j = 2 */
    uint32_t p2 = (uint32_t)0 - pqlab_ct_is_zero_u32(w);     /* j - 2 == w */
    for (size_t j = 2; j < len + 4; j++) {
        uint32_t e = j < len + 2 ? x[j - 2] : ext; /* public index */
        uint32_t mk = (uint32_t)0 - pqlab_ct_is_zero_u32((uint32_t)j ^ w);
        a0 |= e & mk;
        a1 |= e & p1;
        a2 |= e & p2;
        p2 = p1;
        p1 = mk;
    }
    uint64_t v = fpr_ursh(((uint64_t)a1 << 32) | a0, r);
    v |= fpr_ulsh((uint64_t)a2 << 32, 32 - r); /* 32 - r in [1, 32] */
    return (int64_t)v;
}

/* out[u] = floor(x_u / 2^e) 2^sh modulo 2^64 for the m coefficients x_u (stride limbs
 * apart, the low rl limbs read, sign extension above): x on the grid of 2^(e - sh)
 * as a 64-bit fixed-point reader takes it (the Hawk reference's, lib/hawk/ntru_fx.c,
 * through hawk_schedule in ntru.c); e (secret) >= 0, sh (secret) in [0, 32] */
void poly_to_fx_grid(int64_t *out, const uint32_t *x, size_t m, size_t stride, size_t rl, int32_t e, int32_t sh)
{
    /* at and above bit 32 rl - 1 every quotient is the sign, 0 or -1 */
    int32_t top = 32 * (int32_t)rl - 1;
    int32_t t = e ^ ((e ^ top) & ((top - e) >> 31));
    for (size_t u = 0; u < m; u++) {
        out[u] = (int64_t)fpr_ulsh((uint64_t)zwin64(x + u * stride, rl, t), (uint32_t)sh);
    }
}

/* round(b Z / 2^64) within 3/4 (bl zl / 2^64 at most 1/4 dropped) */
static inline int64_t fxb_mul64(int32_t bh, int32_t bl, int32_t zh, int32_t zl)
{
    int64_t p = (int64_t)bh * zh;
    int64_t mm = (int64_t)bh * zl + (int64_t)bl * zh + ((int64_t)1 << 31);
    return p + (mm >> 32);
}

/* a: hm = m/2 complex values (re, im interleaved), a_j = c_j + i c_{j+hm}, in place
 * to the values at the hm roots of x^hm - i (bit-reversed order of the split tree) */
static void fxb_fft(int64_t *a, unsigned logm)
{
    fx_fft_levels(a, ((size_t)1 << (logm - 1)) >> 1, 1);
}

/* inverse of fxb_fft: every level (x, y) -> ((x + y) / 2, (x - y) conj(s) / 2),
 * rounded; values never grow (each output is at most the mean of two inputs'
 * moduli plus the rounding) */
static void fxb_ifft(int64_t *a, unsigned logm)
{
    size_t hm = (size_t)1 << (logm - 1);
    for (size_t len = 1, blk = hm >> 1; len < hm; len <<= 1, blk >>= 1) {
        for (size_t k = 0; k < blk; k++) {
            const int32_t *z = fndsa_fx_zeta[blk - 1 + k];
            int32_t zrh = z[0], zrl = z[1], zih = z[2], zil = z[3];
            int64_t *pa = a + 4 * len * k, *pb = pa + 2 * len;
            for (size_t j = 0; j < 2 * len; j += 2) {
                int64_t xr = pa[j], xi = pa[j + 1], yr = pb[j], yi = pb[j + 1];
                pa[j] = (xr + yr + 1) >> 1;
                pa[j + 1] = (xi + yi + 1) >> 1;
                int32_t drh, drl, dih, dil;
                fx_split(xr - yr, &drh, &drl);
                fx_split(xi - yi, &dih, &dil);
                /* (dr + i di)(zr - i zi) / 2 */
                pb[j] = fxb_mul64(drh, drl, zrh, zrl) + fxb_mul64(dih, dil, zih, zil);
                pb[j + 1] = fxb_mul64(dih, dil, zrh, zrl) - fxb_mul64(drh, drl, zih, zil);
            }
        }
    }
}

/* a: the m coefficients x_u 2^-t (stride limbs apart, rl limbs read), floor, in the
 * interleaved complex layout of fxb_fft. The window is common to all coefficients, so
 * the one-hot masks of its limb (w = (t + 64) / 32 among the rl + 2 limbs of x 2^64)
 * are computed once (up to FXB_MASKS limbs; zwin64 otherwise) and every limb then
 * costs three AND-ORs (the masks of j, j - 1, j - 2 select it for a0, a1, a2) */
#define FXB_MASKS 64
void fxb_load(int64_t *a, const uint32_t *x, size_t m, size_t stride, size_t rl, int32_t t)
{
    size_t hm = m >> 1;
    if (rl + 2 > FXB_MASKS) {
        for (size_t u = 0; u < m; u++) {
            a[u < hm ? 2 * u : 2 * (u - hm) + 1] = zwin64(x + u * stride, rl, t);
        }
        return;
    }
    uint32_t tt = (uint32_t)(t + 64), w = tt >> 5, r = tt & 31;
    uint32_t mk[FXB_MASKS];
    /* j ^ w, not j - w: GCC would turn j - w into an induction variable and compare it
     * with rl + 2 - w to end the loop (a branch on w) */
    for (size_t j = 0; j < rl + 2; j++) {
        mk[j] = (uint32_t)0 - pqlab_ct_is_zero_u32((uint32_t)j ^ w);
    }
    /* beyond limb rl + 1 of x 2^64 everything is sign extension: a1 is when w = rl + 1,
     * a2 when w >= rl */
    const uint32_t t1 = mk[rl + 1], t2 = mk[rl] | mk[rl + 1];
    for (size_t u = 0; u < m; u++) {
        const uint32_t *xu = x + u * stride;
        uint32_t ext = zsign(xu, rl);
        uint32_t a0 = 0, a1 = ext & t1, a2 = ext & t2;
        uint32_t m1 = mk[1], m2 = mk[0]; /* limbs 0 and 1 of x 2^64 are 0 */
        for (size_t j = 2; j < rl + 2; j++) {
            uint32_t e = xu[j - 2], m0 = mk[j];
            a0 |= e & m0;
            a1 |= e & m1;
            a2 |= e & m2;
            m2 = m1;
            m1 = m0;
        }
        uint64_t v = fpr_ursh(((uint64_t)a1 << 32) | a0, r);
        v |= fpr_ulsh((uint64_t)a2 << 32, 32 - r); /* 32 - r in [1, 32] */
        a[u < hm ? 2 * u : 2 * (u - hm) + 1] = (int64_t)v;
    }
}

/* the carry out of the 64-bit addition x + y = s, from the top bits (no comparison: for
 * `(uint64_t)(s < y)` arm-none-eabi-gcc 12 -O3 emits a 64-bit compare whose 0/1 result is
 * spilled with an IT-predicated STR, a store that happens or not by the secret, and
 * -mcpu=cortex-m7 a conditional branch; pqlab-sim's taint analysis reported both, docs/ct.md) */
static inline uint64_t add_carry64(uint64_t x, uint64_t y, uint64_t s)
{
    return ((x & y) | ((x | y) & ~s)) >> 63;
}

/* (hi, lo) += v^2 (128-bit unsigned) for |v| < 2^63 */
static inline void u128_add_sq(uint64_t *hi, uint64_t *lo, int64_t v)
{
    uint64_t s = (uint64_t)(v >> 63);
    uint64_t a = ((uint64_t)v ^ s) - s;
    uint64_t ah = a >> 32, al = a & 0xFFFFFFFFu;
    uint64_t mid = ah * al; /* a^2 = ah^2 2^64 + mid 2^33 + al^2 */
    uint64_t l0 = al * al, h = ah * ah + (mid >> 31);
    uint64_t ml = mid << 33;
    uint64_t l = l0 + ml;
    h += add_carry64(l0, ml, l);
    uint64_t t = *lo + l;
    *hi += h + add_carry64(*lo, l, t);
    *lo = t;
}

/* |a| R (a signed, |a| < 2^63; R < 2^64) rounded and shifted right by sh (secret, in
 * [1, 191]), sign restored: the callers' values are below 2^62 in absolute value */
static int64_t mul_shr_round(int64_t a, uint64_t R, uint32_t sh)
{
    uint64_t s = (uint64_t)(a >> 63);
    uint64_t x = ((uint64_t)a ^ s) - s;
    uint64_t xh = x >> 32, xl = x & 0xFFFFFFFFu, rh = R >> 32, rl = R & 0xFFFFFFFFu;
    uint64_t ll = xl * rl, lh = xl * rh, hl = xh * rl, hh = xh * rh;
    uint64_t mid = (ll >> 32) + (lh & 0xFFFFFFFFu) + (hl & 0xFFFFFFFFu);
    uint64_t lo = (ll & 0xFFFFFFFFu) | (mid << 32);
    uint64_t hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
    /* the value is below 2^127: shifts of 128 or more give 0 */
    uint64_t keep = (uint64_t)0 - (uint64_t)((sh - 128) >> 31); /* sh < 128 */
    sh &= 127;
    /* + 2^(sh - 1) */
    uint32_t h1 = sh - 1;
    uint64_t inc = fpr_ulsh(1, h1 & 63);
    uint64_t inlo = (uint64_t)0 - (uint64_t)((h1 - 64) >> 31); /* h1 < 64 */
    uint64_t tl = lo + (inc & inlo);
    /* the carry from the top bits (add_carry64) */
    hi += (inc & ~inlo) + add_carry64(lo, inc & inlo, tl);
    lo = tl;
    /* >> sh: first the 64 part with a mask, then the rest */
    uint64_t m64 = (uint64_t)0 - (uint64_t)(sh >> 6);
    lo ^= (lo ^ hi) & m64;
    hi &= ~m64;
    uint32_t r = sh & 63;
    uint64_t v = fpr_ursh(lo, r) | (fpr_ulsh(hi, 63 - r) << 1);
    v &= keep;
    return (int64_t)((v ^ s) - s);
}

/* floor(2^126 / d) for d in [2^63, 2^64) (at most 2^63): restoring division, 64 fixed
 * iterations; the remainder starts at floor(2^126 / 2^64) = 2^62 < d */
static uint64_t recip126(uint64_t d)
{
    uint64_t r = (uint64_t)1 << 62, q = 0;
    for (int i = 0; i < 64; i++) {
        uint64_t c = r >> 63; /* the doubled remainder is c 2^64 + r: below 2 d */
        r <<= 1;
        uint64_t t = r - d;
        uint64_t bw = ((~r & d) | (~(r ^ d) & t)) >> 63; /* r < d */
        uint64_t ge = c | (bw ^ 1);
        r ^= (r ^ t) & ((uint64_t)0 - ge);
        q = (q << 1) | ge;
    }
    return q;
}

/* psi, ipsi of prime j (2m words): from the cache unless fresh (then computed
 * into it), or without a cache computed into the scratch at Fa (free between
 * Babai steps; at least 3m words, of which babai_sub uses the third m for k) */
static uint32_t *babai_roots(const babai_t *b, size_t j, size_t m, unsigned logm, int fresh)
{
    uint32_t *scratch = (uint32_t *)(void *)b->Fa;
    uint32_t *psi = b->roots != NULL ? b->roots + 2 * m * j : scratch;
    if (b->roots == NULL || fresh) {
        mp_roots(psi, psi + m, b->roots != NULL ? scratch : psi + 2 * m, RNS_P[j][1], logm, &b->qs[j]);
    }
    return psi;
}

static void babai_init_fx(babai_t *b, const uint32_t *f, const uint32_t *g, size_t flen, size_t m, unsigned logm);

/* fft: 0, k computed by the caller (only Fa is used, as babai_sub's scratch of 3m
 * words); BABAI_ONCE, the same for a single babai_sub: f, g are not kept in NTT form
 * (babai_sub transforms them itself, the same count of NTTs for one step) and b->k is
 * the caller's (set after babai_init); 1, floating point (babai_k); 2, fixed point
 * (babai_k_fx, m >= 2; its 2m int64 are the scratch at Fa) */
int babai_init(babai_t *b, const uint32_t *f, const uint32_t *g, size_t flen, uint32_t fbits, int32_t scf, int win,
               int fft, size_t m, unsigned logm, ws_t *ws)
{
    const int once = fft == BABAI_ONCE;
    if (once) {
        fft = 0;
    }
    fpr *p = fft == 0 ? (fpr *)(void *)ws_alloc(ws, once ? 2 * m : 3 * m) : ws_alloc_fpr(ws, fft == 1 ? 6 * m : 2 * m);
    b->uv = fft == 2 ? (int32_t *)(void *)ws_alloc(ws, 4 * m) : NULL;
    /* k: the caller's (once), or in the fixed-point scratch's fourth m words (fft = 2: the
     * 2m int64 hold G's transform there, dead once the products are formed, and
     * babai_sub leaves them alone), or m words of its own */
    b->k = once       ? NULL
           : fft == 2 ? (p == NULL ? NULL : (int32_t *)(void *)((uint32_t *)(void *)p + 3 * m))
                      : (int32_t *)(void *)ws_alloc(ws, m);
    b->once = once;
    if (ws->fail) {
        return 0;
    }
    b->xa = (int64_t *)(void *)p;
    b->fxe = 0;
    b->fa = fft == 1 ? p : NULL;
    b->ga = fft == 1 ? p + m : NULL;
    b->dn = fft == 1 ? p + 2 * m : NULL;
    b->Fa = fft == 1 ? p + 3 * m : p;
    b->Ga = fft == 1 ? p + 4 * m : NULL;
    b->tt = fft == 1 ? p + 5 * m : NULL;
    b->scf = scf;
    b->win = win;
    b->np = 0;
    b->roots = NULL;
    if (m >= 16) {
        /* k f: |coefficient| < m 2^31 2^fbits */
        size_t np = rns_count(fbits + 31 + logm);
        if (np <= RNS_MAXP) {
            /* f, g in NTT form for all the steps of a depth when that leaves room for
             * babai_sub's residues and the constants (public sizes; always for the Hawk
             * schedule, fft = 0, whose scratch at Fa has no room for one more NTT);
             * otherwise babai_sub transforms them at every step */
            int keep = !once && (fft == 0 || ws->cap - ws->used >= 3 * np * m + np * np + 7 * np + flen + 6);
            b->fnt = keep ? ws_alloc(ws, np * m) : NULL;
            b->gnt = keep ? ws_alloc(ws, np * m) : NULL;
            b->cst = ws_alloc(ws, np * np + 2 * np);
            b->PI = ws_alloc(ws, 2 * np + 2);
            b->qs = (modp_t *)(void *)ws_alloc(ws, np * (sizeof(modp_t) / 4));
            if (ws->fail) {
                return 0;
            }
            b->np = np;
            rns_setup(b->qs, b->cst, b->PI, np);
            /* the roots are kept when that leaves room for babai_sub's
             * residues (public sizes) */
            if (keep && ws->cap - ws->used >= 4 * np * m + np + flen + 3) {
                b->roots = ws_alloc(ws, 2 * np * m);
            }
            for (size_t j = 0; j < np && keep; j++) {
                const modp_t *q = &b->qs[j];
                const uint32_t *psi = babai_roots(b, j, m, logm, 1);
#ifdef PQLAB_FNDSA_ZINT_NATIVE
                pqlab_fndsa_mp_of_poly_native(b->fnt + j * m, f, flen, flen, m, (const uint32_t *)(const void *)q);
                pqlab_fndsa_mp_of_poly_native(b->gnt + j * m, g, flen, flen, m, (const uint32_t *)(const void *)q);
#else
                for (size_t u = 0; u < m; u++) {
                    b->fnt[j * m + u] = mp_of_zint(f + u * flen, flen, q);
                    b->gnt[j * m + u] = mp_of_zint(g + u * flen, flen, q);
                }
#endif
                mp_ntt(b->fnt + j * m, psi, logm, q);
                mp_ntt(b->gnt + j * m, psi, logm, q);
            }
        }
    }
    if (!fft) { /* the caller computes k otherwise (reduce_once) */
        return 1;
    }
    if (fft == 2) {
        babai_init_fx(b, f, g, flen, m, logm);
        return 1;
    }
    poly_to_fpr(b->fa, f, m, flen, flen, scf, b->win);
    poly_to_fpr(b->ga, g, m, flen, flen, scf, b->win);
    if (logm > 0) {
        fndsa_fft(b->fa, logm, b->tt);
        fndsa_fft(b->ga, logm, b->tt);
        fndsa_poly_invnorm2_fft(b->dn, b->fa, b->ga, logm);
        fndsa_poly_adj_fft(b->fa, logm);
        fndsa_poly_adj_fft(b->ga, logm);
    } else {
        b->dn[0] = fpr_add(fpr_sqr(b->fa[0]), fpr_sqr(b->ga[0]));
    }
    return 1;
}

/* k = round(x 2^e) for m values; coefficients outside (-2^31 + 1, 2^31 - 1) are
 * clamped to +-2^30; returns 1 when any was (secret) */
static uint32_t round_k(int32_t *k, const fpr *x, int32_t e, size_t m)
{
    uint32_t anybig = 0;
    for (size_t u = 0; u < m; u++) {
        uint32_t big = 0;
        fpr v = fpr_ldexp_lim(x[u], e, 1023 + 40, &big);
        big |= (uint32_t)(fpr_lt(v, FPR(0x41DFFFFFFFC00000u, 2147483647.0)) ^ 1);
        big |= (uint32_t)(fpr_lt(FPR(0xC1DFFFFFFFC00000u, -2147483647.0), v) ^ 1);
        uint32_t kv = (uint32_t)fpr_rint(v);
        uint32_t neg = (uint32_t)(fpr_to_bits(x[u]) >> 63);
        uint32_t clamp = ((uint32_t)1 << 30) ^ ((uint32_t)0 - neg);
        clamp += neg; /* -2^30 when negative */
        kv ^= (kv ^ clamp) & ((uint32_t)0 - big);
        k[u] = (int32_t)kv;
        anybig |= big;
    }
    return anybig;
}

/* round_k(k, x, 0, m) with k over the words of x: k[u] (word u) is written after
 * x[u] (words 2u, 2u + 1) is read, and only over words of x[0..u] (u <= 2u); the
 * compiler barriers keep the order (k and x alias as int32_t and fpr) */
static uint32_t round_k_inplace(int32_t *k, const fpr *x, size_t m)
{
    uint32_t anybig = 0;
    for (size_t u = 0; u < m; u++) {
        int32_t v;
        fpr xu = x[u];
#if defined(__GNUC__)
        __asm__ volatile("" : : "r"(&xu) : "memory");
#endif
        anybig |= round_k(&v, &xu, 0, 1);
        k[u] = v;
#if defined(__GNUC__)
        __asm__ volatile("" : : : "memory");
#endif
    }
    return anybig;
}

/* One reduction coefficient vector: k = round((F adj(f) + G adj(g)) / (f adj(f)
 * + g adj(g)) / 2^s), F, G read at scale 2^-scF from their low rl limbs (the
 * caller knows the limbs above are sign extension). Coefficients outside
 * (-2^31 + 1, 2^31 - 1) are clamped to +-2^30; returns 1 when any was (secret). */
uint32_t babai_k(babai_t *b, const uint32_t *F, const uint32_t *G, size_t Flen, size_t rl, int32_t scF, int32_t s,
                 size_t m, unsigned logm)
{
    fpr *Fa = b->Fa, *Ga = b->Ga;
    poly_to_fpr(Fa, F, m, Flen, rl, scF, b->win);
    poly_to_fpr(Ga, G, m, Flen, rl, scF, b->win);
    if (logm > 0) {
        fndsa_fft(Fa, logm, b->tt);
        fndsa_fft(Ga, logm, b->tt);
        fndsa_poly_mul_fft(Fa, b->fa, logm);
        fndsa_poly_mul_fft(Ga, b->ga, logm);
        fndsa_poly_add(Fa, Ga, logm);
        fndsa_poly_mul_autoadj_fft(Fa, b->dn, logm);
        fndsa_ifft(Fa, logm, b->tt);
    } else {
        Fa[0] = fpr_div(fpr_add(fpr_mul(Fa[0], b->fa[0]), fpr_mul(Ga[0], b->ga[0])), b->dn[0]);
    }
    return round_k(b->k, Fa, scF - b->scf - s, m);
}

/* Fixed-point side, once per depth (babai_init with fft = 2): f', g' (common
 * exponent bf), their FFTs, then U_j, V_j = 2^E conj(f_j, g_j) / D_j in signed
 * 32-bit halves (uv: 8 words per j), and fxe = bf + E - 63 (secret). */
static void babai_init_fx(babai_t *b, const uint32_t *f, const uint32_t *g, size_t flen, size_t m, unsigned logm)
{
    size_t hm = m >> 1;
    int64_t *fa = b->xa, *ga = b->xa + m;
    uint32_t bf = ct_max_u32(poly_maxbits(f, m, flen, flen), poly_maxbits(g, m, flen, flen));
    int32_t t = (int32_t)bf - (62 - (int32_t)logm);
    fxb_load(fa, f, m, flen, flen, t);
    fxb_load(ga, g, m, flen, flen, t);
    fxb_fft(fa, logm);
    fxb_fft(ga, logm);
    /* D_j = |f_j|^2 + |g_j|^2 < 4 (2^62 + e)^2 < 2^126.1 exactly; D'_j = its top 64
     * bits from the leading one (c_j leading zeros of 128), R_j = floor(2^126 / D'_j);
     * R_j and c_j wait in uv[8 j ..] */
    uint32_t cmax = 0;
    for (size_t j = 0; j < hm; j++) {
        uint64_t hi = 0, lo = 0;
        u128_add_sq(&hi, &lo, fa[2 * j]);
        u128_add_sq(&hi, &lo, fa[2 * j + 1]);
        u128_add_sq(&hi, &lo, ga[2 * j]);
        u128_add_sq(&hi, &lo, ga[2 * j + 1]);
        lo |= fpr_ct_iszero64(hi | lo); /* D = 0 (never: f, g have no common root) reads as 1 */
        uint64_t zh = (uint64_t)0 - fpr_ct_iszero64(hi);
        hi ^= (hi ^ lo) & zh;
        lo &= ~zh;
        uint32_t cnt;
        hi = fpr_norm64(hi, &cnt);
        hi |= fpr_ursh(lo, 63 - cnt) >> 1; /* lo >> (64 - cnt), 0 when cnt = 0 */
        uint32_t c = cnt + (64 & (uint32_t)zh);
        uint64_t R = recip126(hi);
        uint32_t *w = (uint32_t *)(void *)(b->uv + 8 * j);
        w[0] = (uint32_t)R;
        w[1] = (uint32_t)(R >> 32);
        w[2] = c;
        cmax = ct_max_u32(cmax, c);
    }
    /* D_j >= 2^(127 - c_j) >= 2^(127 - cmax), so with E = 61 + floor((127 - cmax) / 2),
     * |(U_j, V_j)| = 2^E / sqrt(D_j) <= 2^61. 1 / D_j ~ R_j 2^(c_j - 190): U_j is
     * conj(f_j) R_j >> (190 - E - c_j), a shift in [2, 129] */
    int32_t E = 61 + (int32_t)((127 - cmax) >> 1);
    for (size_t j = 0; j < hm; j++) {
        int32_t *w = b->uv + 8 * j;
        uint64_t R = (uint64_t)(uint32_t)w[0] | ((uint64_t)(uint32_t)w[1] << 32);
        uint32_t sh = (uint32_t)(190 - E - w[2]);
        int64_t ur = mul_shr_round(fa[2 * j], R, sh), ui = -mul_shr_round(fa[2 * j + 1], R, sh);
        int64_t vr = mul_shr_round(ga[2 * j], R, sh), vi = -mul_shr_round(ga[2 * j + 1], R, sh);
        fx_split(ur, &w[0], &w[1]);
        fx_split(ui, &w[2], &w[3]);
        fx_split(vr, &w[4], &w[5]);
        fx_split(vi, &w[6], &w[7]);
    }
    b->fxe = (int32_t)bf + E - 63;
}

/* k = floor(v 2^tau + 1/2) for the m values v (interleaved layout, |v| < 2^61), tau
 * secret; big when |v 2^tau| >= 2^31 - 1 (the reference's reject), then clamped to
 * +-2^30 as in round_k; returns 1 when any was big (secret) */
static uint32_t fxb_round_k(int32_t *k, const int64_t *a, int32_t tau, size_t m)
{
    size_t hm = m >> 1;
    uint32_t tneg = (uint32_t)tau >> 31, mneg = (uint32_t)0 - tneg;
    uint32_t sg = (uint32_t)tau & ~mneg; /* tau >= 0: shift left by min(tau, 63) */
    sg ^= (sg ^ 63) & ((uint32_t)0 - (uint32_t)(((uint64_t)63 - sg) >> 63));
    uint32_t rg = (0u - (uint32_t)tau) & mneg; /* tau < 0: right by min(-tau, 62) */
    rg ^= (rg ^ 62) & ((uint32_t)0 - (uint32_t)(((uint64_t)62 - rg) >> 63));
    uint64_t thp = fpr_ursh(((uint64_t)1 << 31) - 2, sg); /* big: |v| > thp */
    uint64_t thn = ((uint64_t)1 << 31) - 1;               /* big: |v| >= thn 2^rg */
    /* min(rg, 31) with a mask: riscv64-unknown-elf-gcc 12 compiles the ?: into a branch */
    thn = fpr_ulsh(thn, rg ^ ((rg ^ 31) & ((uint32_t)0 - (uint32_t)(((uint64_t)30 - rg) >> 63))));
    uint64_t half = fpr_ulsh(1, (rg - 1) & 63) & ((uint64_t)0 - (uint64_t)tneg);
    uint32_t anybig = 0;
    for (size_t u = 0; u < m; u++) {
        int64_t v = a[u < hm ? 2 * u : 2 * (u - hm) + 1];
        uint64_t s = (uint64_t)(v >> 63);
        uint64_t av = ((uint64_t)v ^ s) - s;
        uint32_t bigp = (uint32_t)((thp - av) >> 63);
        uint32_t bign = (uint32_t)(((av - thn) >> 63) ^ 1);
        uint32_t kp = (uint32_t)fpr_ulsh((uint64_t)v, sg);
#ifdef PQLAB_FNDSA_CT_NEGATIVE_CONTROL_ROUNDK
        /* test only (tests/test_fndsa_ct.py): a load indexed by, and a branch on, the
         * secret shift counts of this loop; `pqlab ct` must report both here, while the
         * shifts by the same counts (constant time on every target, docs/ct.md) pass */
        {
            static volatile uint32_t nc_table[64], nc_sink;
            kp ^= nc_table[sg]; /* all zero: the result does not change */
            if (rg & 1) {
                nc_sink++;
            }
        }
#endif
        /* floor((v + 2^(rg-1)) / 2^rg) through the positive v + 2^(rg-1) + 2^62 */
        uint64_t bias = (uint64_t)1 << 62;
        uint32_t kn = (uint32_t)(fpr_ursh((uint64_t)v + half + bias, rg) - fpr_ursh(bias, rg));
        uint32_t kv = kp ^ ((kp ^ kn) & mneg);
        uint32_t big = bigp ^ ((bigp ^ bign) & tneg);
        uint32_t clamp = ((uint32_t)1 << 30) ^ (uint32_t)s;
        clamp += (uint32_t)s & 1; /* -2^30 when negative */
        kv ^= (kv ^ clamp) & ((uint32_t)0 - big);
        k[u] = (int32_t)kv;
        anybig |= big;
    }
    return anybig;
}

/* The k of one step of the reference's schedule in fixed point (see above):
 * k = round(x / 2^s) for x = (F adj(f) + G adj(g)) / (f adj(f) + g adj(g)), F, G read
 * from their low rl limbs (the limbs above are sign extension). Returns 1 when a
 * coefficient of x / 2^s is at least 2^31 - 1 in absolute value (secret).
 *
 * Error bound (ulp: one unit of the fixed-point value concerned; first order in the
 * relative errors, which are below 2^-40 wherever it matters):
 *  - loading: 0 <= F_i 2^-t - F'_i < 1 (floor; exact when t <= 0), likewise f', g';
 *  - FFT (as ortho_norm's in keygen.c): a complex input is off by at most sqrt(2),
 *    every level doubles the inherited error and adds at most 3.19 (two fxb_mul63 per
 *    part: 2 sqrt(2); the twiddle's own rounding: |b| 2^-63.5 < 0.36), so after the
 *    L = logm - 1 levels every value is within e1 = 2^L sqrt(2) + (2^L - 1) 3.19 <
 *    2.31 m of the exact transform (of F 2^-t, of f 2^-tf, of g 2^-tf);
 *  - U_j, V_j: R_j 2^(c_j - 190) = (1 + eta) / D~_j with |eta| < 2^-61 (the
 *    truncations of D'_j and R_j) for the computed D~_j, and one rounding: within 1.5
 *    ulp of 2^E conj(f~_j) / D~_j. The computed f~_j, g~_j are within sqrt(2) e1 of
 *    the exact pair, and |d(conj f / D)| <= 3 |(df, dg)| / D, so with 2^E / sqrt(D_j)
 *    <= 2^61: |(U_j, V_j) - exact| <= 1.5 sqrt(2) + 4.25 e1 2^61 / sqrt(D_min);
 *  - X_j: four fxb_mul63 per part (4 per part, 5.66 in modulus) plus the inherited
 *    |(F_j, G_j)| |d(U, V)| / 2^63 + |d(F, G)| |(U, V)| / 2^63 <= (2^62.5 / 2^63)
 *    |d(U, V)| + sqrt(2) e1 2^61 / 2^63: eX <= 7.8 + 0.36 e1 + 3.01 e1 2^61 / sqrt(D_min);
 *  - inverse FFT: each level averages two inherited errors and adds at most 0.71
 *    (sum) or 2.4 (difference times conj(s): two fxb_mul64 per part and the twiddle):
 *    eX + 2.4 L on every output, and a coefficient is one part of an output.
 * So |x~_i 2^tau - x_i / 2^s| <= 2^tau (8 + 0.83 m + 2.4 logm + 7 m 2^61 / sqrt(D_min)),
 * D_min = min_j |f_j|^2 + |g_j|^2 at the scale of f' (|f'_i| <= 2^Q, Q = 62 - logm).
 * With kappa = sqrt(max_j D_j / min_j D_j) (the conditioning of (f, g) at this depth,
 * max_j D_j >= 2^(2 Q - 2) since sum_j D_j = (m / 2) ||(f', g')||^2), the last term is at
 * most 7 m 2^(62 - Q) kappa = 7 m^2 kappa ulp, and 2^tau is about the largest
 * |x / 2^s| over 2^60.5 (x~ uses the whole int64 range for the largest F_j U_j + G_j V_j
 * possible), so the error in units of k is of the order of |k|max 2^-60.5 (m^2 kappa
 * + m), where binary64 is |k|max 2^-53 times similar factors. Decisions: k equals
 * round(x / 2^s) unless x / 2^s is within that error of a half-integer, and the reject
 * (|x / 2^s| >= 2^31 - 1) is the same unless |x / 2^s| is that close to 2^31 - 1.
 *
 * Why this is enough for the reference's keys: the reference computes k in binary64,
 * with a larger error of the same form, so the two k agree except where the exact value
 * is within the sum of the two errors of a half-integer; a k off by one leaves one more
 * multiple of (f, g) 2^s, which the next step's k takes back (|k| grows by at most 2^25,
 * far from 2^31), and the representative of F, G mod (f, g) does not change the final
 * key (depth 0 is reduced exactly). What must not differ is the reject decisions, and
 * those depend on the binary64 error itself at the deep depths: with kappa large the
 * binary64 k is off by more than its step can absorb, the error grows by a factor 2^25
 * times the relative error per step, and the reference rejects the candidate after a few
 * steps (k beyond int32), where an accurate k converges (KAT record 50 of Falcon-512 at
 * depth 7: relative error 2^-25, |k| growing 1.5x per step to 2^31). Hence fixed point
 * only up to NTRU_FX_MAX_DEPTH, where the largest relative error of the binary64 k
 * measured over 5,000 + 1,500 key generations (Falcon-512 / -1024) is 2^-35.7 / 2^-35.1,
 * 2^10 below that growth threshold (over 400 + 100: depth 5 2^-33.2 / 2^-30.5, depth 7
 * 2^-20.2 / 2^-20.8). test_fndsa.py::test_babai_fixed_point_k compares every fixed-point step with
 * the binary64 k and captured steps with exact rationals (worst error 2^-19.2 in units
 * of k; binary64's worst over those depths 2^-12.6). */
uint32_t babai_k_fx(babai_t *b, const uint32_t *F, const uint32_t *G, size_t Flen, size_t rl, int32_t s, size_t m,
                    unsigned logm)
{
    size_t hm = m >> 1;
    int64_t *Fa = b->xa, *Ga = b->xa + m;
    uint32_t bF = ct_max_u32(poly_maxbits(F, m, Flen, rl), poly_maxbits(G, m, Flen, rl));
    int32_t t = (int32_t)bF - (62 - (int32_t)logm);
    fxb_load(Fa, F, m, Flen, rl, t);
    fxb_load(Ga, G, m, Flen, rl, t);
    fxb_fft(Fa, logm);
    fxb_fft(Ga, logm);
    for (size_t j = 0; j < hm; j++) {
        const int32_t *w = b->uv + 8 * j;
        int32_t frh, frl, fih, fil, grh, grl, gih, gil;
        fx_split(Fa[2 * j], &frh, &frl);
        fx_split(Fa[2 * j + 1], &fih, &fil);
        fx_split(Ga[2 * j], &grh, &grl);
        fx_split(Ga[2 * j + 1], &gih, &gil);
        Fa[2 * j] = fx_mul(frh, frl, w[0], w[1]) - fx_mul(fih, fil, w[2], w[3]) + fx_mul(grh, grl, w[4], w[5]) -
                    fx_mul(gih, gil, w[6], w[7]);
        Fa[2 * j + 1] = fx_mul(frh, frl, w[2], w[3]) + fx_mul(fih, fil, w[0], w[1]) + fx_mul(grh, grl, w[6], w[7]) +
                        fx_mul(gih, gil, w[4], w[5]);
    }
    fxb_ifft(Fa, logm);
    return fxb_round_k(b->k, Fa, (int32_t)bF - b->fxe - s, m);
}

/* (F, G) -= (k (f, g)) << s, k from the last babai_k. With the RNS form of f
 * and g: per prime, one NTT of k and one inverse NTT per product. */
void babai_sub(babai_t *b, uint32_t *F, uint32_t *G, size_t Flen, const void *fv, const void *gv, size_t flen, size_t m,
               unsigned logm, uint32_t s, ws_t *ws)
{
    /* flen = 0: f, g are m int8_t (depth 0, BABAI_ONCE with m >= 16 only) */
    const uint32_t *f = (const uint32_t *)fv, *g = (const uint32_t *)gv;
    if (b->np == 0) {
        poly_sub_scaled(F, Flen, f, flen, b->k, m, s, ws);
        poly_sub_scaled(G, Flen, g, flen, b->k, m, s, ws);
        return;
    }
    size_t np = b->np, alen = (flen == 0 ? 1 : flen) + 2, mark = ws->used;
    uint32_t *kt = (uint32_t *)(void *)b->Fa + 2 * m;
    if (!b->once && b->fnt != NULL && !ws->fail && ws->cap - ws->used >= 2 * np * m + alen + np + 1) {
        /* room for the residues of both products (public sizes): the roots
         * and the NTT of k once per prime for F and G */
        uint32_t *resF = ws_alloc(ws, np * m), *resG = ws_alloc(ws, np * m);
        uint32_t *acc = ws_alloc(ws, alen), *w = ws_alloc(ws, np + 1);
        for (size_t j = 0; j < np; j++) {
            const modp_t *q = &b->qs[j];
            const uint32_t p = q->p;
            const uint32_t *psi = babai_roots(b, j, m, logm, 0), *ipsi = psi + m;
            for (size_t u = 0; u < m; u++) {
                kt[u] = mp_of_i32((uint32_t)b->k[u], p);
            }
            mp_ntt(kt, psi, logm, q);
            const uint32_t c = mp_intt_scale(q, logm);
            uint32_t *rF = resF + j * m, *rG = resG + j * m;
            mp_pmul(rF, kt, b->fnt + j * m, m, q);
            mp_pmul(rG, kt, b->gnt + j * m, m, q);
            mp_intt(rF, ipsi, logm, c, q);
            mp_intt(rG, ipsi, logm, c, q);
        }
        rns_garner(resF, m, np, b->qs, b->cst);
        rns_garner(resG, m, np, b->qs, b->cst);
        for (size_t u = 0; u < m; u++) {
            rns_crt(acc, alen, resF, m, u, np, b->PI, w);
            zsub_shifted(F + u * Flen, Flen, acc, alen, s);
            rns_crt(acc, alen, resG, m, u, np, b->PI, w);
            zsub_shifted(G + u * Flen, Flen, acc, alen, s);
        }
        ws->used = mark;
        return;
    }
    uint32_t *res = ws_alloc(ws, np * m);
    uint32_t *acc = ws_alloc(ws, alen), *w = ws_alloc(ws, np + 1);
    if (ws->fail) {
        return;
    }
    if (b->once) {
        /* a single step: f, g transformed here; per prime only psi and k's NTT
         * beside the residues (scratch at Fa: 2m words), ipsi formed from psi over
         * k's NTT once the product is taken */
        uint32_t *psi = (uint32_t *)(void *)b->Fa, *kn = psi + m;
        for (int which = 0; which < 2; which++) {
            uint32_t *X = which == 0 ? F : G;
            for (size_t j = 0; j < np; j++) {
                const modp_t *q = &b->qs[j];
                const uint32_t p = q->p;
                uint32_t *rj = res + j * m;
                mp_roots(psi, kn, rj, RNS_P[j][1], logm, q); /* kn, rj: scratch here */
                for (size_t u = 0; u < m; u++) {
                    kn[u] = mp_of_i32((uint32_t)b->k[u], p);
                }
                mp_ntt(kn, psi, logm, q);
                mp_of_poly(rj, which == 0 ? fv : gv, flen, flen, m, 0, q);
                mp_ntt(rj, psi, logm, q);
                mp_pmul(rj, kn, rj, m, q);
                mp_iroots(kn, psi, logm, q);
                mp_intt(rj, kn, logm, mp_intt_scale(q, logm), q);
            }
            rns_garner(res, m, np, b->qs, b->cst);
            for (size_t u = 0; u < m; u++) {
                rns_crt(acc, alen, res, m, u, np, b->PI, w);
                zsub_shifted(X + u * Flen, Flen, acc, alen, s);
            }
        }
        ws->used = mark;
        return;
    }
    for (int which = 0; which < 2; which++) {
        const uint32_t *xnt = which == 0 ? b->fnt : b->gnt;
        uint32_t *X = which == 0 ? F : G;
        for (size_t j = 0; j < np; j++) {
            const modp_t *q = &b->qs[j];
            const uint32_t p = q->p;
            /* the scratch at Fa (S): with the roots cached, k's NTT and f's (or g's) in its
             * first 2m words; otherwise psi, k's NTT and f's in its first 3m words, and
             * ipsi formed over k's NTT once the product is taken. The fourth m words hold
             * k in the fixed-point schedule (fft = 2, babai_init); fft = 1 has 6m words. */
            uint32_t *S = (uint32_t *)(void *)b->Fa, *kn;
            const uint32_t *psi, *ipsi;
            if (b->roots != NULL) {
                psi = b->roots + 2 * m * j;
                ipsi = psi + m;
                kn = S;
            } else {
                mp_roots(S, S + m, S + 2 * m, RNS_P[j][1], logm, q); /* S + m, S + 2m: scratch here */
                psi = S;
                ipsi = NULL;
                kn = S + m;
            }
            for (size_t u = 0; u < m; u++) {
                kn[u] = mp_of_i32((uint32_t)b->k[u], p);
            }
            mp_ntt(kn, psi, logm, q);
            const uint32_t *xj;
            if (xnt != NULL) {
                xj = xnt + j * m;
            } else {
                /* f or g transformed here, after k's NTT */
                uint32_t *xt = kn + m;
                mp_of_poly(xt, which == 0 ? fv : gv, flen, flen, m, 0, q);
                mp_ntt(xt, psi, logm, q);
                xj = xt;
            }
            uint32_t *rj = res + j * m;
            mp_pmul(rj, kn, xj, m, q);
            if (ipsi == NULL) {
                mp_iroots(kn, psi, logm, q);
                ipsi = kn;
            }
            mp_intt(rj, ipsi, logm, mp_intt_scale(q, logm), q);
        }
        rns_garner(res, m, np, b->qs, b->cst);
        for (size_t u = 0; u < m; u++) {
            rns_crt(acc, alen, res, m, u, np, b->PI, w);
            zsub_shifted(X + u * Flen, Flen, acc, alen, s);
        }
    }
    ws->used = mark;
}

/* scale at which values of len limbs are read: their top 64 bits */
static int32_t top64_scale(size_t len)
{
    return 32 * (int32_t)len > 64 ? 32 * (int32_t)len - 64 : 0;
}

/* limbs of N's region: at least two (the region holds an fpr per coefficient anyway,
 * and rns_mul then keeps its per-prime scratch in it) */
static size_t n_limbs(uint32_t Nb)
{
    size_t nlen = Nb / 32 + 1;
    return nlen < 2 ? 2 : nlen;
}

/* The FFT of D = f adj(f) + g adj(g) when |D| < 2^Db fits one prime (depth 0): its real
 * parts (m/2 fprs, all that fndsa_poly_div_autoadj_fft reads of a self-adjoint polynomial)
 * at the address returned, in a region of 3m words that ends the workspace (NULL when it
 * is exhausted). The same bits as fndsa_fft of D's m fprs, in 3m words instead of 4m and
 * the RNS product's scratch:
 *  - D mod p with one NTT each of f and g: the negacyclic NTT holds x at psi^(2 rev(k) + 1)
 *    in slot k, and adj(x)(z) = x(1/z), with 1/psi^(2 rev(k) + 1) = psi^(2 (m - 1 - rev(k))
 *    + 1) = psi^(2 rev(m - 1 - k) + 1): adj(x)'s slot k is x's slot m - 1 - k. So D's slots
 *    k and m - 1 - k are both f_k f_(m-1-k) + g_k g_(m-1-k); centred (|D| < p / 2);
 *  - fndsa_fft's first level by hand: the even and odd coefficients converted to fprs as
 *    the fpr of D's integers would be (exact: |D| < 2^53), each transformed (fndsa_fft at
 *    half the size, scratch in D's integer words, read by then), then the real parts of
 *    the merge (fndsa_poly_merge_fft_re), the same operations as the top level's merge. */
static NTRU_NOINLINE fpr *d_fft_re(const void *f, const void *g, size_t flen, size_t m, unsigned logm, ws_t *ws)
{
    fpr *R = ws_alloc_fpr(ws, (3 * m) / 2);
    modp_t *q = (modp_t *)(void *)ws_alloc(ws, sizeof(modp_t) / 4);
    if (ws->fail) {
        return NULL;
    }
    uint32_t *at = (uint32_t *)(void *)R, *bt = at + m, *psi = at + 2 * m;
    modp_init(q, RNS_P[0][0]);
    mp_roots(psi, bt, at, RNS_P[0][1], logm, q); /* bt, at: scratch here */
    mp_of_poly(at, f, flen, flen, m, 0, q);
    mp_ntt(at, psi, logm, q);
    mp_of_poly(bt, g, flen, flen, m, 0, q);
    mp_ntt(bt, psi, logm, q);
    const uint32_t p = q->p, p0i = q->p0i;
    for (size_t k = 0; k < m / 2; k++) {
        size_t k2 = m - 1 - k;
        uint32_t v = mp_add(mp_mmul_r(at[k], at[k2], p, p0i), mp_mmul_r(bt[k], bt[k2], p, p0i), p);
        at[k] = v;
        at[k2] = v;
    }
    mp_iroots(bt, psi, logm, q);
    mp_intt(at, bt, logm, mp_intt_scale(q, logm), q);
    for (size_t u = 0; u < m; u++) {
        uint32_t v = at[u];
        at[u] = v - (p & ((uint32_t)0 - (((p - 1) / 2 - v) >> 31)));
    }
    size_t hm = m >> 1;
    fpr *d0 = (fpr *)(void *)bt, *d1 = (fpr *)(void *)psi;
    poly_to_fpr(d0, at, hm, 2, 1, 0, 0);
    poly_to_fpr(d1, at + 1, hm, 2, 1, 0, 0);
    fndsa_fft(d0, logm - 1, R);
    fndsa_fft(d1, logm - 1, R);
    fndsa_poly_merge_fft_re(d0, d1, logm);
    return d0;
}

/* k = round(N / D), D = f adj(f) + g adj(g) (m >= 16): N (m integers of nlen limbs) is
 * in the region Na (the workspace's last allocation, ws->used at its end), converted to
 * fpr in place (poly_to_fpr_inplace), transformed and kept in m fprs; then D likewise
 * above it (exactly, in RNS); N / D; k over the start of N's region (round_k_inplace),
 * returned, with the workspace ending after it. *big: a coefficient of k left
 * (-2^31 + 1, 2^31 - 1) (secret). NULL when the workspace is exhausted. */
static NTRU_NOINLINE int32_t *k_of_N(fpr *Na, size_t nlen, const void *f, const void *g, size_t flen, uint32_t fbits,
                                     size_t m, unsigned logm, uint32_t *big, ws_t *ws)
{
    uint32_t Db = 2 * fbits + logm + 1;
    size_t dlen = n_limbs(Db);
    fpr *tt = ws_alloc_fpr(ws, m); /* after the product: its scratch is free */
    if (ws->fail) {
        return NULL;
    }
    poly_to_fpr_inplace(Na, m, nlen);
    fndsa_fft(Na, logm, tt);
    ws->used = (size_t)((uint32_t *)(void *)(Na + m) - ws->base);
    fpr *Da;
    if (rns_count(Db) == 1) { /* public: depth 0 */
        Da = d_fft_re(f, g, flen, m, logm, ws);
        if (Da == NULL) {
            return NULL;
        }
    } else {
        Da = ws_alloc_fpr(ws, (m * dlen + 1) / 2);
        if (ws->fail) {
            return NULL;
        }
        rns_mul((uint32_t *)(void *)Da, dlen, f, g, flen, flen, f, g, flen, 1, m, rns_count(Db), ws);
        tt = ws_alloc_fpr(ws, m);
        if (ws->fail) {
            return NULL;
        }
        poly_to_fpr_inplace(Da, m, dlen);
        fndsa_fft(Da, logm, tt);
    }
    fndsa_poly_div_autoadj_fft(Na, Da, logm);
    ws->used = (size_t)((uint32_t *)(void *)(Na + m) - ws->base); /* D no longer needed */
    tt = ws_alloc_fpr(ws, m);
    if (ws->fail) {
        return NULL;
    }
    fndsa_ifft(Na, logm, tt);
    int32_t *k = (int32_t *)(void *)Na;
    *big = round_k_inplace(k, Na, m);
    ws->used = (size_t)((uint32_t *)(void *)k + m - ws->base);
    return k;
}

/* One Babai step at scale 0 on stored F, G (the deepest level, and depths 1 and 0 when
 * lift_reduce does not apply: m < 16, or Hawk's depth 1 runs its own schedule), as the
 * reference does at depths 1 and 0 (its
 * solve_NTRU_binary_depth1 / _depth0: k = round((F adj(f) + G adj(g)) / (f adj(f)
 * + g adj(g))) once, from floating-point values, then F - k f, G - k g). Not
 * necessarily the exact Babai point when F is wider than 53 bits (depth 1), which
 * does not matter: depth 0's result does not depend on which representative
 * depth 1 returns (they differ by multiples of (f', g'), which become multiples of
 * (f, g)), and at depth 0 F is exact in floating point (below 2^48). f, g: below
 * 2^fbits. Returns 0 when a coefficient of k leaves (-2^31 + 1, 2^31 - 1)
 * (declassified: the candidate is then rejected). The reference fails there as
 * well at depth 0 (k goes through an int32); at depth 1 it would carry on up to
 * 2^63, but over 400 key pairs max |k| stayed below 2^28 there, so this only
 * departs from it in an extreme tail. */
int reduce_once(uint32_t *F, uint32_t *G, size_t Flen, size_t rl, uint32_t Fb, const void *fv, const void *gv,
                size_t flen, uint32_t fbits, size_t m, unsigned logm, ws_t *ws)
{
    /* flen = 0: f, g are m int8_t (depth 0, m >= 16) */
    const uint32_t *f = (const uint32_t *)fv, *g = (const uint32_t *)gv;
    size_t mark = ws->used;
    babai_t b;
    uint32_t big;
    if (m >= 16) {
        /* N = F adj(f) + G adj(g) and D = f adj(f) + g adj(g) exactly (RNS), then
         * k = round(N / D) with two FFTs and one inverse instead of four and one
         * (the reference computes its depth-0 k from exact products as well); k
         * first, so that the products' buffers are free again for babai_sub */
        uint32_t Nb = Fb + fbits + logm + 1;
        size_t nlen = n_limbs(Nb);
        fpr *Na = ws_alloc_fpr(ws, (m * nlen + 1) / 2);
        if (ws->fail) {
            return 0;
        }
        rns_mul((uint32_t *)(void *)Na, nlen, F, G, Flen, rl, f, g, flen, 1, m, rns_count(Nb), ws);
        int32_t *k = k_of_N(Na, nlen, fv, gv, flen, fbits, m, logm, &big, ws);
        if (k == NULL || !babai_init(&b, NULL, NULL, flen, fbits, 0, 0, BABAI_ONCE, m, logm, ws)) {
            return 0;
        }
        b.k = k;
    } else {
        if (!babai_init(&b, f, g, flen, fbits, top64_scale(flen), 0, 1, m, logm, ws)) {
            return 0;
        }
        big = babai_k(&b, F, G, Flen, rl, top64_scale(Flen), 0, m, logm);
    }
    PQLAB_DECLASSIFY(&big, sizeof big);
    if (!big) {
        babai_sub(&b, F, G, Flen, fv, gv, flen, m, logm, 0, ws);
    }
    ws->used = mark;
    return !big && !ws->fail;
}

/* NTT form (prime q, psi) of a'(x^2) b(-x) into at: a' is m/2 coefficients of alen
 * limbs, b m values of blen limbs (0: int8_t); ah: m/2 words of scratch. The NTT of
 * a'(x^2) is that of a' at half the size with every value twice (the roots come in
 * pairs +-r, adjacent in the bit-reversed order, and psi's first m/2 entries are the
 * half-size table), so a' is transformed in m/2 words. The product carries the factor
 * 2^-32 of one Montgomery multiplication. */
static void lift_ntt(uint32_t *at, uint32_t *ah, const uint32_t *a, size_t alen, const void *b, size_t blen, size_t m,
                     unsigned logm, const uint32_t *psi, const modp_t *q)
{
    const uint32_t p = q->p, p0i = q->p0i;
    size_t hm = m >> 1;
    mp_of_poly(ah, a, alen, alen, hm, 0, q);
    mp_ntt(ah, psi, logm - 1, q);
    mp_of_poly(at, b, blen, blen, m, 0, q);
    for (size_t u = 1; u < m; u += 2) {
        at[u] = mp_sub(0, at[u], p);
    }
    mp_ntt(at, psi, logm, q);
    for (size_t u = 0; u < hm; u++) {
        uint32_t v = ah[u];
        at[2 * u] = mp_mmul_r(at[2 * u], v, p, p0i);
        at[2 * u + 1] = mp_mmul_r(at[2 * u + 1], v, p, p0i);
    }
}

/* lift_reduce's N = F'(x^2) g(-x) adj(f) + G'(x^2) f(-x) adj(g) exactly (|F| < 2^Fcb), in
 * *pnlen limbs per coefficient in the region returned (the workspace's last allocation), or
 * NULL when the workspace is exhausted. Out of line: its frame is not on the stack during
 * the other passes. */
static NTRU_NOINLINE fpr *lift_N(const uint32_t *Fp, const uint32_t *Gp, size_t FL, uint32_t Fcb, const void *f,
                                 const void *g, size_t flen, uint32_t fbits, size_t m, unsigned logm, size_t *pnlen,
                                 ws_t *ws)
{
    /* N (secret values, public sizes), exactly: npn primes for |N| < 2^Nb */
    uint32_t Nb = Fcb + fbits + logm + 1;
    size_t nlen = n_limbs(Nb), npn = rns_count(Nb);
    fpr *Na = ws_alloc_fpr(ws, (m * nlen + 1) / 2);
    size_t nmark = ws->used;
    /* bt, ct (below) and, with three limbs or more, psi in N's region until the
     * reconstruction */
    uint32_t *res = ws_alloc(ws, npn * m);
    uint32_t *psi = nlen >= 3 ? (uint32_t *)(void *)Na + 2 * m : ws_alloc(ws, m);
    uint32_t *cst = ws_alloc(ws, npn * npn + 2 * npn), *PI = ws_alloc(ws, 2 * npn + 2);
    uint32_t *w = ws_alloc(ws, npn + 1);
    modp_t *qs = (modp_t *)(void *)ws_alloc(ws, npn * (sizeof(modp_t) / 4));
    if (ws->fail || npn > RNS_MAXP) {
        ws->fail = 1;
        return NULL;
    }
    /* bt, ct: scratch in N's region (at least 2m words) until the reconstruction */
    uint32_t *bt = (uint32_t *)(void *)Na, *ct = bt + m;
    rns_setup(qs, cst, PI, npn);
    for (size_t j = 0; j < npn; j++) {
        const modp_t *q = &qs[j];
        uint32_t *at = res + j * m;
        mp_roots(psi, bt, at, RNS_P[j][1], logm, q); /* bt, at: scratch here */
        lift_ntt(at, bt, Fp, FL, g, flen, m, logm, psi, q);
        mp_of_poly(bt, f, flen, flen, m, 1, q);
        mp_ntt(bt, psi, logm, q);
        mp_pmul(at, at, bt, m, q);
        lift_ntt(ct, bt, Gp, FL, f, flen, m, logm, psi, q);
        mp_of_poly(bt, g, flen, flen, m, 1, q);
        mp_ntt(bt, psi, logm, q);
        mp_pmul(ct, ct, bt, m, q);
        for (size_t u = 0; u < m; u++) {
            at[u] = mp_add(at[u], ct[u], q->p);
        }
        mp_iroots(bt, psi, logm, q);
        /* two Montgomery products per term: the scale times 2^32 */
        mp_intt(at, bt, logm, mp_mmul(mp_intt_scale(q, logm), q->r2, q), q);
    }
    rns_garner(res, m, npn, qs, cst);
    for (size_t u = 0; u < m; u++) {
        rns_crt((uint32_t *)(void *)Na + u * nlen, nlen, res, m, u, npn, PI, w);
    }
    ws->used = nmark;
    *pnlen = nlen;
    return Na;
}

/* lift_reduce's residues modulo prime j (q) of X'(x^2) y(-x), minus k x when k is not NULL,
 * into at; psi, bt (m words), ah (m/2): scratch */
static NTRU_NOINLINE void lift_residues(uint32_t *at, uint32_t *psi, uint32_t *bt, uint32_t *ah, const uint32_t *X,
                                        size_t FL, const void *y, const void *x, const int32_t *k, size_t flen,
                                        size_t m, unsigned logm, size_t j, const modp_t *q)
{
    const uint32_t p = q->p;
    mp_roots(psi, bt, at, RNS_P[j][1], logm, q); /* bt, at: scratch here */
    if (k != NULL) {
        /* k x first (at), then X'(x^2) y(-x) (bt) minus it */
        for (size_t u = 0; u < m; u++) {
            at[u] = mp_of_i32((uint32_t)k[u], p);
        }
        mp_ntt(at, psi, logm, q);
        mp_of_poly(bt, x, flen, flen, m, 0, q);
        mp_ntt(bt, psi, logm, q);
        mp_pmul(at, at, bt, m, q);
        lift_ntt(bt, ah, X, FL, y, flen, m, logm, psi, q);
        for (size_t u = 0; u < m; u++) {
            at[u] = mp_sub(bt[u], at[u], p);
        }
    } else {
        lift_ntt(at, ah, X, FL, y, flen, m, logm, psi, q);
    }
    mp_iroots(bt, psi, logm, q);
    mp_intt(at, bt, logm, mp_intt_scale(q, logm), q);
}

/* lift_reduce's reconstruction of m coefficients from their residues (Garner digits, np
 * primes) through acc (np + 1 words), w (np + 1): chk, only the check that they fit bits
 * bits; otherwise outlen = 0: the key, checked to lie in [-127, 127] and written as int8_t
 * to out (unless out is NULL); outlen > 0: checked to fit bits bits and written in outlen
 * limbs. Returns 1 when every coefficient passes (secret). */
static NTRU_NOINLINE uint32_t lift_out(void *out, int chk, size_t outlen, uint32_t bits, const uint32_t *res, size_t m,
                                       size_t np, const uint32_t *PI, uint32_t *w, uint32_t *acc)
{
    uint32_t ok = 1;
    for (size_t u = 0; u < m; u++) {
        rns_crt(acc, np + 1, res, m, u, np, PI, w);
        if (chk) {
            ok &= poly_fits(acc, 1, np + 1, bits);
        } else if (outlen == 0) {
            /* the final key: [-127, 127] */
            uint32_t a = acc[0], bad = 0, sg = zsign(acc, 1);
            for (size_t i = 1; i <= np; i++) {
                bad |= acc[i] ^ sg;
            }
            bad |= ((a + 127) >> 31) | ((127 - a) >> 31);
            ok &= pqlab_ct_is_zero_u32(bad);
            if (out != NULL) {
                ((int8_t *)out)[u] = (int8_t)a;
            }
        } else {
            ok &= poly_fits(acc, 1, np + 1, bits);
            for (size_t i = 0; i < outlen; i++) {
                ((uint32_t *)out)[u * outlen + i] = acc[i];
            }
        }
    }
    return ok;
}

/* lift_reduce's key check of one prime p: the centred residues r of F - k f (m values)
 * written as int8 to out (first prime) or compared with what out holds (the others); 1
 * when every one lies in [-127, 127] (and equals the first prime's). Since |F - k f| is
 * below half the product of the primes (lift_reduce sizes them so), F - k f lies in
 * [-127, 127] exactly when its centred residues modulo every prime are one value v there:
 * then it is congruent to v modulo the product, hence equal to v. The same verdict and
 * key as the CRT (lift_out), with one prime's residues stored at a time. */
static NTRU_NOINLINE uint32_t lift_key(int8_t *out, const uint32_t *r, size_t m, uint32_t p, int first)
{
    uint32_t bad = 0;
    for (size_t u = 0; u < m; u++) {
        uint32_t v = r[u];
        v -= p & ((uint32_t)0 - (((p - 1) / 2 - v) >> 31)); /* centred, two's complement */
        bad |= ((v + 127) >> 31) | ((127 - v) >> 31);
        if (first) { /* public */
            out[u] = (int8_t)v;
        } else {
            bad |= (uint32_t)(int32_t)out[u] ^ v;
        }
    }
    return pqlab_ct_is_zero_u32(bad);
}

/* The lift of one ascent level and its single Babai step (depths 1 and 0 of the round-3
 * schedule) without storing the unreduced F, G: F = F'(x^2) g(-x), G = G'(x^2) f(-x)
 * exist only as residues inside three passes, each of which forms them again from F', G'
 * (m/2 coefficients of FL limbs, below 2^Fpb) and f, g (flen limbs, 0: int8_t; below
 * 2^fbits):
 *  1. (chkbits > 0) F and G exactly, one coefficient at a time, and the check that they
 *     fit chkbits bits (the reference's words of the unreduced F at depth 1);
 *  2. N = F adj(f) + G adj(g) = F'(x^2) g(-x) adj(f) + G'(x^2) f(-x) adj(g) exactly (the
 *     same integers as reduce_once's product of the stored F, G with the same primes and
 *     limbs), then k = round(N / D) as reduce_once does (k_of_N);
 *  3. F - k f and G - k g exactly, checked to fit outbits bits and written in outlen limbs
 *     to Fo, Go (outlen = 0: int8_t checked to lie in [-127, 127], the final key; Go may
 *     then be NULL). Fo, Go may be Fp, Gp themselves when m outlen <= m/2 FL: the output
 *     of one polynomial is written after all the residues of its F' are read.
 * So the values and the decisions are those of the product, the fit check and reduce_once
 * on stored F, G; what is stored is N, D and k (2 m words and their scratch) besides
 * the inputs. m >= 16. Returns 1 when every check passes (declassified verdicts), else 0
 * (rejected candidate). */
int lift_reduce(void *Fo, void *Go, size_t outlen, uint32_t outbits, const uint32_t *Fp, const uint32_t *Gp, size_t FL,
                uint32_t Fpb, uint32_t chkbits, const void *f, const void *g, size_t flen, uint32_t fbits, size_t m,
                unsigned logm, ws_t *ws)
{
    size_t mark = ws->used;
    /* bounds (public): |F| < m/2 2^Fpb 2^fbits; after the step |F - k f| < |F| + m 2^31
     * 2^fbits (|k| < 2^31, checked before it); with the fit check, |F| < 2^chkbits */
    uint32_t Fb = Fpb + fbits + logm - 1;
    uint32_t Fcb = chkbits > 0 ? chkbits : Fb;
    uint32_t Ob = (Fcb > 31 + fbits + logm ? Fcb : 31 + fbits + logm) + 1;
    size_t npc = rns_count(Fb), npo = rns_count(Ob);
    uint32_t ok = 1;
    for (int pass = 0; pass < 2; pass++) {
        /* pass 0: the fit check of F, G; pass 1 (after k): F - k f, G - k g */
        int32_t *k = NULL;
        size_t np = pass == 0 ? npc : npo;
        if (pass == 1) {
            uint32_t big = 0;
            size_t nlen = 0;
            fpr *Na = lift_N(Fp, Gp, FL, Fcb, f, g, flen, fbits, m, logm, &nlen, ws);
            NTRU_PHASE_ADD(100); /* test builds: the caller's product phase ends here */
            k = Na == NULL ? NULL : k_of_N(Na, nlen, f, g, flen, fbits, m, logm, &big, ws);
            if (k == NULL) {
                return 0;
            }
            PQLAB_DECLASSIFY(&big, sizeof big);
            if (big) {
                ws->used = mark;
                return 0;
            }
        } else if (chkbits == 0) {
            continue;
        }
        if (pass == 1 && outlen == 0) {
            /* the key (depth 0), a prime at a time (lift_key): m words of residues */
            uint32_t *res = ws_alloc(ws, m), *psi = ws_alloc(ws, m);
            uint32_t *bt = ws_alloc(ws, m), *ah = ws_alloc(ws, m >> 1);
            modp_t *q = (modp_t *)(void *)ws_alloc(ws, sizeof(modp_t) / 4);
            if (ws->fail) {
                return 0;
            }
            for (int which = 0; which < 2; which++) {
                const uint32_t *X = which == 0 ? Fp : Gp;
                const void *y = which == 0 ? g : f, *x = which == 0 ? f : g;
                /* without Go: G's first residues as int8 in F''s words, read by then */
                int8_t *out = (int8_t *)(which == 0 ? Fo : Go != NULL ? Go : (void *)(uintptr_t)Fp);
                for (size_t j = 0; j < np; j++) {
                    modp_init(q, RNS_P[j][0]);
                    lift_residues(res, psi, bt, ah, X, FL, y, x, k, flen, m, logm, j, q);
                    ok &= lift_key(out, res, m, q->p, j == 0);
                }
            }
            PQLAB_DECLASSIFY(&ok, sizeof ok);
            ws->used = mark;
            return ok && !ws->fail;
        }
        size_t pmark = ws->used;
        uint32_t *res = ws_alloc(ws, np * m), *psi = ws_alloc(ws, m);
        uint32_t *bt = ws_alloc(ws, m), *ah = ws_alloc(ws, m >> 1);
        uint32_t *cst = ws_alloc(ws, np * np + 2 * np), *PI = ws_alloc(ws, 2 * np + 2);
        uint32_t *w = ws_alloc(ws, np + 1), *acc = ws_alloc(ws, np + 1);
        modp_t *qs = (modp_t *)(void *)ws_alloc(ws, np * (sizeof(modp_t) / 4));
        if (ws->fail || np > RNS_MAXP) {
            ws->fail = 1;
            return 0;
        }
        rns_setup(qs, cst, PI, np);
        for (int which = 0; which < 2; which++) {
            const uint32_t *X = which == 0 ? Fp : Gp;
            const void *y = which == 0 ? g : f, *x = which == 0 ? f : g;
            void *out = which == 0 ? Fo : Go;
            for (size_t j = 0; j < np; j++) {
                uint32_t *at = res + j * m;
                lift_residues(at, psi, bt, ah, X, FL, y, x, k, flen, m, logm, j, &qs[j]);
            }
            rns_garner(res, m, np, qs, cst);
            ok &= lift_out(out, pass == 0 ? 1 : 0, outlen, pass == 0 ? chkbits : outbits, res, m, np, PI, w, acc);
        }
        PQLAB_DECLASSIFY(&ok, sizeof ok);
        if (!ok) {
            ws->used = mark;
            return 0;
        }
        ws->used = pmark;
    }
    ws->used = mark;
    return !ws->fail;
}
