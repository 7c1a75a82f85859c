/* SPDX-License-Identifier: MIT */
/* FN-DSA NTRU solver: the binary extended GCD of the deepest level (see ntru.c and ntru_internal.h). */
#include "ntru_internal.h"

/* ---------------------------------------------------------------------- */
/* Deepest level: binary extended GCD (fixed pass count, masks).          */

/* ---- binary GCD: 31 steps per pass over the integers ------------------ */
/* The extended binary GCD (one step: subtract the smaller odd value from the larger and
 * halve, Bezout coefficients following modulo y), with the decisions of 31 consecutive
 * steps taken on approximations (the top 62 bits at a common position, and the
 * low 31 bits) and applied to the full integers at once as
 *   a' = (a pa + b pb) / 2^31,  b' = (a qa + b qb) / 2^31
 * (exact divisions; |pa| + |pb| <= 2^31), the Bezout coefficient u following
 * with one Montgomery division by 2^31 modulo y, which keeps a = x u mod y (v is
 * not carried: bezout_cofactor derives it from u at the end). An approximation can pick the wrong operand near
 * equality; the result is then negative and is negated together with its
 * coefficients. Every pass removes at least 30 bits from len(a) + len(b), so
 * (62 len + 30) / 30 passes suffice; all passes run (constant time).
 * Integers use 31-bit limbs here so that a limb times a coefficient plus a
 * Montgomery term fits a signed 64-bit accumulator. */

static void to31(uint32_t *d, size_t dlen, const uint32_t *s, size_t slen)
{
    uint64_t acc = 0;
    unsigned bits = 0;
    size_t j = 0;
    for (size_t i = 0; i < dlen; i++) {
        if (bits < 31 && j < slen) { /* public schedule */
            acc |= (uint64_t)s[j++] << bits;
            bits += 32;
        }
        d[i] = (uint32_t)acc & 0x7FFFFFFF;
        acc >>= 31;
        bits = bits >= 31 ? bits - 31 : 0;
    }
}

static void from31(uint32_t *d, size_t dlen, const uint32_t *s, size_t slen)
{
    uint64_t acc = 0;
    unsigned bits = 0;
    size_t j = 0;
    for (size_t i = 0; i < dlen; i++) {
        while (bits < 32 && j < slen) { /* public schedule */
            acc |= (uint64_t)s[j++] << bits;
            bits += 31;
        }
        d[i] = (uint32_t)acc;
        acc >>= 32;
        bits = bits >= 32 ? bits - 32 : 0;
    }
}

/* -1 / m mod 2^31 for odd m (Newton iteration: each step doubles the bits) */
static uint32_t ninv31(uint32_t m)
{
    uint32_t y = 2 - m;
    y *= 2 - m * y;
    y *= 2 - m * y;
    y *= 2 - m * y;
    y *= 2 - m * y;
    return (0u - y) & 0x7FFFFFFF;
}

/* out <- (a ca + b cb + m f) / 2^31 over 31-bit limbs (m may be NULL: no m f
 * term), where |ca| + |cb| <= 2^31 and f < 2^31, so every limb's sum fits a
 * signed 64-bit value; returns the final carry (the value's top, signed). The
 * coefficients are used as 32-bit words: c = (uint32_t)c - 2^32 [c < 0], so
 * each product is one 32x32 multiply-accumulate and the sign correction one
 * subtraction from the high word. out may be b (not a). */
static inline int64_t lin31(uint32_t *out, const uint32_t *a, const uint32_t *b, const uint32_t *m, size_t len,
                            int64_t ca, int64_t cb, uint32_t f)
{
    const uint32_t ua = (uint32_t)ca, ub = (uint32_t)cb;
    const uint32_t sa = (uint32_t)((uint64_t)ca >> 63) * 0xFFFFFFFFu;
    const uint32_t sb = (uint32_t)((uint64_t)cb >> 63) * 0xFFFFFFFFu;
#ifdef PQLAB_FNDSA_GCD_NATIVE
    const uint32_t co[5] = {ua, ub, sa, sb, f};
    return pqlab_fndsa_lin31_native(out, a, b, m, len, co);
#else
    uint64_t cc = 0;
    for (size_t i = 0; i < len; i++) {
        uint32_t wa = a[i], wb = b[i];
        uint64_t z = cc - ((uint64_t)((wa & sa) + (wb & sb)) << 32); /* modulo 2^64 */
        z += (uint64_t)wa * ua;
        z += (uint64_t)wb * ub;
        if (m != NULL) {
            z += (uint64_t)m[i] * f;
        }
        out[i - 1 + (i == 0)] = (uint32_t)z & 0x7FFFFFFF; /* limb 0 is 0: dropped */
        cc = (uint64_t)((int64_t)z >> 31);                /* arithmetic shift */
    }
    return (int64_t)cc;
#endif
}

