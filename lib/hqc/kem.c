/* SPDX-License-Identifier: MIT */
/* HQC-PKE and HQC-KEM (round-4 specification of 2023-04-30, the PKE of section 2 and
 * the KEM obtained by the salted Fujisaki-Okamoto transform with implicit rejection).
 *
 *   Keygen:  sk_seed, sigma, pk_seed random; (x, y) <- fixed weight w from
 *            SE(sk_seed); h <- uniform from SE(pk_seed); s = x + h y;
 *            pk = pk_seed || s, sk = sk_seed || sigma || pk.
 *   Encrypt(m, theta): (r1, r2, e) <- fixed weights (w_r, w_r, w_e) from SE(theta[0..40));
 *            u = r1 + h r2, v = truncate_{n1 n2}(C.Encode(m) + s r2 + e).
 *   Decrypt: m' = C.Decode(v - u y).
 *   Encaps:  m, salt random; theta = G(m || pk || salt); (u, v) = Encrypt(m, theta);
 *            K = K(m || u || v); ct = u || v || salt.
 *   Decaps:  m' = Decrypt(u, v); theta' = G(m' || pk || salt);
 *            (u', v') = Encrypt(m', theta'); K(m' || u || v) if (u', v') = (u, v),
 *            else K(sigma || u || v).
 * G and K are SHAKE256 with domain bytes 3 and 4 (64 bytes out), SE the seed expander.
 *
 * Decapsulation compares the whole re-encryption with the received u || v. Because
 * theta' depends on the received salt, a modified salt gives a different (u', v') and
 * the implicit-rejection key: the salt is bound to the key through the re-encryption,
 * not through K (docs/hqc.md). The comparison and the selection of m' or sigma are
 * branch-free (differences OR-ed without a branch, value barrier, pqlab_ct_cmov).
 *
 * PQLAB_HQC_VERSION 2025 (specification of 2025-08-22, reference code v5.0.0; docs/hqc.md):
 *   Keygen(seed_KEM): (seed_PKE, sigma) <- XOF(seed_KEM); (seed_dk, seed_ek) = I(seed_PKE);
 *            y then x <- fixed weight w from XOF(seed_dk) by rejection sampling;
 *            h <- uniform from XOF(seed_ek); s = x + h y;
 *            pk = seed_ek || s, sk = pk || seed_dk || sigma || seed_KEM.
 *   Encrypt(m, theta): (r2, e, r1) in that order from XOF(theta), the rest as above.
 *   Encaps:  (K, theta) = G(H(pk) || m || salt); ct = Encrypt(m, theta) || salt.
 *   Decaps:  m' = Decrypt; (K', theta') = G(H(pk) || m' || salt); K' if the re-encryption
 *            equals the received u || v, else J(H(pk) || sigma || ct).
 * XOF = SHAKE256 (domain 1), I and G = SHA3-512 (domains 2, 0), H and J = SHA3-256
 * (domains 1, 3). Key and salt enter K through G. */
#include <string.h>

#include "ct.h"
#include "hqc.h"
#include "internal.h"
#include "randombytes.h"

/* fixed-weight sampling of the secret x, y: rejection sampling in the 2025 version */
#if PQLAB_HQC_VERSION == 2025
#define sample_secret hqc_sample_support_rej
#else
#define sample_secret hqc_sample_support
#endif

/* the supports of x and y from the secret seed, in the version's order (2023: x then y;
 * 2025: y then x) */
static void secret_xy(uint32_t xsup[HQC_WR], uint32_t ysup[HQC_WR], const uint8_t *sk_seed)
{
    hqc_xof xof;
    hqc_xof_init(&xof, sk_seed, HQC_SEEDBYTES, HQC_DOMAIN_XOF);
#if PQLAB_HQC_VERSION == 2025
    sample_secret(&xof, ysup, HQC_W);
    sample_secret(&xof, xsup, HQC_W);
#else
    sample_secret(&xof, xsup, HQC_W);
    sample_secret(&xof, ysup, HQC_W);
#endif
    pqlab_zeroize(&xof, sizeof xof);
}

