/* SPDX-License-Identifier: MIT */
/* SLH-DSA parameter sets (FIPS 205 section 11, Table 2).
 *
 * One source serves all twelve sets. The build selects one with
 *   -DPQLAB_SLHDSA_HASH_SHAKE or -DPQLAB_SLHDSA_HASH_SHA2   (section 11.1 / 11.2)
 *   -DPQLAB_SLHDSA_N=16|24|32                               (security category 1/3/5)
 *   -DPQLAB_SLHDSA_VARIANT_S or -DPQLAB_SLHDSA_VARIANT_F    (small / fast)
 * and the symbol prefix with -DPQLAB_NS=... (see namespace.h). */
#ifndef PQLAB_SLHDSA_PARAMS_H
#define PQLAB_SLHDSA_PARAMS_H

#include "namespace.h"

#if defined(PQLAB_SLHDSA_HASH_SHAKE) + defined(PQLAB_SLHDSA_HASH_SHA2) != 1
#error "define exactly one of PQLAB_SLHDSA_HASH_SHAKE, PQLAB_SLHDSA_HASH_SHA2"
#endif
#if defined(PQLAB_SLHDSA_VARIANT_S) + defined(PQLAB_SLHDSA_VARIANT_F) != 1
#error "define exactly one of PQLAB_SLHDSA_VARIANT_S, PQLAB_SLHDSA_VARIANT_F"
#endif
#ifndef PQLAB_SLHDSA_N
#error "define PQLAB_SLHDSA_N (16, 24 or 32)"
#endif

/* Table 2 of FIPS 205: n, h, d, h' = h/d, a, k, lg w = 4, m */
#define SLH_N PQLAB_SLHDSA_N
#if SLH_N == 16 && defined(PQLAB_SLHDSA_VARIANT_S)
#define SLH_H 63
#define SLH_D 7
#define SLH_HP 9
#define SLH_A 12
#define SLH_K 14
#define SLH_M 30
#elif SLH_N == 16 && defined(PQLAB_SLHDSA_VARIANT_F)
#define SLH_H 66
#define SLH_D 22
#define SLH_HP 3
#define SLH_A 6
#define SLH_K 33
#define SLH_M 34
#elif SLH_N == 24 && defined(PQLAB_SLHDSA_VARIANT_S)
#define SLH_H 63
#define SLH_D 7
#define SLH_HP 9
#define SLH_A 14
#define SLH_K 17
#define SLH_M 39
#elif SLH_N == 24 && defined(PQLAB_SLHDSA_VARIANT_F)
#define SLH_H 66
#define SLH_D 22
#define SLH_HP 3
#define SLH_A 8
#define SLH_K 33
#define SLH_M 42
#elif SLH_N == 32 && defined(PQLAB_SLHDSA_VARIANT_S)
#define SLH_H 64
#define SLH_D 8
#define SLH_HP 8
#define SLH_A 14
#define SLH_K 22
#define SLH_M 47
#elif SLH_N == 32 && defined(PQLAB_SLHDSA_VARIANT_F)
#define SLH_H 68
#define SLH_D 17
#define SLH_HP 4
#define SLH_A 9
#define SLH_K 35
#define SLH_M 49
#else
#error "PQLAB_SLHDSA_N must be 16, 24 or 32"
#endif

/* WOTS+ with lg w = 4 (section 5): len1 = 8n/4 digits of the message, len2 = 3 digits of
 * the checksum (the checksum is at most len1 * 15 = 960 < 16^3). */
#define SLH_LGW 4
#define SLH_W 16
#define SLH_LEN1 (2 * SLH_N)
#define SLH_LEN2 3
#define SLH_LEN (SLH_LEN1 + SLH_LEN2)

/* Split of the message digest (Algorithm 19, lines 7-10) */
#define SLH_MD_BYTES ((SLH_K * SLH_A + 7) / 8)
#define SLH_TREE_BITS (SLH_H - SLH_HP)
#define SLH_TREE_BYTES ((SLH_TREE_BITS + 7) / 8)
#define SLH_LEAF_BYTES ((SLH_HP + 7) / 8)
#if SLH_MD_BYTES + SLH_TREE_BYTES + SLH_LEAF_BYTES != SLH_M
#error "digest split does not add up to m (Table 2)"
#endif
#if SLH_TREE_BITS > 64
#error "tree index does not fit in 64 bits"
#endif

/* Sizes (Table 2): pk = PK.seed || PK.root, sk = SK.seed || SK.prf || PK.seed || PK.root,
 * signature = R || SIG_FORS || SIG_HT */
#define SLH_PK_BYTES (2 * SLH_N)
#define SLH_SK_BYTES (4 * SLH_N)
#define SLH_FORS_SIG_BYTES (SLH_K * (SLH_A + 1) * SLH_N)
#define SLH_XMSS_SIG_BYTES ((SLH_LEN + SLH_HP) * SLH_N)
#define SLH_HT_SIG_BYTES (SLH_D * SLH_XMSS_SIG_BYTES)
#define SLH_SIG_BYTES (SLH_N + SLH_FORS_SIG_BYTES + SLH_HT_SIG_BYTES)

#endif
