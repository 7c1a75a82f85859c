/* SPDX-License-Identifier: MIT */
/* Falcon signing (round-3 specification v1.2, section 3.9): the target
 * t = (c, 0) B^-1, the fast Fourier sampler ffSampling (alg. 11) over the LDL
 * tree of the Gram matrix G = B B* (ffLDL, alg. 9), and s = (c, 0) - z B.
 *
 * Two forms give bit-identical signatures for the same seed:
 *  - dynamic: the key is (f, g, F, G); the LDL tree is computed on the fly
 *    while sampling, level by level, in 9n fprs of scratch, and s is formed
 *    modulo q at the end (fndsa_sign_finish_modq);
 *  - tree: fndsa_expand_privkey computes B in FFT form and the whole
 *    normalised LDL tree once; signing then only walks it.
 * B = [[g, -f], [G, -F]]; rows b0 = (b00, b01), b1 = (b10, b11).
 * Leaves of the tree hold sqrt(d) / sigma, the 1/sigma' of SamplerZ.
 * The sampling runs the same operations in both forms, and both ends give the
 * same s, hence identical signatures. */
#include "fndsa.h"
#include "tables.h"
#include "fft_step.h"
#include "ct.h"

/* Copy of n fprs. The C library's memcpy on the small Cortex-M libraries moves one byte
 * per iteration (picolibc built for size: about 5 cycles per byte on a Cortex-M4), and
 * signing copies about 120 KB (Falcon-512); whole 64-bit elements go 8x faster. The loop
 * must not be turned back into a memcpy call by GCC's loop distribution. */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-loop-distribute-patterns")))
#endif
static void
fpr_copy(fpr *restrict d, const fpr *restrict s, size_t n)
{
    for (size_t u = 0; u < n; u++) {
        d[u] = s[u];
    }
}

static inline fpr inv_sigma(unsigned logn)
{
    return logn == 10 ? FPR_INV_SIGMA_10 : FPR_INV_SIGMA_9;
}

static inline fpr sigma_min(unsigned logn)
{
    return logn == 10 ? FPR_SIGMA_MIN_10 : FPR_SIGMA_MIN_9;
}

static void small_to_fpr(fpr *r, const int8_t *x, unsigned logn)
{
    size_t n = (size_t)1 << logn;
    for (size_t u = 0; u < n; u++) {
        r[u] = fpr_of32(x[u]);
    }
}

/* B in FFT form into b[0..4n): b00 = g, b01 = -f, b10 = G, b11 = -F.
 * tmp: n fprs. */
static void basis_fft(fpr *b, const int8_t *f, const int8_t *g, const int8_t *F, const int8_t *G, unsigned logn,
                      fpr *tmp)
{
    size_t n = (size_t)1 << logn;
    small_to_fpr(b, g, logn);
    small_to_fpr(b + n, f, logn);
    small_to_fpr(b + 2 * n, G, logn);
    small_to_fpr(b + 3 * n, F, logn);
    for (int i = 0; i < 4; i++) {
        fndsa_fft(b + (size_t)i * n, logn, tmp);
    }
    fndsa_poly_neg(b + n, logn);
    fndsa_poly_neg(b + 3 * n, logn);
}

/* Gram matrix of B: g00 = |b00|^2 + |b01|^2, g01 = b00 adj(b10) + b01 adj(b11),
 * g11 = |b10|^2 + |b11|^2. gm: 3n, tmp: n. */
static void gram_fft(fpr *gm, const fpr *b, unsigned logn, fpr *tmp)
{
    size_t n = (size_t)1 << logn;
    const fpr *b00 = b, *b01 = b + n, *b10 = b + 2 * n, *b11 = b + 3 * n;
    fpr *g00 = gm, *g01 = gm + n, *g11 = gm + 2 * n;
    fpr_copy(g00, b00, n);
    fndsa_poly_mulselfadj_fft(g00, logn);
    fpr_copy(tmp, b01, n);
    fndsa_poly_mulselfadj_fft(tmp, logn);
    fndsa_poly_add(g00, tmp, logn);

    fpr_copy(g01, b00, n);
    fndsa_poly_muladj_fft(g01, b10, logn);
    fpr_copy(tmp, b01, n);
    fndsa_poly_muladj_fft(tmp, b11, logn);
    fndsa_poly_add(g01, tmp, logn);

    fpr_copy(g11, b10, n);
    fndsa_poly_mulselfadj_fft(g11, logn);
    fpr_copy(tmp, b11, n);
    fndsa_poly_mulselfadj_fft(tmp, logn);
    fndsa_poly_add(g11, tmp, logn);
}

