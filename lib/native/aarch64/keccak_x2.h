/* SPDX-License-Identifier: MIT */
/* The two-way Keccak-f[1600] kernels of the AArch64 backend (keccak.c): two states in the
 * standard layout (lane x + 5y) permuted together, one in each 64-bit element of the
 * vectors. pqlab_keccakf1600x4 (lib/common/fips202x4.h) is two calls of one of them; the
 * differential test (tests/test_native_aarch64.py) calls both directly. Any state is a
 * valid input; s0 and s1 must not overlap. */
#ifndef PQLAB_NATIVE_AARCH64_KECCAK_X2_H
#define PQLAB_NATIVE_AARCH64_KECCAK_X2_H

#include "pqlab_config.h" /* an export's symbol namespace (docs/export.md); empty in the tree */

#include <stdint.h>

/* plain Advanced SIMD, every ARMv8-A CPU */
void pqlab_aarch64_keccakf1600x2_neon(uint64_t s0[25], uint64_t s1[25]);
/* FEAT_SHA3 instructions: call only when pqlab_aarch64_features() has PQLAB_AARCH64_FEAT_SHA3
 * (else the CPU raises an undefined-instruction exception) */
void pqlab_aarch64_keccakf1600x2_sha3(uint64_t s0[25], uint64_t s1[25]);

#endif
