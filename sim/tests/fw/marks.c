/* SPDX-License-Identifier: MIT */
/* Interval marks (sim/src/marks.rs): the same two out-of-line functions as the
   pqlab harness (harness/harness.c) bracket a counted loop, a function with a
   1 KiB stack frame, a nested pair, a mismatched pair and a stray end mark. The
   loop is also timed with DWT CYCCNT around the marks. */
#include "fw.h"

const char *volatile mark_current;

__attribute__((noinline, noclone)) void pqlab_mark_begin(const char *label)
{
    mark_current = label;
}

__attribute__((noinline, noclone)) void pqlab_mark_end(const char *label)
{
    (void)label;
    mark_current = 0;
}

/* 1 + 2n instructions: n SUBS and n BNE, n - 1 of them taken */
static inline void count_down(uint32_t n)
{
    __asm volatile("1: subs %0, %0, #1\n\tbne 1b" : "+r"(n)::"cc");
}

__attribute__((noinline)) static uint32_t deep(uint32_t n)
{
    volatile uint8_t buf[1024];
    for (uint32_t i = 0; i < sizeof buf; i++) {
        buf[i] = (uint8_t)(i + n);
    }
    return buf[n & 1023u];
}

int main(void)
{
    DEMCR |= 1u << 24;
    DWT_CYCCNT = 0;
    DWT_CTRL |= 1u;
    /* the firmware's own measurement of the loop interval (0 under QEMU: no DWT) */
    uint32_t t0 = DWT_CYCCNT;
    pqlab_mark_begin("loop");
    count_down(1000);
    pqlab_mark_end("loop");
    uint32_t t1 = DWT_CYCCNT;

    pqlab_mark_begin("stack");
    uint32_t v = deep(5);
    pqlab_mark_end("stack");

    pqlab_mark_begin("outer");
    v += deep(7);
    pqlab_mark_begin("inner");
    count_down(100);
    pqlab_mark_end("inner");
    pqlab_mark_end("outer");

    pqlab_mark_begin("a");
    pqlab_mark_end("b");
    pqlab_mark_end("stray");

    uart_puts("marks ");
    uart_dec(v);
    uart_puts("\nloop_dwt ");
    uart_dec(t1 - t0);
    uart_putc('\n');
    return 0;
}
