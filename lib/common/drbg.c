/* SPDX-License-Identifier: MIT */
/* AES-256-CTR DRBG as in rng.c of the NIST PQC submission package, which the KAT
 * generators (PQCgenKAT_kem.c / PQCgenKAT_sign.c) use: SP 800-90A section 10.2.1
 * CTR_DRBG with AES-256, no derivation function, seedlen = 48 bytes.
 *  - Update (10.2.1.2): three encryptions of V+1, V+2, V+3 (V a 128-bit big-endian
 *    counter), XOR with the provided data, split into Key (32) and V (16).
 *  - Instantiate (10.2.1.3.1): seed = entropy XOR personalization, Key = 0, V = 0,
 *    Update(seed).
 *  - Generate (10.2.1.5.1) as rng.c does it: for each 16-byte piece increment V and
 *    output AES(Key, V) (a short last piece keeps only its first bytes), then
 *    Update(no data) once; reseed_counter counts calls.
 * The AES calls are constant time and V's increment has no data-dependent branch. */
#include "drbg.h"

#include "aes.h"
#include "ct.h"

static void v_increment(uint8_t v[16])
{
    /* the carry chain depends on the (secret) value of V; rng.c does the same, and
     * the branch-free form below keeps it constant time */
    uint32_t carry = 1;
    for (int i = 15; i >= 0; i--) {
        const uint32_t s = (uint32_t)v[i] + carry;
        v[i] = (uint8_t)s;
        carry = s >> 8;
    }
}

static void drbg_update(const uint8_t *provided, uint8_t key[32], uint8_t v[16])
{
    pqlab_aes_ctx ctx;
    uint8_t blocks[48];
    pqlab_aes_keyexp(&ctx, key, 32);
    for (unsigned int i = 0; i < 3; i++) {
        v_increment(v);
        for (unsigned int j = 0; j < 16; j++) {
            blocks[16 * i + j] = v[j];
        }
    }
    pqlab_aes_ecb(blocks, blocks, 3, &ctx);
    if (provided != NULL) {
        for (unsigned int i = 0; i < 48; i++) {
            blocks[i] ^= provided[i];
        }
    }
    for (unsigned int i = 0; i < 32; i++) {
        key[i] = blocks[i];
    }
    for (unsigned int i = 0; i < 16; i++) {
        v[i] = blocks[32 + i];
    }
    pqlab_aes_ctx_release(&ctx);
    pqlab_zeroize(blocks, sizeof blocks);
}

void pqlab_drbg_init(pqlab_drbg_state *st, const uint8_t entropy[48], const uint8_t *personalization)
{
    uint8_t seed[48];
    for (unsigned int i = 0; i < 48; i++) {
        seed[i] = (uint8_t)(entropy[i] ^ (personalization != NULL ? personalization[i] : 0));
    }
    for (unsigned int i = 0; i < 32; i++) {
        st->key[i] = 0;
    }
    for (unsigned int i = 0; i < 16; i++) {
        st->v[i] = 0;
    }
    drbg_update(seed, st->key, st->v);
    st->reseed_counter = 1;
    pqlab_zeroize(seed, sizeof seed);
}

/* The output blocks and the three blocks of the closing Update use the same key and
 * consecutive counter values V+1 ... V+n+3, so they are encrypted together, two per
 * call of the bitsliced cipher, under one key expansion. */
void pqlab_drbg_generate(pqlab_drbg_state *st, uint8_t *out, size_t outlen)
{
    pqlab_aes_ctx ctx;
    uint8_t blk[32], upd[48];
    const size_t nout = (outlen + 15) / 16;
    const size_t total = nout + 3;
    pqlab_aes_keyexp(&ctx, st->key, 32);
    for (size_t i = 0; i < total;) {
        const size_t n = total - i >= 2 ? 2 : 1;
        for (size_t b = 0; b < n; b++) {
            v_increment(st->v);
            for (unsigned int j = 0; j < 16; j++) {
                blk[16 * b + j] = st->v[j];
            }
        }
        pqlab_aes_ecb(blk, blk, n, &ctx);
        for (size_t b = 0; b < n; b++, i++) {
            if (i < nout) { /* output block; the last one may be cut short */
                const size_t len = outlen - 16 * i < 16 ? outlen - 16 * i : 16;
                for (size_t j = 0; j < len; j++) {
                    out[16 * i + j] = blk[16 * b + j];
                }
            } else {
                for (unsigned int j = 0; j < 16; j++) {
                    upd[16 * (i - nout) + j] = blk[16 * b + j];
                }
            }
        }
    }
    for (unsigned int i = 0; i < 32; i++) {
        st->key[i] = upd[i];
    }
    for (unsigned int i = 0; i < 16; i++) {
        st->v[i] = upd[32 + i];
    }
    st->reseed_counter++;
    pqlab_aes_ctx_release(&ctx);
    pqlab_zeroize(blk, sizeof blk);
    pqlab_zeroize(upd, sizeof upd);
}
