/* SPDX-License-Identifier: MIT */
/* The standard-layout entry of the RV32 backend's Keccak-f[1600] (lib/native/api.h,
 * PQLAB_KECCAKF1600_NATIVE): the permutation and the lane conversions are keccakf1600.S
 * (gen_keccakf1600.py). A lane v (little-endian) is held as
 * E | O << 32, E = the even bits of v, O = its odd bits (docs/native.md). Constant time. */
#include "../api.h"

/* standard layout: convert, permute, convert back */
void pqlab_keccakf1600_native(uint64_t s[25])
{
    uint64_t t[25];
    for (unsigned int i = 0; i < 25; i++) {
        t[i] = 0;
    }
    pqlab_keccak_native_xor_il(t, (const uint8_t *)s, 25);
    pqlab_keccakf1600_native_il(t);
    pqlab_keccak_native_extract_il((uint8_t *)s, t, 25);
    for (unsigned int i = 0; i < 25; i++) {
        ((volatile uint64_t *)t)[i] = 0;
    }
}
