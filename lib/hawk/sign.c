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

typedef struct {
    uint32_t hi; /* bits 64..79 */
    uint64_t lo; /* bits 0..63 */
} hawk_cdt;

/* Cumulative distribution tables T0 (even values) and T1 (odd values) of the
 * specification v1.0 (the 80-bit constants of SamplerSign; their final zero entries are
 * left out: no sample is below 0). Facts, from the specification's tables as listed by
 * the Hawk 1.0 pseudocode port lil-hawk-py (M.-J. O. Saarinen, 2023). */
#if HAWK_LOGN == 9
static const hawk_cdt T0[] = {
    {0x2C05u, 0x8C27920A04F8F267u}, {0x0E9Au, 0x1C4FF17C204AA058u}, {0x02DBu, 0xDE63263BE0098FFDu},
    {0x0051u, 0x56AEDFB0876A3BD8u}, {0x0005u, 0x061E21D588CC61CCu}, {0x0000u, 0x2BA568D92EEC18E7u},
    {0x0000u, 0x00CF0F8687D3B009u}, {0x0000u, 0x000216A0C344EB45u}, {0x0000u, 0x000002EDF0B98A84u},
    {0x0000u, 0x000000023AF3B2E7u}, {0x0000u, 0x0000000000EBCC6Au}, {0x0000u, 0x00000000000034CFu},
    {0x0000u, 0x0000000000000006u},
};
#endif
#if HAWK_LOGN == 9
static const hawk_cdt T1[] = {
    {0x1AFCu, 0xBC689D9213449DC9u}, {0x06EBu, 0xFB908C81FCE3524Fu}, {0x0106u, 0x4EBEFD8FF4F07378u},
    {0x0015u, 0xC628BC6B23887196u}, {0x0000u, 0xFF769211F07B326Fu}, {0x0000u, 0x0668F461693DFF8Fu},
    {0x0000u, 0x001670DB65964485u}, {0x0000u, 0x00002AB6E11C2552u}, {0x0000u, 0x0000002C253C7E81u},
    {0x0000u, 0x0000000018C14ABFu}, {0x0000u, 0x000000000007876Eu}, {0x0000u, 0x000000000000013Du},
};
#endif
#if HAWK_LOGN == 10
static const hawk_cdt T0[] = {
    {0x2C58u, 0x3AAA2EB76504E560u}, {0x0F1Du, 0x70E1C03E49BB683Eu}, {0x0319u, 0x55CDA662EF2D1C48u},
    {0x005Eu, 0x31E874B355421BB7u}, {0x0006u, 0x57C0676C029895A7u}, {0x0000u, 0x3D4D67696E51F820u},
    {0x0000u, 0x014A1A8A93F20738u}, {0x0000u, 0x0003DAF47E8DFB21u}, {0x0000u, 0x000006634617B3FFu},
    {0x0000u, 0x00000005DBEFB646u}, {0x0000u, 0x0000000002F93038u}, {0x0000u, 0x000000000000D5A7u},
    {0x0000u, 0x0000000000000021u},
};
#endif
#if HAWK_LOGN == 10
static const hawk_cdt T1[] = {
    {0x1B7Fu, 0x01AE2B17728DF2DEu}, {0x0750u, 0x6A00B82C69624C93u}, {0x0125u, 0x2685DB30348656A4u},
    {0x001Au, 0x430192770E205503u}, {0x0001u, 0x5353BD4091AA96DBu}, {0x0000u, 0x09915A53D8667BEEu},
    {0x0000u, 0x0026670030160D5Fu}, {0x0000u, 0x0000557CD1C5F797u}, {0x0000u, 0x0000006965E15B13u},
    {0x0000u, 0x0000000047E9AB38u}, {0x0000u, 0x00000000001B2445u}, {0x0000u, 0x00000000000005AAu},
};
#endif

#define T0_LEN (sizeof T0 / sizeof T0[0])
#define T1_LEN (sizeof T1 / sizeof T1[0])

