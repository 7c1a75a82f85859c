/* SPDX-License-Identifier: MIT */
/* Bit packing of ML-DSA polynomials (FIPS 204 section 7.1, Algorithms 16-19).
 * BitsToBytes order: coefficient i occupies bits [i*b, (i+1)*b) of the output,
 * least significant bit first. The loops depend only on the width b (public), so
 * packing secret coefficients is constant time. */
#include "kernels.h"

/* SimpleBitPack (neg = 0): stores a_i; BitPack (neg = 1): stores off - a_i, with
 * off = b for BitPack(w, a, b). Stored values lie in [0, 2^bits). */
static inline void pack_coeffs(uint8_t *r, const int32_t *a, unsigned int bits, int32_t off, int neg)
{
    uint32_t acc = 0; /* 32 bits suffice (64-bit shifts are slow on 32-bit cores) */
    unsigned int nb = 0;
    size_t o = 0;
    for (unsigned int i = 0; i < MLDSA_N; i++) {
        const uint32_t v = neg ? (uint32_t)(off - a[i]) : (uint32_t)a[i];
        acc |= v << nb; /* nb < 8, bits <= 20: at most 27 bits in use */
        nb += bits;
        while (nb >= 8) {
            r[o++] = (uint8_t)acc;
            acc >>= 8;
            nb -= 8;
        }
    }
}

/* inverse of pack: SimpleBitUnpack / BitUnpack (Algorithms 18, 19) */
static inline void unpack_coeffs(int32_t *a, const uint8_t *r, unsigned int bits, int32_t off, int neg)
{
    uint32_t acc = 0; /* nb < bits <= 20 before adding 8 bits: at most 27 bits */
    unsigned int nb = 0;
    size_t o = 0;
    const uint32_t mask = (1u << bits) - 1u;
    for (unsigned int i = 0; i < MLDSA_N; i++) {
        while (nb < bits) {
            acc |= (uint32_t)r[o++] << nb;
            nb += 8;
        }
        const uint32_t v = acc & mask;
        acc >>= bits;
        nb -= bits;
        a[i] = neg ? off - (int32_t)v : (int32_t)v;
    }
}

void mldsa_polyt1_pack_c(uint8_t r[MLDSA_POLYT1_BYTES], const int32_t a[MLDSA_N])
{
    pack_coeffs(r, a, 10, 0, 0);
}

void mldsa_polyt1_unpack_c(int32_t a[MLDSA_N], const uint8_t r[MLDSA_POLYT1_BYTES])
{
    unpack_coeffs(a, r, 10, 0, 0);
}

void mldsa_polyt0_pack_c(uint8_t r[MLDSA_POLYT0_BYTES], const int32_t a[MLDSA_N])
{
    pack_coeffs(r, a, 13, 1 << (MLDSA_D - 1), 1);
}

void mldsa_polyt0_unpack_c(int32_t a[MLDSA_N], const uint8_t r[MLDSA_POLYT0_BYTES])
{
    unpack_coeffs(a, r, 13, 1 << (MLDSA_D - 1), 1);
}

#if MLDSA_ETA == 2
#define ETA_BITS 3
#else
#define ETA_BITS 4
#endif

void mldsa_polyeta_pack_c(uint8_t r[MLDSA_POLYETA_BYTES], const int32_t a[MLDSA_N])
{
    pack_coeffs(r, a, ETA_BITS, MLDSA_ETA, 1);
}

uint32_t mldsa_polyeta_unpack_c(int32_t a[MLDSA_N], const uint8_t r[MLDSA_POLYETA_BYTES])
{
    uint32_t bad = 0;
    unpack_coeffs(a, r, ETA_BITS, MLDSA_ETA, 1);
    /* stored eta - a_i is in [0, 2^ETA_BITS); only [0, 2 eta] is a valid key:
     * a_i < -eta makes a_i + eta negative */
    for (unsigned int i = 0; i < MLDSA_N; i++) {
        bad |= (uint32_t)(a[i] + MLDSA_ETA) >> 31;
    }
    return bad;
}

#if MLDSA_GAMMA1 == (1 << 17)
#define Z_BITS 18
#else
#define Z_BITS 20
#endif

void mldsa_polyz_pack_c(uint8_t r[MLDSA_POLYZ_BYTES], const int32_t a[MLDSA_N])
{
    pack_coeffs(r, a, Z_BITS, MLDSA_GAMMA1, 1);
}

void mldsa_polyz_unpack_c(int32_t a[MLDSA_N], const uint8_t r[MLDSA_POLYZ_BYTES])
{
    unpack_coeffs(a, r, Z_BITS, MLDSA_GAMMA1, 1);
}

void mldsa_polyw1_pack_c(uint8_t r[MLDSA_POLYW1_BYTES], const int32_t a[MLDSA_N])
{
#if MLDSA_GAMMA2 == (MLDSA_Q - 1) / 88
    pack_coeffs(r, a, 6, 0, 0);
#else
    pack_coeffs(r, a, 4, 0, 0);
#endif
}
