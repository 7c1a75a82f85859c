/* SPDX-License-Identifier: MIT */
/* Toy mixing function of the dummy test implementations (NOT cryptographic):
 * absorbs bytes into 8 32-bit lanes with bijective updates and finishes with
 * bijective rounds, so two inputs of equal length that differ anywhere give
 * different 32-byte outputs. Enough to test the harness's tamper checks. */
#ifndef DUMMY_MIX_H
#define DUMMY_MIX_H

#include <stddef.h>
#include <stdint.h>

static inline uint32_t dummy_rotl(uint32_t x, int r)
{
    return (x << r) | (x >> (32 - r));
}

static inline void dummy_mix(uint8_t out[32], const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
    uint32_t h[8] = {0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
                     0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u};
    size_t n = 0;
    for (size_t i = 0; i < alen + blen; i++, n++) {
        uint8_t byte = i < alen ? a[i] : b[i - alen];
        uint32_t j = (uint32_t)(n & 7u);
        h[j] = dummy_rotl(h[j] ^ byte, 5) * 0x9e3779b1u + h[(j + 1) & 7u];
    }
    h[0] ^= (uint32_t)(alen + blen);
    for (int r = 0; r < 8; r++) {
        for (int j = 0; j < 8; j++) {
            h[j] = dummy_rotl(h[j], 7) * 0x85ebca6bu + h[(j + 3) & 7];
        }
    }
    for (int j = 0; j < 8; j++) {
        for (int k = 0; k < 4; k++) {
            out[4 * j + k] = (uint8_t)(h[j] >> (8 * k));
        }
    }
}

#endif