/* t0 = hm * b11 / q, t1 = -hm * b01 / q (FFT). b01, b11 given as fpr
 * pointers or as bytes (expanded key): exactly one of the pairs is non-NULL. */
static void target_fft(fpr *t0, fpr *t1, const uint16_t *hm, const fpr *b01, const fpr *b11, const uint8_t *b01b,
                       const uint8_t *b11b, unsigned logn, fpr *tmp)
{
    size_t n = (size_t)1 << logn;
    for (size_t u = 0; u < n; u++) {
        t0[u] = fpr_of32(hm[u]);
    }
    fndsa_fft(t0, logn, tmp);
    fpr_copy(t1, t0, n);
    if (b01 != NULL) {
        fndsa_poly_mul_fft(t1, b01, logn);
        fndsa_poly_mul_fft(t0, b11, logn);
    } else {
        fndsa_poly_mul_fft_bytes(t1, b01b, logn);
        fndsa_poly_mul_fft_bytes(t0, b11b, logn);
    }
    fndsa_poly_mulconst(t1, fpr_neg(FPR_INV_Q), logn);
    fndsa_poly_mulconst(t0, FPR_INV_Q, logn);
}

/* The last two levels of ffSampling (logn = 2 and 1; fft.c's layout: real parts, then
 * imaginary parts), shared by both forms, written out on scalars: the recursion's operations
 * with fft.c's steps (fft_step.h) on the same operands in the same order as the general level
 * below, hence the same bits in every fpr layer; what goes is about fifteen calls of small
 * kernels per node (384 nodes for Falcon-512). At logn = 1 split and merge are copies, so a
 * node samples z1 in a copy of t1 and z0 in place of t0. The product (t1 - z1) l10 keeps each
 * form's operand order: l10 first in the dynamic form (poly_mul_fft(l10, t1 - z1)), t1 - z1
 * first in the tree form (poly_mul_fft_bytes). */

/* a node of logn = 1: l10 and its two leaves' 1/sigma' (as the tree stores it) */
typedef struct {
    fpr l_re, l_im, ileft, iright;
} ffsamp_node1;

/* t0 <- t0 + d l, the product in the form's operand order */
static inline void ffsamp_add_prod(fpr *t0_re, fpr *t0_im, fpr d_re, fpr d_im, fpr l_re, fpr l_im, int l_first)
{
    fpr p_re, p_im;
    if (l_first) {
        CMUL(p_re, p_im, l_re, l_im, d_re, d_im);
    } else {
        CMUL(p_re, p_im, d_re, d_im, l_re, l_im);
    }
    *t0_re = fpr_add(*t0_re, p_re);
    *t0_im = fpr_add(*t0_im, p_im);
}

static inline void ffsamp_last1(fndsa_sampler *sc, fpr *t0, fpr *t1, const ffsamp_node1 *nd, int l_first)
{
    fpr z1[2] = {t1[0], t1[1]};
    fndsa_samplerz_leaf(sc, &z1[0], &z1[1], nd->iright);
    fpr d_re = fpr_sub(t1[0], z1[0]), d_im = fpr_sub(t1[1], z1[1]);
    t1[0] = z1[0];
    t1[1] = z1[1];
    ffsamp_add_prod(&t0[0], &t0[1], d_re, d_im, nd->l_re, nd->l_im, l_first);
    fndsa_samplerz_leaf(sc, &t0[0], &t0[1], nd->ileft);
}

