/* SPDX-License-Identifier: MIT */
/* Minimal bare-metal support for the pqlab-sim test firmware: CMSDK UART0,
   Arm semihosting, SysTick and DWT registers (addresses from the Armv7-M ARM
   B3.3 and the MPS2 AN386 memory map). */
#ifndef FW_H
#define FW_H
#include <stddef.h>
#include <stdint.h>

#define REG32(a) (*(volatile uint32_t *)(a))
#define UART0_DATA REG32(0x40004000u)
#define UART0_STATE REG32(0x40004004u)
#define UART0_CTRL REG32(0x40004008u)
#define UART0_BAUDDIV REG32(0x40004010u)
#define SYST_CSR REG32(0xE000E010u)
#define SYST_RVR REG32(0xE000E014u)
#define SYST_CVR REG32(0xE000E018u)
#define DEMCR REG32(0xE000EDFCu)
#define DWT_CTRL REG32(0xE0001000u)
#define DWT_CYCCNT REG32(0xE0001004u)

void uart_init(void);
void uart_putc(char c);
void uart_puts(const char *s);
void uart_hex(uint32_t v);
void uart_dec(uint32_t v);
int semihost(int op, void *arg);
void sh_write0(const char *s);
void sh_exit(int code) __attribute__((noreturn));
void *memcpy(void *d, const void *s, size_t n);
void *memset(void *d, int c, size_t n);
int main(void);
#endif
