/* SPDX-License-Identifier: MIT */
/* SHA-224, SHA-256, SHA-384, SHA-512: FIPS 180-4. Functions of section 4.1.2/4.1.3,
 * constants of section 4.2.2/4.2.3, padding of section 5.1, initial values of
 * section 5.3, computation of section 6.2.2/6.4.2. Constant time: the data never
 * steers a branch or an address. */
#include "sha2.h"

#include "ct.h"
#include "hashprof.h"
#include "../native/api.h" /* PQLAB_SHA256_COMPRESS_NATIVE */

#ifndef PQLAB_SHA2_COMPRESS_EXTERNAL /* else the application's (sha2.h) */
/* pqlab_sha256_k: FIPS 180-4 4.2.2, shared with the AArch64 backend (sha256.c) */
#include "sha256_k.h"

/* FIPS 180-4 4.2.3: first 64 bits of the fractional parts of the cube roots of the
 * first 80 primes */
static const uint64_t K512[80] = {
    0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL, 0xe9b5dba58189dbbcULL, 0x3956c25bf348b538ULL,
    0x59f111f1b605d019ULL, 0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL, 0xd807aa98a3030242ULL, 0x12835b0145706fbeULL,
    0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL, 0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL,
    0xc19bf174cf692694ULL, 0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL, 0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL,
    0x2de92c6f592b0275ULL, 0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL, 0x983e5152ee66dfabULL,
    0xa831c66d2db43210ULL, 0xb00327c898fb213fULL, 0xbf597fc7beef0ee4ULL, 0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL,
    0x06ca6351e003826fULL, 0x142929670a0e6e70ULL, 0x27b70a8546d22ffcULL, 0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL,
    0x53380d139d95b3dfULL, 0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL, 0x92722c851482353bULL,
    0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL, 0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL, 0xd192e819d6ef5218ULL,
    0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL, 0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL,
    0x2748774cdf8eeb99ULL, 0x34b0bcb5e19b48a8ULL, 0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL, 0x5b9cca4f7763e373ULL,
    0x682e6ff3d6b2b8a3ULL, 0x748f82ee5defb2fcULL, 0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
    0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL, 0xc67178f2e372532bULL, 0xca273eceea26619cULL,
    0xd186b8c721c0c207ULL, 0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL, 0x06f067aa72176fbaULL, 0x0a637dc5a2c898a6ULL,
    0x113f9804bef90daeULL, 0x1b710b35131c471bULL, 0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL,
    0x431d67c49c100d4cULL, 0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL, 0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL,
};
#endif

/* FIPS 180-4 5.3.2 - 5.3.5 (square roots of the first 8 primes, and of primes 9..16) */
static const uint32_t IV224[8] = {0xc1059ed8U, 0x367cd507U, 0x3070dd17U, 0xf70e5939U,
                                  0xffc00b31U, 0x68581511U, 0x64f98fa7U, 0xbefa4fa4U};
static const uint32_t IV256[8] = {0x6a09e667U, 0xbb67ae85U, 0x3c6ef372U, 0xa54ff53aU,
                                  0x510e527fU, 0x9b05688cU, 0x1f83d9abU, 0x5be0cd19U};
static const uint64_t IV384[8] = {0xcbbb9d5dc1059ed8ULL, 0x629a292a367cd507ULL, 0x9159015a3070dd17ULL,
                                  0x152fecd8f70e5939ULL, 0x67332667ffc00b31ULL, 0x8eb44a8768581511ULL,
                                  0xdb0c2e0d64f98fa7ULL, 0x47b5481dbefa4fa4ULL};
static const uint64_t IV512[8] = {0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL,
                                  0xa54ff53a5f1d36f1ULL, 0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL,
                                  0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL};

#ifndef PQLAB_SHA2_COMPRESS_EXTERNAL /* else the application's (sha2.h) */
static inline uint32_t ror32(uint32_t x, unsigned int n)
{
    return (x >> n) | (x << (32u - n));
}
static inline uint64_t ror64(uint64_t x, unsigned int n)
{
    return (x >> n) | (x << (64u - n));
}