/* logn = 2: l = l10 (4 values), its children's nodes */
static void ffsamp_last2(fndsa_sampler *sc, fpr *t0, fpr *t1, const fpr *l, const ffsamp_node1 *left,
                         const ffsamp_node1 *right, int l_first)
{
    fpr z_re = fndsa_fft_zeta[0], z_im = fndsa_fft_zeta[1]; /* zeta of logn 2, u = 0 */
    fpr a[2], b[2], m[4];
    /* z1 = merge(ffSampling(split(t1), right)) */
    fndsa_split_step(&a[0], &a[1], &b[0], &b[1], t1[0], t1[2], t1[1], t1[3], z_re, z_im);
    ffsamp_last1(sc, a, b, right, l_first);
    fndsa_merge_step(&m[0], &m[1], &m[2], &m[3], a[0], a[1], b[0], b[1], z_re, z_im);
    /* t0 <- t0 + (t1 - z1) l10, t1 <- z1 */
    fpr d[4];
    for (int i = 0; i < 4; i++) {
        d[i] = fpr_sub(t1[i], m[i]);
        t1[i] = m[i];
    }
    fpr p[4];
    for (int u = 0; u < 2; u++) {
        if (l_first) {
            CMUL(p[u], p[u + 2], l[u], l[u + 2], d[u], d[u + 2]);
        } else {
            CMUL(p[u], p[u + 2], d[u], d[u + 2], l[u], l[u + 2]);
        }
    }
    for (int i = 0; i < 4; i++) {
        t0[i] = fpr_add(t0[i], p[i]);
    }
    /* z0 = merge(ffSampling(split(t0), left)) */
    fndsa_split_step(&a[0], &a[1], &b[0], &b[1], t0[0], t0[2], t0[1], t0[3], z_re, z_im);
    ffsamp_last1(sc, a, b, left, l_first);
    fndsa_merge_step(&t0[0], &t0[1], &t0[2], &t0[3], a[0], a[1], b[0], b[1], z_re, z_im);
}

/* dynamic form: the node of logn = 1 from its Gram matrix [[g00, g01], [adj g01, g11]]
 * (g00, g11 real there): fft.c's LDL, then the leaves sqrt(d00) / sigma, sqrt(d11) / sigma */
static inline void ffsamp_node1_dyn(ffsamp_node1 *nd, fpr g00, fpr g01_re, fpr g01_im, fpr g11, fpr isig)
{
    fndsa_ldl_step(g00, &g01_re, &g01_im, &g11);
    nd->l_re = g01_re;
    nd->l_im = g01_im;
    nd->ileft = fpr_mul(fpr_sqrt(g00), isig);
    nd->iright = fpr_mul(fpr_sqrt(g11), isig);
}

/* ffLDL at logn = 2: LDL of the 2x2 Gram matrix (4 values each; g01 <- l10, g11 <- d11 in
 * place), the children's Gram matrices from split(d00) and split(d11) ([[a0, a1], [adj a1,
 * a0]], a0 real at logn 1: its imaginary part is not read) and their nodes. Used by the dynamic
 * form and by the tree's construction (the same values in both). */
static void ffldl2(const fpr *g00, fpr *g01, fpr *g11, fpr isig, ffsamp_node1 *left, ffsamp_node1 *right)
{
    fpr z_re = fndsa_fft_zeta[0], z_im = fndsa_fft_zeta[1];
    fndsa_ldl_step(g00[0], &g01[0], &g01[2], &g11[0]);
    fndsa_ldl_step(g00[1], &g01[1], &g01[3], &g11[1]);
    fpr a0_re, a0_im, a1_re, a1_im;
    fndsa_split_step(&a0_re, &a0_im, &a1_re, &a1_im, g00[0], g00[2], g00[1], g00[3], z_re, z_im);
    ffsamp_node1_dyn(left, a0_re, a1_re, a1_im, a0_re, isig);
    fndsa_split_step(&a0_re, &a0_im, &a1_re, &a1_im, g11[0], g11[2], g11[1], g11[3], z_re, z_im);
    ffsamp_node1_dyn(right, a0_re, a1_re, a1_im, a0_re, isig);
}

