/* SPDX-License-Identifier: MIT */
/* Samplers of ML-DSA (FIPS 204 section 7.3, Algorithms 29-34).
 *
 * Constant time: RejNTTPoly works on the public seed rho. RejBoundedPoly and
 * SampleInBall work on secret-derived streams; for them the only value that steers
 * control flow or an address is the accept/reject decision of each sample, which
 * is declassified. It is independent of the polynomial produced: given that a
 * uniform byte (or half byte) is accepted, its value is uniform on the accepted
 * range whatever the rejection pattern was. Secret values themselves are only
 * combined with masks, and SampleInBall's swap at a secret index scans the array. */
#include <string.h>

#include "ct.h"
#include "fips202.h"
#include "fips202x4.h"
#include "kernels.h"
#include "sign_internal.h"

#define SHAKE128_RATE PQLAB_SHAKE128_RATE
#define SHAKE256_RATE PQLAB_SHAKE256_RATE

/* CoeffFromThreeBytes (Algorithm 14) over a buffer of whole triples: a 23-bit
 * little-endian value (top bit of the third byte cleared), kept when < q.
 * Public data: branches are fine. Returns the new number of coefficients. */
unsigned int mldsa_rej_uniform_c(int32_t a[MLDSA_N], unsigned int ctr, const uint8_t *buf, size_t buflen)
{
    for (size_t pos = 0; ctr < MLDSA_N && pos + 3 <= buflen; pos += 3) {
        const uint32_t t =
            (uint32_t)buf[pos] | ((uint32_t)buf[pos + 1] << 8) | (((uint32_t)buf[pos + 2] & 0x7Fu) << 16);
        if (t < (uint32_t)MLDSA_Q) {
            a[ctr++] = (int32_t)t;
        }
    }
    return ctr;
}

static void seed34(uint8_t out[MLDSA_SEEDBYTES + 2], const uint8_t rho[MLDSA_SEEDBYTES], uint16_t nonce)
{
    memcpy(out, rho, MLDSA_SEEDBYTES);
    out[MLDSA_SEEDBYTES] = (uint8_t)nonce;
    out[MLDSA_SEEDBYTES + 1] = (uint8_t)(nonce >> 8);
}

void mldsa_poly_rej_ntt_c(mldsa_poly *a, const uint8_t rho[MLDSA_SEEDBYTES], uint16_t nonce)
{
    uint8_t seed[MLDSA_SEEDBYTES + 2];
    uint8_t buf[SHAKE128_RATE]; /* 168 = 56 triples: triples never straddle blocks */
    pqlab_keccak_state st;
    unsigned int ctr = 0;

    seed34(seed, rho, nonce);
    pqlab_shake128_init(&st);
    pqlab_shake128_absorb(&st, seed, sizeof seed);
    pqlab_shake128_finalize(&st);
    while (ctr < MLDSA_N) {
        pqlab_shake128_squeezeblocks(buf, 1, &st);
        ctr = mldsa_rej_uniform(a->c, ctr, buf, sizeof buf);
    }
}

void mldsa_poly_rej_ntt_x4_c(mldsa_poly *a0, mldsa_poly *a1, mldsa_poly *a2, mldsa_poly *a3,
                             const uint8_t rho[MLDSA_SEEDBYTES], const uint16_t nonce[4])
{
    uint8_t seed[4][MLDSA_SEEDBYTES + 2];
    uint8_t buf[4][SHAKE128_RATE];
    pqlab_keccakx4_state st;
    mldsa_poly *out[4] = {a0, a1, a2, a3};
    unsigned int ctr[4] = {0, 0, 0, 0};

    for (unsigned int k = 0; k < 4; k++) {
        seed34(seed[k], rho, nonce[k]);
    }
    pqlab_shake128x4_absorb_once(&st, seed[0], seed[1], seed[2], seed[3], sizeof seed[0]);
    /* squeeze all four lanes together until every lane has 256 coefficients; a lane
     * that is done ignores its further output (public data, rarely more than 5
     * blocks are needed) */
    while (ctr[0] < MLDSA_N || ctr[1] < MLDSA_N || ctr[2] < MLDSA_N || ctr[3] < MLDSA_N) {
        pqlab_shake128x4_squeezeblocks(buf[0], buf[1], buf[2], buf[3], 1, &st);
        for (unsigned int k = 0; k < 4; k++) {
            ctr[k] = mldsa_rej_uniform(out[k]->c, ctr[k], buf[k], SHAKE128_RATE);
        }
    }
}