/* the bytes of s = x + h y from the seeds (2023: sk_seed, pk_seed; 2025: seed_dk, seed_ek) */
static void keygen_s(uint8_t s_bytes[HQC_NBYTES], const uint8_t *sk_seed, const uint8_t *pk_seed)
{
    hqc_xof xof;
    uint32_t sup[HQC_WR];
    uint64_t y[HQC_NW], h[HQC_NW];
#ifdef PQLAB_HQC_SMALLSTACK
    uint32_t ysup[HQC_WR];
    secret_xy(sup, ysup, sk_seed); /* x kept as its support */
    hqc_xof_init(&xof, pk_seed, HQC_SEEDBYTES, HQC_DOMAIN_XOF);
    hqc_sample_dense(&xof, h);
    hqc_vect_mul_sparse(y, h, ysup, HQC_W); /* s = h y + x, in y's buffer */
    hqc_support_xor(y, sup, HQC_W);
    hqc_store(s_bytes, HQC_NBYTES, y);
    pqlab_zeroize(ysup, sizeof ysup);
#else
    memset(y, 0, sizeof y);
    { /* y's support only until y is dense (keeps it out of the product's stack frame) */
        uint32_t ysup[HQC_WR];
        secret_xy(sup, ysup, sk_seed); /* x kept as its support */
        hqc_support_xor(y, ysup, HQC_W);
        pqlab_zeroize(ysup, sizeof ysup);
    }
    hqc_xof_init(&xof, pk_seed, HQC_SEEDBYTES, HQC_DOMAIN_XOF);
    hqc_sample_dense(&xof, h);
    hqc_vect_mul(h, h, y);
    hqc_support_xor(h, sup, HQC_W);
    hqc_store(s_bytes, HQC_NBYTES, h);
#endif
    pqlab_zeroize(&xof, sizeof xof);
    pqlab_zeroize(sup, sizeof sup);
    pqlab_zeroize(y, sizeof y);
    pqlab_zeroize(h, sizeof h);
}

/* the support of y from the secret seed (x is drawn and discarded when the stream order
 * requires) */
static void secret_ysup(uint32_t sup[HQC_WR], const uint8_t *sk_seed)
{
    hqc_xof xof;
    hqc_xof_init(&xof, sk_seed, HQC_SEEDBYTES, HQC_DOMAIN_XOF);
    sample_secret(&xof, sup, HQC_W);
#if PQLAB_HQC_VERSION == 2023
    sample_secret(&xof, sup, HQC_W);
#endif
    pqlab_zeroize(&xof, sizeof xof);
}

#ifndef PQLAB_HQC_SMALLSTACK
/* y from sk_seed */
static void secret_y(uint64_t y[HQC_NW], const uint8_t *sk_seed)
{
    uint32_t sup[HQC_WR];
    secret_ysup(sup, sk_seed);
    memset(y, 0, HQC_NW * sizeof(uint64_t));
    hqc_support_xor(y, sup, HQC_W);
    pqlab_zeroize(sup, sizeof sup);
}
#endif

/* the supports of r1, r2, e from the encryption XOF, in the version's order (2023: r1, r2, e;
 * 2025: r2, e, r1) */
static void sample_encryption(hqc_xof *xof, uint32_t r1[HQC_WR], uint32_t r2sup[HQC_WR], uint32_t e[HQC_WE])
{
#if PQLAB_HQC_VERSION == 2025
    hqc_sample_support(xof, r2sup, HQC_WR);
    hqc_sample_support(xof, e, HQC_WE);
    hqc_sample_support(xof, r1, HQC_WR);
#else
    hqc_sample_support(xof, r1, HQC_WR);
    hqc_sample_support(xof, r2sup, HQC_WR);
    hqc_sample_support(xof, e, HQC_WE);
#endif
}

/* the bytes of w into out (nbytes), or, when out is NULL, OR of their differences from expect */
static uint32_t emit(uint8_t *out, const uint8_t *expect, size_t nbytes, const uint64_t *w)
{
    uint32_t diff = 0;
    if (out != NULL) { /* public: which of the two uses */
        hqc_store(out, nbytes, w);
    } else {
        for (size_t i = 0; i < nbytes; i++) {
            diff |= (uint32_t)(expect[i] ^ (uint8_t)(w[i / 8] >> (8 * (i % 8))));
        }
    }
    return diff;
}

/* (u, v) = Encrypt(pk, m, theta). With out: u || v written there (HQC_NBYTES + HQC_N1N2BYTES
 * bytes), returns 0. With out NULL: compared with expect (the same layout) without storing
 * it (decapsulation's re-encryption, one buffer less on the stack): 0 when equal, nonzero
 * otherwise. */
