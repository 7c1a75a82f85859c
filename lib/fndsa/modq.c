/* SPDX-License-Identifier: MIT */
/* Arithmetic modulo q = 12289 (round-3 specification v1.2, sections 3.8.2,
 * 3.10): NTT over Z_q[x]/(x^n + 1), public key h = g / f, recomputation of
 * G = g F / f, hash-to-point, and the verification equation
 * s1 = c - s2 h with ||(s1, s2)||^2 <= beta^2.
 * Elements are in [0, q). Reductions are Barrett with a masked final
 * correction (no division, no branch) since f, g, F are secret. */
#include "fndsa.h"
#include "tables.h"
#include "ct.h"

#define Q 12289u

/* x mod q for x < 2^28: floor(2^36 / q) = 5591950, the quotient estimate is
 * low by at most 1, so one masked subtraction finishes. */
static inline uint32_t mq_red(uint32_t x)
{
    uint32_t t = (uint32_t)(((uint64_t)x * 5591950u) >> 36);
    uint32_t r = x - t * Q;
    r -= Q & ((uint32_t)0 - (((r - Q) >> 31) ^ 1));
    return r;
}

static inline uint32_t mq_mul(uint32_t a, uint32_t b)
{
    return mq_red(a * b);
}

static inline uint32_t mq_sub(uint32_t a, uint32_t b)
{
    uint32_t r = a - b;
    return r + (Q & ((uint32_t)0 - (r >> 31)));
}

/* signed small value to [0, q) */
static inline uint32_t mq_of(int32_t x)
{
    uint32_t r = (uint32_t)x;
    return r + (Q & ((uint32_t)0 - (r >> 31)));
}

/* ---- NTT: signed Montgomery products (R = 2^16) on 16-bit words ----
 *
 * ntt() and intt() take and return canonical values in [0, q); in between the words hold
 * signed representatives. The twiddles are stored in Montgomery form (psi^k 2^16 mod q,
 * centred; gen_tables.py), so mq_mont(z b) = psi^k b mod q. Two layers per pass: four
 * words loaded, both layers' butterflies in registers, four words stored, with Barrett
 * reductions only where the bounds below require them. Only the results' residues mod q
 * matter, and those are exact, so every caller sees the same values as with any other
 * correct NTT. */

#define QINV 53249u /* q^-1 mod 2^16 */

/* The constants q, q^-1 mod 2^16 and 5461 reach these functions as values loaded once per
 * transform through a value barrier (k->q, k->qinv, k->v): with literal constants GCC
 * replaces each multiplication by shifts and adds (three or four instructions where the
 * Cortex-M4 multiplies in one cycle). */
typedef struct {
    int32_t q, v;
    uint32_t qinv;
} mq_consts;

static inline mq_consts mq_load_consts(void)
{
    mq_consts k = {(int32_t)pqlab_value_barrier_u32(Q), (int32_t)pqlab_value_barrier_u32(5461),
                   pqlab_value_barrier_u32(QINV)};
    return k;
}

/* a 2^-16 mod q in (-q, q) for |a| < 2^15 q: m = a q^-1 mod 2^16 as a signed 16-bit value
 * (|m| <= 2^15), so a - m q is divisible by 2^16 and |(a - m q) / 2^16| < q */
static inline int32_t mq_mont(int32_t a, const mq_consts *k)
{
    int32_t m = (int16_t)(uint16_t)((uint32_t)a * k->qinv);
    return (a - m * k->q) >> 16;
}

/* x - round(x / q) q in [-q/2 - 2, q/2 + 2] for |x| < 2^18: the quotient from
 * 5461 = round(2^26 / q), off from x / q by less than 2^-8 there */
static inline int32_t mq_barrett(int32_t x, const mq_consts *k)
{
    return x - ((x * k->v + (1 << 25)) >> 26) * k->q;
}

/* [-q/2 - 2, q/2 + 2] (Barrett output) or (-q, q) (Montgomery output) -> [0, q) */
static inline int32_t mq_canon(int32_t x)
{
    return x + ((int32_t)Q & (x >> 31));
}

/* [0, q) -> [-(q-1)/2, (q-1)/2] */
static inline int32_t mq_centre(uint32_t x)
{
    return (int32_t)x - (int32_t)(Q & ((uint32_t)0 - (((Q >> 1) - x) >> 31)));
}

/* what a pass does to its outputs before storing them (public) */
enum { FIN_NONE, FIN_REDUCE, FIN_CANON, FIN_SCALE };

