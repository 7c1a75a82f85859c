/* SPDX-License-Identifier: MIT */
/* Encoding and compression kernels, FIPS 203 section 4.2.1:
 * ByteEncode_d / ByteDecode_d (Algorithms 5 and 6), Compress_d / Decompress_d
 * (equations 4.7 and 4.8). Portable C; see kernels.h for the contract. */
#include "kernels.h"
#include "reduce.h"

/* ByteEncode_d: coefficient i occupies bits d*i .. d*i+d-1 of the output, least
 * significant bit first (Algorithm 5 with BitsToBytes, Algorithm 3). The bit
 * accumulator holds at most 7 + d <= 19 bits. Loop bounds depend only on d. */
static void pack(uint8_t *out, const uint16_t *v, unsigned int n, unsigned int d)
{
    uint32_t acc = 0;
    unsigned int bits = 0;
    for (unsigned int i = 0; i < n; i++) {
        acc |= (uint32_t)v[i] << bits;
        bits += d;
        while (bits >= 8) {
            *out++ = (uint8_t)acc;
            acc >>= 8;
            bits -= 8;
        }
    }
}

/* ByteDecode_d without the final reduction: the inverse of pack. */
static void unpack(uint16_t *v, const uint8_t *in, unsigned int n, unsigned int d)
{
    uint32_t acc = 0;
    unsigned int bits = 0;
    const uint32_t mask = (1u << d) - 1;
    for (unsigned int i = 0; i < n; i++) {
        while (bits < d) {
            acc |= (uint32_t)(*in++) << bits;
            bits += 8;
        }
        v[i] = (uint16_t)(acc & mask);
        acc >>= d;
        bits -= d;
    }
}

/* Compress_d(x) = round(2^d x / q) mod 2^d for canonical x (equation 4.7).
 * Since q is odd, 2^d x / q is never a half-integer, so
 * round(2^d x / q) = floor((2^d x + (q-1)/2) / q). The division by q is a
 * multiplication by M = ceil(2^35 / q) = 10321340 and a shift by 35: with
 * N = 2^d x + 1664 <= 2^11 * 3328 + 1664 < 2^23 and M = 2^35/q + e, 0 <= e < 1,
 * floor(N M / 2^35) = floor(N / q + N e / 2^35) and N e / 2^35 < 2^23 / 2^35
 * < 1/q, which is less than the gap between N/q and the next integer (at least
 * 1/q), so the result is floor(N / q) (also checked for all x and every d used).
 * N M < 2^46, so the product needs 64 bits: one UMULL on Cortex-M, constant time.
 * No division instruction touches the (secret) coefficient: KyberSlash. */
static inline uint16_t compress(int16_t x, unsigned int d)
{
    uint64_t n = ((uint64_t)(uint16_t)x << d) + (MLKEM_Q - 1) / 2;
    return (uint16_t)(((n * 10321340u) >> 35) & ((1u << d) - 1));
}

/* Decompress_d(y) = round(q y / 2^d) = floor((q y + 2^(d-1)) / 2^d) (equation
 * 4.8, ties cannot occur for d >= 1 because q is odd); result in [0, q). */
static inline int16_t decompress(uint16_t y, unsigned int d)
{
    return (int16_t)(((uint32_t)y * MLKEM_Q + (1u << (d - 1))) >> d);
}

/* c mod q in [0, q) for any int16 c: Barrett, then a masked add of q. */
void mlkem_canonical_c(mlkem_poly *r)
{
    for (unsigned int i = 0; i < MLKEM_N; i++) {
        r->c[i] = mlkem_caddq(mlkem_barrett_reduce(r->c[i]));
    }
}

/* c mod q in [0, q) for |c| < 2q (the encoders' contract): add 2q where negative,
 * subtract q, add q back where negative (masks, no branch). */
static inline uint16_t canon2q(int16_t c)
{
    int32_t x = c;
    x += (x >> 31) & (2 * MLKEM_Q);
    x -= MLKEM_Q;
    x += (x >> 31) & MLKEM_Q;
    return (uint16_t)x;
}

void mlkem_tobytes12_c(uint8_t out[MLKEM_POLYBYTES], const mlkem_poly *a)
{
    for (unsigned int i = 0; i < MLKEM_N / 2; i++) {
        uint16_t t0 = canon2q(a->c[2 * i]), t1 = canon2q(a->c[2 * i + 1]);
        out[3 * i] = (uint8_t)t0;
        out[3 * i + 1] = (uint8_t)((t0 >> 8) | (t1 << 4));
        out[3 * i + 2] = (uint8_t)(t1 >> 4);
    }
}

/* ByteDecode_12 reduces modulo q (Algorithm 6, m = q for d = 12): values are
 * below 4096 < 2q, so one conditional subtraction, done with a mask. */