static inline uint32_t load32_be(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}
static inline uint64_t load64_be(const uint8_t *p)
{
    return ((uint64_t)load32_be(p) << 32) | load32_be(p + 4);
}
#endif
static inline void store32_be(uint8_t *p, uint32_t x)
{
    p[0] = (uint8_t)(x >> 24);
    p[1] = (uint8_t)(x >> 16);
    p[2] = (uint8_t)(x >> 8);
    p[3] = (uint8_t)x;
}
static inline void store64_be(uint8_t *p, uint64_t x)
{
    store32_be(p, (uint32_t)(x >> 32));
    store32_be(p + 4, (uint32_t)x);
}

/* Section 4.1.2 and 4.1.3 functions */
#define CH(x, y, z) (((x) & (y)) ^ (~(x) & (z)))
#define MAJ(x, y, z) (((x) & (y)) ^ ((x) & (z)) ^ ((y) & (z)))
#define S0_256(x) (ror32((x), 2) ^ ror32((x), 13) ^ ror32((x), 22))
#define S1_256(x) (ror32((x), 6) ^ ror32((x), 11) ^ ror32((x), 25))
#define s0_256(x) (ror32((x), 7) ^ ror32((x), 18) ^ ((x) >> 3))
#define s1_256(x) (ror32((x), 17) ^ ror32((x), 19) ^ ((x) >> 10))
#define S0_512(x) (ror64((x), 28) ^ ror64((x), 34) ^ ror64((x), 39))
#define S1_512(x) (ror64((x), 14) ^ ror64((x), 18) ^ ror64((x), 41))
#define s0_512(x) (ror64((x), 1) ^ ror64((x), 8) ^ ((x) >> 7))
#define s1_512(x) (ror64((x), 19) ^ ror64((x), 61) ^ ((x) >> 6))

/* One round of 6.2.2 step 3 / 6.4.2 step 3 with the working variables renamed instead
 * of moved: the caller rotates the argument order, so only d and h are written. */
#define ROUND(S0, S1, a, b, c, d, e, f, g, h, k, w)                                                                    \
    do {                                                                                                               \
        const T t1_ = (h) + S1(e) + CH((e), (f), (g)) + (k) + (w);                                                     \
        (d) += t1_;                                                                                                    \
        (h) = t1_ + S0(a) + MAJ((a), (b), (c));                                                                        \
    } while (0)

/* W[t] for t >= 16 (6.2.2 / 6.4.2 step 1) in a 16-word ring buffer: the slot j of
 * W[t - 16] becomes W[t] */
#define SCHED(s0, s1, j) (w[(j)] += s1(w[((j) + 14) & 15]) + w[((j) + 9) & 15] + s0(w[((j) + 1) & 15]))

/* sixteen rounds t0 .. t0+15 with message words w[0..15] computed by W(j) */
#define ROUNDS16(S0, S1, K, t0, W)                                                                                     \
    do {                                                                                                               \
        ROUND(S0, S1, a, b, c, d, e, f, g, h, K[(t0) + 0], W(0));                                                      \
        ROUND(S0, S1, h, a, b, c, d, e, f, g, K[(t0) + 1], W(1));                                                      \
        ROUND(S0, S1, g, h, a, b, c, d, e, f, K[(t0) + 2], W(2));                                                      \
        ROUND(S0, S1, f, g, h, a, b, c, d, e, K[(t0) + 3], W(3));                                                      \
        ROUND(S0, S1, e, f, g, h, a, b, c, d, K[(t0) + 4], W(4));                                                      \
        ROUND(S0, S1, d, e, f, g, h, a, b, c, K[(t0) + 5], W(5));                                                      \
        ROUND(S0, S1, c, d, e, f, g, h, a, b, K[(t0) + 6], W(6));                                                      \
        ROUND(S0, S1, b, c, d, e, f, g, h, a, K[(t0) + 7], W(7));                                                      \
        ROUND(S0, S1, a, b, c, d, e, f, g, h, K[(t0) + 8], W(8));                                                      \
        ROUND(S0, S1, h, a, b, c, d, e, f, g, K[(t0) + 9], W(9));                                                      \
        ROUND(S0, S1, g, h, a, b, c, d, e, f, K[(t0) + 10], W(10));                                                    \
        ROUND(S0, S1, f, g, h, a, b, c, d, e, K[(t0) + 11], W(11));                                                    \
        ROUND(S0, S1, e, f, g, h, a, b, c, d, K[(t0) + 12], W(12));                                                    \
        ROUND(S0, S1, d, e, f, g, h, a, b, c, K[(t0) + 13], W(13));                                                    \
        ROUND(S0, S1, c, d, e, f, g, h, a, b, K[(t0) + 14], W(14));                                                    \
        ROUND(S0, S1, b, c, d, e, f, g, h, a, K[(t0) + 15], W(15));                                                    \
    } while (0)