/* FIN_REDUCE: Barrett (to within q/2 + 2); FIN_CANON: Barrett, then [0, q); FIN_SCALE:
 * times scale 2^-16 (the inverse NTT's 1/n), then [0, q) */
static inline int32_t mq_fin(int32_t x, int mode, int32_t scale, const mq_consts *k)
{
    switch (mode) {
    case FIN_REDUCE:
        return mq_barrett(x, k);
    case FIN_CANON:
        return mq_canon(mq_barrett(x, k));
    case FIN_SCALE:
        return mq_canon(mq_mont(x * scale, k));
    default:
        return x;
    }
}

/* Cooley-Tukey butterfly: (a, b) <- (a + z b, a - z b), z in Montgomery form; |z| <= q/2 and
 * |b| < 2^15 q / (q/2) keep the product in mq_mont's range */
#define CT_BFLY(a, b, z, k)                                                                                            \
    do {                                                                                                               \
        int32_t t_ = mq_mont((z) * (b), k);                                                                            \
        (b) = (a) - t_;                                                                                                \
        (a) = (a) + t_;                                                                                                \
    } while (0)

/* Gentleman-Sande butterfly: (a, b) <- (a + b, z (a - b)) */
#define GS_BFLY(a, b, z, k)                                                                                            \
    do {                                                                                                               \
        int32_t d_ = (a) - (b);                                                                                        \
        (a) = (a) + (b);                                                                                               \
        (b) = mq_mont((z) * d_, k);                                                                                    \
    } while (0)

/* The passes are specialised by their (public) output step: the compiler does not move the
 * choice out of the inner loop by itself. */
#if defined(__GNUC__) || defined(__clang__)
#define MQ_INLINE inline __attribute__((always_inline))
#else
#define MQ_INLINE inline
#endif

/* one pass of the NTT: layers with half-sizes len and len / 2 (len >= 2) */
static MQ_INLINE void ntt_pass(int16_t *w, size_t n, size_t len, int fin, const mq_consts *k)
{
    const size_t h = len >> 1, m1 = n / (2 * len);
    for (size_t b = 0; b < m1; b++) {
        const int32_t z1 = fndsa_ntt_zetas[m1 + b];
        const int32_t z2 = fndsa_ntt_zetas[2 * m1 + 2 * b], z3 = fndsa_ntt_zetas[2 * m1 + 2 * b + 1];
        int16_t *p = w + 2 * len * b;
        for (size_t j = 0; j < h; j++) {
            int32_t x0 = p[j], x1 = p[j + h], x2 = p[j + len], x3 = p[j + len + h];
            CT_BFLY(x0, x2, z1, k);
            CT_BFLY(x1, x3, z1, k);
            CT_BFLY(x0, x1, z2, k);
            CT_BFLY(x2, x3, z3, k);
            p[j] = (int16_t)mq_fin(x0, fin, 0, k);
            p[j + h] = (int16_t)mq_fin(x1, fin, 0, k);
            p[j + len] = (int16_t)mq_fin(x2, fin, 0, k);
            p[j + len + h] = (int16_t)mq_fin(x3, fin, 0, k);
        }
    }
}

/* NTT (bit-reversed output), in place on canonical values. Block b of the layer with
 * half-size len uses zetas[n / (2 len) + b]. Bounds (every |value|): centred input q/2;
 * a butterfly adds at most q (|mq_mont| < q); a pass of two layers then gives 2.5q from
 * q/2, or 4.5q from 2.5q, which is reduced to q/2 + 2 before the store (16-bit words hold
 * 2.66q); the last layer's outputs are made canonical. */
static void ntt_c(uint16_t *a, unsigned logn)
{
    const size_t n = (size_t)1 << logn;
    const mq_consts k = mq_load_consts();
    int16_t *w = (int16_t *)(void *)a;
    for (size_t j = 0; j < n; j++) {
        w[j] = (int16_t)mq_centre(a[j]);
    }
    size_t len = n >> 1;
    for (unsigned pass = 0; len >= 2; pass++, len >>= 2) {
        if (len == 2) { /* public */
            ntt_pass(w, n, len, FIN_CANON, &k);
        } else if (pass & 1) {
            ntt_pass(w, n, len, FIN_REDUCE, &k);
        } else if (len == 4) {
            /* the single last layer follows: its inputs must be within q/2 + 2 */
            ntt_pass(w, n, len, FIN_REDUCE, &k);
        } else {
            ntt_pass(w, n, len, FIN_NONE, &k);
        }
    }
    if (len == 1) { /* odd logn: one layer left, inputs within q/2 + 2 */
        for (size_t b = 0; b < n / 2; b++) {
            int32_t x0 = w[2 * b], x1 = w[2 * b + 1];
            CT_BFLY(x0, x1, fndsa_ntt_zetas[n / 2 + b], &k);
            w[2 * b] = (int16_t)mq_fin(x0, FIN_CANON, 0, &k);
            w[2 * b + 1] = (int16_t)mq_fin(x1, FIN_CANON, 0, &k);
        }
    }
}

