/* SPDX-License-Identifier: MIT */
/* Constant-time emulated IEEE-754 binary64 arithmetic for FN-DSA / Falcon on ARMv7E-M
 * (Cortex-M4/M7), Thumb-2, GNU as unified syntax. Enabled by PQLAB_FNDSA_FPR_EMU_NATIVE
 * (backend.toml); lib/fndsa/fpr.h maps fpr_of / fpr_div / fpr_sqrt to these and fpr_add /
 * fpr_addsub / fpr_mul to the same add / addsub / mul bodies as inline assembly
 * (fpr_emu_inline.h, generated from this file by gen_fpr_emu_inline.py: keep those three
 * straight-line, registers r0-r7, r12, lr only); lib/fndsa/fpr_emu.c keeps the portable C
 * versions for every other platform.
 *
 *   uint64_t pqlab_fndsa_fpr_add_native(uint64_t x, uint64_t y);   x + y
 *   void pqlab_fndsa_fpr_addsub_native(uint64_t x, uint64_t y, uint64_t *sum, uint64_t *diff);
 *                                                                  x + y, x - y
 *   uint64_t pqlab_fndsa_fpr_mul_native(uint64_t x, uint64_t y);   x * y
 *   uint64_t pqlab_fndsa_fpr_div_native(uint64_t x, uint64_t y);   x / y
 *   uint64_t pqlab_fndsa_fpr_sqrt_native(uint64_t x);              sqrt(|x|)
 *   uint64_t pqlab_fndsa_fpr_of_native(int64_t i);                 (double) i
 *
 * Operands and results are binary64 bit patterns (AAPCS: x or i in r1:r0, y in r3:r2,
 * result in r1:r0). Written from the IEEE 754-2008 definition of binary64 (sign, 11-bit biased
 * exponent, 52-bit trailing significand, implicit leading 1, round to nearest, ties to
 * even). Same contract as the portable emulation in lib/fndsa/fpr_emu.c, bit for bit:
 * subnormal operands count as zero, a result below the normal range is flushed to a zero
 * of the result's sign (an exact zero sum is +0 unless both operands are -0), infinities
 * and NaNs are not handled (Falcon never produces them) and an exponent overflow wraps as
 * in the C code.
 *
 * Constant time: no branch, no memory access (but addsub's two result stores at public
 * addresses), no division; every instruction runs in a
 * fixed number of cycles on Cortex-M4/M7 (register-controlled shifts, CLZ, USAT, UADD8 /
 * SEL, UMULL / UMAAL, MLA, MUL). Shifts by register use the bottom byte of the shift
 * register (ARMv7-M ARM, A7.4.2: "shift_n = UInt(Rm<7:0>)"), so any amount >= 32 gives 0;
 * the 64-bit shifts below rely on it for negative amounts (bottom byte >= 193).
 * Every instruction is a 32-bit encoding (.w), so runs of them stay word aligned. */
#include "pqlab_config.h" /* an export's symbol namespace (docs/export.md); empty in the tree */
    .syntax unified
    .thumb

/* ------------------------------------------------------------------------------------ */
/* x + y                                                                                */
/*   1. order the operands so that |x| >= |y| (64-bit compare of the patterns without    */
/*      sign bit, then four SELs);                                                      */
/*   2. significands with the implicit bit at bit 62 (10 guard bits below), multiplied  */
/*      by 0 when the exponent field is 0 (MUL is single-cycle, data-independent);     */
/*   3. shift y right by d = min(ex - ey, 63); bit 0 of the result becomes the sticky   */
/*      bit ("jam"): 1 when any of the low d + 1 bits of y was set;                     */
/*   4. add or subtract (x + ~y + 1 when the signs differ): z in [0, 2^64);             */
/*   5. normalise with CLZ (64-bit shift left by cnt, cnt = 64 for z = 0);              */
/*   6. keep 53 bits, round to nearest even on the 11 bits below;                       */
/*   7. biased exponent - 1 = ex - cnt; the implicit bit of the rounded significand adds  */
/*      the missing 1 (and a rounding carry to 2^53 one more); flush when z == 0 or      */
/*      ex - cnt < 0.                                                                    */
/* Why one jam bit is enough: when bits are lost (d >= 11), the exact sum lies strictly  */
/* between the even neighbours of the computed (odd) z, and at most one bit cancels, so  */
/* at least 9 bits are dropped by the rounding and no rounding boundary separates them.  */
/* ------------------------------------------------------------------------------------ */
    .section .text.pqlab_fndsa_fpr_add_native, "ax", %progbits
    .balign 4
    .global pqlab_fndsa_fpr_add_native
    .type pqlab_fndsa_fpr_add_native, %function
    .thumb_func
