/* SPDX-License-Identifier: MIT */
/* ML-DSA kernels of the AArch64 backend for lib/mldsa/kernels.h (meta.h names this header,
 * PQLAB_MLDSA_BACKEND_HEADER). The kernels are in mldsa_ntt.c, mldsa_ntt16.c, mldsa_poly.c (mldsa_neon.h) and sample.c
 * (sample_neon.h: rej_uniform, poly_rej_bounded, ball_swap, ExpandMask): the C's values and bounds (ntt16 and mul16_add:
 * other representatives within kernels.h's bounds, which allow them), so kernels.h's default bounds hold and nothing
 * is narrowed here. */
#ifndef PQLAB_NATIVE_AARCH64_MLDSA_NATIVE_H
#define PQLAB_NATIVE_AARCH64_MLDSA_NATIVE_H

#include "mldsa_neon.h"
#include "sample_neon.h"

#define PQLAB_MLDSA_NATIVE_NTT
#define PQLAB_MLDSA_NATIVE_INVNTT_TOMONT
#define PQLAB_MLDSA_NATIVE_POINTWISE_MONT
#define PQLAB_MLDSA_NATIVE_POINTWISE_ACC_MONT
#define PQLAB_MLDSA_NATIVE_POLYVEC_POINTWISE_ACC_MONT
#define PQLAB_MLDSA_NATIVE_REJ_UNIFORM
#define PQLAB_MLDSA_NATIVE_POLY_REJ_BOUNDED
#define PQLAB_MLDSA_NATIVE_BALL_SWAP
#define PQLAB_MLDSA_NATIVE_POLY_EXPAND_MASK
#define PQLAB_MLDSA_NATIVE_POLY_EXPAND_MASK_X4
#define PQLAB_MLDSA_NATIVE_POLY_NTT16
#define PQLAB_MLDSA_NATIVE_POLY_MUL16_ADD
#define PQLAB_MLDSA_NATIVE_POLY_DECOMPOSE
#define PQLAB_MLDSA_NATIVE_POLY_MAKE_HINT_LOW
#define PQLAB_MLDSA_NATIVE_POLY_CHKNORM
#define PQLAB_MLDSA_NATIVE_POLYW1_PACK

/* Decompose's floor(x / (2 gamma2)) as (x mul) >> shift: lib/mldsa/rounding.h's DEC_MUL /
 * DEC_SHIFT (mul = ceil(2^shift / (2 gamma2)); the KATs of all three parameter sets run
 * through this kernel) */
#if MLDSA_GAMMA2 == (MLDSA_Q - 1) / 88
#define PQLAB_AARCH64_DEC_SHIFT 39
#else
#define PQLAB_AARCH64_DEC_SHIFT 43
#endif
#define PQLAB_AARCH64_DEC_MUL                                                                                          \
    ((int32_t)(((1ull << PQLAB_AARCH64_DEC_SHIFT) + 2u * MLDSA_GAMMA2 - 1u) / (2u * MLDSA_GAMMA2)))
static inline void PQLAB_NAMESPACE(ntt_native)(int32_t a[MLDSA_N])
{
    pqlab_mldsa_ntt_neon(a);
}
static inline void PQLAB_NAMESPACE(invntt_tomont_native)(int32_t a[MLDSA_N])
{
    pqlab_mldsa_invntt_neon(a);
}
static inline void PQLAB_NAMESPACE(pointwise_mont_native)(int32_t c[MLDSA_N], const int32_t a[MLDSA_N],
                                                          const int32_t b[MLDSA_N])
{
    pqlab_mldsa_pointwise_neon(c, a, b);
}
static inline void PQLAB_NAMESPACE(pointwise_acc_mont_native)(int32_t c[MLDSA_N], const int32_t a[MLDSA_N],
                                                              const int32_t b[MLDSA_N])
{
    pqlab_mldsa_pointwise_acc_neon(c, a, b);
}
static inline void PQLAB_NAMESPACE(polyvec_pointwise_acc_mont_native)(int32_t w[MLDSA_N], const mldsa_poly *a,
                                                                      const mldsa_poly *b, unsigned int count)
{
    pqlab_mldsa_polyvec_pointwise_acc_neon(w, a->c, b->c, count); /* the polynomials are consecutive */
}
static inline void PQLAB_NAMESPACE(poly_ntt16_native)(int16_t r[MLDSA_N], const int32_t a[MLDSA_N])
{
    pqlab_mldsa_ntt16_neon(r, a);
}
static inline void PQLAB_NAMESPACE(poly_mul16_add_native)(int32_t r[MLDSA_N], const int32_t base[MLDSA_N],
                                                          const int16_t a[MLDSA_N], const int16_t b[MLDSA_N])
{
    pqlab_mldsa_mul16_add_neon(r, base, a, b);
}