#ifndef PQLAB_SHA2_COMPRESS_EXTERNAL /* else the application's (sha2.h) */
/* 6.2.2 on nblocks consecutive 64-byte blocks; the schedule lives in a 16-word ring
 * buffer (64 bytes of stack instead of 256) */
static void sha256_compress_c(uint32_t h_[8], const uint8_t *blocks, size_t nblocks)
{
    typedef uint32_t T;
    uint32_t w[16];
    while (nblocks > 0) {
        uint32_t a = h_[0], b = h_[1], c = h_[2], d = h_[3];
        uint32_t e = h_[4], f = h_[5], g = h_[6], h = h_[7];
#define W_LOAD(j) (w[(j)] = load32_be(blocks + 4 * (j)))
#define W_NEXT(j) SCHED(s0_256, s1_256, j)
        ROUNDS16(S0_256, S1_256, pqlab_sha256_k, 0, W_LOAD);
        for (unsigned int t = 16; t < 64; t += 16) {
            ROUNDS16(S0_256, S1_256, pqlab_sha256_k, t, W_NEXT);
        }
#undef W_LOAD
#undef W_NEXT
        h_[0] += a;
        h_[1] += b;
        h_[2] += c;
        h_[3] += d;
        h_[4] += e;
        h_[5] += f;
        h_[6] += g;
        h_[7] += h;
        blocks += 64;
        nblocks--;
    }
}

void pqlab_sha256_compress(uint32_t h_[8], const uint8_t *blocks, size_t nblocks)
{
    PQLAB_HASHPROF_BEGIN();
#ifdef PQLAB_SHA256_COMPRESS_NATIVE
    /* the backend declines on a CPU without its instructions (lib/native/api.h) */
    PQLAB_NATIVE_TRY(pqlab_sha256_compress_native(h_, blocks, nblocks), sha256_compress_c(h_, blocks, nblocks));
#else
    sha256_compress_c(h_, blocks, nblocks);
#endif
    PQLAB_HASHPROF_END();
}

/* 6.4.2, same structure with 64-bit words and 80 rounds */
void pqlab_sha512_compress(uint64_t h_[8], const uint8_t *blocks, size_t nblocks)
{
    PQLAB_HASHPROF_BEGIN();
    typedef uint64_t T;
    uint64_t w[16];
    while (nblocks > 0) {
        uint64_t a = h_[0], b = h_[1], c = h_[2], d = h_[3];
        uint64_t e = h_[4], f = h_[5], g = h_[6], h = h_[7];
#define W_LOAD(j) (w[(j)] = load64_be(blocks + 8 * (j)))
#define W_NEXT(j) SCHED(s0_512, s1_512, j)
        ROUNDS16(S0_512, S1_512, K512, 0, W_LOAD);
        for (unsigned int t = 16; t < 80; t += 16) {
            ROUNDS16(S0_512, S1_512, K512, t, W_NEXT);
        }
#undef W_LOAD
#undef W_NEXT
        h_[0] += a;
        h_[1] += b;
        h_[2] += c;
        h_[3] += d;
        h_[4] += e;
        h_[5] += f;
        h_[6] += g;
        h_[7] += h;
        blocks += 128;
        nblocks--;
    }
    PQLAB_HASHPROF_END();
}
#endif

/* ---- buffering shared by both sizes (word-wise: the C library's byte loops would cost
 * more than a one-block message's padding is worth) ---- */

/* moves up to bs - *buflen bytes of in into buf; returns how many */
static size_t buf_fill(uint8_t *buf, unsigned int *buflen, size_t bs, const uint8_t *in, size_t inlen)
{
    size_t take = bs - *buflen;
    if (take > inlen) {
        take = inlen;
    }
    pqlab_memcpy_words(buf + *buflen, in, take);
    *buflen += (unsigned int)take;
    return take;
}

/* buf[from .. to) = 0; buf 4-byte aligned, to a multiple of 4 */
static void buf_zero(uint8_t *buf, unsigned int from, unsigned int to)
{
    while ((from & 3u) != 0 && from < to) {
        buf[from++] = 0;
    }
    pqlab_memzero_words(buf + from, to - from);
}

