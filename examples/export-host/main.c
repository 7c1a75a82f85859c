/* SPDX-License-Identifier: MIT */
/* Host example of exported pqlab code (docs/export.md): a CMake application that takes ML-KEM-768
 * and ML-DSA-44 from one export folder (add_subdirectory + target_link_libraries), does a key
 * exchange between two parties and signs and verifies a message. Randomness: the operating
 * system's (/dev/urandom). Exit code 0 when everything agrees. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "pqlab_mldsa44_ref.h"
#include "pqlab_mlkem768_ref.h"

/* the function the export calls for randomness (its pqlab_config.h: PQLAB_CONFIG_RANDOMBYTES) */
int pqlab_randombytes(uint8_t *out, size_t n)
{
    FILE *f = fopen("/dev/urandom", "rb");
    if (f == NULL) {
        return -1;
    }
    size_t got = fread(out, 1, n, f);
    fclose(f);
    return got == n ? 0 : -1;
}

int main(void)
{
    static uint8_t pk[PQLAB_MLKEM768_REF_PUBLICKEYBYTES], sk[PQLAB_MLKEM768_REF_SECRETKEYBYTES];
    static uint8_t ct[PQLAB_MLKEM768_REF_CIPHERTEXTBYTES];
    uint8_t alice[PQLAB_MLKEM768_REF_BYTES], bob[PQLAB_MLKEM768_REF_BYTES];
    static uint8_t spk[PQLAB_MLDSA44_REF_PUBLICKEYBYTES], ssk[PQLAB_MLDSA44_REF_SECRETKEYBYTES];
    static uint8_t sig[PQLAB_MLDSA44_REF_BYTES];
    static const uint8_t msg[] = "hello, post-quantum world";
    size_t siglen = 0;

    /* Alice publishes an encapsulation key; Bob encapsulates to it; Alice decapsulates */
    if (pqlab_mlkem768_ref_crypto_kem_keypair(pk, sk) != 0 || pqlab_mlkem768_ref_crypto_kem_enc(ct, bob, pk) != 0 ||
        pqlab_mlkem768_ref_crypto_kem_dec(alice, ct, sk) != 0 || memcmp(alice, bob, sizeof alice) != 0) {
        printf("%s: key exchange FAILED\n", PQLAB_MLKEM768_REF_ALGNAME);
        return 1;
    }
    printf("%s: shared secrets agree (%d-byte ciphertext)\n", PQLAB_MLKEM768_REF_ALGNAME,
           PQLAB_MLKEM768_REF_CIPHERTEXTBYTES);

    if (pqlab_mldsa44_ref_crypto_sign_keypair(spk, ssk) != 0 ||
        pqlab_mldsa44_ref_crypto_sign_signature(sig, &siglen, msg, sizeof msg, ssk) != 0 ||
        pqlab_mldsa44_ref_crypto_sign_verify(sig, siglen, msg, sizeof msg, spk) != 0) {
        printf("%s: signature FAILED\n", PQLAB_MLDSA44_REF_ALGNAME);
        return 1;
    }
    sig[siglen / 2] ^= 0x10;
    if (pqlab_mldsa44_ref_crypto_sign_verify(sig, siglen, msg, sizeof msg, spk) == 0) {
        printf("%s: a changed signature was accepted\n", PQLAB_MLDSA44_REF_ALGNAME);
        return 1;
    }
    printf("%s: %zu-byte signature verifies, a changed one does not\n", PQLAB_MLDSA44_REF_ALGNAME, siglen);
    return 0;
}
