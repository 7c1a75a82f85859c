/* SPDX-License-Identifier: MIT */
/* Test-only part of FN-DSA's NTRU solver (built only for the unit tests, which compile it
 * with -DPQLAB_FNDSA_NTRU_TEST; not part of the library): the hooks that expose the fit
 * check, the bit length, the floating approximation and the fixed-point window load, the
 * fixed-point depth limit the tests vary, and the comparison of every fixed-point Babai
 * step with the floating-point one (ntru.c calls ntru_test_compare in test builds). */
#include "../ntru_internal.h"

#ifdef PQLAB_FNDSA_NTRU_TEST
unsigned fndsa_ntru_test_fxdepth = NTRU_FX_MAX_DEPTH;

/* test builds: counters of the comparison of the fixed-point k with the floating
 * one: steps, coefficients compared (neither big), coefficients that differ, steps
 * where big differs, steps with a difference, nonzero k coefficients, max |k| */
uint64_t FNDSA_NS(fndsa_ntru_test_kcmp)[8];
/* capture of one step's inputs and outputs: cap[0] = steps to skip before capturing
 * (the counter runs down; set it to 0xFFFFFFFF for none), then, once captured, cap[1..] =
 * {m, flen, rl, s, tau, big, bigf}, f, g (m flen words each), F, G (m rl each), k
 * fixed, k float, x~ (2m words: the unrounded fixed-point values, int64) */
uint32_t FNDSA_NS(fndsa_ntru_test_cap)[1 << 16];
static void ntru_test_capture(const babai_t *bfl, const babai_t *b, const uint32_t *F, const uint32_t *G, size_t Flen,
                              size_t rl, const uint32_t *f, const uint32_t *g, size_t flen, int32_t s, size_t m,
                              uint32_t big, uint32_t bigf)
{
    uint32_t *cap = FNDSA_NS(fndsa_ntru_test_cap);
    if (cap[0] == 0xFFFFFFFFu || cap[0]-- != 0) {
        return;
    }
    cap[0] = 0xFFFFFFFFu;
    size_t need = 8 + 2 * m * flen + 2 * m * rl + 2 * m + 2 * m;
    if (need > (1u << 16)) {
        return;
    }
    uint32_t *o = cap + 1;
    int32_t tau = 0;
    {
        uint32_t bF = ct_max_u32(poly_maxbits(F, m, Flen, rl), poly_maxbits(G, m, Flen, rl));
        tau = (int32_t)bF - b->fxe - s;
    }
    o[0] = (uint32_t)m;
    o[1] = (uint32_t)flen;
    o[2] = (uint32_t)rl;
    o[3] = (uint32_t)s;
    o[4] = (uint32_t)tau;
    o[5] = big;
    o[6] = bigf;
    o += 7;
    for (size_t u = 0; u < m; u++, o += flen) {
        wmove(o, f + u * flen, flen);
    }
    for (size_t u = 0; u < m; u++, o += flen) {
        wmove(o, g + u * flen, flen);
    }
    for (size_t u = 0; u < m; u++, o += rl) {
        wmove(o, F + u * Flen, rl);
    }
    for (size_t u = 0; u < m; u++, o += rl) {
        wmove(o, G + u * Flen, rl);
    }
    wmove(o, (const uint32_t *)(const void *)b->k, m);
    o += m;
    wmove(o, (const uint32_t *)(const void *)bfl->k, m);
    o += m;
    size_t hm = m >> 1;
    for (size_t u = 0; u < m; u++, o += 2) {
        uint64_t v = (uint64_t)b->xa[u < hm ? 2 * u : 2 * (u - hm) + 1];
        o[0] = (uint32_t)v;
        o[1] = (uint32_t)(v >> 32);
    }
}

void ntru_test_compare(babai_t *bfl, const babai_t *b, const uint32_t *F, const uint32_t *G, size_t Flen, size_t rl,
                       const uint32_t *f, const uint32_t *g, size_t flen, int32_t scF, int32_t s, size_t m,
                       unsigned logm, uint32_t big)
{
    uint64_t *c = FNDSA_NS(fndsa_ntru_test_kcmp);
    uint32_t bigf = babai_k(bfl, F, G, Flen, rl, scF, s, m, logm);
    ntru_test_capture(bfl, b, F, G, Flen, rl, f, g, flen, s, m, big, bigf);
    c[0]++;
    c[3] += bigf != big;
    if (bigf || big) {
        return;
    }
    uint64_t d = 0;
    for (size_t u = 0; u < m; u++) {
        int32_t k = b->k[u];
        c[1]++;
        d += k != bfl->k[u];
        c[5] += k != 0;
        uint64_t a = (uint64_t)(k < 0 ? -(int64_t)k : k);
        c[6] = a > c[6] ? a : c[6];
    }
    c[2] += d;
    c[4] += d != 0;
}

/* test hooks (unit tests only): the fit check and the floating approximation
 * of m coefficients of len limbs, and the bit length they are checked against */
uint32_t FNDSA_NS(fndsa_ntru_test_fits)(const uint32_t *p, size_t m, size_t len, uint32_t bits);
uint32_t FNDSA_NS(fndsa_ntru_test_bitlen)(const uint32_t *x, size_t len);
void FNDSA_NS(fndsa_ntru_test_to_fpr)(uint64_t *out, const uint32_t *p, size_t m, size_t len, int32_t sc);

uint32_t FNDSA_NS(fndsa_ntru_test_maxbits)(const uint32_t *p, size_t m, size_t rl);
void FNDSA_NS(fndsa_ntru_test_fxload)(int64_t *a, const uint32_t *x, size_t m, size_t rl, int32_t t);

/* the block exponent (largest bit length) and the window load of the fixed-point steps */
uint32_t FNDSA_NS(fndsa_ntru_test_maxbits)(const uint32_t *p, size_t m, size_t rl)
{
    return poly_maxbits(p, m, rl, rl);
}

void FNDSA_NS(fndsa_ntru_test_fxload)(int64_t *a, const uint32_t *x, size_t m, size_t rl, int32_t t)
{
    fxb_load(a, x, m, rl, rl, t);
}

uint32_t FNDSA_NS(fndsa_ntru_test_fits)(const uint32_t *p, size_t m, size_t len, uint32_t bits)
{
    return poly_fits(p, m, len, bits);
}

uint32_t FNDSA_NS(fndsa_ntru_test_bitlen)(const uint32_t *x, size_t len)
{
    return zbitlen(x, len);
}

void FNDSA_NS(fndsa_ntru_test_to_fpr)(uint64_t *out, const uint32_t *p, size_t m, size_t len, int32_t sc)
{
    for (size_t u = 0; u < m; u++) {
        out[u] = fpr_to_bits(zint_to_fpr_fit(p + u * len, len, sc));
    }
}
#else
/* ISO C forbids an empty translation unit */
typedef int pqlab_fndsa_ntru_test_unused;
#endif
