/* SPDX-License-Identifier: MIT */
/* Internal header of FN-DSA's NTRU solver (lib/fndsa/ntru*.c; not part of the library's
 * interface). The solver is split by operation: big integers (ntru_zint.c), residue-number
 * arithmetic with the mod-p NTTs and the field norm (ntru_rns.c), the binary extended GCD
 * (ntru_gcd.c), Babai reduction in floating and fixed point (ntru_babai.c), and the solver
 * itself with the round-3 reference's schedule and the private-key check (ntru.c, whose
 * head comment describes the algorithm and the representations). This header holds what
 * they share: the workspace, the small inline helpers, the types, and the functions one
 * file calls in another (named FNDSA_NS(ntru_<name>)). Test hooks live in
 * lib/fndsa/test/ntru_test.c, built only for the tests. */
#ifndef PQLAB_FNDSA_NTRU_INTERNAL_H
#define PQLAB_FNDSA_NTRU_INTERNAL_H

#include "fndsa.h"
#include "ct.h"
#include "tables_fx.h"
#include "fxfft.h"
#include "../native/api.h" /* the backend contract (lib/native/fndsa_*.h) */

#define NTRU_Q 12289

typedef struct {
    uint32_t *base;
    size_t used, cap; /* words */
    int fail;
} ws_t;

#ifdef PQLAB_FNDSA_NTRU_PEAK
/* test builds only: the highest ws.used of the solver runs since the caller cleared it */
#define fndsa_ntru_peak_words FNDSA_NS(fndsa_ntru_peak_words)
extern size_t fndsa_ntru_peak_words;
extern int fndsa_ntru_phase, fndsa_ntru_peak_phase;
extern size_t fndsa_ntru_phase_peak[500];
#define NTRU_PHASE_ADD(x) (fndsa_ntru_phase += (x))
#else
#define NTRU_PHASE_ADD(x) ((void)0)
#endif

/* The workspace (FNDSA_NTRU_WORDS words) is sized to the solver's exact need, which
 * depends on logn only (every size is public and fixed per depth): running out of it is
 * a sizing error, never a property of the key, so a debug build (PQLAB_CONTRACT_CHECKS)
 * stops there instead of quietly rejecting the candidate, which would change the key. */
static inline uint32_t *ws_alloc(ws_t *ws, size_t words)
{
#ifdef PQLAB_CONTRACT_CHECKS
    PQLAB_CONTRACT("fndsa ntru workspace", ws->fail || words <= ws->cap - ws->used,
                   "FNDSA_NTRU_WORDS covers the solver's need");
#endif
    if (ws->fail || words > ws->cap - ws->used) {
        ws->fail = 1;
        return NULL;
    }
    uint32_t *p = ws->base + ws->used;
    ws->used += words;
#ifdef PQLAB_FNDSA_NTRU_PEAK
    if (ws->used > fndsa_ntru_peak_words) {
        fndsa_ntru_peak_words = ws->used;
        fndsa_ntru_peak_phase = fndsa_ntru_phase;
    }
    if (ws->used > fndsa_ntru_phase_peak[fndsa_ntru_phase]) {
        fndsa_ntru_phase_peak[fndsa_ntru_phase] = ws->used;
    }
#endif
    return p;
}

/* n fpr values, 8-byte aligned (one spare word) */
static inline fpr *ws_alloc_fpr(ws_t *ws, size_t n)
{
    uint32_t *p = ws_alloc(ws, 2 * n + 1);
    if (p != NULL && ((uintptr_t)p & 7) != 0) {
        p++;
    }
    return (fpr *)(void *)p;
}

/* word copies and clears: the small targets' C libraries (picolibc built for
 * size) move one byte per iteration; GCC must not turn the loops back into
 * memmove / memset calls. wmove handles overlap in either direction. */
#if defined(__GNUC__) && !defined(__clang__)
#define NTRU_NO_LIBCALL __attribute__((optimize("no-tree-loop-distribute-patterns")))
#else
#define NTRU_NO_LIBCALL
#endif
#ifdef PQLAB_FNDSA_ZINT_NATIVE
static inline void wmove(uint32_t *d, const uint32_t *s, size_t n)
{
    pqlab_fndsa_wmove_native(d, s, n);
}
#else
NTRU_NO_LIBCALL static inline void wmove(uint32_t *d, const uint32_t *s, size_t n)
{
    if ((uintptr_t)d <= (uintptr_t)s) {
        for (size_t i = 0; i < n; i++) {
            d[i] = s[i];
        }
    } else {
        for (size_t i = n; i-- > 0;) {
            d[i] = s[i];
        }
    }
}
#endif

