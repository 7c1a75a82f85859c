/* SPDX-License-Identifier: MIT */
/* Fuzz target for ML-KEM (FIPS 203) inputs, through the implementation's api.h:
 *   0: decapsulation of an arbitrary ciphertext under a fixed key. The result must be
 *      the genuine key for the genuine ciphertext and the implicit-rejection key
 *      K = J(z || c) = SHAKE256(z || c, 32) (Algorithm 18, lines 7-11) for any other;
 *      a mutated ciphertext that decrypts and re-encrypts to itself would be a
 *      different valid encapsulation, which a mutation does not find.
 *   1: an arbitrary decapsulation key: the hash check of section 7.3 must accept it
 *      exactly when H(ek) stored in it matches, computed here independently, and
 *      decapsulation must fail with zeroed output when it does not.
 *   2: an arbitrary encapsulation key: the modulus check of section 7.2 must accept it
 *      exactly when every 12-bit coefficient is below q = 3329 (computed here from the
 *      bytes), and encapsulation must fail with zeroed outputs when it does not.
 * Payloads of another length than the key or ciphertext are cut or zero-padded (the
 * length check belongs to the caller; the driver tests it). */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "fips202.h"
#include "fuzz.h"

#define K_RANK ((CRYPTO_PUBLICKEYBYTES - 32) / 384)
#define EK_BYTES CRYPTO_PUBLICKEYBYTES
#define DK_BYTES CRYPTO_SECRETKEYBYTES
#define CT_BYTES CRYPTO_CIPHERTEXTBYTES
#define Q 3329

static uint8_t ek0[EK_BYTES], dk0[DK_BYTES], c0[CT_BYTES], k0[32];
static const uint8_t m0[32] = {7, 7, 7};
static int ready;

static void setup(void)
{
    uint8_t d[32], z[32];
    if (ready) {
        return;
    }
    memset(d, 0x11, sizeof d);
    memset(z, 0x22, sizeof z);
    if (crypto_kem_keypair_derand(ek0, dk0, d, z) != 0 || crypto_kem_enc_derand(c0, k0, ek0, m0) != 0) {
        pqlab_fuzz_fail("setup");
    }
    ready = 1;
}

/* a heap copy of exactly n bytes of the payload, cut or zero-padded */
static uint8_t *take(const uint8_t *data, size_t size, size_t n)
{
    uint8_t *p = calloc(n, 1);
    if (p == NULL) {
        pqlab_fuzz_fail("out of memory");
    }
    memcpy(p, data, size < n ? size : n);
    return p;
}

static int all_zero(const uint8_t *p, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++) {
        acc |= p[i];
    }
    return acc == 0;
}

/* section 7.2: ByteEncode12(ByteDecode12(ek[0:384k])) == ek[0:384k], i.e. each
 * little-endian 12-bit field is below q */
static int ek_in_range(const uint8_t *ek)
{
    for (size_t i = 0; i < 384u * K_RANK; i += 3) {
        const unsigned a = ek[i] | (unsigned)(ek[i + 1] & 15u) << 8;
        const unsigned b = (unsigned)(ek[i + 1] >> 4) | (unsigned)ek[i + 2] << 4;
        if (a >= Q || b >= Q) {
            return 0;
        }
    }
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t k[32];
    setup();
    if (size < 1) {
        return 0;
    }
    const unsigned op = data[0] % 3;
    data++;
    size--;
    if (op == 0) {
        uint8_t *c = take(data, size, CT_BYTES);
        uint8_t jin[32 + CT_BYTES], kbar[32];
        if (crypto_kem_dec(k, c, dk0) != 0) {
            pqlab_fuzz_fail("decapsulation of a ciphertext failed (it must always succeed)");
        }
        memcpy(jin, dk0 + DK_BYTES - 32, 32);
        memcpy(jin + 32, c, CT_BYTES);
        pqlab_shake256(kbar, 32, jin, sizeof jin);
        if (memcmp(c, c0, CT_BYTES) == 0 ? memcmp(k, k0, 32) != 0 : memcmp(k, kbar, 32) != 0) {
            pqlab_fuzz_fail("decapsulation returned neither the genuine nor the implicit-rejection key");
        }
        free(c);
    } else if (op == 1) {
        uint8_t *dk = take(data, size, DK_BYTES);
        uint8_t h[32];
        /* dk = dk_pke (384k) || ek (384k + 32) || H(ek) (32) || z (32) */
        pqlab_sha3_256(h, dk + 384 * K_RANK, EK_BYTES);
        const int expect = memcmp(h, dk + 384 * K_RANK + EK_BYTES, 32) == 0;
        if ((crypto_kem_check_dk(dk) == 0) != expect) {
            pqlab_fuzz_fail("decapsulation-key hash check disagrees with H(ek)");
        }
        memset(k, 0x5a, sizeof k);
        const int r = crypto_kem_dec(k, c0, dk);
        if (expect ? r != 0 : (r >= 0 || !all_zero(k, sizeof k))) {
            pqlab_fuzz_fail("decapsulation with a checked key: wrong result or output not zeroed");
        }
        free(dk);
    } else {
        uint8_t *ek = take(data, size, EK_BYTES);
        uint8_t c[CT_BYTES];
        const int expect = ek_in_range(ek);
        if ((crypto_kem_check_ek(ek) == 0) != expect) {
            pqlab_fuzz_fail("encapsulation-key modulus check disagrees with the coefficients");
        }
        memset(k, 0x5a, sizeof k);
        memset(c, 0x5a, sizeof c);
        const int r = crypto_kem_enc_derand(c, k, ek, m0);
        if (expect ? r != 0 : (r >= 0 || !all_zero(k, sizeof k) || !all_zero(c, sizeof c))) {
            pqlab_fuzz_fail("encapsulation with a checked key: wrong result or outputs not zeroed");
        }
        free(ek);
    }
    return 0;
}

size_t pqlab_fuzz_seed(unsigned k, uint8_t *buf, size_t cap)
{
    const uint8_t *src[3] = {c0, dk0, ek0};
    const size_t len[3] = {CT_BYTES, DK_BYTES, EK_BYTES};
    return pqlab_fuzz_seed_table(k, buf, cap, src, len, 3);
}
