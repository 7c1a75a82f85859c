/* SPDX-License-Identifier: MIT */
/* ACVP/internal-function driver for ML-DSA implementations (FIPS 204), see
 * docs/interfaces.md section 3 and pqlab/acvp/mldsa.py. Commands, arguments and
 * answers (hex; "-" is the empty string):
 *   keygen          xi                    -> ok pk sk     KeyGen_internal (Algorithm 6)
 *   sign_internal   sk mp rnd             -> ok sig       Sign_internal(sk, M', rnd) (Alg. 7)
 *   sign_extmu      sk mu rnd             -> ok sig       Sign_internal from a given mu
 *   sign            sk m ctx rnd          -> ok sig       ML-DSA.Sign (Algorithm 2)
 *   sign_prehash    sk m ctx ph rnd       -> ok sig       HashML-DSA.Sign (Algorithm 4)
 *   verify_internal pk mp sig             -> ok | fail    Verify_internal (Algorithm 8)
 *   verify_extmu    pk mu sig             -> ok | fail
 *   verify          pk m ctx sig          -> ok | fail    ML-DSA.Verify (Algorithm 3)
 *   verify_prehash  pk m ctx ph sig       -> ok | fail    HashML-DSA.Verify (Algorithm 5)
 *   mu              pk m ctx ph           -> ok mu        mu = H(H(pk) || M'); ph 00 = pure
 * rnd: 32 bytes (all zero = deterministic signing) or empty = hedged (randombytes).
 * ph: one byte, the PQLAB_MLDSA_PH_* id of api.h (1 SHA2-224 .. 12 SHAKE256).
 * Every answer to a sign command is followed by nothing else; the signing
 * iterations are available to the other harness programs through
 * PQLAB_SIGN_ITERATIONS(). This is the API that sees lengths: a wrong-length key,
 * signature, mu, xi or rnd is a failure with code PQLAB_DRV_ERR_LENGTH (a
 * signature of the wrong length is simply "fail" for verify commands, which is the
 * verification result FIPS 204 prescribes). */
#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "harness.h"

static uint8_t pk_buf[CRYPTO_PUBLICKEYBYTES];
static uint8_t sk_buf[CRYPTO_SECRETKEYBYTES];
static uint8_t sig_buf[CRYPTO_BYTES];
static uint8_t mu_buf[64];

static void answer_sig(const char *tag, int r)
{
    const uint8_t *outs[1] = {sig_buf};
    const size_t lens[1] = {sizeof sig_buf};
    pqlab_drv_answer(tag, r, 1, outs, lens);
}

/* rnd argument: 32 bytes, or empty for hedged signing */
static int rnd_ok(size_t len)
{
    return len == 32 || len == 0;
}

int pqlab_driver_dispatch(const char *tag, const char *cmd, int argc, const uint8_t *const *argv, const size_t *arglen)
{
    size_t siglen;

    if (pqlab_drv_is(cmd, "keygen")) {
        if (argc != 1) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_ARGS);
        } else if (arglen[0] != 32) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_LENGTH);
        } else {
            const int r = crypto_sign_keypair_internal(pk_buf, sk_buf, argv[0]);
            const uint8_t *outs[2] = {pk_buf, sk_buf};
            const size_t lens[2] = {sizeof pk_buf, sizeof sk_buf};
            pqlab_drv_answer(tag, r, 2, outs, lens);
        }
        return 0;
    }
    if (pqlab_drv_is(cmd, "sign_internal") || pqlab_drv_is(cmd, "sign_extmu")) {
        const int ext = pqlab_drv_is(cmd, "sign_extmu");
        if (argc != 3) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_ARGS);
        } else if (arglen[0] != CRYPTO_SECRETKEYBYTES || (ext && arglen[1] != 64) || arglen[2] != 32) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_LENGTH);
        } else {
            const int r = ext ? crypto_sign_signature_extmu(sig_buf, &siglen, argv[1], argv[2], argv[0])
                              : crypto_sign_signature_internal(sig_buf, &siglen, argv[1], arglen[1], argv[2], argv[0]);
            answer_sig(tag, r);
        }
        return 0;
    }
    if (pqlab_drv_is(cmd, "sign") || pqlab_drv_is(cmd, "sign_prehash")) {
        const int ph = pqlab_drv_is(cmd, "sign_prehash");
        const int want = ph ? 5 : 4;
        if (argc != want) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_ARGS);
        } else if (arglen[0] != CRYPTO_SECRETKEYBYTES || !rnd_ok(arglen[want - 1]) || (ph && arglen[3] != 1)) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_LENGTH);
        } else {
            const uint8_t *rnd = arglen[want - 1] == 32 ? argv[want - 1] : NULL;
            const int r =
                ph ? crypto_sign_signature_prehash(sig_buf, &siglen, argv[1], arglen[1], argv[2], arglen[2], argv[3][0],
                                                   rnd, argv[0])
                   : crypto_sign_signature_ctx(sig_buf, &siglen, argv[1], arglen[1], argv[2], arglen[2], rnd, argv[0]);
            answer_sig(tag, r);
        }
        return 0;
    }
    if (pqlab_drv_is(cmd, "verify_internal") || pqlab_drv_is(cmd, "verify_extmu")) {
        const int ext = pqlab_drv_is(cmd, "verify_extmu");
        if (argc != 3) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_ARGS);
        } else if (arglen[0] != CRYPTO_PUBLICKEYBYTES || (ext && arglen[1] != 64)) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_LENGTH);
        } else {
            const int r = ext ? crypto_sign_verify_extmu(argv[2], arglen[2], argv[1], argv[0])
                              : crypto_sign_verify_internal(argv[2], arglen[2], argv[1], arglen[1], argv[0]);
            pqlab_drv_answer(tag, r, 0, NULL, NULL);
        }
        return 0;
    }
    if (pqlab_drv_is(cmd, "verify") || pqlab_drv_is(cmd, "verify_prehash")) {
        const int ph = pqlab_drv_is(cmd, "verify_prehash");
        const int want = ph ? 5 : 4;
        if (argc != want) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_ARGS);
        } else if (arglen[0] != CRYPTO_PUBLICKEYBYTES || (ph && arglen[3] != 1)) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_LENGTH);
        } else {
            const uint8_t *sig = argv[want - 1];
            const size_t slen = arglen[want - 1];
            const int r =
                ph ? crypto_sign_verify_prehash(sig, slen, argv[1], arglen[1], argv[2], arglen[2], argv[3][0], argv[0])
                   : crypto_sign_verify_ctx(sig, slen, argv[1], arglen[1], argv[2], arglen[2], argv[0]);
            pqlab_drv_answer(tag, r, 0, NULL, NULL);
        }
        return 0;
    }
    if (pqlab_drv_is(cmd, "mu")) {
        if (argc != 4) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_ARGS);
        } else if (arglen[0] != CRYPTO_PUBLICKEYBYTES || arglen[3] != 1) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_LENGTH);
        } else {
            const int r = crypto_sign_compute_mu(mu_buf, argv[0], argv[1], arglen[1], argv[2], arglen[2], argv[3][0]);
            const uint8_t *outs[1] = {mu_buf};
            const size_t lens[1] = {sizeof mu_buf};
            pqlab_drv_answer(tag, r, 1, outs, lens);
        }
        return 0;
    }
    return 1;
}
