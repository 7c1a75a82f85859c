/* SPDX-License-Identifier: MIT */
/* FN-DSA key generation: negacyclic NTT, inverse NTT and pointwise Montgomery products
 * modulo a 31-bit prime p = 1 mod 2048, p in (2^31 - 2^21, 2^31), for ARMv7E-M (Cortex-M4/M7),
 * Thumb-2, GNU as unified syntax. The contract (same results as mp_ntt / mp_intt / mp_mmul_r
 * of lib/fndsa/ntru.c) is in fndsa_modp.h; enabled by PQLAB_FNDSA_MODP_NATIVE (backend.toml).
 *
 *   void pqlab_fndsa_mp_ntt_native(uint32_t *a, const uint32_t *psi, unsigned logm,
 *                                  uint32_t p, uint32_t p0i);
 *   void pqlab_fndsa_mp_intt_native(uint32_t *a, const uint32_t *ipsi, unsigned logm,
 *                                   uint32_t c, uint32_t p, uint32_t p0i);
 *   void pqlab_fndsa_mp_pmul_native(uint32_t *r, const uint32_t *a, const uint32_t *b,
 *                                   size_t m, uint32_t p, uint32_t p0i);
 *
 * Arithmetic (R = 2^32, p0i = -1/p mod R, all values below are exact integers):
 *
 * - Signed Montgomery product SM(y, s), y any int32, 0 <= s < p:
 *       smull lo, hi, y, s;  mul w, lo, p0i;  smlal lo, hi, w, p     -> hi
 *   hi:lo + w p (w read as signed) is y s + w p, divisible by R, and
 *   |y s + w p| < 2^31 p + 2^31 p, so hi = (y s + w p) / R = y s / R mod p lies in (-p, p).
 *   "and t, p, hi, asr #31; add hi, hi, t" makes it canonical ([0, p)).
 * - Unsigned UM(x, c), x < 2^32, c < p: umull / mul / umlal, (x c + w p) / R in [0, 2p).
 * - Since p > 2^31 - 2^21, 2p > 2^32 - 2^22: there is no room for lazy sums. A sum of two
 *   canonical values (< 2p < 2^32) or a difference ((-p, p), an int32) is corrected at once
 *   with a sign mask ("and t, p, v, asr #31; add v, v, t"), except where the value is only
 *   multiplied next (forward transform): SM accepts any int32, so those values stay in
 *   [-p, p) ("lazy", 8 instead of 12 instructions per Cooley-Tukey butterfly).
 *
 * Forward (Cooley-Tukey, bit-reversed output, psi[k] = w^bitrev(k) in Montgomery form):
 * layers two at a time (radix-4 passes with quarter h = m/4, m/16, ..., 1: always a power
 * of 4), after one single layer of half size m/2 (also a power of 4) when logm is odd, like
 * mp_ntt. In a radix-4 group (x0, x1, x2, x3 at distance h) the first layer adds x0, x1 and
 * multiplies x2, x3; so a pass's outputs that land in the lower half of a block of the next
 * pass must be canonical, the others may be lazy: the inner loop runs its first h/2
 * iterations with canonical outputs and the next h/2 with lazy ones (the last pass and
 * logm = 1 are canonical throughout). Every pass is an instance of a macro for its h, so
 * that the four loads and stores of a group use immediate offsets.
 *
 * Inverse (Gentleman-Sande): radix-4 passes with t = 1, 4, 16, ... while 8 t <= m, then the
 * last layers merged with the scaling by c / R: a final radix-4 pass (t = m/4, even logm) or
 * a final single layer (t = m/2, odd logm) whose outputs are UM(x + y, c) and
 * SM(x - y, sc) with sc = s c / R mod p (s = ipsi[1]), canonical. logm = 0: a[0] c / R.
 *
 * Registers in the passes: r0 data pointer, r2 p, r3 p0i, r4-r7 the four values of a
 * group, r8-r10 twiddles (r8: first layer's, r9 / r10: second layer's; in the merged final
 * inverse layers r8 = c, r11 = sc), r12 and lr temporaries. Passes with h (t) >= 16: r1 pass
 * end, r11 inner loop end, the twiddle pointers in the frame; h (t) = 4 and 1: r1 / r11 the
 * twiddle pointers, the pass end in the frame. Frame: 28 bytes (F_* below); stack 64 bytes.
 *
 * Cycles on the Cortex-M4 model (m4-sim, logm = 10): ntt 69,150, intt 69,710 (C: 124,899 /
 * 146,590), pmul 9,812 (C: 19,510); tests/test_native_armv7em_modp.py prints them.
 * ntru.c maps mp_ntt, mp_intt and its pointwise products (mp_pmul) to these when
 * PQLAB_FNDSA_MODP_NATIVE is set (measured on commit 16601f5 with the same mapping,
 * `pqlab profile fn-dsa-512 -i ref -p m4-sim`: keypair 104.83 M -> 100.16 M cycles, mp_ntt
 * 4.64 M -> 2.47 M, mp_intt 4.39 M -> 1.96 M); FN-DSA-512 / 1024 KATs unchanged on m4-sim.
 *
 * Constant time: no branch or address depends on the data; the loops and the dispatch
 * depend on logm and m only (public). UMULL / SMULL / SMLAL / UMLAL / MUL are single-cycle on
 * Cortex-M4 whatever the operands. Every instruction is a 32-bit encoding (.w) so that runs
 * of them stay word-aligned (docs/sim.md). */
