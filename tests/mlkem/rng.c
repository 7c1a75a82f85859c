/* SPDX-License-Identifier: MIT */
/* pqlab_randombytes for the ctypes tests of ML-KEM: either a byte script that
 * the test sets (each call consumes the next bytes; failure when it runs out),
 * or, once seeded, the NIST AES-256-CTR DRBG of the KAT generators. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "randombytes.h"
#ifdef PQLAB_TEST_DRBG
#include "drbg.h"
static pqlab_drbg_state drbg;
#endif

static uint8_t script[4096];
static size_t script_len, script_pos;
static int use_drbg;

void pqlab_test_rng_script(const uint8_t *bytes, size_t n)
{
    if (n > sizeof script) {
        n = sizeof script;
    }
    memcpy(script, bytes, n);
    script_len = n;
    script_pos = 0;
    use_drbg = 0;
}

#ifdef PQLAB_TEST_DRBG
void pqlab_test_rng_drbg(const uint8_t entropy[48])
{
    pqlab_drbg_init(&drbg, entropy, NULL);
    use_drbg = 1;
}
#endif

int pqlab_randombytes(uint8_t *out, size_t n)
{
#ifdef PQLAB_TEST_DRBG
    if (use_drbg) {
        pqlab_drbg_generate(&drbg, out, n);
        return 0;
    }
#endif
    if (script_len - script_pos < n) {
        return -1;
    }
    memcpy(out, script + script_pos, n);
    script_pos += n;
    return 0;
}