/* ---- SHA-224 / SHA-256 ---- */

static void sha256_init_iv(pqlab_sha256_state *st, const uint32_t iv[8])
{
    for (unsigned int i = 0; i < 8; i++) {
        st->h[i] = iv[i];
    }
    st->nbytes = 0;
    st->buflen = 0;
}

void pqlab_sha224_init(pqlab_sha256_state *st)
{
    sha256_init_iv(st, IV224);
}
void pqlab_sha256_init(pqlab_sha256_state *st)
{
    sha256_init_iv(st, IV256);
}

void pqlab_sha256_update(pqlab_sha256_state *st, const uint8_t *in, size_t inlen)
{
    if (st->buflen > 0) {
        const size_t took = buf_fill(st->buf, &st->buflen, 64, in, inlen);
        in += took;
        inlen -= took;
        if (st->buflen < 64) {
            return;
        }
        pqlab_sha256_compress(st->h, st->buf, 1);
        st->nbytes += 64;
        st->buflen = 0;
    }
    const size_t nblocks = inlen / 64;
    if (nblocks > 0) {
        pqlab_sha256_compress(st->h, in, nblocks);
        st->nbytes += (uint64_t)nblocks * 64;
        in += nblocks * 64;
        inlen -= nblocks * 64;
    }
    (void)buf_fill(st->buf, &st->buflen, 64, in, inlen);
}
void pqlab_sha224_update(pqlab_sha256_state *st, const uint8_t *in, size_t inlen)
{
    pqlab_sha256_update(st, in, inlen);
}

/* 5.1.1: append 1, zeros up to 56 mod 64, then the bit length as 64-bit big endian */
static void sha256_pad(pqlab_sha256_state *st)
{
    const uint64_t bits = (st->nbytes + st->buflen) * 8;
    unsigned int n = st->buflen;
    st->buf[n++] = 0x80;
    if (n > 56) {
        buf_zero(st->buf, n, 64);
        pqlab_sha256_compress(st->h, st->buf, 1);
        n = 0;
    }
    buf_zero(st->buf, n, 56);
    store64_be(st->buf + 56, bits);
    pqlab_sha256_compress(st->h, st->buf, 1);
}

void pqlab_sha256_final(uint8_t out[32], pqlab_sha256_state *st)
{
    sha256_pad(st);
    for (unsigned int i = 0; i < 8; i++) {
        store32_be(out + 4 * i, st->h[i]);
    }
}

void pqlab_sha224_final(uint8_t out[28], pqlab_sha256_state *st)
{
    sha256_pad(st);
    for (unsigned int i = 0; i < 7; i++) { /* 6.3: leftmost 224 bits */
        store32_be(out + 4 * i, st->h[i]);
    }
}

void pqlab_sha256(uint8_t out[32], const uint8_t *in, size_t inlen)
{
    pqlab_sha256_state st;
    pqlab_sha256_init(&st);
    pqlab_sha256_update(&st, in, inlen);
    pqlab_sha256_final(out, &st);
}

void pqlab_sha224(uint8_t out[28], const uint8_t *in, size_t inlen)
{
    pqlab_sha256_state st;
    pqlab_sha224_init(&st);
    pqlab_sha256_update(&st, in, inlen);
    pqlab_sha224_final(out, &st);
}

/* ---- SHA-384 / SHA-512 ---- */

static void sha512_init_iv(pqlab_sha512_state *st, const uint64_t iv[8])
{
    for (unsigned int i = 0; i < 8; i++) {
        st->h[i] = iv[i];
    }
    st->nbytes = 0;
    st->buflen = 0;
}

void pqlab_sha384_init(pqlab_sha512_state *st)
{
    sha512_init_iv(st, IV384);
}
void pqlab_sha512_init(pqlab_sha512_state *st)
{
    sha512_init_iv(st, IV512);
}

