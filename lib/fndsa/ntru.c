/* SPDX-License-Identifier: MIT */
/* NTRUSolve (round-3 specification v1.2, section 3.8.2, algorithms 6-7):
 * find F, G with f G - g F = q over Z[x]/(x^n + 1), with exact big-integer
 * arithmetic.
 *
 *  - Descent: f_{d+1} = N(f_d) = f0^2 - x f1^2 where f_d = f0(x^2) + x f1(x^2)
 *    (the field norm to the half-degree subring), same for g, down to
 *    degree 1, where f_D, g_D are positive odd integers (a sum of two squares
 *    at the last step; odd because f(1) and g(1) are odd).
 *  - Deepest level: binary extended GCD, f_D u - g_D v = 1, F = q v, G = q u.
 *  - Ascent: F_d = F'(x^2) g_d(-x), G_d = G'(x^2) f_d(-x) (then f_d G_d - g_d F_d
 *    = N(f)(x^2) G' - N(g)(x^2) F' = q), followed by Babai reduction
 *    (F, G) -= k (f, g) with k = round((F f* + G g*) / (f f* + g g*)),
 *    computed in floating point on the top bits, with power-of-two scales
 *    fixed in advance (in block fixed point at depths 2..4, babai_k_fx); at
 *    depths 1 and 0 the lift and the single Babai step are one computation
 *    (lift_reduce: the unreduced F, G only ever exist as residues). At
 *    depths 2..logn-1 the schedule is the round-3 reference's (replayed to
 *    reject the candidates it rejects, see ref_schedule); at depths 1 and 0
 *    and at the deepest level it runs down to the point where every
 *    coefficient of (F f* + G g*)/(f f* + g g*) rounds to 0: the unique
 *    Babai-reduced solution, whatever representative of the coset
 *    {(F + e f, G + e g)} the lower levels produced. That is what makes the
 *    private key identical to the round-3 reference's.
 *
 * Big integers are little-endian arrays of 32-bit limbs, two's complement;
 * a polynomial of m coefficients with L limbs each is m*L words, coefficient
 * after coefficient. Workspace: one caller-provided uint32_t array, used as a
 * stack. Products of degree >= 16 go through residue-number arithmetic (NTT
 * modulo 31-bit primes, Garner CRT), smaller ones are schoolbook.
 *
 * Constant time: every size is fixed per depth from public bounds (the
 * reference's tables of coefficient sizes), every loop runs a public number
 * of times (the Babai schedules, the GCD passes), limb selection and bit
 * lengths use masks. Only accept/reject decisions of the candidate (f, g) are
 * declassified (see docs/fndsa.md, "Constant time").
 *
 * Bounds: products of a one-limb coefficient pair are exact in int64; sums
 * of up to 1024 of them are kept exactly as a signed high half plus an
 * unsigned low half (acc96); RNS products use enough primes for the public
 * size bound of their result; reduction coefficients are clamped to int32
 * (exact reductions) or checked (the reference schedule). */
#include "ntru_internal.h"

/* ---------------------------------------------------------------------- */
/* Fixed sizes and compatibility with the round-3 reference's NTRU solver.  */
/*
 * Sizes: the coefficients of f, g at depth d fit in BL_SMALL[d] 31-bit words
 * and the unreduced F, G at depth d in BL_LARGE[d] words (the reference's
 * tables: averages plus six standard deviations, with margin; facts, not
 * code). Every buffer and loop is sized from these public bounds, so no size
 * depends on f, g; a value that does not fit (never seen) rejects the
 * candidate, which is what the reference does as well.
 *
 * The reference (whose keys the KAT files record) does not reduce F, G
 * exactly at the intermediate depths: it runs a fixed schedule sized from the
 * tables, and gives up on (f, g) when a reduction coefficient leaves the int32
 * range or a value outgrows the words the schedule reserved for it. Key
 * generation then draws new (f, g). An exact solver succeeds on such
 * candidates, so to produce the same keys we replay that schedule on the same
 * values and reject the candidate exactly when the reference would. Facts used
 * (not code): the tables below and the schedule's rules (start at scale
 * 31*llen - (avg - 6 std), 25 bits less per iteration down to 0; after each
 * step the expected size is scale + avg + 6 std + 10 bits and the word count
 * drops by one when it has a spare word).
 */
static const uint16_t REF_BL_SMALL[11] = {1, 1, 2, 2, 4, 7, 14, 27, 53, 106, 209};
static const uint16_t REF_BL_LARGE[10] = {2, 2, 5, 7, 12, 21, 40, 78, 157, 308};
static const uint16_t REF_BL_AVG[11] = {4, 11, 24, 50, 102, 202, 401, 794, 1577, 3138, 6308};
static const uint16_t REF_BL_STD[11] = {0, 1, 1, 1, 1, 2, 4, 5, 8, 13, 25};

/* 1 when every coefficient of p fits in a signed integer of `words` 31-bit words */
static uint32_t fits31(const uint32_t *p, size_t m, size_t len, size_t words)
{
    return poly_fits(p, m, len, 31 * (uint32_t)words - 1);
}