/* one pass of the inverse NTT: layers with half-sizes len and 2 len */
static MQ_INLINE void intt_pass(int16_t *w, size_t n, size_t len, int fin, int32_t scale, const mq_consts *k)
{
    const size_t m1 = n / (2 * len), m2 = m1 >> 1;
    for (size_t b = 0; b < m2; b++) {
        const int32_t z1 = fndsa_ntt_izetas[m1 + 2 * b], z2 = fndsa_ntt_izetas[m1 + 2 * b + 1];
        const int32_t z3 = fndsa_ntt_izetas[m2 + b];
        int16_t *p = w + 4 * len * b;
        for (size_t j = 0; j < len; j++) {
            int32_t x0 = p[j], x1 = p[j + len], x2 = p[j + 2 * len], x3 = p[j + 3 * len];
            GS_BFLY(x0, x1, z1, k);
            GS_BFLY(x2, x3, z2, k);
            GS_BFLY(x0, x2, z3, k);
            GS_BFLY(x1, x3, z3, k);
            p[j] = (int16_t)mq_fin(x0, fin, scale, k);
            p[j + len] = (int16_t)mq_fin(x1, fin, scale, k);
            p[j + 2 * len] = (int16_t)mq_fin(x2, fin, scale, k);
            p[j + 3 * len] = (int16_t)mq_fin(x3, fin, scale, k);
        }
    }
}

/* inverse NTT, the same block indexing (layers with len = 1, 2, 4, ...), times 1/n; in
 * place on canonical values. Bounds: centred input q/2; a Gentleman-Sande layer doubles
 * the sums (the differences go through mq_mont: below q), so a pass of two layers gives
 * 2q, reduced to q/2 + 2 before the store; the last layer's outputs are multiplied by
 * 2^16 / n (an integer: mq_mont then divides by n) and made canonical. */
static void intt_c(uint16_t *a, unsigned logn)
{
    const size_t n = (size_t)1 << logn;
    const int32_t scale = (int32_t)(65536u >> logn);
    const mq_consts k = mq_load_consts();
    int16_t *w = (int16_t *)(void *)a;
    for (size_t j = 0; j < n; j++) {
        w[j] = (int16_t)mq_centre(a[j]);
    }
    size_t len = 1;
    for (; 2 * len < n; len <<= 2) {
        if (4 * len == n) { /* public */
            intt_pass(w, n, len, FIN_SCALE, scale, &k);
        } else {
            intt_pass(w, n, len, FIN_REDUCE, scale, &k);
        }
    }
    if (2 * len == n) { /* odd logn: the last layer alone (len = n / 2, one block) */
        const int32_t z = fndsa_ntt_izetas[1];
        for (size_t j = 0; j < len; j++) {
            int32_t x0 = w[j], x1 = w[j + len];
            GS_BFLY(x0, x1, z, &k);
            w[j] = (int16_t)mq_fin(x0, FIN_SCALE, scale, &k);
            w[j + len] = (int16_t)mq_fin(x1, FIN_SCALE, scale, &k);
        }
    }
}

/* the transforms as the callers use them: the backend's kernels when it has them
 * (PQLAB_FNDSA_MODQ_NATIVE, contract lib/native/fndsa_modq.h: canonical values in and out, so
 * the same values as the C; a kernel may decline a logn), else the C above */
#if defined(PQLAB_FNDSA_MODQ_NATIVE) || defined(PQLAB_FNDSA_MODQ_SIGN_NATIVE)
static void mq_check(const uint16_t *a, unsigned logn, const char *kernel, const char *what)
{
#ifdef PQLAB_CONTRACT_CHECKS
    for (size_t u = 0; u < ((size_t)1 << logn); u++) {
        PQLAB_CONTRACT(kernel, a[u] < Q, what);
    }
#else
    (void)a, (void)logn, (void)kernel, (void)what;
#endif
}
#endif