/* tree form: a node of logn = 1 as stored (l10, then the left and the right leaf) */
static inline void ffsamp_node1_tree(ffsamp_node1 *nd, const uint8_t *tree)
{
    nd->l_re = fpr_load(tree);
    nd->l_im = fpr_load(tree + 8);
    nd->ileft = fpr_load(tree + 16);
    nd->iright = fpr_load(tree + 24);
}

/* ffSampling with the LDL tree computed on the fly. (t0, t1) in, (z0, z1)
 * out; g00, g01, g11 destroyed; tmp: 4n fprs. */
static void ffsamp_dyn(fndsa_sampler *sc, fpr *t0, fpr *t1, fpr *g00, fpr *g01, fpr *g11, unsigned orig_logn,
                       unsigned logn, fpr *tmp)
{
    if (logn == 0) {
        fpr leaf = fpr_mul(fpr_sqrt(g00[0]), inv_sigma(orig_logn));
        fndsa_samplerz_leaf(sc, &t0[0], &t1[0], leaf);
        return;
    }
    if (logn == 1) { /* only for orig_logn = 1 (logn = 2 below does this level itself) */
        ffsamp_node1 nd;
        ffsamp_node1_dyn(&nd, g00[0], g01[0], g01[1], g11[0], inv_sigma(orig_logn));
        ffsamp_last1(sc, t0, t1, &nd, 1);
        return;
    }
    if (logn == 2) {
        ffsamp_node1 left, right;
        ffldl2(g00, g01, g11, inv_sigma(orig_logn), &left, &right);
        ffsamp_last2(sc, t0, t1, g01, &left, &right, 1);
        return;
    }
    size_t n = (size_t)1 << logn, hn = n >> 1;

    /* G = L D L*: g00 = d00, g01 = l10, g11 = d11 */
    fndsa_poly_ldl_fft(g00, g01, g11, logn);
    /* children Gram matrices: split(d) = (a0, a1) gives [[a0, a1], [adj a1, a0]];
     * l10 is saved in tmp, then the splits go where they are used (no copy back):
     * left (from d00): g01[0..hn), g01[hn..n), g11[0..hn);
     * right (from d11): g00[0..hn), g00[hn..n), g11[hn..n) */
    fpr_copy(tmp, g01, n);
    fndsa_poly_split_fft(g01, g01 + hn, g00, logn);
    fndsa_poly_split_fft(g00, g00 + hn, g11, logn);
    fpr_copy(g11, g01, hn);
    fpr_copy(g11 + hn, g00, hn);

    /* z1 = merge(ffSampling(split(t1), right)) into tmp + 2n */
    fpr *z1 = tmp + n;
    fndsa_poly_split_fft(z1, z1 + hn, t1, logn);
    ffsamp_dyn(sc, z1, z1 + hn, g00, g00 + hn, g11 + hn, orig_logn, logn - 1, z1 + n);
    fndsa_poly_merge_fft(tmp + 2 * n, z1, z1 + hn, logn);

    /* t0 <- t0 + (t1 - z1) l10, t1 <- z1 (the difference formed in place in t1) */
    fndsa_poly_sub(t1, tmp + 2 * n, logn);
    fndsa_poly_mul_fft(tmp, t1, logn);
    fpr_copy(t1, tmp + 2 * n, n);
    fndsa_poly_add(t0, tmp, logn);

    /* z0 = merge(ffSampling(split(t0), left)) */
    fpr *z0 = tmp;
    fndsa_poly_split_fft(z0, z0 + hn, t0, logn);
    ffsamp_dyn(sc, z0, z0 + hn, g01, g01 + hn, g11, orig_logn, logn - 1, z0 + n);
    fndsa_poly_merge_fft(t0, z0, z0 + hn, logn);
}

/* Tree layout (bytes, 8 per fpr): node of level logn = l10 (n values), then
 * the left subtree, then the right subtree; size (logn + 1) 2^logn values;
 * a leaf (logn = 0) is sqrt(d) / sigma. */
