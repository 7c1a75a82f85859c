/* SPDX-License-Identifier: MIT */
/* Stands for the rng.c of a NIST submission package: randombytes() on OpenSSL's AES.
 * pqlab must leave this file out (it defines randombytes) and supply its own DRBG;
 * compiled for a target without OpenSSL it would not build. Not a complete DRBG:
 * only the shape matters here. */
#include <openssl/evp.h>
#include <string.h>

#include "rng.h"

static AES256_CTR_DRBG_struct state;

void randombytes_init(unsigned char *entropy_input, unsigned char *personalization_string,
                      int security_strength)
{
    (void)personalization_string;
    (void)security_strength;
    memcpy(state.Key, entropy_input, 32);
    memcpy(state.V, entropy_input + 32, 16);
    state.reseed_counter = 1;
}

int randombytes(unsigned char *x, unsigned long long xlen)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int len = 0;
    EVP_EncryptInit_ex(ctx, EVP_aes_256_ecb(), NULL, state.Key, NULL);
    while (xlen > 0) {
        unsigned char block[16];
        EVP_EncryptUpdate(ctx, block, &len, state.V, 16);
        unsigned long long n = xlen < 16 ? xlen : 16;
        memcpy(x, block, n);
        x += n;
        xlen -= n;
        state.V[15]++;
    }
    EVP_CIPHER_CTX_free(ctx);
    return RNG_SUCCESS;
}