void mlkem_frombytes12_c(mlkem_poly *r, const uint8_t in[MLKEM_POLYBYTES])
{
    for (unsigned int i = 0; i < MLKEM_N / 2; i++) {
        int16_t t0 = (int16_t)((in[3 * i] | ((uint16_t)in[3 * i + 1] << 8)) & 0xfff);
        int16_t t1 = (int16_t)((in[3 * i + 1] >> 4) | ((uint16_t)in[3 * i + 2] << 4));
        r->c[2 * i] = mlkem_caddq((int16_t)(t0 - MLKEM_Q));
        r->c[2 * i + 1] = mlkem_caddq((int16_t)(t1 - MLKEM_Q));
    }
}

static void compress_d(uint8_t *out, const mlkem_poly *a, unsigned int d)
{
    uint16_t t[8];
    for (unsigned int i = 0; i < MLKEM_N; i += 8) {
        for (unsigned int j = 0; j < 8; j++) {
            t[j] = compress((int16_t)canon2q(a->c[i + j]), d);
        }
        pack(out, t, 8, d); /* 8 coefficients are d whole bytes */
        out += d;
    }
}

static void decompress_d(mlkem_poly *r, const uint8_t *in, unsigned int d)
{
    uint16_t t[8];
    for (unsigned int i = 0; i < MLKEM_N; i += 8) {
        unpack(t, in, 8, d);
        in += d;
        for (unsigned int j = 0; j < 8; j++) {
            r->c[i + j] = decompress(t[j], d);
        }
    }
}

void mlkem_compress_du_c(uint8_t out[MLKEM_POLYCOMPRESSED_DU], const mlkem_poly *a)
{
    compress_d(out, a, MLKEM_DU);
}
void mlkem_decompress_du_c(mlkem_poly *r, const uint8_t in[MLKEM_POLYCOMPRESSED_DU])
{
    decompress_d(r, in, MLKEM_DU);
}
void mlkem_compress_dv_c(uint8_t out[MLKEM_POLYCOMPRESSED_DV], const mlkem_poly *a)
{
    compress_d(out, a, MLKEM_DV);
}
void mlkem_decompress_dv_c(mlkem_poly *r, const uint8_t in[MLKEM_POLYCOMPRESSED_DV])
{
    decompress_d(r, in, MLKEM_DV);
}

/* r += b as int16 (callers keep |r + b| < 2^15). */
void mlkem_add_c(mlkem_poly *r, const mlkem_poly *b)
{
    for (unsigned int i = 0; i < MLKEM_N; i++) {
        r->c[i] = (int16_t)(r->c[i] + b->c[i]);
    }
}

/* The modulus check of FIPS 203 section 7.2 on nbytes of ByteEncode_12 output:
 * ByteEncode_12(ByteDecode_12(in)) == in iff every 12-bit value is below q. The
 * input is public (ek); still read whole, without an early exit. */
uint32_t mlkem_check12_c(const uint8_t *in, unsigned int nbytes)
{
    uint32_t bad = 0;
    for (unsigned int i = 0; i < nbytes; i += 3) {
        uint32_t t0 = (in[i] | ((uint32_t)in[i + 1] << 8)) & 0xfff;
        uint32_t t1 = (in[i + 1] >> 4) | ((uint32_t)in[i + 2] << 4);
        bad |= ((uint32_t)(MLKEM_Q - 1) - t0) >> 31; /* 1 iff t0 >= q */
        bad |= ((uint32_t)(MLKEM_Q - 1) - t1) >> 31;
    }
    return bad;
}

/* Decompress_1(ByteDecode_1(m)): bit 1 -> round(q/2) = 1665, selected with a
 * mask because m is secret (FIPS 203 Algorithm 14 line 20). */
void mlkem_frommsg_c(mlkem_poly *r, const uint8_t msg[MLKEM_SYMBYTES])
{
    for (unsigned int i = 0; i < MLKEM_N; i++) {
        uint16_t bit = (uint16_t)((msg[i >> 3] >> (i & 7)) & 1);
        r->c[i] = (int16_t)((uint16_t)(0u - bit) & ((MLKEM_Q + 1) / 2));
    }
}

/* r += Decompress_1(ByteDecode_1(msg)) (Algorithm 14 line 21's + mu without a polynomial for
 * mu); |r| < 2^15 - 1665 keeps the sum an int16. */
void mlkem_frommsg_add_c(mlkem_poly *r, const uint8_t msg[MLKEM_SYMBYTES])
{
    for (unsigned int i = 0; i < MLKEM_N; i++) {
        uint16_t bit = (uint16_t)((msg[i >> 3] >> (i & 7)) & 1);
        r->c[i] = (int16_t)(r->c[i] + (int16_t)((uint16_t)(0u - bit) & ((MLKEM_Q + 1) / 2)));
    }
}

/* ByteEncode_1(Compress_1(w)) (Algorithm 15 line 7), multiply-shift as above. */
void mlkem_tomsg_c(uint8_t msg[MLKEM_SYMBYTES], const mlkem_poly *a)
{
    for (unsigned int i = 0; i < MLKEM_SYMBYTES; i++) {
        uint8_t b = 0;
        for (unsigned int j = 0; j < 8; j++) {
            b |= (uint8_t)(compress(a->c[8 * i + j], 1) << j);
        }
        msg[i] = b;
    }
}
