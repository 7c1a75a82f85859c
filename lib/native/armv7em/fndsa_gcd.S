/* SPDX-License-Identifier: MIT */
/* FN-DSA key generation: the linear combination at the heart of the batched binary GCD of
 * lib/fndsa/ntru.c (lin31, used by co_reduce and co_reduce_mod), for ARMv7E-M (Cortex-M4/M7),
 * Thumb-2, GNU as unified syntax. Contract in fndsa_gcd.h; enabled by PQLAB_FNDSA_GCD_NATIVE
 * (backend.toml).
 *
 *   int64_t pqlab_fndsa_lin31_native(uint32_t *out, const uint32_t *a, const uint32_t *b,
 *                                    const uint32_t *m, size_t len, const uint32_t co[5]);
 *
 * co = {ua, ub, sa, sb, f}: ua, ub the coefficients ca, cb as 32-bit words, sa, sb their sign
 * masks (0 or 0xFFFFFFFF). Per limb i (31-bit limbs a_i, b_i, m_i), modulo 2^64:
 *   z = cc + a_i ua + b_i ub + m_i f - ((a_i & sa) + (b_i & sb)) 2^32
 * which is the exact signed sum a_i ca + b_i cb + m_i f + cc (a_i ca = a_i ua - a_i 2^32 when
 * ca < 0); out[i - 1] = z mod 2^31 for i >= 1 (limb 0 of the sum is 0 by construction and is
 * not stored), cc = z >> 31 (arithmetic); the final cc is returned (r1:r0). m = NULL: no m f
 * term. out may be b (it trails b by one limb), not a; len >= 1.
 *
 * Per limb: three UMLAL (single-cycle on Cortex-M4, ARM DDI 0439B table 3-1), the sign
 * correction (two AND, ADD, SUB on the high word), the 31-bit split (BIC, LSR, ORR, ASR).
 * Constant time: no branch or address depends on the data; the loop count is len (public),
 * the only other branch is on m == NULL (public). Every instruction is a 32-bit encoding. */
#include "pqlab_config.h" /* an export's symbol namespace (docs/export.md); empty in the tree */
    .syntax unified
    .thumb

/* one limb: r1 a, r2 b, r3 m, r4 ua, r5 ub, r6 f, r7 sa, r8 sb, r10:r9 cc, r0 out */
.macro LIMB withm, store
    ldr.w   r12, [r1], #4
    ldr.w   lr, [r2], #4
    umlal.w r9, r10, r12, r4
    and.w   r12, r12, r7
    umlal.w r9, r10, lr, r5
    and.w   lr, lr, r8
    add.w   r12, r12, lr
    sub.w   r10, r10, r12
.if \withm
    ldr.w   lr, [r3], #4
    umlal.w r9, r10, lr, r6
.endif
.if \store
    bic.w   r12, r9, #0x80000000
    str.w   r12, [r0], #4
.endif
    lsr.w   r9, r9, #31
    orr.w   r9, r9, r10, lsl #1
    asr.w   r10, r10, #31
.endm

    .section .text.pqlab_fndsa_lin31_native, "ax", %progbits
    .balign 4
    .global pqlab_fndsa_lin31_native
    .type pqlab_fndsa_lin31_native, %function
    .thumb_func
