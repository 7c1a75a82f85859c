/* SPDX-License-Identifier: MIT */
/* Fuzz target for SLH-DSA (FIPS 205) signature parsing and verification; fuzz/fuzz.h,
 * built and run on host-fuzz (ASan + UBSan), docs/fuzzing.md. A fixed key pair signs a
 * fixed message once (pure SLH-DSA with a context, HashSLH-DSA with SHA-256, and the
 * NIST signed-message form); every input must then be rejected unless it is exactly
 * the genuine signature (a mutated signature that verifies is a forgery), without a
 * memory error:
 *   0: arbitrary bytes as a signature (any length)
 *   1: the genuine signature with the payload XORed in at a given offset
 *   2: the genuine signature cut or extended by up to 8 bytes
 *   3: HashSLH-DSA: payload byte 0 is the pre-hash id (unknown ids must be refused),
 *      the rest XORed into the genuine pre-hash signature
 *   4: arbitrary bytes as a NIST signed message (crypto_sign_open) */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "fuzz.h"
#include "slhdsa.h"
#include "slhdsa_ph.h"

#define SIG CRYPTO_BYTES

static uint8_t pk[CRYPTO_PUBLICKEYBYTES], sk[CRYPTO_SECRETKEYBYTES];
static uint8_t sig0[SIG], sigh0[SIG], sm0[SIG + 32];
static size_t smlen0;
static const uint8_t msg[] = "pqlab SLH-DSA fuzz";
static const uint8_t ctx[] = "ctx";
static int ready;

static void setup(void)
{
    uint8_t seed[3][64], addrnd[64];
    if (ready) {
        return;
    }
    memset(seed[0], 1, sizeof seed[0]);
    memset(seed[1], 2, sizeof seed[1]);
    memset(seed[2], 3, sizeof seed[2]);
    memset(addrnd, 4, sizeof addrnd);
    if (slh_keygen_internal(pk, sk, seed[0], seed[1], seed[2]) != 0 ||
        slh_sign(sig0, msg, sizeof msg, ctx, sizeof ctx, addrnd, sk) != 0 ||
        hash_slh_sign(sigh0, msg, sizeof msg, ctx, sizeof ctx, PQLAB_SLHDSA_PH_SHA256, addrnd, sk) != 0 ||
        crypto_sign(sm0, &smlen0, msg, sizeof msg, sk) != 0 ||
        slh_verify(sig0, SIG, msg, sizeof msg, ctx, sizeof ctx, pk) != 0 ||
        hash_slh_verify(sigh0, SIG, msg, sizeof msg, ctx, sizeof ctx, PQLAB_SLHDSA_PH_SHA256, pk) != 0) {
        pqlab_fuzz_fail("setup");
    }
    ready = 1;
}

/* a signature of `len` bytes in a heap buffer of exactly that length */
static void check_pure(const uint8_t *s, size_t len)
{
    uint8_t *copy = malloc(len ? len : 1);
    if (copy == NULL) {
        pqlab_fuzz_fail("out of memory");
    }
    memcpy(copy, s, len);
    const int ok = slh_verify(copy, len, msg, sizeof msg, ctx, sizeof ctx, pk) == 0;
    if (ok && (len != SIG || memcmp(copy, sig0, SIG) != 0)) {
        pqlab_fuzz_fail("a modified signature verified");
    }
    free(copy);
}

static void xor_into(uint8_t *s, const uint8_t *base, const uint8_t *data, size_t size)
{
    memcpy(s, base, SIG);
    if (size < 2) {
        return;
    }
    const size_t off = ((size_t)data[0] | (size_t)data[1] << 8 | (size_t)(size > 2 ? data[2] : 0) << 16) % SIG;
    for (size_t i = 2; i < size; i++) {
        s[(off + i - 2) % SIG] ^= data[i];
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint8_t s[SIG];
    setup();
    if (size < 1) {
        return 0;
    }
    const unsigned op = data[0] % 5;
    data++;
    size--;
    switch (op) {
    case 0:
        check_pure(data, size);
        break;
    case 1:
        xor_into(s, sig0, data, size);
        check_pure(s, SIG);
        break;
    case 2: {
        const size_t len = size ? SIG - 8 + data[0] % 17 : SIG;
        uint8_t *t = calloc(len, 1);
        if (t == NULL) {
            pqlab_fuzz_fail("out of memory");
        }
        memcpy(t, sig0, len < SIG ? len : SIG);
        check_pure(t, len);
        free(t);
        break;
    }
    case 3: {
        const int ph = size ? data[0] % 8 : PQLAB_SLHDSA_PH_SHA256;
        xor_into(s, sigh0, size ? data + 1 : data, size ? size - 1 : 0);
        const int ok = hash_slh_verify(s, SIG, msg, sizeof msg, ctx, sizeof ctx, ph, pk) == 0;
        if (ok && (ph != PQLAB_SLHDSA_PH_SHA256 || memcmp(s, sigh0, SIG) != 0)) {
            pqlab_fuzz_fail("a modified pre-hash signature (or another pre-hash id) verified");
        }
        break;
    }
    default: {
        uint8_t *sm = malloc(size ? size : 1);
        uint8_t *m = malloc(size ? size : 1);
        size_t mlen = 0;
        if (sm == NULL || m == NULL) {
            pqlab_fuzz_fail("out of memory");
        }
        memcpy(sm, data, size);
        if (crypto_sign_open(m, &mlen, sm, size, pk) == 0 &&
            (size != smlen0 || memcmp(sm, sm0, smlen0) != 0 || mlen != sizeof msg || memcmp(m, msg, mlen) != 0)) {
            pqlab_fuzz_fail("a modified signed message opened");
        }
        free(sm);
        free(m);
        break;
    }
    }
    return 0;
}

/* one seed per operation */
size_t pqlab_fuzz_seed(unsigned k, uint8_t *buf, size_t cap)
{
    if (cap < 1 + SIG + 32 || k >= 5) {
        return 0;
    }
    buf[0] = (uint8_t)k;
    switch (k) {
    case 0:
        memcpy(buf + 1, sig0, SIG);
        return 1 + SIG;
    case 1:
    case 3:
        memset(buf + 1, 0, 20);
        buf[1] = k == 3 ? PQLAB_SLHDSA_PH_SHA256 : 0x10;
        buf[2] = 0x07;
        buf[5] = 1;
        return 21;
    case 2:
        buf[1] = 8;
        return 2;
    default:
        memcpy(buf + 1, sm0, smlen0);
        return 1 + smlen0;
    }
}
