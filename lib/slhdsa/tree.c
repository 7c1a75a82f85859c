/* SPDX-License-Identifier: MIT */
/* Trees of SLH-DSA: treehash for XMSS (FIPS 205 section 6) and FORS (section 8) trees,
 * the hypertree (section 7).
 *
 * Algorithms 9 and 15 (xmss_node, fors_node) are recursive; computing each
 * authentication-path node with them costs a whole subtree per node. Here one pass of
 * treehash over the leaves (left to right, a stack of at most height + 1 nodes) yields
 * the root and, on the way, every authentication-path node: a node at height z with
 * index i >> z is on the path of leaf t exactly when i >> z == (t >> z) ^ 1. The result
 * is byte-identical to the recursive definition (same nodes, same addresses). */
#include <string.h>

#include "ct.h"
#include "internal.h"

void slh_treehash(uint8_t *root, uint8_t *auth, const slh_ctx *ctx, slh_adrs *node_adrs, uint32_t base,
                  unsigned int height, uint32_t target, unsigned int batch, slh_leaf_fn leaf, void *arg)
{
    /* stack of nodes, contiguous so that two neighbours are the 2n-byte input of H */
    uint8_t stack[(SLH_MAX_TREE_HEIGHT + 1) * SLH_N];
    uint8_t heights[SLH_MAX_TREE_HEIGHT + 1];
    uint8_t leaves[4 * SLH_N];
    unsigned int sp = 0;
    const uint32_t tleaf = base + target;
    const uint32_t nleaves = (uint32_t)1 << height;

    for (uint32_t i = 0; i < nleaves; i += batch) {
        leaf(leaves, base + i, batch, arg);
        for (unsigned int b = 0; b < batch; b++) {
            uint32_t idx = base + i + b;
            memcpy(stack + sp * SLH_N, leaves + b * SLH_N, SLH_N);
            heights[sp] = 0;
            sp++;
            if (auth != NULL && idx == (tleaf ^ 1u)) {
                memcpy(auth, leaves + b * SLH_N, SLH_N);
            }
            /* merge equal heights: at most `height` merges, sp stays <= height + 1 */
            while (sp >= 2 && heights[sp - 2] == heights[sp - 1]) {
                unsigned int z = heights[sp - 1] + 1u;
                uint32_t x = idx >> z;
                uint8_t *l = stack + (sp - 2) * SLH_N;
                slh_adrs_set_height(node_adrs, z);
                slh_adrs_set_index(node_adrs, x);
                slh_H(l, ctx, node_adrs, l);
                heights[sp - 2] = (uint8_t)z;
                sp--;
                if (auth != NULL && z < height && x == ((tleaf >> z) ^ 1u)) {
                    memcpy(auth + z * SLH_N, l, SLH_N);
                }
            }
        }
    }
    memcpy(root, stack, SLH_N);
}

/* ---- XMSS (section 6) ---- */

struct xmss_leaf_arg {
    const slh_ctx *ctx;
    const slh_adrs *adrs;  /* layer and tree address */
    uint32_t sign_idx;     /* leaf whose WOTS+ signature is wanted */
    uint8_t *wots_sig;     /* NULL: no signature */
    const uint8_t *digits; /* message digits for the signature */
};

/* Algorithm 9 lines 2-4: leaf i is the WOTS+ public key of key pair i */
static void xmss_leaf(uint8_t *leaves, uint32_t first, unsigned int count, void *varg)
{
    const struct xmss_leaf_arg *arg = (const struct xmss_leaf_arg *)varg;
    slh_adrs a = *arg->adrs;
    (void)count; /* always 1: the chains inside a leaf are batched instead */
    slh_adrs_set_type(&a, SLH_ADRS_WOTS_HASH);
    slh_adrs_set_keypair(&a, first);
    slh_wots_leaf(leaves, arg->ctx, &a, first == arg->sign_idx ? arg->wots_sig : NULL, arg->digits);
}

void slh_xmss_root(uint8_t *root, const slh_ctx *ctx, uint32_t layer, uint64_t tree)
{
    slh_adrs a, node;
    struct xmss_leaf_arg arg;
    slh_adrs_zero(&a);
    slh_adrs_set_layer(&a, layer);
    slh_adrs_set_tree(&a, tree);
    node = a;
    slh_adrs_set_type(&node, SLH_ADRS_TREE);
    arg.ctx = ctx;
    arg.adrs = &a;
    arg.sign_idx = 0;
    arg.wots_sig = NULL;
    arg.digits = NULL;
    slh_treehash(root, NULL, ctx, &node, 0, SLH_HP, 0, 1, xmss_leaf, &arg);
}