/* both F and G fit `words` 31-bit words; declassified (a reject decision) */
static int fits31_both(const uint32_t *F, const uint32_t *G, size_t m, size_t len, size_t words)
{
    uint32_t ok = fits31(F, m, len, words) & fits31(G, m, len, words);
    PQLAB_DECLASSIFY(&ok, sizeof ok);
    return (int)ok;
}

/* The deepest intermediate depth whose Babai steps run in fixed point (see
 * babai_k_fx and docs/fndsa.md): at the deeper ones (f, g of larger condition
 * number sqrt(max D_j / min D_j)) the binary64 computation's own error can grow
 * from step to step until the reference rejects the candidate, and a more precise
 * computation would accept it (a different key); measured largest relative error of
 * the binary64 k up to depth 4: 2^-35.7 (Falcon-512, 5,000 key generations) and 2^-35.1
 * (Falcon-1024, 1,500), against about 2^-25 where that growth starts */
#ifdef PQLAB_FNDSA_NTRU_TEST
#define FX_MAX_DEPTH fndsa_ntru_test_fxdepth /* lib/fndsa/test/ntru_test.c */
#else
#define FX_MAX_DEPTH NTRU_FX_MAX_DEPTH
#endif

/* Replays the reference's reduction schedule at intermediate depth `depth`
 * (2 <= depth < logn) on (F, G) (m coefficients of Flen limbs), reducing them
 * along the way; |f|, |g| < 2^fb (public: sizes the RNS products k f). Returns 0
 * when the reference rejects (f, g). */
static NTRU_NOINLINE int ref_schedule(uint32_t *F, uint32_t *G, size_t *pFlen, const uint32_t *f, const uint32_t *g,
                                      size_t flen, uint32_t fb, size_t m, unsigned logm, unsigned depth,
                                      const fndsa_ntru_params *pp, ws_t *ws)
{
    size_t Flen = *pFlen;
    size_t slen = pp->bl_small[depth], llen = pp->bl_large[depth];
    int minbl_fg = pp->bl_avg[depth] - 6 * pp->bl_std[depth];
    int maxbl_fg = pp->bl_avg[depth] + 6 * pp->bl_std[depth];
    /* F' from the level below must fit its words, and so must the unreduced F */
    if (!fits31_both(F, G, m, Flen, llen)) {
        return 0;
    }
    size_t mark = ws->used;
    babai_t b;
    /* k in fixed point (babai_k_fx) at the depths up to NTRU_FX_MAX_DEPTH (public),
     * in emulated binary64 (babai_k) below; f, g seen through their top (at most 10)
     * words of slen in floating point (the reference reads those words; what the
     * fixed-point side reads beyond them is below 2^-260 of |f| and of |f| 2^s) */
    const int fx = depth <= FX_MAX_DEPTH;
    const int32_t scf = 31 * (int)(slen - (slen > 10 ? 10 : slen));
    if (!babai_init(&b, f, g, flen, fb, scf, 1, fx ? 2 : 1, m, logm, ws)) {
        return 0;
    }
#ifdef PQLAB_FNDSA_NTRU_TEST
    /* test builds: the floating-point k of every fixed-point step as well, compared */
    babai_t bfl;
    if (fx && !babai_init(&bfl, f, g, flen, fb, scf, 1, 1, m, logm, ws)) {
        return 0;
    }
#endif
    size_t FGlen = llen;
    int maxbl_FG = 31 * (int)llen;
    int scale_k = maxbl_FG - minbl_fg;
    int ok = 1;
    for (;;) {
        int scale_FG = 31 * (int)(FGlen - (FGlen > 10 ? 10 : FGlen));
        /* the reference fails when a coefficient of k leaves (-2^31+1, 2^31-1) */
        /* F, G fit FGlen words (checked): the limbs above those bits are sign
         * extension */
        size_t rl = (31 * FGlen + 31) / 32;
        if (rl > Flen) {
            rl = Flen;
        }
        uint32_t big = fx ? babai_k_fx(&b, F, G, Flen, rl, scale_k, m, logm)
                          : babai_k(&b, F, G, Flen, rl, scale_FG, scale_k, m, logm);
#ifdef PQLAB_FNDSA_NTRU_TEST
        if (fx) {
            ntru_test_compare(&bfl, &b, F, G, Flen, rl, f, g, flen, scale_FG, scale_k, m, logm, big);
        }
#endif
        PQLAB_DECLASSIFY(&big, sizeof big);
        if (big) {
            ok = 0;
            break;
        }
        babai_sub(&b, F, G, Flen, f, g, flen, m, logm, (uint32_t)scale_k, ws);
        int nb = scale_k + maxbl_fg + 10;
        if (nb < maxbl_FG) {
            maxbl_FG = nb;
            if ((int)FGlen * 31 >= maxbl_FG + 31) {
                FGlen--;
            }
        }
        /* the reference keeps only FGlen words of F and G from here on */
        if (!fits31_both(F, G, m, Flen, FGlen)) {
            ok = 0;
            break;
        }
        /* so can we, with mgn limbs of margin, for shorter scans: the next step
         * subtracts k f 2^s with |k| < 2^31 (checked first), s <= 31 FGlen - minbl_fg,
         * |f| < 2^(31 slen), m <= 2^10, so with X = 31 slen - minbl_fg (public),
         * |F - k f 2^s| < 2^(31 FGlen + X + 42) <= 2^(32 (FGlen + mgn) - 1): no
         * wrap-around can fake a fit */
        size_t mgn = (size_t)(31 * (int)slen - minbl_fg + 41) / 32 + 1;
        if (FGlen + mgn < Flen) {
            poly_relen(F, m, Flen, FGlen + mgn);
            poly_relen(G, m, Flen, FGlen + mgn);
            Flen = FGlen + mgn;
        }
        if (scale_k <= 0) {
            break;
        }
        scale_k = scale_k > 25 ? scale_k - 25 : 0;
    }
    /* and returns slen words */
    if (ok && !fits31_both(F, G, m, Flen, slen)) {
        ok = 0;
    }
    *pFlen = Flen;
    ws->used = mark;
    return ok && !ws->fail;
}