#include "pqlab_config.h" /* an export's symbol namespace (docs/export.md); empty in the tree */
    .syntax unified
    .thumb

/* frame of ntt / intt (after push {r4-r11, lr} and sub sp, #28) */
    .equ F_PSI1, 0      /* twiddle pointer of the first layer of a pass */
    .equ F_PSI2, 4      /* twiddle pointer of the second layer */
    .equ F_A, 8         /* a */
    .equ F_PSI, 12      /* psi / ipsi */
    .equ F_M4, 16       /* 4 m (bytes) */
    .equ F_END, 20      /* a + 4 m */
    .equ F_C, 24        /* intt: c */
    .equ F_ARG5, 64     /* fifth argument */
    .equ F_ARG6, 68     /* sixth argument */

/* ------------------------------------------------------------------------------------ */
/* butterflies; r2 = p, r3 = p0i, r12 / lr clobbered                                     */

/* Cooley-Tukey, canonical outputs: x in [0, p), y any int32, s in [0, p) ->
 * x = x + y s / R, y = x - y s / R, both in [0, p) */
.macro CT_C x, y, s
    smull.w r12, lr, \y, \s
    mul.w   \y, r12, r3
    smlal.w r12, lr, \y, r2          /* lr = h in (-p, p) */
    and.w   r12, r2, lr, asr #31
    add.w   lr, lr, r12              /* h in [0, p) */
    sub.w   \y, \x, lr               /* (-p, p) */
    add.w   \x, \x, lr
    sub.w   \x, \x, r2               /* [-p, p) */
    and.w   r12, r2, \y, asr #31
    add.w   \y, \y, r12
    and.w   r12, r2, \x, asr #31
    add.w   \x, \x, r12
.endm

/* Cooley-Tukey, lazy outputs (both in [-p, p), for the next layer's multiplications only) */
.macro CT_L x, y, s
    smull.w r12, lr, \y, \s
    mul.w   \y, r12, r3
    smlal.w r12, lr, \y, r2
    and.w   r12, r2, lr, asr #31
    add.w   lr, lr, r12
    sub.w   \y, \x, lr
    add.w   \x, \x, lr
    sub.w   \x, \x, r2
.endm

/* Gentleman-Sande, canonical in and out: x = x + y, y = (x - y) s / R */
.macro GS x, y, s
    sub.w   r12, \x, \y              /* (-p, p) */
    add.w   \x, \x, \y
    sub.w   \x, \x, r2               /* [-p, p) */
    and.w   \y, r2, \x, asr #31
    add.w   \x, \x, \y
    smull.w \y, lr, r12, \s
    mul.w   r12, \y, r3
    smlal.w \y, lr, r12, r2          /* (-p, p) */
    and.w   \y, r2, lr, asr #31
    add.w   \y, lr, \y
