/* SPDX-License-Identifier: MIT */
/* FN-DSA key generation: big-integer kernels of lib/fndsa/ntru.c for ARMv7E-M
 * (Cortex-M4/M7), Thumb-2, GNU as unified syntax. Contracts in fndsa_zint.h; enabled by
 * PQLAB_FNDSA_ZINT_NATIVE (backend.toml). Every instruction is a 32-bit encoding.
 *
 * ---- one coefficient of k f in Z[x]/(x^m + 1), all rows: acc = init + sum of u_i f_j ----
 *
 *   void pqlab_fndsa_zmacn_native(uint32_t *acc, const uint32_t *init, size_t len,
 *                                 const uint32_t *f, size_t c, size_t m, const uint32_t *up);
 *
 * f: m integers of len limbs, signed (f_j at f + j len); for coefficient c, row i < m takes
 * f_j with j = (c - i) mod m and the multiplier up[2 i + (c < i)] (unsigned; the caller puts
 * the wrapped terms' multipliers at the odd places). First acc = init (len + 2 words) unless
 * init is NULL (public); then the rows two at a time (with m = 1, the second row gets
 * multiplier 0). Per pair, for the unsigned readings: per limb i, acc_i + y1_i u1 + c1 and
 * then + y2_i u2 + c2 with UMAAL (neither overflows 64 bits: (2^32 - 1)^2 + 2 (2^32 - 1) =
 * 2^64 - 1), two independent carry chains. The signed value Y = Yu - 2^(32 len) [Y < 0], so
 * the two top limbs of acc get c1 + c2 - (u1 & s1) - (u2 & s2) (s the sign masks) as a
 * signed 64-bit value. Two limbs per iteration (loads with immediate offsets pipeline), one
 * first limb when len is odd (public). Row indices and addresses depend on c, i, m only; no
 * branch or address depends on the data. Stack: 36 bytes + 20 of state. */
#include "pqlab_config.h" /* an export's symbol namespace (docs/export.md); empty in the tree */
    .syntax unified
    .thumb

/* j = (c - i) mod m into \j, the multiplier's word index 2 i + (c < i) into \k; \i, \c, \m
 * registers */
.macro ROWIDX j, k, i, c, m, t
    subs.w  \j, \c, \i
    lsr.w   \k, \j, #31                 /* c < i */
    and.w   \t, \m, \j, asr #31
    add.w   \j, \j, \t
    add.w   \k, \k, \i, lsl #1
.endm

    .section .text.pqlab_fndsa_zmacn_native, "ax", %progbits
    .balign 4
    .global pqlab_fndsa_zmacn_native
    .type pqlab_fndsa_zmacn_native, %function
    .thumb_func
