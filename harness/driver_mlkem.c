/* SPDX-License-Identifier: MIT */
/* ACVP/internal-function driver for ML-KEM implementations (FIPS 203), see
 * docs/interfaces.md section 3. Commands, arguments and answers (hex):
 *   keygen  d z   -> ok ek dk           ML-KEM.KeyGen_internal (Algorithm 16)
 *   encaps  ek m  -> ok c k | fail      input check (section 7.2) + Encaps_internal
 *   decaps  dk c  -> ok k | fail        input checks (section 7.3) + Decaps_internal
 *   checkek ek    -> ok | fail          section 7.2: length and modulus check
 *   checkdk dk    -> ok | fail          section 7.3: length and hash check
 * This is the API that sees lengths: a wrong-length argument is a failure with
 * code PQLAB_DRV_ERR_LENGTH, as the type checks of sections 7.2 and 7.3 require. */
#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "harness.h"

static uint8_t ek_buf[CRYPTO_PUBLICKEYBYTES];
static uint8_t dk_buf[CRYPTO_SECRETKEYBYTES];
static uint8_t c_buf[CRYPTO_CIPHERTEXTBYTES];
static uint8_t k_buf[CRYPTO_BYTES];

int pqlab_driver_dispatch(const char *tag, const char *cmd, int argc, const uint8_t *const *argv, const size_t *arglen)
{
    if (pqlab_drv_is(cmd, "keygen")) {
        if (argc != 2) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_ARGS);
        } else if (arglen[0] != 32 || arglen[1] != 32) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_LENGTH);
        } else {
            int r = crypto_kem_keypair_derand(ek_buf, dk_buf, argv[0], argv[1]);
            const uint8_t *outs[2] = {ek_buf, dk_buf};
            const size_t lens[2] = {sizeof ek_buf, sizeof dk_buf};
            pqlab_drv_answer(tag, r, 2, outs, lens);
        }
        return 0;
    }
    if (pqlab_drv_is(cmd, "encaps")) {
        if (argc != 2) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_ARGS);
        } else if (arglen[0] != CRYPTO_PUBLICKEYBYTES || arglen[1] != 32) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_LENGTH);
        } else {
            int r = crypto_kem_enc_derand(c_buf, k_buf, argv[0], argv[1]);
            const uint8_t *outs[2] = {c_buf, k_buf};
            const size_t lens[2] = {sizeof c_buf, sizeof k_buf};
            pqlab_drv_answer(tag, r, 2, outs, lens);
        }
        return 0;
    }
    if (pqlab_drv_is(cmd, "decaps")) {
        if (argc != 2) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_ARGS);
        } else if (arglen[0] != CRYPTO_SECRETKEYBYTES || arglen[1] != CRYPTO_CIPHERTEXTBYTES) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_LENGTH);
        } else {
            int r = crypto_kem_dec(k_buf, argv[1], argv[0]);
            const uint8_t *outs[1] = {k_buf};
            const size_t lens[1] = {sizeof k_buf};
            pqlab_drv_answer(tag, r, 1, outs, lens);
        }
        return 0;
    }
    if (pqlab_drv_is(cmd, "checkek") || pqlab_drv_is(cmd, "checkdk")) {
        const int is_ek = pqlab_drv_is(cmd, "checkek");
        const size_t want = is_ek ? CRYPTO_PUBLICKEYBYTES : CRYPTO_SECRETKEYBYTES;
        if (argc != 1) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_ARGS);
        } else if (arglen[0] != want) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_LENGTH);
        } else {
            pqlab_drv_answer(tag, is_ek ? crypto_kem_check_ek(argv[0]) : crypto_kem_check_dk(argv[0]), 0, NULL, NULL);
        }
        return 0;
    }
    return 1;
}
