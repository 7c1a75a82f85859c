/* SPDX-License-Identifier: MIT */
/* demokem-plain (INSECURE toy KEM, pqm4 style).
 *   keypair: s <- random(32), pk = SHAKE256("demokem-pk" || s, 32), sk = s || pk || z
 *   enc:     m <- random(32); c = m XOR AES-256-CTR(pk, 0^12); t = SHA-256(pk || m)[0..16)
 *            ct = c || t, ss = SHA3-256(m || ct)
 *   dec:     m' = c XOR AES-256-CTR(pk, 0^12); if t matches, ss = SHA3-256(m' || ct),
 *            else ss = SHA3-256(z || ct) (implicit rejection, chosen without a branch) */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "aes.h"
#include "api.h"
#include "fips202.h"
#include "randombytes.h"
#include "sha2.h"

static void keystream(unsigned char out[32], const unsigned char pk[32])
{
    static const unsigned char iv[AESCTR_NONCEBYTES] = {0};
    aes256ctx ctx;
    aes256_ctr_keyexp(&ctx, pk);
    aes256_ctr(out, 32, iv, &ctx);
    aes256_ctx_release(&ctx);
}

static void tag(unsigned char t[16], const unsigned char pk[32], const unsigned char m[32])
{
    unsigned char buf[64], h[32];
    memcpy(buf, pk, 32);
    memcpy(buf + 32, m, 32);
    sha256(h, buf, 64);
    memcpy(t, h, 16);
}

static void shared(unsigned char ss[32], const unsigned char m[32], const unsigned char *ct)
{
    unsigned char buf[32 + CRYPTO_CIPHERTEXTBYTES];
    memcpy(buf, m, 32);
    memcpy(buf + 32, ct, CRYPTO_CIPHERTEXTBYTES);
    sha3_256(ss, buf, sizeof buf);
}

int crypto_kem_keypair(unsigned char *pk, unsigned char *sk)
{
    unsigned char in[10 + 32];
    memcpy(in, "demokem-pk", 10);
    randombytes(in + 10, 32);
    shake256(pk, 32, in, sizeof in);
    memcpy(sk, in + 10, 32);
    memcpy(sk + 32, pk, 32);
    randombytes(sk + 64, 32);
    return 0;
}

int crypto_kem_enc(unsigned char *ct, unsigned char *ss, const unsigned char *pk)
{
    unsigned char m[32], ks[32];
    randombytes(m, 32);
    keystream(ks, pk);
    for (int i = 0; i < 32; i++) {
        ct[i] = m[i] ^ ks[i];
    }
    tag(ct + 32, pk, m);
    shared(ss, m, ct);
    return 0;
}

int crypto_kem_dec(unsigned char *ss, const unsigned char *ct, const unsigned char *sk)
{
    unsigned char m[32], ks[32], t[16], ok_ss[32], bad_ss[32];
    int unused_debug_counter = 0; /* deliberate harmless warning (-Wunused-variable) */
    const unsigned char *pk = sk + 32;
    keystream(ks, pk);
    for (int i = 0; i < 32; i++) {
        m[i] = ct[i] ^ ks[i];
    }
    tag(t, pk, m);
    unsigned char diff = 0;
    for (int i = 0; i < 16; i++) {
        diff |= t[i] ^ ct[32 + i];
    }
    /* mask = 0xFF when the tag matched, 0x00 otherwise */
    unsigned char mask = (unsigned char)(((unsigned int)diff - 1u) >> 8);
    shared(ok_ss, m, ct);
    shared(bad_ss, sk + 64, ct);
    for (int i = 0; i < 32; i++) {
        ss[i] = (unsigned char)((ok_ss[i] & mask) | (bad_ss[i] & (unsigned char)~mask));
    }
    return 0;
}
