/* SPDX-License-Identifier: MIT */
/* FN-DSA / Falcon floating-point layer ("fpr").
 *
 * Falcon (round-3 specification v1.2, sections 3.5-3.9) computes with IEEE-754
 * binary64 values: FFT, LDL decomposition, the fast Fourier sampler, and the
 * Babai reduction of the NTRU solver. Two interchangeable layers are provided:
 *
 *  - default: an integer emulation (fpr is the binary64 bit pattern in a
 *    uint64_t). Every operation is constant time (no branch, no memory index,
 *    no division depending on operands) and rounds to nearest-even exactly as
 *    IEEE-754 requires, so results are bit-identical to native double
 *    arithmetic. Subnormals are flushed to zero and infinities/NaNs are not
 *    handled: Falcon never produces them (all values stay within 2^-300 ..
 *    2^300 in magnitude).
 *  - PQLAB_FNDSA_FPR_NATIVE: fpr is a C double. The build must use
 *    -ffp-contract=off (no fused multiply-add, which would change rounding)
 *    and strict IEEE double precision (no x87 extended precision).
 *    Conversions double -> integer go through the emulation's integer
 *    routines on the bit pattern, which are constant time (the compiler
 *    runtime's __aeabi_d2lz and friends are not).
 *
 * Both layers expose the same functions; code above this file never looks
 * inside an fpr. */
#ifndef PQLAB_FNDSA_FPR_H
#define PQLAB_FNDSA_FPR_H

#include <stdint.h>
#include <string.h>

#include "namespace.h"
#include "../native/api.h" /* the backend contract: which kernels it provides */

/* ---------------------------------------------------------------------- */
/* Constant-time 64-bit helpers shared by both layers.                     */

/* 1 when x == 0, else 0 */
static inline uint64_t fpr_ct_iszero64(uint64_t x)
{
    return ((x | ((uint64_t)0 - x)) >> 63) ^ 1;
}

/* x >> n for 0 <= n <= 63 without a data-dependent branch or library call on 32-bit
 * targets: the 32-bit part of the shift is a mask, the rest shifts the two 32-bit words
 * by n & 31. Written on words because a 64-bit shift by a variable count is not branch-free
 * everywhere: riscv64-unknown-elf-gcc 12 (RV32) expands it with a branch on the count's
 * range (pqlab ct -p cv32e40p-nofpu-sim, docs/ct.md). */
static inline uint64_t fpr_ursh(uint64_t x, uint32_t n)
{
    uint32_t lo = (uint32_t)x, hi = (uint32_t)(x >> 32);
    uint32_t m = (uint32_t)0 - ((n >> 5) & 1); /* n >= 32: the high word moves down */
    lo ^= (lo ^ hi) & m;
    hi &= ~m;
    n &= 31;
    /* the bits that cross from hi to lo: (hi << 1) << (31 - n), 0 when n == 0 */
    lo = (lo >> n) | ((hi << 1) << (31 - n));
    hi >>= n;
    return ((uint64_t)hi << 32) | lo;
}

/* x << n for 0 <= n <= 63, the same way */
static inline uint64_t fpr_ulsh(uint64_t x, uint32_t n)
{
    uint32_t lo = (uint32_t)x, hi = (uint32_t)(x >> 32);
    uint32_t m = (uint32_t)0 - ((n >> 5) & 1); /* n >= 32: the low word moves up */
    hi ^= (hi ^ lo) & m;
    lo &= ~m;
    n &= 31;
    hi = (hi << n) | ((lo >> 1) >> (31 - n));
    lo <<= n;
    return ((uint64_t)hi << 32) | lo;
}

/* Shift x left until bit 63 is set; returns the shift count in *cnt
 * (63 when x == 0, then x stays 0). Six masked steps, no branch. */
