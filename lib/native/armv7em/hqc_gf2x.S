/* SPDX-License-Identifier: MIT */
/* HQC kernels for ARMv7E-M (Cortex-M4/M7), Thumb-2, GNU as unified syntax. Contract in
 * lib/native/hqc.h; enabled by PQLAB_HQC_GF2X_NATIVE and PQLAB_HQC_SUPPORT_NATIVE (meta.h).
 *
 *   void pqlab_hqc_mul_base_native(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n);
 *       r[0..2n) = a[0..n) * b[0..n) in F_2[x] (schoolbook on 64-bit words), n >= 1
 *   void pqlab_hqc_support_xor_native(uint64_t *v, size_t nw, const uint32_t *support, size_t weight);
 *       v[0..nw) ^= the vector whose ones are at the positions support[0..weight) (< 64 nw)
 *
 * Carry-less 32 x 32 -> 64 (macro CLMUL32): both operands split into four classes of bits by
 * position mod 4 (masks 0x11111111 << k); an integer product of a class-i part and a class-j
 * part has all its partial products at positions of class i + j mod 4, at most 8 per column,
 * so the column sums (< 16) never reach the next position of the same class and the class
 * bits of the product are the column parities. Two such products whose column sums stay at
 * most 15 together are added by UMLAL instead of XORed (found by counting the pairs of every
 * column: (x0 y0 + x1 y3), (x0 y1 + x2 y3), (x1 y0 + x3 y2), (x0 y2 + x3 y3); every other
 * pair reaches 16 in some column). 16 multiplications, 16 EOR, 8 AND, 6 ORR and 8 AND for the
 * masks: 54 single-cycle instructions on the Cortex-M4 (UMULL/UMLAL are one cycle there).
 * 64 x 64 -> 128: one Karatsuba step on the 32-bit halves (three CLMUL32).
 *
 * Support to bits: for each position, every 32-bit word of v is visited; a counter started at
 * word index + 1 is decremented per word and the bit is XORed by an IT EQ-predicated EOR (a
 * single-cycle instruction: a skipped one costs the cycle of an executed one, Cortex-M4 TRM;
 * pqlab-sim lists it as `secret-select`, docs/ct.md). Loads and stores visit every word.
 *
 * No branch and no address depends on the data; loop counts depend on n, nw, weight only. */
#include "pqlab_config.h" /* an export's symbol namespace (docs/export.md); empty in the tree */
    .syntax unified
    .thumb

/* (r12, lr) = r3 (x) r7 (carry-less); clobbers r0-r11 */
.macro CLMUL32
    and.w   r0, r3, #0x11111111
    and.w   r1, r3, #0x22222222
    and.w   r2, r3, #0x44444444
    and.w   r3, r3, #0x88888888
    and.w   r4, r7, #0x11111111
    and.w   r5, r7, #0x22222222
    and.w   r6, r7, #0x44444444
    and.w   r7, r7, #0x88888888
    /* class 0: (x0 y0 + x1 y3) ^ x2 y2 ^ x3 y1 */
    umull   r8, r9, r0, r4
    umlal   r8, r9, r1, r7
    umull   r10, r11, r2, r6
    eor.w   r8, r8, r10
    eor.w   r9, r9, r11
    umull   r10, r11, r3, r5
    eor.w   r8, r8, r10
    eor.w   r9, r9, r11
    and.w   r12, r8, #0x11111111
    and.w   lr, r9, #0x11111111
    /* class 1: (x0 y1 + x2 y3) ^ (x1 y0 + x3 y2) */
    umull   r8, r9, r0, r5
    umlal   r8, r9, r2, r7
    umull   r10, r11, r1, r4
    umlal   r10, r11, r3, r6
    eor.w   r8, r8, r10
    eor.w   r9, r9, r11
    and.w   r8, r8, #0x22222222
    and.w   r9, r9, #0x22222222
    orr.w   r12, r12, r8
    orr.w   lr, lr, r9
    /* class 2: (x0 y2 + x3 y3) ^ x1 y1 ^ x2 y0 */
    umull   r8, r9, r0, r6
    umlal   r8, r9, r3, r7
    umull   r10, r11, r1, r5
    eor.w   r8, r8, r10
    eor.w   r9, r9, r11
    umull   r10, r11, r2, r4
    eor.w   r8, r8, r10
    eor.w   r9, r9, r11
    and.w   r8, r8, #0x44444444
    and.w   r9, r9, #0x44444444
    orr.w   r12, r12, r8
    orr.w   lr, lr, r9
    /* class 3: x0 y3 ^ x1 y2 ^ x2 y1 ^ x3 y0 */
    umull   r8, r9, r0, r7
    umull   r10, r11, r1, r6
    eor.w   r8, r8, r10
    eor.w   r9, r9, r11
    umull   r10, r11, r2, r5
    eor.w   r8, r8, r10
    eor.w   r9, r9, r11
    umull   r10, r11, r3, r4
    eor.w   r8, r8, r10
    eor.w   r9, r9, r11
    and.w   r8, r8, #0x88888888
    and.w   r9, r9, #0x88888888
    orr.w   r12, r12, r8
    orr.w   lr, lr, r9
