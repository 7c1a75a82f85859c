/* SPDX-License-Identifier: MIT */
/* SHA-3 and SHAKE (FIPS 202): Keccak-f[1600], sponge with incremental absorb and
 * squeeze. All functions are constant time in the data (only lengths steer control
 * flow).
 *
 * The Keccak state module. A Keccak state is 25 uint64_t words whose layout belongs to
 * this module (fips202.c) and the Keccak kernels of the native backend it selects
 * (lib/native/api.h): standard FIPS 202 lanes on a platform without a backend,
 * bit-interleaved lanes on ARMv7E-M, possibly something else on the next backend. Code
 * outside the module treats the words as opaque and uses only this narrow interface:
 *   pqlab_keccak_init          initialise (the zero state)
 *   pqlab_keccak_xorbytes      absorb bytes: XOR bytes into the state at a byte offset
 *   pqlab_keccak_extractbytes  extract bytes from a byte offset
 *   pqlab_keccak_permute       Keccak-f[1600]
 *   pqlab_keccak_xorlanes      XOR whole lanes of one state into another (a chain of
 *                              hashes whose output is the next input never leaves the
 *                              layout; SLH-DSA's WOTS+ chains)
 * and the sponge built on them (pqlab_keccak_absorb/finalize/squeeze/squeezeblocks).
 * Copying or zeroing a whole state is fine (the zero state is the zero words in every
 * layout). Bytes are numbered as in FIPS 202 section 3.1.2: byte i is byte i % 8
 * (little-endian) of lane i / 8, lane x + 5y. The one function that takes the standard
 * layout is pqlab_keccakf1600 (the permutation of FIPS 202 on plain lanes, for tests and
 * callers that hold plain lanes); sponges do not use it.
 *
 * pqlab_keccak_state is such a state plus `pos`, the byte offset inside the current
 * rate block: while absorbing, bytes already XORed into the block; after finalize, bytes
 * of the current output block already squeezed (finalize sets it to the rate, so the
 * first squeeze permutes first). */
#ifndef PQLAB_FIPS202_H
#define PQLAB_FIPS202_H

#include "pqlab_config.h" /* an export's configuration (docs/export.md); empty in the tree */

#include <stddef.h>
#include <stdint.h>

#include "../native/api.h" /* which Keccak kernels the backend provides */

/* Keccak-f[1600] from the application (an export's pqlab_config.h sets
 * PQLAB_KECCAKF1600_EXTERNAL from PQLAB_CONFIG_KECCAKF1600, docs/export.md): the function it
 * names, void f(uint64_t s[25]), permutes a state in the standard layout (lane x + 5y,
 * little-endian) and replaces the portable permutation and every native Keccak kernel, so
 * that none of pqlab's Keccak code is built or linked (a hardware SHA-3 unit, a ROM routine). */
#ifdef PQLAB_KECCAKF1600_EXTERNAL
#undef PQLAB_KECCAKF1600_NATIVE
#undef PQLAB_KECCAKF1600_NATIVE_STD
#undef PQLAB_KECCAKF1600X4_NATIVE
#undef PQLAB_KECCAKX4_NATIVE
#undef pqlab_keccakf1600
#define pqlab_keccakf1600 PQLAB_KECCAKF1600_EXTERNAL
#endif

#define PQLAB_SHAKE128_RATE 168
#define PQLAB_SHAKE256_RATE 136
#define PQLAB_SHA3_224_RATE 144
#define PQLAB_SHA3_256_RATE 136
#define PQLAB_SHA3_384_RATE 104
#define PQLAB_SHA3_512_RATE 72

typedef struct {
    uint64_t s[25];
    unsigned int pos;
} pqlab_keccak_state;

/* Keccak-f[1600] (FIPS 202 section 3.3 / 3.4, 24 rounds) on the standard layout */
void pqlab_keccakf1600(uint64_t s[25]);

/* ---- the narrow interface on a module-layout state (see above) ---- */
/* initialise: the zero state */
void pqlab_keccak_init(uint64_t s[25]);
/* Keccak-f[1600] on the module layout; counted in the hashing share (hashprof.h) */
void pqlab_keccak_permute(uint64_t s[25]);
/* absorb / extract bytes: offset + len <= 200 */
void pqlab_keccak_xorbytes(uint64_t s[25], const uint8_t *in, unsigned int offset, unsigned int len);
void pqlab_keccak_extractbytes(const uint64_t s[25], uint8_t *out, unsigned int offset, unsigned int len);
/* dst bytes dst_offset .. + len ^= src bytes src_offset .. + len, where both offsets and len
 * are multiples of 8 (whole lanes) and each range ends at or before byte 200. Inline: every
 * layout of the module keeps lane i, in whatever bit order, in word i (a property of the
 * module that this function relies on and callers do not), so it is a word-wise XOR; it
 * runs once per hash in SLH-DSA's WOTS+ chains, where a call would cost a third as much
 * again. */
