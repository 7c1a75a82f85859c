/* SPDX-License-Identifier: MIT */
/* NIST API and FN-DSA entry points over the Falcon core (round-3
 * specification v1.2: key generation alg. 4, signing alg. 10, verification
 * alg. 16, encodings section 3.11).
 * Randomness order follows the round-3 package, so that the NIST KAT
 * generator reproduces its files: keygen draws a 48-byte seed (SHAKE256
 * input); signing draws the 40-byte nonce, then a 48-byte seed for the
 * sampler (SHAKE256 input, re-seeding the PRNG with 56 bytes per attempt). */
#include "fndsa.h"
#include "fndsa_api.h"
#include "ct.h"
#include "randombytes.h"

#define N FNDSA_N
#define LOGN FNDSA_LOGN

#if defined(__GNUC__)
#define FNDSA_NOINLINE __attribute__((noinline))
#else
#define FNDSA_NOINLINE
#endif

/* No static state: every operation keeps its work area on its own stack, sized for
 * that operation (docs/fndsa.md, "RAM per operation"): key generation FNDSA_KEYGEN_TMP
 * bytes, signing FNDSA_SIGN_DYN_FPRS / FNDSA_SIGN_TREE_FPRS fprs, expansion
 * FNDSA_EXPAND_FPRS fprs, verification 2n uint16. The functions are reentrant. */
/* Private key -> (f, g, F, G), with G = g F / f mod q (spec 3.11.5: G is not stored).
 * Refused (0) when the encoding is malformed (fndsa_decode_sk), f is not invertible mod q or
 * a G coefficient leaves [-127, 127] (fndsa_complete_private), or f G - g F != q
 * exactly (fndsa_check_ntru: G from g F / f mod q satisfies the equation modulo q only;
 * with a wrong F, a zero-padded key for instance, B is not a basis of the NTRU lattice
 * and signing could never find a short vector). Every check is constant time for a
 * valid key; only pass/fail verdicts are declassified, and the early returns happen
 * only for keys that are refused anyway. tmp: 5n words (20n bytes). */
static int load_sk(int8_t *f, int8_t *g, int8_t *F, int8_t *G, const uint8_t *sk, void *tmp)
{
    return fndsa_decode_sk(f, g, F, sk) && fndsa_complete_private(G, f, g, F, LOGN, (uint16_t *)tmp) &&
           fndsa_check_ntru(f, g, F, G, LOGN, (uint32_t *)tmp);
}

