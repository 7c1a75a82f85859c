/* SPDX-License-Identifier: MIT */
/* SLH-DSA key generation, signing and verification (FIPS 205 sections 9 and 10). */
#include <string.h>

#include "ct.h"
#include "internal.h"
#include "randombytes.h"
#include "slhdsa.h"

/* Algorithm 19 lines 7-10 and Algorithm 20 lines 8-11: split the m-byte digest into
 * md (k*a bits for FORS), idx_tree (h - h/d bits) and idx_leaf (h/d bits), each
 * read big-endian (toInt) and reduced mod 2^bits. */
static void split_digest(const uint8_t *digest, uint64_t *idx_tree, uint32_t *idx_leaf)
{
    uint64_t t = 0;
    uint32_t l = 0;
    unsigned int i;
    for (i = 0; i < SLH_TREE_BYTES; i++) {
        t = (t << 8) | digest[SLH_MD_BYTES + i];
    }
#if SLH_TREE_BITS < 64
    t &= ((uint64_t)1 << SLH_TREE_BITS) - 1;
#endif
    for (i = 0; i < SLH_LEAF_BYTES; i++) {
        l = (l << 8) | digest[SLH_MD_BYTES + SLH_TREE_BYTES + i];
    }
    l &= ((uint32_t)1 << SLH_HP) - 1;
    *idx_tree = t;
    *idx_leaf = l;
}

int slh_keygen_internal(uint8_t *pk, uint8_t *sk, const uint8_t *sk_seed, const uint8_t *sk_prf, const uint8_t *pk_seed)
{
    slh_ctx ctx;
    uint8_t root[SLH_N];

    slh_ctx_init(&ctx, pk_seed, sk_seed);
    /* PK.root = xmss_node(SK.seed, 0, h', PK.seed, ADRS) with layer d - 1, tree 0 */
    slh_xmss_root(root, &ctx, SLH_D - 1, 0);
    slh_ctx_clear(&ctx);
    PQLAB_DECLASSIFY(root, SLH_N);
    memmove(sk + 2 * SLH_N, pk_seed, SLH_N); /* pk_seed may point into sk or pk */
    memcpy(sk + 3 * SLH_N, root, SLH_N);
    memmove(sk, sk_seed, SLH_N);
    memmove(sk + SLH_N, sk_prf, SLH_N);
    memcpy(pk, sk + 2 * SLH_N, 2 * SLH_N);
    return 0;
}

/* slh_sign_internal (Algorithm 19) on M = hdr || m */
static void sign_core(uint8_t *sig, const uint8_t *hdr, size_t hdrlen, const uint8_t *m, size_t mlen,
                      const uint8_t *addrnd, const uint8_t *sk)
{
    const uint8_t *sk_seed = sk;
    const uint8_t *sk_prf = sk + SLH_N;
    const uint8_t *pk_seed = sk + 2 * SLH_N;
    const uint8_t *pk_root = sk + 3 * SLH_N;
    uint8_t digest[SLH_M];
    uint8_t pk_fors[SLH_N];
    uint64_t idx_tree;
    uint32_t idx_leaf;
    slh_adrs adrs;
    slh_ctx ctx;

    /* R = PRF_msg(SK.prf, opt_rand, M), opt_rand = addrnd or PK.seed (deterministic) */
    slh_PRF_msg(sig, sk_prf, addrnd != NULL ? addrnd : pk_seed, hdr, hdrlen, m, mlen);
    /* R is published: what follows from it is public */
    PQLAB_DECLASSIFY(sig, SLH_N);
    slh_H_msg(digest, sig, pk_seed, pk_root, hdr, hdrlen, m, mlen);
    /* the digest is a function of R, PK and M: a verifier recomputes it, so the tree and
     * leaf indices and the FORS indices are public (the PK.seed and PK.root copies in
     * sk are marked secret with the rest of sk by the constant-time harness) */
    PQLAB_DECLASSIFY(digest, SLH_M);
    split_digest(digest, &idx_tree, &idx_leaf);

    slh_ctx_init(&ctx, pk_seed, sk_seed);
    slh_adrs_zero(&adrs);
    slh_adrs_set_tree(&adrs, idx_tree);
    slh_adrs_set_type(&adrs, SLH_ADRS_FORS_TREE);
    slh_adrs_set_keypair(&adrs, idx_leaf);
    slh_fors_sign(pk_fors, sig + SLH_N, digest, &ctx, &adrs);
    PQLAB_DECLASSIFY(pk_fors, SLH_N);
    slh_ht_sign(sig + SLH_N + SLH_FORS_SIG_BYTES, pk_fors, &ctx, idx_tree, idx_leaf);
    slh_ctx_clear(&ctx);
}

