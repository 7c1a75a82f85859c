/* SPDX-License-Identifier: MIT */
/* Constant-time integer emulation of IEEE-754 binary64 (round to nearest,
 * ties to even), for the Falcon fpr layer (see fpr.h). Every function runs the
 * same instruction sequence whatever its operands: alignment and
 * normalisation shifts use masks, the 64-bit shifts go through fpr_ursh /
 * fpr_ulsh, and division / square root are fixed-length bit-serial loops.
 * Multiplications are 32x32->64 (umull on Armv7-M, constant time). */
#include "fpr.h"

#ifndef PQLAB_FNDSA_FPR_NATIVE

#define M52 ((((uint64_t)1) << 52) - 1)

/* sticky bit: 1 when any of the low n bits of x is set (0 <= n <= 63) */
static inline uint64_t low_sticky(uint64_t x, uint32_t n)
{
    return fpr_ct_iszero64(x & (fpr_ulsh(1, n) - 1)) ^ 1;
}

fpr fpr_build(uint32_t s, int32_t e, uint64_t z)
{
    /* The value z * 2^e with 2^54 <= z < 2^55 lies in [2^(e+54), 2^(e+55)),
     * so its biased exponent is E = e + 54 + 1023. z keeps 53 significant
     * bits plus a round bit (bit 1) and a sticky bit (bit 0). */
    int32_t E = e + 1077;
    uint64_t ok = (z >> 54) & 1;
    ok &= (uint64_t)((uint32_t)(-E) >> 31); /* E > 0, else underflow: flush */
    uint64_t m = z >> 2;
    /* round up when (bits 2,1,0) are x11, 11x: 0b11001000 = 0xC8 */
    m += (0xC8u >> ((uint32_t)z & 7)) & 1;
    /* m in [2^52, 2^53]: its bit 52 adds 1 to the exponent field, a rounding
     * carry to 2^53 adds one more, as it must */
    uint64_t bits = ((uint64_t)s << 63) + ((uint64_t)(uint32_t)(E - 1) << 52) + m;
    uint64_t mask = (uint64_t)0 - ok;
    return (bits & mask) | (((uint64_t)s << 63) & ~mask);
}

#ifndef PQLAB_FNDSA_FPR_EMU_NATIVE
/* fpr_of, fpr_add, fpr_addsub, fpr_mul, fpr_div, fpr_sqrt: replaced by lib/native/armv7em/fpr_emu.S
 * when the armv7em backend defines PQLAB_FNDSA_FPR_EMU_NATIVE (same results bit for bit) */
fpr fpr_of(int64_t i)
{
    uint64_t s = (uint64_t)i >> 63;
    uint64_t a = ((uint64_t)i ^ ((uint64_t)0 - s)) + s; /* |i|, 2^63 fits */
    uint32_t cnt;
    a = fpr_norm64(a, &cnt);
    /* a * 2^-cnt == |i|; keep 55 bits with the low 9 folded into sticky */
    uint64_t z = (a >> 9) | (fpr_ct_iszero64(a & 0x1FF) ^ 1);
    return fpr_build((uint32_t)s, 9 - (int32_t)cnt, z);
}

/* The common part of x + y and x - y (fpr_add, fpr_addsub): the operands ordered so that
 * |a| >= |b| (*cs = 1 when that swapped them; the same for x, -y), the exponent field of a,
 * and the significands with 3 extra low bits (guard, round, sticky), b's aligned to a's
 * exponent with the bits it loses folded into its sticky bit 0: the exact |a| +- |b| round
 * the same way as *am +- *bm, value = (*am +- *bm) * 2^(ex-1078). */