static void fftree_build(uint8_t *tree, fpr *g00, fpr *g01, fpr *g11, unsigned orig_logn, unsigned logn, fpr *tmp)
{
    if (logn == 0) {
        fpr_store(tree, fpr_mul(fpr_sqrt(g00[0]), inv_sigma(orig_logn)));
        return;
    }
    if (logn == 2) {
        /* the last two levels as in ffSampling's dynamic form (ffldl2), stored in the
         * layout above: l10, then each child's l10 and its two leaves */
        ffsamp_node1 nd[2];
        ffldl2(g00, g01, g11, inv_sigma(orig_logn), &nd[0], &nd[1]);
        for (size_t u = 0; u < 4; u++) {
            fpr_store(tree + 8 * u, g01[u]);
        }
        for (size_t c = 0; c < 2; c++) {
            uint8_t *t = tree + 32 + 32 * c;
            fpr_store(t, nd[c].l_re);
            fpr_store(t + 8, nd[c].l_im);
            fpr_store(t + 16, nd[c].ileft);
            fpr_store(t + 24, nd[c].iright);
        }
        return;
    }
    size_t n = (size_t)1 << logn, hn = n >> 1;
    fndsa_poly_ldl_fft(g00, g01, g11, logn);
    for (size_t u = 0; u < n; u++) {
        fpr_store(tree + 8 * u, g01[u]);
    }
    fndsa_poly_split_fft(tmp, tmp + hn, g00, logn);
    fpr_copy(g00, tmp, n);
    fndsa_poly_split_fft(tmp, tmp + hn, g11, logn);
    fpr_copy(g11, tmp, n);
    fpr_copy(g01, g00, hn);
    fpr_copy(g01 + hn, g11, hn);
    fftree_build(tree + 8 * n, g00, g00 + hn, g01, orig_logn, logn - 1, tmp);
    fftree_build(tree + 8 * (n + FNDSA_TREE_SIZE(logn - 1)), g11, g11 + hn, g01 + hn, orig_logn, logn - 1, tmp);
}

/* ffSampling over a precomputed tree; tmp: 4n fprs */
static void ffsamp_tree(fndsa_sampler *sc, fpr *t0, fpr *t1, const uint8_t *tree, unsigned logn, fpr *tmp)
{
    if (logn == 0) {
        fpr leaf = fpr_load(tree);
        fndsa_samplerz_leaf(sc, &t0[0], &t1[0], leaf);
        return;
    }
    if (logn == 1) { /* only for a tree of logn 1 (logn = 2 below does this level itself) */
        ffsamp_node1 nd;
        ffsamp_node1_tree(&nd, tree);
        ffsamp_last1(sc, t0, t1, &nd, 0);
        return;
    }
    if (logn == 2) {
        /* l10 (4 values), the left subtree (a node of logn 1: 4 values), the right one */
        fpr l[4];
        ffsamp_node1 left, right;
        for (int i = 0; i < 4; i++) {
            l[i] = fpr_load(tree + 8 * i);
        }
        ffsamp_node1_tree(&left, tree + 32);
        ffsamp_node1_tree(&right, tree + 64);
        ffsamp_last2(sc, t0, t1, l, &left, &right, 0);
        return;
    }
    size_t n = (size_t)1 << logn, hn = n >> 1;
    const uint8_t *left = tree + 8 * n;
    const uint8_t *right = tree + 8 * (n + FNDSA_TREE_SIZE(logn - 1));

    fpr *z1 = tmp + n;
    fndsa_poly_split_fft(z1, z1 + hn, t1, logn);
    ffsamp_tree(sc, z1, z1 + hn, right, logn - 1, z1 + n);
    fndsa_poly_merge_fft(tmp + 2 * n, z1, z1 + hn, logn);

    fndsa_poly_sub(t1, tmp + 2 * n, logn);
    fpr_copy(tmp, t1, n);
    fndsa_poly_mul_fft_bytes(tmp, tree, logn); /* (t1 - z1) l10: same products */
    fpr_copy(t1, tmp + 2 * n, n);
    fndsa_poly_add(t0, tmp, logn);

    fpr *z0 = tmp;
    fndsa_poly_split_fft(z0, z0 + hn, t0, logn);
    ffsamp_tree(sc, z0, z0 + hn, left, logn - 1, z0 + n);
    fndsa_poly_merge_fft(t0, z0, z0 + hn, logn);
}