/* CoeffFromHalfByte (Algorithm 15) without a branch on b: returns the coefficient
 * and sets *ok to 1 when b is accepted. eta = 2: b < 15, 2 - (b mod 5) with
 * b mod 5 = b - 5 floor(205 b / 1024) (exact for b < 15); eta = 4: b < 9, 4 - b. */
static inline int32_t coeff_from_half_byte(uint32_t b, uint32_t *ok)
{
#if MLDSA_ETA == 2
    *ok = (b - 15u) >> 31;
    return 2 - (int32_t)(b - 5u * ((205u * b) >> 10));
#else
    *ok = (b - 9u) >> 31;
    return 4 - (int32_t)b;
#endif
}

unsigned int mldsa_rej_eta_c(int32_t *a, const uint8_t *buf, unsigned int nbytes)
{
    unsigned int n = 0;
    for (unsigned int pos = 0; pos < nbytes; pos++) {
        uint32_t ok0, ok1;
        a[n] = coeff_from_half_byte(buf[pos] & 0x0Fu, &ok0);
        PQLAB_DECLASSIFY(&ok0, sizeof ok0); /* accept decisions only: see the top */
        n += ok0;
        a[n] = coeff_from_half_byte((uint32_t)buf[pos] >> 4, &ok1);
        PQLAB_DECLASSIFY(&ok1, sizeof ok1);
        n += ok1;
    }
    return n;
}

void mldsa_poly_rej_bounded_c(mldsa_poly *a, const uint8_t rhoprime[MLDSA_CRHBYTES], uint16_t nonce)
{
    uint8_t seed[MLDSA_CRHBYTES + 2];
    uint8_t buf[SHAKE256_RATE];
    pqlab_keccak_state st;
    unsigned int ctr = 0;

    memcpy(seed, rhoprime, MLDSA_CRHBYTES);
    seed[MLDSA_CRHBYTES] = (uint8_t)nonce;
    seed[MLDSA_CRHBYTES + 1] = (uint8_t)(nonce >> 8);
    pqlab_shake256_init(&st);
    pqlab_shake256_absorb(&st, seed, sizeof seed);
    pqlab_shake256_finalize(&st);
    while (ctr < MLDSA_N) {
        unsigned int pos = 0;
        pqlab_shake256_squeezeblocks(buf, 1, &st);
        /* bulk: as many bytes as surely fit (two values each), then again with what is
         * left, until fewer than two values are missing */
        for (;;) {
            unsigned int g = (MLDSA_N - ctr) / 2, n;
            g = g < SHAKE256_RATE - pos ? g : SHAKE256_RATE - pos;
            if (g == 0) {
                break;
            }
            n = mldsa_rej_eta(&a->c[ctr], buf + pos, g); /* the count of accepted half bytes */
            ctr += n;
            pos += g;
        }
        for (; pos < SHAKE256_RATE && ctr < MLDSA_N; pos++) {
            uint32_t ok0, ok1;
            const int32_t z0 = coeff_from_half_byte(buf[pos] & 0x0Fu, &ok0);
            const int32_t z1 = coeff_from_half_byte((uint32_t)buf[pos] >> 4, &ok1);
            /* accept/reject decisions only: see the comment at the top */
            PQLAB_DECLASSIFY(&ok0, sizeof ok0);
            PQLAB_DECLASSIFY(&ok1, sizeof ok1);
            if (ok0) {
                a->c[ctr++] = z0;
            }
            if (ok1 && ctr < MLDSA_N) {
                a->c[ctr++] = z1;
            }
        }
    }
    pqlab_zeroize(buf, sizeof buf);
    pqlab_zeroize(&st, sizeof st);
    pqlab_zeroize(seed, sizeof seed);
}

/* SampleInBall works on 256 signed bytes packed four to a word (byte k % 4 of word k / 4,
 * two's complement), so that the masked pass over the positions handles four at a time. */
#define BALL_WORDS (MLDSA_N / 4)
#define BALL_PIECE 8 /* bytes squeezed at a time (at least the 8 sign bytes) */

/* 0xFF in every byte of x that is zero, 0x00 elsewhere (exact: no carry crosses a byte,
 * since (x & 0x7F) + 0x7F <= 0xFE) */
static inline uint32_t zero_bytes_mask(uint32_t x)
{
    const uint32_t nonzero = (((x & 0x7F7F7F7Fu) + 0x7F7F7F7Fu) | x) & 0x80808080u;
    return ((nonzero ^ 0x80808080u) >> 7) * 0xFFu;
}