static inline uint32_t add_align(fpr x, fpr y, uint64_t *cs, uint64_t *am, uint64_t *bm)
{
    /* order the operands so that |x| >= |y| */
    uint64_t mx = x & ~((uint64_t)1 << 63);
    uint64_t my = y & ~((uint64_t)1 << 63);
    *cs = (mx - my) >> 63; /* |x| < |y| (both < 2^63) */
    uint64_t sw = ((uint64_t)0 - *cs) & (x ^ y);
    x ^= sw;
    y ^= sw;

    uint32_t ex = (uint32_t)(x >> 52) & 0x7FF;
    uint32_t ey = (uint32_t)(y >> 52) & 0x7FF;
    uint64_t nzx = ((uint64_t)ex + 0x7FF) >> 11;
    uint64_t nzy = ((uint64_t)ey + 0x7FF) >> 11;
    /* 53-bit significands with 3 extra low bits: xm in [2^55, 2^56) */
    uint64_t xm = (((x & M52) | (nzx << 52)) & ((uint64_t)0 - nzx)) << 3;
    uint64_t ym = (((y & M52) | (nzy << 52)) & ((uint64_t)0 - nzy)) << 3;

    /* align y; beyond 60 positions y only contributes to the sticky bit */
    uint32_t d = ex - ey;
    d ^= (d ^ 60) & ((uint32_t)0 - ((uint32_t)(60 - (int32_t)d) >> 31));
    uint64_t st = low_sticky(ym, d);
    *am = xm;
    *bm = fpr_ursh(ym, d) | st;
    return ex;
}

/* Normalise, round and pack z * 2^(ex-1078), z < 2^57: sign s, or s0 when z == 0. */
static inline fpr add_finish(uint32_t s, uint32_t s0, uint32_t ex, uint64_t z)
{
    uint64_t zz = fpr_ct_iszero64(z);
    /* normalise: after the shift by cnt to bit 63 and the fold of 9 low bits,
     * value = z' * 2^(ex-1078-cnt+9) */
    uint32_t cnt;
    z = fpr_norm64(z, &cnt);
    z = (z >> 9) | (fpr_ct_iszero64(z & 0x1FF) ^ 1);
    z &= (uint64_t)0 - (zz ^ 1);
    s ^= (s ^ s0) & (uint32_t)(0 - (uint32_t)zz);
    return fpr_build(s, (int32_t)ex - 1069 - (int32_t)cnt, z);
}

fpr fpr_add(fpr x, fpr y)
{
    uint64_t cs, xm, ym;
    uint32_t ex = add_align(x, y, &cs, &xm, &ym);
    uint32_t sx = (uint32_t)(x >> 63), sy = (uint32_t)(y >> 63);
    /* add or subtract: result in [0, 2^57) */
    uint64_t ds = (uint64_t)(sx ^ sy);
    ym = (ym ^ ((uint64_t)0 - ds)) + ds;
    /* sign of the larger operand; an exact zero is +0 unless both operands are -0 */
    uint32_t s = sx ^ ((sx ^ sy) & (uint32_t)cs);
    return add_finish(s, sx & sy, ex, xm + ym);
}

/* x + y and x - y = x + (-y): both order the operands the same way (|-y| = |y|), so
 * the alignment is shared; the significands of one are added where those of the other
 * are subtracted. Bit for bit fpr_add(x, y) and fpr_sub(x, y). */
void fpr_addsub(fpr x, fpr y, fpr *sum, fpr *diff)
{
    uint64_t cs, xm, ym;
    uint32_t ex = add_align(x, y, &cs, &xm, &ym);
    uint32_t sx = (uint32_t)(x >> 63), sy = (uint32_t)(y >> 63);
    uint64_t zp = xm + ym, zm = xm - ym; /* |a| + |b|, |a| - |b| >= 0 */
    uint64_t t = (zp ^ zm) & ((uint64_t)0 - (uint64_t)(sx ^ sy));
    /* nonzero: x + y has the sign of the larger operand, x - y that of x, or of -y
     * when |x| < |y|; exact zeros: -0 only for (-0) + (-0) and (-0) - (+0) */
    uint32_t s = sx ^ ((sx ^ sy) & (uint32_t)cs);
    uint32_t sd = sx ^ ((sx ^ sy ^ 1) & (uint32_t)cs);
    *sum = add_finish(s, sx & sy, ex, zp ^ t);
    *diff = add_finish(sd, sx & (sy ^ 1), ex, zm ^ t);
}

