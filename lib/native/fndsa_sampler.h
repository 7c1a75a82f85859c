/* SPDX-License-Identifier: MIT */
/* Contract of the native kernel of FN-DSA's base sampler (lib/fndsa/sampler.c,
 * fndsa_base_sampler; Falcon specification v1.2, algorithm 12), selected by
 * PQLAB_FNDSA_RCDT_NATIVE in the backend's meta header (lib/native/api.h). Provider:
 * lib/native/aarch64/fndsa_fft.c. Every fpr layer uses it (the comparison is on integers).
 *
 * pqlab_fndsa_rcdt_count_native(lo, hi): for the 72-bit value u = hi 2^64 + lo (hi < 256, the
 * PRNG's 64-bit word and byte as sampler.c draws them) returns #{i : u < RCDT[i]} over the 18
 * entries of lib/fndsa/tables.h's fndsa_rcdt, the value sampler.c's loop computes, for every
 * input. Constant time (u is secret): no branch or address depends on it. The constant-time
 * test's negative control (PQLAB_FNDSA_CT_NEGATIVE_CONTROL) keeps the C loop. */
#ifndef PQLAB_NATIVE_FNDSA_SAMPLER_H
#define PQLAB_NATIVE_FNDSA_SAMPLER_H

#include <stdint.h>

int pqlab_fndsa_rcdt_count_native(uint64_t lo, uint32_t hi);

#endif
