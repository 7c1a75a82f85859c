/* SPDX-License-Identifier: MIT */
/* SHA-3 and SHAKE, FIPS 202. Keccak-f[1600] (section 3.3 and 3.4), sponge
 * construction (section 4), padding pad10*1 (section 5.1) with the domain suffixes of
 * section 6 (SHA-3: 01, SHAKE: 1111). Everything here is constant time in the data:
 * control flow and addresses depend on lengths only. */
#include "fips202.h"
#include "ct.h"
#include "../native/api.h"

#include "hashprof.h"

/* Round constants RC[ir] (lib/common/keccak_rc.h, shared with the AArch64 backend) */
#if !defined(PQLAB_KECCAKF1600_NATIVE) && !defined(PQLAB_KECCAKF1600_EXTERNAL)
#include "keccak_rc.h"
#endif

/* Two formulations of the same permutation (FIPS 202 Algorithm 7, 24 rounds of
 * theta, rho, pi, chi, iota). 64-bit machines keep all 25 lanes in registers
 * (keccakf1600_lanes). On 32-bit machines the lanes are 50 words, far more than the
 * registers, and the lane-register form spends most of its time spilling; there
 * keccakf1600_rows computes the output state row by row into a second buffer, so that
 * each lane is loaded and stored once per round. PQLAB_KECCAK_ROWS /
 * PQLAB_KECCAK_LANES force either one (the tests use this to check both on the host). */
#if defined(PQLAB_KECCAKF1600_NATIVE) || defined(PQLAB_KECCAKF1600_EXTERNAL)
/* A native backend (lib/native/api.h, docs/native.md) provides the permutation on the
 * standard state layout and on its own layout, or the application does (an export's
 * PQLAB_CONFIG_KECCAKF1600, fips202.h); the portable formulations below are not built. */
#elif !defined(PQLAB_KECCAK_ROWS) && !defined(PQLAB_KECCAK_LANES)
#if UINTPTR_MAX > 0xFFFFFFFFu
#define PQLAB_KECCAK_LANES
#else
#define PQLAB_KECCAK_ROWS
#endif
#endif

#ifdef PQLAB_KECCAK_LANES
/* only the lane formulation rotates 64-bit words (clang warns on an unused static inline) */
static inline uint64_t rol64(uint64_t x, unsigned int n)
{
    /* n in 1..63 at every call site, so neither shift is by 64 */
    return (x << n) | (x >> (64u - n));
}

/* One round on lanes named a<x><y> (x = column, y = row). Rho offsets (section 3.2.2,
 * Table 2) and pi (section 3.2.3: A'[x][y] = A[(x + 3y) mod 5][x]) are written out so
 * the compiler keeps the 25 lanes in registers where it can. */
