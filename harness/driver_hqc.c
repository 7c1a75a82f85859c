/* SPDX-License-Identifier: MIT */
/* Internal-function driver for HQC implementations (round-4 specification of
 * 2023-04-30, lib/hqc), see docs/interfaces.md section 3. Commands, arguments and
 * answers (hex), k = CRYPTO_SECRETKEYBYTES - CRYPTO_PUBLICKEYBYTES - 40 message bytes:
 *   keygen  sk_seed sigma pk_seed -> ok pk sk     keypair from its three random inputs
 *   encaps  pk m salt             -> ok ct ss     encapsulation with explicit randomness
 *   decaps  sk ct                 -> ok ss        decapsulation (implicit rejection)
 * A wrong-length argument is a failure with code PQLAB_DRV_ERR_LENGTH. */
#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "harness.h"

#define SEED_BYTES 40
#define SALT_BYTES 16
#define MSG_BYTES (CRYPTO_SECRETKEYBYTES - CRYPTO_PUBLICKEYBYTES - SEED_BYTES)

static uint8_t pk_buf[CRYPTO_PUBLICKEYBYTES];
static uint8_t sk_buf[CRYPTO_SECRETKEYBYTES];
static uint8_t ct_buf[CRYPTO_CIPHERTEXTBYTES];
static uint8_t ss_buf[CRYPTO_BYTES];

int pqlab_driver_dispatch(const char *tag, const char *cmd, int argc, const uint8_t *const *argv, const size_t *arglen)
{
    if (pqlab_drv_is(cmd, "keygen")) {
        if (argc != 3) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_ARGS);
        } else if (arglen[0] != SEED_BYTES || arglen[1] != MSG_BYTES || arglen[2] != SEED_BYTES) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_LENGTH);
        } else {
            const uint8_t *outs[2] = {pk_buf, sk_buf};
            const size_t lens[2] = {sizeof pk_buf, sizeof sk_buf};
            pqlab_drv_answer(tag, crypto_kem_keypair_derand(pk_buf, sk_buf, argv[0], argv[1], argv[2]), 2, outs, lens);
        }
        return 0;
    }
    if (pqlab_drv_is(cmd, "encaps")) {
        if (argc != 3) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_ARGS);
        } else if (arglen[0] != CRYPTO_PUBLICKEYBYTES || arglen[1] != MSG_BYTES || arglen[2] != SALT_BYTES) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_LENGTH);
        } else {
            const uint8_t *outs[2] = {ct_buf, ss_buf};
            const size_t lens[2] = {sizeof ct_buf, sizeof ss_buf};
            pqlab_drv_answer(tag, crypto_kem_enc_derand(ct_buf, ss_buf, argv[0], argv[1], argv[2]), 2, outs, lens);
        }
        return 0;
    }
    if (pqlab_drv_is(cmd, "decaps")) {
        if (argc != 2) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_ARGS);
        } else if (arglen[0] != CRYPTO_SECRETKEYBYTES || arglen[1] != CRYPTO_CIPHERTEXTBYTES) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_LENGTH);
        } else {
            const uint8_t *outs[1] = {ss_buf};
            const size_t lens[1] = {sizeof ss_buf};
            pqlab_drv_answer(tag, crypto_kem_dec(ss_buf, argv[1], argv[0]), 1, outs, lens);
        }
        return 0;
    }
    return 1;
}
