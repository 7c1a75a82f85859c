/* SPDX-License-Identifier: MIT */
/* Prints "<benchmark>_<cold|warm> <cycles>" for the bodies of membench.S, each run
   twice: the code body, and four loads from flash constants (membench_table), from
   RAM outside the STM32F76x's DTCM (0x20100000) and from RAM inside it
   (0x20000000 + 2 KB, beyond this firmware's data). */
#include "fw.h"

uint32_t membench_code(void);
uint32_t membench_data(const void *p);
extern const uint32_t membench_table[];

static void report(const char *name, const char *which, uint32_t v)
{
    uart_puts(name);
    uart_putc('_');
    uart_puts(which);
    uart_putc(' ');
    uart_dec(v);
    uart_putc('\n');
}

int main(void)
{
    DEMCR |= 1u << 24;
    REG32(0xE0001FB0u) = 0xC5ACCE55u; /* DWT_LAR (Cortex-M7) */
    DWT_CYCCNT = 0;
    DWT_CTRL |= 1u;
    uint32_t c1 = membench_code();
    uint32_t c2 = membench_code();
    report("code", "cold", c1);
    report("code", "warm", c2);
    static const struct {
        const char *name;
        const void *p;
    } data[3] = {
        {"flash", membench_table},
        {"sram", (const void *)0x20100000u},
        {"dtcm", (const void *)0x20000800u},
    };
    for (int k = 0; k < 3; k++) {
        uint32_t d1 = membench_data(data[k].p);
        uint32_t d2 = membench_data(data[k].p);
        report(data[k].name, "cold", d1);
        report(data[k].name, "warm", d2);
    }
    return 0;
}