int PQLAB_NAMESPACE(fndsa_keypair_seed)(uint8_t *pk, uint8_t *sk, const uint8_t seed[48])
{
    /* f, g and F live in the caller's key buffers while they are computed (no stack of
     * their own; docs/fndsa.md, "Key generation in less RAM"): f where its encoding goes
     * (sk + 1: the encoder writes byte v after reading coefficient u >= v, so it may work
     * in place), g in pk + 1 (n bytes: the public key's encoding, written last, overwrites
     * it), F where its 8-bit encoding goes (the identity on [-127, 127]). G is not kept:
     * the private key does not store it. The randomness (SHAKE256 context and block
     * buffer, 352 B) lies in the public key's buffer too, after g (FNDSA_PKBYTES - 1 - n
     * bytes free there: 384 / 768), 8-byte aligned. pk and sk must not overlap. */
    const size_t fglen = (N * FNDSA_FG_BITS + 7) / 8;
    int8_t *f = (int8_t *)(void *)(sk + 1), *g = (int8_t *)(void *)(pk + 1);
    int8_t *F = (int8_t *)(void *)(sk + 1 + 2 * fglen);
    _Static_assert(sizeof(fndsa_keygen_rng) + 7 <= FNDSA_PKBYTES - 1 - N, "keygen rng fits after g in pk");
    uint8_t *rp = pk + 1 + N;
    rp += (0u - (uintptr_t)rp) & 7;
    fndsa_keygen_rng *rng = (fndsa_keygen_rng *)(void *)rp;
    union {
        uint8_t b[FNDSA_KEYGEN_TMP];
        uint32_t align;
    } work;
    uint16_t *h = (uint16_t *)(void *)work.b; /* written last by fndsa_keygen, in its work area */
    pqlab_shake256_init(&rng->st);
    pqlab_shake256_absorb(&rng->st, seed, 48);
    pqlab_shake256_finalize(&rng->st);
    fndsa_keygen(rng, f, g, F, NULL, h, LOGN, work.b);
    pqlab_zeroize(rng, sizeof *rng);    /* before the public key's encoding writes over it */
    PQLAB_DECLASSIFY(h, N * sizeof *h); /* the public key */
    int ok = 1;
    sk[0] = 0x50 + LOGN;
    size_t u = 1, v;
    v = fndsa_trim_i8_encode(sk + u, FNDSA_SKBYTES - u, f, LOGN, FNDSA_FG_BITS); /* in place */
    ok &= v == fglen;
    u += v;
    v = fndsa_trim_i8_encode(sk + u, FNDSA_SKBYTES - u, g, LOGN, FNDSA_FG_BITS);
    ok &= v == fglen;
    u += v;
    v = fndsa_trim_i8_encode(sk + u, FNDSA_SKBYTES - u, F, LOGN, FNDSA_FFG_BITS); /* in place */
    ok &= v == N;
    u += v;
    ok &= u == FNDSA_SKBYTES;
    pk[0] = LOGN;
    ok &= fndsa_modq_encode(pk + 1, FNDSA_PKBYTES - 1, h, LOGN) == FNDSA_PKBYTES - 1; /* over g */
    pqlab_zeroize(&work, sizeof work);
    if (!ok) {
        pqlab_zeroize(sk, FNDSA_SKBYTES);
        pqlab_zeroize(pk, FNDSA_PKBYTES);
        return -1;
    }
    return 0;
}

int PQLAB_NAMESPACE(crypto_sign_keypair)(uint8_t *pk, uint8_t *sk)
{
    uint8_t seed[48];
    if (pqlab_randombytes(seed, sizeof seed) != 0) {
        return -1;
    }
    int r = PQLAB_NAMESPACE(fndsa_keypair_seed)(pk, sk, seed);
    pqlab_zeroize(seed, sizeof seed);
    return r;
}

unsigned PQLAB_NAMESPACE(crypto_sign_keygen_restarts)(void)
{
    return fndsa_keygen_restarts_last;
}

unsigned PQLAB_NAMESPACE(crypto_sign_sign_attempts)(void)
{
    return fndsa_sign_attempts_last;
}

/* Sign: writes the compressed s2 to comp (at most compmax bytes; with
 * retry, draw new signatures until it fits, as the padded format requires;
 * without, fail when it does not fit) and returns its length, 0 on error.
 * tmp: FNDSA_SIGN_DYN_FPRS fprs (dynamic: the private key key is decoded and checked
 * into its slot FNDSA_SIGN_DYN_KEY_SLOT) or FNDSA_SIGN_TREE_FPRS (tree: key is the
 * expanded key). s2 is written in a slot of tmp that the attempt's last step leaves
 * free (params.h); comp may lie in tmp's slot 0 (written after the attempt). */