void pqlab_sha512_update(pqlab_sha512_state *st, const uint8_t *in, size_t inlen)
{
    if (st->buflen > 0) {
        const size_t took = buf_fill(st->buf, &st->buflen, 128, in, inlen);
        in += took;
        inlen -= took;
        if (st->buflen < 128) {
            return;
        }
        pqlab_sha512_compress(st->h, st->buf, 1);
        st->nbytes += 128;
        st->buflen = 0;
    }
    const size_t nblocks = inlen / 128;
    if (nblocks > 0) {
        pqlab_sha512_compress(st->h, in, nblocks);
        st->nbytes += (uint64_t)nblocks * 128;
        in += nblocks * 128;
        inlen -= nblocks * 128;
    }
    (void)buf_fill(st->buf, &st->buflen, 128, in, inlen);
}
void pqlab_sha384_update(pqlab_sha512_state *st, const uint8_t *in, size_t inlen)
{
    pqlab_sha512_update(st, in, inlen);
}

/* 5.1.2: 1, zeros up to 112 mod 128, 128-bit big-endian bit length (the upper 64
 * bits hold the three bits shifted out of nbytes * 8) */
static void sha512_pad(pqlab_sha512_state *st)
{
    const uint64_t total = st->nbytes + st->buflen;
    unsigned int n = st->buflen;
    st->buf[n++] = 0x80;
    if (n > 112) {
        buf_zero(st->buf, n, 128);
        pqlab_sha512_compress(st->h, st->buf, 1);
        n = 0;
    }
    buf_zero(st->buf, n, 112);
    store64_be(st->buf + 112, total >> 61);
    store64_be(st->buf + 120, total << 3);
    pqlab_sha512_compress(st->h, st->buf, 1);
}

void pqlab_sha512_final(uint8_t out[64], pqlab_sha512_state *st)
{
    sha512_pad(st);
    for (unsigned int i = 0; i < 8; i++) {
        store64_be(out + 8 * i, st->h[i]);
    }
}

void pqlab_sha384_final(uint8_t out[48], pqlab_sha512_state *st)
{
    sha512_pad(st);
    for (unsigned int i = 0; i < 6; i++) { /* 6.5: leftmost 384 bits */
        store64_be(out + 8 * i, st->h[i]);
    }
}

void pqlab_sha512(uint8_t out[64], const uint8_t *in, size_t inlen)
{
    pqlab_sha512_state st;
    pqlab_sha512_init(&st);
    pqlab_sha512_update(&st, in, inlen);
    pqlab_sha512_final(out, &st);
}

/* SHA-512/t (FIPS 180-4 section 6.7): SHA-512 from the initial value of section 5.3.6,
 * truncated to the leftmost t bits. One-shot only: the pre-hash functions of
 * HashML-DSA and HashSLH-DSA are their only users. */
static const uint64_t IV512_224[8] = {0x8C3D37C819544DA2ULL, 0x73E1996689DCD4D6ULL, 0x1DFAB7AE32FF9C82ULL,
                                      0x679DD514582F9FCFULL, 0x0F6D2B697BD44DA8ULL, 0x77E36F7304C48942ULL,
                                      0x3F9D85A86A1D36C8ULL, 0x1112E6AD91D692A1ULL};
static const uint64_t IV512_256[8] = {0x22312194FC2BF72CULL, 0x9F555FA3C84C64C2ULL, 0x2393B86B6F53B151ULL,
                                      0x963877195940EABDULL, 0x96283EE2A88EFFE3ULL, 0xBE5E1E2553863992ULL,
                                      0x2B0199FC2C85B8AAULL, 0x0EB72DDC81C52CA2ULL};

static void sha512t(uint8_t *out, size_t outlen, const uint64_t iv[8], const uint8_t *in, size_t inlen)
{
    pqlab_sha512_state st;
    uint8_t full[64];
    sha512_init_iv(&st, iv);
    pqlab_sha512_update(&st, in, inlen);
    pqlab_sha512_final(full, &st);
    for (size_t i = 0; i < outlen; i++) {
        out[i] = full[i];
    }
}

void pqlab_sha512_224(uint8_t out[28], const uint8_t *in, size_t inlen)
{
    sha512t(out, 28, IV512_224, in, inlen);
}

void pqlab_sha512_256(uint8_t out[32], const uint8_t *in, size_t inlen)
{
    sha512t(out, 32, IV512_256, in, inlen);
}

void pqlab_sha384(uint8_t out[48], const uint8_t *in, size_t inlen)
{
    pqlab_sha512_state st;
    pqlab_sha384_init(&st);
    pqlab_sha512_update(&st, in, inlen);
    pqlab_sha384_final(out, &st);
}
