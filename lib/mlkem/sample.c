/* SPDX-License-Identifier: MIT */
/* Sampling kernels, FIPS 203 section 4.2.2: SampleNTT (Algorithm 7) with
 * SHAKE128 one or four lanes at a time, and SamplePolyCBD_eta (Algorithm 8).
 * Portable C; see kernels.h for the contract. */
#include "fips202.h"
#include "fips202x4.h"
#include "kernels.h"
#include "reduce.h"

/* Algorithm 7 lines 5-15 for one XOF block: every 3 bytes give two 12-bit
 * candidates d1, d2; those below q are accepted in order until 256 are found.
 * The rejection depends only on the XOF output of the public seed rho, so the
 * branches leak nothing secret (A_hat is public). Returns the new count. */
static unsigned int rej_uniform(int16_t *r, unsigned int ctr, const uint8_t *buf, size_t len)
{
    for (size_t pos = 0; pos + 3 <= len && ctr < MLKEM_N; pos += 3) {
        uint16_t d1 = (uint16_t)(buf[pos] | ((uint16_t)(buf[pos + 1] & 0x0f) << 8));
        uint16_t d2 = (uint16_t)((buf[pos + 1] >> 4) | ((uint16_t)buf[pos + 2] << 4));
        if (d1 < MLKEM_Q) {
            r[ctr++] = (int16_t)d1;
        }
        if (d2 < MLKEM_Q && ctr < MLKEM_N) {
            r[ctr++] = (int16_t)d2;
        }
    }
    return ctr;
}

/* The SHAKE128 rate, 168 bytes, is a multiple of 3, so no candidate straddles
 * two blocks and one block at a time suffices (little stack). */
void mlkem_sample_ntt_c(mlkem_poly *r, const uint8_t rho[MLKEM_SYMBYTES], uint8_t x, uint8_t y)
{
    pqlab_keccak_state st;
    uint8_t buf[PQLAB_SHAKE128_RATE];
    const uint8_t xy[2] = {x, y};
    unsigned int ctr = 0;
    pqlab_shake128_init(&st);
    pqlab_shake128_absorb(&st, rho, MLKEM_SYMBYTES);
    pqlab_shake128_absorb(&st, xy, 2);
    pqlab_shake128_finalize(&st);
    while (ctr < MLKEM_N) {
        pqlab_shake128_squeezeblocks(buf, 1, &st);
        ctr = rej_uniform(r->c, ctr, buf, sizeof buf);
    }
}

void mlkem_sample_ntt_x4_c(mlkem_poly *r0, mlkem_poly *r1, mlkem_poly *r2, mlkem_poly *r3,
                           const uint8_t rho[MLKEM_SYMBYTES], const uint8_t xy[8])
{
    pqlab_keccakx4_state st;
    uint8_t buf[4][PQLAB_SHAKE128_RATE];
    mlkem_poly *r[4] = {r0, r1, r2, r3};
    unsigned int ctr[4] = {0, 0, 0, 0};
    /* rho || x || y: rho, common to the four entries, absorbed once */
    pqlab_shake128x4_absorb_once_prefix(&st, rho, MLKEM_SYMBYTES, &xy[0], &xy[2], &xy[4], &xy[6], 2);
    while (ctr[0] < MLKEM_N || ctr[1] < MLKEM_N || ctr[2] < MLKEM_N || ctr[3] < MLKEM_N) {
        pqlab_shake128x4_squeezeblocks(buf[0], buf[1], buf[2], buf[3], 1, &st);
        for (unsigned int t = 0; t < 4; t++) {
            ctr[t] = rej_uniform(r[t]->c, ctr[t], buf[t], PQLAB_SHAKE128_RATE);
        }
    }
}

unsigned int mlkem_rej_bulk_c(int16_t *cand, const uint8_t *buf, unsigned int g)
{
    unsigned int n = 0;
    for (unsigned int pos = 0; pos < 12 * g; pos += 3) {
        const uint32_t w = (uint32_t)buf[pos] | ((uint32_t)buf[pos + 1] << 8) | ((uint32_t)buf[pos + 2] << 16);
        const uint32_t d1 = w & 0xfff, d2 = w >> 12;
        cand[n] = (int16_t)d1;
        n += (d1 - MLKEM_Q) >> 31;
        cand[n] = (int16_t)d2;
        n += (d2 - MLKEM_Q) >> 31;
    }
    return n;
}