static uint32_t pke_encrypt(uint8_t *out, const uint8_t *expect, const uint8_t *pk, const uint8_t m[HQC_K],
                            const uint8_t *theta)
{
    uint32_t diff;
    hqc_xof xof;
    uint32_t r1[HQC_WR], e[HQC_WE];
    uint64_t r2[HQC_NW], a[HQC_NW];

    hqc_xof_init(&xof, theta, HQC_SEEDBYTES, HQC_DOMAIN_XOF);
#ifdef PQLAB_HQC_SMALLSTACK
    /* r2 kept as its support; the products go to r2's buffer */
    uint32_t r2sup[HQC_WR];
    sample_encryption(&xof, r1, r2sup, e);
    hqc_xof_init(&xof, pk, HQC_SEEDBYTES, HQC_DOMAIN_XOF);
    hqc_sample_dense(&xof, a);
    hqc_vect_mul_sparse(r2, a, r2sup, HQC_WR); /* u = r1 + h r2 */
    hqc_support_xor(r2, r1, HQC_WR);
    diff = emit(out, expect, HQC_NBYTES, r2);
    hqc_load(a, HQC_NW, pk + HQC_SEEDBYTES, HQC_NBYTES);
    a[HQC_NW - 1] &= ((uint64_t)1 << HQC_NTOP) - 1;
    hqc_vect_mul_sparse(r2, a, r2sup, HQC_WR); /* v = truncate(C.Encode(m) + s r2 + e) */
    hqc_support_xor(r2, e, HQC_WE);
    hqc_code_encode(r2, m);
    diff |= emit(out == NULL ? NULL : out + HQC_NBYTES, expect == NULL ? NULL : expect + HQC_NBYTES, HQC_N1N2BYTES, r2);
    pqlab_zeroize(r2sup, sizeof r2sup);
#else
    memset(r2, 0, sizeof r2);
    { /* r2's support only until r2 is dense (keeps it out of the product's stack frame) */
        uint32_t sup[HQC_WR];
        sample_encryption(&xof, r1, sup, e);
        hqc_support_xor(r2, sup, HQC_WR);
        pqlab_zeroize(sup, sizeof sup);
    }

    /* u = r1 + h r2 */
    hqc_xof_init(&xof, pk, HQC_SEEDBYTES, HQC_DOMAIN_XOF);
    hqc_sample_dense(&xof, a);
    hqc_vect_mul(a, a, r2);
    hqc_support_xor(a, r1, HQC_WR);
    diff = emit(out, expect, HQC_NBYTES, a);

    /* v = truncate(C.Encode(m) + s r2 + e) */
    hqc_load(a, HQC_NW, pk + HQC_SEEDBYTES, HQC_NBYTES);
    a[HQC_NW - 1] &= ((uint64_t)1 << HQC_NTOP) - 1;
    hqc_vect_mul(a, a, r2);
    hqc_support_xor(a, e, HQC_WE);
    hqc_code_encode(a, m); /* a[0..HQC_N1N2W) ^= the codeword; the rest is truncated away */
    diff |= emit(out == NULL ? NULL : out + HQC_NBYTES, expect == NULL ? NULL : expect + HQC_NBYTES, HQC_N1N2BYTES, a);
#endif

    pqlab_zeroize(&xof, sizeof xof);
    pqlab_zeroize(r1, sizeof r1);
    pqlab_zeroize(e, sizeof e);
    pqlab_zeroize(r2, sizeof r2);
    pqlab_zeroize(a, sizeof a);
    return diff;
}

/* m = Decrypt(sk, u || v); sk: the secret seed (sk_seed in 2023, seed_dk in 2025) */
static void pke_decrypt(uint8_t m[HQC_K], const uint8_t *sk, const uint8_t *ct)
{
    uint64_t y[HQC_NW], u[HQC_NW];
#ifdef PQLAB_HQC_SMALLSTACK
    {
        uint32_t sup[HQC_WR];
        secret_ysup(sup, sk);
        hqc_load(y, HQC_NW, ct, HQC_NBYTES);
        y[HQC_NW - 1] &= ((uint64_t)1 << HQC_NTOP) - 1; /* bits beyond n are not part of u */
        hqc_vect_mul_sparse(u, y, sup, HQC_W);          /* u y */
        pqlab_zeroize(sup, sizeof sup);
    }
#else
    secret_y(y, sk);
    hqc_load(u, HQC_NW, ct, HQC_NBYTES);
    u[HQC_NW - 1] &= ((uint64_t)1 << HQC_NTOP) - 1; /* bits beyond n are not part of u */
    hqc_vect_mul(u, u, y);                          /* u y */
#endif
    hqc_load(y, HQC_N1N2W, ct + HQC_NBYTES, HQC_N1N2BYTES); /* v, into y's buffer */
    for (size_t i = 0; i < HQC_N1N2W; i++) {
        u[i] ^= y[i];
    }
    hqc_code_decode(m, u);
    pqlab_zeroize(y, sizeof y);
    pqlab_zeroize(u, sizeof u);
}