/* s = (hm, 0) - z B: s1 = hm - rint(z0 b00 + z1 b10), s2 = -rint(z0 b01 + z1 b11).
 * b: 4n fprs (FFT) or NULL with bb the same as bytes; z0, z1 destroyed;
 * tmp: 2n. Returns 1 when the norm bound holds. */
static int finish(int16_t *s2, const fpr *b, const uint8_t *bb, fpr *z0, fpr *z1, const uint16_t *hm, unsigned logn,
                  fpr *tmp)
{
    size_t n = (size_t)1 << logn;
    fpr *v0 = tmp, *v1 = tmp + n;
    fpr_copy(v0, z0, n);
    fpr_copy(v1, z1, n);
    if (b != NULL) {
        fndsa_poly_mul_fft(v0, b, logn);         /* z0 b00 */
        fndsa_poly_mul_fft(v1, b + 2 * n, logn); /* z1 b10 */
        fndsa_poly_add(v0, v1, logn);
        fndsa_poly_mul_fft(z0, b + n, logn);     /* z0 b01 */
        fndsa_poly_mul_fft(z1, b + 3 * n, logn); /* z1 b11 */
    } else {
        fndsa_poly_mul_fft_bytes(v0, bb, logn);
        fndsa_poly_mul_fft_bytes(v1, bb + 16 * n, logn);
        fndsa_poly_add(v0, v1, logn);
        fndsa_poly_mul_fft_bytes(z0, bb + 8 * n, logn);
        fndsa_poly_mul_fft_bytes(z1, bb + 24 * n, logn);
    }
    fndsa_poly_add(z1, z0, logn);
    fndsa_ifft(v0, logn, v1);
    fndsa_ifft(z1, logn, v1);
    int16_t *s1 = (int16_t *)(void *)z0;
    for (size_t u = 0; u < n; u++) {
        s1[u] = (int16_t)((int32_t)hm[u] - (int32_t)fpr_rint(v0[u]));
        s2[u] = (int16_t)-fpr_rint(z1[u]);
    }
    int ok = fndsa_is_short(s1, s2, logn);
    PQLAB_DECLASSIFY(&ok, sizeof ok); /* restart decision, public in Falcon */
    return ok;
}

/* Gram matrix with B's storage reused: g01 = b00 adj(b10) + b01 adj(b11) into g01 (tmp: n),
 * then g00 = |b00|^2 + |b01|^2 in place of b00 and g11 = |b10|^2 + |b11|^2 in place of b10;
 * b01 and b11 are destroyed. The same products and sums as gram_fft, hence the same values. */
static void gram_fft_inplace(fpr *b00, fpr *b01, fpr *b10, fpr *b11, fpr *g01, unsigned logn, fpr *tmp)
{
    size_t n = (size_t)1 << logn;
    fpr_copy(g01, b00, n);
    fndsa_poly_muladj_fft(g01, b10, logn);
    fpr_copy(tmp, b01, n);
    fndsa_poly_muladj_fft(tmp, b11, logn);
    fndsa_poly_add(g01, tmp, logn);

    fndsa_poly_mulselfadj_fft(b00, logn);
    fndsa_poly_mulselfadj_fft(b01, logn);
    fndsa_poly_add(b00, b01, logn);

    fndsa_poly_mulselfadj_fft(b10, logn);
    fndsa_poly_mulselfadj_fft(b11, logn);
    fndsa_poly_add(b10, b11, logn);
}

/* One signing attempt in FNDSA_SIGN_DYN_FPRS(logn) = 9n fprs of tmp (slots of n fprs, 0..8):
 *   on entry the key f, g, F, G (int8, 4n bytes) is in slot 8 (FNDSA_SIGN_DYN_KEY_SLOT);
 *   B: b00 = g in 0, b10 = G in 1, b01 = -f in 5, b11 = -F in 6 (FFT scratch 7);
 *   target t0, t1 in 2, 3 (from b01, b11); g01 in 4, g00 over b00, g11 over b10;
 *   ffSampling: z0, z1 in 2, 3, its scratch 5..8 (the key is overwritten);
 *   z0, z1 to coefficients (inverse FFT, scratch 5), f, g, F decoded from sk again into
 *   slot 8, and s = (hm, 0) - z B computed modulo q (fndsa_sign_finish_modq, 4n uint16 in
 *   slot 0); s2 is written last and may point into slot 4 (FNDSA_SIGN_DYN_S2_SLOT).
 * B is not kept after the Gram matrix and the target: the end needs s2 = z0 f + z1 F and
 * s1 = hm - s2 g / f only modulo q (seven mod-q NTTs), not four FFTs of B and four FFT
 * products. Same signatures as the round-3 computation (modq.c). */