void slh_xmss_sign(uint8_t *root, uint8_t *sig, const uint8_t *msg, const slh_ctx *ctx, uint32_t layer, uint64_t tree,
                   uint32_t idx)
{
    slh_adrs a, node;
    uint8_t digits[SLH_LEN];
    struct xmss_leaf_arg arg;

    slh_wots_digits(digits, msg); /* before root (which may alias msg) is written */
    slh_adrs_zero(&a);
    slh_adrs_set_layer(&a, layer);
    slh_adrs_set_tree(&a, tree);
    node = a;
    slh_adrs_set_type(&node, SLH_ADRS_TREE);
    arg.ctx = ctx;
    arg.adrs = &a;
    arg.sign_idx = idx;
    arg.wots_sig = sig;
    arg.digits = digits;
    /* XMSS signature = WOTS+ signature (len n-byte values) || AUTH (h' nodes) */
    slh_treehash(root, sig + SLH_LEN * SLH_N, ctx, &node, 0, SLH_HP, idx, 1, xmss_leaf, &arg);
}

void slh_xmss_pk_from_sig(uint8_t *root, uint32_t idx, const uint8_t *sig, const uint8_t *msg, const slh_ctx *ctx,
                          uint32_t layer, uint64_t tree)
{
    slh_adrs a;
    uint8_t buf[2 * SLH_N];
    const uint8_t *auth = sig + SLH_LEN * SLH_N;

    slh_adrs_zero(&a);
    slh_adrs_set_layer(&a, layer);
    slh_adrs_set_tree(&a, tree);
    slh_adrs_set_type(&a, SLH_ADRS_WOTS_HASH);
    slh_adrs_set_keypair(&a, idx);
    /* node[0] goes to the left or right half of buf depending on the index bit */
    slh_wots_pk_from_sig(buf, sig, msg, ctx, &a);
    slh_adrs_set_type(&a, SLH_ADRS_TREE);
    for (unsigned int k = 0; k < SLH_HP; k++) {
        slh_adrs_set_height(&a, k + 1);
        slh_adrs_set_index(&a, idx >> (k + 1));
        if (((idx >> k) & 1u) == 0) {
            memcpy(buf + SLH_N, auth + k * SLH_N, SLH_N);
        } else {
            memcpy(buf + SLH_N, buf, SLH_N);
            memcpy(buf, auth + k * SLH_N, SLH_N);
        }
        slh_H(buf, ctx, &a, buf);
    }
    memcpy(root, buf, SLH_N);
}

/* ---- hypertree (section 7) ---- */

void slh_ht_sign(uint8_t *sig, const uint8_t *msg, const slh_ctx *ctx, uint64_t idx_tree, uint32_t idx_leaf)
{
    uint8_t root[SLH_N];
    memcpy(root, msg, SLH_N);
    for (uint32_t j = 0; j < SLH_D; j++) {
        slh_xmss_sign(root, sig + j * SLH_XMSS_SIG_BYTES, root, ctx, j, idx_tree, idx_leaf);
        /* the roots are public (the next layer signs them; the top one is PK.root) */
        PQLAB_DECLASSIFY(root, SLH_N);
        idx_leaf = (uint32_t)(idx_tree & (((uint64_t)1 << SLH_HP) - 1));
        idx_tree >>= SLH_HP;
    }
}

int slh_ht_verify(const uint8_t *msg, const uint8_t *sig, const slh_ctx *ctx, uint64_t idx_tree, uint32_t idx_leaf,
                  const uint8_t *pk_root)
{
    uint8_t node[SLH_N];
    memcpy(node, msg, SLH_N);
    for (uint32_t j = 0; j < SLH_D; j++) {
        slh_xmss_pk_from_sig(node, idx_leaf, sig + j * SLH_XMSS_SIG_BYTES, node, ctx, j, idx_tree);
        idx_leaf = (uint32_t)(idx_tree & (((uint64_t)1 << SLH_HP) - 1));
        idx_tree >>= SLH_HP;
    }
    return pqlab_ct_memcmp(node, pk_root, SLH_N) == 0 ? 0 : -1;
}

/* ---- FORS (section 8) ---- */

/* base_2b(md, a, k) (Algorithm 4): k indices of a bits, most significant bit first.
 * `bits` < a + 8 <= 22, so the accumulator fits 32 bits. */
static void fors_indices(uint32_t idx[SLH_K], const uint8_t *md)
{
    uint32_t total = 0;
    unsigned int bits = 0, in = 0;
    for (unsigned int i = 0; i < SLH_K; i++) {
        while (bits < SLH_A) {
            total = (total << 8) | md[in++];
            bits += 8;
        }
        bits -= SLH_A;
        idx[i] = (total >> bits) & (((uint32_t)1 << SLH_A) - 1);
        total &= ((uint32_t)1 << bits) - 1;
    }
}

