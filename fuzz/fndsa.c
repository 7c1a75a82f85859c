/* SPDX-License-Identifier: MIT */
/* Fuzz target for the FN-DSA decoders and verification (lib/fndsa).
 *
 * Input layout: byte 0 selects the target, the rest is the data:
 *   0: detached signature (compressed) verified against a fixed key and message
 *   1: padded signature
 *   2: NIST signed message (crypto_sign_open)
 *   3: public key used to verify a fixed valid signature
 *   4: private key given to the signer (fndsa_sign_seed: signs or refuses, returns)
 *   5: raw compressed s2 (comp_decode), re-encoded when accepted: must round-trip
 * Invariants checked (abort on violation): no memory error (ASan/UBSan builds),
 * verification accepts only the original signature bytes (strong unforgeability
 * on this key), an accepted compressed encoding re-encodes to the same bytes, signing
 * with any private key returns, and a refused key leaves a zeroed signature.
 *
 * fuzz/fuzz.h; built and run by pqlab's build on host-fuzz (ASan + UBSan), see
 * docs/fuzzing.md. */
#include <string.h>

#include "fndsa.h"
#include "fndsa_api.h"
#include "fuzz.h"

#define NS(x) PQLAB_NAMESPACE(x)

static uint8_t pk[FNDSA_PKBYTES], sk[FNDSA_SKBYTES];
static uint8_t sig[FNDSA_CRYPTO_BYTES], psig[FNDSA_SIGPAD];
static uint8_t sm[64 + FNDSA_CRYPTO_BYTES];
static size_t siglen, psiglen, smlen;
static const uint8_t msg[] = "fuzzing FN-DSA";
static int ready;

static void setup(void)
{
    uint8_t seed[48] = {1, 2, 3}, nonce[40] = {4}, sseed[48] = {5};
    if (ready) {
        return;
    }
    if (NS(fndsa_keypair_seed)(pk, sk, seed) != 0 ||
        NS(fndsa_sign_seed)(sig, &siglen, msg, sizeof msg, sk, 0, 0, nonce, sseed) != 0 ||
        NS(fndsa_sign_seed)(psig, &psiglen, msg, sizeof msg, sk, 0, 1, nonce, sseed) != 0 ||
        NS(crypto_sign)(sm, &smlen, msg, sizeof msg, sk) != 0) {
        pqlab_fuzz_fail("setup");
    }
    ready = 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint8_t buf[8192];
    static int16_t s2[FNDSA_N];
    static uint8_t out[4096];
    setup();
    if (size < 1) {
        return 0;
    }
    unsigned sel = data[0] % 6;
    data++;
    size--;
    if (size > sizeof buf) {
        size = sizeof buf;
    }
    memcpy(buf, data, size);
    switch (sel) {
    case 0:
        if (NS(fndsa_verify)(buf, size, msg, sizeof msg, pk, 0) == 0 &&
            (size != siglen || memcmp(buf, sig, siglen) != 0)) {
            pqlab_fuzz_fail("a different byte string verified");
        }
        break;
    case 1:
        if (NS(fndsa_verify)(buf, size, msg, sizeof msg, pk, 1) == 0 &&
            (size != psiglen || memcmp(buf, psig, psiglen) != 0)) {
            pqlab_fuzz_fail("a different padded signature verified");
        }
        break;
    case 2: {
        size_t ml = 0;
        if (NS(crypto_sign_open)(out, &ml, buf, size, pk) == 0 && (size != smlen || memcmp(buf, sm, smlen) != 0)) {
            pqlab_fuzz_fail("a different signed message opened");
        }
        break;
    }
    case 3: {
        static uint8_t pk2[FNDSA_PKBYTES];
        memset(pk2, 0, sizeof pk2);
        memcpy(pk2, buf, size < sizeof pk2 ? size : sizeof pk2);
        if (NS(fndsa_verify)(sig, siglen, msg, sizeof msg, pk2, 0) == 0 && memcmp(pk2, pk, sizeof pk) != 0) {
            pqlab_fuzz_fail("another public key accepted the signature");
        }
        break;
    }
    case 4: {
        /* a private key given to the signer: either it signs (and the signature
         * verifies under the public key recomputed from the same key) or signing
         * refuses it with -1 and a zeroed signature; it must return (the decoder checks
         * f G - g F = q exactly and signing gives up after FNDSA_SIGN_MAX_ATTEMPTS:
         * before that, a zero-padded key made fndsa_sign_seed loop without end), and the
         * genuine key must sign */
        static uint8_t sk2[FNDSA_SKBYTES], sig2[FNDSA_CRYPTO_BYTES];
        static const uint8_t zero[FNDSA_CRYPTO_BYTES];
        size_t sl = 1;
        memset(sk2, 0, sizeof sk2);
        memcpy(sk2, buf, size < sizeof sk2 ? size : sizeof sk2);
        memset(sig2, 0xa5, sizeof sig2);
        int r = NS(fndsa_sign_seed)(sig2, &sl, msg, sizeof msg, sk2, 0, 0, sig + 1, sk2 + 1);
        if (r != 0) {
            if (memcmp(sk2, sk, sizeof sk) == 0) {
                pqlab_fuzz_fail("the genuine private key does not sign");
            }
            if (r != -1 || sl != 0 || memcmp(sig2, zero, 1 + 40 + FNDSA_COMP_MAX_NIST) != 0) {
                pqlab_fuzz_fail("a refused private key left a non-zero signature");
            }
        } else if (memcmp(sk2, sk, sizeof sk) == 0 && NS(fndsa_verify)(sig2, sl, msg, sizeof msg, pk, 0) != 0) {
            pqlab_fuzz_fail("the genuine private key signed something that does not verify");
        }
        break;
    }
    default: {
        size_t v = fndsa_comp_decode(s2, FNDSA_LOGN, buf, size);
        if (v != 0) {
            size_t w = fndsa_comp_encode(out, sizeof out, s2, FNDSA_LOGN);
            if (w != v || memcmp(out, buf, v) != 0) {
                pqlab_fuzz_fail("non-canonical compressed encoding accepted");
            }
        }
        break;
    }
    }
    return 0;
}

/* one seed per operation: the genuine signature, padded signature, signed message,
 * public and private key, and the compressed s2 of the signature (after the 1-byte
 * header and the 40-byte nonce) */
size_t pqlab_fuzz_seed(unsigned k, uint8_t *out, size_t cap)
{
    const uint8_t *src[6] = {sig, psig, sm, pk, sk, sig + 41};
    const size_t len[6] = {siglen, psiglen, smlen, sizeof pk, sizeof sk, siglen - 41};
    return pqlab_fuzz_seed_table(k, out, cap, src, len, 6);
}
