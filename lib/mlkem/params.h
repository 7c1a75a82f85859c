/* SPDX-License-Identifier: MIT */
/* ML-KEM parameter sets, FIPS 203 section 8 (Table 2) and the sizes of Table 3.
 * One source tree serves all three sets; the build chooses one with
 * -DPQLAB_MLKEM_K=2 (ML-KEM-512), 3 (ML-KEM-768) or 4 (ML-KEM-1024). */
#ifndef PQLAB_MLKEM_PARAMS_H
#define PQLAB_MLKEM_PARAMS_H

#include "namespace.h"

#ifndef PQLAB_MLKEM_K
#error "PQLAB_MLKEM_K must be 2, 3 or 4 (set by the implementation's pqlab.toml)"
#endif

#define MLKEM_N 256
#define MLKEM_Q 3329
#define MLKEM_K PQLAB_MLKEM_K

#if MLKEM_K == 2
#define MLKEM_ETA1 3
#define MLKEM_DU 10
#define MLKEM_DV 4
#elif MLKEM_K == 3
#define MLKEM_ETA1 2
#define MLKEM_DU 10
#define MLKEM_DV 4
#elif MLKEM_K == 4
#define MLKEM_ETA1 2
#define MLKEM_DU 11
#define MLKEM_DV 5
#else
#error "PQLAB_MLKEM_K must be 2, 3 or 4"
#endif
#define MLKEM_ETA2 2

#define MLKEM_SYMBYTES 32                       /* d, z, m, rho, sigma, K, H(ek) */
#define MLKEM_POLYBYTES 384                     /* ByteEncode_12 of one polynomial */
#define MLKEM_POLYCOMPRESSED_DU (32 * MLKEM_DU) /* ByteEncode_du: 256*du/8 bytes */
#define MLKEM_POLYCOMPRESSED_DV (32 * MLKEM_DV)

/* FIPS 203 Table 3: ek = 384k+32, dk = 768k+96, c = 32(du*k+dv), K = 32 bytes. */
#define MLKEM_EKBYTES (MLKEM_POLYBYTES * MLKEM_K + MLKEM_SYMBYTES)
#define MLKEM_DKPKEBYTES (MLKEM_POLYBYTES * MLKEM_K)
#define MLKEM_DKBYTES (MLKEM_DKPKEBYTES + MLKEM_EKBYTES + 2 * MLKEM_SYMBYTES)
#define MLKEM_CTBYTES (MLKEM_POLYCOMPRESSED_DU * MLKEM_K + MLKEM_POLYCOMPRESSED_DV)
#define MLKEM_SSBYTES 32

/* Offsets inside dk = dk_PKE || ek || H(ek) || z (FIPS 203 Algorithm 16). */
#define MLKEM_DK_EK_OFFSET MLKEM_DKPKEBYTES
#define MLKEM_DK_H_OFFSET (MLKEM_DKPKEBYTES + MLKEM_EKBYTES)
#define MLKEM_DK_Z_OFFSET (MLKEM_DK_H_OFFSET + MLKEM_SYMBYTES)

#endif