#ifndef PQLAB_FNDSA_FPR_EMU_FPU_MUL /* fpr.h: fpr_mul_fpu */
fpr fpr_mul(fpr x, fpr y)
{
    uint32_t ex = (uint32_t)(x >> 52) & 0x7FF;
    uint32_t ey = (uint32_t)(y >> 52) & 0x7FF;
    uint32_t s = (uint32_t)((x ^ y) >> 63);
    uint64_t nzx = ((uint64_t)ex + 0x7FF) >> 11;
    uint64_t nzy = ((uint64_t)ey + 0x7FF) >> 11;
    uint64_t xm = ((x & M52) | (nzx << 52)) & ((uint64_t)0 - nzx);
    uint64_t ym = ((y & M52) | (nzy << 52)) & ((uint64_t)0 - nzy);

    /* 106-bit product from four 32x32->64 products: x1, y1 < 2^21 */
    uint32_t x0 = (uint32_t)xm, x1 = (uint32_t)(xm >> 32);
    uint32_t y0 = (uint32_t)ym, y1 = (uint32_t)(ym >> 32);
    uint64_t a = (uint64_t)x0 * y0;
    uint64_t b = (uint64_t)x0 * y1;
    uint64_t c = (uint64_t)x1 * y0;
    uint64_t dd = (uint64_t)x1 * y1;
    uint64_t t = (a >> 32) + (uint32_t)b + (uint32_t)c;
    uint64_t lo = (t << 32) | (uint32_t)a;
    t = (t >> 32) + (b >> 32) + (c >> 32) + dd; /* < 2^42 */
    uint64_t hi = t;

    /* product in [2^104, 2^106): z = product >> 50 in [2^54, 2^56) */
    uint64_t z = (hi << 14) | (lo >> 50);
    z |= fpr_ct_iszero64(lo & ((((uint64_t)1) << 50) - 1)) ^ 1;
    uint64_t top = z >> 55; /* z >= 2^55: one more right shift */
    /* z >> top (top is 0 or 1) as a select: a shift by a variable count is a branch on
     * RV32 (fpr_ursh) */
    z = (((z >> 1) & ((uint64_t)0 - top)) | (z & (top - 1))) | (z & top);
    int32_t e = (int32_t)ex + (int32_t)ey - 2100 + (int32_t)top;
    return fpr_build(s, e, z);
}

#endif /* PQLAB_FNDSA_FPR_EMU_FPU_MUL */

#endif /* PQLAB_FNDSA_FPR_EMU_NATIVE */

/* Division by a reciprocal (fpr_div_nr): the same results as fpr_div bit for bit, in
 * about a quarter of its time on Cortex-M4 (the C restoring division and its assembly
 * spend 56 serial steps). With the armv7em kernels, fpr.h maps fpr_div to it.
 * Constant time where 32x32->64 multiplications are (UMULL/SMULL on Cortex-M4/M7):
 * fixed sequence, no branch, no table.
 * q = floor(xm 2^55 / ym) for ym in [2^52, 2^53), xm = 0 or in [2^52, 2^53):
 *  1. x ~ 1/d for d = D / 2^32, D = ym >> 21 in [2^31, 2^32): x0 = 48/17 - 32/17 d (the
 *     minimax line, |1 - d x0| <= 1/17), then three Newton steps x += x (1 - d x) in
 *     32-bit fixed point (x in units of 2^-31, below 2^32 since x <= 1/d <= 2 and the
 *     steps round down). An exhaustive run over all 2^31 values of D gives
 *     |1 - d x| <= 2^-29.79 afterwards (the last step is limited by 32-bit precision).
 *  2. One Newton step in 64 bits with the full ym: R = x 2^62 ~ 2^115 / ym,
 *     E = 2^115 - ym R; |E| < 2^85.7 (the bound above plus 2^-31 for the 21 bits of ym
 *     below D), so E is taken from bits 56..87 of -(ym R) mod 2^96 as a signed 32-bit
 *     value (|E >> 56| < 2^29.7); R += floor(R (E >> 56) / 2^59). Relative error of R
 *     then about 2^-58 (squared error 2^-59.6 + truncations).
 *  3. q = floor(16 xm R / 2^64) is within 2 of the quotient (1 in 3 * 10^7 random and
 *     edge operand pairs); the remainder xm 2^55 - q ym, exact modulo 2^64 and small,
 *     corrects it with two masked steps each way. rem is the final remainder. */