static void keccakf1600_lanes(uint64_t s[25])
{
    uint64_t a00 = s[0], a10 = s[1], a20 = s[2], a30 = s[3], a40 = s[4];
    uint64_t a01 = s[5], a11 = s[6], a21 = s[7], a31 = s[8], a41 = s[9];
    uint64_t a02 = s[10], a12 = s[11], a22 = s[12], a32 = s[13], a42 = s[14];
    uint64_t a03 = s[15], a13 = s[16], a23 = s[17], a33 = s[18], a43 = s[19];
    uint64_t a04 = s[20], a14 = s[21], a24 = s[22], a34 = s[23], a44 = s[24];

    for (unsigned int ir = 0; ir < 24; ir++) {
        /* theta (3.2.1) */
        const uint64_t c0 = a00 ^ a01 ^ a02 ^ a03 ^ a04;
        const uint64_t c1 = a10 ^ a11 ^ a12 ^ a13 ^ a14;
        const uint64_t c2 = a20 ^ a21 ^ a22 ^ a23 ^ a24;
        const uint64_t c3 = a30 ^ a31 ^ a32 ^ a33 ^ a34;
        const uint64_t c4 = a40 ^ a41 ^ a42 ^ a43 ^ a44;
        const uint64_t d0 = c4 ^ rol64(c1, 1);
        const uint64_t d1 = c0 ^ rol64(c2, 1);
        const uint64_t d2 = c1 ^ rol64(c3, 1);
        const uint64_t d3 = c2 ^ rol64(c4, 1);
        const uint64_t d4 = c3 ^ rol64(c0, 1);

        /* rho and pi: b<x><y> = rot(a<x'><y'>) with x' = x + 3y, y' = x (mod 5) */
        const uint64_t b00 = a00 ^ d0;
        const uint64_t b10 = rol64(a11 ^ d1, 44);
        const uint64_t b20 = rol64(a22 ^ d2, 43);
        const uint64_t b30 = rol64(a33 ^ d3, 21);
        const uint64_t b40 = rol64(a44 ^ d4, 14);
        const uint64_t b01 = rol64(a30 ^ d3, 28);
        const uint64_t b11 = rol64(a41 ^ d4, 20);
        const uint64_t b21 = rol64(a02 ^ d0, 3);
        const uint64_t b31 = rol64(a13 ^ d1, 45);
        const uint64_t b41 = rol64(a24 ^ d2, 61);
        const uint64_t b02 = rol64(a10 ^ d1, 1);
        const uint64_t b12 = rol64(a21 ^ d2, 6);
        const uint64_t b22 = rol64(a32 ^ d3, 25);
        const uint64_t b32 = rol64(a43 ^ d4, 8);
        const uint64_t b42 = rol64(a04 ^ d0, 18);
        const uint64_t b03 = rol64(a40 ^ d4, 27);
        const uint64_t b13 = rol64(a01 ^ d0, 36);
        const uint64_t b23 = rol64(a12 ^ d1, 10);
        const uint64_t b33 = rol64(a23 ^ d2, 15);
        const uint64_t b43 = rol64(a34 ^ d3, 56);
        const uint64_t b04 = rol64(a20 ^ d2, 62);
        const uint64_t b14 = rol64(a31 ^ d3, 55);
        const uint64_t b24 = rol64(a42 ^ d4, 39);
        const uint64_t b34 = rol64(a03 ^ d0, 41);
        const uint64_t b44 = rol64(a14 ^ d1, 2);

        /* chi (3.2.4) and iota (3.2.5) */
        a00 = b00 ^ (~b10 & b20) ^ pqlab_keccak_rc[ir];
        a10 = b10 ^ (~b20 & b30);
        a20 = b20 ^ (~b30 & b40);
        a30 = b30 ^ (~b40 & b00);
        a40 = b40 ^ (~b00 & b10);
        a01 = b01 ^ (~b11 & b21);
        a11 = b11 ^ (~b21 & b31);
        a21 = b21 ^ (~b31 & b41);
        a31 = b31 ^ (~b41 & b01);
        a41 = b41 ^ (~b01 & b11);
        a02 = b02 ^ (~b12 & b22);
        a12 = b12 ^ (~b22 & b32);
        a22 = b22 ^ (~b32 & b42);
        a32 = b32 ^ (~b42 & b02);
        a42 = b42 ^ (~b02 & b12);
        a03 = b03 ^ (~b13 & b23);
        a13 = b13 ^ (~b23 & b33);
        a23 = b23 ^ (~b33 & b43);
        a33 = b33 ^ (~b43 & b03);
        a43 = b43 ^ (~b03 & b13);
        a04 = b04 ^ (~b14 & b24);
        a14 = b14 ^ (~b24 & b34);
        a24 = b24 ^ (~b34 & b44);
        a34 = b34 ^ (~b44 & b04);
        a44 = b44 ^ (~b04 & b14);
    }

    s[0] = a00;
    s[1] = a10;
    s[2] = a20;
    s[3] = a30;
    s[4] = a40;
    s[5] = a01;
    s[6] = a11;
    s[7] = a21;
    s[8] = a31;
    s[9] = a41;
    s[10] = a02;
    s[11] = a12;
    s[12] = a22;
    s[13] = a32;
    s[14] = a42;
    s[15] = a03;
    s[16] = a13;
    s[17] = a23;
    s[18] = a33;
    s[19] = a43;
    s[20] = a04;
    s[21] = a14;
    s[22] = a24;
    s[23] = a34;
    s[24] = a44;
}
#endif

#ifdef PQLAB_KECCAK_ROWS
/* Output row y of a round: e[x + 5y] = chi over b[x] = rot(a[src] ^ d[src % 5]) with
 * src = ((x + 3y) mod 5) + 5x (pi, section 3.2.3) and the rho offsets of Table 2. */
