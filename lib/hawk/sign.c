/* SPDX-License-Identifier: MIT */
/* HawkSign and SamplerSign (Hawk specification v1.0).
 *
 *   (kgseed, F mod 2, G mod 2, hpub) <- DecodePrivate(priv); (f, g) <- Regeneratefg(kgseed)
 *   M <- SHAKE256(m || hpub)[0:512]; a <- 0
 *   loop:
 *     salt <- SHAKE256(M || kgseed || EncodeInt(a, 32) || Rnd(saltlen))[0:saltlen]
 *     (h0, h1) <- SHAKE256(M || salt)[0:2n]  (bits)
 *     t0 <- (h0 f + h1 F) mod 2, t1 <- (h0 g + h1 G) mod 2
 *     seed <- M || kgseed || EncodeInt(a + 1, 32) || Rnd(320)
 *     (x0, x1) <- SamplerSign(seed, (t0, t1)); a <- a + 2
 *     if ||(x0, x1)||^2 > 8 n sigma_verify^2: continue
 *     w1 <- f x1 - g x0; if sym-break(w1) is false: w1 <- -w1
 *     s1 <- (h1 - w1) / 2; sig <- EncodeSignature(salt, s1); if it fits: return sig
 *
 * SamplerSign draws, for each of the 2n coefficients, a 78-bit uniform value c from
 * SHAKE256x4(seed) and counts the entries of the cumulative table T_t (t = t0||t1 at that
 * position) above it: x = +-(2 count + t), the sign the top bit of the 64-bit word.
 * Layout (specification): for i < n/8, five groups of four 64-bit words (one per
 * SHAKE256 instance j) give 16 coefficients r = 16 i + 4 j + k: the low 63 bits of word j
 * of group k, and the 15 bits 16 k .. 16 k + 14 of word j of group 4 above them.
 *
 * Constant time: the table scan is complete for every sample, comparisons are
 * arithmetic, the mod-2 products are integer products; only the accept decisions of an
 * attempt (norm bound, encodability, both public through the signature) are
 * declassified. */
#include <string.h>

#include "hawk.h"
#include "ct.h"

unsigned hawk_sign_attempts_last = 0;

/* x: 2n values (x0 || x1); t: 2n bits (t0 || t1), one per byte */
static void sampler_sign(int32_t *x, const uint8_t *seed, size_t seedlen, const uint8_t *t)
{
    hawk_shake4 xs;
    uint8_t grp[5][32];
    hawk_shake256x4_init(&xs, seed, seedlen);
    for (size_t i = 0; i < 2 * (size_t)HAWK_N / 16; i++) {
        for (int k = 0; k < 5; k++) {
            hawk_shake256x4_next(&xs, grp[k]);
        }
        hawk_sample16(x + 16 * i, (const uint8_t(*)[32])grp, t + 16 * i);
    }
    pqlab_zeroize(grp, sizeof grp);
    pqlab_zeroize(&xs, sizeof xs);
}

int hawk_sym_break(const int32_t *w)
{
    /* first non-zero coefficient positive (public: w1 is part of the signature) */
    for (size_t u = 0; u < HAWK_N; u++) {
        if (w[u] != 0) {
            return w[u] > 0;
        }
    }
    return 0;
}

/* bits of a byte string (bit k = bit k mod 8 of byte k / 8) as n-bit words */
static void bits_load(uint32_t *v, const uint8_t *b)
{
    for (size_t i = 0; i < HAWK_W; i++) {
        v[i] = (uint32_t)b[4 * i] | ((uint32_t)b[4 * i + 1] << 8) | ((uint32_t)b[4 * i + 2] << 16) |
               ((uint32_t)b[4 * i + 3] << 24);
    }
}

static void le32(uint8_t *p, uint32_t x)
{
    for (int i = 0; i < 4; i++) {
        p[i] = (uint8_t)(x >> (8 * i));
    }
}