static inline void pqlab_keccak_xorlanes(uint64_t dst[25], unsigned int dst_offset, const uint64_t src[25],
                                         unsigned int src_offset, unsigned int len)
{
    uint64_t *d = dst + (dst_offset >> 3);
    const uint64_t *q = src + (src_offset >> 3);
    for (unsigned int i = 0; i < (len >> 3); i++) {
        d[i] ^= q[i];
    }
}

/* Generic sponge on a module-layout state (used by SHA-3/SHAKE here, by cSHAKE, by the x4
 * fallback and by the compat layer). `rate` in bytes (< 200), `pos` as above.
 * absorb/squeeze return the new pos. `ds` is the domain byte: the message suffix bits
 * followed by the first padding bit (0x06 SHA-3, 0x1F SHAKE, 0x04 cSHAKE). */
unsigned int pqlab_keccak_absorb(uint64_t s[25], unsigned int pos, unsigned int rate, const uint8_t *in, size_t inlen);
void pqlab_keccak_finalize(uint64_t s[25], unsigned int pos, unsigned int rate, uint8_t ds);
unsigned int pqlab_keccak_squeeze(uint8_t *out, size_t outlen, uint64_t s[25], unsigned int pos, unsigned int rate);
void pqlab_keccak_squeezeblocks(uint8_t *out, size_t nblocks, uint64_t s[25], unsigned int rate);

/* incremental: init, absorb (any number of calls), finalize, squeeze (any number of calls) */
void pqlab_shake128_init(pqlab_keccak_state *st);
void pqlab_shake128_absorb(pqlab_keccak_state *st, const uint8_t *in, size_t inlen);
void pqlab_shake128_finalize(pqlab_keccak_state *st);
void pqlab_shake128_squeeze(uint8_t *out, size_t outlen, pqlab_keccak_state *st);
/* whole blocks; only on a block-aligned state (right after finalize or after whole
 * blocks were squeezed) */
void pqlab_shake128_squeezeblocks(uint8_t *out, size_t nblocks, pqlab_keccak_state *st);
void pqlab_shake128(uint8_t *out, size_t outlen, const uint8_t *in, size_t inlen);

void pqlab_shake256_init(pqlab_keccak_state *st);
void pqlab_shake256_absorb(pqlab_keccak_state *st, const uint8_t *in, size_t inlen);
void pqlab_shake256_finalize(pqlab_keccak_state *st);
void pqlab_shake256_squeeze(uint8_t *out, size_t outlen, pqlab_keccak_state *st);
void pqlab_shake256_squeezeblocks(uint8_t *out, size_t nblocks, pqlab_keccak_state *st);
void pqlab_shake256(uint8_t *out, size_t outlen, const uint8_t *in, size_t inlen);

void pqlab_sha3_224_init(pqlab_keccak_state *st);
void pqlab_sha3_224_absorb(pqlab_keccak_state *st, const uint8_t *in, size_t inlen);
void pqlab_sha3_224_finalize(uint8_t *out, pqlab_keccak_state *st); /* 28 bytes */
void pqlab_sha3_224(uint8_t *out, const uint8_t *in, size_t inlen);
void pqlab_sha3_256_init(pqlab_keccak_state *st);
void pqlab_sha3_256_absorb(pqlab_keccak_state *st, const uint8_t *in, size_t inlen);
void pqlab_sha3_256_finalize(uint8_t *out, pqlab_keccak_state *st); /* 32 bytes */
void pqlab_sha3_256(uint8_t *out, const uint8_t *in, size_t inlen);

void pqlab_sha3_384_init(pqlab_keccak_state *st);
void pqlab_sha3_384_absorb(pqlab_keccak_state *st, const uint8_t *in, size_t inlen);
void pqlab_sha3_384_finalize(uint8_t *out, pqlab_keccak_state *st); /* 48 bytes */
void pqlab_sha3_384(uint8_t *out, const uint8_t *in, size_t inlen);

void pqlab_sha3_512_init(pqlab_keccak_state *st);
void pqlab_sha3_512_absorb(pqlab_keccak_state *st, const uint8_t *in, size_t inlen);
void pqlab_sha3_512_finalize(uint8_t *out, pqlab_keccak_state *st); /* 64 bytes */
void pqlab_sha3_512(uint8_t *out, const uint8_t *in, size_t inlen);

#endif
