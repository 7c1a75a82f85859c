/* SPDX-License-Identifier: MIT */
/* Test-only randomness for host unit tests (ctypes): pqlab_randombytes drawn from
 * the NIST KAT AES-256-CTR DRBG, re-seedable from Python, so that KAT records and
 * hedged signatures are reproducible. Not part of any implementation. */
#include "drbg.h"
#include "randombytes.h"

static pqlab_drbg_state test_drbg;
static int test_fail;

void pqlab_test_drbg_seed(const uint8_t entropy[48])
{
    pqlab_drbg_init(&test_drbg, entropy, NULL);
}

/* makes the next calls fail (1) or succeed (0): error paths of the callers */
void pqlab_test_rng_fail(int fail)
{
    test_fail = fail;
}

void pqlab_test_drbg_bytes(uint8_t *out, size_t n)
{
    pqlab_drbg_generate(&test_drbg, out, n);
}

int pqlab_randombytes(uint8_t *out, size_t n)
{
    if (test_fail) {
        return -1;
    }
    pqlab_drbg_generate(&test_drbg, out, n);
    return 0;
}
