/* SPDX-License-Identifier: MIT */
/* vectors: deterministic outputs of one implementation, for comparison across
 * implementations and platforms (the host hashes the "vector" records).
 * Randomness: one SHAKE128 stream (FIPS 202, section 6.2) of the 16-byte seed
 * "pqlab-vectors-v1" (ASCII), consumed in call order by pqlab_randombytes():
 * every randombytes() of the implementation and every message drawn here take
 * the next bytes of the stream.
 * KEM, PQLAB_VECTOR_ITERATIONS times (default 3): keypair, encaps, decaps;
 *   records "vector pk|sk|ct|ss <hex>"; decaps must reproduce ss.
 * Signatures, for mlen = 0, 1, 2, 4, ..., PQLAB_VECTOR_MAXMLEN (default 1024):
 *   msg = next mlen bytes of the stream, keypair, sign (attached), open;
 *   records "vector msg|pk|sk|sm <hex>" ("-" for empty) and "vector verify 00"
 *   (00: open succeeded and returned msg; ff: it did not). */
#include <stddef.h>
#include <stdint.h>

#include "../lib/common/randombytes.h"
#include "api_glue.h"
#include "harness.h"

static const uint8_t seed[16] = {'p', 'q', 'l', 'a', 'b', '-', 'v', 'e', 'c', 't', 'o', 'r', 's', '-', 'v', '1'};

static void vector(const char *label, const uint8_t *p, size_t n)
{
    pqlab_rec_begin("vector");
    pqlab_rec_str(label);
    pqlab_rec_hex(p, n);
    pqlab_rec_end();
}

#ifdef PQLAB_KIND_KEM

#ifndef PQLAB_VECTOR_ITERATIONS
#define PQLAB_VECTOR_ITERATIONS 3
#endif

static uint8_t pk[CRYPTO_PUBLICKEYBYTES], sk[CRYPTO_SECRETKEYBYTES], ct[CRYPTO_CIPHERTEXTBYTES];
static uint8_t ss_a[CRYPTO_BYTES], ss_b[CRYPTO_BYTES];

static int run(void)
{
    int ok = 1;
    for (int i = 0; i < PQLAB_VECTOR_ITERATIONS; i++) {
        ok &= crypto_kem_keypair(pk, sk) == 0;
        vector("pk", pk, sizeof pk);
        vector("sk", sk, sizeof sk);
        ok &= crypto_kem_enc(ct, ss_a, pk) == 0;
        vector("ct", ct, sizeof ct);
        vector("ss", ss_a, sizeof ss_a);
        ok &= crypto_kem_dec(ss_b, ct, sk) == 0;
        ok &= pqlab_bytes_equal(ss_a, ss_b, sizeof ss_a);
    }
    return ok;
}

#else

#ifndef PQLAB_VECTOR_MAXMLEN
#define PQLAB_VECTOR_MAXMLEN 1024
#endif

static uint8_t pk[CRYPTO_PUBLICKEYBYTES], sk[CRYPTO_SECRETKEYBYTES];
static uint8_t m[PQLAB_VECTOR_MAXMLEN], m2[PQLAB_VECTOR_MAXMLEN + CRYPTO_BYTES];
static uint8_t sm[PQLAB_VECTOR_MAXMLEN + CRYPTO_BYTES];

static int run(void)
{
    int ok = 1;
    for (size_t mlen = 0; mlen <= PQLAB_VECTOR_MAXMLEN; mlen = mlen == 0 ? 1 : 2 * mlen) {
        size_t smlen = 0, m2len = 0;
        pqlab_randombytes(m, mlen);
        vector("msg", m, mlen);
        ok &= crypto_sign_keypair(pk, sk) == 0;
        vector("pk", pk, sizeof pk);
        vector("sk", sk, sizeof sk);
        int r = pqlab_api_sign(sm, &smlen, m, mlen, sk);
        ok &= r == 0 && smlen <= sizeof sm;
        if (smlen > sizeof sm) {
            smlen = sizeof sm;
        }
        vector("sm", sm, smlen);
        r = pqlab_api_open(m2, &m2len, sm, smlen, pk);
        int v = r == 0 && m2len == mlen && pqlab_bytes_equal(m, m2, mlen);
        const uint8_t verdict = v ? 0x00 : 0xff;
        vector("verify", &verdict, 1);
        ok &= v;
    }
    return ok;
}

#endif

int main(void)
{
    pqlab_harness_begin("vectors");
    pqlab_info("algname", CRYPTO_ALGNAME);
    pqlab_rng_shake(seed, sizeof seed);
    pqlab_harness_end(run());
}