#define KECCAK_ROW(y, s0, r0, s1, r1, s2, r2, s3, r3, s4, r4)                                                          \
    do {                                                                                                               \
        const uint64_t b0 = rotl64(a[s0] ^ d[(s0) % 5], r0);                                                           \
        const uint64_t b1 = rotl64(a[s1] ^ d[(s1) % 5], r1);                                                           \
        const uint64_t b2 = rotl64(a[s2] ^ d[(s2) % 5], r2);                                                           \
        const uint64_t b3 = rotl64(a[s3] ^ d[(s3) % 5], r3);                                                           \
        const uint64_t b4 = rotl64(a[s4] ^ d[(s4) % 5], r4);                                                           \
        const uint64_t e0 = b0 ^ (~b1 & b2), e1 = b1 ^ (~b2 & b3);                                                     \
        const uint64_t e2 = b2 ^ (~b3 & b4), e3 = b3 ^ (~b4 & b0);                                                     \
        const uint64_t e4 = b4 ^ (~b0 & b1);                                                                           \
        e[5 * (y) + 0] = e0;                                                                                           \
        e[5 * (y) + 1] = e1;                                                                                           \
        e[5 * (y) + 2] = e2;                                                                                           \
        e[5 * (y) + 3] = e3;                                                                                           \
        e[5 * (y) + 4] = e4;                                                                                           \
    } while (0)

/* rotation by a compile-time constant 0..63 */
static inline uint64_t rotl64(uint64_t x, unsigned int n)
{
    return n == 0 ? x : (x << n) | (x >> (64u - n));
}

/* one round from a to e */
static void keccak_round_rows(uint64_t e[25], const uint64_t a[25], uint64_t rc)
{
    uint64_t c[5], d[5];
    for (unsigned int x = 0; x < 5; x++) {
        c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
    }
    d[0] = c[4] ^ rotl64(c[1], 1); /* theta, section 3.2.1 */
    d[1] = c[0] ^ rotl64(c[2], 1);
    d[2] = c[1] ^ rotl64(c[3], 1);
    d[3] = c[2] ^ rotl64(c[4], 1);
    d[4] = c[3] ^ rotl64(c[0], 1);
    KECCAK_ROW(0, 0, 0, 6, 44, 12, 43, 18, 21, 24, 14);
    KECCAK_ROW(1, 3, 28, 9, 20, 10, 3, 16, 45, 22, 61);
    KECCAK_ROW(2, 1, 1, 7, 6, 13, 25, 19, 8, 20, 18);
    KECCAK_ROW(3, 4, 27, 5, 36, 11, 10, 17, 15, 23, 56);
    KECCAK_ROW(4, 2, 62, 8, 55, 14, 39, 15, 41, 21, 2);
    e[0] ^= rc; /* iota, section 3.2.5 */
}

static void keccakf1600_rows(uint64_t s[25])
{
    uint64_t e[25];
    for (unsigned int ir = 0; ir < 24; ir += 2) { /* ping-pong between s and e */
        keccak_round_rows(e, s, pqlab_keccak_rc[ir]);
        keccak_round_rows(s, e, pqlab_keccak_rc[ir + 1]);
    }
    for (unsigned int i = 0; i < 25; i++) { /* e held state; clear the copy */
        ((volatile uint64_t *)e)[i] = 0;
    }
}
#endif

#ifndef PQLAB_KECCAKF1600_EXTERNAL /* else fips202.h maps pqlab_keccakf1600 to the application's */
void pqlab_keccakf1600(uint64_t s[25])
{
    PQLAB_HASHPROF_BEGIN();
#if defined(PQLAB_KECCAKF1600_NATIVE)
    pqlab_keccakf1600_native(s);
#elif defined(PQLAB_KECCAKF1600_NATIVE_STD) && defined(PQLAB_KECCAK_LANES)
    /* a standard-layout backend that may decline (a CPU feature missing at run time) */
    PQLAB_NATIVE_TRY(pqlab_keccakf1600_native_std(s), keccakf1600_lanes(s));
#elif defined(PQLAB_KECCAKF1600_NATIVE_STD)
    PQLAB_NATIVE_TRY(pqlab_keccakf1600_native_std(s), keccakf1600_rows(s));
#elif defined(PQLAB_KECCAK_LANES)
    keccakf1600_lanes(s);
#else
    keccakf1600_rows(s);
#endif
    PQLAB_HASHPROF_END();
}
#endif

