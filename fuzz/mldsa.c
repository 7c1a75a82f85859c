/* SPDX-License-Identifier: MIT */
/* Fuzz target for the ML-DSA decoders (signature, public key, secret key, hints, mu);
 * fuzz/fuzz.h, built and run by pqlab's build on host-fuzz (ASan + UBSan, docs/fuzzing.md):
 * any out-of-bounds access or undefined behaviour aborts. Properties checked beyond
 * "no crash":
 *  - verification accepts a signature only if it equals the one genuine signature of the
 *    fixed (pk, message) pair (ML-DSA with canonical hints is strongly unforgeable, so a
 *    mutated signature that verifies is a bug), and never under a modified public key;
 *  - signing with a malformed secret key either succeeds or fails with MLDSA_ERR_SK and
 *    zeroed output.
 * Input: byte 0 selects the operation, the rest is its payload. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "mldsa.h"

#define SIG_H (MLDSA_CTILDEBYTES + MLDSA_L * MLDSA_POLYZ_BYTES)
#define HINT_BYTES (MLDSA_OMEGA + MLDSA_K)

static uint8_t pk0[MLDSA_PUBLICKEYBYTES], sk0[MLDSA_SECRETKEYBYTES], sig0[MLDSA_SIGBYTES];
static uint8_t mu0[MLDSA_CRHBYTES];
static const uint8_t msg[] = "pqlab ML-DSA fuzz message";
static int ready;

static void fail(const char *what)
{
    pqlab_fuzz_fail(what);
}

static void init(void)
{
    uint8_t xi[MLDSA_SEEDBYTES];
    size_t siglen;
    if (ready) {
        return;
    }
    memset(xi, 0x42, sizeof xi);
    if (mldsa_keypair_internal(pk0, sk0, xi) != 0 ||
        mldsa_signature_ctx(sig0, &siglen, msg, sizeof msg, NULL, 0, xi, sk0) != 0 ||
        mldsa_verify(sig0, sizeof sig0, msg, sizeof msg, pk0) != 0 ||
        mldsa_compute_mu(mu0, pk0, msg, sizeof msg, NULL, 0, 0) != 0) {
        fail("setup");
    }
    ready = 1;
}

/* a signature (of any length, in a heap buffer of exactly that length so that ASan sees
 * every overread) is accepted only if it is the genuine one */
static void check_sig(const uint8_t *s, size_t len)
{
    uint8_t *copy = malloc(len ? len : 1);
    if (copy == NULL) {
        return;
    }
    memcpy(copy, s, len);
    const int ok = mldsa_verify(copy, len, msg, sizeof msg, pk0) == 0;
    const int ok_mu = mldsa_verify_extmu(copy, len, mu0, pk0) == 0;
    if (ok != ok_mu) {
        fail("verify and verify_extmu disagree");
    }
    if (ok && (len != MLDSA_SIGBYTES || memcmp(copy, sig0, len) != 0)) {
        fail("a modified signature verified");
    }
    free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t s[MLDSA_SIGBYTES];
    init();
    if (size < 1) {
        return 0;
    }
    const uint8_t op = data[0] % 6;
    data++;
    size--;
    switch (op) {
    case 0: /* raw bytes as a signature */
        check_sig(data, size);
        break;
    case 1: { /* XOR the payload into the genuine signature at an offset */
        if (size < 2) {
            break;
        }
        const size_t off = ((size_t)data[0] | (size_t)data[1] << 8) % MLDSA_SIGBYTES;
        memcpy(s, sig0, sizeof s);
        for (size_t i = 2; i < size; i++) {
            s[(off + i - 2) % MLDSA_SIGBYTES] ^= data[i];
        }
        check_sig(s, sizeof s);
        break;
    }
    case 2: /* replace the hint section (HintBitUnpack, Algorithm 21) */
        memcpy(s, sig0, sizeof s);
        memcpy(s + SIG_H, data, size < HINT_BYTES ? size : HINT_BYTES);
        check_sig(s, sizeof s);
        break;
    case 3: { /* truncated or extended signature */
        const size_t len = size ? (MLDSA_SIGBYTES - 8 + data[0] % 17) : MLDSA_SIGBYTES;
        uint8_t *t = malloc(len);
        if (t == NULL) {
            break;
        }
        for (size_t i = 0; i < len; i++) {
            t[i] = i < MLDSA_SIGBYTES ? sig0[i] : 0;
        }
        check_sig(t, len);
        free(t);
        break;
    }
    case 4: { /* modified public key: the genuine signature must not verify */
        uint8_t *p = malloc(MLDSA_PUBLICKEYBYTES);
        if (p == NULL || size < 2) {
            free(p);
            break;
        }
        memcpy(p, pk0, MLDSA_PUBLICKEYBYTES);
        const size_t off = ((size_t)data[0] | (size_t)data[1] << 8) % MLDSA_PUBLICKEYBYTES;
        for (size_t i = 2; i < size; i++) {
            p[(off + i - 2) % MLDSA_PUBLICKEYBYTES] ^= data[i];
        }
        if (memcmp(p, pk0, MLDSA_PUBLICKEYBYTES) != 0 &&
            mldsa_verify(sig0, sizeof sig0, msg, sizeof msg, p) == 0) {
            fail("signature verified under a modified public key");
        }
        free(p);
        break;
    }
    default: { /* malformed secret key: sign must succeed or say MLDSA_ERR_SK */
        uint8_t *k = malloc(MLDSA_SECRETKEYBYTES);
        size_t siglen = 1;
        if (k == NULL || size < 2) {
            free(k);
            break;
        }
        memcpy(k, sk0, MLDSA_SECRETKEYBYTES);
        const size_t off = ((size_t)data[0] | (size_t)data[1] << 8) % MLDSA_SECRETKEYBYTES;
        for (size_t i = 2; i < size && i < 34; i++) {
            k[(off + i - 2) % MLDSA_SECRETKEYBYTES] ^= data[i];
        }
        const uint8_t rnd[MLDSA_RNDBYTES] = {0};
        const int r = mldsa_signature_extmu(s, &siglen, mu0, rnd, k);
        if (r != 0) {
            static const uint8_t zero[MLDSA_SIGBYTES];
            if (r != MLDSA_ERR_SK || siglen != 0 || memcmp(s, zero, sizeof s) != 0) {
                fail("bad failure of sign with a malformed key");
            }
        }
        free(k);
        break;
    }
    }
    return 0;
}

/* one seed per operation: the genuine signature; an offset and a one-bit change; the
 * genuine hint section; a length change; changes of the public and the secret key */
size_t pqlab_fuzz_seed(unsigned k, uint8_t *buf, size_t cap)
{
    if (cap < 1 + MLDSA_SIGBYTES) {
        return 0;
    }
    buf[0] = (uint8_t)k;
    switch (k) {
    case 0:
        memcpy(buf + 1, sig0, MLDSA_SIGBYTES);
        return 1 + MLDSA_SIGBYTES;
    case 2:
        memcpy(buf + 1, sig0 + SIG_H, HINT_BYTES);
        return 1 + HINT_BYTES;
    case 3:
        buf[1] = 8;
        return 2;
    case 1:
    case 4:
    case 5:
        buf[1] = (uint8_t)(17 * k);
        buf[2] = (uint8_t)k;
        memset(buf + 3, 0, 16);
        buf[3] = 1;
        return 19;
    default:
        return 0;
    }
}
