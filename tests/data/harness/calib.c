/* SPDX-License-Identifier: MIT */
/* Timer calibration: a loop of exactly 2 * N instructions between two timer
 * reads, printed as "calib <timer> <delta>", then the same for 2 * 2N. */
#include <stddef.h>
#include <stdint.h>

#include "pqlab_hal.h"

static void put(const char *s)
{
    size_t n = 0;
    while (s[n] != 0) {
        n++;
    }
    pqlab_hal_send(s, n);
}

static void putu(uint64_t v)
{
    char b[21];
    int i = 20;
    b[i] = 0;
    do {
        b[--i] = (char)('0' + (int)(v % 10u));
        v /= 10u;
    } while (v != 0);
    put(b + i);
}

__attribute__((noinline)) static uint64_t timed_loop(uint32_t n)
{
    uint64_t t0 = pqlab_hal_cycles();
#if defined(__arm__)
    __asm__ volatile("1: subs %0, %0, #1\n\tbne 1b" : "+r"(n)::"cc");
#elif defined(__riscv)
    __asm__ volatile("1: addi %0, %0, -1\n\tbnez %0, 1b" : "+r"(n));
#elif defined(__aarch64__)
    __asm__ volatile("1: subs %w0, %w0, #1\n\tb.ne 1b" : "+r"(n)::"cc");
#else
    __asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n)::"cc");
#endif
    uint64_t t1 = pqlab_hal_cycles();
    return t1 - t0;
}

int main(void)
{
    pqlab_hal_setup();
    for (uint32_t n = CALIB_N; n <= 2 * CALIB_N; n += CALIB_N) {
        uint64_t d = timed_loop(n);
        put("calib ");
        put(pqlab_hal_timer_name());
        put(" ");
        putu(d);
        put("\n");
    }
    pqlab_hal_exit(0);
}