/* Fused matrix kernels: SampleNTT (Algorithm 7) of a matrix entry streamed
 * straight into MultiplyNTTs (Algorithm 11) with a vector polynomial, so that no
 * entry of A_hat is ever stored. Base multiplication works on independent
 * coefficient pairs, so each pair is multiplied and accumulated as soon as the
 * rejection sampler has accepted its second coefficient. */
typedef struct {
    mlkem_poly32 *acc32;          /* 32-bit accumulator: acc32 += entry o vec (unreduced); NULL: acc */
    mlkem_poly *acc;              /* 16-bit accumulator: acc += entry o vec * R^-1 (with vecb) */
    const mlkem_poly *vec;        /* |c| < q (NTT domain), with acc32 */
    const mlkem_polycache *cache; /* mulcache of vec, with acc32 */
    union {
        const uint8_t *vecb; /* with acc: the vector polynomial as ByteEncode_12 (canonical values) */
        uint16_t *hw;        /* with acc32, or NULL (all written): coefficients 0 .. *hw - 1 of acc32
                              * hold a sum; shared by the lanes of one accumulator (one union: the
                              * stack-first build's lane, on its peak path, does not grow) */
    };
    unsigned int ctr; /* coefficients accepted so far */
    int16_t pending;  /* first coefficient of an incomplete pair */
} matacc_lane;

/* basemul_pairs with the vector's pairs p .. p+n-1 decoded from its 12-bit encoding (3
 * bytes per pair, values < 2^12 taken as they are: the encoder wrote canonical ones), 16
 * pairs at a time. Not inlined: its buffer exists only during the call (the stack-first
 * frontend). */
#if defined(__GNUC__) || defined(__clang__)
#define SAMPLE_NOINLINE __attribute__((noinline))
#else
#define SAMPLE_NOINLINE
#endif
static SAMPLE_NOINLINE void basemul_packed(int16_t *r, const int16_t *a, const uint8_t *vecb, unsigned int p,
                                           unsigned int n)
{
    _Alignas(4) int16_t vb[2 * 16];
    const uint8_t *in = &vecb[3 * p];
    while (n > 0) { /* public counts */
        const unsigned int m = n < 16 ? n : 16;
        for (unsigned int k = 0; k < m; k++) {
            vb[2 * k] = (int16_t)((in[3 * k] | ((unsigned int)in[3 * k + 1] << 8)) & 0xfff);
            vb[2 * k + 1] = (int16_t)((in[3 * k + 1] >> 4) | ((unsigned int)in[3 * k + 2] << 4));
        }
        mlkem_basemul_pairs(r, a, vb, p, m);
        r += 2 * m;
        a += 2 * m;
        in += 3 * m;
        p += m;
        n -= m;
    }
}

/* One piece (len <= MATACC_PIECE, a multiple of 3) of the XOF output of a matrix entry:
 * Algorithm 7 lines 5-15 collect the accepted
 * candidates (plus a coefficient left over from the previous block) in cand,
 * then every complete pair is multiplied into acc (Algorithm 12). Appending is
 * branch-free (write, then advance by the comparison): the data is public, but
 * unpredictable branches cost a pipeline refill each on small cores. At most
 * 2 * len / 3 candidates per piece, plus one carried: cand has room for the write at
 * index 2 len / 3 + 1. */
/* The longest piece of XOF output matacc_block takes: a whole block, or in the stack-first
 * build 96 bytes (a block is fed as 96 + 72: whole triples and whole lanes), which shrinks
 * the block and candidate buffers. */
#ifdef PQLAB_MLKEM_SMALLSTACK
#define MATACC_PIECE 96
#else
#define MATACC_PIECE PQLAB_SHAKE128_RATE
#endif