/* The Hawk reference's schedule at intermediate depth `depth` (1 <= depth < logn),
 * replayed on (F, G) (m coefficients of Flen limbs) the way ref_schedule replays the
 * round-3 Falcon one; returns 0 when that solver gives up on (f, g). Facts used (the
 * rules of the Hawk v1.0 reference's NTRU solver, ntrugen, in mupq's hawk ng_ntru.c,
 * and its per-depth tables; not code):
 *  - f, g are read through their top rlen = min(word_win[d], slen) 31-bit words: the
 *    f scale is scale_fg = 31 (slen - rlen);
 *  - the F scale starts at scale_FG = 31 llen with F, G in FGlen = llen words;
 *  - each step subtracts k 2^(scale_FG - scale_fg) (f, g) with k = round((F adj(f) + G
 *    adj(g)) / (f adj(f) + g adj(g))) at those scales; it is the last step when
 *    scale_FG = scale_fg; otherwise scale_FG drops by reduce_bits (not below scale_fg)
 *    and FGlen by one word as long as FGlen > slen and 31 (FGlen - slen) > scale_FG -
 *    scale_fg + 30;
 *  - F and G are kept in FGlen words from then on (slen words at the end): a value
 *    that does not fit is cut off, the NTRU equation no longer holds and the reference
 *    reports a reduction error (its check modulo one prime at depth >= 2, at depth 0
 *    for a cut at depth 1). Here that is the test `fits`, after every step.
 * k is computed in (emulated) binary64 from the same top words, where the reference
 * uses 32.32 fixed point: both round the same real quotient; see docs/hawk.md for how
 * the reject decisions were compared. */
