/* SPDX-License-Identifier: MIT */
/* Driver of the NTT unit and the kernels of ML-KEM, ML-DSA and FN-DSA built on it (ntt_acc.h;
 * contracts: lib/mlkem/kernels.h, lib/mldsa/kernels.h, lib/native/fndsa_modq.h). The unit
 * reduces every int32 written to its memories modulo q and returns canonical residues (or
 * centred ones through its second window); the factors of the C kernels' Montgomery
 * conventions are its SCALE register:
 *   inverse NTT: the unit computes NTT^-1 * 2^layers * SCALE (it does not halve per layer);
 *   pointwise / base multiplication: a o b * SCALE. */
#include <stddef.h>
#include <stdint.h>

#include "../api.h"
#include "ntt_acc.h"

#define REG(o) (*(volatile uint32_t *)(uintptr_t)(PQLAB_NTT_ACC_BASE + (o)))
#define WIN(o) ((volatile int32_t *)(uintptr_t)(PQLAB_NTT_ACC_BASE + (o)))

/* scales (values mod q, computed with Python's pow and checked by tests/test_native_ntt_acc.py
 * through the results) */
#define MLKEM_INTT_SCALE 512u   /* 2^16 / 2^7 mod 3329 */
#define MLKEM_MONT_INV 169u     /* 2^-16 mod 3329 */
#define MLDSA_INTT_SCALE 16382u /* 2^32 / 2^8 mod 8380417 */
#define MLDSA_MONT_INV 8265825u /* 2^-32 mod 8380417 */
#define MLDSA_INV16 7856641u    /* 2^-4 mod 8380417 */
#define FNDSA_Q 12289u

static inline void acc_setup(uint32_t mode, uint32_t scale)
{
    REG(PQLAB_NTT_ACC_MODE) = mode;
    REG(PQLAB_NTT_ACC_SCALE) = scale; /* reduced modulo the q just selected */
}

/* start an operation and wait until the unit is idle (the WAIT load is granted then) */
static inline void acc_run(uint32_t op)
{
    REG(PQLAB_NTT_ACC_CTRL) = op;
    (void)REG(PQLAB_NTT_ACC_WAIT);
}

/* ---- transfers: eight words per iteration, the loads before the stores ---- */

static void put16(uint32_t win, const int16_t *a, size_t n)
{
    volatile int32_t *w = WIN(win);
    for (size_t i = 0; i < n; i += 8) {
        int32_t x0 = a[i], x1 = a[i + 1], x2 = a[i + 2], x3 = a[i + 3];
        int32_t x4 = a[i + 4], x5 = a[i + 5], x6 = a[i + 6], x7 = a[i + 7];
        w[i] = x0, w[i + 1] = x1, w[i + 2] = x2, w[i + 3] = x3;
        w[i + 4] = x4, w[i + 5] = x5, w[i + 6] = x6, w[i + 7] = x7;
    }
}

static void putu16(uint32_t win, const uint16_t *a, size_t n)
{
    volatile int32_t *w = WIN(win);
    for (size_t i = 0; i < n; i += 8) {
        int32_t x0 = a[i], x1 = a[i + 1], x2 = a[i + 2], x3 = a[i + 3];
        int32_t x4 = a[i + 4], x5 = a[i + 5], x6 = a[i + 6], x7 = a[i + 7];
        w[i] = x0, w[i + 1] = x1, w[i + 2] = x2, w[i + 3] = x3;
        w[i + 4] = x4, w[i + 5] = x5, w[i + 6] = x6, w[i + 7] = x7;
    }
}

static void put32(uint32_t win, const int32_t *a, size_t n)
{
    volatile int32_t *w = WIN(win);
    for (size_t i = 0; i < n; i += 8) {
        int32_t x0 = a[i], x1 = a[i + 1], x2 = a[i + 2], x3 = a[i + 3];
        int32_t x4 = a[i + 4], x5 = a[i + 5], x6 = a[i + 6], x7 = a[i + 7];
        w[i] = x0, w[i + 1] = x1, w[i + 2] = x2, w[i + 3] = x3;
        w[i + 4] = x4, w[i + 5] = x5, w[i + 6] = x6, w[i + 7] = x7;
    }
}

static void get16(int16_t *a, uint32_t win, size_t n)
{
    volatile int32_t *w = WIN(win);
    for (size_t i = 0; i < n; i += 8) {
        int32_t x0 = w[i], x1 = w[i + 1], x2 = w[i + 2], x3 = w[i + 3];
        int32_t x4 = w[i + 4], x5 = w[i + 5], x6 = w[i + 6], x7 = w[i + 7];
        a[i] = (int16_t)x0, a[i + 1] = (int16_t)x1, a[i + 2] = (int16_t)x2, a[i + 3] = (int16_t)x3;
        a[i + 4] = (int16_t)x4, a[i + 5] = (int16_t)x5, a[i + 6] = (int16_t)x6, a[i + 7] = (int16_t)x7;
    }
}