static void matacc_block(matacc_lane *l, const uint8_t *buf, size_t len)
{
    _Alignas(4) int16_t cand[2 * MATACC_PIECE / 3 + 2]; /* word loads of pairs */
    const unsigned int base = l->ctr & ~1u;             /* first coefficient of the pending pair */
    const unsigned int need = MLKEM_N - base;           /* coefficients still to collect */
    unsigned int n = 0;
    size_t pos = 0;
    cand[0] = l->pending;
    n += l->ctr & 1;
    /* bulk: groups of 4 triples (8 candidates) while 8 more fit without a count test, as
     * many groups per call as surely fit and again with what is then missing (near the end
     * of an entry most groups would otherwise go through the triple loop below); then single
     * triples while two more fit; (d - q) >> 31 is 1 exactly when d < q (d < 2^12). The
     * counts are public (XOF output of the public rho). */
    for (unsigned int left = (unsigned int)(len / 12); left > 0;) {
        unsigned int g = (need - n) / 8;
        if (g == 0) {
            break;
        }
        if (g > left) {
            g = left;
        }
        n += mlkem_rej_bulk(&cand[n], buf + pos, g);
        pos += 12 * (size_t)g;
        left -= g;
    }
    while (pos + 3 <= len && n + 2 <= need) {
        const uint32_t w = (uint32_t)buf[pos] | ((uint32_t)buf[pos + 1] << 8) | ((uint32_t)buf[pos + 2] << 16);
        const uint32_t d1 = w & 0xfff, d2 = w >> 12;
        cand[n] = (int16_t)d1;
        n += (d1 - MLKEM_Q) >> 31;
        cand[n] = (int16_t)d2;
        n += (d2 - MLKEM_Q) >> 31;
        pos += 3;
    }
    /* tail: the last coefficient or two of the polynomial (Algorithm 7 line 11) */
    for (; pos + 3 <= len && n < need; pos += 3) {
        uint16_t d1 = (uint16_t)(buf[pos] | ((uint16_t)(buf[pos + 1] & 0x0f) << 8));
        uint16_t d2 = (uint16_t)((buf[pos + 1] >> 4) | ((uint16_t)buf[pos + 2] << 4));
        cand[n] = (int16_t)d1;
        n += d1 < MLKEM_Q;
        cand[n] = (int16_t)d2;
        n += (d2 < MLKEM_Q) & (n < need);
    }
    if (l->acc32 != NULL) { /* public mode switch */
        /* pairs below the accumulator's high-water mark are added to, those above it set
         * (basemul_pairs32_split's second part, one call: no cleared accumulator needed); the
         * written part of an accumulator is always 0 .. hw - 1, as each lane writes its pairs
         * in order. Public counts (XOF output of the public rho). */
        const unsigned int end = base + 2 * (n >> 1);
        unsigned int mid = end;
        if (l->hw != NULL) {
            const unsigned int w = *l->hw; /* even: whole pairs */
            mid = w < base ? base : w < end ? w : end;
            if (end > w) {
                *l->hw = (uint16_t)end;
            }
        }
        if (end > mid) {
            mlkem_basemul_pairs32_split(&l->acc32->c[base], cand, &l->vec->c[base], &l->cache->c[base >> 1],
                                        (mid - base) >> 1, (end - mid) >> 1);
        } else {
            mlkem_basemul_pairs32(&l->acc32->c[base], cand, &l->vec->c[base], &l->cache->c[base >> 1], n >> 1);
        }
    } else {
        basemul_packed(&l->acc->c[base], cand, l->vecb, base >> 1, n >> 1);
    }
    l->pending = cand[n - 1 + (n == 0)]; /* only meaningful when n is odd */
    l->ctr = base + n;
}

/* A whole XOF block in pieces of at most MATACC_PIECE bytes. */
static void matacc_feed(matacc_lane *l, const uint8_t *buf)
{
    for (size_t pos = 0; pos < PQLAB_SHAKE128_RATE; pos += MATACC_PIECE) {
        const size_t len = PQLAB_SHAKE128_RATE - pos < MATACC_PIECE ? PQLAB_SHAKE128_RATE - pos : MATACC_PIECE;
        matacc_block(l, buf + pos, len);
    }
}

