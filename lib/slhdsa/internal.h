/* SPDX-License-Identifier: MIT */
/* Building blocks of SLH-DSA shared by all parameter sets: WOTS+ (FIPS 205 section 5),
 * XMSS (section 6), the hypertree (section 7) and FORS (section 8). All hashing goes
 * through hash.h. Symbols are namespaced: the objects of several parameter sets can be
 * linked together. */
#ifndef PQLAB_SLHDSA_INTERNAL_H
#define PQLAB_SLHDSA_INTERNAL_H

#include <stdint.h>

#include "address.h"
#include "hash.h"
#include "params.h"

#define slh_wots_digits PQLAB_NAMESPACE(wots_digits)
#define slh_wots_leaf PQLAB_NAMESPACE(wots_leaf)
#define slh_wots_pk_from_sig PQLAB_NAMESPACE(wots_pk_from_sig)
#define slh_treehash PQLAB_NAMESPACE(treehash)
#define slh_xmss_root PQLAB_NAMESPACE(xmss_root)
#define slh_xmss_sign PQLAB_NAMESPACE(xmss_sign)
#define slh_xmss_pk_from_sig PQLAB_NAMESPACE(xmss_pk_from_sig)
#define slh_ht_sign PQLAB_NAMESPACE(ht_sign)
#define slh_ht_verify PQLAB_NAMESPACE(ht_verify)
#define slh_fors_sign PQLAB_NAMESPACE(fors_sign)
#define slh_fors_pk_from_sig PQLAB_NAMESPACE(fors_pk_from_sig)

/* The largest tree handled by treehash: h' for XMSS, a for FORS */
#define SLH_MAX_TREE_HEIGHT (SLH_A > SLH_HP ? SLH_A : SLH_HP)

/* base-16 digits of an n-byte message followed by its 3-digit checksum
 * (Algorithm 7 lines 1-8, Algorithm 8 lines 1-8); every digit is in [0, 15] */
void slh_wots_digits(uint8_t digits[SLH_LEN], const uint8_t *msg);

/* wots_pkGen (Algorithm 6). adrs: layer, tree and key pair address set (type WOTS_HASH).
 * When sig != NULL it also writes the WOTS+ signature for `digits` (Algorithm 7): the
 * chain values at positions digits[i] are captured while the chains are walked. */
void slh_wots_leaf(uint8_t *pk, const slh_ctx *ctx, const slh_adrs *adrs, uint8_t *sig, const uint8_t *digits);

/* wots_pkFromSig (Algorithm 8) */
void slh_wots_pk_from_sig(uint8_t *pk, const uint8_t *sig, const uint8_t *msg, const slh_ctx *ctx,
                          const slh_adrs *adrs);

/* Leaves of a tree, `count` (1 or 4) at a time, starting at global leaf index `first` */
typedef void (*slh_leaf_fn)(uint8_t *leaves, uint32_t first, unsigned int count, void *arg);

/* Root of a binary hash tree of the given height (<= SLH_MAX_TREE_HEIGHT) whose leaves
 * have global indices base .. base + 2^height - 1, computed leaf by leaf with a stack
 * of height + 1 nodes (never the whole tree). When auth != NULL, the authentication
 * path (height nodes) of leaf base + target is written there. node_adrs carries the
 * type and the fixed words of inner-node addresses; treehash writes the tree height
 * and index words (node at height z above leaf i has index i >> z). */
void slh_treehash(uint8_t *root, uint8_t *auth, const slh_ctx *ctx, slh_adrs *node_adrs, uint32_t base,
                  unsigned int height, uint32_t target, unsigned int batch, slh_leaf_fn leaf, void *arg);

/* xmss_node(SK.seed, 0, h', ...) for the tree (layer, tree) */
void slh_xmss_root(uint8_t *root, const slh_ctx *ctx, uint32_t layer, uint64_t tree);
/* xmss_sign (Algorithm 10) plus the root of the same tree (what Algorithm 12 gets from
 * xmss_pkFromSig) in one pass. root may alias msg. */
void slh_xmss_sign(uint8_t *root, uint8_t *sig, const uint8_t *msg, const slh_ctx *ctx, uint32_t layer, uint64_t tree,
                   uint32_t idx);
/* xmss_pkFromSig (Algorithm 11); root may alias msg */
void slh_xmss_pk_from_sig(uint8_t *root, uint32_t idx, const uint8_t *sig, const uint8_t *msg, const slh_ctx *ctx,
                          uint32_t layer, uint64_t tree);

/* ht_sign (Algorithm 12) */
void slh_ht_sign(uint8_t *sig, const uint8_t *msg, const slh_ctx *ctx, uint64_t idx_tree, uint32_t idx_leaf);
/* ht_verify (Algorithm 13): 0 when the signature leads to pk_root, -1 otherwise */
int slh_ht_verify(const uint8_t *msg, const uint8_t *sig, const slh_ctx *ctx, uint64_t idx_tree, uint32_t idx_leaf,
                  const uint8_t *pk_root);

/* fors_sign (Algorithm 16) plus the FORS public key (Algorithm 17 result) from the
 * same pass. adrs: FORS_TREE with tree and key pair address set. */
void slh_fors_sign(uint8_t *pk, uint8_t *sig, const uint8_t *md, const slh_ctx *ctx, const slh_adrs *adrs);
/* fors_pkFromSig (Algorithm 17) */
void slh_fors_pk_from_sig(uint8_t *pk, const uint8_t *sig, const uint8_t *md, const slh_ctx *ctx, const slh_adrs *adrs);

#endif
