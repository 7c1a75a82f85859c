/* SPDX-License-Identifier: MIT */
/* Start-up code: vector table (Armv7-M ARM B1.5.3), .data/.bss set-up,
   FPU enable through CPACR (B3.2.20), UART0 and semihosting helpers. */
#include "fw.h"

extern uint32_t _sidata, _sdata, _edata, _sbss, _ebss, _stack_top;
void reset_handler(void);
void systick_handler(void) __attribute__((weak));
void default_handler(void);

__attribute__((section(".vectors"), used)) static void (*const vectors[16])(void) = {
    (void (*)(void))(&_stack_top),
    reset_handler,
    default_handler,
    default_handler,
    default_handler,
    default_handler,
    default_handler,
    0,
    0,
    0,
    0,
    default_handler,
    default_handler,
    0,
    default_handler,
    systick_handler,
};

void default_handler(void)
{
    sh_write0("unexpected exception\n");
    sh_exit(3);
}

void systick_handler(void)
{
}

void reset_handler(void)
{
    uint32_t *s = &_sidata, *d = &_sdata;
    while (d < &_edata) {
        *d++ = *s++;
    }
    for (d = &_sbss; d < &_ebss;) {
        *d++ = 0;
    }
#if defined(__ARM_FP)
    REG32(0xE000ED88u) |= 0xFu << 20; /* CP10, CP11 full access */
    __asm volatile("dsb\n\tisb");
#endif
    uart_init();
    sh_exit(main());
}

void uart_init(void)
{
    UART0_BAUDDIV = 16;
    UART0_CTRL = 1;
}

void uart_putc(char c)
{
    while (UART0_STATE & 1) {
    }
    UART0_DATA = (uint32_t)(unsigned char)c;
}

void uart_puts(const char *s)
{
    while (*s) {
        uart_putc(*s++);
    }
}

void uart_hex(uint32_t v)
{
    for (int i = 28; i >= 0; i -= 4) {
        uart_putc("0123456789abcdef"[(v >> i) & 15]);
    }
}

void uart_dec(uint32_t v)
{
    char buf[11];
    int n = 0;
    do {
        buf[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n) {
        uart_putc(buf[--n]);
    }
}

int semihost(int op, void *arg)
{
    register int r0 __asm("r0") = op;
    register void *r1 __asm("r1") = arg;
    __asm volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

void sh_write0(const char *s)
{
    semihost(0x04, (void *)s);
}

void sh_exit(int code)
{
    uint32_t blk[2] = {0x20026u, (uint32_t)code};
    semihost(0x20, blk);
    for (;;) {
    }
}

void *memcpy(void *d, const void *s, size_t n)
{
    unsigned char *dd = d;
    const unsigned char *ss = s;
    while (n--) {
        *dd++ = *ss++;
    }
    return d;
}

void *memset(void *d, int c, size_t n)
{
    unsigned char *dd = d;
    while (n--) {
        *dd++ = (unsigned char)c;
    }
    return d;
}