/* a function kept out of line so that its frame (and its callees') is not part of its
 * caller's for the whole of the caller's run (the solver's stack at its peak) */
#if defined(__GNUC__)
#define NTRU_NOINLINE __attribute__((noinline))
#else
#define NTRU_NOINLINE
#endif

NTRU_NO_LIBCALL static inline void wzero(uint32_t *d, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        d[i] = 0;
    }
}

/* ---- big integers (two's complement, len limbs) ---- */

static inline uint32_t zsign(const uint32_t *x, size_t len)
{
    return (uint32_t)0 - (x[len - 1] >> 31); /* 0 or 0xFFFFFFFF */
}

/* Sum of +-x_i y_i for 32-bit signed x_i, y_i, held exactly as S_hi 2^32 + S_lo
 * (each product split into a signed high and an unsigned low half; up to 2^20
 * terms keep both sums far from overflow), written out as rlen limbs. */
typedef struct {
    int64_t hi;
    uint64_t lo;
} acc96;

static inline void acc_add(acc96 *a, int64_t p, int neg)
{
    /* p = ph 2^32 + pl; subtracting adds the two's complement halves */
    uint64_t up = (uint64_t)p;
    uint64_t mneg = (uint64_t)0 - (uint64_t)neg;
    up = (up ^ mneg) + (mneg & 1); /* -p when neg */
    a->lo += (uint32_t)up;
    a->hi += (int64_t)(int32_t)(uint32_t)(up >> 32);
}

static inline void acc_store(uint32_t *r, size_t rlen, const acc96 *a)
{
    int64_t mid = a->hi + (int64_t)(a->lo >> 32);
    r[0] = (uint32_t)a->lo;
    if (rlen > 1) {
        r[1] = (uint32_t)mid;
    }
    uint32_t top = (uint32_t)((uint64_t)mid >> 32);
    uint32_t ext = (uint32_t)0 - (top >> 31);
    for (size_t i = 2; i < rlen; i++) {
        r[i] = i == 2 ? top : ext;
    }
}

/* log2 of a public power of two */
static inline uint32_t ilog2(size_t m)
{
    uint32_t l = 0;
    while (((size_t)1 << l) < m) {
        l++;
    }
    return l;
}

/* ---- residues modulo 31-bit primes ---- */

#define RNS_MAXP 40
/* (p, g): the primes p = 1 mod 2048 below 2^31 and a primitive root g (ntru_rns.c) */
#define RNS_P FNDSA_NS(ntru_rns_p)
extern const uint32_t RNS_P[RNS_MAXP][2];

typedef struct {
    uint32_t p, p0i, r1, r2; /* p, -1/p mod 2^32, 2^32 mod p, 2^64 mod p */
} modp_t;

static inline uint32_t mp_add(uint32_t a, uint32_t b, uint32_t p)
{
    uint32_t d = a + b - p; /* a, b < p < 2^31 */
    return d + (p & ((uint32_t)0 - (d >> 31)));
}

static inline uint32_t mp_sub(uint32_t a, uint32_t b, uint32_t p)
{
    uint32_t d = a - b;
    return d + (p & ((uint32_t)0 - (d >> 31)));
}

/* a b / 2^32 mod p, for any a < 2^32 and b < p: (a b + w p) / 2^32 < 2p */
static inline uint32_t mp_mmul(uint32_t a, uint32_t b, const modp_t *q)
{
    uint64_t z = (uint64_t)a * b;
    uint32_t w = (uint32_t)z * q->p0i;
    uint32_t d = (uint32_t)((z + (uint64_t)w * q->p) >> 32) - q->p;
    return d + (q->p & ((uint32_t)0 - (d >> 31)));
}

/* signed 32-bit t modulo p (normal form): t >= 0: t < 2^31 < 2p; t < 0: t + 2p is in
 * [2p - 2^31, 2p) */
static inline uint32_t mp_of_i32(uint32_t t, uint32_t p)
{
    return mp_sub(t + ((2 * p) & ((uint32_t)0 - (t >> 31))), p, p);
}

/* mp_mmul with p and -1/p mod 2^32 in registers (the NTT loops copy them
 * out of the modp_t, which the compiler cannot keep across the stores) */