void mlkem_matacc_c(mlkem_poly32 *acc, const mlkem_poly *vec, const mlkem_polycache *cache,
                    const uint8_t rho[MLKEM_SYMBYTES], uint8_t x, uint8_t y)
{
    pqlab_keccak_state st;
    uint8_t buf[PQLAB_SHAKE128_RATE];
    const uint8_t xy[2] = {x, y};
    matacc_lane l = {.acc32 = acc, .acc = NULL, .vec = vec, .cache = cache, .hw = NULL, .ctr = 0, .pending = 0};
    pqlab_shake128_init(&st);
    pqlab_shake128_absorb(&st, rho, MLKEM_SYMBYTES);
    pqlab_shake128_absorb(&st, xy, 2);
    pqlab_shake128_finalize(&st);
    while (l.ctr < MLKEM_N) {
        pqlab_shake128_squeezeblocks(buf, 1, &st);
        matacc_feed(&l, buf);
    }
}

void mlkem_matacc_packed(mlkem_poly *acc, const uint8_t vecb[MLKEM_POLYBYTES], const uint8_t rho[MLKEM_SYMBYTES],
                         uint8_t x, uint8_t y)
{
    pqlab_keccak_state st;
    uint8_t buf[MATACC_PIECE]; /* the XOF output a piece at a time (incremental squeeze) */
    const uint8_t xy[2] = {x, y};
    matacc_lane l = {.acc32 = NULL, .acc = acc, .vec = NULL, .cache = NULL, .vecb = vecb, .ctr = 0, .pending = 0};
    pqlab_shake128_init(&st);
    pqlab_shake128_absorb(&st, rho, MLKEM_SYMBYTES);
    pqlab_shake128_absorb(&st, xy, 2);
    pqlab_shake128_finalize(&st);
    while (l.ctr < MLKEM_N) {
        for (size_t pos = 0; pos < PQLAB_SHAKE128_RATE && l.ctr < MLKEM_N; pos += MATACC_PIECE) {
            const size_t len = PQLAB_SHAKE128_RATE - pos < MATACC_PIECE ? PQLAB_SHAKE128_RATE - pos : MATACC_PIECE;
            pqlab_shake128_squeeze(buf, len, &st);
            matacc_block(&l, buf, len);
        }
    }
}

void mlkem_matacc_x4_c(mlkem_poly32 *const acc[4], const mlkem_poly *const vec[4],
                       const mlkem_polycache *const cache[4], const uint8_t rho[MLKEM_SYMBYTES], const uint8_t xy[8],
                       unsigned int fresh)
{
    pqlab_keccakx4_state st;
    uint8_t buf[4][PQLAB_SHAKE128_RATE]; /* XOF blocks */
    matacc_lane l[4];
    uint16_t hw[4]; /* per accumulator (that of its first lane): 0 if fresh, else all written */
    for (unsigned int t = 0; t < 4; t++) {
        unsigned int first = t; /* the first lane with this accumulator (public pointers) */
        for (unsigned int u = 0; u < t; u++) {
            if (acc[u] == acc[t]) {
                first = u;
                break;
            }
        }
        hw[t] = ((fresh >> t) & 1u) ? 0 : MLKEM_N;
        l[t].acc32 = acc[t];
        l[t].acc = NULL;
        l[t].vec = vec[t];
        l[t].cache = cache[t];
        l[t].ctr = 0;
        l[t].pending = 0;
        l[t].hw = &hw[first];
    }
    /* rho || x || y: rho, common to the four entries, absorbed once */
    pqlab_shake128x4_absorb_once_prefix(&st, rho, MLKEM_SYMBYTES, &xy[0], &xy[2], &xy[4], &xy[6], 2);
    /* the four lanes in lock step while every one needs another block (the first three
     * blocks always: a block gives at most 2 * 168 / 3 = 112 candidates, so no test), then
     * the lanes still short of 256 coefficients one block each: an entry needs a fourth block
     * now and then (about one ML-KEM-1024 key in two on m4-sim's bench), and the four-way
     * squeeze spent four permutations on it. The counts are public (XOF output of rho). */
    _Static_assert(2 * (2 * PQLAB_SHAKE128_RATE / 3) < MLKEM_N, "every entry takes three blocks");
    for (unsigned int b = 0; b < 3; b++) {
        pqlab_shake128x4_squeezeblocks(buf[0], buf[1], buf[2], buf[3], 1, &st);
        for (unsigned int t = 0; t < 4; t++) {
            matacc_feed(&l[t], buf[t]);
        }
    }
    /* a lane is complete iff its count (<= 256) has bit 8 set: one test for the usual case,
     * every lane complete after three blocks */
    _Static_assert(MLKEM_N == 256, "the count's bit 8 marks a complete lane");
    while ((l[0].ctr & l[1].ctr & l[2].ctr & l[3].ctr & MLKEM_N) == 0) {
        if (((l[0].ctr | l[1].ctr | l[2].ctr | l[3].ctr) & MLKEM_N) == 0) { /* every lane short */
            pqlab_shake128x4_squeezeblocks(buf[0], buf[1], buf[2], buf[3], 1, &st);
            for (unsigned int t = 0; t < 4; t++) {
                matacc_feed(&l[t], buf[t]);
            }
        } else {
            for (unsigned int t = 0; t < 4; t++) {
                if (l[t].ctr < MLKEM_N) {
                    pqlab_shake128x4_squeezeblock_lane(buf[t], t, &st);
                    matacc_feed(&l[t], buf[t]);
                }
            }
        }
    }
}