.endm

/* frame of pqlab_hqc_mul_base_native */
.equ F_L, 0     /* a0 b0 product, 2 words */
.equ F_H, 8     /* a1 b1 product, 2 words */
.equ F_PA, 16   /* &a[i] */
.equ F_PB, 20   /* &b[j] */
.equ F_PR, 24   /* &r[i + j] */
.equ F_JC, 28   /* j iterations left */
.equ F_IC, 32   /* i iterations left */
.equ F_ROW, 36  /* &r[i] */
.equ F_B, 40    /* b */
.equ F_N, 44    /* n */
.equ F_SIZE, 48

    .section .text.pqlab_hqc_mul_base_native, "ax", %progbits
    .balign 4
    .global pqlab_hqc_mul_base_native
    .type pqlab_hqc_mul_base_native, %function
    .thumb_func
pqlab_hqc_mul_base_native:
    push.w  {r4-r11, lr}
    sub.w   sp, sp, #F_SIZE
    /* r[0..2n) = 0: 4n 32-bit words */
    lsl.w   r4, r3, #2
    mov.w   r5, #0
    mov.w   r6, r0
1:  str.w   r5, [r6], #4
    subs.w  r4, r4, #1
    bne.w   1b
    str.w   r1, [sp, #F_PA]
    str.w   r2, [sp, #F_B]
    str.w   r3, [sp, #F_N]
    str.w   r3, [sp, #F_IC]
    str.w   r0, [sp, #F_ROW]
.Lrow:
    ldr.w   r0, [sp, #F_ROW]
    ldr.w   r1, [sp, #F_B]
    ldr.w   r2, [sp, #F_N]
    str.w   r0, [sp, #F_PR]
    str.w   r1, [sp, #F_PB]
    str.w   r2, [sp, #F_JC]
.Lcol:
    /* L = a0 b0 */
    ldr.w   r0, [sp, #F_PA]
    ldr.w   r1, [sp, #F_PB]
    ldr.w   r3, [r0]
    ldr.w   r7, [r1]
    CLMUL32
    strd    r12, lr, [sp, #F_L]
    /* H = a1 b1 */
    ldr.w   r0, [sp, #F_PA]
    ldr.w   r1, [sp, #F_PB]
    ldr.w   r3, [r0, #4]
    ldr.w   r7, [r1, #4]
    CLMUL32
    strd    r12, lr, [sp, #F_H]
    /* M = (a0 + a1)(b0 + b1) */
    ldr.w   r0, [sp, #F_PA]
    ldr.w   r1, [sp, #F_PB]
    ldrd    r2, r3, [r0]
    ldrd    r6, r7, [r1]
    eor.w   r3, r3, r2
    eor.w   r7, r7, r6
    CLMUL32
    /* product words: L0, L1 + M0 + L0 + H0, H0 + M1 + L1 + H1, H1 */
    ldrd    r0, r1, [sp, #F_L]
    ldrd    r2, r3, [sp, #F_H]
    eor.w   r12, r12, r0
    eor.w   lr, lr, r3
    eor.w   r4, r1, r12
    eor.w   r4, r4, r2
    eor.w   r5, r2, lr
    eor.w   r5, r5, r1
    ldr.w   r6, [sp, #F_PR]
    ldrd    r8, r9, [r6]
    ldrd    r10, r11, [r6, #8]
    eor.w   r8, r8, r0
    eor.w   r9, r9, r4
    eor.w   r10, r10, r5
    eor.w   r11, r11, r3
    strd    r8, r9, [r6]
    strd    r10, r11, [r6, #8]
    add.w   r6, r6, #8
    str.w   r6, [sp, #F_PR]
    ldr.w   r1, [sp, #F_PB]
    add.w   r1, r1, #8
    str.w   r1, [sp, #F_PB]
    ldr.w   r2, [sp, #F_JC]
    subs.w  r2, r2, #1
    str.w   r2, [sp, #F_JC]
    bne.w   .Lcol
    ldr.w   r0, [sp, #F_ROW]
    ldr.w   r1, [sp, #F_PA]
    add.w   r0, r0, #8
    add.w   r1, r1, #8
    str.w   r0, [sp, #F_ROW]
    str.w   r1, [sp, #F_PA]
    ldr.w   r2, [sp, #F_IC]
    subs.w  r2, r2, #1
    str.w   r2, [sp, #F_IC]
    bne.w   .Lrow
    add.w   sp, sp, #F_SIZE
    pop.w   {r4-r11, pc}
    .size pqlab_hqc_mul_base_native, . - pqlab_hqc_mul_base_native

/* one 32-bit word of v in register \x: decrement the counter r9, XOR the bit r10 when it
 * reaches 0 */
.macro SUPW x
    subs.w  r9, r9, #1
    it      eq
    eoreq.w \x, \x, r10
.endm

    .section .text.pqlab_hqc_support_xor_native, "ax", %progbits
    .balign 4
    .global pqlab_hqc_support_xor_native
    .type pqlab_hqc_support_xor_native, %function
    .thumb_func
pqlab_hqc_support_xor_native:
    /* r0 = v, r1 = nw, r2 = support, r3 = weight */
    push.w  {r4-r11, lr}
    cmp.w   r3, #0                      /* public weight */
    beq.w   .Lsdone
    mov.w   r12, r0                     /* v */
    mov.w   lr, r1                      /* nw */
.Lspos:
    ldr.w   r4, [r2], #4                /* position */
    lsr.w   r9, r4, #5
    add.w   r9, r9, #1                  /* counter: 32-bit word index + 1 */
    and.w   r4, r4, #31
    mov.w   r10, #1
    lsl.w   r10, r10, r4                /* the bit (shift by register: fixed time) */
    mov.w   r0, r12
    lsrs.w  r11, lr, #2                 /* blocks of four 64-bit words */
    beq.w   .Lstail
.Lsblk:
    ldm.w   r0, {r1, r4, r5, r6, r7, r8}
    SUPW    r1
    SUPW    r4
    SUPW    r5
    SUPW    r6
    SUPW    r7
    SUPW    r8
    stm.w   r0!, {r1, r4, r5, r6, r7, r8}
    ldrd    r1, r4, [r0]
    SUPW    r1
    SUPW    r4
    strd    r1, r4, [r0], #8
    subs.w  r11, r11, #1
    bne.w   .Lsblk
.Lstail:
    ands.w  r11, lr, #3                 /* remaining 64-bit words */
    beq.w   .Lsnext
.Lsone:
    ldrd    r1, r4, [r0]
    SUPW    r1
    SUPW    r4
    strd    r1, r4, [r0], #8
    subs.w  r11, r11, #1
    bne.w   .Lsone
.Lsnext:
    subs.w  r3, r3, #1
    bne.w   .Lspos
.Lsdone:
    pop.w   {r4-r11, pc}
    .size pqlab_hqc_support_xor_native, . - pqlab_hqc_support_xor_native