#ifdef PQLAB_FNDSA_MODQ_NATIVE
static void ntt(uint16_t *a, unsigned logn)
{
    mq_check(a, logn, "fndsa mq_ntt", "input in [0, q)");
    PQLAB_NATIVE_TRY(pqlab_fndsa_mq_ntt_native(a, logn), ntt_c(a, logn));
    mq_check(a, logn, "fndsa mq_ntt", "output in [0, q)");
}

static void intt(uint16_t *a, unsigned logn)
{
    mq_check(a, logn, "fndsa mq_intt", "input in [0, q)");
    PQLAB_NATIVE_TRY(pqlab_fndsa_mq_intt_native(a, logn), intt_c(a, logn));
    mq_check(a, logn, "fndsa mq_intt", "output in [0, q)");
}
#else
#define ntt ntt_c
#define intt intt_c
#endif

/* a = a b mod (x^n + 1, q), canonical; b is used as scratch by the C (its NTT) */
static void mq_polymul_c(uint16_t *a, uint16_t *b, unsigned logn)
{
    ntt(a, logn);
    ntt(b, logn);
    for (size_t u = 0; u < ((size_t)1 << logn); u++) {
        a[u] = (uint16_t)mq_mul(a[u], b[u]);
    }
    intt(a, logn);
}

#ifdef PQLAB_FNDSA_MODQ_POLYMUL_NATIVE
static void mq_polymul(uint16_t *a, uint16_t *b, unsigned logn)
{
    mq_check(a, logn, "fndsa mq_polymul", "input a in [0, q)");
    mq_check(b, logn, "fndsa mq_polymul", "input b in [0, q)");
    PQLAB_NATIVE_TRY(pqlab_fndsa_mq_polymul_native(a, b, logn), mq_polymul_c(a, b, logn));
    mq_check(a, logn, "fndsa mq_polymul", "output in [0, q)");
}
#else
#define mq_polymul mq_polymul_c
#endif

/* x^(q-2) = x^-1 (0 for 0); fixed square-and-multiply chain, 12287 = 0b10111111111111 */
static uint32_t mq_inv(uint32_t x)
{
    uint32_t r = x;
    for (int i = 12; i >= 0; i--) {
        r = mq_mul(r, r);
        if ((12287u >> i) & 1) { /* public exponent bits */
            r = mq_mul(r, x);
        }
    }
    return r;
}

/* ---- the coefficient-wise work around the transforms (contract: lib/native/fndsa_modq.h,
 * PQLAB_FNDSA_MODQ_SIGN_NATIVE); canonical values in and out, so a backend's kernel gives the
 * same values as the C below ---- */

/* r = x y / z (y NULL: x / z), 1 / 0 = 0; r may be x or y */
static void mq_muldiv_c(uint16_t *r, const uint16_t *x, const uint16_t *y, const uint16_t *z, unsigned logn)
{
    for (size_t u = 0; u < ((size_t)1 << logn); u++) {
        uint32_t t = y != NULL ? mq_mul(x[u], y[u]) : x[u]; /* y: public choice */
        r[u] = (uint16_t)mq_mul(t, mq_inv(z[u]));
    }
}

/* r = a b + c d */
static void mq_mul2add_c(uint16_t *r, const uint16_t *a, const uint16_t *b, const uint16_t *c, const uint16_t *d,
                         unsigned logn)
{
    for (size_t u = 0; u < ((size_t)1 << logn); u++) {
        uint32_t s = mq_mul(a[u], b[u]) + mq_mul(c[u], d[u]); /* < 2q */
        r[u] = (uint16_t)(s - (Q & ((uint32_t)0 - (((s - Q) >> 31) ^ 1))));
    }
}

static void mq_of_small_c(uint16_t *r, const int8_t *f, unsigned logn)
{
    for (size_t u = 0; u < ((size_t)1 << logn); u++) {
        r[u] = (uint16_t)mq_of(f[u]);
    }
}

