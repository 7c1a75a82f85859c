/* SPDX-License-Identifier: MIT */
/* Dummy KEM: sk = s || pk, pk = SHAKE256(s) (so that the hashing program sees
 * hashing in keypair), ct = (m xor mix(pk)) || 16 zero bytes, ss = mix(m, ct).
 * Test switches: DUMMY_STACK_BYTES (keypair uses that much stack),
 * DUMMY_CRASH (keypair stores to an unmapped address), DUMMY_RECURSE=n (keypair
 * recurses n deep with 64-byte frames), DUMMY_OVERRUN (enc writes
 * one byte past ct), DUMMY_IGNORE_CT (dec ignores the ciphertext's mask part). */
#include <stddef.h>
#include <stdint.h>

#include "../../../mix.h"
#include "api.h"
#include "fips202.h"
#include "randombytes.h"

#ifdef DUMMY_STACK_BYTES
__attribute__((noinline)) static void use_stack(uint8_t *out)
{
    volatile uint8_t buf[DUMMY_STACK_BYTES];
    buf[0] = 1; /* the deepest byte: the array starts at the lowest address */
    buf[DUMMY_STACK_BYTES - 1] = 2;
    out[0] ^= (uint8_t)(buf[0] + buf[DUMMY_STACK_BYTES - 1] - 3);
}
#endif

#ifdef DUMMY_RECURSE
/* unbounded recursion of small frames: overflows any stack */
__attribute__((noinline)) static int recurse(volatile uint8_t *up, int n)
{
    volatile uint8_t frame[64];
    frame[0] = (uint8_t)n;
    frame[63] = up != NULL ? up[0] : 0;
    return n > 0 ? recurse(frame, n - 1) + frame[63] : frame[0];
}
#endif

#ifdef DUMMY_CRASH
volatile uint32_t *volatile dummy_bad_pointer = (volatile uint32_t *)(uintptr_t)0xF0000000u;
#endif

int crypto_kem_keypair(uint8_t *pk, uint8_t *sk)
{
    pqlab_randombytes(sk, 32);
    pqlab_shake256(pk, 32, sk, 32);
    for (int i = 0; i < 32; i++) {
        sk[32 + i] = pk[i];
    }
#ifdef DUMMY_STACK_BYTES
    use_stack(pk);
#endif
#ifdef DUMMY_CRASH
    *dummy_bad_pointer = 1;
#endif
#ifdef DUMMY_RECURSE
    pk[0] ^= (uint8_t)recurse(NULL, DUMMY_RECURSE);
#endif
    return 0;
}

static void encode(uint8_t *ct, uint8_t *ss, const uint8_t m[32], const uint8_t *pk)
{
    uint8_t mask[32];
    dummy_mix(mask, pk, 32, NULL, 0);
    for (int i = 0; i < 32; i++) {
        ct[i] = m[i] ^ mask[i];
    }
    for (int i = 32; i < CRYPTO_CIPHERTEXTBYTES; i++) {
        ct[i] = 0;
    }
#ifdef DUMMY_OVERRUN
    ct[CRYPTO_CIPHERTEXTBYTES] = 0x55;
#endif
    dummy_mix(ss, m, 32, ct, CRYPTO_CIPHERTEXTBYTES);
}

int crypto_kem_enc(uint8_t *ct, uint8_t *ss, const uint8_t *pk)
{
    uint8_t m[32];
    pqlab_randombytes(m, 32);
    encode(ct, ss, m, pk);
    return 0;
}

int crypto_kem_dec(uint8_t *ss, const uint8_t *ct, const uint8_t *sk)
{
    uint8_t mask[32], m[32];
    dummy_mix(mask, sk + 32, 32, NULL, 0);
    for (int i = 0; i < 32; i++) {
        m[i] = ct[i] ^ mask[i];
    }
#ifdef DUMMY_IGNORE_CT
    dummy_mix(ss, m, 0, NULL, 0);
#else
    dummy_mix(ss, m, 32, ct, CRYPTO_CIPHERTEXTBYTES);
#endif
    return 0;
}