pqlab_fndsa_fpr_add_native:
    push.w  {r4-r7, lr}
    /* 1. swap when |x| < |y| */
    subs.w  r4, r0, r2
    lsl.w   r5, r1, #1
    sbcs.w  r4, r5, r3, lsl #1          /* C = 0 iff |x| < |y| */
    sbc.w   r4, r4, r4                  /* -1 iff |x| < |y| */
    uadd8   r4, r4, r4                  /* GE = 1111 iff swap */
    sel     r4, r2, r0                  /* x lo */
    sel     r5, r3, r1                  /* x hi (sign, exponent, top significand) */
    sel     r6, r0, r2                  /* y lo */
    sel     r7, r1, r3                  /* y hi */
    /* exponents, sign difference, alignment distance */
    ubfx.w  r0, r5, #20, #11            /* ex */
    ubfx.w  r1, r7, #20, #11            /* ey */
    sub.w   r2, r0, r1
    usat.w  r2, #6, r2                  /* d = min(ex - ey, 63) (ex >= ey) */
    /* 2. x significand << 10 in r3:r4 (bits 63..62 = 0, nz), times nz = (ex != 0) */
    usat.w  r12, #1, r0                 /* nz: 1 iff ex != 0 */
    lsl.w   r3, r5, #10
    bfi.w   r3, r12, #30, #2            /* implicit bit (and bit 63 = 0) */
    orr.w   r3, r3, r4, lsr #22
    lsl.w   r4, r4, #10
    mul.w   r3, r3, r12
    mul.w   r4, r4, r12
    /* y significand << 10 in lr:r6, zero when ey == 0 */
    usat.w  r12, #1, r1
    lsl.w   lr, r7, #10
    bfi.w   lr, r12, #30, #2
    orr.w   lr, lr, r6, lsr #22
    lsl.w   r6, r6, #10
    mul.w   lr, lr, r12
    mul.w   r6, r6, r12
    /* 3. sticky: the low d + 1 bits of y, gathered (nonzero iff one is set) */
    rsb.w   r1, r2, #31
    usat.w  r1, #5, r1                  /* max(0, 31 - d) */
    lsl.w   r1, r6, r1                  /* low min(d + 1, 32) bits of y lo, at the top */
    rsb.w   r12, r2, #63
    lsl.w   r12, lr, r12                /* low d - 31 bits of y hi (0 when d < 32) */
    orr.w   r1, r1, r12
    /* y >> d (64-bit) */
    lsr.w   r6, r6, r2
    rsb.w   r12, r2, #32
    lsl.w   r12, lr, r12                /* 0 when d == 0 or d > 32 */
    orr.w   r6, r6, r12
    sub.w   r12, r2, #32
    lsr.w   r12, lr, r12                /* 0 when d < 32 */
    orr.w   r6, r6, r12
    lsr.w   lr, lr, r2
    /* jam: bit 0 <- sticky */
    bic.w   r6, r6, #1
    cmp.w   r1, #1                      /* C = sticky != 0 */
    adc.w   r6, r6, #0
    /* 4. z = x + y, or x + ~y + 1 = x - y when the signs differ (carry in = 1) */
    eor.w   r12, r5, r7                 /* bit 31: signs differ */
    eor.w   r6, r6, r12, asr #31
    eor.w   lr, lr, r12, asr #31
    lsls.w  r12, r12, #1                /* C = signs differ */
    adcs.w  r4, r4, r6
    adc.w   r3, r3, lr                  /* z = r3:r4 */
    /* 5. cnt = clz64(z) (64 when z == 0), z <<= cnt */
    clz.w   r1, r3
    clz.w   r2, r4
    lsr.w   r12, r1, #5                 /* 1 iff z hi == 0 */
    mla.w   r1, r12, r2, r1
    lsl.w   r3, r3, r1
    rsb.w   r12, r1, #32
    lsr.w   r12, r4, r12                /* 0 when cnt == 0 or cnt > 32 */
    orr.w   r3, r3, r12
    sub.w   r12, r1, #32
    lsl.w   r12, r4, r12                /* 0 when cnt < 32 */
    orr.w   r3, r3, r12
    lsl.w   r4, r4, r1
    /* 6. m = z >> 11 rounded to nearest even: z + 0x3FF + lsb carries into bit 11 iff the */
    /*    11 dropped bits exceed half an ulp, or equal it with lsb = 1; a carry out of bit */
    /*    63 (z was 2^64 - 2^11 + ...) comes back in as bit 21 of m hi through RRX         */
    ubfx.w  r12, r4, #11, #1            /* lsb */
    addw    r12, r12, #0x3FF
    adds.w  r4, r4, r12
    adcs.w  r3, r3, #0
    lsr.w   r4, r4, #11
    orr.w   r4, r4, r3, lsl #21         /* m lo */
    rrx.w   r3, r3
    lsr.w   r3, r3, #10                 /* m hi (2^21 after a carry out) */
    /* 7. exponent, flush, sign */
    sub.w   r0, r0, r1                  /* e = ex - cnt: biased exponent - 1 */
    lsl.w   r12, r1, #25                /* bit 31: z == 0 (cnt == 64) */
    orr.w   r2, r12, r0                 /* bit 31: z == 0 or e < 0 */
    asr.w   r2, r2, #31                 /* flush mask */
    add.w   r3, r3, r0, lsl #20
    bic.w   r3, r3, r2
    bic.w   r0, r4, r2                  /* result lo */
    bic.w   r12, r12, r7                /* bit 31: z == 0 and y >= 0 */
    bic.w   r12, r5, r12                /* bit 31: sign of x, or sx & sy for an exact zero */
    and.w   r12, r12, #0x80000000
    add.w   r1, r3, r12                 /* result hi */
    pop.w   {r4-r7, pc}
    .size pqlab_fndsa_fpr_add_native, . - pqlab_fndsa_fpr_add_native

