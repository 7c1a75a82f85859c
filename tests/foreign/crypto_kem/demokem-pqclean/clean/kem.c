/* SPDX-License-Identifier: MIT */
/* demokem-pqclean (INSECURE toy KEM, PQClean style).
 *   keypair: s <- random(32); pk = SHAKE128(s) (32 bytes, incremental API);
 *            sk = s || pk || z
 *   enc:     m <- random(32); (K || T) = SHA-512(m || pk);
 *            ct = (m XOR AES-128-CTR(pk[0..16), pk[16..28))) || T[0..TAG); ss = K
 *   dec:     recompute; a wrong tag selects ss = SHA-512(z || ct)[0..32) in constant time */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "aes.h"
#include "api.h"
#include "compat.h"
#include "crypto_declassify.h"
#include "fips202.h"
#include "params.h"
#include "randombytes.h"
#include "sha2.h"

#define CTBYTES PQCLEAN_DEMOKEMPQCLEAN_CLEAN_CRYPTO_CIPHERTEXTBYTES

static void pad(uint8_t out[DEMOKEM_MSGBYTES], const uint8_t *pk)
{
    aes128ctx ctx;
    aes128_ctr_keyexp(&ctx, pk);
    aes128_ctr(out, DEMOKEM_MSGBYTES, pk + 16, &ctx);
    aes128_ctx_release(&ctx);
}

static void derive(uint8_t kt[64], const uint8_t m[DEMOKEM_MSGBYTES], const uint8_t *pk)
{
    uint8_t buf[DEMOKEM_MSGBYTES + 32];
    memcpy(buf, m, DEMOKEM_MSGBYTES);
    memcpy(buf + DEMOKEM_MSGBYTES, pk, 32);
    sha512(kt, buf, sizeof buf);
}

int PQCLEAN_DEMOKEMPQCLEAN_CLEAN_crypto_kem_keypair(uint8_t *pk, uint8_t *sk)
{
    shake128incctx st;
    randombytes(sk, DEMOKEM_SEEDBYTES);
    shake128_inc_init(&st);
    shake128_inc_absorb(&st, (const uint8_t *)"demokem-pqclean", 15);
    shake128_inc_absorb(&st, sk, DEMOKEM_SEEDBYTES);
    shake128_inc_finalize(&st);
    shake128_inc_squeeze(pk, 32, &st);
    shake128_inc_ctx_release(&st);
    memcpy(sk + 32, pk, 32);
    randombytes(sk + 64, 32);
    return 0;
}

int PQCLEAN_DEMOKEMPQCLEAN_CLEAN_crypto_kem_enc(uint8_t *ct, uint8_t *ss, const uint8_t *pk)
{
    uint8_t m[DEMOKEM_MSGBYTES], p[DEMOKEM_MSGBYTES], kt[64];
    randombytes(m, sizeof m);
    pad(p, pk);
    for (size_t i = 0; i < DEMOKEM_MSGBYTES; i++) {
        ct[i] = m[i] ^ p[i];
    }
    derive(kt, m, pk);
    memcpy(ct + DEMOKEM_MSGBYTES, kt + 32, DEMOKEM_TAGBYTES);
    memcpy(ss, kt, 32);
    return 0;
}

int PQCLEAN_DEMOKEMPQCLEAN_CLEAN_crypto_kem_dec(uint8_t *ss, const uint8_t *ct, const uint8_t *sk)
{
    uint8_t m[DEMOKEM_MSGBYTES], p[DEMOKEM_MSGBYTES], kt[64], rej[64];
    PQCLEAN_VLA(uint8_t, buf, 32 + CTBYTES);
    const uint8_t *pk = sk + 32;
    pad(p, pk);
    for (size_t i = 0; i < DEMOKEM_MSGBYTES; i++) {
        m[i] = ct[i] ^ p[i];
    }
    derive(kt, m, pk);
    memcpy(buf, sk + 64, 32);
    memcpy(buf + 32, ct, CTBYTES);
    sha512(rej, buf, 32 + CTBYTES);
    uint32_t diff = 0;
    for (size_t i = 0; i < DEMOKEM_TAGBYTES; i++) {
        diff |= (uint32_t)(kt[32 + i] ^ ct[DEMOKEM_MSGBYTES + i]);
    }
    /* the result of the check is public in a real FO KEM only through the key; keep it
     * secret here, and make the mask without a branch */
    PQCLEAN_PREVENT_BRANCH_HACK(diff)
    uint8_t mask = (uint8_t)((diff - 1u) >> 24); /* 0xFF iff diff == 0 (diff < 256) */
    for (size_t i = 0; i < 32; i++) {
        ss[i] = (uint8_t)((kt[i] & mask) | (rej[i] & (uint8_t)~mask));
    }
    crypto_declassify(ss, 0); /* nothing becomes public here; exercises the macro */
    return 0;
}