/* ---- the module layout (fips202.h) ----
 * Without a backend it is the standard layout. With PQLAB_KECCAKF1600_NATIVE it is the
 * backend's: lane i stored as E | O << 32 with E = its even bits, O = its odd bits (the
 * representation of the Keccak team's 32-bit implementations), so the permutation skips
 * the two conversions of its standard-layout entry and only the bytes that go in or out
 * are converted (whole lanes by the backend, partial lanes here). This file and the
 * backend are the only code that knows it. The all-zero state is the same in both
 * layouts, and the conversion is a bit permutation of each lane: linear, so XORing a
 * converted partial lane is exact, and whole lanes can be XORed from one state into
 * another without conversion. */

void pqlab_keccak_init(uint64_t s[25])
{
    pqlab_memzero_words(s, 25 * sizeof(uint64_t)); /* not a byte-wise libc memset */
}

#ifndef PQLAB_KECCAKF1600_NATIVE
static inline uint64_t load64_le(const uint8_t *p)
{
    uint64_t r = 0;
    for (unsigned int i = 0; i < 8; i++) {
        r |= (uint64_t)p[i] << (8 * i);
    }
    return r;
}

static inline void store64_le(uint8_t *p, uint64_t x)
{
    for (unsigned int i = 0; i < 8; i++) {
        p[i] = (uint8_t)(x >> (8 * i));
    }
}

void pqlab_keccak_permute(uint64_t s[25])
{
    pqlab_keccakf1600(s);
}

/* Byte i of the state is byte i % 8 of lane i / 8 (section 3.1.2 with the
 * little-endian bit order of B.1). */
void pqlab_keccak_xorbytes(uint64_t s[25], const uint8_t *in, unsigned int offset, unsigned int len)
{
    while (len > 0 && (offset & 7u) != 0) {
        s[offset >> 3] ^= (uint64_t)*in++ << (8 * (offset & 7u));
        offset++;
        len--;
    }
    while (len >= 8) {
        s[offset >> 3] ^= load64_le(in);
        in += 8;
        offset += 8;
        len -= 8;
    }
    while (len > 0) {
        s[offset >> 3] ^= (uint64_t)*in++ << (8 * (offset & 7u));
        offset++;
        len--;
    }
}

void pqlab_keccak_extractbytes(const uint64_t s[25], uint8_t *out, unsigned int offset, unsigned int len)
{
    while (len > 0 && (offset & 7u) != 0) {
        *out++ = (uint8_t)(s[offset >> 3] >> (8 * (offset & 7u)));
        offset++;
        len--;
    }
    while (len >= 8) {
        store64_le(out, s[offset >> 3]);
        out += 8;
        offset += 8;
        len -= 8;
    }
    while (len > 0) {
        *out++ = (uint8_t)(s[offset >> 3] >> (8 * (offset & 7u)));
        offset++;
        len--;
    }
}
#else
/* even bits of x to bits 0-15, odd bits to 16-31: four delta swaps */
static inline uint32_t unshuffle32(uint32_t x)
{
    uint32_t t;
    t = (x ^ (x >> 1)) & 0x22222222u;
    x ^= t ^ (t << 1);
    t = (x ^ (x >> 2)) & 0x0C0C0C0Cu;
    x ^= t ^ (t << 2);
    t = (x ^ (x >> 4)) & 0x00F000F0u;
    x ^= t ^ (t << 4);
    t = (x ^ (x >> 8)) & 0x0000FF00u;
    x ^= t ^ (t << 8);
    return x;
}

/* inverse of unshuffle32: the same swaps in reverse order */
static inline uint32_t shuffle32(uint32_t x)
{
    uint32_t t;
    t = (x ^ (x >> 8)) & 0x0000FF00u;
    x ^= t ^ (t << 8);
    t = (x ^ (x >> 4)) & 0x00F000F0u;
    x ^= t ^ (t << 4);
    t = (x ^ (x >> 2)) & 0x0C0C0C0Cu;
    x ^= t ^ (t << 2);
    t = (x ^ (x >> 1)) & 0x22222222u;
    x ^= t ^ (t << 1);
    return x;
}

