/* SPDX-License-Identifier: MIT */
/* Micro-benchmarks and functional checks of the NTT unit (docs/accel.md), for
 * tests/test_sim_ntt_acc.py: the same ELF on cv32e40p-acc-sim and cv32e40p-acc-rtl must print
 * the same lines (results and cycles). Lines:
 *   in <tag> <values>      an operation's inputs (A, B) as written
 *   out <tag> <values>     what the unit returned
 *   cyc <tag> <cycles>     mcycle difference of a timed sequence
 * The timed sequences are inline assembly so that both sides run the same instructions:
 * a WAIT right after the CTRL store, after delay loops of several lengths (shorter and longer
 * than the operation), a STATUS polling loop, a load-use hazard into the CTRL store, the
 * CYCLES register read while busy, and other accesses right after the start (a memory load, a
 * MODE store, a jump after the held access): every access to the unit while it is busy waits
 * (the slots' one timing rule, as the Keccak unit's); the write pipeline (an access right after
 * a store of A or SCALE waits until the word is stored); then one call of every kernel of
 * ntt_acc.c. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "pqlab_hal.h"
#include "ntt_acc.h"
#include "fndsa_modq.h"

#define REG(o) (*(volatile uint32_t *)(uintptr_t)(PQLAB_NTT_ACC_BASE + (o)))
#define WIN(o) ((volatile int32_t *)(uintptr_t)(PQLAB_NTT_ACC_BASE + (o)))

static uint32_t rng = 0x9E3779B9u;
static uint32_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}
static inline uint32_t mcycle(void)
{
    uint32_t c;
    __asm__ volatile("csrr %0, mcycle" : "=r"(c));
    return c;
}
static void line(const char *kind, const char *tag, const int32_t *v, unsigned n)
{
    char b[48];
    int k = snprintf(b, sizeof b, "%s %s", kind, tag);
    pqlab_hal_send(b, (size_t)k);
    for (unsigned i = 0; i < n; i++) {
        k = snprintf(b, sizeof b, " %ld", (long)v[i]);
        pqlab_hal_send(b, (size_t)k);
    }
    pqlab_hal_send("\n", 1);
}
static void cyc(const char *tag, uint32_t c)
{
    int32_t v = (int32_t)c;
    line("cyc", tag, &v, 1);
}

static int32_t va[1024], vb[1024], out[1024];

/* the unit's operations through its windows: inputs printed, outputs printed */
static void unit_op(const char *tag, uint32_t mode, uint32_t scale, unsigned n, const uint32_t *ops, unsigned nops)
{
    for (unsigned i = 0; i < n; i++) {
        va[i] = (int32_t)next();
        vb[i] = (int32_t)(next() % 20000u) - 10000;
    }
    line("in", tag, va, n);
    line("in", tag, vb, n);
    REG(PQLAB_NTT_ACC_MODE) = mode;
    REG(PQLAB_NTT_ACC_SCALE) = scale;
    for (unsigned i = 0; i < n; i++) {
        WIN(PQLAB_NTT_ACC_A)[i] = va[i];
        WIN(PQLAB_NTT_ACC_B)[i] = vb[i];
    }
    for (unsigned k = 0; k < nops; k++) {
        REG(PQLAB_NTT_ACC_CTRL) = ops[k];
        (void)REG(PQLAB_NTT_ACC_WAIT);
    }
    for (unsigned i = 0; i < n; i++) {
        out[i] = WIN(PQLAB_NTT_ACC_A)[i];
    }
    line("out", tag, out, n);
    for (unsigned i = 0; i < n; i++) {
        out[i] = WIN(PQLAB_NTT_ACC_A_CENTRED)[i];
    }
    line("out", tag, out, n);
    for (unsigned i = 0; i < n; i++) {
        out[i] = WIN(PQLAB_NTT_ACC_B)[i];
    }
    line("out", tag, out, n);
}

