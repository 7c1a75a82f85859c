/* SPDX-License-Identifier: MIT */
/* kat: the NIST PQC known-answer-test generator (PQCgenKAT_kem.c /
 * PQCgenKAT_sign.c of the NIST submission packages) on the target.
 * The master AES-256-CTR DRBG is seeded with entropy 00 01 .. 2f; record i takes
 * seed = 48 bytes from it and, for signatures, msg = 33*(i+1) bytes after that
 * (the order in which the generator writes the .req file). Then the DRBG is
 * re-seeded with seed (randombytes_init(seed, NULL, 256)) and keypair + enc (KEM)
 * or keypair + sign (signatures) run with it; dec / open must agree.
 * Each line of the .rsp file is one "kat <line>" record, blank lines included
 * (a bare "kat"), so the host rebuilds PQCkemKAT_*.rsp / PQCsignKAT_*.rsp by
 * joining the records with newlines. Hex is uppercase as the generator's
 * fprintBstr() writes it.
 * PQLAB_KAT_RNG_HQC (KEMs whose pqlab/data/kat.toml entry says rng = "hqc"): the HQC
 * submission's generator instead, the same records with its SHAKE256 PRNG in place of
 * the DRBG (harness.h, pqlab_rng_hqc_init); the generator of the 2025-08-22 version
 * (rng = "hqc-2025") differs only in that PRNG's domain byte (PQLAB_KAT_RNG_HQC_DOMAIN=0). */
#include <stddef.h>
#include <stdint.h>

#include "api_glue.h"
#include "harness.h"

#ifndef PQLAB_KAT_COUNT
#define PQLAB_KAT_COUNT 100
#endif

#ifdef PQLAB_KAT_RNG_HQC
/* the PRNG's domain byte: 1 in the 2023-04-30 generator, 0 in that of 2025-08-22 (v5.0.0) */
#ifndef PQLAB_KAT_RNG_HQC_DOMAIN
#define PQLAB_KAT_RNG_HQC_DOMAIN 1
#endif
#ifndef PQLAB_KIND_KEM
#error "PQLAB_KAT_RNG_HQC: the HQC KAT generator is a KEM generator"
#endif
#else
static pqlab_drbg_state master, record;
#endif
static uint8_t seed[48];

static void line_hex(const char *name, const uint8_t *p, size_t n)
{
    pqlab_rec_begin("kat");
    pqlab_rec_str(name);
    pqlab_rec_str("=");
    pqlab_rec_hex_upper(p, n);
    pqlab_rec_end();
}

static void line_num(const char *name, uint64_t v)
{
    pqlab_rec_begin("kat");
    pqlab_rec_str(name);
    pqlab_rec_str("=");
    pqlab_rec_u64(v);
    pqlab_rec_end();
}

static void blank(void)
{
    pqlab_rec_begin("kat");
    pqlab_rec_end();
}

#ifdef PQLAB_KIND_KEM

static uint8_t pk[CRYPTO_PUBLICKEYBYTES], sk[CRYPTO_SECRETKEYBYTES], ct[CRYPTO_CIPHERTEXTBYTES];
static uint8_t ss[CRYPTO_BYTES], ss2[CRYPTO_BYTES];

static int one(int count)
{
#ifdef PQLAB_KAT_RNG_HQC
    pqlab_rng_hqc_record(seed);
#else
    pqlab_drbg_generate(&master, seed, sizeof seed);
    pqlab_drbg_init(&record, seed, NULL);
    pqlab_rng_drbg(&record);
#endif
    line_num("count", (uint64_t)count);
    line_hex("seed", seed, sizeof seed);
    int ok = crypto_kem_keypair(pk, sk) == 0;
    line_hex("pk", pk, sizeof pk);
    line_hex("sk", sk, sizeof sk);
    ok &= crypto_kem_enc(ct, ss, pk) == 0;
    line_hex("ct", ct, sizeof ct);
    line_hex("ss", ss, sizeof ss);
    blank();
    ok &= crypto_kem_dec(ss2, ct, sk) == 0;
    ok &= pqlab_bytes_equal(ss, ss2, sizeof ss);
    return ok;
}

#else

#define MAXMLEN (33 * PQLAB_KAT_COUNT)
static uint8_t pk[CRYPTO_PUBLICKEYBYTES], sk[CRYPTO_SECRETKEYBYTES];
static uint8_t m[MAXMLEN], m2[MAXMLEN + CRYPTO_BYTES], sm[MAXMLEN + CRYPTO_BYTES];

static int one(int count)
{
    size_t mlen = 33u * (size_t)(count + 1), smlen = 0, m2len = 0;
    pqlab_drbg_generate(&master, seed, sizeof seed);
    pqlab_drbg_generate(&master, m, mlen);
    line_num("count", (uint64_t)count);
    line_hex("seed", seed, sizeof seed);
    line_num("mlen", mlen);
    line_hex("msg", m, mlen);
    pqlab_drbg_init(&record, seed, NULL);
    pqlab_rng_drbg(&record);
    int ok = crypto_sign_keypair(pk, sk) == 0;
    line_hex("pk", pk, sizeof pk);
    line_hex("sk", sk, sizeof sk);
    ok &= pqlab_api_sign(sm, &smlen, m, mlen, sk) == 0 && smlen <= sizeof sm;
    if (smlen > sizeof sm) {
        smlen = sizeof sm;
    }
    line_num("smlen", smlen);
    line_hex("sm", sm, smlen);
    blank();
    ok &= pqlab_api_open(m2, &m2len, sm, smlen, pk) == 0 && m2len == mlen && pqlab_bytes_equal(m, m2, mlen);
    return ok;
}

#endif

int main(void)
{
    uint8_t entropy[48];
    pqlab_harness_begin("kat");
    for (int i = 0; i < 48; i++) {
        entropy[i] = (uint8_t)i;
    }
#ifdef PQLAB_KAT_RNG_HQC
    pqlab_rng_hqc_init(entropy, sizeof entropy, PQLAB_KAT_RNG_HQC_DOMAIN);
#else
    pqlab_drbg_init(&master, entropy, NULL);
#endif
    pqlab_rec_begin("kat");
    pqlab_rec_str("#");
    pqlab_rec_str(CRYPTO_ALGNAME);
    pqlab_rec_end();
    blank();
    int ok = 1;
    for (int i = 0; i < PQLAB_KAT_COUNT; i++) {
        ok &= one(i);
    }
    pqlab_harness_end(ok);
}
