/* SPDX-License-Identifier: MIT */
/* An INSECURE toy KEM for the tests of pqlab-sim's secret tracking (tests/test_ct_sim.py):
 * the masked decapsulation of ../toykem-memcmp (clean), plus, selected by one define, one
 * leak of a secret-key byte per finding class. Each leak's line carries a "LEAK:<name>"
 * comment that the test looks up, so the expected source line is never hard-coded. Results
 * go to volatile sinks so that the compiler keeps the leaking code. Never use it. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "api.h"
#include "randombytes.h"

#define N 32
#define TAG 16

static volatile uint32_t sink;
static volatile uint64_t sink64;
static volatile double sinkd;
static volatile uint32_t public_divisor = 7; /* a public value the compiler cannot see */

static void pk_of(unsigned char *pk, const unsigned char *sk)
{
    for (size_t i = 0; i < N; i++) {
        pk[i] = sk[i] ^ 0x5a;
    }
}

static void tag_of(unsigned char *t, const unsigned char *m)
{
    for (size_t i = 0; i < TAG; i++) {
        t[i] = (unsigned char)(m[i] ^ m[i + TAG] ^ (m[(i + 1) % N] << 1));
    }
}

/* the leaks: noinline and noipa, so that each is a function of its own name */
#define LEAKFN __attribute__((noinline, noipa)) static void

#if defined(TOY_BRANCH)
LEAKFN slow_path(void)
{
    sink = sink * 3u + 1u;
}
LEAKFN toy_leak(const unsigned char *sk)
{
    if (sk[0] & 1u) { /* LEAK:branch */
        slow_path();
    }
}
#elif defined(TOY_TABLE)
static const uint8_t table[16] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3};
LEAKFN toy_leak(const unsigned char *sk)
{
    sink = table[sk[1] & 15u]; /* LEAK:table */
}
#elif defined(TOY_LOOP)
LEAKFN toy_leak(const unsigned char *sk)
{
    for (uint32_t i = 0; i < (sk[2] & 7u); i++) { /* LEAK:loop */
        sink = sink + i;
    }
}
#elif defined(TOY_UDIV)
LEAKFN toy_leak(const unsigned char *sk)
{
    sink = 1000003u / ((uint32_t)sk[3] | 1u); /* LEAK:udiv */
}
#elif defined(TOY_FP64)
LEAKFN toy_leak(const unsigned char *sk)
{
    sinkd = (double)sk[4] + (double)sk[5]; /* LEAK:fp64 */
}
#elif defined(TOY_LDIV)
LEAKFN toy_leak(const unsigned char *sk)
{
    sink64 = ((uint64_t)sk[6] << 40 | 12345u) / ((uint64_t)sk[7] + 3u); /* LEAK:ldiv */
}
#elif defined(TOY_FP32)
/* single precision: a finding only where the core's timing model makes its latency depend on
 * the operands (none of pqlab-sim's: VDIV.F32 and fdiv.s take fixed cycles); without an FPU
 * the soft-float runtime branches on the operands */
static volatile float sinkf;
LEAKFN toy_leak(const unsigned char *sk)
{
    sinkf = (float)sk[8] / ((float)sk[9] + 1.0f); /* LEAK:fp32 */
}
#elif defined(TOY_UNITADDR) || defined(TOY_UNITFLOW) || defined(TOY_UNITCLEAN)
/* through the accelerators of cv32e40p-acc-sim (docs/accel.md; these variants build for that
 * platform only): the Keccak unit of the custom instructions (lib/native/rv32acc/keccak_insn.h),
 * the NTT unit's memory A at 0x10011000 (CTRL at 0x10010004, MODE at 0x10010000) */