static void getu16(uint16_t *a, uint32_t win, size_t n)
{
    volatile int32_t *w = WIN(win);
    for (size_t i = 0; i < n; i += 8) {
        int32_t x0 = w[i], x1 = w[i + 1], x2 = w[i + 2], x3 = w[i + 3];
        int32_t x4 = w[i + 4], x5 = w[i + 5], x6 = w[i + 6], x7 = w[i + 7];
        a[i] = (uint16_t)x0, a[i + 1] = (uint16_t)x1, a[i + 2] = (uint16_t)x2, a[i + 3] = (uint16_t)x3;
        a[i + 4] = (uint16_t)x4, a[i + 5] = (uint16_t)x5, a[i + 6] = (uint16_t)x6, a[i + 7] = (uint16_t)x7;
    }
}

static void get32(int32_t *a, uint32_t win, size_t n)
{
    volatile int32_t *w = WIN(win);
    for (size_t i = 0; i < n; i += 8) {
        int32_t x0 = w[i], x1 = w[i + 1], x2 = w[i + 2], x3 = w[i + 3];
        int32_t x4 = w[i + 4], x5 = w[i + 5], x6 = w[i + 6], x7 = w[i + 7];
        a[i] = x0, a[i + 1] = x1, a[i + 2] = x2, a[i + 3] = x3;
        a[i + 4] = x4, a[i + 5] = x5, a[i + 6] = x6, a[i + 7] = x7;
    }
}

/* ---- ML-KEM ---- */

void pqlab_mlkem_ntt_acc(int16_t c[256])
{
    acc_setup(PQLAB_NTT_ACC_MLKEM, 1);
    put16(PQLAB_NTT_ACC_A, c, 256);
    acc_run(PQLAB_NTT_ACC_OP_NTT);
    get16(c, PQLAB_NTT_ACC_A_CENTRED, 256); /* "reduced": the unique centred representative */
}

void pqlab_mlkem_invntt_acc(int16_t c[256])
{
    acc_setup(PQLAB_NTT_ACC_MLKEM, MLKEM_INTT_SCALE);
    put16(PQLAB_NTT_ACC_A, c, 256);
    acc_run(PQLAB_NTT_ACC_OP_INTT);
    get16(c, PQLAB_NTT_ACC_A, 256);
}

void pqlab_mlkem_basemul_acc_acc(int16_t r[256], const int16_t a[256], const int16_t b[256])
{
    acc_setup(PQLAB_NTT_ACC_MLKEM, MLKEM_MONT_INV);
    put16(PQLAB_NTT_ACC_A, a, 256);
    put16(PQLAB_NTT_ACC_B, b, 256);
    acc_run(PQLAB_NTT_ACC_OP_BASEMUL);
    volatile int32_t *w = WIN(PQLAB_NTT_ACC_A);
    for (size_t i = 0; i < 256; i += 4) {
        int32_t x0 = w[i], x1 = w[i + 1], x2 = w[i + 2], x3 = w[i + 3];
        r[i] = (int16_t)(r[i] + x0), r[i + 1] = (int16_t)(r[i + 1] + x1);
        r[i + 2] = (int16_t)(r[i + 2] + x2), r[i + 3] = (int16_t)(r[i + 3] + x3);
    }
}

/* ---- ML-DSA ---- */

void pqlab_mldsa_ntt_acc(int32_t a[256])
{
    acc_setup(PQLAB_NTT_ACC_MLDSA, 1);
    put32(PQLAB_NTT_ACC_A, a, 256);
    acc_run(PQLAB_NTT_ACC_OP_NTT);
    get32(a, PQLAB_NTT_ACC_A, 256);
}

void pqlab_mldsa_invntt_acc(int32_t a[256])
{
    acc_setup(PQLAB_NTT_ACC_MLDSA, MLDSA_INTT_SCALE);
    put32(PQLAB_NTT_ACC_A, a, 256);
    acc_run(PQLAB_NTT_ACC_OP_INTT);
    get32(a, PQLAB_NTT_ACC_A, 256);
}

void pqlab_mldsa_pointwise_acc(int32_t c[256], const int32_t a[256], const int32_t b[256])
{
    acc_setup(PQLAB_NTT_ACC_MLDSA, MLDSA_MONT_INV);
    put32(PQLAB_NTT_ACC_A, a, 256);
    put32(PQLAB_NTT_ACC_B, b, 256);
    acc_run(PQLAB_NTT_ACC_OP_PWM);
    get32(c, PQLAB_NTT_ACC_A, 256);
}

void pqlab_mldsa_pointwise_accumulate_acc(int32_t c[256], const int32_t a[256], const int32_t b[256])
{
    acc_setup(PQLAB_NTT_ACC_MLDSA, MLDSA_MONT_INV);
    put32(PQLAB_NTT_ACC_A, a, 256);
    put32(PQLAB_NTT_ACC_B, b, 256);
    acc_run(PQLAB_NTT_ACC_OP_PWM);
    volatile int32_t *w = WIN(PQLAB_NTT_ACC_A);
    for (size_t i = 0; i < 256; i += 4) {
        int32_t x0 = w[i], x1 = w[i + 1], x2 = w[i + 2], x3 = w[i + 3];
        c[i] += x0, c[i + 1] += x1, c[i + 2] += x2, c[i + 3] += x3;
    }
}