static inline uint64_t fpr_norm64(uint64_t x, uint32_t *cnt)
{
    uint32_t c = 0;
    uint64_t t;
#define FPR_NORM_STEP(k)                                                                                               \
    t = (uint64_t)0 - fpr_ct_iszero64(x >> (64 - (k)));                                                                \
    x ^= (x ^ (x << (k))) & t;                                                                                         \
    c += (uint32_t)(k) & (uint32_t)t;
    FPR_NORM_STEP(32)
    FPR_NORM_STEP(16)
    FPR_NORM_STEP(8)
    FPR_NORM_STEP(4)
    FPR_NORM_STEP(2)
    FPR_NORM_STEP(1)
#undef FPR_NORM_STEP
    *cnt = c;
    return x;
}

/* Conversion of a binary64 bit pattern to an integer, constant time.
 * mode 0: round to nearest, ties to even (rint); 1: toward -inf (floor);
 * 2: toward zero (trunc). Valid for |x| < 2^63. */
static inline int64_t fpr_bits_to_int(uint64_t x, int mode)
{
    uint32_t ex = (uint32_t)(x >> 52) & 0x7FF;
    uint64_t s = x >> 63;
    /* m: 53-bit mantissa (0 for zero / subnormal), value = m * 2^(ex-1075) */
    uint64_t nz = ((uint64_t)ex + 0x7FF) >> 11;
    uint64_t m = ((x & (((uint64_t)1 << 52) - 1)) | (nz << 52)) & ((uint64_t)0 - nz);
    /* z = m * 2^10 < 2^63, value = z * 2^(ex-1085); sh = 1085 - ex is the
     * right shift giving the integer part; sh <= 0 would mean |x| >= 2^63. */
    uint64_t z = m << 10;
    int32_t sh = 1085 - (int32_t)ex;
    /* sh >= 64: the integer part is 0 and everything is fraction; cap at 63
     * after noting that case (then z >> 63 is 0 as z < 2^63). */
    uint32_t big = (uint32_t)(63 - sh) >> 31; /* 1 when sh > 63 */
    uint32_t ush = (uint32_t)sh;
    ush ^= (ush ^ 63) & ((uint32_t)0 - big);
    uint64_t ip = fpr_ursh(z, ush);
    /* fraction bits: z mod 2^ush (all of z when sh > 63) */
    uint64_t fr = z ^ fpr_ulsh(ip, ush);
    uint64_t half = fpr_ulsh(1, ush) >> 1; /* 2^(ush-1); 0 when ush == 0 */
    uint64_t r;
    if (mode == 0) {
        /* round up when fr > half, or fr == half and ip odd */
        uint64_t gt = (half - fr) >> 63; /* fr > half (both < 2^63) */
        uint64_t eq = fpr_ct_iszero64(fr ^ half);
        uint64_t up = gt | (eq & ip & 1 & (fpr_ct_iszero64(fr) ^ 1));
        up &= (uint64_t)(big ^ 1); /* sh > 63: |x| < 1/2 rounds to 0 */
        r = ip + up;
    } else if (mode == 1) {
        /* for negative values a nonzero fraction rounds the magnitude up */
        r = ip + (s & (fpr_ct_iszero64(fr) ^ 1));
    } else {
        r = ip;
    }
    return (int64_t)((r ^ ((uint64_t)0 - s)) + s);
}

#ifdef PQLAB_FNDSA_FPR_NATIVE
/* ====================================================================== */
/* Native double layer.                                                    */

typedef double fpr;

#define FPR(bits, dbl) (dbl)