/* s2 = centre(a); returns ||centre(hm - b)||^2 + ||s2||^2 (< 2^38) */
static uint64_t mq_norm_c(int16_t *s2, const uint16_t *a, const uint16_t *b, const uint16_t *hm, unsigned logn)
{
    uint64_t s = 0;
    for (size_t u = 0; u < ((size_t)1 << logn); u++) {
        int32_t x2 = mq_centre(a[u]);
        int32_t x1 = mq_centre(mq_sub(hm[u], b[u]));
        s2[u] = (int16_t)x2;
        s += (uint64_t)(uint32_t)(x1 * x1) + (uint64_t)(uint32_t)(x2 * x2);
    }
    return s;
}

#ifdef PQLAB_FNDSA_MODQ_SIGN_NATIVE
static void mq_muldiv(uint16_t *r, const uint16_t *x, const uint16_t *y, const uint16_t *z, unsigned logn)
{
    mq_check(x, logn, "fndsa mq_muldiv", "input x in [0, q)");
    if (y != NULL) {
        mq_check(y, logn, "fndsa mq_muldiv", "input y in [0, q)");
    }
    mq_check(z, logn, "fndsa mq_muldiv", "input z in [0, q)");
    PQLAB_NATIVE_TRY(pqlab_fndsa_mq_muldiv_native(r, x, y, z, logn), mq_muldiv_c(r, x, y, z, logn));
    mq_check(r, logn, "fndsa mq_muldiv", "output in [0, q)");
}

static void mq_mul2add(uint16_t *r, const uint16_t *a, const uint16_t *b, const uint16_t *c, const uint16_t *d,
                       unsigned logn)
{
    mq_check(a, logn, "fndsa mq_mul2add", "input a in [0, q)");
    mq_check(b, logn, "fndsa mq_mul2add", "input b in [0, q)");
    mq_check(c, logn, "fndsa mq_mul2add", "input c in [0, q)");
    mq_check(d, logn, "fndsa mq_mul2add", "input d in [0, q)");
    PQLAB_NATIVE_TRY(pqlab_fndsa_mq_mul2add_native(r, a, b, c, d, logn), mq_mul2add_c(r, a, b, c, d, logn));
    mq_check(r, logn, "fndsa mq_mul2add", "output in [0, q)");
}

static void mq_of_small(uint16_t *r, const int8_t *f, unsigned logn)
{
    PQLAB_NATIVE_TRY(pqlab_fndsa_mq_of_small_native(r, f, logn), mq_of_small_c(r, f, logn));
    mq_check(r, logn, "fndsa mq_of_small", "output in [0, q)");
}

static uint64_t mq_norm(int16_t *s2, const uint16_t *a, const uint16_t *b, const uint16_t *hm, unsigned logn)
{
    uint64_t s;
    mq_check(a, logn, "fndsa mq_norm", "input a in [0, q)");
    mq_check(b, logn, "fndsa mq_norm", "input b in [0, q)");
    mq_check(hm, logn, "fndsa mq_norm", "input hm in [0, q)");
    PQLAB_NATIVE_TRY(pqlab_fndsa_mq_norm_native(s2, a, b, hm, logn, &s), s = mq_norm_c(s2, a, b, hm, logn));
    for (size_t u = 0; u < ((size_t)1 << logn); u++) {
        PQLAB_CONTRACT("fndsa mq_norm", s2[u] >= -(int32_t)(Q >> 1) && s2[u] <= (int32_t)(Q >> 1), "s2 centred");
    }
    return s;
}
#else
#define mq_muldiv mq_muldiv_c
#define mq_mul2add mq_mul2add_c
#define mq_of_small mq_of_small_c
#define mq_norm mq_norm_c
#endif

/* h = g / f mod q; 0 when f is not invertible. tmp: n uint16. */
int fndsa_compute_public(uint16_t *h, const int8_t *f, const int8_t *g, unsigned logn, uint16_t *tmp)
{
    size_t n = (size_t)1 << logn;
    mq_of_small(tmp, f, logn);
    mq_of_small(h, g, logn);
    ntt(tmp, logn);
    ntt(h, logn);
    uint32_t zero = 0;
    for (size_t u = 0; u < n; u++) {
        zero |= pqlab_ct_is_zero_u32(tmp[u]);
    }
    mq_muldiv(h, h, NULL, tmp, logn);
    intt(h, logn);
    PQLAB_DECLASSIFY(&zero, sizeof zero); /* restart decision */
    return zero == 0;
}

/* 1 when f is invertible mod (x^n + 1, q): no NTT coefficient of f is zero (the
 * condition fndsa_compute_public checks, without computing h). tmp: n uint16. */
