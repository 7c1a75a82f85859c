/* SPDX-License-Identifier: MIT */
/* Bare-metal Cortex-M4 example of exported pqlab code (docs/export.md): ML-KEM-768 and ML-DSA-44,
 * each from its own export folder (prefixes kem_ and sig_, so both carry their own Keccak without
 * a clash), on the MPS2 AN386 memory map (QEMU mps2-an386, pqlab-sim m4-sim). The start-up
 * code and the output/exit functions are pqlab's platform files (platforms/armv7m); a product
 * brings its own. Exit code 0 when the key exchange agrees and the signature verifies. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pqlab_hal.h"
#include "pqlab_mldsa44_ref.h"
#include "pqlab_mlkem768_ref.h"

/* The randomness both exports call (their pqlab_config.h: PQLAB_CONFIG_RANDOMBYTES). This
 * board has no random number generator, so the example uses a fixed-seed xorshift generator:
 * NOT SECURE, for the demonstration only. A product calls its TRNG here. */
static uint64_t demo_state = 0x9e3779b97f4a7c15ull;

int pqlab_randombytes(uint8_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        demo_state ^= demo_state << 13;
        demo_state ^= demo_state >> 7;
        demo_state ^= demo_state << 17;
        out[i] = (uint8_t)(demo_state >> 56);
    }
    return 0;
}

static void say(const char *s)
{
    pqlab_hal_send(s, strlen(s));
}

static uint8_t kem_pk[PQLAB_MLKEM768_REF_PUBLICKEYBYTES], kem_sk[PQLAB_MLKEM768_REF_SECRETKEYBYTES];
static uint8_t kem_ct[PQLAB_MLKEM768_REF_CIPHERTEXTBYTES];
static uint8_t sig_pk[PQLAB_MLDSA44_REF_PUBLICKEYBYTES], sig_sk[PQLAB_MLDSA44_REF_SECRETKEYBYTES];
static uint8_t sig[PQLAB_MLDSA44_REF_BYTES];

int main(void)
{
    uint8_t ss_a[PQLAB_MLKEM768_REF_BYTES], ss_b[PQLAB_MLKEM768_REF_BYTES];
    static const uint8_t msg[] = "firmware image v1.2.3";
    size_t siglen = 0;
    int bad = 0;

    pqlab_hal_setup();
    /* ML-KEM-768: the device makes a key pair, a peer encapsulates, the device decapsulates */
    bad |= pqlab_mlkem768_ref_crypto_kem_keypair(kem_pk, kem_sk) != 0;
    bad |= pqlab_mlkem768_ref_crypto_kem_enc(kem_ct, ss_b, kem_pk) != 0;
    bad |= pqlab_mlkem768_ref_crypto_kem_dec(ss_a, kem_ct, kem_sk) != 0;
    bad |= memcmp(ss_a, ss_b, sizeof ss_a) != 0;
    say(bad ? "example: ML-KEM-768 key exchange FAILED\n" : "example: ML-KEM-768 shared secrets agree\n");

    /* ML-DSA-44: sign a message, verify it, and see a changed message rejected */
    int sbad = pqlab_mldsa44_ref_crypto_sign_keypair(sig_pk, sig_sk) != 0;
    sbad |= pqlab_mldsa44_ref_crypto_sign_signature(sig, &siglen, msg, sizeof msg, sig_sk) != 0;
    sbad |= pqlab_mldsa44_ref_crypto_sign_verify(sig, siglen, msg, sizeof msg, sig_pk) != 0;
    sig[0] ^= 1;
    sbad |= pqlab_mldsa44_ref_crypto_sign_verify(sig, siglen, msg, sizeof msg, sig_pk) == 0;
    say(sbad ? "example: ML-DSA-44 signature FAILED\n"
             : "example: ML-DSA-44 signature verifies, a changed one does not\n");
    return bad | sbad;
}
