/* SPDX-License-Identifier: MIT */
/* HQC parameter sets, chosen at compile time by PQLAB_HQC_LEVEL (128, 192 or 256).
 *
 * Version: the HQC round-4 submission of 2023-04-30 (the version PQClean's hqc-*
 * "clean" implements, docs/hqc.md). Values: the specification's parameter table
 * (n, n1, n2, w, w_r = w_e, delta, k) and its Reed-Solomon generator polynomials
 * (coefficients of g(x), lowest degree first, g monic), as also listed in PQClean's
 * parameters.h for each set. GF(2^8) is defined by x^8 + x^4 + x^3 + x^2 + 1 (0x11D)
 * with alpha = x; the RS code has the roots alpha^1 .. alpha^(2 delta).
 * tests/test_hqc.py re-derives every g(x) from those roots. */
#ifndef PQLAB_HQC_PARAMS_H
#define PQLAB_HQC_PARAMS_H

#include "namespace.h"

/* PQLAB_HQC_VERSION: 2023 (default) is the round-4 specification of 2023-04-30; 2025 the
 * specification of 2025-08-22 (reference code v5.0.0; docs/hqc.md lists the differences).
 * The code (RS, RM), the ring and the parameter table are the same in both. */
#ifndef PQLAB_HQC_VERSION
#define PQLAB_HQC_VERSION 2023
#endif
#if PQLAB_HQC_VERSION != 2023 && PQLAB_HQC_VERSION != 2025
#error "PQLAB_HQC_VERSION must be 2023 or 2025"
#endif

#ifndef PQLAB_HQC_LEVEL
#error "PQLAB_HQC_LEVEL must be 128, 192 or 256 (see the implementation's pqlab.toml)"
#endif

#if PQLAB_HQC_LEVEL == 128
#define HQC_N 17669
#define HQC_N1 46
#define HQC_N2 384
#define HQC_W 66
#define HQC_WR 75
#define HQC_WE 75
#define HQC_DELTA 15
#define HQC_K 16
#define HQC_RS_GEN                                                                                                     \
    {89,  69,  153, 116, 176, 117, 111, 75,  73, 233, 242, 233, 65,  210, 21, 139,                                     \
     103, 173, 67,  118, 105, 210, 174, 110, 74, 69,  228, 82,  255, 181, 1}
#elif PQLAB_HQC_LEVEL == 192
#define HQC_N 35851
#define HQC_N1 56
#define HQC_N2 640
#define HQC_W 100
#define HQC_WR 114
#define HQC_WE 114
#define HQC_DELTA 16
#define HQC_K 24
#define HQC_RS_GEN                                                                                                     \
    {45, 216, 239, 24,  253, 104, 27, 40, 107, 50,  163, 210, 227, 134, 224, 158, 119,                                 \
     13, 158, 1,   238, 164, 82,  43, 15, 232, 246, 142, 50,  189, 29,  232, 1}
#elif PQLAB_HQC_LEVEL == 256
#define HQC_N 57637
#define HQC_N1 90
#define HQC_N2 640
#define HQC_W 131
#define HQC_WR 149
#define HQC_WE 149
#define HQC_DELTA 29
#define HQC_K 32
#define HQC_RS_GEN                                                                                                     \
    {49,  167, 49, 39,  200, 121, 124, 91,  240, 63, 148, 71,  150, 123, 87,  101, 32,  215, 159, 71,                  \
     201, 115, 97, 210, 186, 183, 141, 217, 123, 12, 31,  243, 180, 219, 152, 239, 99,  141, 4,   246,                 \
     191, 144, 8,  232, 47,  27,  141, 178, 130, 64, 124, 47,  39,  188, 216, 48,  199, 187, 1}
#else
#error "PQLAB_HQC_LEVEL must be 128, 192 or 256"
#endif

#define HQC_N1N2 (HQC_N1 * HQC_N2)   /* length of the concatenated code, a multiple of 64 */
#define HQC_MULT (HQC_N2 / 128)      /* copies of each RM(1,7) codeword: 3 or 5 */
#define HQC_NW ((HQC_N + 63) / 64)   /* 64-bit words of a vector of F_2^n */
#define HQC_NBYTES ((HQC_N + 7) / 8) /* bytes of a vector of F_2^n */
#define HQC_N1N2W (HQC_N1N2 / 64)    /* words of the truncated v */
#define HQC_N1N2BYTES (HQC_N1N2 / 8) /* bytes of v */
#define HQC_NTOP (HQC_N % 64)        /* bits used in the last word (never 0 here) */
#define HQC_PARITY (HQC_N1 - HQC_K)  /* RS parity symbols = 2 delta */
#define HQC_SALTBYTES 16
#if PQLAB_HQC_VERSION == 2025
#define HQC_SEEDBYTES 32 /* seed_KEM, seed_PKE, its halves seed_dk / seed_ek, theta */
#define HQC_SSBYTES 32   /* K: first half of G's SHA3-512 output, or J (SHA3-256) */
#define HQC_THETABYTES 32
#define HQC_NREJ ((((uint32_t)1 << 24) / HQC_N) * HQC_N) /* keygen's 24-bit rejection bound */

#define HQC_PKBYTES (HQC_SEEDBYTES + HQC_NBYTES)                          /* seed_ek || s */
#define HQC_SKBYTES (HQC_PKBYTES + HQC_SEEDBYTES + HQC_K + HQC_SEEDBYTES) /* pk || seed_dk || sigma || seed_KEM */
#define HQC_CTBYTES (HQC_NBYTES + HQC_N1N2BYTES + HQC_SALTBYTES)          /* u || v || salt */

/* domain-separation bytes (appended after the input) */
#define HQC_DOMAIN_XOF 1 /* SHAKE256 XOF (seed expansion) */
#define HQC_DOMAIN_I 2   /* SHA3-512: seed_PKE -> (seed_dk, seed_ek) */
#define HQC_DOMAIN_H 1   /* SHA3-256 of the public key */
#define HQC_DOMAIN_G 0   /* SHA3-512: H(pk) || m || salt -> (K, theta) */
#define HQC_DOMAIN_J 3   /* SHA3-256: H(pk) || sigma || ct -> rejection key */
#else
#define HQC_SEEDBYTES 40 /* sk_seed, pk_seed, and the part of theta that seeds encryption */
#define HQC_SSBYTES 64   /* shared secret: SHAKE256-512 */
#define HQC_THETABYTES 64

#define HQC_PKBYTES (HQC_SEEDBYTES + HQC_NBYTES)                 /* pk_seed || s */
#define HQC_SKBYTES (HQC_SEEDBYTES + HQC_K + HQC_PKBYTES)        /* sk_seed || sigma || pk */
#define HQC_CTBYTES (HQC_NBYTES + HQC_N1N2BYTES + HQC_SALTBYTES) /* u || v || salt */

/* SHAKE256 domain-separation bytes (appended after the input) */
#define HQC_DOMAIN_XOF 2                                         /* the seed expander */
#define HQC_DOMAIN_G 3
#define HQC_DOMAIN_K 4
#endif

#if HQC_NTOP == 0 || HQC_N1N2 % 64 != 0 || HQC_PARITY != 2 * HQC_DELTA
#error "HQC parameter set violates an assumption of this implementation"
#endif

#endif
