/* SPDX-License-Identifier: MIT */
/* Internal to lib/compat (not a mupq/PQClean header): the sponge on the state of the
 * compat Keccak contexts, shared by compat_fips202.c and compat_sp800_185.c.
 *
 * The state is 25 uint64_t words in the layout of pqlab's Keccak module (lib/common/fips202.h:
 * opaque; these functions are that module's narrow interface under compat names).
 * These functions and keccakf1600.h's KeccakF1600_State* use it; nothing else may read or
 * write the words (zeroing and copying whole states is fine). `pos` and `ds` as in
 * lib/common/fips202.h (pqlab_keccak_absorb etc.): byte position in the current rate
 * block, domain byte (suffix bits + first pad bit). */
#ifndef PQLAB_COMPAT_KECCAK_H
#define PQLAB_COMPAT_KECCAK_H

#include <stddef.h>
#include <stdint.h>

void pqlab_compat_keccak_permute(uint64_t s[25]);
/* byte access, lanes little-endian as seen through the layout; offset + len <= 200 */
void pqlab_compat_keccak_xorbytes(uint64_t s[25], const uint8_t *in, unsigned int offset, unsigned int len);
void pqlab_compat_keccak_extractbytes(const uint64_t s[25], uint8_t *out, unsigned int offset, unsigned int len);
/* sponge: absorb returns the new pos (< rate), finalize pads the open block at pos,
 * squeeze returns the new pos (pos == rate: permute first), squeezeblocks outputs whole
 * blocks from a block-aligned state */
unsigned int pqlab_compat_keccak_absorb(uint64_t s[25], unsigned int pos, unsigned int rate, const uint8_t *in,
                                        size_t inlen);
void pqlab_compat_keccak_finalize(uint64_t s[25], unsigned int pos, unsigned int rate, uint8_t ds);
unsigned int pqlab_compat_keccak_squeeze(uint8_t *out, size_t outlen, uint64_t s[25], unsigned int pos,
                                         unsigned int rate);
void pqlab_compat_keccak_squeezeblocks(uint8_t *out, size_t nblocks, uint64_t s[25], unsigned int rate);

#endif