/* CTRL store, `delay` iterations of a two-instruction loop, WAIT load */
static uint32_t timed_wait(uint32_t op, uint32_t delay)
{
    uint32_t t0, t1, tmp;
    volatile uint32_t *base = &REG(0);
    __asm__ volatile("csrr %0, mcycle\n"
                     "sw %4, 4(%3)\n"
                     "beqz %5, 2f\n"
                     "mv %2, %5\n"
                     "1: addi %2, %2, -1\n"
                     "bnez %2, 1b\n"
                     "2: lw %2, 12(%3)\n"
                     "csrr %1, mcycle\n"
                     : "=&r"(t0), "=&r"(t1), "=&r"(tmp)
                     : "r"(base), "r"(op), "r"(delay)
                     : "memory");
    return t1 - t0;
}

/* CTRL store, then poll STATUS until idle; returns cycles and (in *polls) the loads */
static uint32_t timed_poll(uint32_t op, uint32_t *polls)
{
    uint32_t t0, t1, s, k;
    volatile uint32_t *base = &REG(0);
    __asm__ volatile("csrr %0, mcycle\n"
                     "sw %4, 4(%3)\n"
                     "li %2, 0\n"
                     "1: lw %1, 8(%3)\n"
                     "addi %2, %2, 1\n"
                     "andi %1, %1, 1\n"
                     "bnez %1, 1b\n"
                     "csrr %1, mcycle\n"
                     : "=&r"(t0), "=&r"(s), "=&r"(k)
                     : "r"(base), "r"(op)
                     : "memory");
    t1 = s;
    *polls = k;
    return t1 - t0;
}

/* a loaded value stored to CTRL right away (load-use hazard), WAIT; and CYCLES read after
 * three instructions */
static uint32_t timed_hazard(const uint32_t *opp, uint32_t *mid)
{
    uint32_t t0, t1, m, tmp;
    volatile uint32_t *base = &REG(0);
    __asm__ volatile("csrr %0, mcycle\n"
                     "lw %3, 0(%5)\n"
                     "sw %3, 4(%4)\n"
                     "nop\n"
                     "nop\n"
                     "lw %2, 20(%4)\n"
                     "lw %3, 12(%4)\n"
                     "csrr %1, mcycle\n"
                     : "=&r"(t0), "=&r"(t1), "=&r"(m), "=&r"(tmp)
                     : "r"(base), "r"(opp)
                     : "memory");
    *mid = m;
    return t1 - t0;
}

/* CTRL store, then at once one access that the bus holds until the unit is idle:
 * kind 0 a load of A[5], 1 a store to MODE (the mode it has), 2 a load of STATUS, 3 WAIT
 * followed by a jump; *got: the loaded value */
static uint32_t timed_held(uint32_t op, unsigned kind, uint32_t *got)
{
    uint32_t t0, t1, v = 0;
    volatile uint32_t *base = &REG(0);
    volatile int32_t *a = WIN(PQLAB_NTT_ACC_A);
    const uint32_t mode = REG(PQLAB_NTT_ACC_MODE);
    switch (kind) {
    case 0:
        __asm__ volatile("csrr %0, mcycle\n"
                         "sw %4, 4(%3)\n"
                         "lw %2, 20(%5)\n"
                         "csrr %1, mcycle\n"
                         : "=&r"(t0), "=&r"(t1), "=&r"(v)
                         : "r"(base), "r"(op), "r"(a)
                         : "memory");
        break;
    case 1:
        __asm__ volatile("csrr %0, mcycle\n"
                         "sw %3, 4(%2)\n"
                         "sw %4, 0(%2)\n"
                         "csrr %1, mcycle\n"
                         : "=&r"(t0), "=&r"(t1)
                         : "r"(base), "r"(op), "r"(mode)
                         : "memory");
        break;
    case 2:
        __asm__ volatile("csrr %0, mcycle\n"
                         "sw %4, 4(%3)\n"
                         "lw %2, 8(%3)\n"
                         "csrr %1, mcycle\n"
                         : "=&r"(t0), "=&r"(t1), "=&r"(v)
                         : "r"(base), "r"(op)
                         : "memory");
        break;
    default:
        __asm__ volatile("csrr %0, mcycle\n"
                         "sw %4, 4(%3)\n"
                         "lw %2, 12(%3)\n"
                         "j 1f\n"
                         "1: csrr %1, mcycle\n"
                         : "=&r"(t0), "=&r"(t1), "=&r"(v)
                         : "r"(base), "r"(op)
                         : "memory");
        break;
    }
    *got = v;
    return t1 - t0;
}

