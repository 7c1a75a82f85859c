/* SPDX-License-Identifier: MIT */
/* An application's own Keccak-f[1600] for tests/test_export.py: stands for a hardware SHA-3 unit
 * that an export reaches through PQLAB_CONFIG_KECCAKF1600 (docs/export.md). Written from FIPS 202
 * section 3.2 (theta, rho, pi, chi, iota; 24 rounds), lanes in the standard layout (x + 5y,
 * little-endian); deliberately plain, it shares no code with lib/common/fips202.c. Counts its
 * calls so a test can see it ran. */
#include <stdint.h>

unsigned long user_keccak_calls;

/* rho offsets r[x + 5y] (FIPS 202 Table 2) */
static const unsigned int rho[25] = {0,  1,  62, 28, 27, 36, 44, 6,  55, 20, 3,  10, 43,
                                     25, 39, 41, 45, 15, 21, 8,  18, 2,  61, 56, 14};

static uint64_t rotl(uint64_t v, unsigned int n)
{
    return n == 0 ? v : (v << n) | (v >> (64 - n));
}

/* rc(t) of FIPS 202 Algorithm 5: an LFSR over x^8 + x^6 + x^5 + x^4 + 1 */
static unsigned int rc_bit(unsigned int t)
{
    unsigned int r = 1;
    for (unsigned int i = 0; i < t % 255; i++) {
        r <<= 1;
        if (r & 0x100u) {
            r ^= 0x171u;
        }
    }
    return r & 1u;
}

void user_keccakf1600(uint64_t s[25])
{
    user_keccak_calls++;
    for (unsigned int ir = 0; ir < 24; ir++) {
        uint64_t c[5], b[25];
        for (unsigned int x = 0; x < 5; x++) {
            c[x] = s[x] ^ s[x + 5] ^ s[x + 10] ^ s[x + 15] ^ s[x + 20];
        }
        for (unsigned int x = 0; x < 5; x++) {
            uint64_t d = c[(x + 4) % 5] ^ rotl(c[(x + 1) % 5], 1);
            for (unsigned int y = 0; y < 5; y++) {
                s[x + 5 * y] ^= d;
            }
        }
        /* rho and pi: B[y, 2x + 3y] = rot(A[x, y], r[x, y]) */
        for (unsigned int x = 0; x < 5; x++) {
            for (unsigned int y = 0; y < 5; y++) {
                b[y + 5 * ((2 * x + 3 * y) % 5)] = rotl(s[x + 5 * y], rho[x + 5 * y]);
            }
        }
        for (unsigned int x = 0; x < 5; x++) {
            for (unsigned int y = 0; y < 5; y++) {
                s[x + 5 * y] = b[x + 5 * y] ^ (~b[(x + 1) % 5 + 5 * y] & b[(x + 2) % 5 + 5 * y]);
            }
        }
        uint64_t rc = 0;
        for (unsigned int j = 0; j <= 6; j++) {
            rc |= (uint64_t)rc_bit(j + 7 * ir) << ((1u << j) - 1);
        }
        s[0] ^= rc;
    }
}
