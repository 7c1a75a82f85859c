/* SPDX-License-Identifier: MIT */
/* Error paths: the first argument selects what goes wrong (read from the
   semihosting file "pqlab.in" when present, else 0 = exit normally). */
#include "fw.h"

static uint32_t read_mode(void)
{
    const char *name = "pqlab.in";
    uint32_t blk[3] = {(uint32_t)name, 0, 8};
    int h = semihost(0x01, blk);
    if (h < 0) {
        return 0;
    }
    uint32_t flen[1] = {(uint32_t)h};
    int n = semihost(0x0c, flen);
    char buf[16] = {0};
    uint32_t rd[3] = {(uint32_t)h, (uint32_t)buf, 15};
    int left = semihost(0x06, rd);
    uint32_t cl[1] = {(uint32_t)h};
    semihost(0x02, cl);
    uart_puts("flen ");
    uart_dec((uint32_t)n);
    uart_puts(" read ");
    uart_dec((uint32_t)(15 - left));
    uart_putc('\n');
    return (uint32_t)(buf[0] - '0');
}

int main(void)
{
    uint32_t m = read_mode();
    uart_puts("mode ");
    uart_dec(m);
    uart_putc('\n');
    if (m == 1) {
        __asm volatile(".inst.w 0xf7f0a000"); /* UDF.W */
    } else if (m == 2) {
        uart_hex(REG32(0x30000000u)); /* unmapped */
    } else if (m == 3) {
        for (;;) {
            __asm volatile("nop");
        }
    } else if (m == 4) {
        *(volatile uint32_t *)0 = 0xdeadbeefu; /* through a NULL pointer: the vector table */
    } else if (m == 5) {
        *(volatile uint8_t *)(uintptr_t)&main = 0; /* into .text */
    } else if (m == 6) {
        *(volatile uint16_t *)0x00400010u = 0; /* the alias of the code region */
    }
    return 0;
}