static inline void PQLAB_NAMESPACE(poly_decompose_native)(int32_t *a1, int32_t *a0, const int32_t a[MLDSA_N])
{
    pqlab_mldsa_decompose_neon(a1, a0, a, MLDSA_GAMMA2, PQLAB_AARCH64_DEC_MUL, PQLAB_AARCH64_DEC_SHIFT,
                               (MLDSA_Q - 1) / (2 * MLDSA_GAMMA2));
}
static inline unsigned int PQLAB_NAMESPACE(poly_make_hint_low_native)(int32_t h[MLDSA_N], const int32_t a0[MLDSA_N],
                                                                      const int32_t d[MLDSA_N],
                                                                      const int32_t a1[MLDSA_N])
{
    return pqlab_mldsa_make_hint_low_neon(h, a0, d, a1, MLDSA_GAMMA2);
}
static inline uint32_t PQLAB_NAMESPACE(poly_chknorm_native)(const int32_t a[MLDSA_N], int32_t bound)
{
    return pqlab_mldsa_chknorm_neon(a, bound);
}

static inline void PQLAB_NAMESPACE(polyw1_pack_native)(uint8_t r[MLDSA_POLYW1_BYTES], const int32_t a[MLDSA_N])
{
    pqlab_mldsa_w1_pack_neon(r, a, MLDSA_POLYW1_BYTES == 192 ? 6 : 4);
}

static inline unsigned int PQLAB_NAMESPACE(rej_uniform_native)(int32_t a[MLDSA_N], unsigned int ctr, const uint8_t *buf,
                                                               size_t buflen)
{
    return pqlab_mldsa_rej_uniform_neon(a, ctr, buf, buflen);
}

static inline void PQLAB_NAMESPACE(poly_rej_bounded_native)(mldsa_poly *a, const uint8_t rhoprime[MLDSA_CRHBYTES],
                                                            uint16_t nonce)
{
    pqlab_mldsa_poly_rej_bounded_neon(a->c, rhoprime, nonce, MLDSA_ETA);
}

/* ExpandMask's coefficients have 18 bits (gamma1 = 2^17) or 20 (2^19) */
#define PQLAB_AARCH64_MASK_BITS (MLDSA_GAMMA1 == (1 << 17) ? 18 : 20)
static inline void PQLAB_NAMESPACE(poly_expand_mask_native)(mldsa_poly *y, const uint8_t rhopp[MLDSA_CRHBYTES],
                                                            uint16_t nonce)
{
    pqlab_mldsa_expand_mask_neon(y->c, rhopp, nonce, PQLAB_AARCH64_MASK_BITS);
}
static inline void PQLAB_NAMESPACE(poly_expand_mask_x4_native)(mldsa_poly *y0, mldsa_poly *y1, mldsa_poly *y2,
                                                               mldsa_poly *y3, const uint8_t rhopp[MLDSA_CRHBYTES],
                                                               const uint16_t nonce[4])
{
    pqlab_mldsa_expand_mask_x4_neon(y0->c, y1->c, y2->c, y3->c, rhopp, nonce, PQLAB_AARCH64_MASK_BITS);
}

static inline uint32_t PQLAB_NAMESPACE(ball_swap_native)(uint32_t w[MLDSA_N / 4], unsigned int nwords, uint32_t j,
                                                         uint32_t sign4)
{
    return pqlab_mldsa_ball_swap_neon(w, nwords, j, sign4);
}

#endif