struct fors_leaf_arg {
    const slh_ctx *ctx;
    const slh_adrs *adrs; /* FORS_TREE address with tree and key pair set */
    uint32_t sign_idx;    /* global index of the leaf whose secret value is revealed */
    uint8_t *sk_out;
};

/* Four leaves: fors_skGen (Algorithm 14) then F (Algorithm 15 lines 2-5), each as one
 * 4-lane call. 2^a >= 64 is a multiple of 4. */
static void fors_leaf(uint8_t *leaves, uint32_t first, unsigned int count, void *varg)
{
    const struct fors_leaf_arg *arg = (const struct fors_leaf_arg *)varg;
    slh_adrs a[4];
    uint8_t sk[4 * SLH_N];
    uint8_t *out[4];
    const uint8_t *in[4];
    uint32_t kp = slh_adrs_get_keypair(arg->adrs);
    unsigned int l;

    (void)count; /* always 4 */
    for (l = 0; l < 4; l++) {
        a[l] = *arg->adrs;
        slh_adrs_set_type(&a[l], SLH_ADRS_FORS_PRF);
        slh_adrs_set_keypair(&a[l], kp);
        slh_adrs_set_index(&a[l], first + l);
        out[l] = sk + l * SLH_N;
        in[l] = NULL; /* PRF */
    }
    slh_F_x4(out, arg->ctx, a, in, 4);
    for (l = 0; l < 4; l++) {
        if (first + l == arg->sign_idx) {
            memcpy(arg->sk_out, sk + l * SLH_N, SLH_N);
        }
        a[l] = *arg->adrs;
        slh_adrs_set_height(&a[l], 0);
        slh_adrs_set_index(&a[l], first + l);
        out[l] = leaves + l * SLH_N;
        in[l] = sk + l * SLH_N;
    }
    slh_F_x4(out, arg->ctx, a, in, 4);
    pqlab_zeroize(sk, sizeof sk);
}

static void fors_roots_init(slh_thash_state *st, const slh_ctx *ctx, const slh_adrs *adrs)
{
    slh_adrs r = *adrs;
    slh_adrs_set_type(&r, SLH_ADRS_FORS_ROOTS);
    slh_adrs_set_keypair(&r, slh_adrs_get_keypair(adrs));
    slh_T_init(st, ctx, &r);
}

void slh_fors_sign(uint8_t *pk, uint8_t *sig, const uint8_t *md, const slh_ctx *ctx, const slh_adrs *adrs)
{
    uint32_t idx[SLH_K];
    uint8_t root[SLH_N];
    slh_thash_state st;
    struct fors_leaf_arg arg;

    fors_indices(idx, md);
    fors_roots_init(&st, ctx, adrs);
    arg.ctx = ctx;
    arg.adrs = adrs;
    for (uint32_t t = 0; t < SLH_K; t++) {
        slh_adrs node = *adrs;
        uint8_t *s = sig + t * (SLH_A + 1) * SLH_N; /* sk || AUTH (a nodes) */
        arg.sign_idx = (t << SLH_A) + idx[t];
        arg.sk_out = s;
        slh_treehash(root, s + SLH_N, ctx, &node, t << SLH_A, SLH_A, idx[t], 4, fors_leaf, &arg);
        slh_T_update(&st, root, SLH_N); /* the roots go straight into T_k */
    }
    slh_T_final(pk, &st);
}

void slh_fors_pk_from_sig(uint8_t *pk, const uint8_t *sig, const uint8_t *md, const slh_ctx *ctx, const slh_adrs *adrs)
{
    uint32_t idx[SLH_K];
    uint8_t buf[2 * SLH_N];
    slh_thash_state st;

    fors_indices(idx, md);
    fors_roots_init(&st, ctx, adrs);
    for (uint32_t t = 0; t < SLH_K; t++) {
        const uint8_t *s = sig + t * (SLH_A + 1) * SLH_N;
        const uint8_t *auth = s + SLH_N;
        uint32_t gi = (t << SLH_A) + idx[t]; /* global leaf index */
        slh_adrs a = *adrs;
        slh_adrs_set_height(&a, 0);
        slh_adrs_set_index(&a, gi);
        slh_F(buf, ctx, &a, s);
        for (unsigned int j = 0; j < SLH_A; j++) {
            slh_adrs_set_height(&a, j + 1);
            slh_adrs_set_index(&a, gi >> (j + 1));
            if (((idx[t] >> j) & 1u) == 0) {
                memcpy(buf + SLH_N, auth + j * SLH_N, SLH_N);
            } else {
                memcpy(buf + SLH_N, buf, SLH_N);
                memcpy(buf, auth + j * SLH_N, SLH_N);
            }
            slh_H(buf, ctx, &a, buf);
        }
        slh_T_update(&st, buf, SLH_N);
    }
    slh_T_final(pk, &st);
}