int fndsa_invertible_modq(const int8_t *f, unsigned logn, uint16_t *tmp)
{
    size_t n = (size_t)1 << logn;
    for (size_t u = 0; u < n; u++) {
        tmp[u] = (uint16_t)mq_of(f[u]);
    }
    ntt(tmp, logn);
    uint32_t zero = 0;
    for (size_t u = 0; u < n; u++) {
        zero |= pqlab_ct_is_zero_u32(tmp[u]);
    }
    PQLAB_DECLASSIFY(&zero, sizeof zero); /* restart decision */
    return zero == 0;
}

/* G = g F / f mod q, centred; 0 when f is not invertible or G does not fit
 * in [-127, 127]. tmp: 3n uint16. */
int fndsa_complete_private(int8_t *G, const int8_t *f, const int8_t *g, const int8_t *F, unsigned logn, uint16_t *tmp)
{
    size_t n = (size_t)1 << logn;
    uint16_t *a = tmp, *b = tmp + n, *c = tmp + 2 * n;
    mq_of_small(a, g, logn);
    mq_of_small(b, F, logn);
    mq_of_small(c, f, logn);
    ntt(a, logn);
    ntt(b, logn);
    ntt(c, logn);
    uint32_t bad = 0;
    for (size_t u = 0; u < n; u++) {
        bad |= pqlab_ct_is_zero_u32(c[u]);
    }
    mq_muldiv(a, a, b, c, logn);
    intt(a, logn);
    for (size_t u = 0; u < n; u++) {
        /* centre: values above q/2 are negative */
        int32_t w = (int32_t)a[u] - (int32_t)(Q & ((uint32_t)0 - ((((Q >> 1) - (uint32_t)a[u]) >> 31))));
        bad |= ((uint32_t)(w + 127) >> 31) | ((uint32_t)(127 - w) >> 31);
        G[u] = (int8_t)w;
    }
    PQLAB_DECLASSIFY(&bad, sizeof bad);
    return bad == 0;
}

/* HashToPoint (alg. 3): 16-bit big-endian samples below 5q = 61445, reduced
 * mod q. The message and nonce are public, so the data-dependent rejection
 * is fine. */
void fndsa_hash_to_point(pqlab_keccak_state *sc, uint16_t *hm, unsigned logn)
{
    /* Squeezed a SHAKE256 block (136 bytes) at a time: the byte stream is the
     * same as two bytes per call, and the context is not used afterwards. */
    size_t n = (size_t)1 << logn, i = 0;
    uint8_t buf[136];
    while (i < n) {
        pqlab_shake256_squeeze(buf, sizeof buf, sc);
        for (size_t j = 0; j < sizeof buf && i < n; j += 2) {
            uint32_t w = ((uint32_t)buf[j] << 8) | buf[j + 1];
            if (w < 61445u) {
                hm[i++] = (uint16_t)(w % Q);
            }
        }
    }
}

/* s = ||s1||^2 + ||s2||^2 <= floor(beta^2), from the sign of bound - s (s < 2^41: 2n squares
 * below 2^30 each), not a 64-bit comparison, which 32-bit targets compile into branches on
 * s's words */
static int norm_within_bound(uint64_t s, unsigned logn)
{
    uint64_t bound = logn == 10 ? 70265242u : 34034726u;
    return (int)(((bound - s) >> 63) ^ 1);
}

int fndsa_is_short(const int16_t *s1, const int16_t *s2, unsigned logn)
{
    size_t n = (size_t)1 << logn;
    uint64_t s = 0;
    for (size_t u = 0; u < n; u++) {
        s += (uint64_t)((int32_t)s1[u] * s1[u]) + (uint64_t)((int32_t)s2[u] * s2[u]);
    }
    return norm_within_bound(s, logn);
}

/* Verify (alg. 16) in place, in 2n uint16 and no other polynomial buffer:
 * a holds s2 (as int16, |s2| <= 2047 from the decoder), b holds h (canonical);
 * sc is SHAKE256 over nonce || message, finalised. ||s2||^2 is summed before s2's
 * NTT overwrites a; b holds NTT(h), then c = HashToPoint; s1 = c - s2 h is
 * summed as it is computed, never stored. a and b are overwritten. */