/* slh_verify_internal (Algorithm 20) on M = hdr || m */
static int verify_core(const uint8_t *sig, size_t siglen, const uint8_t *hdr, size_t hdrlen, const uint8_t *m,
                       size_t mlen, const uint8_t *pk)
{
    const uint8_t *pk_seed = pk;
    const uint8_t *pk_root = pk + SLH_N;
    uint8_t digest[SLH_M];
    uint8_t pk_fors[SLH_N];
    uint64_t idx_tree;
    uint32_t idx_leaf;
    slh_adrs adrs;
    slh_ctx ctx;
    int r;

    if (siglen != SLH_SIG_BYTES) {
        return -1;
    }
    slh_H_msg(digest, sig, pk_seed, pk_root, hdr, hdrlen, m, mlen);
    split_digest(digest, &idx_tree, &idx_leaf);
    slh_ctx_init(&ctx, pk_seed, NULL);
    slh_adrs_zero(&adrs);
    slh_adrs_set_tree(&adrs, idx_tree);
    slh_adrs_set_type(&adrs, SLH_ADRS_FORS_TREE);
    slh_adrs_set_keypair(&adrs, idx_leaf);
    slh_fors_pk_from_sig(pk_fors, sig + SLH_N, digest, &ctx, &adrs);
    r = slh_ht_verify(pk_fors, sig + SLH_N + SLH_FORS_SIG_BYTES, &ctx, idx_tree, idx_leaf, pk_root);
    return r;
}

static const uint8_t empty[1] = {0};

int slh_sign_internal(uint8_t *sig, const uint8_t *m, size_t mlen, const uint8_t *addrnd, const uint8_t *sk)
{
    sign_core(sig, empty, 0, m != NULL ? m : empty, mlen, addrnd, sk);
    return 0;
}

int slh_verify_internal(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen, const uint8_t *pk)
{
    return verify_core(sig, siglen, empty, 0, m != NULL ? m : empty, mlen, pk);
}

/* M' = toByte(0, 1) || toByte(|ctx|, 1) || ctx || M (Algorithm 22 line 8) */
static size_t pure_header(uint8_t hdr[2 + 255], const uint8_t *ctx, size_t ctxlen)
{
    hdr[0] = 0;
    hdr[1] = (uint8_t)ctxlen;
    if (ctxlen > 0) {
        memcpy(hdr + 2, ctx, ctxlen);
    }
    return 2 + ctxlen;
}

int slh_sign(uint8_t *sig, const uint8_t *m, size_t mlen, const uint8_t *ctx, size_t ctxlen, const uint8_t *addrnd,
             const uint8_t *sk)
{
    uint8_t hdr[2 + 255];
    size_t hlen;
    if (ctxlen > 255) {
        memset(sig, 0, SLH_SIG_BYTES);
        return -1;
    }
    hlen = pure_header(hdr, ctx, ctxlen);
    sign_core(sig, hdr, hlen, m != NULL ? m : empty, mlen, addrnd, sk);
    return 0;
}

int slh_verify(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen, const uint8_t *ctx, size_t ctxlen,
               const uint8_t *pk)
{
    uint8_t hdr[2 + 255];
    size_t hlen;
    if (ctxlen > 255) {
        return -1;
    }
    hlen = pure_header(hdr, ctx, ctxlen);
    return verify_core(sig, siglen, hdr, hlen, m != NULL ? m : empty, mlen, pk);
}

/* M' = toByte(1, 1) || toByte(|ctx|, 1) || ctx || OID || PH(M) (Algorithm 23) */
static int prehash_header(uint8_t hdr[2 + 255 + 11 + 64], const uint8_t *m, size_t mlen, const uint8_t *ctx,
                          size_t ctxlen, int ph)
{
    int plen;
    hdr[0] = 1;
    hdr[1] = (uint8_t)ctxlen;
    if (ctxlen > 0) {
        memcpy(hdr + 2, ctx, ctxlen);
    }
    plen = slh_prehash(hdr + 2 + ctxlen, ph, m != NULL ? m : empty, mlen);
    if (plen < 0) {
        return -1;
    }
    return (int)(2 + ctxlen) + plen;
}