uint32_t mldsa_ball_swap_c(uint32_t w[MLDSA_N / 4], unsigned int nwords, uint32_t j, uint32_t sign4)
{
    const uint32_t j4 = pqlab_value_barrier_u32(j) * 0x01010101u;
    uint32_t cj = 0;
    for (unsigned int t = 0; t < nwords; t++) {
        const uint32_t m = zero_bytes_mask((0x03020100u + 0x04040404u * t) ^ j4);
        cj |= w[t] & m;
        w[t] = (w[t] & ~m) | (sign4 & m);
    }
    cj |= cj >> 16;
    cj |= cj >> 8;
    return cj & 0xFFu;
}

void mldsa_poly_sample_in_ball_c(mldsa_poly *c, const uint8_t ctilde[MLDSA_CTILDEBYTES])
{
    uint8_t buf[BALL_PIECE]; /* the stream is squeezed BALL_PIECE bytes at a time */
    /* the sign bytes (0, 1 or 0xFF), four per word, are kept in c's own storage (its first
     * BALL_WORDS words; uint32_t and int32_t may alias) and spread out at the end */
    uint32_t *w = (uint32_t *)c->c;
    pqlab_keccak_state st;
    uint64_t signs = 0;
    unsigned int pos;

    pqlab_shake256_init(&st);
    pqlab_shake256_absorb(&st, ctilde, MLDSA_CTILDEBYTES);
    pqlab_shake256_finalize(&st);
    pqlab_shake256_squeeze(buf, BALL_PIECE, &st);
    /* the first 8 bytes give the tau sign bits, little endian (Algorithm 29, 4-5) */
    for (unsigned int i = 0; i < 8; i++) {
        signs |= (uint64_t)buf[i] << (8 * i);
    }
    pos = 8;
    pqlab_memzero_words(w, BALL_WORDS * sizeof(uint32_t));
    for (unsigned int i = MLDSA_N - MLDSA_TAU; i < MLDSA_N; i++) {
        uint32_t j;
        for (;;) {
            if (pos == BALL_PIECE) {
                pqlab_shake256_squeeze(buf, BALL_PIECE, &st);
                pos = 0;
            }
            j = buf[pos++];
            uint32_t ok = 1u ^ ((i - j) >> 31); /* j <= i */
            PQLAB_DECLASSIFY(&ok, sizeof ok);   /* accept/reject decision only */
            if (ok) {
                break;
            }
        }
        /* c_i = c_j; c_j = (-1)^h[i + tau - 256], with j secret: one masked pass over the
         * words holding positions 0..i reads c_j and writes the sign byte at j. Position
         * i (and every position above it) is still 0, as earlier steps only wrote
         * positions <= their own i < i; so c_i = c_j is an OR afterwards, and when j = i
         * the pass has written the sign there and c_j read 0. */
        const uint32_t bit = (uint32_t)(signs & 1u);
        const uint32_t sign4 = (0x01u ^ (0xFEu & (0u - bit))) * 0x01010101u; /* 0x01 or 0xFF */
        signs >>= 1;
        w[i / 4] |= mldsa_ball_swap(w, i / 4 + 1, j, sign4) << (8 * (i % 4));
    }
    /* downwards: coefficient k overwrites word k only after the words k / 4 <= k that
     * coefficients k' <= k still read */
    for (unsigned int k = MLDSA_N; k-- > 0;) {
        const uint32_t b = (w[k / 4] >> (8 * (k % 4))) & 0xFFu;
        c->c[k] = (int32_t)(b ^ 0x80u) - 0x80; /* sign-extend the byte */
    }
    pqlab_zeroize(buf, sizeof buf);
    pqlab_zeroize(&st, sizeof st);
}

void mldsa_poly_expand_mask_c(mldsa_poly *y, const uint8_t rhopp[MLDSA_CRHBYTES], uint16_t nonce)
{
    uint8_t seed[MLDSA_CRHBYTES + 2];
    uint8_t buf[MLDSA_POLYZ_BYTES]; /* 32 c bytes, c = 1 + bitlen(gamma1 - 1) */

    memcpy(seed, rhopp, MLDSA_CRHBYTES);
    seed[MLDSA_CRHBYTES] = (uint8_t)nonce;
    seed[MLDSA_CRHBYTES + 1] = (uint8_t)(nonce >> 8);
    pqlab_shake256(buf, sizeof buf, seed, sizeof seed);
    mldsa_polyz_unpack(y->c, buf);
    pqlab_zeroize(buf, sizeof buf);
    pqlab_zeroize(seed, sizeof seed);
}

#if MLDSA_GAMMA1 == (1 << 17)
#define MASK_BITS 18
#else
#define MASK_BITS 20
#endif
/* whole SHAKE256 blocks covering 32 c bytes: 576 or 640 bytes -> 5 blocks */
#define MASK_BLOCKS ((MLDSA_POLYZ_BYTES + SHAKE256_RATE - 1) / SHAKE256_RATE)

