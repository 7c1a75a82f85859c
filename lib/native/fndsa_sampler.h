/* SPDX-License-Identifier: MIT */
/* Contract of the native kernels of FN-DSA's sampler: the base sampler (lib/fndsa/sampler.c,
 * fndsa_base_sampler; Falcon specification v1.2, algorithm 12), selected by
 * PQLAB_FNDSA_RCDT_NATIVE in the backend's meta header (lib/native/api.h). Provider:
 * lib/native/aarch64/fndsa_fft.c. Every fpr layer uses it (the comparison is on integers).
 *
 * pqlab_fndsa_rcdt_count_native(lo, hi): for the 72-bit value u = hi 2^64 + lo (hi < 256, the
 * PRNG's 64-bit word and byte as sampler.c draws them) returns #{i : u < RCDT[i]} over the 18
 * entries of lib/fndsa/tables.h's fndsa_rcdt, the value sampler.c's loop computes, for every
 * input. Constant time (u is secret): no branch or address depends on it. The constant-time
 * test's negative control (PQLAB_FNDSA_CT_NEGATIVE_CONTROL) keeps the C loop.
 *
 * PQLAB_FNDSA_PRNG_NATIVE: pqlab_fndsa_prng_refill_native(buf, key, cc) writes the 512 bytes of
 * one refill of sampler.c's PRNG: the ChaCha20 blocks (RFC 8439 block function; state words
 * 4..15 = key[0..11] with words 14 and 15 XORed with the low and high halves of the 64-bit block
 * counter) of counters cc .. cc + 7, word v of block u as little-endian bytes at 32 v + 4 u:
 * the bytes sampler.c's prng_refill writes, for every key and counter (the counter wraps modulo
 * 2^64). buf: any alignment. Constant time (the key is secret). */
#ifndef PQLAB_NATIVE_FNDSA_SAMPLER_H
#define PQLAB_NATIVE_FNDSA_SAMPLER_H

#include <stdint.h>

int pqlab_fndsa_rcdt_count_native(uint64_t lo, uint32_t hi);
void pqlab_fndsa_prng_refill_native(uint8_t buf[512], const uint32_t key[12], uint64_t cc);

#endif