pqlab_fndsa_lin31_native:
    push.w  {r4-r11, lr}
    ldr.w   r12, [sp, #40]              /* co */
    ldr.w   r11, [sp, #36]              /* len */
    ldr.w   r4, [r12, #0]
    ldr.w   r5, [r12, #4]
    ldr.w   r7, [r12, #8]
    ldr.w   r8, [r12, #12]
    ldr.w   r6, [r12, #16]
    add.w   r11, r1, r11, lsl #2        /* end of a */
    mov.w   r9, #0
    mov.w   r10, #0
    cmp.w   r3, #0
    beq.w   .Lnom
    LIMB    1, 0
    cmp.w   r1, r11
    beq.w   .Ldone
.Lloopm:
    LIMB    1, 1
    cmp.w   r1, r11
    bne.w   .Lloopm
    b.w     .Ldone
.Lnom:
    LIMB    0, 0
    cmp.w   r1, r11
    beq.w   .Ldone
.Lloop:
    LIMB    0, 1
    cmp.w   r1, r11
    bne.w   .Lloop
.Ldone:
    mov.w   r0, r9
    mov.w   r1, r10
    pop.w   {r4-r11, pc}
    .size pqlab_fndsa_lin31_native, . - pqlab_fndsa_lin31_native

/* ---- the 31 decisions of one GCD pass ----
 *
 *   void pqlab_fndsa_gcd31_native(uint32_t io[6]);
 *
 * io = {a_lo, b_lo, a_hi (low word), a_hi (high word), b_hi (low), b_hi (high)} on entry:
 * the low 31 bits of a and b, and their 62-bit approximations; on return io[0..3] =
 * {pa, pb, qa, qb} modulo 2^32. The same 31 steps as the C loop of zbezout_fast: both odd:
 * subtract the smaller approximation's value from the other (a - b when a_hi > b_hi); then
 * halve the even one (a when a is even, else b), which doubles the other one's pair of
 * coefficients. Every step is masks: no branch but the loop counter, 57 instructions.
 * Registers: r1 a_lo, r2 b_lo, r4:r3 a_hi, r6:r5 b_hi, r7 pa, r8 pb, r9 qa, r10 qb,
 * r11 r12 lr temporaries, r0 the step counter (io on the stack). */
    .section .text.pqlab_fndsa_gcd31_native, "ax", %progbits
    .balign 4
    .global pqlab_fndsa_gcd31_native
    .type pqlab_fndsa_gcd31_native, %function
    .thumb_func
pqlab_fndsa_gcd31_native:
    push.w  {r0, r4-r11, lr}
    ldm.w   r0, {r1-r6}
    mov.w   r7, #1                      /* (pa, pb, qa, qb) = (1, 0, 0, 1) */
    mov.w   r8, #0
    mov.w   r9, #0
    mov.w   r10, #1
    mov.w   r0, #31
.Lstep:
    /* masks: r11 bit 31 = a_hi > b_hi (sign of b_hi - a_hi, both below 2^62); then
     * lr = both odd and a_hi > b_hi (a -= b), r12 = both odd and a_hi <= b_hi (b -= a) */
    subs.w  r11, r5, r3
    sbcs.w  r11, r6, r4
    and.w   r12, r1, r2
    sbfx.w  r12, r12, #0, #1
    and.w   lr, r12, r11, asr #31
    bic.w   r12, r12, r11, asr #31
    /* a -= b & lr: low bits, approximation, coefficients */
    and.w   r11, r2, lr
    sub.w   r1, r1, r11
    and.w   r11, r5, lr
    subs.w  r3, r3, r11
    and.w   r11, r6, lr
    sbc.w   r4, r4, r11
    and.w   r11, r9, lr
    sub.w   r7, r7, r11
    and.w   r11, r10, lr
    sub.w   r8, r8, r11
    /* b -= a & r12 (the new a: unchanged when r12 is set) */
    and.w   r11, r1, r12
    sub.w   r2, r2, r11
    and.w   r11, r3, r12
    subs.w  r5, r5, r11
    and.w   r11, r4, r12
    sbc.w   r6, r6, r11
    and.w   r11, r7, r12
    sub.w   r9, r9, r11
    and.w   r11, r8, r12
    sub.w   r10, r10, r11
    /* r12 = -1 when a is odd: b is halved and (pa, pb) double; else a is halved and
     * (qa, qb) double */
    sbfx.w  r12, r1, #0, #1
    eor.w   r11, r1, r1, lsr #1         /* a_lo >>= 1 when a is even */
    bic.w   r11, r11, r12
    eor.w   r1, r1, r11
    eor.w   r11, r2, r2, lsr #1         /* b_lo >>= 1 when a is odd */
    and.w   r11, r11, r12
    eor.w   r2, r2, r11
    lsr.w   r11, r3, #1                 /* a_hi >>= 1 when a is even */
    orr.w   r11, r11, r4, lsl #31
    eor.w   r11, r11, r3
    bic.w   r11, r11, r12
    eor.w   r3, r3, r11
    eor.w   r11, r4, r4, lsr #1
    bic.w   r11, r11, r12
    eor.w   r4, r4, r11
    lsr.w   r11, r5, #1                 /* b_hi >>= 1 when a is odd */
    orr.w   r11, r11, r6, lsl #31
    eor.w   r11, r11, r5
    and.w   r11, r11, r12
    eor.w   r5, r5, r11
    eor.w   r11, r6, r6, lsr #1
    and.w   r11, r11, r12
    eor.w   r6, r6, r11
    and.w   r11, r7, r12                /* pa, pb double when a is odd */
    add.w   r7, r7, r11
    and.w   r11, r8, r12
    add.w   r8, r8, r11
    bic.w   r11, r9, r12                /* qa, qb double when a is even */
    add.w   r9, r9, r11
    bic.w   r11, r10, r12
    add.w   r10, r10, r11
    subs.w  r0, r0, #1
    bne.w   .Lstep
    pop.w   {r0}
    stm.w   r0, {r7-r10}
    pop.w   {r4-r11, pc}
    .size pqlab_fndsa_gcd31_native, . - pqlab_fndsa_gcd31_native

/* ---- the modular correction of a Bezout coefficient ----
 *
 *   void pqlab_fndsa_finish_mod_native(uint32_t *a, size_t len, const uint32_t *m, uint32_t neg);
 *
 * a: len >= 1 limbs of 31 bits (the top one may carry the sign when neg), the value in
 * (-m, 2m); neg = 1 when it is negative. Result in [0, m): + m when neg, - m when not neg
 * and a >= m, else unchanged. Two passes as the C finish_mod of lib/fndsa/ntru.c: the
 * borrow of a - m (31-bit limbs: bit 31 of a_i - m_i - borrow), then a - (m ^ xm & ym)
 * - cc with xm = 0x7FFFFFFF and cc = 1 for an addition (two's complement of m). Two limbs
 * per iteration (LDM/STM); a first single limb when len is odd (public). No branch or
 * address depends on the data. */
    .section .text.pqlab_fndsa_finish_mod_native, "ax", %progbits
    .balign 4
    .global pqlab_fndsa_finish_mod_native
    .type pqlab_fndsa_finish_mod_native, %function
    .thumb_func
pqlab_fndsa_finish_mod_native:
    push.w  {r4-r11, lr}
    /* pass 1: r4 = borrow of a - m; r5 a, r6 m, r7 limbs left */
    mov.w   r4, #0
    mov.w   r5, r0
    mov.w   r6, r2
    mov.w   r7, r1
    tst.w   r7, #1
    beq.w   .Lcmp2
    ldr.w   r8, [r5], #4
    ldr.w   r9, [r6], #4
    sub.w   r8, r8, r9
    lsr.w   r4, r8, #31
    subs.w  r7, r7, #1
    beq.w   .Lcmpdone
.Lcmp2:
    ldm.w   r5!, {r8, r10}
    ldm.w   r6!, {r9, r11}
    sub.w   r8, r8, r9
    sub.w   r8, r8, r4
    sub.w   r10, r10, r11
    sub.w   r10, r10, r8, lsr #31
    lsr.w   r4, r10, #31
    subs.w  r7, r7, #2
    bne.w   .Lcmp2
.Lcmpdone:
    /* masks: r5 = xm (0x7FFFFFFF when neg), r6 = ym (all ones when neg or a >= m),
     * r4 = the carry/borrow in (neg) */
    rsb.w   r5, r3, #0
    lsr.w   r5, r5, #1
    eor.w   r4, r4, #1                  /* 1 - cc */
    orr.w   r4, r4, r3
    rsb.w   r6, r4, #0
    mov.w   r4, r3
    /* pass 2: r0 a, r2 m, r1 limbs left */
    tst.w   r1, #1
    beq.w   .Lfix2
    ldr.w   r8, [r0]
    ldr.w   r9, [r2], #4
    eor.w   r9, r9, r5
    and.w   r9, r9, r6
    sub.w   r8, r8, r9
    sub.w   r8, r8, r4
    lsr.w   r4, r8, #31
    bic.w   r8, r8, #0x80000000
    str.w   r8, [r0], #4
    subs.w  r1, r1, #1
    beq.w   .Lfixdone
.Lfix2:
    ldm.w   r0, {r8, r10}
    ldm.w   r2!, {r9, r11}
    eor.w   r9, r9, r5
    and.w   r9, r9, r6
    sub.w   r8, r8, r9
    sub.w   r8, r8, r4
    eor.w   r11, r11, r5
    and.w   r11, r11, r6
    sub.w   r10, r10, r11
    sub.w   r10, r10, r8, lsr #31
    lsr.w   r4, r10, #31
    bic.w   r8, r8, #0x80000000
    bic.w   r10, r10, #0x80000000
    stm.w   r0!, {r8, r10}
    subs.w  r1, r1, #2
    bne.w   .Lfix2
.Lfixdone:
    pop.w   {r4-r11, pc}
    .size pqlab_fndsa_finish_mod_native, . - pqlab_fndsa_finish_mod_native

/* ---- conditional negation of a 31-bit-limb integer ----
 *
 *   void pqlab_fndsa_neg31_native(uint32_t *x, size_t len, uint32_t neg);
 *
 * When neg = 1, x (len >= 1 limbs of 31 bits, the top one may carry a sign) becomes its
 * two's complement -x in 31-bit limbs ((x_i ^ 0x7FFFFFFF) + carry, carry = bit 31); when
 * neg = 0 every limb is rewritten unchanged (limbs masked to 31 bits), as the C neg31. Two
 * limbs per iteration; no data-dependent branch or address. */
    .section .text.pqlab_fndsa_neg31_native, "ax", %progbits
    .balign 4
    .global pqlab_fndsa_neg31_native
    .type pqlab_fndsa_neg31_native, %function
    .thumb_func
pqlab_fndsa_neg31_native:
    push.w  {r4, lr}
    rsb.w   r12, r2, #0
    lsr.w   r12, r12, #1                /* mk */
    tst.w   r1, #1
    beq.w   .Lneg2
    ldr.w   r3, [r0]
    eor.w   r3, r3, r12
    add.w   r3, r3, r2
    lsr.w   r2, r3, #31
    bic.w   r3, r3, #0x80000000
    str.w   r3, [r0], #4
    subs.w  r1, r1, #1
    beq.w   .Lnegdone
.Lneg2:
    ldm.w   r0, {r3, r4}
    eor.w   r3, r3, r12
    add.w   r3, r3, r2
    eor.w   r4, r4, r12
    add.w   r4, r4, r3, lsr #31
    lsr.w   r2, r4, #31
    bic.w   r3, r3, #0x80000000
    bic.w   r4, r4, #0x80000000
    stm.w   r0!, {r3, r4}
    subs.w  r1, r1, #2
    bne.w   .Lneg2
.Lnegdone:
    pop.w   {r4, pc}
    .size pqlab_fndsa_neg31_native, . - pqlab_fndsa_neg31_native