static inline uint64_t lane_to_il(uint64_t v)
{
    const uint32_t lo = unshuffle32((uint32_t)v), hi = unshuffle32((uint32_t)(v >> 32));
    const uint32_t e = (lo & 0xFFFFu) | (hi << 16), o = (lo >> 16) | (hi & 0xFFFF0000u);
    return e | (uint64_t)o << 32;
}

static inline uint64_t lane_from_il(uint64_t w)
{
    const uint32_t e = (uint32_t)w, o = (uint32_t)(w >> 32);
    const uint32_t lo = (e & 0xFFFFu) | (o << 16), hi = (e >> 16) | (o & 0xFFFF0000u);
    return shuffle32(lo) | (uint64_t)shuffle32(hi) << 32;
}

/* byte value b at byte k of a lane, interleaved: its even bits go to E bits 4k..4k+3,
 * its odd bits to O bits 4k..4k+3 (a single byte costs a few operations where the whole
 * lane conversion costs about forty) */
static inline uint64_t byte_to_il(uint32_t b, unsigned int k)
{
    uint32_t e = b & 0x55u, o = (b >> 1) & 0x55u;
    e = (e | (e >> 1)) & 0x33u;
    o = (o | (o >> 1)) & 0x33u;
    e = (e | (e >> 2)) & 0x0Fu;
    o = (o | (o >> 2)) & 0x0Fu;
    return (uint64_t)(e << (4 * k)) | (uint64_t)(o << (4 * k)) << 32;
}

void pqlab_keccak_permute(uint64_t s[25])
{
    PQLAB_HASHPROF_BEGIN();
    pqlab_keccakf1600_native_il(s);
    PQLAB_HASHPROF_END();
}

/* whole lanes through the backend, partial lanes here; not inlined into
 * pqlab_keccak_xorbytes, whose single-byte path then needs no register saves */
static __attribute__((noinline)) void xorbytes_il(uint64_t s[25], const uint8_t *in, unsigned int offset,
                                                  unsigned int len)
{
    while (len > 0) {
        if ((offset & 7u) == 0 && len >= 8) {
            const unsigned int nl = len >> 3;
            pqlab_keccak_native_xor_il(s + (offset >> 3), in, nl);
            in += 8 * nl;
            offset += 8 * nl;
            len -= 8 * nl;
            continue;
        }
        const unsigned int sh = offset & 7u;
        unsigned int take = 8u - sh;
        if (take > len) {
            take = len;
        }
        uint64_t v = 0;
        for (unsigned int i = 0; i < take; i++) {
            v |= (uint64_t)in[i] << (8 * (sh + i));
        }
        s[offset >> 3] ^= lane_to_il(v);
        in += take;
        offset += take;
        len -= take;
    }
}

void pqlab_keccak_xorbytes(uint64_t s[25], const uint8_t *in, unsigned int offset, unsigned int len)
{
    if (len == 1) { /* padding bytes, SLH-DSA's hash address: once per permutation */
        s[offset >> 3] ^= byte_to_il(in[0], offset & 7u);
        return;
    }
    xorbytes_il(s, in, offset, len);
}

void pqlab_keccak_extractbytes(const uint64_t s[25], uint8_t *out, unsigned int offset, unsigned int len)
{
    while (len > 0) {
        if ((offset & 7u) == 0 && len >= 8) {
            const unsigned int nl = len >> 3;
            pqlab_keccak_native_extract_il(out, s + (offset >> 3), nl);
            out += 8 * nl;
            offset += 8 * nl;
            len -= 8 * nl;
            continue;
        }
        const unsigned int sh = offset & 7u;
        unsigned int take = 8u - sh;
        if (take > len) {
            take = len;
        }
        const uint64_t v = lane_from_il(s[offset >> 3]);
        for (unsigned int i = 0; i < take; i++) {
            out[i] = (uint8_t)(v >> (8 * (sh + i)));
        }
        out += take;
        offset += take;
        len -= take;
    }
}
#endif

/* The sponge loops of FIPS 202 section 4 (Algorithm 8) on the module layout: absorb over
 * any number of calls (a full block is permuted as soon as it is complete, so
 * 0 <= pos < rate on return), squeeze over any number of calls (the open block is
 * permuted on demand), and whole-block squeeze. */