/* the write pipeline (since h71): a store of A[7] (or SCALE) and at once an access that waits
 * until the word is stored: kind 0 a load of A[7], 1 a second store (A[8], not held) then the
 * load, 2 SCALE store and load, 3 the load two instructions later, 4 the store then the CTRL
 * store (held) and WAIT; *got: the loaded value */
static uint32_t timed_posted(unsigned kind, int32_t x, uint32_t *got)
{
    uint32_t t0, t1, v = 0;
    volatile uint32_t *base = &REG(0);
    volatile int32_t *a = WIN(PQLAB_NTT_ACC_A);
    const uint32_t op = PQLAB_NTT_ACC_OP_NTT | PQLAB_NTT_ACC_OP_ON_B; /* leaves A as it is */
    switch (kind) {
    case 0:
        __asm__ volatile("csrr %0, mcycle\n"
                         "sw %4, 28(%3)\n"
                         "lw %2, 28(%3)\n"
                         "csrr %1, mcycle\n"
                         : "=&r"(t0), "=&r"(t1), "=&r"(v)
                         : "r"(a), "r"(x)
                         : "memory");
        break;
    case 1:
        __asm__ volatile("csrr %0, mcycle\n"
                         "sw %4, 28(%3)\n"
                         "sw %4, 32(%3)\n"
                         "lw %2, 28(%3)\n"
                         "csrr %1, mcycle\n"
                         : "=&r"(t0), "=&r"(t1), "=&r"(v)
                         : "r"(a), "r"(x)
                         : "memory");
        break;
    case 2:
        __asm__ volatile("csrr %0, mcycle\n"
                         "sw %4, 16(%3)\n"
                         "lw %2, 16(%3)\n"
                         "csrr %1, mcycle\n"
                         : "=&r"(t0), "=&r"(t1), "=&r"(v)
                         : "r"(base), "r"(x)
                         : "memory");
        break;
    case 3:
        __asm__ volatile("csrr %0, mcycle\n"
                         "sw %4, 28(%3)\n"
                         "nop\n"
                         "nop\n"
                         "lw %2, 28(%3)\n"
                         "csrr %1, mcycle\n"
                         : "=&r"(t0), "=&r"(t1), "=&r"(v)
                         : "r"(a), "r"(x)
                         : "memory");
        break;
    default:
        __asm__ volatile("csrr %0, mcycle\n"
                         "sw %4, 28(%3)\n"
                         "sw %6, 4(%5)\n"
                         "lw %2, 12(%5)\n"
                         "csrr %1, mcycle\n"
                         : "=&r"(t0), "=&r"(t1), "=&r"(v)
                         : "r"(a), "r"(x), "r"(base), "r"(op)
                         : "memory");
        break;
    }
    *got = v;
    return t1 - t0;
}