/* 31-bit two's complement negation of x (len limbs) when neg */
#ifdef PQLAB_FNDSA_GCD_NATIVE
static inline void neg31(uint32_t *x, size_t len, uint32_t neg)
{
    pqlab_fndsa_neg31_native(x, len, neg);
}
#else
static void neg31(uint32_t *x, size_t len, uint32_t neg)
{
    uint32_t c = neg, mk = (0u - neg) >> 1;
    for (size_t i = 0; i < len; i++) {
        uint32_t w = (x[i] ^ mk) + c;
        x[i] = w & 0x7FFFFFFF;
        c = w >> 31;
    }
}
#endif

/* (a, b) <- ((a pa + b pb) >> 31, (a qa + b qb) >> 31) (31-bit limbs, exact);
 * the new a goes to *t and the buffers *a, *t swap; negative results are
 * negated; returns bit 0 / bit 1 for a / b negated */
static uint32_t co_reduce(uint32_t **a, uint32_t *b, uint32_t **t, size_t len, int64_t pa, int64_t pb, int64_t qa,
                          int64_t qb)
{
    uint32_t *na_ = *t;
    int64_t cca = lin31(na_, *a, b, NULL, len, pa, pb, 0);
    int64_t ccb = lin31(b, *a, b, NULL, len, qa, qb, 0);
    *t = *a;
    *a = na_;
    na_[len - 1] = (uint32_t)cca;
    b[len - 1] = (uint32_t)ccb;
    uint32_t na = (uint32_t)((uint64_t)cca >> 63), nb = (uint32_t)((uint64_t)ccb >> 63);
    neg31(na_, len, na);
    neg31(b, len, nb);
    return na | (nb << 1);
}

/* a in (-m, 2m) (top limb may carry the sign) -> [0, m); neg: a is negative */
#ifdef PQLAB_FNDSA_GCD_NATIVE
static inline void finish_mod(uint32_t *a, size_t len, const uint32_t *m, uint32_t neg)
{
    pqlab_fndsa_finish_mod_native(a, len, m, neg);
}
#else
static void finish_mod(uint32_t *a, size_t len, const uint32_t *m, uint32_t neg)
{
    uint32_t cc = 0;
    for (size_t i = 0; i < len; i++) { /* borrow of a - m */
        cc = (a[i] - m[i] - cc) >> 31;
    }
    /* neg: add m; !neg and a >= m (cc == 0): subtract m; else nothing */
    uint32_t xm = (0u - neg) >> 1;
    uint32_t ym = 0u - (neg | (1 - cc));
    cc = neg;
    for (size_t i = 0; i < len; i++) {
        uint32_t mw = (m[i] ^ xm) & ym;
        uint32_t aw = a[i] - mw - cc;
        a[i] = aw & 0x7FFFFFFF;
        cc = aw >> 31;
    }
}
#endif

/* u <- (u pa + w pb) / 2^31 mod m, w <- (u qa + w qb) / 2^31 mod m (Montgomery);
 * the new u goes to *t and the buffers *u, *t swap */
static void co_reduce_mod(uint32_t **u, uint32_t *w, uint32_t **t, const uint32_t *m, size_t len, uint32_t m0i,
                          int64_t pa, int64_t pb, int64_t qa, int64_t qb)
{
    uint32_t *u0 = *u, *nu = *t;
    uint32_t fa = ((u0[0] * (uint32_t)pa + w[0] * (uint32_t)pb) * m0i) & 0x7FFFFFFF;
    uint32_t fb = ((u0[0] * (uint32_t)qa + w[0] * (uint32_t)qb) * m0i) & 0x7FFFFFFF;
    int64_t cca = lin31(nu, u0, w, m, len, pa, pb, fa);
    int64_t ccb = lin31(w, u0, w, m, len, qa, qb, fb);
    nu[len - 1] = (uint32_t)cca;
    w[len - 1] = (uint32_t)ccb;
    *t = u0;
    *u = nu;
    finish_mod(nu, len, m, (uint32_t)((uint64_t)cca >> 63));
    finish_mod(w, len, m, (uint32_t)((uint64_t)ccb >> 63));
}