static inline uint32_t mp_mmul_r(uint32_t a, uint32_t b, uint32_t p, uint32_t p0i)
{
    uint64_t z = (uint64_t)a * b;
    uint32_t w = (uint32_t)z * p0i;
    uint32_t d = (uint32_t)((z + (uint64_t)w * p) >> 32) - p;
    return d + (p & ((uint32_t)0 - (d >> 31)));
}

/* CRT reconstruction of one coefficient (inline: called per coefficient by ntru_rns.c and
 * ntru_babai.c) */
/* rns_crt with two primes: 64-bit words, X = t0 + p0 t1 < p0 p1 < 2^62 */
static inline void rns_crt2(uint32_t *out, size_t olen, const uint32_t *res, size_t m, size_t u, const uint32_t *B)
{
    uint64_t v = (uint64_t)res[u] + (uint64_t)RNS_P[0][0] * res[m + u];
    v -= ((uint64_t)B[1] << 32) | B[0];
    uint32_t ext = (uint32_t)0 - (uint32_t)(v >> 63);
    for (size_t i = 0; i < olen; i++) {
        out[i] = i == 0 ? (uint32_t)v : i == 1 ? (uint32_t)(v >> 32) : ext;
    }
}

/* coefficient u from its digits (rns_garner): X - B into the signed integer out
 * (olen limbs, sign-extended or truncated); PI: prod and B (rns_setup); w: np + 1
 * words of scratch */
#ifdef PQLAB_FNDSA_ZINT_NATIVE
/* (two primes: the C above is shorter than the kernel's general loops) */
static inline void rns_crt(uint32_t *out, size_t olen, const uint32_t *res, size_t m, size_t u, size_t np,
                           const uint32_t *PI, uint32_t *w)
{
    if (np == 2) {
        rns_crt2(out, olen, res, m, u, PI + np + 1);
    } else {
        pqlab_fndsa_rns_crt_native(out, olen, res + u, m, np, PI + np + 1, w, &RNS_P[0][0]);
    }
}
#else
static inline void rns_crt(uint32_t *out, size_t olen, const uint32_t *res, size_t m, size_t u, size_t np,
                           const uint32_t *PI, uint32_t *w)
{
    const uint32_t *B = PI + np + 1;
    if (np == 2) {
        rns_crt2(out, olen, res, m, u, B);
        return;
    }
    /* X = t_0 + p_0 (t_1 + p_1 (t_2 + ...)); before the step for j, X < 2^(31 (np - 1 - j))
     * holds in np - 1 - j limbs, and the step's carry out is its next limb (public) */
    uint32_t *X = w;
    X[0] = res[(np - 1) * m + u];
    for (size_t j = np - 1; j-- > 0;) {
        uint64_t cc = res[j * m + u];
        size_t nl = np - 1 - j;
        for (size_t i = 0; i < nl; i++) {
            uint64_t z = (uint64_t)X[i] * RNS_P[j][0] + cc;
            X[i] = (uint32_t)z;
            cc = z >> 32;
        }
        X[nl] = (uint32_t)cc;
    }
    /* out = X - B (np limbs: X < prod < 2^(31 np)), sign-extended */
    uint32_t bw = 0;
    for (size_t i = 0; i < olen; i++) {
        uint32_t x = i < np ? X[i] : 0, y = i <= np ? B[i] : 0;
        uint64_t z = (uint64_t)x - y - bw;
        out[i] = (uint32_t)z;
        bw = (uint32_t)(z >> 63);
    }
}
#endif

/* ---- Babai reduction ---- */

/* Floating-point side of a reduction: f, g (m values of flen limbs) scaled by
 * 2^-scf, in FFT form and adjoint, and dn = 1 / (f adj(f) + g adj(g)); or, in
 * fixed point (the reference's schedule), U_j, V_j and the exponent fxe (above). */
typedef struct {
    fpr *fa, *ga, *dn, *Fa, *Ga, *tt;
    int32_t *k;
    int32_t scf;
    int win;     /* scales of the reference's schedule (poly_to_fpr) */
    int64_t *xa; /* fixed point: 2m values (F', G'), also the scratch at Fa */
    int32_t *uv; /* fixed point: U_j, V_j in halves, 8 words per j < m/2 */
    int32_t fxe; /* fixed point: bf + E - 63 (secret) */
    /* m >= 16: f and g in RNS/NTT form for the subtractions (np primes) */
    size_t np;
    modp_t *qs;
    uint32_t *fnt, *gnt, *cst, *PI;
    uint32_t *roots; /* per prime psi, ipsi (2m words), or NULL: recomputed per step */
    int once;        /* BABAI_ONCE: f, g not kept in NTT form, k is the caller's */
} babai_t;