static size_t sign_loop(uint8_t *comp, size_t compmax, int retry, const uint8_t *m, size_t mlen, const uint8_t *key,
                        int tree, const uint8_t *nonce, const uint8_t *seed, fpr *tmp)
{
    uint16_t hm[N];
    int16_t *s2 = (int16_t *)(void *)(tmp + (tree ? FNDSA_SIGN_TREE_S2_SLOT : FNDSA_SIGN_DYN_S2_SLOT) * (size_t)N);
    int8_t *k = (int8_t *)(void *)(tmp + FNDSA_SIGN_DYN_KEY_SLOT * (size_t)N);
    pqlab_keccak_state sc;
    size_t len = 0;

    if (!tree && !load_sk(k, k + N, k + 2 * N, k + 3 * N, key, tmp)) {
        goto done;
    }
    pqlab_shake256_init(&sc);
    pqlab_shake256_absorb(&sc, nonce, FNDSA_NONCELEN);
    pqlab_shake256_absorb(&sc, m, mlen);
    pqlab_shake256_finalize(&sc);
    fndsa_hash_to_point(&sc, hm, LOGN);

    pqlab_shake256_init(&sc);
    pqlab_shake256_absorb(&sc, seed, FNDSA_SEEDLEN);
    pqlab_shake256_finalize(&sc);
    fndsa_sign_attempts_last = 0;
    for (;;) {
        int ok = tree ? fndsa_sign_tree(s2, &sc, key, hm, LOGN, tmp) : fndsa_sign_dyn(s2, &sc, key, hm, LOGN, tmp);
        if (!ok) {
            break; /* FNDSA_SIGN_MAX_ATTEMPTS reached (public count): len stays 0 */
        }
        PQLAB_DECLASSIFY(s2, N * sizeof *s2); /* the signature is public */
        len = fndsa_comp_encode(comp, compmax, s2, LOGN);
        if (len != 0 || !retry) {
            break;
        }
        /* a redraw (padded format): the attempt overwrote the decoded key, which
         * fndsa_sign_dyn restores only before its own further attempts */
        if (!tree && !(fndsa_decode_sk(k, k + N, k + 2 * N, key) &&
                       fndsa_complete_private(k + 3 * N, k, k + N, k + 2 * N, LOGN, (uint16_t *)(void *)tmp))) {
            break;
        }
    }
done:
    pqlab_zeroize(&sc, sizeof sc);
    return len;
}

/* the two forms in separate frames, so that each operation's stack is its own work area.
 * With sm (crypto_sign, never padded), the compressed s2 goes to the work area and the
 * signed message is assembled in sm from there (m is read only before: it may lie in sm). */
static FNDSA_NOINLINE size_t sign_core_dyn(uint8_t *comp, size_t compmax, int retry, const uint8_t *m, size_t mlen,
                                           const uint8_t *key, const uint8_t *nonce, const uint8_t *seed, uint8_t *sm)
{
    fpr tmp[FNDSA_SIGN_DYN_FPRS(LOGN)];
    uint8_t *c = sm != NULL ? (uint8_t *)(void *)tmp : comp;
    size_t len = sign_loop(c, compmax, retry, m, mlen, key, 0, nonce, seed, tmp);
    if (len != 0 && sm != NULL) {
        /* sm = siglen(2) || nonce || m || 0x20+logn || comp */
        memmove(sm + 2 + FNDSA_NONCELEN, m, mlen);
        sm[0] = (uint8_t)((len + 1) >> 8);
        sm[1] = (uint8_t)(len + 1);
        memcpy(sm + 2, nonce, FNDSA_NONCELEN);
        sm[2 + FNDSA_NONCELEN + mlen] = 0x20 + LOGN;
        memcpy(sm + 2 + FNDSA_NONCELEN + mlen + 1, c, len);
    }
    pqlab_zeroize(tmp, sizeof tmp);
    return len;
}

static FNDSA_NOINLINE size_t sign_core_tree(uint8_t *comp, size_t compmax, int retry, const uint8_t *m, size_t mlen,
                                            const uint8_t *key, const uint8_t *nonce, const uint8_t *seed)
{
    fpr tmp[FNDSA_SIGN_TREE_FPRS(LOGN)];
    size_t len = sign_loop(comp, compmax, retry, m, mlen, key, 1, nonce, seed, tmp);
    pqlab_zeroize(tmp, sizeof tmp);
    return len;
}

static size_t fndsa_sign_core(uint8_t *comp, size_t compmax, int retry, const uint8_t *m, size_t mlen,
                              const uint8_t *key, int tree, const uint8_t *nonce, const uint8_t *seed)
{
    return tree ? sign_core_tree(comp, compmax, retry, m, mlen, key, nonce, seed)
                : sign_core_dyn(comp, compmax, retry, m, mlen, key, nonce, seed, NULL);
}