/* v = (x u - 1) / y for x u - y v = 1 with 0 <= u < y, 0 <= v < x, y odd (L words,
 * top words 0): the division is exact, so v is the low L words of (x u - 1) y^-1 modulo
 * 2^(32 L) (v < 2^(32 (L - 1))), found a word at a time from the bottom (Hensel):
 * v_i = r_i y_0^-1 mod 2^32, then r -= v_i y 2^(32 i). r: L words of scratch. About L^2
 * multiply-adds, where carrying v through the GCD as well cost two more linear
 * combinations and two modular corrections per pass (about 2 L^2 / 31 passes). */
static void bezout_cofactor(uint32_t *v, const uint32_t *u, const uint32_t *x, const uint32_t *y, size_t L, uint32_t *r)
{
    zmul(r, L, x, L, u, L);
    uint32_t b = 1; /* - 1 */
    for (size_t i = 0; i < L; i++) {
        uint64_t t = (uint64_t)r[i] - b;
        r[i] = (uint32_t)t;
        b = (uint32_t)(t >> 63);
    }
    uint32_t yi = y[0]; /* 1 / y_0 mod 2^32 by Newton's iteration (3, 6, ..., 48 bits) */
    for (int k = 0; k < 4; k++) {
        yi *= 2 - y[0] * yi;
    }
    for (size_t i = 0; i < L; i++) {
        const uint32_t q = r[i] * yi;
        v[i] = q;
        uint64_t cc = 0;
        for (size_t j = i; j < L; j++) {
            uint64_t t = (uint64_t)q * y[j - i] + cc;
            uint64_t d = (uint64_t)r[j] - (uint32_t)t;
            r[j] = (uint32_t)d;
            cc = (t >> 32) + (uint32_t)(d >> 63);
        }
    }
}

/* The 31 decisions of one pass on io = {a_lo, b_lo, a_hi (2 words), b_hi (2 words)}: the
 * low 31 bits and the 62-bit approximations of a and b; returns io[0..3] = {pa, pb, qa, qb}
 * modulo 2^32 (|value| <= 2^31). Each step: when both are odd, subtract the one with the
 * smaller approximation from the other; then halve the even one, which doubles the other
 * one's pair of coefficients. The ARMv7E-M backend has the same loop in assembly
 * (fndsa_gcd.S; tests/test_native_armv7em_gcd.py compares it with this function). */
#ifdef PQLAB_FNDSA_GCD_NATIVE
static inline void gcd31(uint32_t io[6])
{
    pqlab_fndsa_gcd31_native(io);
}
#else
static void gcd31(uint32_t io[6])
{
    uint32_t a_lo = io[0], b_lo = io[1];
    uint64_t a_hi = ((uint64_t)io[3] << 32) | io[2], b_hi = ((uint64_t)io[5] << 32) | io[4];
    uint32_t pa = 1, pb = 0, qa = 0, qb = 1;
    for (int i = 0; i < 31; i++) {
        /* a_lo, b_lo: the low 31 - i bits of the current a, b (bit 0: parity) */
        uint64_t rz = b_hi - a_hi; /* a_hi, b_hi < 2^62: sign bit = a_hi > b_hi */
        uint32_t mgt = (uint32_t)((int64_t)rz >> 63);
        uint32_t modd = 0u - (a_lo & b_lo & 1);
        uint32_t mAB = modd & mgt;  /* a <- a - b */
        uint32_t mBA = modd & ~mgt; /* b <- b - a */
        a_lo -= b_lo & mAB;
        a_hi -= b_hi & (((uint64_t)mAB << 32) | mAB);
        pa -= qa & mAB;
        pb -= qb & mAB;
        b_lo -= a_lo & mBA;
        b_hi -= a_hi & (((uint64_t)mBA << 32) | mBA);
        qa -= pa & mBA;
        qb -= pb & mBA;
        /* one of a, b is even now: halve it (a when a is even) */
        uint32_t mb = 0u - (a_lo & 1); /* a odd: b is halved */
        uint64_t mb64 = ((uint64_t)mb << 32) | mb;
        a_lo ^= (a_lo ^ (a_lo >> 1)) & ~mb;
        a_hi ^= (a_hi ^ (a_hi >> 1)) & ~mb64;
        b_lo ^= (b_lo ^ (b_lo >> 1)) & mb;
        b_hi ^= (b_hi ^ (b_hi >> 1)) & mb64;
        pa += pa & mb;
        pb += pb & mb;
        qa += qa & ~mb;
        qb += qb & ~mb;
    }
    io[0] = pa;
    io[1] = pb;
    io[2] = qa;
    io[3] = qb;
}
#endif

