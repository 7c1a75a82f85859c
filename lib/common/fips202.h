/* SPDX-License-Identifier: MIT */
/* SHA-3 and SHAKE (FIPS 202): Keccak-f[1600], sponge with incremental absorb and
 * squeeze. All functions are constant time in the data (only lengths steer control
 * flow). State layout of the bare-state functions (pqlab_keccakf1600, pqlab_keccak_*):
 * s[i] is lane A[x][y] with i = x + 5*y, lanes little-endian (FIPS 202 section 3.1.2).
 * The `s` of a pqlab_keccak_state is private to fips202.c: with a native backend
 * (PQLAB_KECCAKF1600_NATIVE, docs/native.md) it may hold the lanes in the backend's
 * layout (bit-interleaved on ARMv7E-M); use only the pqlab_shake* / pqlab_sha3_*
 * functions on it (copying the whole struct is fine). `pos` is the byte offset inside
 * the current rate block:
 * while absorbing, bytes already XORed into the block; after finalize, bytes of the
 * current output block already squeezed (finalize sets it to the rate, so the first
 * squeeze permutes first). */
#ifndef PQLAB_FIPS202_H
#define PQLAB_FIPS202_H

#include <stddef.h>
#include <stdint.h>

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

/* Keccak-f[1600] (FIPS 202 section 3.3 / 3.4, 24 rounds) */
void pqlab_keccakf1600(uint64_t s[25]);

#ifdef PQLAB_KECCAKF1600_NATIVE
/* Keccak-f[1600] on a bit-interleaved state (lane i held as E | O << 32, E its even
 * bits, O its odd bits; docs/native.md), through the native backend; counted in the
 * hashing share like pqlab_keccakf1600. Only with a backend that has this layout. */
void pqlab_keccakf1600_il(uint64_t s[25]);
/* the backend's lane conversions: nlanes little-endian lanes of `in` XORed into s
 * (interleaved), and nlanes interleaved lanes of s out as little-endian bytes */
void pqlab_keccak_native_xor_il(uint64_t *s, const uint8_t *in, unsigned int nlanes);
void pqlab_keccak_native_extract_il(uint8_t *out, const uint64_t *s, unsigned int nlanes);
#endif

/* Generic sponge on a bare state (used by SHA-3/SHAKE here, by cSHAKE, by the x4
 * fallback and, without a native Keccak backend, by the compat layer). `rate` in bytes (< 200), `pos` as above.
 * absorb/squeeze return the new pos. `ds` is the domain byte: the message suffix bits
 * followed by the first padding bit (0x06 SHA-3, 0x1F SHAKE, 0x04 cSHAKE). */
unsigned int pqlab_keccak_absorb(uint64_t s[25], unsigned int pos, unsigned int rate, const uint8_t *in, size_t inlen);
void pqlab_keccak_finalize(uint64_t s[25], unsigned int pos, unsigned int rate, uint8_t ds);
unsigned int pqlab_keccak_squeeze(uint8_t *out, size_t outlen, uint64_t s[25], unsigned int pos, unsigned int rate);
void pqlab_keccak_squeezeblocks(uint8_t *out, size_t nblocks, uint64_t s[25], unsigned int rate);
/* byte access to the state (lanes little-endian), offset + len <= 200 */
void pqlab_keccak_xorbytes(uint64_t s[25], const uint8_t *in, unsigned int offset, unsigned int len);
void pqlab_keccak_extractbytes(const uint64_t s[25], uint8_t *out, unsigned int offset, unsigned int len);

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