int PQLAB_NAMESPACE(fndsa_sign_seed)(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen, const uint8_t *key,
                                     int tree, int padded, const uint8_t nonce[40], const uint8_t seed[48])
{
    size_t cmax = padded ? FNDSA_COMP_MAX_PAD : FNDSA_COMP_MAX_NIST;
    size_t len = fndsa_sign_core(sig + 1 + FNDSA_NONCELEN, cmax, padded, m, mlen, key, tree, nonce, seed);
    if (len == 0) {
        /* malformed key or attempt limit: no partial signature is left behind */
        pqlab_zeroize(sig, 1 + FNDSA_NONCELEN + cmax);
        *siglen = 0;
        return -1;
    }
    sig[0] = 0x30 + LOGN;
    memcpy(sig + 1, nonce, FNDSA_NONCELEN);
    if (padded) {
        memset(sig + 1 + FNDSA_NONCELEN + len, 0, cmax - len);
        len = cmax;
    }
    *siglen = 1 + FNDSA_NONCELEN + len;
    return 0;
}

static int sign_random(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen, const uint8_t *key, int tree)
{
    uint8_t nonce[FNDSA_NONCELEN], seed[FNDSA_SEEDLEN];
    if (pqlab_randombytes(nonce, sizeof nonce) != 0 || pqlab_randombytes(seed, sizeof seed) != 0) {
        return -1;
    }
    /* the nonce is published in the signature: it is public from the start */
    PQLAB_DECLASSIFY(nonce, sizeof nonce);
    int r = PQLAB_NAMESPACE(fndsa_sign_seed)(sig, siglen, m, mlen, key, tree, 0, nonce, seed);
    pqlab_zeroize(seed, sizeof seed);
    return r;
}

int PQLAB_NAMESPACE(crypto_sign_signature)(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen,
                                           const uint8_t *sk)
{
    return sign_random(sig, siglen, m, mlen, sk, 0);
}

int PQLAB_NAMESPACE(crypto_sign_signature_tree)(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen,
                                                const uint8_t *expanded)
{
    return sign_random(sig, siglen, m, mlen, expanded, 1);
}

int PQLAB_NAMESPACE(crypto_sign)(uint8_t *sm, size_t *smlen, const uint8_t *m, size_t mlen, const uint8_t *sk)
{
    /* no intermediate signature buffer: the signed message is written from the work area */
    uint8_t nonce[FNDSA_NONCELEN], seed[FNDSA_SEEDLEN];
    size_t clen = 0;
    if (pqlab_randombytes(nonce, sizeof nonce) == 0 && pqlab_randombytes(seed, sizeof seed) == 0) {
        PQLAB_DECLASSIFY(nonce, sizeof nonce); /* published in the signature */
        clen = sign_core_dyn(NULL, FNDSA_COMP_MAX_NIST, 0, m, mlen, sk, nonce, seed, sm);
    }
    pqlab_zeroize(seed, sizeof seed);
    if (clen == 0) {
        /* sm is cleared unless it holds the message (the NIST API allows m inside sm:
         * the caller's message is kept) */
        uintptr_t s0 = (uintptr_t)sm, s1 = s0 + mlen + FNDSA_CRYPTO_BYTES, m0 = (uintptr_t)m;
        if (mlen == 0 || m0 + mlen <= s0 || m0 >= s1) {
            pqlab_zeroize(sm, mlen + FNDSA_CRYPTO_BYTES);
        }
        *smlen = 0;
        return -1;
    }
    *smlen = 2 + FNDSA_NONCELEN + mlen + 1 + clen;
    return 0;
}

