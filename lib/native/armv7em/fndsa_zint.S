/* SPDX-License-Identifier: MIT */
/* FN-DSA key generation: big-integer kernels of lib/fndsa/ntru.c for ARMv7E-M
 * (Cortex-M4/M7), Thumb-2, GNU as unified syntax. Contracts in fndsa_zint.h; enabled by
 * PQLAB_FNDSA_ZINT_NATIVE (backend.toml). Every instruction is a 32-bit encoding.
 *
 * ---- rows of a product: acc = init + sum of u_r Y_r ----
 *
 *   void pqlab_fndsa_zmacn_native(uint32_t *acc, const uint32_t *init, size_t len,
 *                                 const uint32_t *tab, size_t npairs);
 *
 * tab: npairs groups {y1, y2, u1, u2} (y1, y2 addresses of len-limb signed integers). First
 * acc = init (len + 2 words) unless init is NULL (public); then per pair, for the unsigned
 * readings: per limb i, acc_i + y1_i u1 + c1 and then + y2_i u2 + c2 with UMAAL (neither
 * overflows 64 bits: (2^32 - 1)^2 + 2 (2^32 - 1) = 2^64 - 1), two independent carry chains.
 * The signed value Y = Yu - 2^(32 len) [Y < 0], so the two top limbs of acc get
 * c1 + c2 - (u1 & s1) - (u2 & s2) (s the sign masks) as a signed 64-bit value. Two limbs per
 * iteration (loads with immediate offsets pipeline), one first limb when len is odd (public).
 * No branch or address depends on the data. Stack: 36 bytes + 12 of state. */
    .syntax unified
    .thumb

    .section .text.pqlab_fndsa_zmacn_native, "ax", %progbits
    .balign 4
    .global pqlab_fndsa_zmacn_native
    .type pqlab_fndsa_zmacn_native, %function
    .thumb_func
pqlab_fndsa_zmacn_native:
    push.w  {r4-r11, lr}
    sub.w   sp, sp, #12                 /* [sp] tab, [sp, #4] pairs left, [sp, #8] len */
    ldr.w   r4, [sp, #48]               /* npairs (tab is r3) */
    str.w   r3, [sp]
    str.w   r4, [sp, #4]
    str.w   r2, [sp, #8]
    cmp.w   r1, #0
    beq.w   .Lmac_pair
    /* acc = init: len + 2 words, one at a time (r2 counts) */
    add.w   r2, r2, #2
    mov.w   r3, r0
.Lmac_copy:
    ldr.w   r4, [r1], #4
    str.w   r4, [r3], #4
    subs.w  r2, r2, #1
    bne.w   .Lmac_copy
.Lmac_pair:
    ldr.w   r3, [sp, #4]
    cmp.w   r3, #0
    beq.w   .Lmac_done
    sub.w   r3, r3, #1
    str.w   r3, [sp, #4]
    ldr.w   r12, [sp]
    ldm.w   r12!, {r1, r2, r4, r5}      /* y1, y2, u1, u2 */
    str.w   r12, [sp]
    ldr.w   r3, [sp, #8]                /* len */
    push.w  {r0}                        /* acc, restored for the next pair */
    mov.w   r6, #0
    mov.w   r7, #0
    add.w   lr, r1, r3, lsl #2          /* end of y1 */
    tst.w   r3, #1
    beq.w   .Lmac_even
    ldr.w   r8, [r0]
    ldr.w   r10, [r1]
    ldr.w   r11, [r2]
    umaal.w r8, r6, r10, r4
    umaal.w r8, r7, r11, r5
    str.w   r8, [r0], #4
    add.w   r1, r1, #4
    add.w   r2, r2, #4
.Lmac_even:
    cmp.w   r1, lr
    beq.w   .Lmac_top
    /* r0 acc, r1 y1, r2 y2, lr end of y1, r4 u1, r5 u2, r6 c1, r7 c2 */
.Lmac_loop:
    ldr.w   r8, [r0]
    ldr.w   r9, [r0, #4]
    ldr.w   r10, [r1]
    ldr.w   r11, [r1, #4]
    ldr.w   r12, [r2]
    ldr.w   r3, [r2, #4]
    umaal.w r8, r6, r10, r4
    umaal.w r8, r7, r12, r5
    umaal.w r9, r6, r11, r4
    umaal.w r9, r7, r3, r5
    str.w   r8, [r0]
    str.w   r9, [r0, #4]
    add.w   r0, r0, #8
    add.w   r1, r1, #8
    add.w   r2, r2, #8
    cmp.w   r1, lr
    bne.w   .Lmac_loop
.Lmac_top:
    /* r7:r6 = c1 + c2 - (u1 & s1) - (u2 & s2), signed; added to acc[len], acc[len + 1] */
    ldr.w   r10, [r1, #-4]              /* top limbs of y1, y2: their signs */
    ldr.w   r11, [r2, #-4]
    and.w   r10, r4, r10, asr #31
    and.w   r11, r5, r11, asr #31
    adds.w  r6, r6, r7
    mov.w   r7, #0
    adc.w   r7, r7, #0
    subs.w  r6, r6, r10
    sbc.w   r7, r7, #0
    subs.w  r6, r6, r11
    sbc.w   r7, r7, #0
    ldr.w   r8, [r0]
    ldr.w   r9, [r0, #4]
    adds.w  r8, r8, r6
    adc.w   r9, r9, r7
    str.w   r8, [r0]
    str.w   r9, [r0, #4]
    pop.w   {r0}
    b.w     .Lmac_pair
.Lmac_done:
    add.w   sp, sp, #12
    pop.w   {r4-r11, pc}
    .size pqlab_fndsa_zmacn_native, . - pqlab_fndsa_zmacn_native