static uint64_t le64(const uint8_t *p)
{
    uint64_t x = 0;
    for (int i = 7; i >= 0; i--) {
        x = (x << 8) | p[i];
    }
    return x;
}

/* 1 when c < T (80-bit values), without branches */
static uint32_t lt80(uint32_t chi, uint64_t clo, const hawk_cdt *t)
{
    uint64_t bl = ((~clo & t->lo) | (~(clo ^ t->lo) & (clo - t->lo))) >> 63;
    return (uint32_t)(chi - t->hi - (uint32_t)bl) >> 31;
}

static int32_t sample_one(uint64_t a, uint32_t b, uint32_t t)
{
    uint32_t chi = b >> 1;
    uint64_t clo = (a & 0x7FFFFFFFFFFFFFFFu) | ((uint64_t)(b & 1) << 63);
    uint32_t k0 = 0, k1 = 0;
    for (size_t v = 0; v < T0_LEN; v++) {
        k0 += lt80(chi, clo, &T0[v]);
    }
    for (size_t v = 0; v < T1_LEN; v++) {
        k1 += lt80(chi, clo, &T1[v]);
    }
    uint32_t m = (uint32_t)0 - t;
    uint32_t k = (k0 & ~m) | (k1 & m);
    uint32_t x = 2 * k + t;
    uint32_t s = (uint32_t)0 - (uint32_t)(a >> 63);
    return (int32_t)((x ^ s) - s);
}

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
        for (unsigned j = 0; j < 4; j++) {
            uint64_t hiw = le64(grp[4] + 8 * j);
            for (unsigned k = 0; k < 4; k++) {
                size_t r = 16 * i + 4 * j + k;
                uint64_t a = le64(grp[k] + 8 * j);
                uint32_t b = (uint32_t)(hiw >> (16 * k)) & 0x7FFF;
                x[r] = sample_one(a, b, t[r]);
            }
        }
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

#define HAWK_W (HAWK_N / 32) /* words of an n-bit vector */

/* bits of a byte string (bit k = bit k mod 8 of byte k / 8) as n-bit words */
static void bits_load(uint32_t *v, const uint8_t *b)
{
    for (size_t i = 0; i < HAWK_W; i++) {
        v[i] = (uint32_t)b[4 * i] | ((uint32_t)b[4 * i + 1] << 8) | ((uint32_t)b[4 * i + 2] << 16) |
               ((uint32_t)b[4 * i + 3] << 24);
    }
}

/* acc ^= a b modulo (2, x^n + 1) (= modulo x^n - 1 over GF(2)): coefficient i = 32 q + j of
 * a adds x^i b, which is x^j b (kept as a rolling one-bit rotation r of b, j = 0..31) moved
 * up by q words. The mask makes the work the same for every a (h0, h1 are public anyway; b
 * is the secret f, g, F or G mod 2). */
static void mul2_acc(uint32_t *acc, const uint32_t *a, const uint32_t *b)
{
    uint32_t r[HAWK_W];
    memcpy(r, b, sizeof r);
    for (unsigned j = 0; j < 32; j++) {
        for (size_t q = 0; q < HAWK_W; q++) {
            uint32_t m = (uint32_t)0 - ((a[q] >> j) & 1);
            for (size_t k = 0; k < HAWK_W - q; k++) {
                acc[k + q] ^= r[k] & m;
            }
            for (size_t k = HAWK_W - q; k < HAWK_W; k++) {
                acc[k + q - HAWK_W] ^= r[k] & m;
            }
        }
        uint32_t top = r[HAWK_W - 1] >> 31;
        for (size_t k = HAWK_W - 1; k > 0; k--) {
            r[k] = (r[k] << 1) | (r[k - 1] >> 31);
        }
        r[0] = (r[0] << 1) | top;
    }
    pqlab_zeroize(r, sizeof r);
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
        mul2_acc(t2[0], h2[0], f2);
        mul2_acc(t2[0], h2[1], F2);
        mul2_acc(t2[1], h2[0], g2);
        mul2_acc(t2[1], h2[1], G2);
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
