/* SPDX-License-Identifier: MIT */
/* Compat nistseedexpander.h: the AES-256 seed expander of the NIST PQC package rng.c,
 * behaviour reproduced from its description (see the header). */
#include "nistseedexpander.h"

#include "../common/aes.h"
#include "../common/ct.h"

int seedexpander_init(AES_XOF_struct *ctx, const uint8_t *seed, const uint8_t *diversifier, size_t maxlen)
{
    /* maxlen >= 2^32, written so that a 32-bit size_t gives no always-false warning */
    if (((maxlen >> 16) >> 16) != 0) {
        return RNG_BAD_MAXLEN;
    }
    ctx->length_remaining = maxlen;
    for (unsigned int i = 0; i < NISTSEEDEXPANDER_SEED_LEN; i++) {
        ctx->key[i] = seed[i];
    }
    for (unsigned int i = 0; i < 8; i++) {
        ctx->ctr[i] = diversifier[i];
    }
    const uint32_t m = (uint32_t)maxlen;
    ctx->ctr[8] = (uint8_t)(m >> 24);
    ctx->ctr[9] = (uint8_t)(m >> 16);
    ctx->ctr[10] = (uint8_t)(m >> 8);
    ctx->ctr[11] = (uint8_t)m;
    for (unsigned int i = 12; i < 16; i++) {
        ctx->ctr[i] = 0;
    }
    ctx->buffer_pos = 16; /* empty buffer: the first request encrypts counter 0 */
    for (unsigned int i = 0; i < 16; i++) {
        ctx->buffer[i] = 0;
    }
    return RNG_SUCCESS;
}

int seedexpander(AES_XOF_struct *ctx, uint8_t *x, size_t xlen)
{
    if (x == NULL) {
        return RNG_BAD_OUTBUF;
    }
    if (xlen >= ctx->length_remaining) {
        return RNG_BAD_REQ_LEN;
    }
    ctx->length_remaining -= xlen;
    int have_key = 0;
    pqlab_aes_ctx aes;
    while (xlen > 0) {
        if (ctx->buffer_pos < 16) {
            size_t n = 16 - ctx->buffer_pos;
            if (n > xlen) {
                n = xlen;
            }
            for (size_t i = 0; i < n; i++) {
                x[i] = ctx->buffer[ctx->buffer_pos + i];
            }
            x += n;
            xlen -= n;
            ctx->buffer_pos += n;
            continue;
        }
        /* refill: buffer = AES-256(key, ctr), then the last 4 counter bytes + 1 (big
         * endian, wrapping in those 4 bytes) */
        if (!have_key) {
            pqlab_aes_keyexp(&aes, ctx->key, 32);
            have_key = 1;
        }
        pqlab_aes_ecb(ctx->buffer, ctx->ctr, 1, &aes);
        ctx->buffer_pos = 0;
        uint32_t carry = 1;
        for (int i = 15; i >= 12; i--) {
            const uint32_t s = (uint32_t)ctx->ctr[i] + carry;
            ctx->ctr[i] = (uint8_t)s;
            carry = s >> 8;
        }
    }
    if (have_key) {
        pqlab_aes_ctx_release(&aes);
    }
    return RNG_SUCCESS;
}