int fndsa_verify_inplace(uint16_t *a, uint16_t *b, pqlab_keccak_state *sc, unsigned logn)
{
    size_t n = (size_t)1 << logn;
    int16_t *s2 = (int16_t *)(void *)a;
    uint32_t n2 = 0; /* ||s2||^2 <= 1024 * 2047^2 < 2^32 */
    for (size_t u = 0; u < n; u++) {
        int32_t x = s2[u];
        n2 += (uint32_t)(x * x);
        a[u] = (uint16_t)mq_of(x);
    }
    mq_polymul(a, b, logn);
    fndsa_hash_to_point(sc, b, logn);
    uint64_t s = n2;
    for (size_t u = 0; u < n; u++) {
        uint32_t w = mq_sub(b[u], a[u]);
        int32_t c = (int32_t)w - (int32_t)(w > (Q >> 1) ? Q : 0);
        s += (uint64_t)(uint32_t)(c * c);
    }
    return norm_within_bound(s, logn);
}

/* an integer from fpr_rint (|x| < 2^29 for any signature candidate: |z| is near |t|, below
 * n 127 q / q) to [0, q): adding 2^16 q keeps it positive, mq_red is exact on all of uint32;
 * the arithmetic is modulo 2^32, so a wild value still gives a canonical (wrong) residue */
static inline uint32_t mq_of_rint(int64_t x)
{
    return mq_red((uint32_t)(uint64_t)x + (Q << 16));
}

static void mq_of_rint_poly_c(uint16_t *r, const fpr *z, unsigned logn)
{
    for (size_t u = 0; u < ((size_t)1 << logn); u++) {
        r[u] = (uint16_t)mq_of_rint(fpr_rint(z[u]));
    }
}

#if defined(PQLAB_FNDSA_MODQ_SIGN_NATIVE) && defined(PQLAB_FNDSA_FPR_NATIVE)
/* the kernel takes doubles: the native fpr layer only (its rint is the C's, lib/native/fndsa_modq.h) */
static void mq_of_rint_poly(uint16_t *r, const fpr *z, unsigned logn)
{
    for (size_t u = 0; u < ((size_t)1 << logn); u++) {
        PQLAB_CONTRACT("fndsa mq_of_rint", z[u] > -0x1p63 && z[u] < 0x1p63, "input |z| < 2^63");
    }
    PQLAB_NATIVE_TRY(pqlab_fndsa_mq_of_rint_native(r, z, logn), mq_of_rint_poly_c(r, z, logn));
    mq_check(r, logn, "fndsa mq_of_rint", "output in [0, q)");
}
#else
#define mq_of_rint_poly mq_of_rint_poly_c
#endif

/* The end of a signing attempt modulo q (docs/fndsa.md, "RAM per operation"): z0, z1 are the
 * sampled vector in coefficient form (after the inverse FFT; integers up to rounding), f, g, F
 * the private key. s2 = z0 f + z1 F and s1 = hm - (z0 g + z1 G) = hm - s2 g / f (because
 * f G - g F = q), both mod q and centred: the same integers as rint(-(z0 b01 + z1 b11)) and
 * hm - rint(z0 b00 + z1 b10) over the reals whenever their coefficients lie within q/2, which
 * every candidate within the norm bound does at Falcon-512 (beta < q/2) and every candidate
 * short of a 36-sigma sample at Falcon-1024. s1 is summed, not stored; s2 is written as int16.
 * Returns 1 when ||(s1, s2)||^2 <= beta^2. tmp: 4n uint16 (not overlapping s2, z0, z1). */
int fndsa_sign_finish_modq(int16_t *s2, const fpr *z0, const fpr *z1, const uint16_t *hm, const int8_t *f,
                           const int8_t *g, const int8_t *F, unsigned logn, uint16_t *tmp)
{
    size_t n = (size_t)1 << logn;
    uint16_t *a = tmp, *b = tmp + n, *c = tmp + 2 * n, *d = tmp + 3 * n;
    mq_of_rint_poly(a, z0, logn);
    mq_of_rint_poly(b, z1, logn);
    mq_of_small(c, f, logn);
    mq_of_small(d, F, logn);
    ntt(a, logn);
    ntt(b, logn);
    ntt(c, logn);
    ntt(d, logn);
    mq_mul2add(a, a, c, b, d, logn); /* s2 = z0 f + z1 F */
    mq_of_small(d, g, logn);
    ntt(d, logn);
    mq_muldiv(b, a, d, c, logn); /* s2 g / f */
    intt(a, logn);
    intt(b, logn);
    uint64_t s = mq_norm(s2, a, b, hm, logn);
    return norm_within_bound(s, logn);
}