#if defined(PQLAB_KECCAK_BLOCKS_NATIVE) && !defined(PQLAB_KECCAKF1600_NATIVE)
#define KECCAK_BLOCKS 1 /* the backend's whole-block loops (lib/native/api.h), standard layout */
/* the hooks' contract on the rate (lib/native/api.h), checked in a contract-checks build */
#define KECCAK_BLOCKS_RATE(kernel, rate)                                                                               \
    PQLAB_CONTRACT(kernel, ((rate) & 7u) == 0 && (rate) >= 8 && (rate) <= 192, "rate a multiple of 8 in 8..192")
#endif

unsigned int pqlab_keccak_absorb(uint64_t s[25], unsigned int pos, unsigned int rate, const uint8_t *in, size_t inlen)
{
    while (inlen > 0) {
#ifdef KECCAK_BLOCKS
        if (pos == 0 && inlen >= rate) {
            const size_t nb = inlen / rate;
            KECCAK_BLOCKS_RATE("keccak_native_absorbblocks", rate);
            pqlab_keccak_native_absorbblocks(s, in, nb, rate);
            in += nb * rate;
            inlen -= nb * rate;
            continue;
        }
#endif
        unsigned int take = rate - pos;
        if ((size_t)take > inlen) {
            take = (unsigned int)inlen;
        }
        pqlab_keccak_xorbytes(s, in, pos, take);
        in += take;
        inlen -= take;
        pos += take;
        if (pos == rate) {
            pqlab_keccak_permute(s);
            pos = 0;
        }
    }
    return pos;
}

unsigned int pqlab_keccak_squeeze(uint8_t *out, size_t outlen, uint64_t s[25], unsigned int pos, unsigned int rate)
{
    while (outlen > 0) {
#ifdef KECCAK_BLOCKS
        if (pos == rate) {
            /* the rest from fresh blocks: the last one used up to (outlen - 1) % rate + 1 */
            KECCAK_BLOCKS_RATE("keccak_native_squeeze", rate);
            pqlab_keccak_native_squeeze(out, outlen, s, rate);
            return (unsigned int)((outlen - 1) % rate) + 1;
        }
#endif
        if (pos == rate) {
            pqlab_keccak_permute(s);
            pos = 0;
        }
        unsigned int take = rate - pos;
        if ((size_t)take > outlen) {
            take = (unsigned int)outlen;
        }
        pqlab_keccak_extractbytes(s, out, pos, take);
        out += take;
        outlen -= take;
        pos += take;
    }
    return pos;
}

void pqlab_keccak_squeezeblocks(uint8_t *out, size_t nblocks, uint64_t s[25], unsigned int rate)
{
#ifdef KECCAK_BLOCKS
    KECCAK_BLOCKS_RATE("keccak_native_squeeze", rate);
    pqlab_keccak_native_squeeze(out, nblocks * rate, s, rate);
#else
    while (nblocks > 0) {
        pqlab_keccak_permute(s);
        pqlab_keccak_extractbytes(s, out, 0, rate);
        out += rate;
        nblocks--;
    }
#endif
}

/* Suffix and pad10*1 (section 5.1) on the open block: the domain byte carries the
 * suffix bits and the first 1 of the padding, 0x80 in the last rate byte the final 1
 * (both land in the same byte when pos == rate - 1, which XOR handles). The block is
 * permuted by the first squeeze. */
void pqlab_keccak_finalize(uint64_t s[25], unsigned int pos, unsigned int rate, uint8_t ds)
{
    static const uint8_t last = 0x80;
    pqlab_keccak_xorbytes(s, &ds, pos, 1);
    pqlab_keccak_xorbytes(s, &last, rate - 1, 1);
}

#define ST_ABSORB pqlab_keccak_absorb
#define ST_FINALIZE pqlab_keccak_finalize
#define ST_SQUEEZE pqlab_keccak_squeeze
#define ST_SQUEEZEBLOCKS pqlab_keccak_squeezeblocks

/* The zero state, five lanes per loop test (unrolled: fifteen of these per ML-KEM-768 key
 * generation, a word loop took 157 cycles of them on m4-sim); the zero comes through a
 * value barrier so that GCC does not turn the loop into a call of a byte-wise libc memset. */