.endm

/* last inverse layer with the scaling: x = (x + y) c / R, y = (x - y) sc / R, canonical;
 * r8 = c, r11 = sc */
.macro GS_F x, y
    sub.w   r12, \x, \y              /* (-p, p) */
    add.w   \x, \x, \y               /* [0, 2p) */
    umull.w \y, lr, \x, r8
    mul.w   \x, \y, r3
    umlal.w \y, lr, \x, r2           /* [0, 2p) */
    sub.w   lr, lr, r2
    and.w   \x, r2, lr, asr #31
    add.w   \x, lr, \x
    smull.w \y, lr, r12, r11
    mul.w   r12, \y, r3
    smlal.w \y, lr, r12, r2          /* (-p, p) */
    and.w   \y, r2, lr, asr #31
    add.w   \y, lr, \y
.endm

/* ------------------------------------------------------------------------------------ */
/* forward groups                                                                       */

/* radix-4 group at byte offset o from r0, quarter distance d (bytes); lazy = 1: lazy
 * outputs */
.macro FWD_GROUP o, d, lazy
    ldr.w   r4, [r0, #\o]
    ldr.w   r5, [r0, #\o + \d]
    ldr.w   r6, [r0, #\o + 2 * \d]
    ldr.w   r7, [r0, #\o + 3 * \d]
    CT_C    r4, r6, r8
    CT_L    r5, r7, r8
.if \lazy
    CT_L    r4, r5, r9
    CT_L    r6, r7, r10
.else
    CT_C    r4, r5, r9
    CT_C    r6, r7, r10
.endif
    str.w   r4, [r0, #\o]
    str.w   r5, [r0, #\o + \d]
    str.w   r6, [r0, #\o + 2 * \d]
    str.w   r7, [r0, #\o + 3 * \d]
.endm

/* h = 1 group number k of an iteration: four consecutive values at r0 (advanced),
 * s = [r1, #4k], s1, s2 = [r11, #8k] */
.macro FWD_GROUP1 k
    ldr.w   r8, [r1, #(4 * \k)]
    ldr.w   r9, [r11, #(8 * \k)]
    ldr.w   r10, [r11, #(8 * \k + 4)]
    ldm.w   r0, {r4-r7}
    CT_C    r4, r6, r8
    CT_L    r5, r7, r8
    CT_C    r4, r5, r9
    CT_C    r6, r7, r10
    stm.w   r0!, {r4-r7}
.endm

/* radix-4 pass with quarter h >= 16 (lh = log2 h); falls through to the next pass */
.macro FWD_PASS h, lh
    ldr.w   r0, [sp, #F_A]
    ldr.w   r1, [sp, #F_END]
    ldr.w   r12, [sp, #F_PSI]
    ldr.w   lr, [sp, #F_M4]
    add.w   r4, r12, lr, lsr #(\lh + 2)   /* &psi[len], len = m / (4 h) blocks */
    add.w   r5, r12, lr, lsr #(\lh + 1)   /* &psi[2 len] */
    str.w   r4, [sp, #F_PSI1]
    str.w   r5, [sp, #F_PSI2]
1:
    ldr.w   lr, [sp, #F_PSI1]
    ldr.w   r8, [lr], #4
    str.w   lr, [sp, #F_PSI1]
    ldr.w   lr, [sp, #F_PSI2]
    ldrd.w  r9, r10, [lr], #8
    str.w   lr, [sp, #F_PSI2]
    add.w   r11, r0, #(2 * \h)
2:
    FWD_GROUP 0, (4 * \h), 0
    FWD_GROUP 4, (4 * \h), 0
    add.w   r0, r0, #8
    cmp.w   r0, r11
    bne.w   2b
    add.w   r11, r0, #(2 * \h)
3:
    FWD_GROUP 0, (4 * \h), 1
    FWD_GROUP 4, (4 * \h), 1
    add.w   r0, r0, #8
    cmp.w   r0, r11
    bne.w   3b
    add.w   r0, r0, #(12 * \h)
    cmp.w   r0, r1
    bne.w   1b
.endm

/* two butterflies (j, j + t) and (j + 1, j + t + 1) of a single layer at byte offset o
 * from r0; bf = CT_C, CT_L (twiddle r8) or GS_F */
.macro SINGLE2 o, t, bf
    ldr.w   r4, [r0, #\o]
    ldr.w   r5, [r0, #(\o + 4 * \t)]
    ldr.w   r6, [r0, #(\o + 4)]
    ldr.w   r7, [r0, #(\o + 4 * \t + 4)]
.ifc \bf, GS_F
    GS_F    r4, r5
    GS_F    r6, r7
.else
    \bf    r4, r5, r8
    \bf    r6, r7, r8
.endif
    str.w   r4, [r0, #\o]
    str.w   r5, [r0, #(\o + 4 * \t)]
    str.w   r6, [r0, #(\o + 4)]
    str.w   r7, [r0, #(\o + 4 * \t + 4)]
.endm

/* j from r0 to r1 (bytes, a multiple of 8 (t = 4) or 16 (t >= 16) apart) */
.macro SINGLE_LOOP t, bf
1:
    SINGLE2 0, \t, \bf
.if \t >= 16
    SINGLE2 8, \t, \bf
    add.w   r0, r0, #16
.else
    add.w   r0, r0, #8
.endif
    cmp.w   r0, r1
    bne.w   1b
.endm

/* single first layer (odd logm), half size t = m / 2 >= 4, twiddle psi[1]; lazy outputs
 * for j >= t / 2; then branches to the next pass */
.macro FWD_SINGLE t, next
    ldr.w   r0, [sp, #F_A]
    ldr.w   r12, [sp, #F_PSI]
    ldr.w   r8, [r12, #4]
    add.w   r1, r0, #(2 * \t)
    SINGLE_LOOP \t, CT_C
    add.w   r1, r0, #(2 * \t)
    SINGLE_LOOP \t, CT_L
    b.w     \next
.endm

    .section .text.pqlab_fndsa_mp_ntt_native, "ax", %progbits
    .balign 4
    .global pqlab_fndsa_mp_ntt_native
    .type pqlab_fndsa_mp_ntt_native, %function
    .thumb_func
pqlab_fndsa_mp_ntt_native:
    push.w  {r4-r11, lr}
    sub.w   sp, sp, #28
    cmp.w   r2, #10
    bhi.w   .Lntt_done
    ldr.w   r12, [sp, #F_ARG5]       /* p0i */
    mov.w   r4, r2
    mov.w   r2, r3
    mov.w   r3, r12
    str.w   r0, [sp, #F_A]
    str.w   r1, [sp, #F_PSI]
    mov.w   r5, #4
    lsl.w   r5, r5, r4
    str.w   r5, [sp, #F_M4]
    add.w   r6, r0, r5
    str.w   r6, [sp, #F_END]
    tbh     [pc, r4, lsl #1]
.Lntt_tab:
    .hword  (.Lntt_done - .Lntt_tab) / 2
    .hword  (.Lntt_s1 - .Lntt_tab) / 2
    .hword  (.Lntt_p1_m4 - .Lntt_tab) / 2
    .hword  (.Lntt_s4 - .Lntt_tab) / 2
    .hword  (.Lntt_p4 - .Lntt_tab) / 2
    .hword  (.Lntt_s16 - .Lntt_tab) / 2
    .hword  (.Lntt_p16 - .Lntt_tab) / 2
    .hword  (.Lntt_s64 - .Lntt_tab) / 2
    .hword  (.Lntt_p64 - .Lntt_tab) / 2
    .hword  (.Lntt_s256 - .Lntt_tab) / 2
    .hword  (.Lntt_p256 - .Lntt_tab) / 2
    .balign 4
.Lntt_s1:                            /* logm = 1: one butterfly */
    ldr.w   r8, [r1, #4]
    ldrd.w  r4, r5, [r0]
    CT_C    r4, r5, r8
    strd.w  r4, r5, [r0]
    b.w     .Lntt_done
.Lntt_s4:
    FWD_SINGLE 4, .Lntt_p1
.Lntt_s16:
    FWD_SINGLE 16, .Lntt_p4
.Lntt_s64:
    FWD_SINGLE 64, .Lntt_p16
.Lntt_s256:
    FWD_SINGLE 256, .Lntt_p64
.Lntt_p256:
    FWD_PASS 256, 8
.Lntt_p64:
    FWD_PASS 64, 6
.Lntt_p16:
    FWD_PASS 16, 4
.Lntt_p4:
    /* h = 4: the four groups of a block unrolled; r1 = &psi[len + i], r11 = &psi[2 len + 2 i]
     * (len = m / 16), the end in the frame */
    ldr.w   r0, [sp, #F_A]
    ldr.w   r12, [sp, #F_PSI]
    ldr.w   lr, [sp, #F_M4]
    add.w   r1, r12, lr, lsr #4
    add.w   r11, r12, lr, lsr #3
1:
    ldr.w   r8, [r1], #4
    ldrd.w  r9, r10, [r11], #8
    FWD_GROUP 0, 16, 0
    FWD_GROUP 4, 16, 0
    FWD_GROUP 8, 16, 1
    FWD_GROUP 12, 16, 1
    add.w   r0, r0, #64
    ldr.w   r12, [sp, #F_END]
    cmp.w   r0, r12
    bne.w   1b
.Lntt_p1:
    /* last pass, h = 1: groups of four consecutive values, canonical outputs, two groups
     * per iteration (m >= 8); r1 = &psi[m/4 + i] (first layer), r11 = &psi[m/2 + 2 i] */
    ldr.w   r0, [sp, #F_A]
    ldr.w   r12, [sp, #F_PSI]
    ldr.w   lr, [sp, #F_M4]
    add.w   r1, r12, lr, lsr #2
    add.w   r11, r12, lr, lsr #1
1:
    FWD_GROUP1 0
    FWD_GROUP1 1
    add.w   r1, r1, #8
    add.w   r11, r11, #16
    ldr.w   r12, [sp, #F_END]
    cmp.w   r0, r12
    bne.w   1b
    b.w     .Lntt_done
.Lntt_p1_m4:
    /* logm = 2: one group */
    ldr.w   r8, [r1, #4]
    ldrd.w  r9, r10, [r1, #8]
    ldm.w   r0, {r4-r7}
    CT_C    r4, r6, r8
    CT_L    r5, r7, r8
    CT_C    r4, r5, r9
    CT_C    r6, r7, r10
    stm.w   r0, {r4-r7}
.Lntt_done:
    add.w   sp, sp, #28
    pop.w   {r4-r11, pc}
    .size pqlab_fndsa_mp_ntt_native, . - pqlab_fndsa_mp_ntt_native

/* ------------------------------------------------------------------------------------ */
/* inverse                                                                              */

/* radix-4 Gentleman-Sande group at byte offset o, distance d (bytes) */
.macro INV_GROUP o, d
    ldr.w   r4, [r0, #\o]
    ldr.w   r5, [r0, #\o + \d]
    ldr.w   r6, [r0, #\o + 2 * \d]
    ldr.w   r7, [r0, #\o + 3 * \d]
    GS      r4, r5, r9
    GS      r6, r7, r10
    GS      r4, r6, r8
    GS      r5, r7, r8
    str.w   r4, [r0, #\o]
    str.w   r5, [r0, #\o + \d]
    str.w   r6, [r0, #\o + 2 * \d]
    str.w   r7, [r0, #\o + 3 * \d]
.endm

/* t = 1 group number k of an iteration: four consecutive values at r0 (advanced),
 * s = [r1, #4k], s1, s2 = [r11, #8k] */
.macro INV_GROUP1 k
    ldr.w   r8, [r1, #(4 * \k)]
    ldr.w   r9, [r11, #(8 * \k)]
    ldr.w   r10, [r11, #(8 * \k + 4)]
    ldm.w   r0, {r4-r7}
    GS      r4, r5, r9
    GS      r6, r7, r10
    GS      r4, r6, r8
    GS      r5, r7, r8
    stm.w   r0!, {r4-r7}
.endm

/* general radix-4 pass, t >= 16 (lt = log2 t): blocks of 4 t, len / 2 = m / (4 t) of them;
 * s = ipsi[len/2 + i], s1, s2 = ipsi[len + 2 i], ipsi[len + 2 i + 1]. Then: next general
 * pass when m >= 32 t, else the final dispatch */
.macro INV_PASS t, lt, next
    ldr.w   r0, [sp, #F_A]
    ldr.w   r1, [sp, #F_END]
    ldr.w   r12, [sp, #F_PSI]
    ldr.w   lr, [sp, #F_M4]
    add.w   r4, r12, lr, lsr #(\lt + 2)
    add.w   r5, r12, lr, lsr #(\lt + 1)
    str.w   r4, [sp, #F_PSI1]
    str.w   r5, [sp, #F_PSI2]
1:
    ldr.w   lr, [sp, #F_PSI1]
    ldr.w   r8, [lr], #4
    str.w   lr, [sp, #F_PSI1]
    ldr.w   lr, [sp, #F_PSI2]
    ldrd.w  r9, r10, [lr], #8
    str.w   lr, [sp, #F_PSI2]
    add.w   r11, r0, #(4 * \t)
2:
    INV_GROUP 0, (4 * \t)
    INV_GROUP 4, (4 * \t)
    add.w   r0, r0, #8
    cmp.w   r0, r11
    bne.w   2b
    add.w   r0, r0, #(12 * \t)
    cmp.w   r0, r1
    bne.w   1b
    ldr.w   lr, [sp, #F_M4]
    cmp.w   lr, #(128 * \t)          /* 4 m >= 4 * 32 t */
    bhs.w   \next
    b.w     .Lintt_final
.endm

/* final radix-4 pass, t = m / 4 (one block): s1 = ipsi[2], s2 = ipsi[3], layer two with
 * GS_F (r8 = c, r11 = sc) */
.macro INV_FINAL_GROUP o, d
    ldr.w   r4, [r0, #\o]
    ldr.w   r5, [r0, #\o + \d]
    ldr.w   r6, [r0, #\o + 2 * \d]
    ldr.w   r7, [r0, #\o + 3 * \d]
    GS      r4, r5, r9
    GS      r6, r7, r10
    GS_F    r4, r6
    GS_F    r5, r7
    str.w   r4, [r0, #\o]
    str.w   r5, [r0, #\o + \d]
    str.w   r6, [r0, #\o + 2 * \d]
    str.w   r7, [r0, #\o + 3 * \d]
.endm

.macro INV_FINAL t
    ldr.w   r12, [sp, #F_PSI]
    ldrd.w  r9, r10, [r12, #8]
    add.w   r1, r0, #(4 * \t)
.if \t == 1
    INV_FINAL_GROUP 0, 4
.else
1:
    INV_FINAL_GROUP 0, (4 * \t)
    INV_FINAL_GROUP 4, (4 * \t)
    add.w   r0, r0, #8
    cmp.w   r0, r1
    bne.w   1b
.endif
    b.w     .Lintt_done
.endm

/* final single layer, t = m / 2 */
.macro INV_FINAL_SINGLE t
.if \t == 1
    ldr.w   r4, [r0]
    ldr.w   r5, [r0, #4]
    GS_F    r4, r5
    str.w   r4, [r0]
    str.w   r5, [r0, #4]
.else
    add.w   r1, r0, #(4 * \t)
    SINGLE_LOOP \t, GS_F
.endif
    b.w     .Lintt_done
.endm

    .section .text.pqlab_fndsa_mp_intt_native, "ax", %progbits
    .balign 4
    .global pqlab_fndsa_mp_intt_native
    .type pqlab_fndsa_mp_intt_native, %function
    .thumb_func
pqlab_fndsa_mp_intt_native:
    push.w  {r4-r11, lr}
    sub.w   sp, sp, #28
    cmp.w   r2, #10
    bhi.w   .Lintt_done
    str.w   r3, [sp, #F_C]
    mov.w   r4, r2
    ldr.w   r2, [sp, #F_ARG5]        /* p */
    ldr.w   r3, [sp, #F_ARG6]        /* p0i */
    str.w   r0, [sp, #F_A]
    str.w   r1, [sp, #F_PSI]
    mov.w   r5, #4
    lsl.w   r5, r5, r4
    str.w   r5, [sp, #F_M4]
    add.w   r6, r0, r5
    str.w   r6, [sp, #F_END]
    cmp.w   r4, #3
    bhs.w   .Lintt_g1
.Lintt_final:
    /* r8 = c, r11 = sc = ipsi[1] c / R mod p (canonical), r0 = a, then by logm */
    ldr.w   r8, [sp, #F_C]
    ldr.w   r12, [sp, #F_PSI]
    ldr.w   r11, [r12, #4]
    smull.w r12, lr, r11, r8
    mul.w   r11, r12, r3
    smlal.w r12, lr, r11, r2
    and.w   r11, r2, lr, asr #31
    add.w   r11, lr, r11
    ldr.w   r0, [sp, #F_A]
    ldr.w   r4, [sp, #F_M4]
    clz.w   r4, r4
    rsb.w   r4, r4, #29              /* logm = 31 - clz(4 m) - 2 */
    tbh     [pc, r4, lsl #1]
.Lintt_tab:
    .hword  (.Lintt_f0 - .Lintt_tab) / 2
    .hword  (.Lintt_fs1 - .Lintt_tab) / 2
    .hword  (.Lintt_f1 - .Lintt_tab) / 2
    .hword  (.Lintt_fs4 - .Lintt_tab) / 2
    .hword  (.Lintt_f4 - .Lintt_tab) / 2
    .hword  (.Lintt_fs16 - .Lintt_tab) / 2
    .hword  (.Lintt_f16 - .Lintt_tab) / 2
    .hword  (.Lintt_fs64 - .Lintt_tab) / 2
    .hword  (.Lintt_f64 - .Lintt_tab) / 2
    .hword  (.Lintt_fs256 - .Lintt_tab) / 2
    .hword  (.Lintt_f256 - .Lintt_tab) / 2
    .balign 4
.Lintt_f0:                           /* logm = 0: a[0] c / R */
    ldr.w   r4, [r0]
    smull.w r12, lr, r4, r8
    mul.w   r4, r12, r3
    smlal.w r12, lr, r4, r2
    and.w   r4, r2, lr, asr #31
    add.w   r4, lr, r4
    str.w   r4, [r0]
    b.w     .Lintt_done
.Lintt_fs1:
    INV_FINAL_SINGLE 1
.Lintt_f1:
    INV_FINAL 1
.Lintt_fs4:
    INV_FINAL_SINGLE 4
.Lintt_f4:
    INV_FINAL 4
.Lintt_fs16:
    INV_FINAL_SINGLE 16
.Lintt_f16:
    INV_FINAL 16
.Lintt_fs64:
    INV_FINAL_SINGLE 64
.Lintt_f64:
    INV_FINAL 64
.Lintt_fs256:
    INV_FINAL_SINGLE 256
.Lintt_f256:
    INV_FINAL 256

.Lintt_g1:
    /* first pass, t = 1 (m >= 8): groups of four consecutive values, two per iteration;
     * r1 = &ipsi[m/4 + i] (s), r11 = &ipsi[m/2 + 2 i] (s1, s2) */
    ldr.w   r0, [sp, #F_A]
    ldr.w   r12, [sp, #F_PSI]
    ldr.w   lr, [sp, #F_M4]
    add.w   r1, r12, lr, lsr #2
    add.w   r11, r12, lr, lsr #1
1:
    INV_GROUP1 0
    INV_GROUP1 1
    add.w   r1, r1, #8
    add.w   r11, r11, #16
    ldr.w   r12, [sp, #F_END]
    cmp.w   r0, r12
    bne.w   1b
    ldr.w   lr, [sp, #F_M4]
    cmp.w   lr, #128                 /* m >= 32: pass t = 4 */
    bhs.w   .Lintt_g4
    b.w     .Lintt_final
.Lintt_g4:
    /* t = 4: the four groups of a block unrolled; r1 = &ipsi[m/16 + i] (s),
     * r11 = &ipsi[m/8 + 2 i] (s1, s2) */
    ldr.w   r0, [sp, #F_A]
    ldr.w   r12, [sp, #F_PSI]
    ldr.w   lr, [sp, #F_M4]
    add.w   r1, r12, lr, lsr #4
    add.w   r11, r12, lr, lsr #3
1:
    ldr.w   r8, [r1], #4
    ldrd.w  r9, r10, [r11], #8
    INV_GROUP 0, 16
    INV_GROUP 4, 16
    INV_GROUP 8, 16
    INV_GROUP 12, 16
    add.w   r0, r0, #64
    ldr.w   r12, [sp, #F_END]
    cmp.w   r0, r12
    bne.w   1b
    ldr.w   lr, [sp, #F_M4]
    cmp.w   lr, #512                 /* m >= 128: pass t = 16 */
    bhs.w   .Lintt_g16
    b.w     .Lintt_final
.Lintt_g16:
    INV_PASS 16, 4, .Lintt_g64
.Lintt_g64:
    INV_PASS 64, 6, .Lintt_final     /* m >= 2048 never happens: 4 m < 8192 */
.Lintt_done:
    add.w   sp, sp, #28
    pop.w   {r4-r11, pc}
    .size pqlab_fndsa_mp_intt_native, . - pqlab_fndsa_mp_intt_native

/* ------------------------------------------------------------------------------------ */
/* r[u] = a[u] b[u] / R mod p (canonical), a[u], b[u] in [0, p); r may alias a (or b).
 * Registers: r0 r, r1 a, r2 b, r3 p, r12 p0i, r4-r7 a values, r8-r11 b values, lr temp;
 * frame: end of a. SM with the product's high word written over the a register. */
.macro PMUL1 x, y
    smull.w lr, \x, \x, \y
    mul.w   \y, lr, r12
    smlal.w lr, \x, \y, r3           /* (-p, p) */
    and.w   lr, r3, \x, asr #31
    add.w   \x, \x, lr
.endm

    .section .text.pqlab_fndsa_mp_pmul_native, "ax", %progbits
    .balign 4
    .global pqlab_fndsa_mp_pmul_native
    .type pqlab_fndsa_mp_pmul_native, %function
    .thumb_func
pqlab_fndsa_mp_pmul_native:
    push.w  {r4-r11, lr}
    sub.w   sp, sp, #12
    add.w   r4, r1, r3, lsl #2
    str.w   r4, [sp, #0]             /* a + m */
    bic.w   r5, r3, #7
    add.w   r5, r1, r5, lsl #2
    str.w   r5, [sp, #4]             /* a + 8 floor(m / 8) */
    ldr.w   r3, [sp, #48]            /* p */
    ldr.w   r12, [sp, #52]           /* p0i */
    cmp.w   r1, r5
    beq.w   2f
1:                                   /* eight products per iteration */
    ldm.w   r1!, {r4-r7}
    ldm.w   r2!, {r8-r11}
    PMUL1   r4, r8
    PMUL1   r5, r9
    PMUL1   r6, r10
    PMUL1   r7, r11
    stm.w   r0!, {r4-r7}
    ldm.w   r1!, {r4-r7}
    ldm.w   r2!, {r8-r11}
    PMUL1   r4, r8
    PMUL1   r5, r9
    PMUL1   r6, r10
    PMUL1   r7, r11
    stm.w   r0!, {r4-r7}
    ldr.w   lr, [sp, #4]
    cmp.w   r1, lr
    bne.w   1b
2:
    ldr.w   lr, [sp, #0]
    cmp.w   r1, lr
    beq.w   4f
3:
    ldr.w   r4, [r1], #4
    ldr.w   r8, [r2], #4
    PMUL1   r4, r8
    str.w   r4, [r0], #4
    ldr.w   lr, [sp, #0]
    cmp.w   r1, lr
    bne.w   3b
4:
    add.w   sp, sp, #12
    pop.w   {r4-r11, pc}
    .size pqlab_fndsa_mp_pmul_native, . - pqlab_fndsa_mp_pmul_native