#if PQLAB_HQC_VERSION == 2023
int PQLAB_NAMESPACE(crypto_kem_keypair_derand)(uint8_t *pk, uint8_t *sk, const uint8_t *sk_seed, const uint8_t *sigma,
                                               const uint8_t *pk_seed)
{
    uint8_t seeds[2 * HQC_SEEDBYTES + HQC_K]; /* copies: pk and sk may overlap the inputs */
    memcpy(seeds, sk_seed, HQC_SEEDBYTES);
    memcpy(seeds + HQC_SEEDBYTES, sigma, HQC_K);
    memcpy(seeds + HQC_SEEDBYTES + HQC_K, pk_seed, HQC_SEEDBYTES);
    keygen_s(pk + HQC_SEEDBYTES, seeds, seeds + HQC_SEEDBYTES + HQC_K);
    memcpy(pk, seeds + HQC_SEEDBYTES + HQC_K, HQC_SEEDBYTES);
    memcpy(sk, seeds, HQC_SEEDBYTES + HQC_K);
    memcpy(sk + HQC_SEEDBYTES + HQC_K, pk, HQC_PKBYTES);
    pqlab_zeroize(seeds, sizeof seeds);
    return 0;
}

int PQLAB_NAMESPACE(crypto_kem_keypair)(uint8_t *pk, uint8_t *sk)
{
    uint8_t sk_seed[HQC_SEEDBYTES], sigma[HQC_K], pk_seed[HQC_SEEDBYTES];
    int fail = pqlab_randombytes(sk_seed, sizeof sk_seed) != 0;
    fail |= pqlab_randombytes(sigma, sizeof sigma) != 0;
    fail |= pqlab_randombytes(pk_seed, sizeof pk_seed) != 0;
    int r = HQC_ERR_RNG;
    if (!fail) {
        r = PQLAB_NAMESPACE(crypto_kem_keypair_derand)(pk, sk, sk_seed, sigma, pk_seed);
    } else {
        pqlab_zeroize(pk, HQC_PKBYTES);
        pqlab_zeroize(sk, HQC_SKBYTES);
    }
    pqlab_zeroize(sk_seed, sizeof sk_seed);
    pqlab_zeroize(sigma, sizeof sigma);
    pqlab_zeroize(pk_seed, sizeof pk_seed);
    return r;
}

int PQLAB_NAMESPACE(crypto_kem_enc_derand)(uint8_t *ct, uint8_t *ss, const uint8_t *pk, const uint8_t *m,
                                           const uint8_t *salt)
{
    uint8_t theta[HQC_THETABYTES];
    uint8_t mm[HQC_K], sl[HQC_SALTBYTES]; /* copies: ct and ss may overlap the inputs */
    memcpy(mm, m, HQC_K);
    memcpy(sl, salt, HQC_SALTBYTES);
    hqc_shake256_512(theta, mm, HQC_K, pk, HQC_PKBYTES, sl, HQC_SALTBYTES, HQC_DOMAIN_G);
    (void)pke_encrypt(ct, NULL, pk, mm, theta);
    memcpy(ct + HQC_NBYTES + HQC_N1N2BYTES, sl, HQC_SALTBYTES);
    hqc_shake256_512(ss, mm, HQC_K, ct, HQC_NBYTES + HQC_N1N2BYTES, ct, 0, HQC_DOMAIN_K);
    pqlab_zeroize(theta, sizeof theta);
    pqlab_zeroize(mm, sizeof mm);
    return 0;
}

