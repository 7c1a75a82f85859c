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
 * pqlab_fndsa_rcdt_count2_native(z, lo, hi): z[j] = pqlab_fndsa_rcdt_count_native(lo[j], hi[j])
 * for j = 0, 1 (the pair sampler's two candidates), the same properties.
 *
 * PQLAB_FNDSA_PRNG_NATIVE: pqlab_fndsa_prng_refill_native(buf, key, cc) writes the 512 bytes of
 * one refill of sampler.c's PRNG: the ChaCha20 blocks (RFC 8439 block function; state words
 * 4..15 = key[0..11] with words 14 and 15 XORed with the low and high halves of the 64-bit block
 * counter) of counters cc .. cc + 7, word v of block u as little-endian bytes at 32 v + 4 u:
 * the bytes sampler.c's prng_refill writes, for every key and counter (the counter wraps modulo
 * 2^64). buf: any alignment. Constant time (the key is secret).
 *
 * PQLAB_FNDSA_BEREXP_NATIVE: pqlab_fndsa_berexp_threshold_native(x, ccs, c) returns BerExp's
 * threshold, sampler.c's berexp_threshold(x, ccs) with the native-double fpr layer (fpr = double,
 * PQLAB_FNDSA_FPR_NATIVE: the implementation `fpu` alone calls it): s = trunc(x / ln 2) (x times
 * the double 1/ln 2), r = x - s ln 2 (two roundings: no fused multiply-add unless the FMA study's
 * PQLAB_FNDSA_FMA, where the C is compiled with contraction too), the 64-bit fixed-point Horner
 * polynomial fndsa_expm_p63(r, ccs) with the coefficients c = lib/fndsa/tables.h's fndsa_expm_c,
 * and (2 p - 1) / 2^min(s, 63) (s as an unsigned 32-bit word), the same 64-bit value for every
 * input in the domain |x| < 2^30 (finite), 0 <= ccs < 1, where each truncation's operand is
 * below 2^63 in magnitude and the hardware conversion equals fpr.h's fpr_trunc (BerExp's
 * callers have 0 <= x < 64 ln 2 + 1 and ccs = sigma_min / sigma' < 1). Never declines.
 * Constant time (x and ccs are secret): no branch or address depends on them; FCVTZS, UMULH and
 * the register shift have data-independent latency on the cores this serves.
 *
 * pqlab_fndsa_berexp_threshold3_native(t, x, ccs, c): t[l] = pqlab_fndsa_berexp_threshold_native(
 * x[l], ccs, c) for l = 0, 1, 2, every x[l] in the domain above (the three evaluations side by
 * side, so that their serial polynomial chains overlap; sampler.c's SamplerZ pair evaluates a
 * candidate and the speculative next one with it). Never declines; constant time as above.
 *
 * pqlab_fndsa_samplerz_centres_native(s, r, mu): for l = 0, 1, s[l] = (int32_t)fpr_floor(mu[l]) and
 * r[l] = fpr_sub(mu[l], fpr_of32(s[l])) with the native-double fpr layer (SamplerZ's split of its
 * centre, sampler.c), for |mu[l]| < 2^31: the same values (FCVTMS, the floor as an integer, where
 * fpr.h takes the double apart with integer instructions; a subnormal mu has floor 0 there, and
 * here). Never declines; constant time (mu is
 * secret): FCVTMS has data-independent latency on the cores this serves. */
#ifndef PQLAB_NATIVE_FNDSA_SAMPLER_H
#define PQLAB_NATIVE_FNDSA_SAMPLER_H

#include <stdint.h>

int pqlab_fndsa_rcdt_count_native(uint64_t lo, uint32_t hi);
void pqlab_fndsa_rcdt_count2_native(int z[2], const uint64_t lo[2], const uint32_t hi[2]);
void pqlab_fndsa_prng_refill_native(uint8_t buf[512], const uint32_t key[12], uint64_t cc);
uint64_t pqlab_fndsa_berexp_threshold_native(double x, double ccs, const uint64_t c[13]);
void pqlab_fndsa_berexp_threshold3_native(uint64_t t[3], const double x[3], double ccs, const uint64_t c[13]);
void pqlab_fndsa_samplerz_centres_native(int32_t s[2], double r[2], const double mu[2]);

#endif
