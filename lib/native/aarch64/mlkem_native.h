/* SPDX-License-Identifier: MIT */
/* ML-KEM kernels of the AArch64 backend for lib/mlkem/kernels.h (meta.h names this header,
 * PQLAB_MLKEM_BACKEND_HEADER; kernels.h includes it after its mlkem_poly type). The kernels
 * are in mlkem_ntt.c (mlkem_neon.h) and sample.c (sample_neon.h: rej_bulk, cbd2 / cbd3); these wrappers give them the kernels' prototypes. */
#ifndef PQLAB_NATIVE_AARCH64_MLKEM_NATIVE_H
#define PQLAB_NATIVE_AARCH64_MLKEM_NATIVE_H

#include "mlkem_neon.h"
#include "sample_neon.h"

#ifdef PQLAB_MLKEM_KERNELS_H /* included from lib/mlkem/kernels.h: mlkem_poly is defined */
#define PQLAB_MLKEM_NATIVE_NTT
#define PQLAB_MLKEM_NATIVE_INVNTT
#define PQLAB_MLKEM_NATIVE_BASEMUL_ACC
#define PQLAB_MLKEM_NATIVE_REJ_BULK
#define PQLAB_MLKEM_NATIVE_CBD_ETA1
#define PQLAB_MLKEM_NATIVE_CBD_ETA2
static inline void PQLAB_NAMESPACE(mlkem_ntt_native)(mlkem_poly *r)
{
    pqlab_mlkem_ntt_neon(r->c);
}
static inline void PQLAB_NAMESPACE(mlkem_invntt_native)(mlkem_poly *r)
{
    pqlab_mlkem_invntt_neon(r->c);
}
static inline void PQLAB_NAMESPACE(mlkem_basemul_acc_native)(mlkem_poly *r, const mlkem_poly *a, const mlkem_poly *b)
{
    pqlab_mlkem_basemul_acc_neon(r->c, a->c, b->c);
}
static inline unsigned int PQLAB_NAMESPACE(mlkem_rej_bulk_native)(int16_t *cand, const uint8_t *buf, unsigned int g)
{
    return pqlab_mlkem_rej_bulk_neon(cand, buf, g);
}
static inline void PQLAB_NAMESPACE(mlkem_cbd_eta1_native)(mlkem_poly *r, const uint8_t buf[64 * MLKEM_ETA1])
{
#if MLKEM_ETA1 == 3
    pqlab_mlkem_cbd3_neon(r->c, buf);
#else
    pqlab_mlkem_cbd2_neon(r->c, buf);
#endif
}
static inline void PQLAB_NAMESPACE(mlkem_cbd_eta2_native)(mlkem_poly *r, const uint8_t buf[64 * MLKEM_ETA2])
{
    pqlab_mlkem_cbd2_neon(r->c, buf);
}
#endif

#endif