int PQLAB_NAMESPACE(crypto_kem_dec)(uint8_t *ss, const uint8_t *ct, const uint8_t *sk)
{
    uint8_t m[HQC_K], theta[HQC_THETABYTES];
    const uint8_t *pk = sk + HQC_SEEDBYTES + HQC_K;
    const uint8_t *sigma = sk + HQC_SEEDBYTES;
    const uint8_t *salt = ct + HQC_NBYTES + HQC_N1N2BYTES;

    pke_decrypt(m, sk, ct);
    hqc_shake256_512(theta, m, HQC_K, pk, HQC_PKBYTES, salt, HQC_SALTBYTES, HQC_DOMAIN_G);
    /* fail = 1 when the re-encryption differs from the received u || v */
    const uint32_t diff = pke_encrypt(NULL, ct, pk, m, theta);
    const uint8_t fail = pqlab_value_barrier_u8((uint8_t)(1u ^ pqlab_ct_is_zero_u32(diff)));
    pqlab_ct_cmov(m, sigma, HQC_K, fail);
    hqc_shake256_512(ss, m, HQC_K, ct, HQC_NBYTES + HQC_N1N2BYTES, ct, 0, HQC_DOMAIN_K);
    pqlab_zeroize(m, sizeof m);
    pqlab_zeroize(theta, sizeof theta);
    return 0;
}
#endif /* PQLAB_HQC_VERSION == 2023 */

#if PQLAB_HQC_VERSION == 2025
/* H(pk) = SHA3-256(pk || 1) */
static void hash_h(uint8_t out[32], const uint8_t *pk)
{
    static const uint8_t domain = HQC_DOMAIN_H;
    pqlab_keccak_state st;
    pqlab_sha3_256_init(&st);
    pqlab_sha3_256_absorb(&st, pk, HQC_PKBYTES);
    pqlab_sha3_256_absorb(&st, &domain, 1);
    pqlab_sha3_256_finalize(out, &st);
}

/* (K, theta) = G(H(pk) || m || salt) = SHA3-512(... || 0): K the first 32 bytes, theta the last 32 */
static void hash_g(uint8_t out[64], const uint8_t hpk[32], const uint8_t m[HQC_K], const uint8_t *salt)
{
    static const uint8_t domain = HQC_DOMAIN_G;
    pqlab_keccak_state st;
    pqlab_sha3_512_init(&st);
    pqlab_sha3_512_absorb(&st, hpk, 32);
    pqlab_sha3_512_absorb(&st, m, HQC_K);
    pqlab_sha3_512_absorb(&st, salt, HQC_SALTBYTES);
    pqlab_sha3_512_absorb(&st, &domain, 1);
    pqlab_sha3_512_finalize(out, &st);
    pqlab_zeroize(&st, sizeof st);
}

int PQLAB_NAMESPACE(crypto_kem_keypair_derand)(uint8_t *pk, uint8_t *sk, const uint8_t *seed_kem)
{
    /* seeds: seed_KEM || seed_PKE || sigma, then I(seed_PKE) = seed_dk || seed_ek */
    uint8_t seeds[2 * HQC_SEEDBYTES + HQC_K], dkek[64];
    static const uint8_t domain = HQC_DOMAIN_I;
    hqc_xof xof;
    pqlab_keccak_state st;
    memcpy(seeds, seed_kem, HQC_SEEDBYTES); /* a copy: pk and sk may overlap the input */
    hqc_xof_init(&xof, seeds, HQC_SEEDBYTES, HQC_DOMAIN_XOF);
    hqc_xof_read(&xof, seeds + HQC_SEEDBYTES, HQC_SEEDBYTES);
    hqc_xof_read(&xof, seeds + 2 * HQC_SEEDBYTES, HQC_K);
    pqlab_sha3_512_init(&st);
    pqlab_sha3_512_absorb(&st, seeds + HQC_SEEDBYTES, HQC_SEEDBYTES);
    pqlab_sha3_512_absorb(&st, &domain, 1);
    pqlab_sha3_512_finalize(dkek, &st);
    keygen_s(pk + HQC_SEEDBYTES, dkek, dkek + HQC_SEEDBYTES);
    memcpy(pk, dkek + HQC_SEEDBYTES, HQC_SEEDBYTES);
    memmove(sk, pk, HQC_PKBYTES);
    memcpy(sk + HQC_PKBYTES, dkek, HQC_SEEDBYTES);
    memcpy(sk + HQC_PKBYTES + HQC_SEEDBYTES, seeds + 2 * HQC_SEEDBYTES, HQC_K);
    memcpy(sk + HQC_PKBYTES + HQC_SEEDBYTES + HQC_K, seeds, HQC_SEEDBYTES);
    pqlab_zeroize(seeds, sizeof seeds);
    pqlab_zeroize(dkek, sizeof dkek);
    pqlab_zeroize(&xof, sizeof xof);
    pqlab_zeroize(&st, sizeof st);
    return 0;
}