static NTRU_NOINLINE int hawk_schedule(uint32_t *F, uint32_t *G, size_t *pFlen, const uint32_t *f, const uint32_t *g,
                                       size_t flen, size_t m, unsigned logm, unsigned depth,
                                       const fndsa_ntru_params *pp, ws_t *ws)
{
    size_t Flen = *pFlen;
    size_t slen = pp->bl_small[depth], llen = pp->bl_large[depth];
    size_t rlen = pp->word_win[depth] < slen ? pp->word_win[depth] : slen;
    const int32_t scale_fg = 31 * (int32_t)(slen - rlen);
    /* F' from the level below times (f, g) must fit the words of the unreduced F */
    if (!fits31_both(F, G, m, Flen, llen)) {
        return 0;
    }
    size_t mark = ws->used;
    babai_t b;
    int64_t *w = (int64_t *)(void *)ws_alloc(ws, 8 * m); /* 4m fixed-point values */
    if (ws->fail || !babai_init(&b, f, g, flen, 31 * (uint32_t)flen - 1, 0, 0, 0, m, logm, ws)) {
        return 0;
    }
    /* the fixed-point grids: scale_x = bit length of the top words of f, g (secret),
     * scale_t = min(15 - logm, scale_x); f, g are read as f 2^-(scale_fg + scale_x -
     * scale_t) with 32 fractional bits, from their top words; F, G at each step as
     * F 2^-(scale_FG + scale_x) with 32 fractional bits, from their words at and above
     * bit 31 floor(scale_FG / 31) */
    int32_t bx = (int32_t)ct_max_u32(poly_maxbits(f, m, flen, flen), poly_maxbits(g, m, flen, flen)) - scale_fg;
    const int32_t scale_x = bx & ~(bx >> 31);
    const int32_t st = 15 - (int32_t)logm;
    const int32_t scale_t = st ^ ((st ^ scale_x) & ((scale_x - st) >> 31));
    const int32_t scdiff = scale_x - scale_t;
    int32_t xf = scdiff - 32, yf = 32 - scdiff;
    poly_to_fx_grid(w, f, m, flen, flen, scale_fg + (xf & ~(xf >> 31)), yf & ~(yf >> 31));
    poly_to_fx_grid(w + m, g, m, flen, flen, scale_fg + (xf & ~(xf >> 31)), yf & ~(yf >> 31));
    pp->fx_init(w, logm, (uint32_t)scale_t);
    size_t FGlen = llen;
    int32_t scale_FG = 31 * (int32_t)llen;
    /* margin limbs kept above FGlen words: the next step subtracts k f 2^s with
     * |k| <= 2^31, s <= 31 FGlen - scale_fg, |f| < 2^(31 slen), m <= 2^10 */
    size_t mgn = (size_t)(31 * (int32_t)slen - scale_fg + 42) / 32 + 1;
    int ok = 1;
    for (;;) {
        size_t rl = (31 * FGlen + 31) / 32;
        if (rl > Flen) {
            rl = Flen;
        }
        int32_t scale_k = scale_FG - scale_fg;
        int32_t sc = scale_x + scale_FG % 31;
        int32_t xF = sc - 32, yF = 32 - sc;
        int32_t eF = 31 * (scale_FG / 31) + (xF & ~(xF >> 31));
        poly_to_fx_grid(w + 2 * m, F, m, Flen, rl, eF, yF & ~(yF >> 31));
        poly_to_fx_grid(w + 3 * m, G, m, Flen, rl, eF, yF & ~(yF >> 31));
        pp->fx_k(b.k, w, logm);
        babai_sub(&b, F, G, Flen, f, g, flen, m, logm, (uint32_t)scale_k, ws);
        int last = scale_FG <= scale_fg;
        if (!last) {
            scale_FG = scale_FG - scale_fg <= (int32_t)pp->reduce_bits ? scale_fg : scale_FG - (int32_t)pp->reduce_bits;
            while (FGlen > slen && 31 * (int32_t)(FGlen - slen) > scale_FG - scale_fg + 30) {
                FGlen--;
            }
        }
        /* the reference keeps FGlen words of F and G from here on */
        if (!fits31_both(F, G, m, Flen, FGlen)) {
            ok = 0;
            break;
        }
        if (FGlen + mgn < Flen) {
            poly_relen(F, m, Flen, FGlen + mgn);
            poly_relen(G, m, Flen, FGlen + mgn);
            Flen = FGlen + mgn;
        }
        if (last) {
            break;
        }
    }
    if (ok && !fits31_both(F, G, m, Flen, slen)) {
        ok = 0;
    }
    *pFlen = Flen;
    ws->used = mark;
    return ok && !ws->fail;
}

/* bound on the bits of |f|, |g| at depth d (public): below 2^7 at depth 0 (the
 * sampler's range), then ld[d] 31-bit words (checked during the descent; a
 * candidate that does not fit is rejected after it, whatever was computed) */
static uint32_t fbits(unsigned d, const uint16_t *ld, uint32_t fb0)
{
    return d == 0 ? fb0 : 31 * (uint32_t)ld[d] - 1;
}

/* a bound as tight as the sizes allow: a coefficient of f0^2 - x f1^2 is a sum of m/2
 * products and m/2 more, each below 2^(2 b), so below 2^(2 b + log m) (m = n / 2^d):
 * from 2^fb0 at depth 0, 2^46 at depth 2 (Falcon-512; 2^45 Falcon-1024) where ld[2]
 * words allow 2^61. It sizes only the RNS products (the number of primes of an exact
 * product), so any bound that holds gives the same values. */
static uint32_t fbits_tight(unsigned d, const uint16_t *ld, uint32_t fb0, unsigned logn)
{
    uint32_t b = fb0;
    for (unsigned i = 0; i < d; i++) {
        b = 2 * b + (logn - i);
        if (b > 31 * (uint32_t)ld[d] - 1) {
            return 31 * (uint32_t)ld[d] - 1;
        }
    }
    return b;
}

#ifdef PQLAB_FNDSA_NTRU_PEAK
size_t fndsa_ntru_peak_words;
int fndsa_ntru_phase, fndsa_ntru_peak_phase;
size_t fndsa_ntru_phase_peak[500];
#define PH(x) (fndsa_ntru_phase = (x))
#else
#define PH(x) ((void)0)
#endif

/* tmp: FNDSA_NTRU_WORDS words */
int fndsa_solve_ntru(int8_t *Fo, int8_t *Go, const int8_t *f, const int8_t *g, unsigned logn, uint32_t *tmp)
{
    /* key generation's range check (keygen.c) bounds f, g by the private-key encoding:
     * |f_i|, |g_i| < 2^(FNDSA_FG_BITS - 1) (2^5, 2^4) */
    static const fndsa_ntru_params falcon = {
        NTRU_Q, REF_BL_SMALL, REF_BL_LARGE, REF_BL_AVG,       REF_BL_STD,       NULL,
        0,      NULL,         NULL,         FNDSA_NTRU_WORDS, FNDSA_FG_BITS - 1};
    return fndsa_solve_ntru_ex(Fo, Go, f, g, logn, &falcon, tmp);
}

/* the same for f G - g F = pp->q with another small q (Hawk: q = 1, q < 2^31) and the
 * word sizes and (f, g) bit-length statistics of another key distribution (the word
 * sizes must be close to the actual sizes: the Babai steps read the top words) */