#include "keccak_insn.h"
#define NTT_REG ((volatile uint32_t *)(uintptr_t)0x10010000u)
#define NTT_A ((volatile uint32_t *)(uintptr_t)0x10011000u)
LEAKFN slow_path(void)
{
    sink = sink * 3u + 1u;
}
#if defined(TOY_UNITADDR)
LEAKFN toy_leak(const unsigned char *sk)
{
    uint32_t v;
    PQLAB_KLW(v, 0, 4u * (sk[10] & 15u)); /* LEAK:unitaddr */
    sink = v;
}
#elif defined(TOY_UNITFLOW)
/* a secret byte into the state, a permutation, a branch on another word of the result */
LEAKFN toy_leak(const unsigned char *sk)
{
    uint32_t v;
    for (uint32_t i = 0; i < 50; i++) {
        PQLAB_KSW(0, 0, 4u * i);
    }
    PQLAB_KSW(sk[11], 0, 0u);
    PQLAB_KPERM();
    PQLAB_KLW(v, 4, 0u);
    if (v & 1u) { /* LEAK:unitflow */
        slow_path();
    }
}
#else
/* the positive control: secrets through both units, then the units reused on public data
 * (every word overwritten) and a branch on that result; the secret results used with masks */
LEAKFN toy_leak(const unsigned char *sk)
{
    uint32_t v;
    for (uint32_t i = 0; i < 50; i++) {
        PQLAB_KSW(sk[i % N], 0, 4u * i);
    }
    PQLAB_KPERM();
    PQLAB_KLW(v, 12, 0u);
    uint32_t mask = 0u - (v & 1u);
    sink = (sink & ~mask) | ((sink * 3u + 1u) & mask);
    for (uint32_t i = 0; i < 50; i++) {
        PQLAB_KSW(i, 0, 4u * i);
    }
    PQLAB_KPERM();
    PQLAB_KLW(v, 12, 0u);
    if (v & 1u) {
        slow_path();
    }
    NTT_REG[0] = 1; /* ML-DSA */
    for (unsigned i = 0; i < 256; i++) {
        NTT_A[i] = sk[i % N];
    }
    NTT_REG[1] = 1; /* NTT of the secret */
    mask = 0u - (NTT_A[7] & 1u);
    sink = (sink & ~mask) | ((sink * 5u + 1u) & mask);
    for (unsigned i = 0; i < 256; i++) {
        NTT_A[i] = i;
    }
    NTT_REG[1] = 1;
    if (NTT_A[7] & 1u) {
        slow_path();
    }
}
#endif
#else
/* the positive control: the same operations on public values only, and masks on secrets */
LEAKFN toy_leak(const unsigned char *sk)
{
    uint32_t mask = 0u - (uint32_t)(sk[0] & 1u);
    sink = (sink & ~mask) | ((sink * 3u + 1u) & mask);
    sink = 1000003u / public_divisor;
    sinkd = (double)public_divisor + 0.5;
    sink64 = ((uint64_t)public_divisor << 40) / ((uint64_t)public_divisor + 3u);
}
#endif

int crypto_kem_keypair(unsigned char *pk, unsigned char *sk)
{
    randombytes(sk, N);
    pk_of(pk, sk);
    return 0;
}

int crypto_kem_enc(unsigned char *ct, unsigned char *ss, const unsigned char *pk)
{
    unsigned char m[N];
    randombytes(m, N);
    for (size_t i = 0; i < N; i++) {
        ct[i] = m[i] ^ pk[i];
    }
    tag_of(ct + N, m);
    memcpy(ss, m, N);
    return 0;
}

int crypto_kem_dec(unsigned char *ss, const unsigned char *ct, const unsigned char *sk)
{
    unsigned char pk[N], m[N], t[TAG];
    toy_leak(sk);
    pk_of(pk, sk);
    for (size_t i = 0; i < N; i++) {
        m[i] = ct[i] ^ pk[i];
    }
    tag_of(t, m);
    unsigned d = 0;
    for (size_t i = 0; i < TAG; i++) {
        d |= (unsigned)(t[i] ^ ct[N + i]);
    }
    unsigned char reject = (unsigned char)(0u - ((d | (0u - d)) >> 31)); /* 0xff when d != 0 */
    for (size_t i = 0; i < N; i++) {
        ss[i] = (unsigned char)(m[i] ^ ((m[i] ^ sk[i] ^ 0xa5) & reject));
    }
    return 0;
}
