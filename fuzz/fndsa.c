/* SPDX-License-Identifier: MIT */
/* Fuzz target for the FN-DSA decoders and verification (lib/fndsa).
 *
 * Input layout: byte 0 selects the target, the rest is the data:
 *   0: detached signature (compressed) verified against a fixed key and message
 *   1: padded signature
 *   2: NIST signed message (crypto_sign_open)
 *   3: public key used to verify a fixed valid signature
 *   4: private key given to the signer (decode + complete_private)
 *   5: raw compressed s2 (comp_decode), re-encoded when accepted: must round-trip
 * Invariants checked (abort on violation): no memory error (ASan/UBSan builds),
 * verification accepts only the original signature bytes (strong unforgeability
 * on this key), an accepted compressed encoding re-encodes to the same bytes.
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
        if (NS(crypto_sign_open)(out, &ml, buf, size, pk) == 0 &&
            (size != smlen || memcmp(buf, sm, smlen) != 0)) {
            pqlab_fuzz_fail("a different signed message opened");
        }
        break;
    }
    case 3: {
        static uint8_t pk2[FNDSA_PKBYTES];
        memset(pk2, 0, sizeof pk2);
        memcpy(pk2, buf, size < sizeof pk2 ? size : sizeof pk2);
        if (NS(fndsa_verify)(sig, siglen, msg, sizeof msg, pk2, 0) == 0 &&
            memcmp(pk2, pk, sizeof pk) != 0) {
            pqlab_fuzz_fail("another public key accepted the signature");
        }
        break;
    }
    case 4: {
        /* a private key, decoded (header, f, g, F in the trimmed encoding, nothing left
         * over) and completed (G from the NTRU equation) as the signer does: no memory
         * error, and the genuine key decodes. Signing with a malformed key is not fuzzed:
         * the signing loop (Falcon specification, Algorithm 10) repeats until the
         * signature is short enough, which for an invalid key need never happen (found
         * by this target: a zero-padded key made fndsa_sign_seed loop without end). */
        static int8_t f[FNDSA_N], g[FNDSA_N], F[FNDSA_N], G[FNDSA_N];
        static uint16_t tmp[8 * FNDSA_N];
        static uint8_t sk2[FNDSA_SKBYTES];
        memset(sk2, 0, sizeof sk2);
        memcpy(sk2, buf, size < sizeof sk2 ? size : sizeof sk2);
        size_t u = 1, v = 0;
        int ok = sk2[0] == 0x50 + FNDSA_LOGN;
        if (ok) {
            v = fndsa_trim_i8_decode(f, FNDSA_LOGN, FNDSA_FG_BITS, sk2 + u, sizeof sk2 - u);
            u += v;
            ok = v != 0;
        }
        if (ok) {
            v = fndsa_trim_i8_decode(g, FNDSA_LOGN, FNDSA_FG_BITS, sk2 + u, sizeof sk2 - u);
            u += v;
            ok = v != 0;
        }
        if (ok) {
            v = fndsa_trim_i8_decode(F, FNDSA_LOGN, FNDSA_FFG_BITS, sk2 + u, sizeof sk2 - u);
            u += v;
            ok = v != 0 && u == sizeof sk2;
        }
        if (ok) {
            ok = fndsa_complete_private(G, f, g, F, FNDSA_LOGN, tmp);
        }
        if (!ok && memcmp(sk2, sk, sizeof sk) == 0) {
            pqlab_fuzz_fail("the genuine private key does not decode");
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
    if (k >= 6 || cap < 1 + len[k]) {
        return 0;
    }
    out[0] = (uint8_t)k;
    memcpy(out + 1, src[k], len[k]);
    return 1 + len[k];
}
