/* SPDX-License-Identifier: MIT */
/* The interval-marks sequence shared by the Cortex-M firmware (marks.c) and the RV32 one
   (rv32/guest.c): a counted loop timed by the firmware's own counter around its marks, a
   function with a 1 KiB stack frame, a nested pair, a mismatched pair and a stray end mark.
   The includer defines MARKS_NOW() (its cycle counter), `count_down(n)` (1 + 2n
   instructions in its instruction set) and the mark functions pqlab_mark_begin/end. */
#ifndef MARKS_SEQ_H
#define MARKS_SEQ_H

#include <stdint.h>

__attribute__((noinline)) static uint32_t deep(uint32_t n)
{
    volatile uint8_t buf[1024];
    for (uint32_t i = 0; i < sizeof buf; i++) {
        buf[i] = (uint8_t)(i + n);
    }
    return buf[n & 1023u];
}

/* Runs the sequence; returns deep()'s values (to keep them) and sets *loop_cycles to the
   counter's difference around the "loop" interval. */
static inline __attribute__((always_inline)) uint32_t marks_sequence(uint32_t *loop_cycles)
{
    uint32_t t0 = MARKS_NOW();
    pqlab_mark_begin("loop");
    count_down(1000);
    pqlab_mark_end("loop");
    uint32_t t1 = MARKS_NOW();

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

    *loop_cycles = t1 - t0;
    return v;
}

#endif