int main(void)
{
    pqlab_hal_setup();
#ifdef NTT_BENCH_FAULT
    /* negative control: a partial-word access to a memory window (here right after a start,
     * held until the unit is idle) is a bus fault */
    REG(PQLAB_NTT_ACC_MODE) = PQLAB_NTT_ACC_MLDSA;
    REG(PQLAB_NTT_ACC_CTRL) = PQLAB_NTT_ACC_OP_NTT;
    *(volatile uint16_t *)(uintptr_t)&WIN(PQLAB_NTT_ACC_A)[NTT_BENCH_FAULT] = 1;
    pqlab_hal_send("not refused\n", 12);
    pqlab_hal_exit(0);
#endif
    static const uint32_t ntt_b[] = {PQLAB_NTT_ACC_OP_NTT, PQLAB_NTT_ACC_OP_NTT | PQLAB_NTT_ACC_OP_ON_B};
    static const uint32_t kem[] = {PQLAB_NTT_ACC_OP_NTT, PQLAB_NTT_ACC_OP_NTT | PQLAB_NTT_ACC_OP_ON_B,
                                   PQLAB_NTT_ACC_OP_BASEMUL, PQLAB_NTT_ACC_OP_INTT};
    static const uint32_t pw[] = {PQLAB_NTT_ACC_OP_NTT, PQLAB_NTT_ACC_OP_NTT | PQLAB_NTT_ACC_OP_ON_B,
                                  PQLAB_NTT_ACC_OP_PWM, PQLAB_NTT_ACC_OP_INTT,
                                  PQLAB_NTT_ACC_OP_INTT | PQLAB_NTT_ACC_OP_ON_B};
    unit_op("kem", PQLAB_NTT_ACC_MLKEM, 1234, 256, kem, 4);
    unit_op("dsa", PQLAB_NTT_ACC_MLDSA, 4567890, 256, pw, 5);
    unit_op("fn9", PQLAB_NTT_ACC_FNDSA | (9u << 8), 777, 512, pw, 5);
    unit_op("fn10", PQLAB_NTT_ACC_FNDSA | (10u << 8), 12288, 1024, ntt_b, 2);
    unit_op("fn2", PQLAB_NTT_ACC_FNDSA | (2u << 8), 5, 4, pw, 5);

    /* timing of the bus protocol (ML-DSA NTT: 1024 busy cycles) */
    REG(PQLAB_NTT_ACC_MODE) = PQLAB_NTT_ACC_MLDSA;
    static const uint32_t delays[] = {0, 1, 2, 5, 100, 250, 253, 254, 255, 256, 257, 300, 400};
    char tag[32];
    for (unsigned k = 0; k < sizeof delays / sizeof delays[0]; k++) {
        snprintf(tag, sizeof tag, "wait%lu", (unsigned long)delays[k]);
        cyc(tag, timed_wait(PQLAB_NTT_ACC_OP_NTT, delays[k]));
    }
    REG(PQLAB_NTT_ACC_MODE) = PQLAB_NTT_ACC_MLKEM;
    cyc("kem-ntt", timed_wait(PQLAB_NTT_ACC_OP_NTT, 0));
    cyc("kem-intt", timed_wait(PQLAB_NTT_ACC_OP_INTT, 0));
    cyc("kem-basemul", timed_wait(PQLAB_NTT_ACC_OP_BASEMUL, 0));
    REG(PQLAB_NTT_ACC_MODE) = PQLAB_NTT_ACC_FNDSA | (9u << 8);
    cyc("fn9-ntt", timed_wait(PQLAB_NTT_ACC_OP_NTT, 0));
    cyc("fn9-pwm", timed_wait(PQLAB_NTT_ACC_OP_PWM, 0));
    uint32_t polls;
    cyc("poll", timed_poll(PQLAB_NTT_ACC_OP_NTT, &polls));
    cyc("polls", polls);
    static const uint32_t op_ntt = PQLAB_NTT_ACC_OP_NTT;
    uint32_t mid;
    cyc("hazard", timed_hazard(&op_ntt, &mid));
    cyc("hazard-cycles-reg", mid);
    REG(PQLAB_NTT_ACC_MODE) = PQLAB_NTT_ACC_MLDSA;
    {
        /* an NTT on whatever the timed sequences left in A (words of other moduli, some not
         * reduced for this one: the unit's arithmetic assumes canonical words, and the model
         * must give the RTL's values for these too) */
        uint32_t stale;
        cyc("stale", timed_held(PQLAB_NTT_ACC_OP_NTT, 0, &stale));
        cyc("stale-value", stale);
        /* then products on those words, not canonical for the next moduli (ML-DSA residues up
         * to 2^23 in A): FN-DSA's pointwise product (n = 256), then ML-KEM's base
         * multiplication (12-bit and 24-bit operand paths); the model must give the RTL's
         * values; a weighted sum of the 256 results of each */
        static const uint32_t smode[2] = {PQLAB_NTT_ACC_FNDSA | (8u << 8), PQLAB_NTT_ACC_MLKEM};
        static const uint32_t sop[2] = {PQLAB_NTT_ACC_OP_PWM, PQLAB_NTT_ACC_OP_BASEMUL};
        static const char *const stag[2] = {"stale-pwm", "stale-bm"};
        for (unsigned k = 0; k < 2; k++) {
            REG(PQLAB_NTT_ACC_MODE) = smode[k];
            cyc(stag[k], timed_wait(sop[k], 0));
            uint32_t sum = 0;
            for (unsigned i = 0; i < 256; i++) {
                sum += (uint32_t)WIN(PQLAB_NTT_ACC_A)[i] * (2 * i + 1);
            }
            snprintf(tag, sizeof tag, "%s-sum", stag[k]);
            cyc(tag, sum);
        }
        REG(PQLAB_NTT_ACC_MODE) = PQLAB_NTT_ACC_MLDSA;
    }
    for (unsigned i = 0; i < 256; i++) { /* known contents: held-load reads NTT(0, 1, .., 255)[5] */
        WIN(PQLAB_NTT_ACC_A)[i] = (int32_t)i;
    }
    static const char *const held[] = {"held-load", "held-mode", "held-status", "held-jump"};
    for (unsigned k = 0; k < 4; k++) {
        uint32_t got;
        cyc(held[k], timed_held(PQLAB_NTT_ACC_OP_NTT, k, &got));
        snprintf(tag, sizeof tag, "%s-value", held[k]);
        cyc(tag, got);
    }

    static const int32_t pvals[3] = {-5, 2147483647, -2147483647 - 1};
    for (unsigned m = 0; m < 3; m++) {
        REG(PQLAB_NTT_ACC_MODE) = m == 2 ? PQLAB_NTT_ACC_FNDSA | (8u << 8) : m;
        for (unsigned k = 0; k < 5; k++) {
            uint32_t got;
            snprintf(tag, sizeof tag, "posted%u-%u", m, k);
            cyc(tag, timed_posted(k, pvals[(m + k) % 3], &got));
            snprintf(tag, sizeof tag, "posted%u-%u-value", m, k);
            cyc(tag, k == 4 ? (uint32_t)WIN(PQLAB_NTT_ACC_A)[7] : got);
        }
    }
    REG(PQLAB_NTT_ACC_MODE) = PQLAB_NTT_ACC_MLDSA;

    /* one call of every kernel */
    static int16_t p16[256], q16[256], r16[256];
    static int32_t p32[256], q32[256], r32[256];
    static uint16_t u[1024], w[1024];
    for (unsigned i = 0; i < 256; i++) {
        p16[i] = (int16_t)((int32_t)(next() % 6657u) - 3328);
        q16[i] = (int16_t)((int32_t)(next() % 6657u) - 3328);
        r16[i] = (int16_t)((int32_t)(next() % 6657u) - 3328);
        p32[i] = (int32_t)(next() >> 4) - (1 << 27);
        q32[i] = (int32_t)(next() % 16760833u) - 8380416;
        r32[i] = (int32_t)(next() % 16760833u) - 8380416;
    }
    for (unsigned i = 0; i < 1024; i++) {
        u[i] = (uint16_t)(next() % 12289u);
        w[i] = (uint16_t)(next() % 12289u);
    }
    uint32_t t;
#define TIMED(tag, call)                                                                                               \
    t = mcycle();                                                                                                      \
    call;                                                                                                              \
    cyc(tag, mcycle() - t)
    TIMED("k-mlkem-ntt", pqlab_mlkem_ntt_acc(p16));
    TIMED("k-mlkem-invntt", pqlab_mlkem_invntt_acc(q16));
    TIMED("k-mlkem-basemul", pqlab_mlkem_basemul_acc_acc(r16, p16, q16));
    TIMED("k-mldsa-ntt", pqlab_mldsa_ntt_acc(p32));
    TIMED("k-mldsa-invntt", pqlab_mldsa_invntt_acc(q32));
    TIMED("k-mldsa-pointwise", pqlab_mldsa_pointwise_acc(r32, p32, q32));
    TIMED("k-mldsa-pointwise-acc", pqlab_mldsa_pointwise_accumulate_acc(r32, p32, q32));
    TIMED("k-fndsa-ntt-512", pqlab_fndsa_mq_ntt_native(u, 9));
    TIMED("k-fndsa-intt-512", pqlab_fndsa_mq_intt_native(u, 9));
    TIMED("k-fndsa-polymul-512", pqlab_fndsa_mq_polymul_native(u, w, 9));
    TIMED("k-fndsa-polymul-1024", pqlab_fndsa_mq_polymul_native(u, w, 10));
    int32_t s = 0;
    for (unsigned i = 0; i < 256; i++) {
        s = s * 31 + p16[i] + q16[i] + r16[i] + p32[i] + q32[i] + r32[i];
    }
    for (unsigned i = 0; i < 1024; i++) {
        s = s * 31 + u[i];
    }
    cyc("k-checksum", (uint32_t)s);
    pqlab_hal_send("end\n", 4);
    pqlab_hal_exit(0);
}