/* rns_mul's flags beside adj (1): a1(x^2) from m/2 coefficients; b1(-x) */
#define RNS_A_X2 2
#define RNS_B_NEG 4

/* babai_init's mode for a single babai_sub with the caller's k (reduce_once) */
#define BABAI_ONCE 3

static inline uint32_t ct_max_u32(uint32_t a, uint32_t b)
{
    return a ^ ((a ^ b) & ((uint32_t)0 - (uint32_t)(((uint64_t)a - b) >> 63)));
}

/* The deepest intermediate depth whose Babai steps run in fixed point (ntru.c) */
#define NTRU_FX_MAX_DEPTH 4

/* ---- functions shared between the files ---- */
#define zadd FNDSA_NS(ntru_zadd)
#define zsub FNDSA_NS(ntru_zsub)
#define zmul FNDSA_NS(ntru_zmul)
#define zbitlen FNDSA_NS(ntru_zbitlen)
#define poly_relen FNDSA_NS(ntru_poly_relen)
#define modp_init FNDSA_NS(ntru_modp_init)
#define mp_of_zint FNDSA_NS(ntru_mp_of_zint)
#define mp_roots FNDSA_NS(ntru_mp_roots)
#define mp_ntt FNDSA_NS(ntru_mp_ntt)
#define mp_iroots FNDSA_NS(ntru_mp_iroots)
#define mp_intt FNDSA_NS(ntru_mp_intt)
#define mp_pmul FNDSA_NS(ntru_mp_pmul)
#define rns_count FNDSA_NS(ntru_rns_count)
#define rns_setup FNDSA_NS(ntru_rns_setup)
#define mp_intt_scale FNDSA_NS(ntru_mp_intt_scale)
#define rns_garner FNDSA_NS(ntru_rns_garner)
#define rns_mul FNDSA_NS(ntru_rns_mul)
#define mp_of_poly FNDSA_NS(ntru_mp_of_poly)
#define poly_mul_negacyclic FNDSA_NS(ntru_poly_mul_negacyclic)
#define field_norm FNDSA_NS(ntru_field_norm)
#define zbezout_fast FNDSA_NS(ntru_zbezout_fast)
#define zint_to_fpr_fit FNDSA_NS(ntru_zint_to_fpr_fit)
#define poly_fits FNDSA_NS(ntru_poly_fits)
#define poly_maxbits FNDSA_NS(ntru_poly_maxbits)
#define fxb_load FNDSA_NS(ntru_fxb_load)
#define babai_init FNDSA_NS(ntru_babai_init)
#define babai_k FNDSA_NS(ntru_babai_k)
#define babai_k_fx FNDSA_NS(ntru_babai_k_fx)
#define babai_sub FNDSA_NS(ntru_babai_sub)
#define reduce_once FNDSA_NS(ntru_reduce_once)
#define lift_reduce FNDSA_NS(ntru_lift_reduce)
#define poly_to_fpr FNDSA_NS(ntru_poly_to_fpr)
#define poly_to_fpr_inplace FNDSA_NS(ntru_poly_to_fpr_inplace)
#define poly_to_fx_grid FNDSA_NS(ntru_poly_to_fx_grid)

/* big integers (ntru_zint.c) */
void zadd(uint32_t *x, size_t xlen, const uint32_t *y, size_t ylen);
void zsub(uint32_t *x, size_t xlen, const uint32_t *y, size_t ylen);
void zmul(uint32_t *r, size_t rlen, const uint32_t *a, size_t alen, const uint32_t *b, size_t blen);
#if defined(PQLAB_FNDSA_CT_NEGATIVE_CONTROL_KEYGEN) || defined(PQLAB_FNDSA_NTRU_TEST)
uint32_t zbitlen(const uint32_t *x, size_t len);
#endif
void poly_relen(uint32_t *p, size_t m, size_t len, size_t nlen);

