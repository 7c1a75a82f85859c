/* SPDX-License-Identifier: MIT */
/* Compat: the aes.h of mupq/PQClean over pqlab's constant-time bitsliced AES.
 * Context sizes are those of PQClean (88/104/120 64-bit words); pqlab's expanded key
 * (pqlab_aes_ctx, 484 bytes) is stored at their start. ecb and ctr keyexp are the
 * same. CTR: 12-byte nonce followed by a 32-bit big-endian block counter from 0. */
#ifndef AES_H
#define AES_H

#include <stddef.h>
#include <stdint.h>

#define AES128_KEYBYTES 16
#define AES192_KEYBYTES 24
#define AES256_KEYBYTES 32
#define AESCTR_NONCEBYTES 12
#define AES_BLOCKBYTES 16

/* context sizes in 64-bit words, as PQClean names them */
#define PQC_AES128_STATESIZE 88
#define PQC_AES192_STATESIZE 104
#define PQC_AES256_STATESIZE 120

typedef struct {
    uint64_t sk_exp[88];
} aes128ctx;
typedef struct {
    uint64_t sk_exp[104];
} aes192ctx;
typedef struct {
    uint64_t sk_exp[120];
} aes256ctx;

void aes128_ecb_keyexp(aes128ctx *r, const unsigned char *key);
void aes128_ctr_keyexp(aes128ctx *r, const unsigned char *key);
void aes128_ecb(unsigned char *out, const unsigned char *in, size_t nblocks, const aes128ctx *ctx);
void aes128_ctr(unsigned char *out, size_t outlen, const unsigned char *iv, const aes128ctx *ctx);
void aes128_ctx_release(aes128ctx *r);

void aes192_ecb_keyexp(aes192ctx *r, const unsigned char *key);
void aes192_ctr_keyexp(aes192ctx *r, const unsigned char *key);
void aes192_ecb(unsigned char *out, const unsigned char *in, size_t nblocks, const aes192ctx *ctx);
void aes192_ctr(unsigned char *out, size_t outlen, const unsigned char *iv, const aes192ctx *ctx);
void aes192_ctx_release(aes192ctx *r);

void aes256_ecb_keyexp(aes256ctx *r, const unsigned char *key);
void aes256_ctr_keyexp(aes256ctx *r, const unsigned char *key);
void aes256_ecb(unsigned char *out, const unsigned char *in, size_t nblocks, const aes256ctx *ctx);
void aes256_ctr(unsigned char *out, size_t outlen, const unsigned char *iv, const aes256ctx *ctx);
void aes256_ctx_release(aes256ctx *r);

#endif
