/* SPDX-License-Identifier: MIT */
/* Multiplication in F_2[x]/(x^n - 1) (HQC specification, section 2: vectors of F_2^n
 * are polynomials, the product is the cyclic one).
 *
 * Word-level Karatsuba on 64-bit words down to a schoolbook base case, whose word
 * product is a carry-less 64 x 64 -> 128 multiplication built from integer
 * multiplications: bits of the operands are split into four classes by position mod 4,
 * so every column of an integer product of two classes sums at most 8 ones and its
 * carries never reach the next position of the same class (the parity of the column
 * is its lowest bit). The integer multiplier of every target pqlab runs has an
 * operand-independent latency (Cortex-M4/M7 UMULL, x86-64 MUL, AArch64 UMULH,
 * RV32 M); no branch and no address depends on the operands. */
#include <string.h>

#include "ct.h"
#include "internal.h"

#ifndef HQC_NATIVE_GF2X
/* carry-less 32 x 32 -> 64 */
static uint64_t clmul32(uint32_t x, uint32_t y)
{
    const uint32_t m0 = 0x11111111u, m1 = 0x22222222u, m2 = 0x44444444u, m3 = 0x88888888u;
    const uint64_t x0 = x & m0, x1 = x & m1, x2 = x & m2, x3 = x & m3;
    const uint64_t y0 = y & m0, y1 = y & m1, y2 = y & m2, y3 = y & m3;
    uint64_t z0 = (x0 * y0) ^ (x1 * y3) ^ (x2 * y2) ^ (x3 * y1);
    uint64_t z1 = (x0 * y1) ^ (x1 * y0) ^ (x2 * y3) ^ (x3 * y2);
    uint64_t z2 = (x0 * y2) ^ (x1 * y1) ^ (x2 * y0) ^ (x3 * y3);
    uint64_t z3 = (x0 * y3) ^ (x1 * y2) ^ (x2 * y1) ^ (x3 * y0);
    return (z0 & 0x1111111111111111ull) | (z1 & 0x2222222222222222ull) | (z2 & 0x4444444444444444ull) |
           (z3 & 0x8888888888888888ull);
}

/* carry-less 64 x 64 -> 128 by one Karatsuba step on 32-bit halves */
static void clmul64(uint64_t *lo, uint64_t *hi, uint64_t a, uint64_t b)
{
    const uint32_t a0 = (uint32_t)a, a1 = (uint32_t)(a >> 32);
    const uint32_t b0 = (uint32_t)b, b1 = (uint32_t)(b >> 32);
    const uint64_t l = clmul32(a0, b0);
    const uint64_t h = clmul32(a1, b1);
    const uint64_t m = clmul32(a0 ^ a1, b0 ^ b1) ^ l ^ h;
    *lo = l ^ (m << 32);
    *hi = h ^ (m >> 32);
}
#endif

/* below this many words the product is schoolbook (portable: 3, fewest m4-sim cycles of 2..8
 * for all three sets, measured with `pqlab profile -p m4-sim`; native base case: see
 * docs/hqc.md) */
#ifndef HQC_KARATSUBA_BASE
#ifdef HQC_NATIVE_GF2X
#define HQC_KARATSUBA_BASE 3
#else
#define HQC_KARATSUBA_BASE 3
#endif
#endif

#ifdef HQC_NATIVE_GF2X
#define mul_base pqlab_hqc_mul_base_native
#else
/* r[0..2n) = a[0..n) * b[0..n) */
static void mul_base(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n)
{
    for (size_t i = 0; i < 2 * n; i++) {
        r[i] = 0;
    }
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < n; j++) {
            uint64_t lo, hi;
            clmul64(&lo, &hi, a[i], b[j]);
            r[i + j] ^= lo;
            r[i + j + 1] ^= hi;
        }
    }
}
#endif

