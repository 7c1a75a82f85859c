/* SPDX-License-Identifier: MIT */
/* Profile test: via_tail() ends with a jump (no link) to leaf(), a tail call as GCC
 * emits it; the profile must charge leaf's cycles to leaf, called from main. depth()
 * recurses: its inclusive cycles must count each cycle once. */
#include "fw.h"

__attribute__((noinline)) uint32_t leaf(uint32_t x)
{
    uint32_t s = 0;
    for (uint32_t i = 0; i < 200; i++) {
        s += (x ^ i) * 3u;
        __asm__ volatile("" : "+r"(s));
    }
    return s;
}

__attribute__((naked, noinline)) uint32_t via_tail(uint32_t x)
{
    (void)x;
    __asm__ volatile("b.w leaf");
}

__attribute__((noinline, noclone)) uint32_t depth(uint32_t d)
{
    uint32_t s = leaf(d);
    if (d > 0) {
        s += depth(d - 1);
    }
    __asm__ volatile("" : "+r"(s));
    return s;
}

int main(void)
{
    uint32_t t = depth(5);
    for (uint32_t i = 0; i < 10; i++) {
        t += via_tail(i);
    }
    t += leaf(99);
    uart_dec(t);
    uart_putc('\n');
    return 0;
}
