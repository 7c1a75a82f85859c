/* SPDX-License-Identifier: MIT */
/* Modular reduction helpers for q = 8380417 (FIPS 204 section 4). Header only. */
#ifndef PQLAB_MLDSA_REDUCE_H
#define PQLAB_MLDSA_REDUCE_H

#include <stdint.h>

#include "params.h"

#define MLDSA_QINV 58728449 /* q^-1 mod 2^32 */

/* Hides a constant from GCC's constant multiplication expansion: for Cortex-M it turns
 * x * 58728449 into three shift-adds, while MUL takes one cycle. Code generation only. */
static inline uint32_t mldsa_opaque_u32(uint32_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    __asm__("" : "+r"(x));
#endif
    return x;
}

/* Montgomery reduction: returns r = a * 2^-32 mod q with |r| < q, for
 * |a| < 2^31 q. With t = (a mod 2^32) q^-1 mod 2^32, a - t q is divisible by 2^32 and
 * |t q| <= 2^31 q, so |a - t q| < 2^32 q. Because a and t q agree in their low 32 bits,
 * (a - t q) / 2^32 is the difference of their high halves, which is how it is computed
 * (one 32x32->64 product and one high-half product, no 64-bit subtraction). The
 * conversions to int32_t are modular (two's complement) on every compiler pqlab
 * supports; >> of a negative int64_t is arithmetic. */
static inline int32_t mldsa_montgomery_reduce(int64_t a)
{
    const int32_t t = (int32_t)((uint32_t)a * mldsa_opaque_u32((uint32_t)MLDSA_QINV));
    return (int32_t)(a >> 32) - (int32_t)(((int64_t)t * MLDSA_Q) >> 32);
}

/* r = a - round(a / 2^23) q for |a| <= 2^31 - 2^22 - 1: since 2^23 - q = 2^13 - 1,
 * r = e + t (2^13 - 1) with e in [-2^22, 2^22) and |t| <= 256, so |r| <= 6291200. */
static inline int32_t mldsa_reduce32(int32_t a)
{
    const int32_t t = (a + (1 << 22)) >> 23;
    return a - t * MLDSA_Q;
}

/* adds q when a is negative, without a branch: -q < a < q -> 0 <= r < q */
static inline int32_t mldsa_caddq(int32_t a)
{
    return a + ((a >> 31) & MLDSA_Q);
}

/* canonical representative in [0, q) for |a| <= 2^31 - 2^22 - 1 */
static inline int32_t mldsa_freeze(int32_t a)
{
    return mldsa_caddq(mldsa_reduce32(a));
}

#endif