int fndsa_sign_attempt_dyn(int16_t *s2, fndsa_sampler *sc, const uint8_t *sk, const uint16_t *hm, unsigned logn,
                           fpr *tmp)
{
    size_t n = (size_t)1 << logn;
    fpr *s[9];
    for (int i = 0; i < 9; i++) {
        s[i] = tmp + (size_t)i * n;
    }
    int8_t *key = (int8_t *)(void *)s[FNDSA_SIGN_DYN_KEY_SLOT];
    small_to_fpr(s[0], key + n, logn); /* g */
    fndsa_fft(s[0], logn, s[7]);
    small_to_fpr(s[5], key, logn); /* f */
    fndsa_fft(s[5], logn, s[7]);
    small_to_fpr(s[1], key + 3 * n, logn); /* G */
    fndsa_fft(s[1], logn, s[7]);
    small_to_fpr(s[6], key + 2 * n, logn); /* F */
    fndsa_fft(s[6], logn, s[7]);
    fndsa_poly_neg(s[5], logn);
    fndsa_poly_neg(s[6], logn);
    target_fft(s[2], s[3], hm, s[5], s[6], NULL, NULL, logn, s[7]);
    gram_fft_inplace(s[0], s[5], s[1], s[6], s[4], logn, s[7]);
    ffsamp_dyn(sc, s[2], s[3], s[0], s[4], s[1], logn, logn, s[5]);
    fndsa_ifft(s[2], logn, s[5]);
    fndsa_ifft(s[3], logn, s[5]);
    int ok = fndsa_decode_sk(key, key + n, key + 2 * n, sk);
    if (ok) {
        ok = fndsa_sign_finish_modq(s2, s[2], s[3], hm, key, key + n, key + 2 * n, logn, (uint16_t *)(void *)s[0]);
    }
    PQLAB_DECLASSIFY(&ok, sizeof ok); /* restart decision, public in Falcon */
    return ok;
}

/* f, g, F from sk and G = g F / f mod q into slot 8 of tmp (the checks of the whole key ran
 * once, in api.c's load_sk; this only restores what an attempt overwrote) */
static int reload_key(const uint8_t *sk, unsigned logn, fpr *tmp)
{
    size_t n = (size_t)1 << logn;
    int8_t *key = (int8_t *)(void *)(tmp + (size_t)FNDSA_SIGN_DYN_KEY_SLOT * n);
    return fndsa_decode_sk(key, key + n, key + 2 * n, sk) &&
           fndsa_complete_private(key + 3 * n, key, key + n, key + 2 * n, logn, (uint16_t *)(void *)tmp);
}

unsigned fndsa_sign_attempts_last = 0;

int fndsa_sign_dyn(int16_t *s2, pqlab_keccak_state *rng, const uint8_t *sk, const uint16_t *hm, unsigned logn, fpr *tmp)
{
    fndsa_sampler sc;
    int ok = 0;
    sc.sigma_min = sigma_min(logn);
    /* the attempt count is public (see FNDSA_SIGN_MAX_ATTEMPTS) */
    for (int first = 1; !ok && fndsa_sign_attempts_last < FNDSA_SIGN_MAX_ATTEMPTS; first = 0) {
        if (!first && !reload_key(sk, logn, tmp)) {
            break; /* not for a key that load_sk accepted */
        }
        fndsa_sign_attempts_last++;
        fndsa_prng_init(&sc.p, rng);
        ok = fndsa_sign_attempt_dyn(s2, &sc, sk, hm, logn, tmp);
    }
    if (!ok) {
        pqlab_zeroize(s2, ((size_t)1 << logn) * sizeof *s2);
    }
    pqlab_zeroize(&sc, sizeof sc);
    return ok;
}