static inline uint64_t mulhi64(uint64_t a, uint64_t b)
{
    uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
    uint64_t lo = a0 * b0, m1 = a0 * b1, m2 = a1 * b0, hi = a1 * b1;
    uint64_t mid = (lo >> 32) + (uint32_t)m1 + (uint32_t)m2;
    return hi + (m1 >> 32) + (m2 >> 32) + (mid >> 32);
}

static inline uint64_t divq_recip(uint64_t xm, uint64_t ym, uint64_t *rem)
{
    uint32_t D = (uint32_t)(ym >> 21);
    /* 48/17 2^31 = 6063487155.2, 32/17 2^31 = 4042324770.1 */
    uint32_t X = (uint32_t)(6063487155u - (((uint64_t)D * 4042324770u) >> 32));
    for (int i = 0; i < 3; i++) {
        int64_t E = (int64_t)(((uint64_t)1 << 63) - (uint64_t)D * X); /* (1 - d x) 2^63 */
        int32_t Eh = (int32_t)(E >> 32);
        X = (uint32_t)((int64_t)X + (((int64_t)X * Eh) >> 31));
    }
    uint64_t R = (uint64_t)X << 31;
    /* W = ym R mod 2^96 (words w2:w1:w0), then bits 56..87 of -W */
    uint32_t yl = (uint32_t)ym, yh = (uint32_t)(ym >> 32), rl = (uint32_t)R, rh = (uint32_t)(R >> 32);
    uint64_t p0 = (uint64_t)yl * rl, p1 = (uint64_t)yl * rh, p2 = (uint64_t)yh * rl;
    uint64_t t1 = (p0 >> 32) + (uint32_t)p1 + (uint32_t)p2;
    uint64_t w01 = (t1 << 32) | (uint32_t)p0;
    uint32_t w2 = (uint32_t)(t1 >> 32) + (uint32_t)(p1 >> 32) + (uint32_t)(p2 >> 32) + yh * rh;
    uint64_t n01 = (uint64_t)0 - w01;
    uint32_t n2 = (uint32_t)0 - w2 - (uint32_t)((w01 | n01) >> 63); /* borrow when w01 != 0 */
    int32_t Es = (int32_t)((uint32_t)(n01 >> 56) | (n2 << 8));
    int64_t A = (int64_t)rh * Es, B = (int64_t)rl * Es;
    R = (uint64_t)((int64_t)R + ((A + (B >> 32)) >> 27));
    uint64_t q = mulhi64(xm << 4, R);
    uint64_t r = (xm << 55) - q * ym; /* the true remainder, modulo 2^64 */
    for (int i = 0; i < 2; i++) {
        uint64_t neg = (uint64_t)((int64_t)r >> 63);
        q += neg;
        r += ym & neg;
    }
    for (int i = 0; i < 2; i++) {
        uint64_t t = r - ym;
        uint64_t ge = ~(uint64_t)((int64_t)t >> 63);
        q -= ge;
        r ^= (r ^ t) & ge;
    }
    *rem = r;
    return q;
}

/* restoring division, 56 quotient bits: q = floor(xm * 2^55 / ym), r the remainder
 * (shifted left once, which keeps it nonzero exactly when the remainder is) */
static inline uint64_t divq_restoring(uint64_t xm, uint64_t ym, uint64_t *rem)
{
    uint64_t r = xm, q = 0;
    for (int i = 0; i < 56; i++) {
        uint64_t b = ((r - ym) >> 63) ^ 1; /* r >= ym */
        r -= ym & ((uint64_t)0 - b);
        q = (q << 1) | b;
        r <<= 1;
    }
    *rem = r;
    return q;
}

/* x / y with the 56-bit quotient from divq: q in [2^54, 2^56) since xm / ym is in
 * (1/2, 2), r < 2 * ym < 2^54; the sticky bit is (r != 0). */