/* BitUnpack(., gamma1 - 1, gamma1) of a byte stream that arrives in blocks: acc holds
 * nb < MASK_BITS pending bits between calls (< 28 bits in use after adding a byte, so
 * 32 bits suffice); the loop bounds depend on lengths only */
typedef struct {
    uint32_t acc;
    unsigned int nb;
    unsigned int idx;
    int add; /* add the coefficients to y instead of writing them */
} mask_unpacker;

static void mask_unpack_bytes(mldsa_poly *y, mask_unpacker *u, const uint8_t *buf, size_t len)
{
    uint32_t acc = u->acc;
    unsigned int nb = u->nb;
    unsigned int idx = u->idx;
    for (size_t o = 0; o < len && idx < MLDSA_N; o++) {
        acc |= (uint32_t)buf[o] << nb;
        nb += 8;
        if (nb >= MASK_BITS) {
            const int32_t v = MLDSA_GAMMA1 - (int32_t)(acc & ((1u << MASK_BITS) - 1u));
            y->c[idx] = u->add ? y->c[idx] + v : v; /* add: a public flag */
            idx++;
            acc >>= MASK_BITS;
            nb -= MASK_BITS;
        }
    }
    u->acc = acc;
    u->nb = nb;
    u->idx = idx;
}

/* ExpandMask with little buffer (sign_internal.h): SHAKE256 squeezed MASK_PIECE bytes at
 * a time through the streaming unpacker; the same polynomial as mldsa_poly_expand_mask,
 * written to y or (add) added to it */
#define MASK_PIECE 32
void mldsa_poly_expand_mask_small(mldsa_poly *y, const uint8_t rhopp[MLDSA_CRHBYTES], uint16_t nonce, int add)
{
    uint8_t buf[MASK_PIECE];
    pqlab_keccak_state st;
    mask_unpacker u = {0, 0, 0, 0};

    u.add = add;
    buf[0] = (uint8_t)nonce;
    buf[1] = (uint8_t)(nonce >> 8);
    pqlab_shake256_init(&st);
    pqlab_shake256_absorb(&st, rhopp, MLDSA_CRHBYTES);
    pqlab_shake256_absorb(&st, buf, 2);
    pqlab_shake256_finalize(&st);
    for (unsigned int o = 0; o < MLDSA_POLYZ_BYTES; o += MASK_PIECE) {
        pqlab_shake256_squeeze(buf, MASK_PIECE, &st);
        mask_unpack_bytes(y, &u, buf, MASK_PIECE);
    }
    pqlab_zeroize(buf, sizeof buf);
    pqlab_zeroize(&st, sizeof st);
    pqlab_zeroize(&u, sizeof u);
}

void mldsa_poly_expand_mask_x4_c(mldsa_poly *y0, mldsa_poly *y1, mldsa_poly *y2, mldsa_poly *y3,
                                 const uint8_t rhopp[MLDSA_CRHBYTES], const uint16_t nonce[4])
{
    uint8_t seed[4][MLDSA_CRHBYTES + 2];
    uint8_t buf[4][SHAKE256_RATE];
    pqlab_keccakx4_state st;
    mask_unpacker u[4] = {{0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}};
    mldsa_poly *y[4] = {y0, y1, y2, y3};

    for (unsigned int k = 0; k < 4; k++) {
        memcpy(seed[k], rhopp, MLDSA_CRHBYTES);
        seed[k][MLDSA_CRHBYTES] = (uint8_t)nonce[k];
        seed[k][MLDSA_CRHBYTES + 1] = (uint8_t)(nonce[k] >> 8);
    }
    pqlab_shake256x4_absorb_once(&st, seed[0], seed[1], seed[2], seed[3], sizeof seed[0]);
    /* one block at a time: 4 x 136 bytes of buffer instead of 4 x 640; every byte
     * gives 8 bits, each MASK_BITS bits (at most 20: fits with nb < 20 in acc) one
     * coefficient */
    for (unsigned int b = 0; b < MASK_BLOCKS; b++) {
        pqlab_shake256x4_squeezeblocks(buf[0], buf[1], buf[2], buf[3], 1, &st);
        for (unsigned int k = 0; k < 4; k++) {
            mask_unpack_bytes(y[k], &u[k], buf[k], SHAKE256_RATE);
        }
    }
    pqlab_zeroize(buf, sizeof buf);
    pqlab_zeroize(seed, sizeof seed);
    pqlab_zeroize(&st, sizeof st);
    pqlab_zeroize(u, sizeof u);
}
