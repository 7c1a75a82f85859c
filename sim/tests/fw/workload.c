/* SPDX-License-Identifier: MIT */
/* A mixed workload for differential tests and speed measurements:
   Keccak-f[1600] (FIPS 202 section 3.2, written from the specification),
   integer sorting, 64-bit division (libgcc), a switch table (TBB/TBH),
   single-precision arithmetic and bit manipulation. Every result is printed
   on UART0 so that QEMU and pqlab-sim outputs can be compared byte by byte. */
#include "fw.h"

#ifndef ROUNDS
#define ROUNDS 4
#endif

/* Round constants RC[i] of FIPS 202 section 3.2.5 (iota). */
static const uint64_t RC[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808AULL, 0x8000000080008000ULL, 0x000000000000808BULL,
    0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL, 0x000000000000008AULL, 0x0000000000000088ULL,
    0x0000000080008009ULL, 0x000000008000000AULL, 0x000000008000808BULL, 0x800000000000008BULL, 0x8000000000008089ULL,
    0x8000000000008003ULL, 0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800AULL, 0x800000008000000AULL,
    0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL};

/* Rotation offsets of rho (FIPS 202 section 3.2.2, table 2), index x + 5y. */
static const unsigned RHO[25] = {0,  1,  62, 28, 27, 36, 44, 6,  55, 20, 3,  10, 43,
                                 25, 39, 41, 45, 15, 21, 8,  18, 2,  61, 56, 14};

static uint64_t rol64(uint64_t v, unsigned n)
{
    return n ? (v << n) | (v >> (64 - n)) : v;
}

__attribute__((noinline)) static void keccakf(uint64_t a[25])
{
    uint64_t b[25], c[5], d[5];
    for (int r = 0; r < 24; r++) {
        for (int x = 0; x < 5; x++) { /* theta */
            c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
        }
        for (int x = 0; x < 5; x++) {
            d[x] = c[(x + 4) % 5] ^ rol64(c[(x + 1) % 5], 1);
        }
        for (int i = 0; i < 25; i++) {
            a[i] ^= d[i % 5];
        }
        for (int x = 0; x < 5; x++) { /* rho and pi: B[y][2x+3y] = rot(A[x][y]) */
            for (int y = 0; y < 5; y++) {
                b[y + 5 * ((2 * x + 3 * y) % 5)] = rol64(a[x + 5 * y], RHO[x + 5 * y]);
            }
        }
        for (int y = 0; y < 5; y++) { /* chi */
            for (int x = 0; x < 5; x++) {
                a[x + 5 * y] = b[x + 5 * y] ^ (~b[(x + 1) % 5 + 5 * y] & b[(x + 2) % 5 + 5 * y]);
            }
        }
        a[0] ^= RC[r]; /* iota */
    }
}

static uint32_t xs = 2463534242u;
static uint32_t rnd(void)
{
    xs ^= xs << 13;
    xs ^= xs >> 17;
    xs ^= xs << 5;
    return xs;
}

static void isort(int32_t *v, int n)
{
    for (int i = 1; i < n; i++) {
        int32_t t = v[i];
        int j = i - 1;
        while (j >= 0 && v[j] > t) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = t;
    }
}

__attribute__((noinline)) static uint32_t classify(uint32_t x)
{
    switch (x % 13) {
    case 0:
        return x * 3;
    case 1:
        return x ^ 0x55aa;
    case 2:
        return x >> 3;
    case 3:
        return x + 1000;
    case 4:
        return ~x;
    case 5:
        return x * x;
    case 6:
        return x << 5;
    case 7:
        return x - 77;
    case 8:
        return x | 0x100;
    case 9:
        return x & 0xff00ff;
    case 10:
        return x / 7;
    case 11:
        return x % 1009;
    default:
        return 42;
    }
}

static void put_line(const char *tag, uint32_t v)
{
    uart_puts(tag);
    uart_putc(' ');
    uart_hex(v);
    uart_putc('\n');
}

#ifdef STRESS_IRQ
/* A SysTick interrupt every few dozen cycles that uses integer and FP
   registers: the results printed by main must not change (exception entry
   and return preserve the context, including the FP extended frame). */
static volatile uint32_t irq_count;
static volatile float irq_f = 1.0f;
void systick_handler(void)
{
    float f = irq_f;
    f = f * 1.0001f + 0.5f;
    irq_f = f > 1e6f ? 1.0f : f;
    uint32_t a = irq_count;
    __asm volatile("" : "+r"(a));
    irq_count = a * 3u + 1u;
}
#endif

int main(void)
{
#ifdef STRESS_IRQ
    SYST_RVR = 97;
    SYST_CVR = 0;
    SYST_CSR = 7;
#endif
    uint64_t st[25];
    for (int i = 0; i < 25; i++) {
        st[i] = (uint64_t)i * 0x0123456789abcdefULL;
    }
    for (int k = 0; k < ROUNDS; k++) {
        keccakf(st);
    }
    put_line("keccak0", (uint32_t)st[0]);
    put_line("keccak1", (uint32_t)(st[24] >> 32));

    int32_t v[200];
    for (int i = 0; i < 200; i++) {
        v[i] = (int32_t)rnd();
    }
    isort(v, 200);
    uint32_t h = 0;
    for (int i = 0; i < 200; i++) {
        h = h * 31u + (uint32_t)v[i];
    }
    put_line("sort", h);

    uint64_t acc = 0;
    for (int i = 1; i < 300; i++) {
        uint64_t n = ((uint64_t)rnd() << 32) | rnd();
        uint64_t d = (uint64_t)rnd() >> (i % 31);
        acc += n / (d | 1) + n % (d | 3);
        acc ^= (uint64_t)((int64_t)n / -(int64_t)(i * 7919));
    }
    put_line("div64a", (uint32_t)acc);
    put_line("div64b", (uint32_t)(acc >> 32));

    uint32_t c = 0;
    for (uint32_t i = 0; i < 2000; i++) {
        c += classify(i * 2654435761u);
    }
    put_line("switch", c);

    volatile float fx = 0.0f;
    float s = 0.0f, t = 1.0f;
    for (int i = 1; i < 400; i++) {
        t = t * 0.999f + 1.0f / (float)i;
        s += t * t - (float)(i & 7) * 0.25f;
        fx = s;
        if (s > 1000.0f) {
            s = s / 3.0f;
        }
    }
    union {
        float f;
        uint32_t u;
    } cv = {.f = fx};
    put_line("float", cv.u);
    cv.f = __builtin_sqrtf(s) + __builtin_fmaf(s, t, -1.5f);
    put_line("fsqrt", cv.u);
    put_line("fcvt", (uint32_t)(int32_t)(s * -3.7f));

    uint32_t bits = 0;
    for (uint32_t i = 1; i < 1000; i++) {
        uint32_t x = rnd();
        bits += (uint32_t)__builtin_clz(x | 1) + (uint32_t)__builtin_popcount(x) + (__builtin_bswap32(x) >> (i & 15));
    }
    put_line("bits", bits);
#ifdef STRESS_IRQ
    SYST_CSR = 0;
    if (irq_count == 0) {
        uart_puts("no interrupts\n");
    }
#endif
    uart_puts("workload done\n");
    return 0;
}