int PQLAB_NAMESPACE(crypto_kem_keypair)(uint8_t *pk, uint8_t *sk)
{
    uint8_t seed_kem[HQC_SEEDBYTES];
    int r = HQC_ERR_RNG;
    if (pqlab_randombytes(seed_kem, sizeof seed_kem) == 0) {
        r = PQLAB_NAMESPACE(crypto_kem_keypair_derand)(pk, sk, seed_kem);
    } else {
        pqlab_zeroize(pk, HQC_PKBYTES);
        pqlab_zeroize(sk, HQC_SKBYTES);
    }
    pqlab_zeroize(seed_kem, sizeof seed_kem);
    return r;
}

int PQLAB_NAMESPACE(crypto_kem_enc_derand)(uint8_t *ct, uint8_t *ss, const uint8_t *pk, const uint8_t *m,
                                           const uint8_t *salt)
{
    uint8_t hpk[32], ktheta[64];
    uint8_t mm[HQC_K], sl[HQC_SALTBYTES]; /* copies: ct and ss may overlap the inputs */
    memcpy(mm, m, HQC_K);
    memcpy(sl, salt, HQC_SALTBYTES);
    hash_h(hpk, pk);
    hash_g(ktheta, hpk, mm, sl);
    (void)pke_encrypt(ct, NULL, pk, mm, ktheta + HQC_SSBYTES);
    memcpy(ct + HQC_NBYTES + HQC_N1N2BYTES, sl, HQC_SALTBYTES);
    memcpy(ss, ktheta, HQC_SSBYTES);
    pqlab_zeroize(ktheta, sizeof ktheta);
    pqlab_zeroize(mm, sizeof mm);
    return 0;
}

int PQLAB_NAMESPACE(crypto_kem_dec)(uint8_t *ss, const uint8_t *ct, const uint8_t *sk)
{
    static const uint8_t domain = HQC_DOMAIN_J;
    uint8_t m[HQC_K], hpk[32], ktheta[64], krej[32];
    pqlab_keccak_state st;
    const uint8_t *pk = sk;
    const uint8_t *seed_dk = sk + HQC_PKBYTES;
    const uint8_t *sigma = sk + HQC_PKBYTES + HQC_SEEDBYTES;
    const uint8_t *salt = ct + HQC_NBYTES + HQC_N1N2BYTES;

    pke_decrypt(m, seed_dk, ct);
    hash_h(hpk, pk);
    hash_g(ktheta, hpk, m, salt);
    /* the salt of the re-encryption is the received one: comparing u || v compares the ct */
    const uint32_t diff = pke_encrypt(NULL, ct, pk, m, ktheta + HQC_SSBYTES);
    const uint8_t fail = pqlab_value_barrier_u8((uint8_t)(1u ^ pqlab_ct_is_zero_u32(diff)));
    pqlab_sha3_256_init(&st); /* rejection key J(H(pk) || sigma || ct) */
    pqlab_sha3_256_absorb(&st, hpk, 32);
    pqlab_sha3_256_absorb(&st, sigma, HQC_K);
    pqlab_sha3_256_absorb(&st, ct, HQC_CTBYTES);
    pqlab_sha3_256_absorb(&st, &domain, 1);
    pqlab_sha3_256_finalize(krej, &st);
    pqlab_ct_cmov(ktheta, krej, HQC_SSBYTES, fail);
    memcpy(ss, ktheta, HQC_SSBYTES);
    pqlab_zeroize(m, sizeof m);
    pqlab_zeroize(ktheta, sizeof ktheta);
    pqlab_zeroize(krej, sizeof krej);
    pqlab_zeroize(&st, sizeof st);
    return 0;
}
#endif /* PQLAB_HQC_VERSION == 2025 */

/* both versions: m and salt from randombytes, then the deterministic encapsulation */
int PQLAB_NAMESPACE(crypto_kem_enc)(uint8_t *ct, uint8_t *ss, const uint8_t *pk)
{
    uint8_t m[HQC_K], salt[HQC_SALTBYTES];
    int fail = pqlab_randombytes(m, sizeof m) != 0;
    fail |= pqlab_randombytes(salt, sizeof salt) != 0;
    int r = HQC_ERR_RNG;
    if (!fail) {
        r = PQLAB_NAMESPACE(crypto_kem_enc_derand)(ct, ss, pk, m, salt);
    } else {
        pqlab_zeroize(ct, HQC_CTBYTES);
        pqlab_zeroize(ss, HQC_SSBYTES);
    }
    pqlab_zeroize(m, sizeof m);
    return r;
}
