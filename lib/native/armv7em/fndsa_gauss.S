/* SPDX-License-Identifier: MIT */
/* FN-DSA key generation: the two table samples of one Falcon-512 coefficient (mkgauss of
 * lib/fndsa/keygen.c) for ARMv7E-M (Cortex-M4/M7), Thumb-2, GNU as unified syntax. Contract
 * in fndsa_gauss.h; enabled by PQLAB_FNDSA_GAUSS_NATIVE (backend.toml).
 *
 *   int32_t pqlab_fndsa_mkgauss2_native(const uint32_t r[8], const uint64_t tab[27]);
 *
 * A sample reads two 63-bit words (the top bit of the first is its sign): it is 0 when the
 * first is below T[0], else +-(1 + #(k in 1..25 : second < T[k])). Both samples' second words
 * are compared with each table entry as it is loaded (LDM of two entries at a time), so each
 * entry is read once for the two: SUBS/SBCS give C = 1 when the word is at least T[k], ADC
 * counts those, and the magnitude is 26 minus the count. No branch, no data-dependent
 * address. Registers: r2:r3 and r4:r5 the two second words, r6 r7 their counts, r8-r11 two
 * table entries, r12 scratch. */
#include "pqlab_config.h" /* an export's symbol namespace (docs/export.md); empty in the tree */
    .syntax unified
    .thumb

/* the first word of the sample at byte offset off (T[0] in r8:r9): v <- 0 when the word is
 * below T[0], then the sign: (v ^ -s) + s */
.macro FIRST off, v
    ldrd    r2, r3, [r0, #\off]
    lsr.w   r10, r3, #31                /* sign bit */
    bic.w   r3, r3, #0x80000000
    subs.w  r12, r2, r8                 /* C = 1 unless the word is below T[0] */
    sbcs.w  r12, r3, r9
    sbc.w   r12, r12, r12               /* -1 when the sample is 0 */
    bic.w   \v, \v, r12
    rsb.w   r10, r10, #0
    eor.w   \v, \v, r10
    sub.w   \v, \v, r10
.endm

    .section .text.pqlab_fndsa_mkgauss2_native, "ax", %progbits
    .balign 4
    .global pqlab_fndsa_mkgauss2_native
    .type pqlab_fndsa_mkgauss2_native, %function
    .thumb_func
pqlab_fndsa_mkgauss2_native:
    push.w  {r4-r11, lr}
    ldrd    r2, r3, [r0, #8]            /* first sample's second word */
    ldrd    r4, r5, [r0, #24]           /* second sample's second word */
    bic.w   r3, r3, #0x80000000
    bic.w   r5, r5, #0x80000000
    add.w   r1, r1, #8                  /* T[1] */
    mov.w   r6, #0
    mov.w   r7, #0
    .rept 12                            /* T[1..24], two entries per LDM */
    ldm.w   r1!, {r8-r11}
    subs.w  r12, r2, r8
    sbcs.w  r12, r3, r9
    adc.w   r6, r6, #0
    subs.w  r12, r4, r8
    sbcs.w  r12, r5, r9
    adc.w   r7, r7, #0
    subs.w  r12, r2, r10
    sbcs.w  r12, r3, r11
    adc.w   r6, r6, #0
    subs.w  r12, r4, r10
    sbcs.w  r12, r5, r11
    adc.w   r7, r7, #0
    .endr
    ldrd    r8, r9, [r1]                /* T[25] */
    subs.w  r12, r2, r8
    sbcs.w  r12, r3, r9
    adc.w   r6, r6, #0
    subs.w  r12, r4, r8
    sbcs.w  r12, r5, r9
    adc.w   r7, r7, #0
    rsb.w   r6, r6, #26                 /* magnitudes 1 + (25 - count) */
    rsb.w   r7, r7, #26
    ldrd    r8, r9, [r1, #-200]         /* T[0] */
    FIRST   0, r6
    FIRST   16, r7
    add.w   r0, r6, r7
    pop.w   {r4-r11, pc}
    .size pqlab_fndsa_mkgauss2_native, . - pqlab_fndsa_mkgauss2_native