void fndsa_expand_privkey(uint8_t *expanded, const int8_t *f, const int8_t *g, const int8_t *F, const int8_t *G,
                          unsigned logn, fpr *tmp)
{
    size_t n = (size_t)1 << logn;
    fpr *b = tmp, *gm = tmp + 4 * n, *t = tmp + 7 * n;
    basis_fft(b, f, g, F, G, logn, t);
    gram_fft(gm, b, logn, t);
    for (size_t u = 0; u < 4 * n; u++) {
        fpr_store(expanded + 8 * u, b[u]);
    }
    fftree_build(expanded + 32 * n, gm, gm + n, gm + 2 * n, logn, logn, b);
}

/* 1 when every leaf 1/sigma' of the tree lies strictly inside (lo, hi); NaN fails both
 * comparisons. No branch on the (secret) leaves. */
static uint32_t tree_leaves_in(const uint8_t *tree, unsigned logn, fpr lo, fpr hi)
{
    if (logn == 0) {
        fpr leaf = fpr_load(tree);
        return (uint32_t)(fpr_lt(lo, leaf) & fpr_lt(leaf, hi));
    }
    size_t n = (size_t)1 << logn;
    return tree_leaves_in(tree + 8 * n, logn - 1, lo, hi) &
           tree_leaves_in(tree + 8 * (n + FNDSA_TREE_SIZE(logn - 1)), logn - 1, lo, hi);
}

/* SamplerZ is correct, and its rejection loop ends, only for sigma_min <= sigma' <= sigma0
 * (spec 3.9.3 and Algorithm 15: sigma_max = sigma0 = 1.8205); an expanded key from
 * fndsa_expand_privkey of a valid private key always has its leaves there. A corrupted
 * expanded key (a leaf of 0, a NaN, a huge value) would make the loop run forever, so the
 * leaves are checked first, with bounds widened by 2^-20 against rounding. */
static int tree_leaves_ok(const uint8_t *tree, unsigned logn)
{
    fpr widen = fpr_div(fpr_of32((1 << 20) - 1), fpr_of32(1 << 20));
    fpr lo = fpr_mul(fpr_sqrt(fpr_add(FPR_INV_2SQRSIGMA0, FPR_INV_2SQRSIGMA0)), widen); /* 1/sigma0 */
    fpr hi = fpr_div(fpr_of32(1), fpr_mul(sigma_min(logn), widen));                     /* 1/sigma_min */
    uint32_t ok = tree_leaves_in(tree, logn, lo, hi);
    PQLAB_DECLASSIFY(&ok, sizeof ok); /* valid or corrupted key: the caller learns it anyway */
    return (int)ok;
}

int fndsa_sign_tree(int16_t *s2, pqlab_keccak_state *rng, const uint8_t *expanded, const uint16_t *hm, unsigned logn,
                    fpr *tmp)
{
    size_t n = (size_t)1 << logn;
    fndsa_sampler sc;
    sc.sigma_min = sigma_min(logn);
    fpr *t0 = tmp, *t1 = tmp + n, *w = tmp + 2 * n;
    int ok = 0;
    if (!tree_leaves_ok(expanded + 32 * n, logn)) {
        pqlab_zeroize(s2, n * sizeof *s2);
        return 0;
    }
    while (!ok && fndsa_sign_attempts_last < FNDSA_SIGN_MAX_ATTEMPTS) {
        fndsa_sign_attempts_last++;
        fndsa_prng_init(&sc.p, rng);
        target_fft(t0, t1, hm, NULL, NULL, expanded + 8 * n, expanded + 24 * n, logn, w);
        ffsamp_tree(&sc, t0, t1, expanded + 32 * n, logn, w);
        ok = finish(s2, NULL, expanded, t0, t1, hm, logn, w);
    }
    if (!ok) {
        pqlab_zeroize(s2, n * sizeof *s2);
    }
    pqlab_zeroize(&sc, sizeof sc);
    return ok;
}