pqlab_fndsa_zmacn_native:
    push.w  {r4-r11, lr}
    sub.w   sp, sp, #16                 /* [sp] i, [sp, #4] len, [sp, #8] f, [sp, #12] 4 len */
    mov.w   r4, #0
    str.w   r4, [sp]
    str.w   r2, [sp, #4]
    str.w   r3, [sp, #8]
    lsl.w   r4, r2, #2
    str.w   r4, [sp, #12]
    cmp.w   r1, #0
    beq.w   .Lmac_pair
    /* acc = init: len + 2 words, two at a time, one first when len is odd (r2 counts) */
    add.w   r2, r2, #2
    mov.w   r3, r0
    tst.w   r2, #1
    beq.w   .Lmac_copy
    ldr.w   r4, [r1], #4
    str.w   r4, [r3], #4
    subs.w  r2, r2, #1
.Lmac_copy:
    ldm.w   r1!, {r4, r5}
    stm.w   r3!, {r4, r5}
    subs.w  r2, r2, #2
    bne.w   .Lmac_copy
.Lmac_pair:
    /* rows i, i + 1: r8 i, r9 c, r10 m, r11 up, r12 f, lr 4 len */
    ldr.w   r8, [sp]
    ldr.w   r10, [sp, #56]              /* m */
    cmp.w   r8, r10
    bhs.w   .Lmac_done
    ldr.w   r9, [sp, #52]               /* c */
    ldr.w   r11, [sp, #60]              /* up */
    ldr.w   r12, [sp, #8]
    ldr.w   lr, [sp, #12]
    add.w   r3, r8, #2
    str.w   r3, [sp]
    ROWIDX  r6, r7, r8, r9, r10, r3
    ldr.w   r4, [r11, r7, lsl #2]       /* u1 */
    mla.w   r1, r6, lr, r12             /* y1 = f + j len */
    add.w   r8, r8, #1
    cmp.w   r8, r10
    bhs.w   .Lmac_one
    ROWIDX  r6, r7, r8, r9, r10, r3
    ldr.w   r5, [r11, r7, lsl #2]       /* u2 */
    mla.w   r2, r6, lr, r12             /* y2 */
    b.w     .Lmac_rows
.Lmac_one:
    mov.w   r5, #0                      /* m = 1: no second row */
    mov.w   r2, r1
.Lmac_rows:
    ldr.w   r3, [sp, #4]                /* len */
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
    add.w   sp, sp, #16
    pop.w   {r4-r11, pc}
    .size pqlab_fndsa_zmacn_native, . - pqlab_fndsa_zmacn_native

/* ---- shifted subtraction: x -= a << s ----
 *
 *   void pqlab_fndsa_zsub_shifted_native(uint32_t *x, size_t xlen, const uint32_t *a,
 *                                        size_t alen, uint32_t s);
 *
 * As the C zsub_shifted of lib/fndsa/ntru.c: limbs below s / 32 unchanged, then limb z of
 * x minus w_z = (cur << sb) | (prev >> (32 - sb)) with borrow, cur = a[z - s / 32] or the
 * sign extension past a, sb = s % 32; a shift by register of 32 gives 0, so sb = 0 needs no
 * special case. Part 1 the limbs of a (two per iteration), part 2 the sign extension: its
 * first limb by the formula, then w = ext (prev = ext as well). The borrow stays in the
 * carry flag across the loops (pointer tests with TEQ, which keeps C). All branches depend
 * on xlen, alen, s only. */
    .section .text.pqlab_fndsa_zsub_shifted_native, "ax", %progbits
    .balign 4
    .global pqlab_fndsa_zsub_shifted_native
    .type pqlab_fndsa_zsub_shifted_native, %function
    .thumb_func
pqlab_fndsa_zsub_shifted_native:
    push.w  {r4-r11, lr}
    ldr.w   r12, [sp, #36]              /* s */
    lsr.w   r4, r12, #5                 /* sw */
    cmp.w   r4, r1
    bhs.w   .Lzs_done                   /* nothing at or above limb sw */
    and.w   r5, r12, #31                /* sb */
    rsb.w   r7, r5, #32                 /* 32 - sb */
    add.w   r9, r2, r3, lsl #2
    ldr.w   r8, [r9, #-4]
    asr.w   r8, r8, #31                 /* ext */
    add.w   r6, r0, r1, lsl #2          /* end of x */
    add.w   r0, r0, r4, lsl #2          /* x + sw */
    sub.w   r1, r1, r4                  /* limbs to go */
    cmp.w   r3, r1
    bls.w   .Lzs_n1
    mov.w   r3, r1                      /* n1 = min(alen, xlen - sw) */
.Lzs_n1:
    add.w   r9, r0, r3, lsl #2          /* end of part 1 */
    mov.w   r10, #0                     /* prev */
    and.w   r11, r3, #1
    cmp.w   r0, r0                      /* C = 1: no borrow */
    teq.w   r11, #0
    beq.w   .Lzs_p1
    ldr.w   r11, [r2], #4
    lsl.w   r12, r11, r5
    lsr.w   r4, r10, r7
    orr.w   r12, r12, r4
    mov.w   r10, r11
    ldr.w   r4, [r0]
    sbcs.w  r4, r4, r12
    str.w   r4, [r0], #4
.Lzs_p1:
    teq.w   r0, r9
    beq.w   .Lzs_p2
.Lzs_l1:
    ldr.w   r11, [r2]
    ldr.w   r12, [r2, #4]
    ldr.w   r1, [r0]
    ldr.w   r3, [r0, #4]
    lsr.w   r4, r10, r7
    lsl.w   lr, r11, r5
    orr.w   r4, r4, lr
    sbcs.w  r1, r1, r4
    lsr.w   r4, r11, r7
    lsl.w   lr, r12, r5
    orr.w   r4, r4, lr
    sbcs.w  r3, r3, r4
    mov.w   r10, r12
    str.w   r1, [r0]
    str.w   r3, [r0, #4]
    add.w   r0, r0, #8
    add.w   r2, r2, #8
    teq.w   r0, r9
    bne.w   .Lzs_l1
.Lzs_p2:
    teq.w   r0, r6
    beq.w   .Lzs_done
    lsl.w   r12, r8, r5                 /* first limb past a */
    lsr.w   r4, r10, r7
    orr.w   r12, r12, r4
    ldr.w   r4, [r0]
    sbcs.w  r4, r4, r12
    str.w   r4, [r0], #4
    sub.w   r11, r6, r0
    tst.w   r11, #4                     /* odd count left (the immediate keeps C) */
    beq.w   .Lzs_p3
    ldr.w   r4, [r0]
    sbcs.w  r4, r4, r8
    str.w   r4, [r0], #4
.Lzs_p3:
    teq.w   r0, r6
    beq.w   .Lzs_done
.Lzs_l3:
    ldr.w   r1, [r0]
    ldr.w   r3, [r0, #4]
    sbcs.w  r1, r1, r8
    sbcs.w  r3, r3, r8
    str.w   r1, [r0]
    str.w   r3, [r0, #4]
    add.w   r0, r0, #8
    teq.w   r0, r6
    bne.w   .Lzs_l3
.Lzs_done:
    pop.w   {r4-r11, pc}
    .size pqlab_fndsa_zsub_shifted_native, . - pqlab_fndsa_zsub_shifted_native

/* ---- CRT reconstruction of one coefficient from its mixed-radix digits ----
 *
 *   void pqlab_fndsa_rns_crt_native(uint32_t *out, size_t olen, const uint32_t *t, size_t m,
 *                                   size_t np, const uint32_t *B, uint32_t *w,
 *                                   const uint32_t *P);
 *
 * As rns_crt of lib/fndsa/ntru.c: t the digits t_j = t[j m] (j < np), P the primes (p_j =
 * P[2 j]), X = t_0 + p_0 (t_1 + p_1 (t_2 + ...)) built in w from the top digit: per step
 * X = X p_j + t_j, one UMAAL per limb (RdLo 0, RdHi the carry: X_i p_j + carry never
 * overflows 64 bits) and the carry out as the new top limb. Then out = X - B (B: np + 1
 * limbs), sign-extended or truncated to olen limbs, with the borrow in the carry flag. All
 * loop counts and branches depend on olen, np only. */
    .section .text.pqlab_fndsa_rns_crt_native, "ax", %progbits
    .balign 4
    .global pqlab_fndsa_rns_crt_native
    .type pqlab_fndsa_rns_crt_native, %function
    .thumb_func
pqlab_fndsa_rns_crt_native:
    push.w  {r0, r1, r4-r11, lr}        /* out, olen kept for the subtraction */
    ldr.w   r4, [sp, #44]               /* np */
    ldr.w   r6, [sp, #52]               /* w */
    ldr.w   r7, [sp, #56]               /* P */
    lsl.w   r3, r3, #2                  /* digit stride in bytes */
    sub.w   r8, r4, #1                  /* j = np - 1 */
    mla.w   r9, r8, r3, r2              /* &t[(np - 1) m] */
    ldr.w   r10, [r9]
    str.w   r10, [r6]                   /* X = t_{np-1}, one limb */
    mov.w   r11, #1                     /* nl: limbs of X */
    cmp.w   r8, #0
    beq.w   .Lcrt_sub
    cmp.w   r4, #4
    beq.w   .Lcrt_np4
    cmp.w   r4, #3
    beq.w   .Lcrt_np3
    /* r3 stride, r5 p_j, r6 X, r7 P, r8 j, r9 &t_j, r10 carry, r11 nl, r12 X_i, lr end of X;
     * two limbs per iteration, one first when nl is odd */
.Lcrt_step:
    sub.w   r8, r8, #1
    sub.w   r9, r9, r3
    ldr.w   r5, [r7, r8, lsl #3]        /* p_j */
    ldr.w   r10, [r9]                   /* carry = t_j */
    mov.w   r12, r6
    add.w   lr, r6, r11, lsl #2
    tst.w   r11, #1
    beq.w   .Lcrt_mul_chk
    ldr.w   r2, [r12]
    mov.w   r0, #0
    umaal.w r0, r10, r2, r5             /* r10:r0 = X_i p_j + carry */
    str.w   r0, [r12], #4
.Lcrt_mul_chk:
    cmp.w   r12, lr
    beq.w   .Lcrt_top
.Lcrt_mul:
    ldr.w   r2, [r12]
    ldr.w   r4, [r12, #4]
    mov.w   r0, #0
    mov.w   r1, #0
    umaal.w r0, r10, r2, r5
    umaal.w r1, r10, r4, r5
    str.w   r0, [r12]
    str.w   r1, [r12, #4]
    add.w   r12, r12, #8
    cmp.w   r12, lr
    bne.w   .Lcrt_mul
.Lcrt_top:
    str.w   r10, [r12]                  /* the carry is the new top limb */
    add.w   r11, r11, #1
    cmp.w   r8, #0
    bne.w   .Lcrt_step
    b.w     .Lcrt_sub
    /* three and four primes (the most frequent): X in registers, the same steps; r10 = the
     * top digit, r9 its address */
.Lcrt_np3:
    ldr.w   r5, [r7, #8]                /* p_1 */
    sub.w   r9, r9, r3
    ldr.w   r11, [r9]                   /* t_1 */
    mov.w   r12, #0
    umaal.w r11, r12, r10, r5           /* X = (r11, r12) = t_2 p_1 + t_1 */
    ldr.w   r5, [r7, #0]                /* p_0 */
    sub.w   r9, r9, r3
    ldr.w   r0, [r9]                    /* t_0 */
    mov.w   r2, #0
    umaal.w r0, r2, r11, r5
    mov.w   r1, #0
    umaal.w r1, r2, r12, r5             /* X = (r0, r1, r2) */
    stm.w   r6, {r0-r2}
    b.w     .Lcrt_sub
.Lcrt_np4:
    ldr.w   r5, [r7, #16]               /* p_2 */
    sub.w   r9, r9, r3
    ldr.w   r11, [r9]                   /* t_2 */
    mov.w   r12, #0
    umaal.w r11, r12, r10, r5           /* X = (r11, r12) */
    ldr.w   r5, [r7, #8]                /* p_1 */
    sub.w   r9, r9, r3
    ldr.w   r10, [r9]                   /* t_1 */
    mov.w   lr, #0
    umaal.w r10, lr, r11, r5
    mov.w   r11, #0
    umaal.w r11, lr, r12, r5            /* X = (r10, r11, lr) */
    ldr.w   r5, [r7, #0]                /* p_0 */
    sub.w   r9, r9, r3
    ldr.w   r0, [r9]                    /* t_0 */
    mov.w   r3, #0
    umaal.w r0, r3, r10, r5
    mov.w   r1, #0
    umaal.w r1, r3, r11, r5
    mov.w   r2, #0
    umaal.w r2, r3, lr, r5              /* X = (r0, r1, r2, r3) */
    stm.w   r6, {r0-r3}
.Lcrt_sub:
    /* out = X - B: r0 out, r5 B, r6 X, r12 end of the min(olen, np) limbs of X, lr end of
     * out; two limbs per iteration, one first when that count is odd; the borrow in the
     * carry flag (TEQ with a register or #0 keeps it) */
    ldr.w   r0, [sp, #0]
    ldr.w   r1, [sp, #4]
    ldr.w   r4, [sp, #44]               /* np */
    ldr.w   r5, [sp, #48]               /* B */
    cmp.w   r1, r4
    bhs.w   .Lcrt_n1
    mov.w   r4, r1
.Lcrt_n1:
    add.w   r12, r0, r4, lsl #2
    add.w   lr, r0, r1, lsl #2
    and.w   r4, r4, #1
    cmp.w   r0, r0                      /* C = 1: no borrow */
    teq.w   r4, #0
    beq.w   .Lcrt_sx
    ldr.w   r2, [r6], #4
    ldr.w   r3, [r5], #4
    sbcs.w  r2, r2, r3
    str.w   r2, [r0], #4
    teq.w   r0, r12
    beq.w   .Lcrt_sxdone
.Lcrt_sx:
    ldm.w   r6!, {r2, r3}
    ldm.w   r5!, {r4, r7}
    sbcs.w  r2, r2, r4
    sbcs.w  r3, r3, r7
    stm.w   r0!, {r2, r3}
    teq.w   r0, r12
    bne.w   .Lcrt_sx
.Lcrt_sxdone:
    teq.w   r0, lr
    beq.w   .Lcrt_done
    /* limb np: 0 - B[np] - borrow; then the sign extension 0 - 0 - borrow */
    ldr.w   r3, [r5]
    mov.w   r2, #0
    sbcs.w  r2, r2, r3
    str.w   r2, [r0], #4
    mov.w   r3, #0
    sbc.w   r2, r3, r3
.Lcrt_ext:
    teq.w   r0, lr
    beq.w   .Lcrt_done
    str.w   r2, [r0], #4
    b.w     .Lcrt_ext
.Lcrt_done:
    add.w   sp, sp, #8
    pop.w   {r4-r11, pc}
    .size pqlab_fndsa_rns_crt_native, . - pqlab_fndsa_rns_crt_native

/* ---- one digit of Garner's mixed-radix conversion, for all m coefficients ----
 *
 *   void pqlab_fndsa_garner_row_native(uint32_t *res, size_t m, size_t j, const uint32_t *cj,
 *                                      const uint32_t k[4]);
 *
 * As the loop body over u of rns_garner (lib/fndsa/ntru.c) for one j >= 1, k = {p, p0i, inv,
 * bj}: y = t_{j-1}; y = mmul(y, cj[i]) + t_i for i = j - 2 down to 0 (y below 2^32, not
 * reduced: mmul takes any first operand below 2^32); y reduced by two conditional
 * subtractions; res[j m + u] = mmul((res[j m + u] + bj - y) mod p, inv). mmul(a, b) =
 * a b / 2^32 mod p in normal form: UMULL, the Montgomery factor w = lo p0i, UMLAL w p, one
 * conditional subtraction with a mask. No branch or address depends on the data. */
/* the end of one coefficient: y (below 2^32) reduced by two conditional subtractions, then
 * res[j m + u] = mmul((t_j + bj - y) mod p, inv); r9 + off = &res[j m + u], r10 bj, lr inv,
 * r4 p, r5 p0i; r7 r11 r12 temporaries */
.macro GARNER_FIN y, off
    sub.w   r7, \y, r4
    and.w   r11, r4, r7, asr #31
    add.w   \y, r7, r11
    sub.w   r7, \y, r4
    and.w   r11, r4, r7, asr #31
    add.w   \y, r7, r11
    ldr.w   r11, [r9, #\off]            /* t_j */
    add.w   r11, r11, r10               /* + bj mod p */
    sub.w   r11, r11, r4
    and.w   r7, r4, r11, asr #31
    add.w   r11, r11, r7
    sub.w   r11, r11, \y                /* - y mod p */
    and.w   r7, r4, r11, asr #31
    add.w   r11, r11, r7
    umull.w r12, r7, r11, lr
    mul.w   r11, r12, r5
    umlal.w r12, r7, r11, r4
    sub.w   r7, r7, r4
    and.w   r11, r4, r7, asr #31
    add.w   r7, r7, r11
    str.w   r7, [r9, #\off]
.endm

    .section .text.pqlab_fndsa_garner_row_native, "ax", %progbits
    .balign 4
    .global pqlab_fndsa_garner_row_native
    .type pqlab_fndsa_garner_row_native, %function
    .thumb_func
pqlab_fndsa_garner_row_native:
    push.w  {r4-r11, lr}
    sub.w   sp, sp, #16                 /* [sp] inv, [sp, #4] bj, [sp, #8] j - 2, [sp, #12] end */
    ldr.w   r12, [sp, #52]              /* k */
    ldr.w   r4, [r12, #0]               /* p */
    ldr.w   r5, [r12, #4]               /* p0i */
    ldr.w   r6, [r12, #8]
    ldr.w   r7, [r12, #12]
    str.w   r6, [sp, #0]
    str.w   r7, [sp, #4]
    sub.w   r6, r2, #2
    str.w   r6, [sp, #8]
    lsl.w   r1, r1, #2                  /* stride: m words */
    add.w   lr, r0, r1                  /* end of u */
    sub.w   r2, r2, #1
    mul.w   r2, r2, r1                  /* (j - 1) stride */
    str.w   lr, [sp, #12]
    /* two coefficients u, u + 1 per pass while there are two: their Horner chains
     * interleaved, one load of each cj[i]; r0 &res[u], r1 stride, r2 (j - 1) stride, r3 cj,
     * r4 p, r5 p0i, r8 r6 the two y, r9 &res[i m + u], r10 i, lr cj[i], r7 r11 r12
     * temporaries */
    sub.w   r7, lr, r0
    cmp.w   r7, #8
    blo.w   .Lgar_tail
.Lgar_pair:
    add.w   r9, r0, r2
    ldr.w   r10, [sp, #8]
    ldr.w   r8, [r9]                    /* y = t_{j-1} of u and u + 1 */
    ldr.w   r6, [r9, #4]
    cmp.w   r10, #0
    blt.w   .Lgar_pfin
.Lgar_pi:
    ldr.w   lr, [r3, r10, lsl #2]       /* cj[i] */
    sub.w   r9, r9, r1
    umull.w r12, r7, r8, lr
    mul.w   r11, r12, r5
    umlal.w r12, r7, r11, r4
    ldr.w   r11, [r9]                   /* t_i of u */
    sub.w   r7, r7, r4
    and.w   r12, r4, r7, asr #31
    add.w   r8, r7, r12
    add.w   r8, r8, r11
    umull.w r12, r7, r6, lr
    mul.w   r11, r12, r5
    umlal.w r12, r7, r11, r4
    ldr.w   r11, [r9, #4]               /* t_i of u + 1 */
    sub.w   r7, r7, r4
    and.w   r12, r4, r7, asr #31
    add.w   r6, r7, r12
    add.w   r6, r6, r11
    subs.w  r10, r10, #1
    bpl.w   .Lgar_pi
.Lgar_pfin:
    add.w   r9, r0, r2
    add.w   r9, r9, r1                  /* &res[j m + u] */
    ldr.w   r10, [sp, #4]               /* bj */
    ldr.w   lr, [sp, #0]                /* inv */
    GARNER_FIN r8, 0
    GARNER_FIN r6, 4
    add.w   r0, r0, #8
    ldr.w   lr, [sp, #12]
    sub.w   r7, lr, r0
    cmp.w   r7, #8
    bhs.w   .Lgar_pair
.Lgar_tail:
    ldr.w   lr, [sp, #12]
    cmp.w   r0, lr
    beq.w   .Lgar_done
    /* one coefficient (m odd): r8 y, lr end, the constants from the stack */
.Lgar_u:
    add.w   r9, r0, r2
    ldr.w   r10, [sp, #8]
    ldr.w   r8, [r9]                    /* y = t_{j-1} */
    cmp.w   r10, #0
    blt.w   .Lgar_fin
.Lgar_i:
    ldr.w   r11, [r3, r10, lsl #2]      /* cj[i] */
    sub.w   r9, r9, r1
    umull.w r12, r7, r8, r11
    mul.w   r11, r12, r5
    umlal.w r12, r7, r11, r4            /* r7 = (y c + w p) / 2^32 < 2p */
    ldr.w   r6, [r9]                    /* t_i */
    sub.w   r7, r7, r4
    and.w   r11, r4, r7, asr #31
    add.w   r8, r7, r11
    add.w   r8, r8, r6                  /* below p + 2^31 < 2^32 */
    subs.w  r10, r10, #1
    bpl.w   .Lgar_i
.Lgar_fin:
    sub.w   r7, r8, r4                  /* y < 3p: two conditional subtractions */
    and.w   r11, r4, r7, asr #31
    add.w   r8, r7, r11
    sub.w   r7, r8, r4
    and.w   r11, r4, r7, asr #31
    add.w   r8, r7, r11
    add.w   r9, r0, r2
    ldr.w   r6, [r9, r1]                /* t_j */
    ldr.w   r7, [sp, #4]
    add.w   r6, r6, r7                  /* + bj mod p */
    sub.w   r6, r6, r4
    and.w   r11, r4, r6, asr #31
    add.w   r6, r6, r11
    sub.w   r6, r6, r8                  /* - y mod p */
    and.w   r11, r4, r6, asr #31
    add.w   r6, r6, r11
    ldr.w   r11, [sp, #0]               /* inv */
    umull.w r12, r7, r6, r11
    mul.w   r11, r12, r5
    umlal.w r12, r7, r11, r4
    sub.w   r7, r7, r4
    and.w   r11, r4, r7, asr #31
    add.w   r7, r7, r11
    str.w   r7, [r9, r1]
    add.w   r0, r0, #4
    cmp.w   r0, lr
    bne.w   .Lgar_u
.Lgar_done:
    add.w   sp, sp, #16
    pop.w   {r4-r11, pc}
    .size pqlab_fndsa_garner_row_native, . - pqlab_fndsa_garner_row_native

/* ---- signed product, truncated: r = a b mod 2^(32 rlen) ----
 *
 *   void pqlab_fndsa_zmul_native(uint32_t *r, size_t rlen, const uint32_t *a, size_t alen,
 *                                const uint32_t *b, size_t blen);
 *
 * As zmul of lib/fndsa/ntru.c: the unsigned product A B of the first min(alen, rlen) rows
 * (row i: r[i + j] += a_i b_j with UMAAL for j < min(blen, rlen - i), its carry stored at
 * r[i + blen] when that is below rlen; two whole rows per pass where they fit), then a b = A B - [a < 0] B 2^(32 alen) - [b < 0]
 * A 2^(32 blen) + [a < 0][b < 0] 2^(32 (alen + blen)): two masked subtractions (borrow in
 * the carry flag, propagated to the top) and one masked increment. Every branch depends on
 * the lengths only. */

/* r[off..rlen) -= (y[0..ylen) & mask) zero-extended: r12 &r[off], r1 end of r, r9 y,
 * r10 ylen (> 0), r7 mask; r0 r11 lr temporaries; nothing when r12 >= r1 */
.macro SUBMASKED n
    cmp.w   r12, r1
    bhs.w   .Lzm_sd\n
    sub.w   lr, r1, r12                 /* bytes left in r */
    cmp.w   lr, r10, lsl #2
    bls.w   .Lzm_sl\n
    lsl.w   lr, r10, #2
.Lzm_sl\n:
    add.w   lr, r12, lr                 /* end of the masked part */
    cmp.w   r12, r12                    /* C = 1: no borrow */
.Lzm_s1\n:
    ldr.w   r11, [r9], #4
    ldr.w   r0, [r12]
    and.w   r11, r11, r7
    sbcs.w  r0, r0, r11
    str.w   r0, [r12], #4
    teq.w   r12, lr
    bne.w   .Lzm_s1\n
.Lzm_s2\n:
    teq.w   r12, r1                     /* the borrow up to the top */
    beq.w   .Lzm_sd\n
    ldr.w   r0, [r12]
    sbcs.w  r0, r0, #0
    str.w   r0, [r12], #4
    b.w     .Lzm_s2\n
.Lzm_sd\n:
.endm

    .section .text.pqlab_fndsa_zmul_native, "ax", %progbits
    .balign 4
    .global pqlab_fndsa_zmul_native
    .type pqlab_fndsa_zmul_native, %function
    .thumb_func
pqlab_fndsa_zmul_native:
    push.w  {r0-r11, lr}                /* [sp] r, [sp, #4] rlen, [sp, #8] a, [sp, #12] alen */
    ldr.w   r4, [sp, #52]               /* b */
    ldr.w   r5, [sp, #56]               /* blen */
    add.w   r1, r0, r1, lsl #2          /* end of r */
    mov.w   r6, r0
    mov.w   r7, #0
.Lzm_zero:
    str.w   r7, [r6], #4
    cmp.w   r6, r1
    bne.w   .Lzm_zero
    /* rows: r2 a, r3 rows left, r5 4 blen, r6 &r[i], r7 a_i, r8 carry, r9 b, r10 row end,
     * r12 &r[i + j] */
    ldr.w   r3, [sp, #4]
    ldr.w   r7, [sp, #12]
    cmp.w   r3, r7
    bls.w   .Lzm_na
    mov.w   r3, r7                      /* min(alen, rlen) */
.Lzm_na:
    lsl.w   r5, r5, #2
    mov.w   r6, r0
    str.w   r3, [sp, #4]                /* rows left (rlen is not needed again) */
.Lzm_row:
    /* two rows i, i + 1 together when both are whole (i + blen + 1 < rlen): column k gets
     * a_i b_{k-i} + a_{i+1} b_{k-i-1} with two carry chains, b_{k-i-1} kept from the column
     * before; r[i + blen] (still 0) and r[i + blen + 1] get the two carries */
    cmp.w   r3, #2
    blo.w   .Lzm_single
    add.w   r11, r6, r5
    add.w   r11, r11, #4                /* &r[i + blen + 1] */
    cmp.w   r11, r1
    bhs.w   .Lzm_single
    push.w  {r1, r5, r6}
    add.w   r10, r4, r5                 /* end of b */
    ldr.w   r7, [r2], #4                /* a_i */
    ldr.w   r1, [r2], #4                /* a_{i+1} */
    mov.w   r8, #0                      /* carry of row i */
    mov.w   r5, #0                      /* carry of row i + 1 */
    mov.w   r12, r6
    mov.w   r9, r4
    ldr.w   r3, [r9], #4                /* b_0 */
    ldr.w   r0, [r12]
    umaal.w r0, r8, r7, r3              /* column i */
    str.w   r0, [r12], #4
    sub.w   r11, r10, r9
    tst.w   r11, #4                     /* blen - 1 columns left: one first when odd */
    beq.w   .Lzm_b2chk
    ldr.w   r11, [r9], #4
    ldr.w   r0, [r12]
    umaal.w r0, r8, r7, r11
    umaal.w r0, r5, r1, r3
    str.w   r0, [r12], #4
    mov.w   r3, r11
.Lzm_b2chk:
    cmp.w   r9, r10
    beq.w   .Lzm_b2end
.Lzm_b2:
    ldr.w   r11, [r9]                   /* b_j */
    ldr.w   lr, [r9, #4]                /* b_{j+1} */
    ldr.w   r0, [r12]
    ldr.w   r6, [r12, #4]
    umaal.w r0, r8, r7, r11             /* a_i b_j */
    umaal.w r0, r5, r1, r3              /* a_{i+1} b_{j-1} */
    umaal.w r6, r8, r7, lr
    umaal.w r6, r5, r1, r11
    str.w   r0, [r12]
    str.w   r6, [r12, #4]
    mov.w   r3, lr
    add.w   r9, r9, #8
    add.w   r12, r12, #8
    cmp.w   r9, r10
    bne.w   .Lzm_b2
.Lzm_b2end:
    umaal.w r8, r5, r1, r3              /* column i + blen: a_{i+1} b_{blen-1} + both carries */
    str.w   r8, [r12]
    str.w   r5, [r12, #4]
    pop.w   {r1, r5, r6}
    add.w   r6, r6, #8
    ldr.w   r3, [sp, #4]
    subs.w  r3, r3, #2
    str.w   r3, [sp, #4]
    bne.w   .Lzm_row
    b.w     .Lzm_rowsdone
.Lzm_single:
    ldr.w   r7, [r2], #4
    mov.w   r8, #0
    mov.w   r9, r4
    mov.w   r12, r6
    sub.w   r10, r1, r6
    cmp.w   r10, r5
    bls.w   .Lzm_jn
    mov.w   r10, r5
.Lzm_jn:
    tst.w   r10, #4                     /* odd jn: one limb first */
    add.w   r10, r6, r10
    beq.w   .Lzm_mac2
    ldr.w   r11, [r9], #4
    ldr.w   r0, [r12]
    umaal.w r0, r8, r7, r11             /* r8:r0 = a_i b_j + r[i + j] + carry */
    str.w   r0, [r12], #4
    cmp.w   r12, r10
    beq.w   .Lzm_macend
.Lzm_mac2:
    ldr.w   r11, [r9]
    ldr.w   lr, [r9, #4]
    ldr.w   r0, [r12]
    ldr.w   r3, [r12, #4]
    umaal.w r0, r8, r7, r11
    umaal.w r3, r8, r7, lr
    str.w   r0, [r12]
    str.w   r3, [r12, #4]
    add.w   r9, r9, #8
    add.w   r12, r12, #8
    cmp.w   r12, r10
    bne.w   .Lzm_mac2
.Lzm_macend:
    cmp.w   r12, r1
    beq.w   .Lzm_rowend
    str.w   r8, [r12]                   /* limb i + blen: still 0 before this row */
.Lzm_rowend:
    add.w   r6, r6, #4
    ldr.w   r3, [sp, #4]
    subs.w  r3, r3, #1
    str.w   r3, [sp, #4]
    bne.w   .Lzm_row
.Lzm_rowsdone:
    /* sa, sb */
    ldr.w   r2, [sp, #8]
    ldr.w   r3, [sp, #12]
    ldr.w   r5, [sp, #56]
    add.w   r0, r2, r3, lsl #2
    ldr.w   r6, [r0, #-4]
    asr.w   r6, r6, #31                 /* sa */
    add.w   r0, r4, r5, lsl #2
    ldr.w   r8, [r0, #-4]
    asr.w   r8, r8, #31                 /* sb */
    /* r -= (B & sa) << alen */
    ldr.w   r0, [sp, #0]
    add.w   r12, r0, r3, lsl #2
    mov.w   r9, r4
    mov.w   r10, r5
    mov.w   r7, r6
    SUBMASKED 1
    /* r -= (A & sb) << blen */
    ldr.w   r0, [sp, #0]
    add.w   r12, r0, r5, lsl #2
    mov.w   r9, r2
    mov.w   r10, r3
    mov.w   r7, r8
    SUBMASKED 2
    /* r += (sa & sb & 1) << (alen + blen) */
    ldr.w   r0, [sp, #0]
    add.w   r12, r3, r5
    add.w   r12, r0, r12, lsl #2
    cmp.w   r12, r1
    bhs.w   .Lzm_done
    and.w   r7, r6, r8
    and.w   r7, r7, #1
    ldr.w   r0, [r12]
    adds.w  r0, r0, r7
    str.w   r0, [r12], #4
.Lzm_inc:
    teq.w   r12, r1
    beq.w   .Lzm_done
    ldr.w   r0, [r12]
    adcs.w  r0, r0, #0
    str.w   r0, [r12], #4
    b.w     .Lzm_inc
.Lzm_done:
    add.w   sp, sp, #16
    pop.w   {r4-r11, pc}
    .size pqlab_fndsa_zmul_native, . - pqlab_fndsa_zmul_native

/* ---- residues of m signed integers modulo p ----
 *
 *   void pqlab_fndsa_mp_of_poly_native(uint32_t *t, const uint32_t *x, size_t stride,
 *                                      size_t len, size_t m, const uint32_t q[4]);
 *
 * t[u] = mp_of_zint(x + u stride, len, q) of lib/fndsa/ntru.c, q = {p, p0i, 2^32 mod p,
 * 2^64 mod p} (modp_t). Horner from the top limb (signed: + 2p when negative, one
 * conditional subtraction): r <- mmul(r, 2^64 mod p) + x_i. mmul(a, b) takes any a below
 * 2^32 and gives the normal form, so r is kept below 2^32 instead of reduced: x_i after
 * one conditional subtraction of p is below 2^32 - p, and mmul(...) + x_i < 2^32. The end
 * value (below 2^32 < 3p) gets two conditional subtractions: the same normal form. No
 * branch or address depends on the data. */
    .section .text.pqlab_fndsa_mp_of_poly_native, "ax", %progbits
    .balign 4
    .global pqlab_fndsa_mp_of_poly_native
    .type pqlab_fndsa_mp_of_poly_native, %function
    .thumb_func
pqlab_fndsa_mp_of_poly_native:
    push.w  {r4-r11, lr}
    ldr.w   r7, [sp, #36]               /* m */
    ldr.w   r12, [sp, #40]              /* q */
    ldr.w   r4, [r12, #0]               /* p */
    ldr.w   r5, [r12, #4]               /* p0i */
    ldr.w   r6, [r12, #12]              /* 2^64 mod p */
    lsl.w   r2, r2, #2
    cmp.w   r7, #0
    beq.w   .Lmpz_done
    /* r0 t, r1 &x_u, r2 stride bytes, r3 len, r8 r, r9 limb pointer (downwards), r7 count */
.Lmpz_u:
    add.w   r9, r1, r3, lsl #2
    ldr.w   r10, [r9, #-4]!             /* top limb, signed */
    lsl.w   r11, r4, #1
    and.w   r11, r11, r10, asr #31
    add.w   r10, r10, r11               /* + 2p when negative: [0, 2p) */
    sub.w   r8, r10, r4
    and.w   r11, r4, r8, asr #31
    add.w   r8, r8, r11                 /* [0, p) */
    cmp.w   r9, r1
    beq.w   .Lmpz_fin
.Lmpz_limb:
    ldr.w   r10, [r9, #-4]!
    subs.w  r11, r10, r4
    sbc.w   r12, r12, r12               /* -1 when x_i < p */
    and.w   r12, r12, r4
    add.w   r10, r11, r12               /* x_i mod p, or x_i - p: below 2^32 - p */
    umull.w r11, r12, r8, r6
    mul.w   lr, r11, r5
    umlal.w r11, r12, lr, r4            /* r12 = (r R2 + w p) / 2^32 < 2p */
    sub.w   r12, r12, r4
    and.w   lr, r4, r12, asr #31
    add.w   r12, r12, lr                /* mmul(r, R2) in [0, p) */
    add.w   r8, r12, r10
    cmp.w   r9, r1
    bne.w   .Lmpz_limb
.Lmpz_fin:
    subs.w  r11, r8, r4                 /* r < 2^32 < 3p: two conditional subtractions */
    sbc.w   r12, r12, r12
    and.w   r12, r12, r4
    add.w   r8, r11, r12
    subs.w  r11, r8, r4
    sbc.w   r12, r12, r12
    and.w   r12, r12, r4
    add.w   r8, r11, r12
    str.w   r8, [r0], #4
    add.w   r1, r1, r2
    subs.w  r7, r7, #1
    bne.w   .Lmpz_u
.Lmpz_done:
    pop.w   {r4-r11, pc}
    .size pqlab_fndsa_mp_of_poly_native, . - pqlab_fndsa_mp_of_poly_native

/* ---- word copy, overlap in either direction ----
 *
 *   void pqlab_fndsa_wmove_native(uint32_t *d, const uint32_t *s, size_t n);
 *
 * As wmove of lib/fndsa/ntru.c: upwards when d <= s, else downwards from the end; four
 * words per LDM/STM (all four read before any is written, so an overlap within a block is
 * harmless), then the n % 4 words at the far end one at a time. Branches depend on n and on
 * the addresses (public). */
    .section .text.pqlab_fndsa_wmove_native, "ax", %progbits
    .balign 4
    .global pqlab_fndsa_wmove_native
    .type pqlab_fndsa_wmove_native, %function
    .thumb_func
pqlab_fndsa_wmove_native:
    push.w  {r4-r6, lr}
    and.w   r12, r2, #3                 /* rest */
    lsr.w   r2, r2, #2                  /* blocks of four */
    cmp.w   r0, r1
    bhi.w   .Lwm_down
    cmp.w   r2, #0
    beq.w   .Lwm_up1
.Lwm_up4:
    ldm.w   r1!, {r3-r6}
    stm.w   r0!, {r3-r6}
    subs.w  r2, r2, #1
    bne.w   .Lwm_up4
.Lwm_up1:
    cmp.w   r12, #0
    beq.w   .Lwm_done
    ldr.w   r3, [r1], #4
    str.w   r3, [r0], #4
    subs.w  r12, r12, #1
    b.w     .Lwm_up1
.Lwm_down:
    add.w   r3, r12, r2, lsl #2         /* n */
    add.w   r0, r0, r3, lsl #2
    add.w   r1, r1, r3, lsl #2
    cmp.w   r2, #0
    beq.w   .Lwm_down1
.Lwm_down4:
    ldmdb.w r1!, {r3-r6}
    stmdb.w r0!, {r3-r6}
    subs.w  r2, r2, #1
    bne.w   .Lwm_down4
.Lwm_down1:
    cmp.w   r12, #0
    beq.w   .Lwm_done
    ldr.w   r3, [r1, #-4]!
    str.w   r3, [r0, #-4]!
    subs.w  r12, r12, #1
    b.w     .Lwm_down1
.Lwm_done:
    pop.w   {r4-r6, pc}
    .size pqlab_fndsa_wmove_native, . - pqlab_fndsa_wmove_native

/* ---- the top three limbs that carry a signed integer's value ----
 *
 *   uint32_t pqlab_fndsa_zint_top3_native(const uint32_t *x, size_t len, uint32_t w[3]);
 *
 * As zint_top3 of lib/fndsa/ntru.c: limb i >= 1 is needed when it differs from the sign
 * extension or limb i - 1's top bit differs from the sign; returns nl = 1 + the highest
 * needed index, w = {limb nl - 3, nl - 2, nl - 1} (0 below limb 0). One pass over all limbs;
 * the selections with SEL on GE flags set by UADD8 of the all-ones or all-zero mask
 * (single-cycle, no branch). */
    .section .text.pqlab_fndsa_zint_top3_native, "ax", %progbits
    .balign 4
    .global pqlab_fndsa_zint_top3_native
    .type pqlab_fndsa_zint_top3_native, %function
    .thumb_func
pqlab_fndsa_zint_top3_native:
    push.w  {r2, r4-r11, lr}
    add.w   r1, r0, r1, lsl #2          /* end of x */
    ldr.w   r3, [r1, #-4]
    asr.w   r3, r3, #31                 /* ext */
    ldr.w   r8, [r0], #4                /* p1 = x[0] */
    mov.w   r4, #1                      /* nl */
    mov.w   r5, #0                      /* w0 */
    mov.w   r6, #0                      /* w1 */
    mov.w   r7, r8                      /* w2 */
    mov.w   r9, #0                      /* p2 */
    eor.w   r10, r8, r3                 /* p1 ^ ext */
    mov.w   r11, #1                     /* i */
    cmp.w   r0, r1
    beq.w   .Ltop_done
.Ltop_limb:
    ldr.w   r12, [r0], #4               /* x_i */
    eor.w   lr, r12, r3
    orr.w   r2, lr, r10, lsr #31        /* nonzero when limb i is needed */
    rsb.w   r10, r2, #0
    orr.w   r2, r2, r10
    asr.w   r2, r2, #31
    uadd8.w r2, r2, r2                  /* GE = the mask */
    add.w   r11, r11, #1
    sel.w   r4, r11, r4
    sel.w   r5, r9, r5
    sel.w   r6, r8, r6
    sel.w   r7, r12, r7
    mov.w   r9, r8
    mov.w   r8, r12
    mov.w   r10, lr
    cmp.w   r0, r1
    bne.w   .Ltop_limb
.Ltop_done:
    pop.w   {r2}
    stm.w   r2, {r5-r7}
    mov.w   r0, r4
    pop.w   {r4-r11, pc}
    .size pqlab_fndsa_zint_top3_native, . - pqlab_fndsa_zint_top3_native