int fndsa_solve_ntru_ex(int8_t *Fo, int8_t *Go, const int8_t *f, const int8_t *g, unsigned logn,
                        const fndsa_ntru_params *pp, uint32_t *tmp)
{
    const uint32_t q = pp->q;
    ws_t ws;
    ws.base = tmp;
    ws.used = 0;
    ws.cap = pp->ws_words;
    ws.fail = 0;
    size_t n = (size_t)1 << logn;
    /* |f_i|, |g_i| < 2^fb0 (public): the RNS products of depth 0 are sized from it */
    const uint32_t fb0 = pp->fbits0 != 0 ? pp->fbits0 : 7;
#ifdef PQLAB_CONTRACT_CHECKS
    {
        int32_t lim = (int32_t)1 << fb0;
        int in = 1;
        for (size_t u = 0; u < n; u++) {
            in &= f[u] > -lim && f[u] < lim && g[u] > -lim && g[u] < lim;
        }
        PQLAB_CONTRACT("fndsa ntru input", in, "|f_i|, |g_i| < 2^fbits0");
    }
#endif
    uint32_t *fd[11], *gd[11];
    const uint16_t *ld = pp->bl_small; /* limbs of 32 bits hold words of 31 */

    /* level 0: f, g are read from the caller's int8_t arrays (limb count 0 in the
     * calls: field_norm, reduce_once, the product below), not copied into the
     * workspace; fd[d], gd[d] for d >= 1 */
    fd[0] = NULL;
    gd[0] = NULL;
    /* descent: exact field norms in 2 ld[d] + 1 limbs, stored in ld[d + 1] */
    uint32_t fit = 1;
    for (unsigned d = 0; d < logn; d++) {
        size_t m = n >> d, hm = m >> 1;
        size_t ol = 2 * ld[d] + 1, nl = ld[d + 1];
        if (d == 0 && 2 * fb0 + logn < 31 * (uint32_t)nl - 1) {
            ol = nl; /* |f0^2 - x f1^2| < n 2^(2 fb0): fits nl words, exactly (public bound) */
        }
        PH(100 + (int)d);
        fd[d + 1] = ws_alloc(&ws, hm * ol);
        gd[d + 1] = ws_alloc(&ws, hm * ol);
        if (ws.fail) {
            return 0;
        }
        field_norm(fd[d + 1], ol, d == 0 ? (const void *)f : fd[d], d == 0 ? 0 : ld[d], fbits(d, ld, fb0), m, &ws);
        field_norm(gd[d + 1], ol, d == 0 ? (const void *)g : gd[d], d == 0 ? 0 : ld[d], fbits(d, ld, fb0), m, &ws);
        if (ws.fail) {
            return 0;
        }
        fit &= fits31(fd[d + 1], hm, ol, nl) & fits31(gd[d + 1], hm, ol, nl);
        /* compact both (g moves down next to f) */
        poly_relen(fd[d + 1], hm, ol, nl);
        uint32_t *gn = fd[d + 1] + hm * nl;
        for (size_t u = 0; u < hm; u++) {
            wmove(gn + u * nl, gd[d + 1] + u * ol, nl);
        }
        gd[d + 1] = gn;
        ws.used = (size_t)(gn + hm * nl - ws.base);
        if (d == 1 || d == 2) {
            /* f, g of depths 1 and 2 are not kept (n words each): depth d + 1's move down
             * over them, and the ascent computes them again at depths 2 and 1 (f2, f1
             * below) */
            size_t w2 = hm * nl;
            wmove(ws.base, fd[d + 1], w2);
            wmove(ws.base + w2, gd[d + 1], w2);
            fd[d] = gd[d] = NULL;
            fd[d + 1] = ws.base;
            gd[d + 1] = ws.base + w2;
            ws.used = 2 * w2;
        }
    }
    PQLAB_DECLASSIFY(&fit, sizeof fit); /* reject decision (never seen to fail) */
    if (!fit) {
        return 0;
    }
#ifdef PQLAB_FNDSA_CT_NEGATIVE_CONTROL_KEYGEN
    /* test only (tests/test_fndsa_ct.py): a branch on the bit length of the
     * deepest resultant, the kind of leak the fixed sizes removed; the
     * constant-time test must report it */
    {
        static volatile uint32_t sink;
        if (zbitlen(fd[logn], ld[logn]) & 1) {
            sink++;
        }
    }
#endif

    /* deepest: f_D u - g_D v = 1; F = q v, G = q u */
    PH(200); /* test builds: the GCD and the deepest reduction */
    size_t L = ld[logn] + 1;
    uint32_t *x = ws_alloc(&ws, L), *y = ws_alloc(&ws, L);
    uint32_t *Fp = ws_alloc(&ws, L + 1), *Gp = ws_alloc(&ws, L + 1);
    if (ws.fail) {
        return 0;
    }
    wmove(x, fd[logn], ld[logn]);
    x[L - 1] = zsign(fd[logn], ld[logn]);
    wmove(y, gd[logn], ld[logn]);
    y[L - 1] = zsign(gd[logn], ld[logn]);
    /* both resultants are odd and positive by construction (f(1), g(1) odd, and
     * the last norm is a sum of two squares); checked anyway */
    uint32_t badxy = (x[L - 1] | y[L - 1]) | ((x[0] & y[0] & 1) ^ 1);
    PQLAB_DECLASSIFY(&badxy, sizeof badxy);
    if (badxy != 0) {
        return 0;
    }
    if (!zbezout_fast(Gp, Fp, x, y, L, &ws)) {
        return 0;
    }
    {
        uint32_t qq = q;
        uint32_t *t = ws_alloc(&ws, L + 1);
        if (ws.fail) {
            return 0;
        }
        Fp[L] = 0;
        Gp[L] = 0;
        zmul(t, L + 1, Fp, L + 1, &qq, 1);
        wmove(Fp, t, (L + 1));
        zmul(t, L + 1, Gp, L + 1, &qq, 1);
        wmove(Gp, t, (L + 1));
    }
    size_t FL = L + 1;
    uint32_t Fbits = 32 * (uint32_t)FL - 1; /* |F'|, |G'| bound: their limbs, then the checks */
    /* the current F, G live at Fp, Gp (each 1 coefficient of FL limbs);
     * move them right after level logn's f, g */
    {
        uint32_t *dst = gd[logn] + ld[logn];
        wmove(dst, Fp, FL);
        wmove(dst + FL, Gp, FL);
        Fp = dst;
        Gp = dst + FL;
        ws.used = (size_t)(Gp + FL - ws.base);
    }
    /* 0 <= v < x, 0 <= u < y: |K| = q (v x + u y) / (x^2 + y^2) < 2 q */
    if (!reduce_once(Fp, Gp, FL, FL, 32 * (uint32_t)FL - 1, fd[logn], gd[logn], ld[logn], fbits(logn, ld, fb0), 1, 0,
                     &ws)) {
        return 0;
    }
    /* ascent */
    for (unsigned d = logn; d-- > 0;) {
        size_t m = n >> d;
        unsigned logm = logn - d;
        if (d == 2 && fd[2] == NULL) {
            /* f2: the f, g of depth 2 again (the descent's first two field norms, the same
             * values, whose fit check passed), in slots at the bottom (m ld[2] words each,
             * over the f, g of depth 3, no longer needed); F', G' (contiguous) move up
             * right after them, and each norm is formed above F', G' (depth 1's in ld[1]
             * limbs, as f1 below, then depth 2's in 2 ld[1] + 1) and moved down */
            size_t hw = (m >> 1) * FL, w2 = m * ld[2], ol = 2 * ld[1] + 1;
            size_t end = 2 * w2 + 2 * hw;
            if (end > ws.used && ws_alloc(&ws, end - ws.used) == NULL) {
                return 0;
            }
            uint32_t *dst = ws.base + 2 * w2;
            wmove(dst, Fp, 2 * hw);
            Fp = dst;
            Gp = dst + hw;
            ws.used = end;
            PH(101);
            for (int which = 0; which < 2; which++) {
                uint32_t *t2 = ws_alloc(&ws, m * ol), *t1 = ws_alloc(&ws, 2 * m * ld[1]);
                if (ws.fail) {
                    return 0;
                }
                field_norm(t1, ld[1], which == 0 ? f : g, 0, fbits(0, ld, fb0), n, &ws);
                field_norm(t2, ol, t1, ld[1], fbits(1, ld, fb0), 2 * m, &ws);
                if (ws.fail) {
                    return 0;
                }
                poly_relen(t2, m, ol, ld[2]);
                wmove(ws.base + (size_t)which * w2, t2, w2);
                ws.used = end;
            }
            fd[2] = ws.base;
            gd[2] = ws.base + w2;
        }
        if (d == 1 && fd[1] == NULL) {
            /* f1: the f, g of depth 1 again (the descent's first field norms, the same
             * values), after F', G', which move to the bottom over the f, g of depth 2.
             * Stored in ld[1] limbs directly: |f0^2 - x f1^2| < n 2^14 < 2^30 for
             * |f_i| < 2^7, so the descent's fit check on them always passed. */
            size_t hw = (m >> 1) * FL;
            wmove(ws.base, Fp, hw);
            wmove(ws.base + hw, Gp, hw);
            Fp = ws.base;
            Gp = ws.base + hw;
            ws.used = 2 * hw;
            PH(100);
            fd[1] = ws_alloc(&ws, m * ld[1]);
            gd[1] = ws_alloc(&ws, m * ld[1]);
            if (ws.fail) {
                return 0;
            }
            field_norm(fd[1], ld[1], f, 0, fbits(0, ld, fb0), n, &ws);
            field_norm(gd[1], ld[1], g, 0, fbits(0, ld, fb0), n, &ws);
            if (ws.fail) {
                return 0;
            }
        }
        if ((d == 0 || (d == 1 && pp->word_win == NULL)) && m >= 16) {
            /* depths 1 and 0 (one Babai step each): the lift and the step in one
             * (lift_reduce), the unreduced F, G never stored. Depth 1: F checked to fit
             * REF_BL_LARGE[1] words, as the reference, the result to fit ld[1] words,
             * written over F', G' (m ld[1] <= m/2 FL words); depth 0: the key, in
             * [-127, 127], into Fo, Go */
            PH(300 + (int)d);
            size_t keep = d == 0 ? 0 : ld[1];
            uint32_t chk = d == 1 ? 31 * (uint32_t)pp->bl_large[1] - 1 : 0;
            const void *fdv = d == 0 ? (const void *)f : fd[d], *gdv = d == 0 ? (const void *)g : gd[d];
            if (keep != 0 && 2 * keep > FL) {
                return 0; /* public sizes: never with the round-3 tables */
            }
            /* at depth 0, F', G' down to the bottom over the f, g of depth 1 (no longer
             * needed); at depth 1 they are there already (f1 above) */
            if (d == 0) {
                uint32_t *dst = ws.base;
                size_t hw = (m >> 1) * FL;
                wmove(dst, Fp, hw);
                wmove(dst + hw, Gp, hw);
                Fp = dst;
                Gp = dst + hw;
                ws.used = (size_t)(Gp + hw - ws.base);
            }
            if (!lift_reduce(d == 0 ? (void *)Fo : Fp, d == 0 ? (void *)Go : Gp, keep, 31 * (uint32_t)keep - 1, Fp, Gp,
                             FL, Fbits, chk, fdv, gdv, d == 0 ? 0 : ld[d], fbits(d, ld, fb0), m, logm, &ws)) {
                return 0;
            }
            if (d == 0) {
                return 1;
            }
            FL = keep;
            Fbits = 31 * (uint32_t)keep - 1;
            ws.used = (size_t)(Gp + m * FL - ws.base);
            continue;
        }
        size_t NL = FL + ld[d] + 1; /* product of FL and ld[d] limbs, + log2(m) carry bits */
        if (d == 0) {
            /* depth 0: |F'(x^2) g(-x)| < 2^(Fbits + 7 + logm - 1) and, after the one Babai
             * step (|k| < 2^31, checked before it), |F - k f| < that + 2^(31 + 7 + logm):
             * both far below 2^63 (Fbits = 30), so two limbs hold every value exactly */
            uint32_t b0 = Fbits + fbits(0, ld, fb0) + logm;
            uint32_t b1 = 31 + fbits(0, ld, fb0) + logm;
            size_t nl0 = ((b0 > b1 ? b0 : b1) + 1 + 32) / 32;
            if (nl0 < NL) {
                NL = nl0;
            }
        }
        PH(300 + (int)d);
        uint32_t *Fn = ws_alloc(&ws, m * NL), *Gn = ws_alloc(&ws, m * NL);
        uint32_t *t = ws_alloc(&ws, NL);
        if (ws.fail) {
            return 0;
        }
        /* F = F'(x^2) g(-x), G = G'(x^2) f(-x): the product reads F' (m/2
         * coefficients) as F'(x^2) and g as g(-x) itself (no spread or negated copies) */
        for (int which = 0; which < 2; which++) {
            const uint32_t *src = which == 0 ? Fp : Gp;
            const void *pol = d == 0 ? (const void *)(which == 0 ? g : f) : (which == 0 ? gd[d] : fd[d]);
            size_t plen = d == 0 ? 0 : ld[d];
            poly_mul_negacyclic(which == 0 ? Fn : Gn, NL, src, FL, Fbits, pol, plen, fbits(d, ld, fb0), m, 2, 1, t,
                                &ws);
        }
        /* move F, G down over F', G' (free now); at depth 0 to the bottom (f, g of
         * depth 1 are no longer needed either) */
        uint32_t *dst = d == 0 ? ws.base : gd[d] + m * ld[d];
        wmove(dst, Fn, m * NL);
        wmove(dst + m * NL, Gn, m * NL);
        Fp = dst;
        Gp = dst + m * NL;
        ws.used = (size_t)(Gp + m * NL - ws.base);
        PH(400 + (int)d);
        int ok;
        size_t keep, cl = NL; /* cl: current limbs of F and G */
        if (pp->word_win != NULL && d >= 1) {
            /* the Hawk reference's schedule (ends with a step at f's scale) */
            ok = hawk_schedule(Fp, Gp, &cl, fd[d], gd[d], ld[d], m, logm, d, pp, &ws);
            keep = ld[d];
        } else if (d >= 2) {
            /* the reference's schedule (ends with a step at scale 0) */
            ok = ref_schedule(Fp, Gp, &cl, fd[d], gd[d], ld[d], fbits_tight(d, ld, fb0, logn), m, logm, d, pp, &ws);
            keep = ld[d];
        } else {
            /* depth 1: F fits REF_BL_LARGE[1] words (checked, as the reference);
             * f, g at depth 0 are below 2^7 */
            ok = d == 0 || fits31_both(Fp, Gp, m, NL, pp->bl_large[1]);
            /* |F| below 2^61 (depth 1, checked) or m/2 2^Fbits 2^7 (depth 0): the
             * limbs read */
            uint32_t Fb = d == 1 ? 31 * (uint32_t)pp->bl_large[1] - 1 : Fbits + fbits(0, ld, fb0) + logm - 1;
            size_t rl = (Fb + 32) / 32 < NL ? (Fb + 32) / 32 : NL;
            const void *fdv = d == 0 ? (const void *)f : fd[d], *gdv = d == 0 ? (const void *)g : gd[d];
            ok = ok && reduce_once(Fp, Gp, NL, rl, Fb, fdv, gdv, d == 0 ? 0 : ld[d], fbits(d, ld, fb0), m, logm, &ws);
            keep = d == 1 ? ld[1] : NL;
        }
        if (!ok || !fits31_both(Fp, Gp, m, cl, keep)) {
            return 0;
        }
        /* re-pack to keep limbs; G moves right after F */
        poly_relen(Fp, m, cl, keep);
        uint32_t *gn = Fp + m * keep;
        poly_relen(Gp, m, cl, keep);
        wmove(gn, Gp, m * keep);
        Gp = gn;
        FL = keep;
        Fbits = 31 * (uint32_t)keep - 1;
        ws.used = (size_t)(Gp + m * FL - ws.base);
    }
    /* final: F, G at level 0 must fit in [-127, 127] */
    uint32_t bad = 0;
    for (size_t u = 0; u < n; u++) {
        int32_t a = (int32_t)Fp[u * FL], b = (int32_t)Gp[u * FL];
        for (size_t i = 1; i < FL; i++) {
            bad |= Fp[u * FL + i] ^ zsign(Fp + u * FL, FL);
            bad |= Gp[u * FL + i] ^ zsign(Gp + u * FL, FL);
        }
        bad |= ((uint32_t)(a + 127) >> 31) | ((uint32_t)(127 - a) >> 31);
        bad |= ((uint32_t)(b + 127) >> 31) | ((uint32_t)(127 - b) >> 31);
        Fo[u] = (int8_t)a;
        if (Go != NULL) { /* public: key generation keeps only F */
            Go[u] = (int8_t)b;
        }
    }
    PQLAB_DECLASSIFY(&bad, sizeof bad);
    return bad == 0;
}