/* residue-number arithmetic: mod-p NTTs, RNS/CRT products, field norm (ntru_rns.c) */
void modp_init(modp_t *q, uint32_t p);
uint32_t mp_of_zint(const uint32_t *x, size_t len, const modp_t *q);
void mp_roots(uint32_t *psi, uint32_t *ipsi, uint32_t *pw, uint32_t g, unsigned logm, const modp_t *q);
void mp_ntt(uint32_t *a, const uint32_t *psi, unsigned logm, const modp_t *q);
void mp_iroots(uint32_t *ipsi, const uint32_t *psi, unsigned logm, const modp_t *q);
void mp_intt(uint32_t *a, const uint32_t *ipsi, unsigned logm, uint32_t c, const modp_t *q);
void mp_pmul(uint32_t *r, const uint32_t *a, const uint32_t *b, size_t m, const modp_t *q);
size_t rns_count(uint32_t bits);
void rns_setup(modp_t *qs, uint32_t *cst, uint32_t *PI, size_t np);
uint32_t mp_intt_scale(const modp_t *q, unsigned logm);
void rns_garner(uint32_t *res, size_t m, size_t np, const modp_t *qs, const uint32_t *cst);
int rns_mul(uint32_t *r, size_t rlen, const void *a1, const void *a2, size_t astride, size_t alen, const void *b1,
            const void *b2, size_t blen, int adj, size_t m, size_t np, ws_t *ws);
void mp_of_poly(uint32_t *t, const void *xv, size_t stride, size_t len, size_t m, int adj, const modp_t *q);
void poly_mul_negacyclic(uint32_t *r, size_t rlen, const uint32_t *a, size_t alen, uint32_t abits, const void *b,
                         size_t blen, uint32_t bbits, size_t m, size_t astep, int bneg, uint32_t *tmp, ws_t *ws);
void field_norm(uint32_t *out, size_t olen, const void *f, size_t flen, uint32_t fbits, size_t m, ws_t *ws);

/* the binary extended GCD (ntru_gcd.c) */
int zbezout_fast(uint32_t *u, uint32_t *v, const uint32_t *x, const uint32_t *y, size_t L, ws_t *ws);

/* Babai reduction in floating and fixed point (ntru_babai.c) */
fpr zint_to_fpr_fit(const uint32_t *x, size_t len, int32_t sc);
uint32_t poly_fits(const uint32_t *p, size_t m, size_t len, uint32_t bits);
uint32_t poly_maxbits(const uint32_t *p, size_t m, size_t stride, size_t rl);
void fxb_load(int64_t *a, const uint32_t *x, size_t m, size_t stride, size_t rl, int32_t t);
int babai_init(babai_t *b, const uint32_t *f, const uint32_t *g, size_t flen, uint32_t fbits, int32_t scf, int win,
               int fft, size_t m, unsigned logm, ws_t *ws);
uint32_t babai_k(babai_t *b, const uint32_t *F, const uint32_t *G, size_t Flen, size_t rl, int32_t scF, int32_t s,
                 size_t m, unsigned logm);
uint32_t babai_k_fx(babai_t *b, const uint32_t *F, const uint32_t *G, size_t Flen, size_t rl, int32_t s, size_t m,
                    unsigned logm);
void babai_sub(babai_t *b, uint32_t *F, uint32_t *G, size_t Flen, const void *f, const void *g, size_t flen, size_t m,
               unsigned logm, uint32_t s, ws_t *ws);
int reduce_once(uint32_t *F, uint32_t *G, size_t Flen, size_t rl, uint32_t Fb, const void *f, const void *g,
                size_t flen, uint32_t fbits, size_t m, unsigned logm, ws_t *ws);
int lift_reduce(void *Fo, void *Go, size_t outlen, uint32_t outbits, const uint32_t *Fp, const uint32_t *Gp, size_t FL,
                uint32_t Fpb, uint32_t chkbits, const void *f, const void *g, size_t flen, uint32_t fbits, size_t m,
                unsigned logm, ws_t *ws);
void poly_to_fx_grid(int64_t *out, const uint32_t *x, size_t m, size_t stride, size_t rl, int32_t e, int32_t sh);
void poly_to_fpr(fpr *out, const uint32_t *x, size_t m, size_t stride, size_t rl, int32_t sc, int win);
void poly_to_fpr_inplace(fpr *out, size_t m, size_t len);

#ifdef PQLAB_FNDSA_NTRU_TEST
/* test builds (lib/fndsa/test/ntru_test.c): the fixed-point depth limit, and the
 * comparison of every fixed-point Babai step with the floating-point one */
#define fndsa_ntru_test_fxdepth FNDSA_NS(fndsa_ntru_test_fxdepth)
#define ntru_test_compare FNDSA_NS(ntru_test_compare)
extern unsigned fndsa_ntru_test_fxdepth;
void ntru_test_compare(babai_t *bfl, const babai_t *b, const uint32_t *F, const uint32_t *G, size_t Flen, size_t rl,
                       const uint32_t *f, const uint32_t *g, size_t flen, int32_t scF, int32_t s, size_t m,
                       unsigned logm, uint32_t big);
#endif

#endif