int hash_slh_sign(uint8_t *sig, const uint8_t *m, size_t mlen, const uint8_t *ctx, size_t ctxlen, int ph,
                  const uint8_t *addrnd, const uint8_t *sk)
{
    uint8_t hdr[2 + 255 + 11 + 64];
    int hlen;
    if (ctxlen > 255 || (hlen = prehash_header(hdr, m, mlen, ctx, ctxlen, ph)) < 0) {
        memset(sig, 0, SLH_SIG_BYTES);
        return -1;
    }
    sign_core(sig, hdr, (size_t)hlen, empty, 0, addrnd, sk);
    return 0;
}

int hash_slh_verify(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen, const uint8_t *ctx, size_t ctxlen,
                    int ph, const uint8_t *pk)
{
    uint8_t hdr[2 + 255 + 11 + 64];
    int hlen;
    if (ctxlen > 255 || (hlen = prehash_header(hdr, m, mlen, ctx, ctxlen, ph)) < 0) {
        return -1;
    }
    return verify_core(sig, siglen, hdr, (size_t)hlen, empty, 0, pk);
}

/* ---- NIST API ---- */

int slh_crypto_sign_keypair(uint8_t *pk, uint8_t *sk)
{
    uint8_t seed[3 * SLH_N];
    if (pqlab_randombytes(seed, sizeof seed) != 0) {
        pqlab_zeroize(seed, sizeof seed);
        memset(pk, 0, SLH_PK_BYTES);
        memset(sk, 0, SLH_SK_BYTES);
        return -1;
    }
    PQLAB_SECRET(seed, 2 * SLH_N);
    slh_keygen_internal(pk, sk, seed, seed + SLH_N, seed + 2 * SLH_N);
    pqlab_zeroize(seed, sizeof seed);
    return 0;
}

int slh_crypto_sign_signature_ctx(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen, const uint8_t *ctx,
                                  size_t ctxlen, const uint8_t *sk)
{
    uint8_t addrnd[SLH_N];
    *siglen = 0;
    if (ctxlen > 255 || pqlab_randombytes(addrnd, sizeof addrnd) != 0) {
        memset(sig, 0, SLH_SIG_BYTES);
        return -1;
    }
    slh_sign(sig, m, mlen, ctx, ctxlen, addrnd, sk);
    pqlab_zeroize(addrnd, sizeof addrnd);
    *siglen = SLH_SIG_BYTES;
    return 0;
}

int slh_crypto_sign_verify_ctx(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen, const uint8_t *ctx,
                               size_t ctxlen, const uint8_t *pk)
{
    return slh_verify(sig, siglen, m, mlen, ctx, ctxlen, pk);
}

int slh_crypto_sign_signature(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen, const uint8_t *sk)
{
    return slh_crypto_sign_signature_ctx(sig, siglen, m, mlen, empty, 0, sk);
}

int slh_crypto_sign_verify(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen, const uint8_t *pk)
{
    return slh_verify(sig, siglen, m, mlen, empty, 0, pk);
}

/* sm = signature || message */
int slh_crypto_sign(uint8_t *sm, size_t *smlen, const uint8_t *m, size_t mlen, const uint8_t *sk)
{
    size_t siglen;
    memmove(sm + SLH_SIG_BYTES, m, mlen);
    if (slh_crypto_sign_signature(sm, &siglen, sm + SLH_SIG_BYTES, mlen, sk) != 0) {
        memset(sm, 0, SLH_SIG_BYTES + mlen);
        *smlen = 0;
        return -1;
    }
    *smlen = SLH_SIG_BYTES + mlen;
    return 0;
}

int slh_crypto_sign_open(uint8_t *m, size_t *mlen, const uint8_t *sm, size_t smlen, const uint8_t *pk)
{
    size_t len;
    *mlen = 0;
    if (smlen < SLH_SIG_BYTES) {
        return -1;
    }
    len = smlen - SLH_SIG_BYTES;
    if (slh_crypto_sign_verify(sm, SLH_SIG_BYTES, sm + SLH_SIG_BYTES, len, pk) != 0) {
        memset(m, 0, len);
        return -1;
    }
    memmove(m, sm + SLH_SIG_BYTES, len);
    *mlen = len;
    return 0;
}