/* ------------------------------------------------------------------------------------ */
/* x + y and x - y together (fpr_addsub in lib/fndsa/fpr.h): the same results bit for   */
/* bit as the add above on (x, y) and on (x, -y). Both order the operands the same way  */
/* (|-y| = |y|), so the swap, the unpacking, the alignment shift and the sticky are done */
/* once; with A, B the ordered operands (|A| >= |B|) and op = the signs of x, y differ:  */
/*   - significands: z+ = A + B' + op and z- = A + ~B' + !op with B' = B ^ -op, i.e.    */
/*     |A| + |B| for x + y and |A| - |B| for x - y when op = 0, the other way round     */
/*     when op = 1 (no select);                                                          */
/*   - each is normalised, rounded and packed as in the add (steps 5 to 7);              */
/*   - signs: x + y when nonzero has the sign of A, x - y that of x, or of -y when       */
/*     swapped (sign of A ^ swap). An exact zero x + y is -0 only for (-0) + (-0) and   */
/*     x - y only for (-0) - (+0): that is the nonzero rule's sign unless the result is  */
/*     an exact cancellation (z+ == 0 with op = 1, z- == 0 with op = 0), which gives +0. */
/*     sg keeps the two signs in bits 31 (sum) and 30 (difference), r12 = -op.          */
/*   void pqlab_fndsa_fpr_addsub_native(uint64_t x, uint64_t y, uint64_t *sum,           */
/*                                      uint64_t *diff);                                 */
/* Straight-line like the add; the stores through the (public) pointer arguments at the */
/* end are the only memory accesses besides push/pop, and the inline form               */
/* (fpr_emu_inline.h) has none: it leaves x + y in r1:r0 and x - y in r5:r4.             */
/* ------------------------------------------------------------------------------------ */
    .section .text.pqlab_fndsa_fpr_addsub_native, "ax", %progbits
    .balign 4
    .global pqlab_fndsa_fpr_addsub_native
    .type pqlab_fndsa_fpr_addsub_native, %function
    .thumb_func
