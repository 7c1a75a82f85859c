/* SPDX-License-Identifier: MIT */
/* HAL of rv32-qemu: ns16550 UART of QEMU virt at 0x10000000, semihosting exit and
 * file input, minstret timer, stack spray. */
#include <stddef.h>
#include <stdint.h>

#include "pqlab_hal.h"

/* ns16550: transmit holding register at +0, line status register at +5 with
 * THRE (transmit holding register empty) in bit 5 */
#define UART_BASE 0x10000000u
#define UART_THR (*(volatile uint8_t *)(uintptr_t)(UART_BASE + 0u))
#define UART_LSR (*(volatile uint8_t *)(uintptr_t)(UART_BASE + 5u))
#define UART_LSR_THRE 0x20u

/* RISC-V semihosting (RISC-V Semihosting specification, version 0.2): the Arm
 * semihosting operations, trapped by the sequence slli x0,x0,0x1f; ebreak;
 * srai x0,x0,7 (uncompressed, 16-byte aligned so that it does not cross a page).
 * a0 = operation, a1 = parameter block, result in a0. */
long pqlab_rv32_semihost(uint32_t op, void *arg);
__asm__(".section .text.pqlab_rv32_semihost, \"ax\", @progbits\n"
        ".globl pqlab_rv32_semihost\n"
        ".balign 16\n"
        "pqlab_rv32_semihost:\n"
        ".option push\n"
        ".option norvc\n"
        "    slli x0, x0, 0x1f\n"
        "    ebreak\n"
        "    srai x0, x0, 7\n"
        "    ret\n"
        ".option pop\n"
        ".text\n");
#define semihost pqlab_rv32_semihost

#define SYS_OPEN 0x01u
#define SYS_READ 0x06u
#define SYS_EXIT_EXTENDED 0x20u
#define ADP_STOPPED_APPLICATIONEXIT 0x20026u

/* Stack guard: PQLAB_STACK_GUARD bytes (a power of two >= 8) at the bottom of the
 * stack region, made inaccessible to machine mode with a locked PMP entry
 * (Privileged spec 1.10, 3.6: NAPOT region, L=1, R=W=X=0), so a stack overflow
 * traps instead of silently overwriting .bss. Machine-mode accesses that match
 * no entry keep full access. */
#ifndef PQLAB_STACK_GUARD
#define PQLAB_STACK_GUARD 256u
#endif
extern uint32_t __stack_limit[], __stack_top[];
extern const uint8_t __code_region_start[], __code_region_end[];

size_t pqlab_hal_code_region(const uint8_t **start)
{
    *start = __code_region_start;
    return (size_t)(__code_region_end - __code_region_start);
}
uintptr_t pqlab_rv32_guard_start, pqlab_rv32_guard_end;

void pqlab_hal_setup(void)
{
    uintptr_t start = ((uintptr_t)__stack_limit + PQLAB_STACK_GUARD - 1u) & ~(uintptr_t)(PQLAB_STACK_GUARD - 1u);
    if (start + PQLAB_STACK_GUARD + 1024u <= (uintptr_t)__stack_top && pqlab_rv32_guard_end == 0) {
        uint32_t addr = (uint32_t)(start >> 2) | ((PQLAB_STACK_GUARD >> 3) - 1u);
        __asm__ volatile("csrw pmpaddr0, %0" ::"r"(addr));
        __asm__ volatile("csrw pmpcfg0, %0" ::"r"(0x98u)); /* L | A=NAPOT | no R/W/X */
        pqlab_rv32_guard_start = start;
        pqlab_rv32_guard_end = start + PQLAB_STACK_GUARD;
    }
}

void pqlab_hal_send(const char *buf, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        while (!(UART_LSR & UART_LSR_THRE)) {
        }
        UART_THR = (uint8_t)buf[i];
    }
}

/* minstret: instructions retired, 64 bits read as two halves (Privileged spec
 * 3.1.15; the high half is re-read to catch a carry between the reads). Under
 * QEMU -icount shift=0 it equals mcycle and counts instructions, not cycles. */
uint64_t pqlab_hal_cycles(void)
{
    uint32_t hi, lo, hi2;
    do {
        __asm__ volatile("csrr %0, minstreth" : "=r"(hi));
        __asm__ volatile("csrr %0, minstret" : "=r"(lo));
        __asm__ volatile("csrr %0, minstreth" : "=r"(hi2));
    } while (hi != hi2);
    return ((uint64_t)hi << 32) | lo;
}

const char *pqlab_hal_timer_name(void)
{
    return "minstret";
}

void pqlab_hal_exit(int code)
{
    uint32_t block[2] = {ADP_STOPPED_APPLICATIONEXIT, (uint32_t)code};
    for (;;) {
        semihost(SYS_EXIT_EXTENDED, block);
    }
}

static long in_handle = -2; /* -2: not opened yet, -1: open failed */

long pqlab_hal_read(uint8_t *buf, size_t n)
{
    static char name[] = "pqlab.in";
    if (in_handle == -2) {
        uint32_t block[3] = {(uint32_t)(uintptr_t)name, 1u /* "rb" */, sizeof name - 1};
        in_handle = semihost(SYS_OPEN, block);
        if (in_handle < 0) {
            in_handle = -1;
        }
    }
    if (in_handle < 0) {
        return -1;
    }
    if (n == 0) {
        return 0;
    }
    uint32_t block[3] = {(uint32_t)in_handle, (uint32_t)(uintptr_t)buf, (uint32_t)n};
    long left = semihost(SYS_READ, block); /* bytes NOT read */
    if (left < 0 || (size_t)left > n) {
        return -1;
    }
    return (long)(n - (size_t)left);
}

/* stack spray and measurement: stack.c */
