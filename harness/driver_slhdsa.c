/* SPDX-License-Identifier: MIT */
/* ACVP/internal-function driver for SLH-DSA implementations (FIPS 205), see
 * docs/interfaces.md section 3. Commands, arguments and answers (hex; "-" = empty):
 *   keygen          skseed skprf pkseed        -> ok pk sk  slh_keygen_internal (Alg. 18)
 *   sign_internal   sk m addrnd                -> ok sig    slh_sign_internal (Alg. 19)
 *   sign            sk m ctx addrnd            -> ok sig    slh_sign (Alg. 22)
 *   sign_prehash    sk m ctx ph addrnd         -> ok sig    hash_slh_sign (Alg. 23)
 *   verify_internal pk m sig                   -> ok | fail slh_verify_internal (Alg. 20)
 *   verify          pk m ctx sig               -> ok | fail slh_verify (Alg. 24)
 *   verify_prehash  pk m ctx ph sig            -> ok | fail hash_slh_verify (Alg. 25)
 * addrnd empty: deterministic signing (opt_rand = PK.seed); else n bytes (hedged).
 * ph: one byte, a PQLAB_SLHDSA_PH_* identifier (the last arc of the hash OID).
 * Wrong-length seeds, keys or addrnd answer "fail -100"; a signature of the wrong
 * length is simply "fail" for the verify commands (strict verification). */
#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "harness.h"

static uint8_t pk_buf[CRYPTO_PUBLICKEYBYTES];
static uint8_t sk_buf[CRYPTO_SECRETKEYBYTES];
static uint8_t sig_buf[CRYPTO_BYTES];

static void answer_sig(const char *tag, int r)
{
    const uint8_t *outs[1] = {sig_buf};
    const size_t lens[1] = {sizeof sig_buf};
    pqlab_drv_answer(tag, r, 1, outs, lens);
}

/* addrnd: empty = deterministic (NULL), n bytes = hedged, else a length error */
static int addrnd_arg(const uint8_t *p, size_t len, const uint8_t **out)
{
    if (len == 0) {
        *out = NULL;
        return 0;
    }
    *out = p;
    return len == CRYPTO_N ? 0 : -1;
}

int pqlab_driver_dispatch(const char *tag, const char *cmd, int argc, const uint8_t *const *argv, const size_t *arglen)
{
    const uint8_t *addrnd;
    if (pqlab_drv_is(cmd, "keygen")) {
        if (argc != 3) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_ARGS);
        } else if (arglen[0] != CRYPTO_N || arglen[1] != CRYPTO_N || arglen[2] != CRYPTO_N) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_LENGTH);
        } else {
            int r = slh_keygen_internal(pk_buf, sk_buf, argv[0], argv[1], argv[2]);
            const uint8_t *outs[2] = {pk_buf, sk_buf};
            const size_t lens[2] = {sizeof pk_buf, sizeof sk_buf};
            pqlab_drv_answer(tag, r, 2, outs, lens);
        }
        return 0;
    }
    if (pqlab_drv_is(cmd, "sign_internal")) {
        if (argc != 3) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_ARGS);
        } else if (arglen[0] != CRYPTO_SECRETKEYBYTES || addrnd_arg(argv[2], arglen[2], &addrnd) != 0) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_LENGTH);
        } else {
            answer_sig(tag, slh_sign_internal(sig_buf, argv[1], arglen[1], addrnd, argv[0]));
        }
        return 0;
    }
    if (pqlab_drv_is(cmd, "sign")) {
        if (argc != 4) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_ARGS);
        } else if (arglen[0] != CRYPTO_SECRETKEYBYTES || addrnd_arg(argv[3], arglen[3], &addrnd) != 0) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_LENGTH);
        } else {
            answer_sig(tag, slh_sign(sig_buf, argv[1], arglen[1], argv[2], arglen[2], addrnd, argv[0]));
        }
        return 0;
    }
    if (pqlab_drv_is(cmd, "sign_prehash")) {
        if (argc != 5) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_ARGS);
        } else if (arglen[0] != CRYPTO_SECRETKEYBYTES || arglen[3] != 1 ||
                   addrnd_arg(argv[4], arglen[4], &addrnd) != 0) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_LENGTH);
        } else {
            answer_sig(tag,
                       hash_slh_sign(sig_buf, argv[1], arglen[1], argv[2], arglen[2], argv[3][0], addrnd, argv[0]));
        }
        return 0;
    }
    if (pqlab_drv_is(cmd, "verify_internal")) {
        if (argc != 3) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_ARGS);
        } else if (arglen[0] != CRYPTO_PUBLICKEYBYTES) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_LENGTH);
        } else {
            pqlab_drv_answer(tag, slh_verify_internal(argv[2], arglen[2], argv[1], arglen[1], argv[0]), 0, NULL, NULL);
        }
        return 0;
    }
    if (pqlab_drv_is(cmd, "verify")) {
        if (argc != 4) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_ARGS);
        } else if (arglen[0] != CRYPTO_PUBLICKEYBYTES) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_LENGTH);
        } else {
            pqlab_drv_answer(tag, slh_verify(argv[3], arglen[3], argv[1], arglen[1], argv[2], arglen[2], argv[0]), 0,
                             NULL, NULL);
        }
        return 0;
    }
    if (pqlab_drv_is(cmd, "verify_prehash")) {
        if (argc != 5) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_ARGS);
        } else if (arglen[0] != CRYPTO_PUBLICKEYBYTES || arglen[3] != 1) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_LENGTH);
        } else {
            pqlab_drv_answer(
                tag, hash_slh_verify(argv[4], arglen[4], argv[1], arglen[1], argv[2], arglen[2], argv[3][0], argv[0]),
                0, NULL, NULL);
        }
        return 0;
    }
    return 1;
}