int zbezout_fast(uint32_t *u, uint32_t *v, const uint32_t *x, const uint32_t *y, size_t L, ws_t *ws)
{
    size_t len = (32 * L + 30) / 31 + 1;
    size_t mark = ws->used;
    uint32_t *x31 = ws_alloc(ws, len), *y31 = ws_alloc(ws, len);
    uint32_t *a = ws_alloc(ws, len), *b = ws_alloc(ws, len);
    uint32_t *u0 = ws_alloc(ws, len), *u1 = ws_alloc(ws, len);
    uint32_t *ta = ws_alloc(ws, len), *tu = ws_alloc(ws, len);
    if (ws->fail) {
        return 0;
    }
    to31(x31, len, x, L);
    to31(y31, len, y, L);
    wmove(a, x31, len);
    wmove(b, y31, len);
    wzero(u0, len);
    u0[0] = 1;
    wmove(u1, y31, len);
    uint32_t y0i = ninv31(y31[0]);
    for (uint32_t num = 62 * (uint32_t)len + 30; num >= 30; num -= 30) {
        /* top two limbs at the highest position where a or b is nonzero */
        uint32_t a0 = 0, a1 = 0, b0 = 0, b1 = 0, found = 0;
        for (size_t j = len - 1; j >= 1; j--) {
            uint32_t nz = (0u - (1u ^ pqlab_ct_is_zero_u32(a[j] | b[j]))) & ~found;
            a0 |= a[j] & nz;
            a1 |= a[j - 1] & nz;
            b0 |= b[j] & nz;
            b1 |= b[j - 1] & nz;
            found |= nz;
        }
        a1 |= a[0] & ~found;
        b1 |= b[0] & ~found;
        uint64_t a_hi = ((uint64_t)a0 << 31) | a1;
        uint64_t b_hi = ((uint64_t)b0 << 31) | b1;
        uint32_t a_lo = a[0], b_lo = b[0];
        /* the coefficients modulo 2^32: their values lie in [-2^31, 2^31], so the int32
         * reading is exact except for +2^31 (then the other coefficient of the pair is 0),
         * which reads as -2^31: the new a (or b) then comes out negated and co_reduce
         * negates it back together with the pair, as it does for a wrong pick */
        uint32_t io[6] = {a_lo, b_lo, (uint32_t)a_hi, (uint32_t)(a_hi >> 32), (uint32_t)b_hi, (uint32_t)(b_hi >> 32)};
        gcd31(io);
        int64_t pa = (int32_t)io[0], pb = (int32_t)io[1], qa = (int32_t)io[2], qb = (int32_t)io[3];
        uint32_t r = co_reduce(&a, b, &ta, len, pa, pb, qa, qb);
        pa -= (pa + pa) & -(int64_t)(r & 1);
        pb -= (pb + pb) & -(int64_t)(r & 1);
        qa -= (qa + qa) & -(int64_t)(r >> 1);
        qb -= (qb + qb) & -(int64_t)(r >> 1);
        co_reduce_mod(&u0, u1, &tu, y31, len, y0i, pa, pb, qa, qb);
    }
    uint32_t rc = a[0] ^ 1;
    for (size_t j = 1; j < len; j++) {
        rc |= a[j];
    }
    rc = 1u ^ pqlab_ct_is_zero_u32(rc);
    PQLAB_DECLASSIFY(&rc, sizeof rc); /* gcd != 1: this (f, g) is discarded */
    from31(u, L, u0, len);
    bezout_cofactor(v, u, x, y, L, ta); /* ta: len >= L words, free now */
    ws->used = mark;
    return rc == 0;
}