/* verify: nonce, compressed s2 (exactly clen bytes, or padded), message */
static int fndsa_verify_core(const uint8_t *nonce, const uint8_t *comp, size_t clen, int padded, const uint8_t *m,
                             size_t mlen, const uint8_t *pk)
{
    /* 2n uint16 in all (docs/fndsa.md, "RAM per operation"): s2, then s2 h; h, then c */
    uint16_t a[N], b[N];
    int16_t *s2 = (int16_t *)(void *)a;
    pqlab_keccak_state sc;

    if (pk[0] != LOGN || fndsa_modq_decode(b, LOGN, pk + 1, FNDSA_PKBYTES - 1) != FNDSA_PKBYTES - 1) {
        return -1;
    }
    if (clen == 0) {
        return -1;
    }
    size_t v = fndsa_comp_decode(s2, LOGN, comp, clen);
    if (v == 0) {
        return -1;
    }
    if (v != clen) {
        if (!padded) {
            return -1; /* trailing data */
        }
        for (size_t i = v; i < clen; i++) {
            if (comp[i] != 0) {
                return -1;
            }
        }
    }
    pqlab_shake256_init(&sc);
    pqlab_shake256_absorb(&sc, nonce, FNDSA_NONCELEN);
    pqlab_shake256_absorb(&sc, m, mlen);
    pqlab_shake256_finalize(&sc);
    return fndsa_verify_inplace(a, b, &sc, LOGN) ? 0 : -1;
}

int PQLAB_NAMESPACE(fndsa_verify)(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen, const uint8_t *pk,
                                  int padded)
{
    if (siglen < 1 + FNDSA_NONCELEN + 1 || sig[0] != 0x30 + LOGN) {
        return -1;
    }
    if (padded && siglen != FNDSA_SIGPAD) {
        return -1;
    }
    if (!padded && siglen > 1 + FNDSA_NONCELEN + FNDSA_COMP_MAX_NIST) {
        return -1;
    }
    return fndsa_verify_core(sig + 1, sig + 1 + FNDSA_NONCELEN, siglen - 1 - FNDSA_NONCELEN, padded, m, mlen, pk);
}

int PQLAB_NAMESPACE(crypto_sign_verify)(const uint8_t *sig, size_t siglen, const uint8_t *m, size_t mlen,
                                        const uint8_t *pk)
{
    return PQLAB_NAMESPACE(fndsa_verify)(sig, siglen, m, mlen, pk, 0);
}

int PQLAB_NAMESPACE(crypto_sign_open)(uint8_t *m, size_t *mlen, const uint8_t *sm, size_t smlen, const uint8_t *pk)
{
    *mlen = 0;
    if (smlen < 2 + FNDSA_NONCELEN) {
        return -1;
    }
    size_t sl = ((size_t)sm[0] << 8) | sm[1];
    if (sl < 2 || sl > smlen - 2 - FNDSA_NONCELEN || sl > 1 + FNDSA_COMP_MAX_NIST) {
        return -1;
    }
    size_t ml = smlen - 2 - FNDSA_NONCELEN - sl;
    const uint8_t *esig = sm + 2 + FNDSA_NONCELEN + ml;
    if (esig[0] != 0x20 + LOGN) {
        return -1;
    }
    if (fndsa_verify_core(sm + 2, esig + 1, sl - 1, 0, sm + 2 + FNDSA_NONCELEN, ml, pk) != 0) {
        return -1;
    }
    memmove(m, sm + 2 + FNDSA_NONCELEN, ml);
    *mlen = ml;
    return 0;
}

int PQLAB_NAMESPACE(crypto_sign_expand)(uint8_t *expanded, const uint8_t *sk)
{
    fpr tmp[FNDSA_EXPAND_FPRS(LOGN)];
    int8_t f[N], g[N], F[N], G[N];
    int r = 0;
    if (!load_sk(f, g, F, G, sk, tmp)) {
        r = -1;
        pqlab_zeroize(expanded, FNDSA_EXPANDEDKEYBYTES);
    } else {
        fndsa_expand_privkey(expanded, f, g, F, G, LOGN, tmp);
    }
    pqlab_zeroize(f, sizeof f);
    pqlab_zeroize(g, sizeof g);
    pqlab_zeroize(F, sizeof F);
    pqlab_zeroize(G, sizeof G);
    pqlab_zeroize(tmp, sizeof tmp);
    return r;
}

/* file-local names: a single compilation unit (pqlab export) includes the next file after this one */
#undef N
#undef LOGN
#undef FNDSA_NOINLINE