/* r[0..2n) = a * b; t: scratch of karatsuba_scratch(n) words.
 * a = a0 + x^(64h) a1 with h = ceil(n/2) words in a0 and l = n - h in a1 (same for b):
 * z0 = a0 b0, z2 = a1 b1, z1 = (a0 + a1)(b0 + b1) - z0 - z2, r = z0 + x^(64h) z1 + x^(128h) z2.
 * The sums are formed in r (free until z0 is written), z1 in t. */
static void karatsuba(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n, uint64_t *t);

/* a half product: the base case directly when it is one (known at compile time in the
 * specialised copies below) */
#define HQC_HALF(r, a, b, n, t)                                                                                        \
    do {                                                                                                               \
        if ((n) <= HQC_KARATSUBA_BASE) {                                                                               \
            mul_base((r), (a), (b), (n));                                                                              \
        } else {                                                                                                       \
            karatsuba((r), (a), (b), (n), (t));                                                                        \
        }                                                                                                              \
    } while (0)

/* one Karatsuba level (n > HQC_KARATSUBA_BASE); inlined into karatsuba() once for the
 * small lengths, where a constant n unrolls its loops, and once for the others */
static inline __attribute__((always_inline)) void karatsuba_step(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                                                 size_t n, uint64_t *t)
{
    const size_t h = (n + 1) / 2, l = n - h;
    uint64_t *sa = r, *sb = r + h, *z1 = t;
    for (size_t i = 0; i < l; i++) {
        sa[i] = a[i] ^ a[h + i];
        sb[i] = b[i] ^ b[h + i];
    }
    if (l < h) {
        sa[l] = a[l];
        sb[l] = b[l];
    }
    HQC_HALF(z1, sa, sb, h, t + 2 * h);
    HQC_HALF(r, a, b, h, t + 2 * h);
    HQC_HALF(r + 2 * h, a + h, b + h, l, t + 2 * h);
    /* r[h..3h) += z1 + z0 + z2 in one pass: with t = z0[h + i] + z2[i] (i < h),
     * r[h + i] = t + z1[i] + z0[i] and r[2h + i] = t + z1[h + i] + z2[h + i]
     * (z0 = r[0..2h), z2 = r[2h..2h + 2l), words of z2 past 2l are zero) */
    uint64_t *z0 = r, *z2 = r + 2 * h;
    const size_t full = 2 * l - h; /* i < full: z2[h + i] exists */
    for (size_t i = 0; i < full; i++) {
        const uint64_t t = z0[h + i] ^ z2[i];
        const uint64_t hi = t ^ z1[h + i] ^ z2[h + i];
        z0[h + i] = t ^ z1[i] ^ z0[i];
        z2[i] = hi;
    }
    for (size_t i = full; i < h; i++) {
        const uint64_t t = z0[h + i] ^ z2[i];
        const uint64_t hi = t ^ z1[h + i];
        z0[h + i] = t ^ z1[i] ^ z0[i];
        z2[i] = hi;
    }
}

static void karatsuba(uint64_t *r, const uint64_t *a, const uint64_t *b, size_t n, uint64_t *t)
{
    switch (n) { /* public length */
    case 1:
    case 2:
    case 3:
        mul_base(r, a, b, n);
        break;
#if HQC_KARATSUBA_BASE < 4
    case 4:
        karatsuba_step(r, a, b, 4, t);
        break;
    case 5:
        karatsuba_step(r, a, b, 5, t);
        break;
#endif
    default:
        if (n <= HQC_KARATSUBA_BASE) {
            mul_base(r, a, b, n);
        } else {
            karatsuba_step(r, a, b, n, t);
        }
        break;
    }
}

/* scratch words for karatsuba(n): 2h at this level plus the recursion's, h = ceil(n/2) */
#define HQC_SCRATCH(n) (2 * (n) + 64)

