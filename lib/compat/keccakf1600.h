/* SPDX-License-Identifier: MIT */
/* Compat: byte access to a Keccak-f[1600] state of 25 uint64_t words, as mupq/pqm4 code
 * uses it (with or without the fips202.h contexts, whose ctx[0..24] are such a state).
 * offset + length <= 200; bytes are numbered as in FIPS 202 (section 3.1.2: lane
 * x + 5y, little-endian). The words hold the same layout as the fips202.h contexts:
 * the Keccak module's (opaque; see fips202.h), so the state must only be touched through
 * these three functions (or
 * zeroed, or copied whole); as with pqm4's assembly Keccak, reading the words directly
 * is not portable. */
#ifndef KECCAKF1600_H
#define KECCAKF1600_H

#include <stdint.h>

void KeccakF1600_StateExtractBytes(uint64_t *state, unsigned char *data, unsigned int offset, unsigned int length);
void KeccakF1600_StateXORBytes(uint64_t *state, const unsigned char *data, unsigned int offset, unsigned int length);
void KeccakF1600_StatePermute(uint64_t *state);

#endif