static inline uint64_t fpr_to_bits(fpr x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static inline fpr fpr_from_bits(uint64_t u)
{
    fpr x;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* int64 -> double: both 32-bit halves convert exactly (vcvt from 32-bit
 * integers is a fixed-latency instruction); hi * 2^32 is exact, so the single
 * rounding of the final addition is the correctly rounded result. */
static inline fpr fpr_of(int64_t i)
{
    int32_t hi = (int32_t)((uint64_t)i >> 32);
    uint32_t lo = (uint32_t)i;
    return (double)hi * 4294967296.0 + (double)lo;
}

/* int32 -> double: exact */
static inline fpr fpr_of32(int32_t i)
{
    return (double)i;
}

static inline fpr fpr_add(fpr x, fpr y)
{
    return x + y;
}
static inline fpr fpr_sub(fpr x, fpr y)
{
    return x - y;
}
static inline void fpr_addsub(fpr x, fpr y, fpr *sum, fpr *diff)
{
    *sum = x + y;
    *diff = x - y;
}
static inline fpr fpr_neg(fpr x)
{
    return -x;
}
static inline fpr fpr_half(fpr x)
{
    return x * 0.5;
}
static inline fpr fpr_double(fpr x)
{
    return x + x;
}
static inline fpr fpr_mul(fpr x, fpr y)
{
    return x * y;
}
static inline fpr fpr_sqr(fpr x)
{
    return x * x;
}
static inline fpr fpr_div(fpr x, fpr y)
{
    return x / y;
}
static inline fpr fpr_inv(fpr x)
{
    return 1.0 / x;
}
static inline fpr fpr_sqrt(fpr x)
{
    return __builtin_sqrt(x);
}
static inline int fpr_lt(fpr x, fpr y)
{
    return x < y;
}
static inline int64_t fpr_rint(fpr x)
{
    return fpr_bits_to_int(fpr_to_bits(x), 0);
}
static inline int64_t fpr_floor(fpr x)
{
    return fpr_bits_to_int(fpr_to_bits(x), 1);
}
static inline int64_t fpr_trunc(fpr x)
{
    return fpr_bits_to_int(fpr_to_bits(x), 2);
}

#else
/* ====================================================================== */
/* Integer emulation of binary64.                                          */

typedef uint64_t fpr;

#define FPR(bits, dbl) ((fpr)(bits))

static inline uint64_t fpr_to_bits(fpr x)
{
    return x;
}
static inline fpr fpr_from_bits(uint64_t u)
{
    return u;
}

#define fpr_build PQLAB_NAMESPACE(fndsa_fpr_build)
#ifdef PQLAB_FNDSA_FPR_EMU_NATIVE
/* Native kernels of the emulation (lib/native/api.h: declared there, provided by the
 * backend, e.g. lib/native/armv7em/fpr_emu.S): the same results bit for bit, constant time
 * as well. The symbols are shared by every implementation built with that backend (no
 * per-implementation state). fpr_emu.c then omits its C versions of these six. add, addsub
 * and mul, the hot ones, are inlined when the backend names a header with them
 * (PQLAB_FNDSA_FPR_EMU_INLINE_HEADER, which api.h includes): no call, return or push/pop
 * per operation. */
#define fpr_of pqlab_fndsa_fpr_of_native
#if defined(PQLAB_FNDSA_FPR_EMU_NO_INLINE) || !defined(PQLAB_FNDSA_FPR_EMU_INLINE_HEADER)
/* smaller code (about 18 KB less for Falcon-512), about 15 % slower signing */
#define fpr_add pqlab_fndsa_fpr_add_native
#define fpr_addsub pqlab_fndsa_fpr_addsub_native
#define fpr_mul pqlab_fndsa_fpr_mul_native
#else
#define fpr_add pqlab_fndsa_fpr_add_inline
#define fpr_addsub pqlab_fndsa_fpr_addsub_inline
#define fpr_mul pqlab_fndsa_fpr_mul_inline
#endif
/* division by a reciprocal in C (fpr_emu.c, fpr_div_nr): about 4x faster than the
 * 56-step assembly pqlab_fndsa_fpr_div_native, which stays for comparison */
#define fpr_div fpr_div_nr
#define fpr_sqrt pqlab_fndsa_fpr_sqrt_native
#else
#define fpr_of PQLAB_NAMESPACE(fndsa_fpr_of)
#define fpr_add PQLAB_NAMESPACE(fndsa_fpr_add)
#define fpr_addsub PQLAB_NAMESPACE(fndsa_fpr_addsub)
#define fpr_mul PQLAB_NAMESPACE(fndsa_fpr_mul)
#define fpr_div PQLAB_NAMESPACE(fndsa_fpr_div)
#define fpr_sqrt PQLAB_NAMESPACE(fndsa_fpr_sqrt)
#endif
#ifdef PQLAB_FNDSA_FPR_EMU_FPU_MUL
/* multiplication on a hardware double-precision FPU, everything else emulated: see
 * fpr_mul_fpu below */
#undef fpr_mul
#define fpr_mul fpr_mul_fpu
#endif
#define fpr_lt PQLAB_NAMESPACE(fndsa_fpr_lt)
#define fpr_div_nr PQLAB_NAMESPACE(fndsa_fpr_div_nr)

/* value = (-1)^s * z * 2^e, z == 0 or 2^54 <= z < 2^55 with bit 0 sticky */
fpr fpr_build(uint32_t s, int32_t e, uint64_t z);
fpr fpr_of(int64_t i);
fpr fpr_add(fpr x, fpr y);
/* *sum = fpr_add(x, y), *diff = fpr_sub(x, y) bit for bit, sharing the operand ordering
 * and alignment (the FFT butterflies): about three quarters of the two on Cortex-M4 */
void fpr_addsub(fpr x, fpr y, fpr *sum, fpr *diff);
#ifndef PQLAB_FNDSA_FPR_EMU_FPU_MUL
fpr fpr_mul(fpr x, fpr y);
#endif
fpr fpr_div(fpr x, fpr y);
fpr fpr_div_nr(fpr x, fpr y); /* the same results as fpr_div, by a reciprocal */
fpr fpr_sqrt(fpr x);
int fpr_lt(fpr x, fpr y);

#ifdef PQLAB_FNDSA_FPR_EMU_FPU_MUL
/* x * y with the FPU's double-precision multiply (VMUL.F64 on a Cortex-M7 with FPv5-D16),
 * operands conditioned so that its latency does not depend on them: the Cortex-M7's FP64
 * multiply takes one cycle less when an operand is zero (pqlab-sim's M7 model,
 * timing::m7_fp64_cycles: 5 cycles for equal or different exponents and for a denormal,
 * 4 for a zero), so when either operand is zero both are replaced by 1.0 (masks, no
 * branch) and the result by the zero of sign sign(x) ^ sign(y), the emulation's result.
 * Every other operand is a normal number (the emulation flushes subnormals to zero and
 * Falcon's values stay within 2^-300 .. 2^300), so the product is normal and rounded as
 * fpr_emu.c's fpr_mul rounds it: the same bits. Addition, whose FP64 latency depends on
 * the exponent difference (the Cortex-M7 study: 10 cycles for equal exponents, 16 on
 * average for random operands), stays emulated. Implementation fpu-ct (docs/fndsa.md). */
static inline fpr fpr_mul_fpu(fpr x, fpr y)
{
    /* 32-bit halves: the exponent field is in the high word */
    uint32_t xh = (uint32_t)(x >> 32), yh = (uint32_t)(y >> 32);
    /* ex - 1 has bit 31 set exactly when the exponent field ex is 0 (a flushed zero) */
    uint32_t m = (uint32_t)0 - ((((xh & 0x7FF00000u) - 1u) | ((yh & 0x7FF00000u) - 1u)) >> 31);
    uint64_t a = ((uint64_t)((xh & ~m) | (0x3FF00000u & m)) << 32) | ((uint32_t)x & ~m);
    uint64_t b = ((uint64_t)((yh & ~m) | (0x3FF00000u & m)) << 32) | ((uint32_t)y & ~m);
    double da, db, dp;
    uint64_t p;
    memcpy(&da, &a, sizeof da);
    memcpy(&db, &b, sizeof db);
    dp = da * db;
    memcpy(&p, &dp, sizeof p);
    uint32_t ph = ((uint32_t)(p >> 32) & ~m) | ((xh ^ yh) & 0x80000000u & m);
    return ((uint64_t)ph << 32) | ((uint32_t)p & ~m);
}
#endif

static inline fpr fpr_neg(fpr x)
{
    return x ^ ((uint64_t)1 << 63);
}
static inline fpr fpr_sub(fpr x, fpr y)
{
    return fpr_add(x, fpr_neg(y));
}
static inline fpr fpr_sqr(fpr x)
{
    return fpr_mul(x, x);
}
static inline fpr fpr_inv(fpr x)
{
    return fpr_div((fpr)0x3FF0000000000000u, x);
}

/* x * 2^-1 and x * 2: exponent field -/+ 1, kept at zero for zero
 * (no value in Falcon comes near the subnormal or overflow range). */
static inline fpr fpr_half(fpr x)
{
    uint64_t nz = (((x >> 52) & 0x7FF) + 0x7FF) >> 11;
    return x - (nz << 52);
}

static inline fpr fpr_double(fpr x)
{
    uint64_t nz = (((x >> 52) & 0x7FF) + 0x7FF) >> 11;
    return x + (nz << 52);
}

static inline int64_t fpr_rint(fpr x)
{
    return fpr_bits_to_int(x, 0);
}
static inline int64_t fpr_floor(fpr x)
{
    return fpr_bits_to_int(x, 1);
}
static inline int64_t fpr_trunc(fpr x)
{
    return fpr_bits_to_int(x, 2);
}

/* int32 -> fpr, exact (the same bits as fpr_of). With the Armv7E-M kernels it is
 * inlined around CLZ (a fixed-latency instruction): a = |i| normalised to bit 31,
 * exponent 1023 + 31 - clz; the leading 1 lands on bit 52 and adds the 1 that
 * the biased exponent leaves out; masked to +0 for i == 0. Elsewhere it is
 * fpr_of (a CLZ may be a table look-up in software there). */
static inline fpr fpr_of32(int32_t i)
{
#if defined(PQLAB_FNDSA_FPR_EMU_NATIVE) && defined(__GNUC__) && (!defined(__riscv) || defined(__riscv_zbb))
    /* not on RV32 without Zbb: there __builtin_clz is libgcc's __clzsi2, a table look-up */
    uint32_t s = (uint32_t)i >> 31;
    uint32_t a = ((uint32_t)i ^ ((uint32_t)0 - s)) + s;
    uint32_t nz = (a | ((uint32_t)0 - a)) >> 31;
    uint32_t c = (uint32_t)__builtin_clz(a | (nz ^ 1)); /* a == 0: any value, masked */
    uint32_t m = a << c;                                /* bit 31 set when a != 0 */
    uint32_t hi = ((1022u + 31u - c) << 20) + (m >> 11);
    uint32_t lo = m << 21;
    uint32_t mask = (uint32_t)0 - nz;
    hi = (hi & mask) | (s << 31 & mask);
    return ((uint64_t)hi << 32) | (lo & mask);
#else
    return fpr_of(i);
#endif
}

#endif

/* x * 2^e for an fpr that is zero or normal, |e| < 1000, result normal. */
static inline fpr fpr_ldexp(fpr x, int e)
{
    uint64_t u = fpr_to_bits(x);
    uint64_t nz = (((u >> 52) & 0x7FF) + 0x7FF) >> 11;
    u += (((uint64_t)(int64_t)e) << 52) & ((uint64_t)0 - nz);
    return fpr_from_bits(u);
}

/* Load / store an fpr from bytes (no alignment requirement; host byte order),
 * used for the expanded private key, which lives in a caller's byte array. */
static inline fpr fpr_load(const uint8_t *p)
{
    fpr x;
    memcpy(&x, p, sizeof x);
    return x;
}

static inline void fpr_store(uint8_t *p, fpr x)
{
    memcpy(p, &x, sizeof x);
}

#endif
