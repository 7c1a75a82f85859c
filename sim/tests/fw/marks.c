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

#define MARKS_NOW() DWT_CYCCNT
#include "marks_seq.h"

int main(void)
{
    DEMCR |= 1u << 24;
    DWT_CYCCNT = 0;
    DWT_CTRL |= 1u;
    /* the firmware's own measurement of the loop interval (0 under QEMU: no DWT) */
    uint32_t loop;
    uint32_t v = marks_sequence(&loop);

    uart_puts("marks ");
    uart_dec(v);
    uart_puts("\nloop_dwt ");
    uart_dec(loop);
    uart_putc('\n');
    return 0;
}
