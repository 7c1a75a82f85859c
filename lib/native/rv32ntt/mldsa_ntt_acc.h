/* SPDX-License-Identifier: MIT */
/* ML-DSA kernels on the NTT unit (lib/mldsa/kernels.h; ntt_acc.c), the family header named by
 * ntt_acc_meta.h (PQLAB_MLDSA_BACKEND_HEADER) in place of rv32's mldsa_native.h, whose other
 * kernels (rej_uniform, ExpandMask four at a time) it keeps:
 *   ntt                 any int32 in (kernels.h's |a| <= 2^31 - 1 - 8q), canonical out
 *                       (|a| < q <= max|in| + 8q), the NTT of the C (congruent values)
 *   invntt_tomont       |a| < q in, canonical out: NTT^-1(in) 2^32 mod q
 *   pointwise_mont      c = a o b 2^-32, canonical (|c| < q); c may be a or b
 *   pointwise_acc_mont  c += a o b 2^-32 (the term canonical)
 * tests/test_native_ntt_acc.py compares them with the C on cv32e40p-ntt-sim. */
#ifndef PQLAB_NATIVE_RV32NTT_MLDSA_H
#define PQLAB_NATIVE_RV32NTT_MLDSA_H

#include <stddef.h>
#include <stdint.h>

#include "ntt_acc.h"

unsigned pqlab_mldsa_rej_uniform_rv32(int32_t a[256], unsigned ctr, const uint8_t *buf, size_t buflen);

#ifdef PQLAB_NAMESPACE /* included through kernels.h: the dispatch */
#define PQLAB_MLDSA_NATIVE_NTT
#define PQLAB_MLDSA_NATIVE_INVNTT_TOMONT
#define PQLAB_MLDSA_NATIVE_POINTWISE_MONT
#define PQLAB_MLDSA_NATIVE_POINTWISE_ACC_MONT
#define PQLAB_MLDSA_NATIVE_REJ_UNIFORM
static inline void PQLAB_NAMESPACE(ntt_native)(int32_t a[MLDSA_N])
{
    pqlab_mldsa_ntt_acc(a);
}
static inline void PQLAB_NAMESPACE(invntt_tomont_native)(int32_t a[MLDSA_N])
{
    pqlab_mldsa_invntt_acc(a);
}
static inline void PQLAB_NAMESPACE(pointwise_mont_native)(int32_t c[MLDSA_N], const int32_t a[MLDSA_N],
                                                          const int32_t b[MLDSA_N])
{
    pqlab_mldsa_pointwise_acc(c, a, b);
}
static inline void PQLAB_NAMESPACE(pointwise_acc_mont_native)(int32_t c[MLDSA_N], const int32_t a[MLDSA_N],
                                                              const int32_t b[MLDSA_N])
{
    pqlab_mldsa_pointwise_accumulate_acc(c, a, b);
}
/* ExpandMask four at a time as rv32 (mldsa_native.h): four one-lane calls */
#define PQLAB_MLDSA_NATIVE_POLY_EXPAND_MASK_X4
void PQLAB_NAMESPACE(poly_expand_mask_c)(mldsa_poly *y, const uint8_t rhopp[MLDSA_CRHBYTES], uint16_t nonce);
static inline void PQLAB_NAMESPACE(poly_expand_mask_x4_native)(mldsa_poly *y0, mldsa_poly *y1, mldsa_poly *y2,
                                                               mldsa_poly *y3, const uint8_t rhopp[MLDSA_CRHBYTES],
                                                               const uint16_t nonce[4])
{
    PQLAB_NAMESPACE(poly_expand_mask_c)(y0, rhopp, nonce[0]);
    PQLAB_NAMESPACE(poly_expand_mask_c)(y1, rhopp, nonce[1]);
    PQLAB_NAMESPACE(poly_expand_mask_c)(y2, rhopp, nonce[2]);
    PQLAB_NAMESPACE(poly_expand_mask_c)(y3, rhopp, nonce[3]);
}
static inline unsigned int PQLAB_NAMESPACE(rej_uniform_native)(int32_t a[MLDSA_N], unsigned int ctr, const uint8_t *buf,
                                                               size_t buflen)
{
    return pqlab_mldsa_rej_uniform_rv32(a, ctr, buf, buflen);
}
#endif

#endif