/* Algorithm 8 for eta = 2: each coefficient takes 4 bits of the PRF output
 * (bits 4i, 4i+1 summed minus bits 4i+2, 4i+3, LSB first). Adding the odd bits
 * to the even ones (mask 0x55555555) gives 2-bit pair sums in place, so each
 * coefficient is one field minus the next. Result in [-2, 2]; no branches. */
static void cbd2(mlkem_poly *r, const uint8_t *buf, int add)
{
    for (unsigned int i = 0; i < MLKEM_N / 8; i++) {
        uint32_t w = (uint32_t)buf[4 * i] | ((uint32_t)buf[4 * i + 1] << 8) | ((uint32_t)buf[4 * i + 2] << 16) |
                     ((uint32_t)buf[4 * i + 3] << 24);
        uint32_t s = (w & 0x55555555u) + ((w >> 1) & 0x55555555u);
        for (unsigned int j = 0; j < 8; j++) {
            int16_t x = (int16_t)((s >> (4 * j)) & 3);
            int16_t y = (int16_t)((s >> (4 * j + 2)) & 3);
            /* add: a public mode (cbd_eta2_add, no polynomial buffer for the noise) */
            r->c[8 * i + j] = (int16_t)((add ? r->c[8 * i + j] : 0) + x - y);
        }
    }
}

#if MLKEM_ETA1 == 3
/* Algorithm 8 for eta = 3 (ML-KEM-512's eta1): 6 bits per coefficient, 3 bytes
 * give 4 coefficients; 3-bit fields hold the sum of three bits (mask 0x249249).
 * Result in [-3, 3]. */
static void cbd3(mlkem_poly *r, const uint8_t *buf)
{
    for (unsigned int i = 0; i < MLKEM_N / 4; i++) {
        uint32_t w = (uint32_t)buf[3 * i] | ((uint32_t)buf[3 * i + 1] << 8) | ((uint32_t)buf[3 * i + 2] << 16);
        uint32_t s = (w & 0x249249u) + ((w >> 1) & 0x249249u) + ((w >> 2) & 0x249249u);
        for (unsigned int j = 0; j < 4; j++) {
            int16_t x = (int16_t)((s >> (6 * j)) & 7);
            int16_t y = (int16_t)((s >> (6 * j + 3)) & 7);
            r->c[4 * i + j] = (int16_t)(x - y);
        }
    }
}
#endif

void mlkem_cbd_eta1_c(mlkem_poly *r, const uint8_t buf[64 * MLKEM_ETA1])
{
#if MLKEM_ETA1 == 3
    cbd3(r, buf);
#else
    cbd2(r, buf, 0);
#endif
}

void mlkem_cbd_eta2_c(mlkem_poly *r, const uint8_t buf[64 * MLKEM_ETA2])
{
    cbd2(r, buf, 0);
}

void mlkem_cbd_eta2_add_c(mlkem_poly *r, const uint8_t buf[64 * MLKEM_ETA2])
{
    cbd2(r, buf, 1);
}
