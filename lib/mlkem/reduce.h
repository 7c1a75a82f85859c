/* SPDX-License-Identifier: MIT */
/* Modular arithmetic modulo q = 3329 on signed 16-bit representatives.
 * Montgomery reduction with R = 2^16 and Barrett reduction; no division.
 * Right shifts of negative values are arithmetic and narrowing conversions to
 * int16_t wrap modulo 2^16: both are implementation-defined in C11 and hold for
 * every compiler pqlab supports (gcc, clang). */
#ifndef PQLAB_MLKEM_REDUCE_H
#define PQLAB_MLKEM_REDUCE_H

#include <stdint.h>
#include "params.h"

/* q^-1 mod 2^16 is 62209; as a signed 16-bit value -3327. */
#define MLKEM_QINV (-3327)
/* round(2^26 / q): Barrett constant. */
#define MLKEM_BARRETT_V 20159

/* The constants q and q^-1 pass through an empty asm statement before they are
 * multiplied: GCC for Cortex-M otherwise replaces the single-cycle MUL by a
 * chain of three or four shift-adds (measured: -3% instructions on Cortex-M4;
 * on x86-64 the hidden constant costs 15%, on RV32 nothing, so Arm only).
 * Only the code generation changes. */
static inline int32_t mlkem_opaque(int32_t x)
{
#if (defined(__GNUC__) || defined(__clang__)) && defined(__arm__)
    __asm__("" : "+r"(x));
#endif
    return x;
}

/* Montgomery reduction: for |a| < q * 2^15 returns r = a * 2^-16 mod q with
 * |r| < q. Why: t = a * q^-1 mod 2^16 makes a - t*q divisible by 2^16, and
 * |a - t*q| < q*2^15 + 2^15*q = q*2^16, so r = (a - t*q) / 2^16 has |r| < q.
 * (At |a| = q*2^15 exactly, r = +-q can occur; callers stay strictly below.) */
static inline int16_t mlkem_montgomery_reduce(int32_t a)
{
    int16_t t = (int16_t)(a * mlkem_opaque(MLKEM_QINV));
    return (int16_t)((a - (int32_t)t * mlkem_opaque(MLKEM_Q)) >> 16);
}

/* a * b * 2^-16 mod q; requires |a * b| < q * 2^15 (e.g. |b| <= (q-1)/2 and any
 * int16 a: 1664 * 2^15 < q * 2^15; or |a|, |b| < q: q^2 < q * 2^15); |r| < q. */
static inline int16_t mlkem_fqmul(int16_t a, int16_t b)
{
    return mlkem_montgomery_reduce((int32_t)a * b);
}

/* Barrett reduction: for every int16 a returns r = a mod q with
 * -(q-1)/2 <= r <= (q-1)/2 (checked exhaustively over all 65536 inputs in
 * tests/test_mlkem_kernels.py). t = round(a * 20159 / 2^26) ~ round(a / q). */
static inline int16_t mlkem_barrett_reduce(int16_t a)
{
    int32_t t = ((int32_t)a * MLKEM_BARRETT_V + (1 << 25)) >> 26;
    return (int16_t)(a - t * mlkem_opaque(MLKEM_Q));
}

/* For -q < a < q returns a mod q in [0, q), without a branch: adds q when the
 * sign bit is set. */
static inline int16_t mlkem_caddq(int16_t a)
{
    int32_t x = a;
    x += (x >> 31) & MLKEM_Q;
    return (int16_t)x;
}

/* zetas[i] = zeta^BitRev7(i) * 2^16 mod q, centred (ntt.c). */
#define mlkem_zetas PQLAB_NAMESPACE(mlkem_zetas)
extern const int16_t mlkem_zetas[128];

/* FIPS 203 Algorithm 12 (BaseCaseMultiply) for pair p (coefficients 2p, 2p+1),
 * accumulated with the factor R^-1: r[0..1] += (a0 + a1 X)(b[0] + b[1] X) R^-1
 * modulo X^2 - gamma_p, gamma_p = zeta^(2BitRev7(p)+1). For p = 2t and 2t+1 the
 * gammas are zetas[64 + t] and its negative (zeta^128 = -1, BitRev7(64 + t) =
 * 2 BitRev7(2t) + 1); the table holds gamma R, so
 *   c0 = mont(a0 b0 + mont(a1 b1) gamma R) = (a0 b0 + a1 b1 gamma) R^-1,
 *   c1 = mont(a0 b1 + a1 b0)              = (a0 b1 + a1 b0) R^-1,
 * three Montgomery reductions per pair. Bounds: |a|, |b| < q give
 * |a0 b0 + mont(a1 b1) gamma R| < q^2 + q * 1664 and |a0 b1 + a1 b0| < 2 q^2 =
 * 22,165,282, both below q 2^15 = 109,084,672, so each result is < q in
 * magnitude and adds less than q to r. */
static inline void mlkem_basemul_pair(int16_t r[2], int16_t a0, int16_t a1, const int16_t b[2], unsigned int p)
{
    const int16_t z = mlkem_zetas[64 + (p >> 1)]; /* p is a public position */
    const int16_t gamma = (p & 1) ? (int16_t)-z : z;
    /* all loads before the stores: r and b may alias as far as the compiler knows */
    const int16_t b0 = b[0], b1 = b[1], r0 = r[0], r1 = r[1];
    const int32_t t = (int32_t)mlkem_montgomery_reduce((int32_t)a1 * b1) * gamma;
    r[0] = (int16_t)(r0 + mlkem_montgomery_reduce((int32_t)a0 * b0 + t));
    r[1] = (int16_t)(r1 + mlkem_montgomery_reduce((int32_t)a0 * b1 + (int32_t)a1 * b0));
}

#endif
