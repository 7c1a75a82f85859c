/* SPDX-License-Identifier: MIT */
/* Internal-function driver for FN-DSA / Falcon implementations (round-3
 * specification v1.2), see docs/interfaces.md section 3 and docs/fndsa.md.
 * Commands, arguments and answers (hex; "-" is the empty string):
 *   keygen       seed48                 -> ok pk sk restarts   key generation from the 48-byte
 *                                                              seed the NIST API draws;
 *                                                              restarts: 4 bytes big-endian
 *   sign         sk m nonce40 seed48    -> ok sig              dynamic signing, detached
 *                                                              (0x30+logn || nonce || comp s2)
 *   sign_padded  sk m nonce40 seed48    -> ok sig              padded fixed-length format
 *   sign_tree    sk m nonce40 seed48    -> ok sig              expand sk, then tree signing
 *   expand       sk                     -> ok digest           SHAKE256-256 of the expanded key
 *                                                              (the key itself is 56-123 KB)
 *   verify       pk m sig               -> ok | fail
 *   verify_padded pk m sig              -> ok | fail           padded format only
 * Wrong argument counts fail with PQLAB_DRV_ERR_ARGS, wrong lengths of keys, nonce
 * or seed with PQLAB_DRV_ERR_LENGTH; a malformed signature or key makes
 * verify/sign answer "fail" (-1), never crash. */
#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "harness.h"
#include "../lib/common/fips202.h"

static uint8_t pk_buf[CRYPTO_PUBLICKEYBYTES];
static uint8_t sk_buf[CRYPTO_SECRETKEYBYTES];
static uint8_t sig_buf[CRYPTO_BYTES > CRYPTO_PADDEDBYTES ? CRYPTO_BYTES : CRYPTO_PADDEDBYTES];
static uint8_t esk_buf[CRYPTO_EXPANDEDKEYBYTES];

int pqlab_driver_dispatch(const char *tag, const char *cmd, int argc, const uint8_t *const *argv, const size_t *arglen)
{
    if (pqlab_drv_is(cmd, "keygen")) {
        if (argc != 1) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_ARGS);
        } else if (arglen[0] != 48) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_LENGTH);
        } else {
            int r = fndsa_keypair_seed(pk_buf, sk_buf, argv[0]);
            unsigned rs = crypto_sign_keygen_restarts();
            uint8_t rb[4] = {(uint8_t)(rs >> 24), (uint8_t)(rs >> 16), (uint8_t)(rs >> 8), (uint8_t)rs};
            const uint8_t *outs[3] = {pk_buf, sk_buf, rb};
            const size_t lens[3] = {sizeof pk_buf, sizeof sk_buf, sizeof rb};
            pqlab_drv_answer(tag, r, 3, outs, lens);
        }
        return 0;
    }
    if (pqlab_drv_is(cmd, "sign") || pqlab_drv_is(cmd, "sign_padded") || pqlab_drv_is(cmd, "sign_tree")) {
        int padded = pqlab_drv_is(cmd, "sign_padded"), tree = pqlab_drv_is(cmd, "sign_tree");
        if (argc != 4) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_ARGS);
        } else if (arglen[0] != CRYPTO_SECRETKEYBYTES || arglen[2] != 40 || arglen[3] != 48) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_LENGTH);
        } else {
            size_t siglen = 0;
            int r = 0;
            const uint8_t *key = argv[0];
            if (tree) {
                r = crypto_sign_expand(esk_buf, argv[0]);
                key = esk_buf;
            }
            if (r == 0) {
                r = fndsa_sign_seed(sig_buf, &siglen, argv[1], arglen[1], key, tree, padded, argv[2], argv[3]);
            }
            const uint8_t *outs[1] = {sig_buf};
            const size_t lens[1] = {siglen};
            pqlab_drv_answer(tag, r, 1, outs, lens);
        }
        return 0;
    }
    if (pqlab_drv_is(cmd, "expand")) {
        if (argc != 1) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_ARGS);
        } else if (arglen[0] != CRYPTO_SECRETKEYBYTES) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_LENGTH);
        } else {
            uint8_t d[32];
            int r = crypto_sign_expand(esk_buf, argv[0]);
            pqlab_shake256(d, sizeof d, esk_buf, sizeof esk_buf);
            const uint8_t *outs[1] = {d};
            const size_t lens[1] = {sizeof d};
            pqlab_drv_answer(tag, r, 1, outs, lens);
        }
        return 0;
    }
    if (pqlab_drv_is(cmd, "verify") || pqlab_drv_is(cmd, "verify_padded")) {
        if (argc != 3) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_ARGS);
        } else if (arglen[0] != CRYPTO_PUBLICKEYBYTES) {
            pqlab_drv_fail(tag, PQLAB_DRV_ERR_LENGTH);
        } else {
            int r = fndsa_verify(argv[2], arglen[2], argv[1], arglen[1], argv[0], pqlab_drv_is(cmd, "verify_padded"));
            pqlab_drv_answer(tag, r, 0, NULL, NULL);
        }
        return 0;
    }
    return 1;
}
