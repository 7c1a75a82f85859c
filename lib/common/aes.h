/* SPDX-License-Identifier: MIT */
/* AES-128/192/256 (FIPS 197), ECB and CTR. Constant time: bitsliced, two blocks per
 * pass in eight 32-bit words, S-box computed as a Boolean circuit; no table is
 * indexed by key or data. */
#ifndef PQLAB_AES_H
#define PQLAB_AES_H

#include "pqlab_config.h" /* an export's configuration (docs/export.md); empty in the tree */

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t rk[120]; /* layout is private: bitsliced round keys, 8 words per round */
    unsigned int nr;  /* rounds: 10, 12 or 14 */
} pqlab_aes_ctx;

/* keylen 16, 24 or 32 (any other value: the context is zeroed and nr = 0) */
void pqlab_aes_keyexp(pqlab_aes_ctx *ctx, const uint8_t *key, size_t keylen);
void pqlab_aes_ecb(uint8_t *out, const uint8_t *in, size_t nblocks, const pqlab_aes_ctx *ctx);
/* keystream XOR-free: out = AES(iv || ctr32) for ctr = 0, 1, ... (big-endian counter);
 * outlen need not be a multiple of 16 */
void pqlab_aes_ctr(uint8_t *out, size_t outlen, const uint8_t iv[12], const pqlab_aes_ctx *ctx);
void pqlab_aes_ctx_release(pqlab_aes_ctx *ctx);

#endif