/* r_j = base_j + centred(NTT^-1(chat o shat_j)), j < count (kernels.h polyvec_nttmul_add):
 * chat goes to B once; per product shat_j to A, the product A = A o B S and the inverse
 * NTT^-1 2^8 S on A with the one SCALE S = 2^-4 (S^2 2^8 = 1), then A's centred window
 * (the exact product when |c s_j| < q/2) added to base_j */
void pqlab_mldsa_nttmul_add_acc(int32_t *r, const int32_t *base, const int32_t chat[256], const int32_t *shat,
                                unsigned count)
{
    acc_setup(PQLAB_NTT_ACC_MLDSA, MLDSA_INV16);
    put32(PQLAB_NTT_ACC_B, chat, 256);
    for (unsigned j = 0; j < count; j++) {
        put32(PQLAB_NTT_ACC_A, shat + 256 * j, 256);
        acc_run(PQLAB_NTT_ACC_OP_PWM);
        acc_run(PQLAB_NTT_ACC_OP_INTT);
        int32_t *rj = r + 256 * j;
        if (base == NULL) {
            get32(rj, PQLAB_NTT_ACC_A_CENTRED, 256);
            continue;
        }
        const int32_t *bj = base + 256 * j;
        volatile int32_t *w = WIN(PQLAB_NTT_ACC_A_CENTRED);
        for (size_t i = 0; i < 256; i += 4) {
            int32_t x0 = w[i], x1 = w[i + 1], x2 = w[i + 2], x3 = w[i + 3];
            rj[i] = bj[i] + x0, rj[i + 1] = bj[i + 1] + x1, rj[i + 2] = bj[i + 2] + x2, rj[i + 3] = bj[i + 3] + x3;
        }
    }
}

/* ---- FN-DSA (lib/native/fndsa_modq.h) ---- */

static inline uint32_t fndsa_mode(unsigned logn)
{
    return PQLAB_NTT_ACC_FNDSA | ((uint32_t)logn << 8);
}

/* 1/n mod q: n (q - (q - 1)/n) = 1 mod q */
static inline uint32_t fndsa_ninv(unsigned logn)
{
    return FNDSA_Q - ((FNDSA_Q - 1u) >> logn);
}

/* n >= 8 moves in whole blocks of eight; the smaller sizes (tests only) one by one */
static void fndsa_put(uint32_t win, const uint16_t *a, size_t n)
{
    if (n >= 8) {
        putu16(win, a, n);
    } else {
        for (size_t i = 0; i < n; i++) {
            WIN(win)[i] = a[i];
        }
    }
}

static void fndsa_get(uint16_t *a, uint32_t win, size_t n)
{
    if (n >= 8) {
        getu16(a, win, n);
    } else {
        for (size_t i = 0; i < n; i++) {
            a[i] = (uint16_t)WIN(win)[i];
        }
    }
}

int pqlab_fndsa_mq_ntt_native(uint16_t *a, unsigned logn)
{
    size_t n = (size_t)1 << logn;
    acc_setup(fndsa_mode(logn), 1);
    fndsa_put(PQLAB_NTT_ACC_A, a, n);
    acc_run(PQLAB_NTT_ACC_OP_NTT);
    fndsa_get(a, PQLAB_NTT_ACC_A, n);
    return PQLAB_NATIVE_DONE;
}

int pqlab_fndsa_mq_intt_native(uint16_t *a, unsigned logn)
{
    size_t n = (size_t)1 << logn;
    acc_setup(fndsa_mode(logn), fndsa_ninv(logn));
    fndsa_put(PQLAB_NTT_ACC_A, a, n);
    acc_run(PQLAB_NTT_ACC_OP_INTT);
    fndsa_get(a, PQLAB_NTT_ACC_A, n);
    return PQLAB_NATIVE_DONE;
}

int pqlab_fndsa_mq_polymul_native(uint16_t *a, const uint16_t *b, unsigned logn)
{
    size_t n = (size_t)1 << logn;
    acc_setup(fndsa_mode(logn), 1);
    fndsa_put(PQLAB_NTT_ACC_A, a, n);
    fndsa_put(PQLAB_NTT_ACC_B, b, n);
    acc_run(PQLAB_NTT_ACC_OP_NTT);
    acc_run(PQLAB_NTT_ACC_OP_NTT | PQLAB_NTT_ACC_OP_ON_B);
    acc_run(PQLAB_NTT_ACC_OP_PWM); /* SCALE 1 */
    REG(PQLAB_NTT_ACC_SCALE) = fndsa_ninv(logn);
    acc_run(PQLAB_NTT_ACC_OP_INTT);
    fndsa_get(a, PQLAB_NTT_ACC_A, n);
    return PQLAB_NATIVE_DONE;
}