/* ---------------------------------------------------------------------- */
/* Private-key check: f G - g F = q in Z[x]/(x^n + 1) (the NTRU equation,  */
/* spec 3.8.2), exactly. For int8 coefficients every coefficient of         */
/* f G - g F is at most 2 n 128^2 = 2^25 (n = 1024) in absolute value,     */
/* far below p / 2 for the 31-bit prime p = RNS_P[0]: the equation holds    */
/* over the integers iff it holds modulo p, coefficient by coefficient.    */
/* NTT products modulo p, compared point by point; no branch, no address on */
/* the values, only the final verdict is declassified (a valid key always   */
/* gives 1, so the result says nothing about it). tmp: 5n words.           */

int fndsa_check_ntru(const int8_t *f, const int8_t *g, const int8_t *F, const int8_t *G, unsigned logn, uint32_t *tmp)
{
    size_t n = (size_t)1 << logn;
    uint32_t *psi = tmp, *ipsi = tmp + n, *a = tmp + 2 * n, *b = tmp + 3 * n, *c = tmp + 4 * n;
    modp_t q;
    modp_init(&q, RNS_P[0][0]);
    mp_roots(psi, ipsi, c, RNS_P[0][1], logn, &q); /* c: scratch here */
    for (size_t u = 0; u < n; u++) {
        a[u] = mp_of_i32((uint32_t)(int32_t)f[u], q.p);
        b[u] = mp_of_i32((uint32_t)(int32_t)G[u], q.p);
    }
    mp_ntt(a, psi, logn, &q);
    mp_ntt(b, psi, logn, &q);
    mp_pmul(a, a, b, n, &q);
    for (size_t u = 0; u < n; u++) {
        c[u] = mp_of_i32((uint32_t)(int32_t)g[u], q.p);
        b[u] = mp_of_i32((uint32_t)(int32_t)F[u], q.p);
    }
    mp_ntt(c, psi, logn, &q);
    mp_ntt(b, psi, logn, &q);
    mp_pmul(c, c, b, n, &q);
    /* the NTT of f G - g F is compared with the NTT of the constant q (no inverse NTT): the
     * NTT is a bijection modulo p and maps the constant q to q at every point; the products
     * above carry mp_mmul's factor 2^-32, so every point must hold q 2^-32 mod p */
    const uint32_t want = mp_mmul(NTRU_Q, 1, &q);
    uint32_t bad = 0;
    for (size_t u = 0; u < n; u++) {
        bad |= mp_sub(a[u], c[u], q.p) ^ want;
    }
    bad = 1u ^ pqlab_ct_is_zero_u32(bad);
    PQLAB_DECLASSIFY(&bad, sizeof bad); /* 0 for every valid key */
    return bad == 0;
}
