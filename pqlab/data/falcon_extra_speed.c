/* SPDX-License-Identifier: MIT */
/* Cycle counts of the Falcon round-3 package's configurable library (Extra/c, built unmodified
 * with FALCON_FPNATIVE or FALCON_FPEMU) for the Cortex-M7 study comparison (pqlab/m7study.py,
 * docs/sim.md). The operations are those of the package's own speed test (Extra/c/speed.c):
 * key generation, signing without (dynamic) and with an expanded key (tree), key expansion and
 * verification, each on the 4-byte message "data" with compressed signatures. The timer is
 * the platform's (DWT CYCCNT on the Cortex-M platforms). Output, one line per run:
 *   <op> <attempt> <cycles>
 * and "done" at the end. LOGN (9 or 10), KEYGENS and RUNS come from the build.
 * STUDY_CALLS=1 makes the calls those of the Cortex-M7 study's own benchmark (Howe and
 * Westerbaan's firmware, github.com/jameshoweee/falcon-fpu, benchmarking/falcon/main.cpp):
 * constant-time signatures (FALCON_SIG_CT, whose signing and verification hash the message
 * with the constant-time hash_to_point_ct) on the 5-byte message "data1"; without it, the
 * package's speed test's (compressed signatures, "data"). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "falcon.h"
#include "pqlab_hal.h"

#ifndef LOGN
#error "build with -DLOGN=9 or -DLOGN=10"
#endif
#ifndef KEYGENS
#define KEYGENS 2
#endif
#ifndef RUNS
#define RUNS 3
#endif
#ifndef STUDY_CALLS
#define STUDY_CALLS 0
#endif

#if STUDY_CALLS
#define SIG_TYPE FALCON_SIG_CT
#define SIG_SIZE FALCON_SIG_CT_SIZE(LOGN)
#define MESSAGE "data1"
#else
#define SIG_TYPE FALCON_SIG_COMPRESSED
#define SIG_SIZE FALCON_SIG_COMPRESSED_MAXSIZE(LOGN)
#define MESSAGE "data"
#endif
#define MESSAGE_LEN (sizeof MESSAGE - 1)

#define TMP_SIZE FALCON_TMPSIZE_KEYGEN(LOGN)

static uint8_t tmp[TMP_SIZE > FALCON_TMPSIZE_SIGNDYN(LOGN) ? TMP_SIZE : FALCON_TMPSIZE_SIGNDYN(LOGN)]
    __attribute__((aligned(8)));
static uint8_t sk[FALCON_PRIVKEY_SIZE(LOGN)];
static uint8_t pk[FALCON_PUBKEY_SIZE(LOGN)];
static uint8_t esk[FALCON_EXPANDEDKEY_SIZE(LOGN)] __attribute__((aligned(8)));
static uint8_t sig[SIG_SIZE];

static void report(const char *op, int attempt, uint64_t cycles)
{
    char line[96];
    int n = snprintf(line, sizeof line, "%s %d %llu\n", op, attempt, (unsigned long long)cycles);
    pqlab_hal_send(line, (size_t)n);
}

static void fail(const char *op, int r)
{
    char line[64];
    int n = snprintf(line, sizeof line, "error %s %d\n", op, r);
    pqlab_hal_send(line, (size_t)n);
    pqlab_hal_exit(1);
}

int main(void)
{
    shake256_context rng;
    size_t sig_len = 0;
    uint64_t t0;
    int r;
    pqlab_hal_setup();
    for (int k = 0; k < KEYGENS; k++) {
        uint8_t seed[8] = {'p', 'q', 'l', 'a', 'b', 'k', 'g', (uint8_t)k};
        shake256_init_prng_from_seed(&rng, seed, sizeof seed);
        t0 = pqlab_hal_cycles();
        r = falcon_keygen_make(&rng, LOGN, sk, sizeof sk, pk, sizeof pk, tmp, sizeof tmp);
        report("keygen", k, pqlab_hal_cycles() - t0);
        if (r != 0)
            fail("keygen", r);
    }
    for (int k = 0; k < RUNS; k++) {
        sig_len = sizeof sig;
        t0 = pqlab_hal_cycles();
        r = falcon_sign_dyn(&rng, sig, &sig_len, SIG_TYPE, sk, sizeof sk, MESSAGE, MESSAGE_LEN, tmp, sizeof tmp);
        report("sign_dynamic", k, pqlab_hal_cycles() - t0);
        if (r != 0)
            fail("sign_dynamic", r);
    }
    t0 = pqlab_hal_cycles();
    r = falcon_expand_privkey(esk, sizeof esk, sk, sizeof sk, tmp, sizeof tmp);
    report("expand", 0, pqlab_hal_cycles() - t0);
    if (r != 0)
        fail("expand", r);
    for (int k = 0; k < RUNS; k++) {
        sig_len = sizeof sig;
        t0 = pqlab_hal_cycles();
        r = falcon_sign_tree(&rng, sig, &sig_len, SIG_TYPE, esk, MESSAGE, MESSAGE_LEN, tmp, sizeof tmp);
        report("sign_tree", k, pqlab_hal_cycles() - t0);
        if (r != 0)
            fail("sign_tree", r);
    }
    for (int k = 0; k < RUNS; k++) {
        t0 = pqlab_hal_cycles();
        r = falcon_verify(sig, sig_len, SIG_TYPE, pk, sizeof pk, MESSAGE, MESSAGE_LEN, tmp, sizeof tmp);
        report("verify", k, pqlab_hal_cycles() - t0);
        if (r != 0)
            fail("verify", r);
    }
    pqlab_hal_send("done\n", 5);
    pqlab_hal_exit(0);
}
