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
 * 64 x 64 -> 128: one Karatsuba step on the 32-bit halves (three CLMUL32). n = 3 (and 2), the
 * lengths lib/hqc's Karatsuba calls it with: Karatsuba on the words too, six (three) 64 x 64
 * products of the words and their pairwise sums instead of nine (four); other n: schoolbook.
 *
 * Support to bits: for each pair of positions, every 32-bit word of v is visited once; a counter
 * per position, started at its word index + 1, is decremented per word and the position's bit
 * is XORed when it reaches 0 by an IT EQ-predicated EOR (a
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


/* the 128-bit product of the 64-bit words at sp + xo and sp + yo, as four 32-bit words at
 * sp + po: L = x0 y0 and H = x1 y1 stored first, M = (x0 + x1)(y0 + y1) combined into words 1, 2 */
.macro PROD xo, yo, po
    ldr.w   r3, [sp, #\xo]
    ldr.w   r7, [sp, #\yo]
    CLMUL32
    strd    r12, lr, [sp, #\po]
    ldr.w   r3, [sp, #\xo + 4]
    ldr.w   r7, [sp, #\yo + 4]
    CLMUL32
    strd    r12, lr, [sp, #\po + 8]
    ldrd    r2, r3, [sp, #\xo]
    ldrd    r6, r7, [sp, #\yo]
    eor.w   r3, r3, r2
    eor.w   r7, r7, r6
    CLMUL32
    ldrd    r0, r1, [sp, #\po]
    ldrd    r2, r3, [sp, #\po + 8]
    eor.w   r12, r12, r0
    eor.w   lr, lr, r3
    eor.w   r4, r1, r12
    eor.w   r4, r4, r2
    eor.w   r5, r2, lr
    eor.w   r5, r5, r1
    strd    r4, r5, [sp, #\po + 4]
.endm

/* n = 3: six products (Karatsuba on three words), output lane t (32-bit half of each word).
 * Frame: A 0, SA 24 (a0 + a1, a0 + a2, a1 + a2), B 48, SB 72, P0 96, P1 112, P2 128,
 * P01 144, P02 160, P12 176 (each lo | hi), r 192. r12 = r. */
.equ K3_SIZE, 200
.macro COMB3 t
    ldr.w   r0, [sp, #96 + \t]
    ldr.w   r1, [sp, #104 + \t]
    ldr.w   r2, [sp, #112 + \t]
    ldr.w   r3, [sp, #120 + \t]
    ldr.w   r4, [sp, #128 + \t]
    ldr.w   r5, [sp, #136 + \t]
    ldr.w   r6, [sp, #144 + \t]
    ldr.w   r7, [sp, #152 + \t]
    ldr.w   r8, [sp, #160 + \t]
    ldr.w   r9, [sp, #168 + \t]
    ldr.w   r10, [sp, #176 + \t]
    ldr.w   r11, [sp, #184 + \t]
    str.w   r0, [r12, #0 + \t]          /* W0 = P0.lo */
    eor.w   r0, r0, r2                  /* P0.lo + P1.lo */
    eor.w   lr, r1, r3                  /* P0.hi + P1.hi */
    eor.w   r6, r6, r1                  /* W1 = P01.lo + P0.hi + P0.lo + P1.lo */
    eor.w   r6, r6, r0
    str.w   r6, [r12, #8 + \t]
    eor.w   r7, r7, lr                  /* W2 = P01.hi + P0.hi + P1.hi + P02.lo + P0.lo + P1.lo + P2.lo */
    eor.w   r7, r7, r8
    eor.w   r7, r7, r0
    eor.w   r7, r7, r4
    str.w   r7, [r12, #16 + \t]
    eor.w   r9, r9, lr                  /* W3 = P02.hi + P0.hi + P1.hi + P2.hi + P12.lo + P1.lo + P2.lo */
    eor.w   r9, r9, r5
    eor.w   r9, r9, r10
    eor.w   r9, r9, r2
    eor.w   r9, r9, r4
    str.w   r9, [r12, #24 + \t]
    eor.w   r11, r11, r3                /* W4 = P12.hi + P1.hi + P2.hi + P2.lo */
    eor.w   r11, r11, r5
    eor.w   r11, r11, r4
    str.w   r11, [r12, #32 + \t]
    str.w   r5, [r12, #40 + \t]         /* W5 = P2.hi */
.endm

/* n = 2: three products. Frame: A 0, SA 16, B 24, SB 40, P0 48, P1 64, P01 80, r 96. */
.equ K2_SIZE, 104
.macro COMB2 t
    ldr.w   r0, [sp, #48 + \t]
    ldr.w   r1, [sp, #56 + \t]
    ldr.w   r2, [sp, #64 + \t]
    ldr.w   r3, [sp, #72 + \t]
    ldr.w   r6, [sp, #80 + \t]
    ldr.w   r7, [sp, #88 + \t]
    str.w   r0, [r12, #0 + \t]          /* W0 = P0.lo */
    eor.w   r6, r6, r0                  /* W1 = P01.lo + P0.lo + P1.lo + P0.hi */
    eor.w   r6, r6, r2
    eor.w   r6, r6, r1
    str.w   r6, [r12, #8 + \t]
    eor.w   r7, r7, r1                  /* W2 = P01.hi + P0.hi + P1.hi + P1.lo */
    eor.w   r7, r7, r3
    eor.w   r7, r7, r2
    str.w   r7, [r12, #16 + \t]
    str.w   r3, [r12, #24 + \t]         /* W3 = P1.hi */
.endm

/* frame of pqlab_hqc_mul_base_native (schoolbook, n other than 2 and 3) */
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
    cmp.w   r3, #3                      /* public length */
    beq.w   .Lk3
    cmp.w   r3, #2
    beq.w   .Lk2
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

.Lk3:
    sub.w   sp, sp, #K3_SIZE
    str.w   r0, [sp, #192]
    ldm.w   r1, {r4-r9}                 /* a0 a1 a2 */
    strd    r4, r5, [sp, #0]
    strd    r6, r7, [sp, #8]
    strd    r8, r9, [sp, #16]
    eor.w   r10, r4, r6
    eor.w   r11, r5, r7
    strd    r10, r11, [sp, #24]
    eor.w   r10, r4, r8
    eor.w   r11, r5, r9
    strd    r10, r11, [sp, #32]
    eor.w   r10, r6, r8
    eor.w   r11, r7, r9
    strd    r10, r11, [sp, #40]
    ldm.w   r2, {r4-r9}                 /* b0 b1 b2 */
    strd    r4, r5, [sp, #48]
    strd    r6, r7, [sp, #56]
    strd    r8, r9, [sp, #64]
    eor.w   r10, r4, r6
    eor.w   r11, r5, r7
    strd    r10, r11, [sp, #72]
    eor.w   r10, r4, r8
    eor.w   r11, r5, r9
    strd    r10, r11, [sp, #80]
    eor.w   r10, r6, r8
    eor.w   r11, r7, r9
    strd    r10, r11, [sp, #88]
    PROD    0, 48, 96
    PROD    8, 56, 112
    PROD    16, 64, 128
    PROD    24, 72, 144
    PROD    32, 80, 160
    PROD    40, 88, 176
    ldr.w   r12, [sp, #192]
    COMB3   0
    COMB3   4
    add.w   sp, sp, #K3_SIZE
    pop.w   {r4-r11, pc}

.Lk2:
    sub.w   sp, sp, #K2_SIZE
    str.w   r0, [sp, #96]
    ldm.w   r1, {r4-r7}                 /* a0 a1 */
    strd    r4, r5, [sp, #0]
    strd    r6, r7, [sp, #8]
    eor.w   r10, r4, r6
    eor.w   r11, r5, r7
    strd    r10, r11, [sp, #16]
    ldm.w   r2, {r4-r7}                 /* b0 b1 */
    strd    r4, r5, [sp, #24]
    strd    r6, r7, [sp, #32]
    eor.w   r10, r4, r6
    eor.w   r11, r5, r7
    strd    r10, r11, [sp, #40]
    PROD    0, 24, 48
    PROD    8, 32, 64
    PROD    16, 40, 80
    ldr.w   r12, [sp, #96]
    COMB2   0
    COMB2   4
    add.w   sp, sp, #K2_SIZE
    pop.w   {r4-r11, pc}
    .size pqlab_hqc_mul_base_native, . - pqlab_hqc_mul_base_native

/* one 32-bit word of v in register \x, two positions: decrement the counters r7 and r8,
 * XOR the bit r9 / r10 when its counter reaches 0 */
.macro SUP2 x
    subs    r7, r7, #1
    it      eq
    eoreq.w \x, \x, r9
    subs.w  r8, r8, #1
    it      eq
    eoreq.w \x, \x, r10
.endm

/* counter \c = 32-bit word index + 1 and bit \b of the position in r4 */
.macro SUPPOS c, b
    lsr.w   \c, r4, #5
    add.w   \c, \c, #1
    and.w   r4, r4, #31
    mov.w   \b, #1
    lsl.w   \b, \b, r4                  /* shift by register: fixed time */
.endm

    .section .text.pqlab_hqc_support_xor_native, "ax", %progbits
    .balign 4
    .global pqlab_hqc_support_xor_native
    .type pqlab_hqc_support_xor_native, %function
    .thumb_func
pqlab_hqc_support_xor_native:
    /* r0 = v, r1 = nw, r2 = support, r3 = weight; two positions per pass over v */
    push.w  {r4-r11, lr}
    mov.w   r12, r0                     /* v */
    mov.w   lr, r1                      /* nw */
.Lspair:
    cmp.w   r3, #0                      /* public weight */
    beq.w   .Lsdone
    ldr.w   r4, [r2], #4
    SUPPOS  r7, r9
    cmp.w   r3, #1
    beq.w   .Lsodd
    ldr.w   r4, [r2], #4
    SUPPOS  r8, r10
    sub.w   r3, r3, #2
    b.w     .Lsgo
.Lsodd:                                 /* last of an odd weight: the second bit is 0 */
    mov.w   r8, #0
    mov.w   r10, #0
    mov.w   r3, #0
.Lsgo:
    mov.w   r0, r12
    lsrs.w  r11, lr, #1                 /* blocks of two 64-bit words */
    beq.w   .Lstail
.Lsblk:
    ldm.w   r0, {r1, r4, r5, r6}
    SUP2    r1
    SUP2    r4
    SUP2    r5
    SUP2    r6
    stm.w   r0!, {r1, r4, r5, r6}
    subs.w  r11, r11, #1
    bne.w   .Lsblk
.Lstail:
    tst.w   lr, #1                      /* an odd last 64-bit word */
    beq.w   .Lspair
    ldrd    r1, r4, [r0]
    SUP2    r1
    SUP2    r4
    strd    r1, r4, [r0]
    b.w     .Lspair
.Lsdone:
    pop.w   {r4-r11, pc}
    .size pqlab_hqc_support_xor_native, . - pqlab_hqc_support_xor_native