pqlab_fndsa_fpr_addsub_native:
    push.w  {r4-r7, lr}
    /* swap when |x| < |y|, as in the add */
    subs.w  r4, r0, r2
    lsl.w   r5, r1, #1
    sbcs.w  r4, r5, r3, lsl #1          /* C = 0 iff |x| < |y| */
    sbc.w   r4, r4, r4                  /* -1 iff |x| < |y| */
    uadd8   r4, r4, r4                  /* GE = 1111 iff swap */
    sel     r4, r2, r0                  /* A lo */
    sel     r5, r3, r1                  /* A hi */
    sel     r6, r0, r2                  /* B lo */
    sel     r7, r1, r3                  /* B hi */
    /* signs (bit 31 of x hi in r1, y hi in r3) */
    eor.w   lr, r1, r3                  /* bit 31: op */
    mvn.w   r3, r3                      /* bit 31: sign of -y */
    sel     r1, r3, r1                  /* bit 31: sign of x - y (-y if swapped, else x) */
    and.w   r2, r5, #0x80000000         /* bit 31: sign of x + y (of A) */
    orr.w   r2, r2, r1, lsr #1          /* sg: bit 30 sign of x - y (bits 29..0 unused) */
    /* exponents, alignment distance */
    ubfx.w  r0, r5, #20, #11            /* ex */
    ubfx.w  r1, r7, #20, #11            /* ey */
    sub.w   r3, r0, r1
    usat.w  r3, #6, r3                  /* d = min(ex - ey, 63) (ex >= ey) */
    /* A significand << 10 in r5:r4 (bits 63..62 = 0, nz), times nz = (ex != 0) */
    usat.w  r12, #1, r0                 /* nz: 1 iff ex != 0 */
    lsl.w   r5, r5, #10
    bfi.w   r5, r12, #30, #2            /* implicit bit (and bit 63 = 0) */
    orr.w   r5, r5, r4, lsr #22
    lsl.w   r4, r4, #10
    mul.w   r5, r5, r12
    mul.w   r4, r4, r12
    /* B significand << 10 in r7:r6, zero when ey == 0 */
    usat.w  r12, #1, r1
    lsl.w   r7, r7, #10
    bfi.w   r7, r12, #30, #2
    orr.w   r7, r7, r6, lsr #22
    lsl.w   r6, r6, #10
    mul.w   r7, r7, r12
    mul.w   r6, r6, r12
    /* sticky: the low d + 1 bits of B, gathered (nonzero iff one is set) */
    rsb.w   r1, r3, #31
    usat.w  r1, #5, r1                  /* max(0, 31 - d) */
    lsl.w   r1, r6, r1                  /* low min(d + 1, 32) bits of B lo, at the top */
    rsb.w   r12, r3, #63
    lsl.w   r12, r7, r12                /* low d - 31 bits of B hi (0 when d < 32) */
    orr.w   r1, r1, r12
    /* B >> d (64-bit) */
    lsr.w   r6, r6, r3
    rsb.w   r12, r3, #32
    lsl.w   r12, r7, r12                /* 0 when d == 0 or d > 32 */
    orr.w   r6, r6, r12
    sub.w   r12, r3, #32
    lsr.w   r12, r7, r12                /* 0 when d < 32 */
    orr.w   r6, r6, r12
    lsr.w   r7, r7, r3
    /* jam: bit 0 <- sticky */
    bic.w   r6, r6, #1
    cmp.w   r1, #1                      /* C = sticky != 0 */
    adc.w   r6, r6, #0
    /* z+ = A + B' + op in r3:r1, z- = A + ~B' + !op in r5:r4 (B' = B ^ -op); r12 = -op */
    /* stays for the signs */
    asr.w   r12, lr, #31                /* -op */
    eor.w   r6, r6, r12
    eor.w   r7, r7, r12
    lsls.w  lr, lr, #1                  /* C = op */
    adcs.w  r1, r4, r6
    adc.w   r3, r5, r7                  /* z+ */
    rsbs.w  lr, r12, #0                 /* C = !op */
    sbcs.w  r4, r4, r6
    sbc.w   r5, r5, r7                  /* z- */
    /* x - y from z-, as the add's steps 5-7 (temporaries r6, r7, lr): into r5:r4 */
    clz.w   r6, r5
    clz.w   r7, r4
    lsr.w   lr, r6, #5                  /* 1 iff z hi == 0 */
    mla.w   r6, lr, r7, r6              /* cnt = clz64(z), 64 when z == 0 */
    lsl.w   r5, r5, r6
    rsb.w   r7, r6, #32
    lsr.w   r7, r4, r7                  /* 0 when cnt == 0 or cnt > 32 */
    orr.w   r5, r5, r7
    sub.w   r7, r6, #32
    lsl.w   r7, r4, r7                  /* 0 when cnt < 32 */
    orr.w   r5, r5, r7
    lsl.w   r4, r4, r6
    ubfx.w  r7, r4, #11, #1             /* lsb */
    addw    r7, r7, #0x3FF
    adds.w  r4, r4, r7
    adcs.w  r5, r5, #0
    lsr.w   r4, r4, #11
    orr.w   r4, r4, r5, lsl #21         /* m lo */
    rrx.w   r5, r5
    lsr.w   r5, r5, #10                 /* m hi (2^21 after a carry out) */
    sub.w   r7, r0, r6                  /* e = ex - cnt: biased exponent - 1 */
    orr.w   lr, r7, r6, lsl #25         /* bit 31: z == 0 (cnt == 64) or e < 0 */
    asr.w   lr, lr, #31                 /* flush mask */
    add.w   r5, r5, r7, lsl #20
    bic.w   r5, r5, lr
    bic.w   r4, r4, lr                  /* x - y lo */
    bic.w   r7, r6, r12                 /* bit 6: z == 0 and op = 0, an exact cancellation */
    bic.w   r7, r2, r7, lsl #24         /* bit 30: the sign, +0 for that */
    lsr.w   r7, r7, #30
    add.w   r5, r5, r7, lsl #31         /* x - y hi */
    /* x + y from z+, the same on r3:r1, into r1:r0 */
    clz.w   r6, r3
    clz.w   r7, r1
    lsr.w   lr, r6, #5
    mla.w   r6, lr, r7, r6              /* cnt */
    lsl.w   r3, r3, r6
    rsb.w   r7, r6, #32
    lsr.w   r7, r1, r7
    orr.w   r3, r3, r7
    sub.w   r7, r6, #32
    lsl.w   r7, r1, r7
    orr.w   r3, r3, r7
    lsl.w   r1, r1, r6
    ubfx.w  r7, r1, #11, #1
    addw    r7, r7, #0x3FF
    adds.w  r1, r1, r7
    adcs.w  r3, r3, #0
    lsr.w   r1, r1, #11
    orr.w   r1, r1, r3, lsl #21         /* m lo */
    rrx.w   r3, r3
    lsr.w   r3, r3, #10                 /* m hi */
    sub.w   r0, r0, r6                  /* e = ex - cnt */
    orr.w   lr, r0, r6, lsl #25
    asr.w   lr, lr, #31                 /* flush mask */
    add.w   r3, r3, r0, lsl #20
    bic.w   r3, r3, lr
    bic.w   r0, r1, lr                  /* x + y lo */
    and.w   r12, r6, r12                /* bit 6: z == 0 and op = 1, an exact cancellation */
    bic.w   r12, r2, r12, lsl #25       /* bit 31: the sign, +0 for that */
    and.w   r12, r12, #0x80000000
    add.w   r1, r3, r12                 /* x + y hi */
    ldrd    r6, r7, [sp, #20]           /* sum, diff: the stack arguments above the 5 pushed */
    strd    r0, r1, [r6]
    strd    r4, r5, [r7]
    pop.w   {r4-r7, pc}
    .size pqlab_fndsa_fpr_addsub_native, . - pqlab_fndsa_fpr_addsub_native

/* ------------------------------------------------------------------------------------ */
/* x * y                                                                                */
/*   the 53 x 53-bit product P of the significands (implicit bits always set) from four  */
/*   32 x 32 products (UMULL, UMAAL), P in [2^104, 2^106); Z = P >> 42 in [2^62, 2^64),  */
/*   doubled when below 2^63 (UMULL / MLA by 2 - top); bits 0..41 of P only feed the     */
/*   sticky, which goes in through the carry; 53 bits kept and rounded as in the add.    */
/*   Biased exponent - 1 = ex + ey - 1024 + top; flushed when ex == 0 or ey == 0 (zero  */
/*   or subnormal operand: ex * ey == 0) or when it is negative.                         */
/* ------------------------------------------------------------------------------------ */
    .section .text.pqlab_fndsa_fpr_mul_native, "ax", %progbits
    .balign 4
    .global pqlab_fndsa_fpr_mul_native
    .type pqlab_fndsa_fpr_mul_native, %function
    .thumb_func
pqlab_fndsa_fpr_mul_native:
    push.w  {r4-r7, lr}
    ubfx.w  r4, r1, #20, #11            /* ex */
    ubfx.w  r5, r3, #20, #11            /* ey */
    eor.w   r6, r1, r3                  /* bit 31: sign */
    ubfx.w  r1, r1, #0, #20
    orr.w   r1, r1, #0x100000           /* x hi: 21 bits */
    ubfx.w  r3, r3, #0, #20
    orr.w   r3, r3, #0x100000           /* y hi */
    /* P = (r1:r0) * (r3:r2) = lr:r12:r7:r0 ... built as c3:c2:c1:c0 */
    umull.w r7, r12, r0, r2             /* c0 = r7; c1 partial = r12 */
    mov.w   lr, #0
    umaal.w r12, lr, r0, r3             /* lr:r12 = xl*yh + c1 */
    mov.w   r0, #0
    umaal.w r12, r0, r1, r2             /* r0:r12 = xh*yl + r12: c1 = r12 */
    umaal.w lr, r0, r1, r3              /* r0:lr = xh*yh + lr + r0: c2 = lr, c3 = r0 */
    /* Z = P >> 42 in r1:r2, sticky source in r7 */
    lsl.w   r1, r0, #22
    orr.w   r1, r1, lr, lsr #10
    lsl.w   r2, lr, #22
    orr.w   r2, r2, r12, lsr #10
    orr.w   r7, r7, r12, lsl #22        /* nonzero iff bits 0..41 of P are */
    /* Z *= 2 - top */
    lsr.w   r3, r1, #31                 /* top */
    rsb.w   r0, r3, #2
    umull.w r2, r12, r2, r0
    mla.w   r1, r1, r0, r12
    /* m = Z >> 11 rounded: round bit, sticky (bits 10..0 of Z and r7), lsb */
    ubfx.w  r12, r2, #11, #1
    orr.w   r12, r12, r2, lsl #21       /* round bit at 31, sticky bits 30..21, lsb at 0 */
    mvn.w   r0, #0x80000000
    cmp.w   r7, #1                      /* C = low product bits nonzero */
    adcs.w  r12, r12, r0                /* C = round up: r12 + sticky > 0x80000000 */
    lsr.w   r0, r2, #11
    orr.w   r0, r0, r1, lsl #21
    lsr.w   r1, r1, #11
    adcs.w  r0, r0, #0
    adc.w   r1, r1, #0
    /* exponent, flush, sign */
    add.w   r2, r4, r5
    sub.w   r2, r2, #1024
    add.w   r2, r2, r3                  /* e = ex + ey - 1024 + top */
    mul.w   r4, r4, r5                  /* 0 iff ex == 0 or ey == 0 */
    cmp.w   r4, #1
    sbc.w   r4, r4, r4                  /* -1 iff ex * ey == 0 */
    orr.w   r4, r4, r2, asr #31         /* flush mask */
    add.w   r1, r1, r2, lsl #20
    bic.w   r1, r1, r4
    bic.w   r0, r0, r4
    and.w   r6, r6, #0x80000000
    add.w   r1, r1, r6
    pop.w   {r4-r7, pc}
    .size pqlab_fndsa_fpr_mul_native, . - pqlab_fndsa_fpr_mul_native

/* ------------------------------------------------------------------------------------ */
/* (double) i for an int64 i: |i| normalised with CLZ (64-bit shift), 53 bits kept and   */
/* rounded to nearest even as above; biased exponent - 1 = 1085 - cnt; i == 0 (cnt 64)  */
/* gives +0.                                                                             */
/* ------------------------------------------------------------------------------------ */
    .section .text.pqlab_fndsa_fpr_of_native, "ax", %progbits
    .balign 4
    .global pqlab_fndsa_fpr_of_native
    .type pqlab_fndsa_fpr_of_native, %function
    .thumb_func
pqlab_fndsa_fpr_of_native:
    push.w  {r4, lr}
    asr.w   r12, r1, #31                /* -1 when negative */
    eor.w   r0, r0, r12
    eor.w   r1, r1, r12
    subs.w  r0, r0, r12
    sbc.w   r1, r1, r12                 /* |i| (2^63 for INT64_MIN) */
    clz.w   r2, r1
    clz.w   r3, r0
    lsr.w   r4, r2, #5
    mla.w   r2, r4, r3, r2              /* cnt = clz64(|i|), 64 for 0 */
    lsl.w   r1, r1, r2
    rsb.w   r3, r2, #32
    lsr.w   r3, r0, r3
    orr.w   r1, r1, r3
    sub.w   r3, r2, #32
    lsl.w   r3, r0, r3
    orr.w   r1, r1, r3
    lsl.w   r0, r0, r2
    ubfx.w  r3, r0, #11, #1
    orr.w   r3, r3, r0, lsl #21
    lsr.w   r0, r0, #11
    orr.w   r0, r0, r1, lsl #21
    lsr.w   r1, r1, #11
    mvn.w   r4, #0x80000000
    adds.w  r3, r3, r4
    adcs.w  r0, r0, #0
    adc.w   r1, r1, #0
    movw    r3, #1085
    sub.w   r3, r3, r2
    add.w   r1, r1, r3, lsl #20
    lsl.w   r2, r2, #25
    asr.w   r2, r2, #31                 /* -1 iff i == 0 */
    bic.w   r1, r1, r2
    bic.w   r0, r0, r2
    and.w   r12, r12, #0x80000000
    add.w   r1, r1, r12
    pop.w   {r4, pc}
    .size pqlab_fndsa_fpr_of_native, . - pqlab_fndsa_fpr_of_native

/* ------------------------------------------------------------------------------------ */
/* x / y: restoring division of the significands, 56 quotient bits (q = floor(xm 2^55 / */
/* ym) in [2^54, 2^56)), the same steps as the C code: per bit one 64-bit trial          */
/* subtraction, the borrow shifted into q (ADC), the remainder kept or replaced with SEL  */
/* (GE flags from the borrow mask), then doubled. Two loops of 28 bits, 4 steps per      */
/* iteration (the loop counter is public). Sticky = remainder != 0; q is brought to      */
/* [2^54, 2^55) keeping its low bit sticky and rounded on its 2 low bits. Biased         */
/* exponent - 1 = ex - ey + 1021 + top; flushed when ex == 0 or it is negative. As in    */
/* the C code, y's exponent field is not checked (Falcon never divides by zero).         */
/* ------------------------------------------------------------------------------------ */
    .macro DIVSTEP q
    subs.w  r10, r4, r6
    sbcs.w  r11, r5, r7                 /* C = remainder >= ym */
    adc.w   \q, \q, \q
    sbc.w   r12, r12, r12               /* -1 iff remainder < ym */
    uadd8   r12, r12, r12
    sel     r4, r4, r10
    sel     r5, r5, r11
    adds.w  r4, r4, r4
    adc.w   r5, r5, r5
    .endm

    .section .text.pqlab_fndsa_fpr_div_native, "ax", %progbits
    .balign 4
    .global pqlab_fndsa_fpr_div_native
    .type pqlab_fndsa_fpr_div_native, %function
    .thumb_func
pqlab_fndsa_fpr_div_native:
    push.w  {r4-r11, lr}
    ubfx.w  r8, r1, #20, #11            /* ex */
    ubfx.w  r9, r3, #20, #11            /* ey */
    eor.w   lr, r1, r3                  /* bit 31: sign */
    mov.w   r4, r0
    ubfx.w  r5, r1, #0, #20
    orr.w   r5, r5, #0x100000           /* remainder = xm (r5:r4) */
    mov.w   r6, r2
    ubfx.w  r7, r3, #0, #20
    orr.w   r7, r7, #0x100000           /* ym (r7:r6) */
    mov.w   r0, #0                      /* first 28 quotient bits */
    mov.w   r1, #0                      /* last 28 */
    mov.w   r2, #7
1:
    DIVSTEP r0
    DIVSTEP r0
    DIVSTEP r0
    DIVSTEP r0
    subs.w  r2, r2, #1
    bne.w   1b
    mov.w   r2, #7
2:
    DIVSTEP r1
    DIVSTEP r1
    DIVSTEP r1
    DIVSTEP r1
    subs.w  r2, r2, #1
    bne.w   2b
    /* q = r0 << 28 | r1 in r3:r2, bit 0 |= (remainder != 0) */
    orr.w   r2, r1, r0, lsl #28
    lsr.w   r3, r0, #4
    orr.w   r4, r4, r5
    neg.w   r5, r4
    orr.w   r4, r4, r5
    orr.w   r2, r2, r4, lsr #31
    /* top = q >> 55; q = (q >> top) | (q & top) */
    lsr.w   r4, r3, #23
    rsb.w   r6, r4, #32
    lsl.w   r6, r3, r6                  /* bit 32 of q moving down when top (0 else) */
    and.w   r5, r2, r4
    lsr.w   r2, r2, r4
    orr.w   r2, r2, r6
    orr.w   r2, r2, r5
    lsr.w   r3, r3, r4                  /* z = r3:r2 in [2^54, 2^55) */
    /* m = z >> 2, +1 when bits 2..0 are x11 or 11x (0xC8 >> (z & 7)) */
    and.w   r5, r2, #7
    mov.w   r6, #0xC8
    lsr.w   r6, r6, r5
    and.w   r6, r6, #1
    lsr.w   r2, r2, #2
    orr.w   r2, r2, r3, lsl #30
    lsr.w   r3, r3, #2
    adds.w  r2, r2, r6
    adc.w   r3, r3, #0
    /* exponent, flush (ex == 0 or e < 0), sign */
    sub.w   r5, r8, r9
    addw    r5, r5, #1021
    add.w   r5, r5, r4                  /* e = ex - ey + 1021 + top */
    add.w   r3, r3, r5, lsl #20
    subs.w  r6, r8, #1
    sbc.w   r6, r6, r6                  /* -1 iff ex == 0 */
    orr.w   r6, r6, r5, asr #31
    bic.w   r3, r3, r6
    bic.w   r0, r2, r6
    and.w   lr, lr, #0x80000000
    add.w   r1, r3, lr
    pop.w   {r4-r11, pc}
    .size pqlab_fndsa_fpr_div_native, . - pqlab_fndsa_fpr_div_native

/* ------------------------------------------------------------------------------------ */
/* sqrt(|x|): the C code's bit-serial integer square root, step for step. x = m 2^E with */
/* E even (m doubled when ex is even), m in [2^52, 2^54); y = floor(sqrt(m 2^56)) in     */
/* [2^54, 2^55) from 55 steps: rem = 4 rem + next bit pair of m 2^56, t = 4y + 1,        */
/* b = rem >= t, rem -= b t, y = 2y + b (rem <= 2y holds after every step). The first 27 */
/* steps take the 27 bit pairs of m and keep y < 2^27, rem < 2^29: one word each (SEL   */
/* picks rem or rem - t); the last 28 take zero pairs and run on two words. Sticky =    */
/* rem != 0, rounding on the 2 low bits as in the division; biased exponent - 1 =       */
/* floor((ex + 1021) / 2); +0 when ex == 0. The sign bit of x is ignored, as in C.       */
/* ------------------------------------------------------------------------------------ */
    .macro SQSTEP1                      /* rem r4, y r5, pairs from the top of r3 */
    lsr.w   r12, r3, #30
    orr.w   r4, r12, r4, lsl #2         /* rem = 4 rem + pair */
    lsl.w   r3, r3, #2
    mov.w   r12, #1
    orr.w   r12, r12, r5, lsl #2        /* t = 4y + 1 */
    subs.w  r6, r4, r12                 /* C = rem >= t */
    adc.w   r5, r5, r5                  /* y = 2y + b */
    sbc.w   r12, r12, r12               /* -1 iff rem < t */
    uadd8   r12, r12, r12
    sel     r4, r4, r6
    .endm

    .macro SQSTEP2                      /* rem r7:r4, y r6:r5, t / rem - t in r3:r2 */
    lsl.w   r7, r7, #2
    orr.w   r7, r7, r4, lsr #30
    lsl.w   r4, r4, #2                  /* rem = 4 rem */
    lsl.w   r3, r6, #2
    orr.w   r3, r3, r5, lsr #30
    mov.w   r2, #1
    orr.w   r2, r2, r5, lsl #2          /* t = 4y + 1 */
    subs.w  r2, r4, r2
    sbcs.w  r3, r7, r3                  /* C = rem >= t */
    sbc.w   r12, r12, r12               /* -1 iff rem < t */
    adcs.w  r5, r5, r5
    adc.w   r6, r6, r6                  /* y = 2y + b */
    uadd8   r12, r12, r12
    sel     r4, r4, r2
    sel     r7, r7, r3
    .endm

    .section .text.pqlab_fndsa_fpr_sqrt_native, "ax", %progbits
    .balign 4
    .global pqlab_fndsa_fpr_sqrt_native
    .type pqlab_fndsa_fpr_sqrt_native, %function
    .thumb_func
pqlab_fndsa_fpr_sqrt_native:
    push.w  {r4-r7}
    ubfx.w  r3, r1, #0, #20
    orr.w   r3, r3, #0x100000           /* m = r3:r0 (53 bits) */
    ubfx.w  r1, r1, #20, #11            /* ex */
    and.w   r12, r1, #1
    rsb.w   r12, r12, #11               /* 10 + (ex even): m doubled when ex is even, */
    lsl.w   r3, r3, r12                 /* and its bit 53 brought to bit 63 */
    rsb.w   r6, r12, #32
    lsr.w   r6, r0, r6
    orr.w   r3, r3, r6
    lsl.w   r2, r0, r12                 /* m = r3:r2, first bit pair at the top */
    mov.w   r4, #0
    mov.w   r5, #0
    .rept 16
    SQSTEP1
    .endr
    mov.w   r3, r2                      /* the last 11 pairs (22 bits) */
    .rept 11
    SQSTEP1
    .endr
    mov.w   r6, #0
    mov.w   r7, #0
    mov.w   r0, #7
1:
    SQSTEP2
    SQSTEP2
    SQSTEP2
    SQSTEP2
    subs.w  r0, r0, #1
    bne.w   1b
    /* y |= (rem != 0) */
    orr.w   r4, r4, r7
    neg.w   r7, r4
    orr.w   r4, r4, r7
    orr.w   r5, r5, r4, lsr #31
    /* m = y >> 2, +1 when bits 2..0 are x11 or 11x */
    and.w   r2, r5, #7
    mov.w   r3, #0xC8
    lsr.w   r3, r3, r2
    and.w   r3, r3, #1
    lsr.w   r0, r5, #2
    orr.w   r0, r0, r6, lsl #30
    lsr.w   r6, r6, #2
    adds.w  r0, r0, r3
    adc.w   r6, r6, #0
    addw    r2, r1, #1021
    lsr.w   r2, r2, #1                  /* biased exponent - 1 */
    add.w   r6, r6, r2, lsl #20
    subs.w  r2, r1, #1
    sbc.w   r2, r2, r2                  /* -1 iff ex == 0 */
    bic.w   r1, r6, r2
    bic.w   r0, r0, r2
    pop.w   {r4-r7}
    bx      lr
    .size pqlab_fndsa_fpr_sqrt_native, . - pqlab_fndsa_fpr_sqrt_native
