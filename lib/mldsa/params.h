/* SPDX-License-Identifier: MIT */
/* ML-DSA parameter sets (FIPS 204 section 4, Table 1 and Table 2).
 * One source tree serves all three sets; the build selects one with
 * -DPQLAB_MLDSA_MODE=44|65|87. */
#ifndef PQLAB_MLDSA_PARAMS_H
#define PQLAB_MLDSA_PARAMS_H

#include "namespace.h"

#ifndef PQLAB_MLDSA_MODE
#error "PQLAB_MLDSA_MODE must be 44, 65 or 87"
#endif

#define MLDSA_N 256
#define MLDSA_Q 8380417    /* 2^23 - 2^13 + 1 */
#define MLDSA_D 13         /* dropped bits of t (Power2Round) */
#define MLDSA_SEEDBYTES 32 /* xi, rho, K, rnd */
#define MLDSA_CRHBYTES 64  /* rho', rho'', mu */
#define MLDSA_TRBYTES 64   /* tr = H(pk, 64) */
#define MLDSA_RNDBYTES 32

#if PQLAB_MLDSA_MODE == 44
#define MLDSA_K 4
#define MLDSA_L 4
#define MLDSA_ETA 2
#define MLDSA_TAU 39
#define MLDSA_BETA 78 /* tau * eta */
#define MLDSA_GAMMA1 (1 << 17)
#define MLDSA_GAMMA2 ((MLDSA_Q - 1) / 88)
#define MLDSA_OMEGA 80
#define MLDSA_CTILDEBYTES 32 /* lambda / 4, lambda = 128 */
#define MLDSA_ALGNAME "ML-DSA-44"
#elif PQLAB_MLDSA_MODE == 65
#define MLDSA_K 6
#define MLDSA_L 5
#define MLDSA_ETA 4
#define MLDSA_TAU 49
#define MLDSA_BETA 196
#define MLDSA_GAMMA1 (1 << 19)
#define MLDSA_GAMMA2 ((MLDSA_Q - 1) / 32)
#define MLDSA_OMEGA 55
#define MLDSA_CTILDEBYTES 48 /* lambda = 192 */
#define MLDSA_ALGNAME "ML-DSA-65"
#elif PQLAB_MLDSA_MODE == 87
#define MLDSA_K 8
#define MLDSA_L 7
#define MLDSA_ETA 2
#define MLDSA_TAU 60
#define MLDSA_BETA 120
#define MLDSA_GAMMA1 (1 << 19)
#define MLDSA_GAMMA2 ((MLDSA_Q - 1) / 32)
#define MLDSA_OMEGA 75
#define MLDSA_CTILDEBYTES 64 /* lambda = 256 */
#define MLDSA_ALGNAME "ML-DSA-87"
#else
#error "PQLAB_MLDSA_MODE must be 44, 65 or 87"
#endif

/* Encoded sizes (FIPS 204 section 7.2 and Table 2) */
#define MLDSA_POLYT1_BYTES 320 /* 10 bits/coeff */
#define MLDSA_POLYT0_BYTES 416 /* 13 bits/coeff */
#if MLDSA_ETA == 2
#define MLDSA_POLYETA_BYTES 96 /* 3 bits/coeff */
#else
#define MLDSA_POLYETA_BYTES 128 /* 4 bits/coeff */
#endif
#if MLDSA_GAMMA1 == (1 << 17)
#define MLDSA_POLYZ_BYTES 576 /* 18 bits/coeff */
#else
#define MLDSA_POLYZ_BYTES 640 /* 20 bits/coeff */
#endif
#if MLDSA_GAMMA2 == (MLDSA_Q - 1) / 88
#define MLDSA_POLYW1_BYTES 192 /* 6 bits/coeff */
#else
#define MLDSA_POLYW1_BYTES 128 /* 4 bits/coeff */
#endif

#define MLDSA_PUBLICKEYBYTES (MLDSA_SEEDBYTES + MLDSA_K * MLDSA_POLYT1_BYTES)
#define MLDSA_SECRETKEYBYTES                                                                                           \
    (2 * MLDSA_SEEDBYTES + MLDSA_TRBYTES + (MLDSA_L + MLDSA_K) * MLDSA_POLYETA_BYTES + MLDSA_K * MLDSA_POLYT0_BYTES)
#define MLDSA_SIGBYTES (MLDSA_CTILDEBYTES + MLDSA_L * MLDSA_POLYZ_BYTES + MLDSA_OMEGA + MLDSA_K)

#endif
