/* SPDX-License-Identifier: MIT */
/* Fuzz target for HQC inputs (round-4 specification of 2023-04-30), through api.h:
 *   0: decapsulation of an arbitrary ciphertext under a fixed key: the result must be the
 *      genuine key for the genuine ciphertext and the implicit-rejection key
 *      K(sigma || u || v) = SHAKE256(sigma || ct[0 .. |ct| - 16) || 4, 64) for any other
 *      (a modified salt included);
 *   1: an arbitrary secret key decapsulating the fixed ciphertext: the genuine key when
 *      sk_seed and pk inside it are the genuine ones (sigma does not matter then), the
 *      implicit-rejection key with its own sigma otherwise;
 *   2: an arbitrary public key: encapsulation succeeds (this version has no key check),
 *      writes the salt last and derives K(m || u || v).
 * Payloads of another length than the key or ciphertext are cut or zero-padded. */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "fips202.h"
#include "fuzz.h"

#define SEED_BYTES 40
#define SALT_BYTES 16
#define MSG_BYTES (CRYPTO_SECRETKEYBYTES - CRYPTO_PUBLICKEYBYTES - SEED_BYTES)
#define UV_BYTES (CRYPTO_CIPHERTEXTBYTES - SALT_BYTES)

static uint8_t pk0[CRYPTO_PUBLICKEYBYTES], sk0[CRYPTO_SECRETKEYBYTES], c0[CRYPTO_CIPHERTEXTBYTES];
static uint8_t k0[CRYPTO_BYTES];
static const uint8_t m0[MSG_BYTES] = {7, 7, 7};
static const uint8_t salt0[SALT_BYTES] = {9, 9};
static int ready;

static void setup(void)
{
    uint8_t sk_seed[SEED_BYTES], sigma[MSG_BYTES], pk_seed[SEED_BYTES];
    if (ready) {
        return;
    }
    memset(sk_seed, 0x11, sizeof sk_seed);
    memset(sigma, 0x22, sizeof sigma);
    memset(pk_seed, 0x33, sizeof pk_seed);
    if (crypto_kem_keypair_derand(pk0, sk0, sk_seed, sigma, pk_seed) != 0 ||
        crypto_kem_enc_derand(c0, k0, pk0, m0, salt0) != 0) {
        pqlab_fuzz_fail("setup");
    }
    ready = 1;
}

static uint8_t *take(const uint8_t *data, size_t size, size_t n)
{
    uint8_t *p = calloc(n, 1);
    if (p == NULL) {
        pqlab_fuzz_fail("out of memory");
    }
    memcpy(p, data, size < n ? size : n);
    return p;
}

/* SHAKE256(a || b || domain), 64 bytes: the specification's K */
static void kdf(uint8_t out[CRYPTO_BYTES], const uint8_t *a, const uint8_t *b)
{
    pqlab_keccak_state st;
    const uint8_t domain = 4;
    pqlab_shake256_init(&st);
    pqlab_shake256_absorb(&st, a, MSG_BYTES);
    pqlab_shake256_absorb(&st, b, UV_BYTES);
    pqlab_shake256_absorb(&st, &domain, 1);
    pqlab_shake256_finalize(&st);
    pqlab_shake256_squeeze(out, CRYPTO_BYTES, &st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t k[CRYPTO_BYTES], want[CRYPTO_BYTES];
    setup();
    if (size < 1) {
        return 0;
    }
    const unsigned op = data[0] % 3;
    data++;
    size--;
    if (op == 0) {
        uint8_t *c = take(data, size, CRYPTO_CIPHERTEXTBYTES);
        if (crypto_kem_dec(k, c, sk0) != 0) {
            pqlab_fuzz_fail("decapsulation of a ciphertext failed (it must always succeed)");
        }
        if (memcmp(c, c0, CRYPTO_CIPHERTEXTBYTES) == 0) {
            memcpy(want, k0, sizeof want);
        } else {
            kdf(want, sk0 + SEED_BYTES, c);
        }
        if (memcmp(k, want, sizeof k) != 0) {
            pqlab_fuzz_fail("decapsulation returned neither the genuine nor the implicit-rejection key");
        }
        free(c);
    } else if (op == 1) {
        uint8_t *sk = take(data, size, CRYPTO_SECRETKEYBYTES);
        if (crypto_kem_dec(k, c0, sk) != 0) {
            pqlab_fuzz_fail("decapsulation with an arbitrary secret key failed (it must always succeed)");
        }
        const int genuine =
            memcmp(sk, sk0, SEED_BYTES) == 0 && memcmp(sk + SEED_BYTES + MSG_BYTES, pk0, CRYPTO_PUBLICKEYBYTES) == 0;
        if (genuine) {
            memcpy(want, k0, sizeof want);
        } else {
            kdf(want, sk + SEED_BYTES, c0);
        }
        if (memcmp(k, want, sizeof k) != 0) {
            pqlab_fuzz_fail("decapsulation with an arbitrary secret key: neither genuine nor rejection key");
        }
        free(sk);
    } else {
        uint8_t *pk = take(data, size, CRYPTO_PUBLICKEYBYTES);
        uint8_t c[CRYPTO_CIPHERTEXTBYTES];
        if (crypto_kem_enc_derand(c, k, pk, m0, salt0) != 0) {
            pqlab_fuzz_fail("encapsulation with an arbitrary public key failed");
        }
        kdf(want, m0, c);
        if (memcmp(c + UV_BYTES, salt0, SALT_BYTES) != 0 || memcmp(k, want, sizeof k) != 0) {
            pqlab_fuzz_fail("encapsulation: salt not last or key not K(m || u || v)");
        }
        free(pk);
    }
    return 0;
}

size_t pqlab_fuzz_seed(unsigned k, uint8_t *buf, size_t cap)
{
    const uint8_t *src[3] = {c0, sk0, pk0};
    const size_t len[3] = {CRYPTO_CIPHERTEXTBYTES, CRYPTO_SECRETKEYBYTES, CRYPTO_PUBLICKEYBYTES};
    return pqlab_fuzz_seed_table(k, buf, cap, src, len, 3);
}