int hawk_sign_core(uint8_t sig[HAWK_SIGBYTES], const uint8_t *m, size_t mlen, const uint8_t sk[HAWK_SKBYTES],
                   hawk_rnd_fn rnd, void *rnd_ctx)
{
    int8_t f8[HAWK_N], g8[HAWK_N];
    int32_t f[HAWK_N], g[HAWK_N], x[2 * HAWK_N], w[HAWK_N], t32[HAWK_N];
    /* f, g, F, G modulo 2, h0, h1, t0, t1 as n-bit vectors */
    uint32_t f2[HAWK_W], g2[HAWK_W], F2[HAWK_W], G2[HAWK_W], h2[2][HAWK_W], t2[2][HAWK_W];
    uint8_t tb[2 * HAWK_N];
    uint8_t hm[HAWK_HMLEN], salt[HAWK_SALTLEN], rb[HAWK_SIGN_SEEDRND], hb[2 * HAWK_N / 8];
    uint8_t seed[HAWK_HMLEN + HAWK_KGSEEDLEN + 4 + HAWK_SIGN_SEEDRND];
    _Static_assert(sizeof seed <= HAWK_SHAKE4_MAXSEED && HAWK_KGSEEDLEN <= HAWK_SHAKE4_MAXSEED,
                   "hawk_shake256x4_init's input buffer");
    hawk_ntt nt; /* twiddle tables (public) */
    uint32_t tmp[3 * HAWK_N];
    pqlab_keccak_state sc;
    const uint8_t *kgseed = sk, *hpub = sk + HAWK_KGSEEDLEN + 2 * (HAWK_N / 8);
    int ok = 0;

    memset(sig, 0, HAWK_SIGBYTES);
    hawk_regen_fg(f8, g8, kgseed);
    memset(f2, 0, sizeof f2);
    memset(g2, 0, sizeof g2);
    for (size_t u = 0; u < HAWK_N; u++) {
        f[u] = f8[u];
        g[u] = g8[u];
        f2[u >> 5] |= ((uint32_t)f8[u] & 1) << (u & 31);
        g2[u >> 5] |= ((uint32_t)g8[u] & 1) << (u & 31);
    }
    bits_load(F2, sk + HAWK_KGSEEDLEN);
    bits_load(G2, sk + HAWK_KGSEEDLEN + HAWK_N / 8);
    pqlab_shake256_init(&sc);
    pqlab_shake256_absorb(&sc, m, mlen);
    pqlab_shake256_absorb(&sc, hpub, HAWK_HPUBLEN);
    pqlab_shake256_finalize(&sc);
    pqlab_shake256_squeeze(hm, HAWK_HMLEN, &sc);
    PQLAB_DECLASSIFY(hm, sizeof hm); /* M = SHAKE256(m || hpub): public (hpub is the public key's hash) */
    hawk_ntt_init(&nt, 0, tmp);

    uint32_t a = 0;
    for (unsigned att = 0; att < HAWK_SIGN_MAX_ATTEMPTS; att++, a += 2) {
        hawk_sign_attempts_last = att + 1;
        /* salt */
        if (rnd(rnd_ctx, salt, HAWK_SALTLEN) != 0 || rnd(rnd_ctx, rb, HAWK_SIGN_SEEDRND) != 0) {
            break;
        }
        memcpy(seed, hm, HAWK_HMLEN);
        memcpy(seed + HAWK_HMLEN, kgseed, HAWK_KGSEEDLEN);
        le32(seed + HAWK_HMLEN + HAWK_KGSEEDLEN, a);
        pqlab_shake256_init(&sc);
        pqlab_shake256_absorb(&sc, seed, HAWK_HMLEN + HAWK_KGSEEDLEN + 4);
        pqlab_shake256_absorb(&sc, salt, HAWK_SALTLEN);
        pqlab_shake256_finalize(&sc);
        pqlab_shake256_squeeze(salt, HAWK_SALTLEN, &sc);
        PQLAB_DECLASSIFY(salt, sizeof salt); /* part of the signature; h0, h1 follow from it and M */
        /* (h0, h1) */
        pqlab_shake256_init(&sc);
        pqlab_shake256_absorb(&sc, hm, HAWK_HMLEN);
        pqlab_shake256_absorb(&sc, salt, HAWK_SALTLEN);
        pqlab_shake256_finalize(&sc);
        pqlab_shake256_squeeze(hb, sizeof hb, &sc);
        bits_load(h2[0], hb);
        bits_load(h2[1], hb + HAWK_N / 8);
        /* t0 = h0 f + h1 F, t1 = h0 g + h1 G (mod 2) */
        memset(t2, 0, sizeof t2);
        hawk_mul2_acc(t2[0], h2[0], f2);
        hawk_mul2_acc(t2[0], h2[1], F2);
        hawk_mul2_acc(t2[1], h2[0], g2);
        hawk_mul2_acc(t2[1], h2[1], G2);
        for (size_t u = 0; u < 2 * (size_t)HAWK_N; u++) {
            tb[u] = (uint8_t)((t2[u >> HAWK_LOGN][(u & (HAWK_N - 1)) >> 5] >> (u & 31)) & 1);
        }
        /* sampler seed */
        le32(seed + HAWK_HMLEN + HAWK_KGSEEDLEN, a + 1);
        memcpy(seed + HAWK_HMLEN + HAWK_KGSEEDLEN + 4, rb, HAWK_SIGN_SEEDRND);
        sampler_sign(x, seed, sizeof seed, tb);
        uint32_t nx = 0;
        for (size_t u = 0; u < 2 * (size_t)HAWK_N; u++) {
            nx += (uint32_t)(x[u] * x[u]);
        }
        uint32_t good = (uint32_t)(nx - HAWK_VERIFY_BOUND - 1) >> 31; /* nx <= bound */
        PQLAB_DECLASSIFY(&good, sizeof good);
        if (!good) {
            continue;
        }
        /* w1 = f x1 - g x0 */
        for (size_t u = 0; u < HAWK_N; u++) {
            t32[u] = -x[u];
        }
        hawk_poly_mul_acc(w, f, x + HAWK_N, g, t32, 0, &nt, tmp);
        PQLAB_DECLASSIFY(w, sizeof w); /* w1 = h1 - 2 s1 up to sign: public */
        if (!hawk_sym_break(w)) {
            for (size_t u = 0; u < HAWK_N; u++) {
                w[u] = -w[u];
            }
        }
        for (size_t u = 0; u < HAWK_N; u++) {
            int32_t h1 = (int32_t)((h2[1][u >> 5] >> (u & 31)) & 1);
            w[u] = (h1 - w[u]) >> 1; /* s1 (h1 - w1 is even) */
        }
        if (hawk_encode_sig(sig, salt, w)) {
            ok = 1;
            break;
        }
    }
    if (!ok) {
        memset(sig, 0, HAWK_SIGBYTES);
    }
    pqlab_zeroize(f8, sizeof f8);
    pqlab_zeroize(g8, sizeof g8);
    pqlab_zeroize(f, sizeof f);
    pqlab_zeroize(g, sizeof g);
    pqlab_zeroize(f2, sizeof f2);
    pqlab_zeroize(g2, sizeof g2);
    pqlab_zeroize(F2, sizeof F2);
    pqlab_zeroize(G2, sizeof G2);
    pqlab_zeroize(t2, sizeof t2);
    pqlab_zeroize(x, sizeof x);
    pqlab_zeroize(t32, sizeof t32);
    pqlab_zeroize(tb, sizeof tb);
    pqlab_zeroize(seed, sizeof seed);
    pqlab_zeroize(rb, sizeof rb);
    pqlab_zeroize(tmp, sizeof tmp);
    pqlab_zeroize(&sc, sizeof sc);
    return ok;
}