void hqc_vect_mul(uint64_t r[HQC_NW], const uint64_t a[HQC_NW], const uint64_t b[HQC_NW])
{
    uint64_t prod[2 * HQC_NW];
    uint64_t scratch[HQC_SCRATCH(HQC_NW)];
    karatsuba(prod, a, b, HQC_NW, scratch);
    /* fold: bit n + t of the product goes to bit t (x^n = 1) */
    for (size_t i = 0; i < HQC_NW; i++) {
        r[i] = prod[i] ^ (prod[HQC_NW - 1 + i] >> HQC_NTOP) ^ (prod[HQC_NW + i] << (64 - HQC_NTOP));
    }
    r[HQC_NW - 1] &= ((uint64_t)1 << HQC_NTOP) - 1;
    pqlab_zeroize(prod, sizeof prod);
    pqlab_zeroize(scratch, sizeof scratch);
}

#ifdef PQLAB_HQC_SMALLSTACK
/* r = a * y mod (x^n - 1) for y given by its support (the stack-first variant: one 2n-bit
 * buffer instead of Karatsuba's product and scratch). For each position p: a is copied into
 * the buffer as 32-bit words, shifted left by p & 31 bits (32-bit shifts by a secret amount,
 * single fixed-time instructions), then by 2^k words for k = 0.. where bit 5 + k of p is set
 * (a masked select of every word, the same work whatever p), and folded into r. */
void hqc_vect_mul_sparse(uint64_t r[HQC_NW], const uint64_t a[HQC_NW], const uint32_t *support, size_t weight)
{
    enum { N32 = 2 * HQC_NW, L32 = 4 * HQC_NW };
    uint32_t t[L32];
    for (size_t i = 0; i < HQC_NW; i++) {
        r[i] = 0;
    }
    for (size_t j = 0; j < weight; j++) {
        const uint32_t p = support[j];
        const uint32_t b = p & 31;
        for (size_t i = 0; i < HQC_NW; i++) {
            t[2 * i] = (uint32_t)a[i];
            t[2 * i + 1] = (uint32_t)(a[i] >> 32);
        }
        /* bits: the word below moves in by (w >> 1) >> (31 - b), defined for b = 0 too */
        t[N32] = (t[N32 - 1] >> 1) >> (31 - b);
        for (size_t i = N32 - 1; i > 0; i--) {
            t[i] = (t[i] << b) | ((t[i - 1] >> 1) >> (31 - b));
        }
        t[0] <<= b;
        size_t len = N32 + 1; /* words that may be nonzero */
        for (size_t k = 0; ((size_t)1 << k) < N32; k++) {
            const size_t d = (size_t)1 << k;
            const uint32_t m = (uint32_t)0 - ((p >> (5 + k)) & 1);
            size_t top = len + d < L32 ? len + d : L32;
            for (size_t i = top; i-- > d;) {
                const uint32_t lo = i < len ? t[i] : 0;
                t[i] = lo ^ ((lo ^ t[i - d]) & m);
            }
            for (size_t i = 0; i < d; i++) {
                t[i] &= ~m;
            }
            len = top;
        }
        for (size_t i = len; i < L32; i++) {
            t[i] = 0;
        }
        /* fold: words i, NW - 1 + i (>> NTOP) and NW + i (<< 64 - NTOP) of the 2n-bit product */
        for (size_t i = 0; i < HQC_NW; i++) {
            const uint64_t w0 = (uint64_t)t[2 * i] | (uint64_t)t[2 * i + 1] << 32;
            const uint64_t w1 = (uint64_t)t[2 * (HQC_NW - 1 + i)] | (uint64_t)t[2 * (HQC_NW - 1 + i) + 1] << 32;
            const uint64_t w2 = (uint64_t)t[2 * (HQC_NW + i)] | (uint64_t)t[2 * (HQC_NW + i) + 1] << 32;
            r[i] ^= w0 ^ (w1 >> HQC_NTOP) ^ (w2 << (64 - HQC_NTOP));
        }
    }
    r[HQC_NW - 1] &= ((uint64_t)1 << HQC_NTOP) - 1;
    pqlab_zeroize(t, sizeof t);
}
#endif
