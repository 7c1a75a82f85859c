/* SPDX-License-Identifier: MIT */
/* The ct program's FN-DSA part (docs/fndsa.md): key generation from the seed of a KAT
 * record whose key generation goes through a candidate that the reference-schedule replay
 * of the NTRU solver rejects (record 50 of falcon512-KAT, record 1 of falcon1024-KAT; the
 * seed is the first 48 bytes of the record's DRBG output). The seed is secret, so the whole
 * solver, every depth and the rejection path included, runs under memcheck on secret data;
 * the implementation declassifies nothing there but its accept/reject decisions. The NIST
 * API part of harness/ct.c covers key generation on a random seed, dynamic signing, key
 * expansion and signing with the expanded key. */
#include <stddef.h>
#include <stdint.h>

#include "../lib/common/ct.h"
#include "api.h"
#include "harness.h"

#if CRYPTO_PUBLICKEYBYTES == 897
static const char seed_hex[] =
    "771cbb7c9fbd9fc5db93e3e4de6c034e58be9bade93748c422971421246962347b5f037cd6cf229c695e650c3a3aca4f";
#elif CRYPTO_PUBLICKEYBYTES == 1793
static const char seed_hex[] =
    "4b622de1350119c45a9f2e2ef3dc5df50a759d138cdfbd64c81cc7cc2f513345d5a45a4ced06403c5557e87113cb30ea";
#else
#error "ct_fndsa.c knows KAT seeds for Falcon-512 and Falcon-1024 only"
#endif

static unsigned nibble(char c)
{
    return c <= '9' ? (unsigned)(c - '0') : (unsigned)(c - 'a' + 10);
}

void pqlab_ct_family(void)
{
    static uint8_t pk[CRYPTO_PUBLICKEYBYTES], sk[CRYPTO_SECRETKEYBYTES];
    uint8_t seed[48];
    for (size_t i = 0; i < sizeof seed; i++) {
        seed[i] = (uint8_t)(nibble(seed_hex[2 * i]) << 4 | nibble(seed_hex[2 * i + 1]));
    }
    PQLAB_SECRET(seed, sizeof seed);
    int r = fndsa_keypair_seed(pk, sk, seed);
    PQLAB_DECLASSIFY(&r, sizeof r);
    unsigned restarts = crypto_sign_keygen_restarts();
    PQLAB_DECLASSIFY(&restarts, sizeof restarts); /* declassified by the library's decisions */
    pqlab_test_result("ct-keypair-kat-seed", r == 0);
    /* the path this seed was chosen for: at least one rejected candidate */
    pqlab_test_result("ct-keypair-rejection-path", restarts > 0);
}