static inline fpr div_with(fpr x, fpr y, uint64_t (*divq)(uint64_t, uint64_t, uint64_t *))
{
    uint32_t ex = (uint32_t)(x >> 52) & 0x7FF;
    uint32_t ey = (uint32_t)(y >> 52) & 0x7FF;
    uint32_t s = (uint32_t)((x ^ y) >> 63);
    uint64_t nzx = ((uint64_t)ex + 0x7FF) >> 11;
    uint64_t xm = ((x & M52) | (nzx << 52)) & ((uint64_t)0 - nzx);
    uint64_t ym = (y & M52) | ((uint64_t)1 << 52);
    uint64_t r;
    uint64_t q = divq(xm, ym, &r);
    q |= fpr_ct_iszero64(r) ^ 1;
    uint64_t top = q >> 55;
    q = (((q >> 1) & ((uint64_t)0 - top)) | (q & (top - 1))) | (q & top); /* q >> top */
    /* value = q * 2^(ex - ey - 55) */
    int32_t e = (int32_t)ex - (int32_t)ey - 55 + (int32_t)top;
    return fpr_build(s, e, q & ((uint64_t)0 - nzx));
}

fpr fpr_div_nr(fpr x, fpr y)
{
    return div_with(x, y, divq_recip);
}

#ifndef PQLAB_FNDSA_FPR_EMU_NATIVE
fpr fpr_div(fpr x, fpr y)
{
    return div_with(x, y, divq_restoring);
}

fpr fpr_sqrt(fpr x)
{
    uint32_t ex = (uint32_t)(x >> 52) & 0x7FF;
    uint64_t nzx = ((uint64_t)ex + 0x7FF) >> 11;
    uint64_t m = ((x & M52) | (nzx << 52)) & ((uint64_t)0 - nzx);
    /* x = m * 2^E with E = ex - 1075; make E even: when ex is even, E is odd,
     * so double m and decrement E. Then m in [2^52, 2^54). */
    uint64_t odd = (uint64_t)((ex & 1) ^ 1);
    m += m & ((uint64_t)0 - odd); /* m <<= odd, without a variable shift */
    int32_t E = (int32_t)ex - 1075 - (int32_t)odd;
    /* bit-serial square root of M = m * 2^56 (110 bits): y = floor(sqrt(M)) in
     * [2^54, 2^55); bit pairs of M below position 56 are zero. The remainder
     * satisfies rem <= 2y < 2^56, and rem * 4 + 3 < 2^58. */
    uint64_t y = 0, rem = 0;
    for (int i = 54; i >= 0; i--) {
        uint64_t pair = 0;
        if (i >= 28) {
            pair = (m >> (2 * i - 56)) & 3; /* i is public: the branch is not */
        }
        rem = (rem << 2) | pair;
        uint64_t t = (y << 2) | 1;
        uint64_t b = ((rem - t) >> 63) ^ 1; /* rem >= t */
        rem -= t & ((uint64_t)0 - b);
        y = (y << 1) | b;
    }
    y |= fpr_ct_iszero64(rem) ^ 1;
    /* sqrt(x) = sqrt(M) * 2^((E - 56) / 2), E - 56 even */
    return fpr_build(0, (E - 56) / 2, y);
}
#endif /* PQLAB_FNDSA_FPR_EMU_NATIVE */

int fpr_lt(fpr x, fpr y)
{
    /* map bit patterns to integers ordered like the values */
    int64_t a = (int64_t)(x ^ ((uint64_t)((int64_t)x >> 63) >> 1));
    int64_t b = (int64_t)(y ^ ((uint64_t)((int64_t)y >> 63) >> 1));
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
    uint64_t d = ua - ub;
    /* signed a < b: sign of (a - b) corrected for overflow */
    uint64_t lt = (d ^ ((ua ^ ub) & (d ^ ua))) >> 63;
    return (int)lt;
}

#else
/* keep the translation unit non-empty for the native build */
typedef int pqlab_fndsa_fpr_emu_unused;
#endif