static void keccak_init(pqlab_keccak_state *st)
{
    const uint64_t z = pqlab_value_barrier_u32(0);
    for (unsigned int i = 0; i < 25; i += 5) {
        st->s[i] = z;
        st->s[i + 1] = z;
        st->s[i + 2] = z;
        st->s[i + 3] = z;
        st->s[i + 4] = z;
    }
    st->pos = 0;
}

/* Domain bytes: SHAKE appends 1111 (section 6.2), SHA-3 appends 01 (section 6.1);
 * with the first padding bit and the LSB-first bit order they become 0x1F and 0x06. */
#define DS_SHAKE 0x1F
#define DS_SHA3 0x06

#define DEFINE_SHAKE(name, rate)                                                                                       \
    void pqlab_##name##_init(pqlab_keccak_state *st)                                                                   \
    {                                                                                                                  \
        keccak_init(st);                                                                                               \
    }                                                                                                                  \
    void pqlab_##name##_absorb(pqlab_keccak_state *st, const uint8_t *in, size_t inlen)                                \
    {                                                                                                                  \
        st->pos = ST_ABSORB(st->s, st->pos, (rate), in, inlen);                                                        \
    }                                                                                                                  \
    void pqlab_##name##_finalize(pqlab_keccak_state *st)                                                               \
    {                                                                                                                  \
        ST_FINALIZE(st->s, st->pos, (rate), DS_SHAKE);                                                                 \
        st->pos = (rate);                                                                                              \
    }                                                                                                                  \
    void pqlab_##name##_squeeze(uint8_t *out, size_t outlen, pqlab_keccak_state *st)                                   \
    {                                                                                                                  \
        st->pos = ST_SQUEEZE(out, outlen, st->s, st->pos, (rate));                                                     \
    }                                                                                                                  \
    void pqlab_##name##_squeezeblocks(uint8_t *out, size_t nblocks, pqlab_keccak_state *st)                            \
    {                                                                                                                  \
        ST_SQUEEZEBLOCKS(out, nblocks, st->s, (rate));                                                                 \
    }                                                                                                                  \
    void pqlab_##name(uint8_t *out, size_t outlen, const uint8_t *in, size_t inlen)                                    \
    {                                                                                                                  \
        pqlab_keccak_state st;                                                                                         \
        pqlab_##name##_init(&st);                                                                                      \
        pqlab_##name##_absorb(&st, in, inlen);                                                                         \
        pqlab_##name##_finalize(&st);                                                                                  \
        pqlab_##name##_squeeze(out, outlen, &st);                                                                      \
    }

DEFINE_SHAKE(shake128, PQLAB_SHAKE128_RATE)
DEFINE_SHAKE(shake256, PQLAB_SHAKE256_RATE)

#define DEFINE_SHA3(name, rate, outbytes)                                                                              \
    void pqlab_##name##_init(pqlab_keccak_state *st)                                                                   \
    {                                                                                                                  \
        keccak_init(st);                                                                                               \
    }                                                                                                                  \
    void pqlab_##name##_absorb(pqlab_keccak_state *st, const uint8_t *in, size_t inlen)                                \
    {                                                                                                                  \
        st->pos = ST_ABSORB(st->s, st->pos, (rate), in, inlen);                                                        \
    }                                                                                                                  \
    void pqlab_##name##_finalize(uint8_t *out, pqlab_keccak_state *st)                                                 \
    {                                                                                                                  \
        ST_FINALIZE(st->s, st->pos, (rate), DS_SHA3);                                                                  \
        st->pos = ST_SQUEEZE(out, (outbytes), st->s, (rate), (rate));                                                  \
    }                                                                                                                  \
    void pqlab_##name(uint8_t *out, const uint8_t *in, size_t inlen)                                                   \
    {                                                                                                                  \
        pqlab_keccak_state st;                                                                                         \
        pqlab_##name##_init(&st);                                                                                      \
        pqlab_##name##_absorb(&st, in, inlen);                                                                         \
        pqlab_##name##_finalize(out, &st);                                                                             \
    }

DEFINE_SHA3(sha3_224, PQLAB_SHA3_224_RATE, 28)
DEFINE_SHA3(sha3_256, PQLAB_SHA3_256_RATE, 32)
DEFINE_SHA3(sha3_384, PQLAB_SHA3_384_RATE, 48)
DEFINE_SHA3(sha3_512, PQLAB_SHA3_512_RATE, 64)
