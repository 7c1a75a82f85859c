/* SPDX-License-Identifier: MIT */
/* HAL of cv32e40p-rtl: the devices of pqlab's test bench (hw/cv32e40p/tb_top.sv), the
 * core's mcycle counter as the timer, stack spray. */
#include <stddef.h>
#include <stdint.h>

#include "pqlab_hal.h"

/* test bench devices (hw/cv32e40p/tb_top.sv): every access completes in one cycle */
#define TB_BASE 0x10000000u
#define TB_CONSOLE (*(volatile uint32_t *)(uintptr_t)(TB_BASE + 0x00u))
#define TB_EXIT (*(volatile uint32_t *)(uintptr_t)(TB_BASE + 0x04u))
#define TB_INPUT (*(volatile uint32_t *)(uintptr_t)(TB_BASE + 0x08u))
#define TB_GUARD_LO (*(volatile uint32_t *)(uintptr_t)(TB_BASE + 0x0cu))
#define TB_GUARD_HI (*(volatile uint32_t *)(uintptr_t)(TB_BASE + 0x10u))
#define TB_INPUT_END 0x100u
#define TB_INPUT_ERROR 0x200u

/* Stack guard: PQLAB_STACK_GUARD bytes at the bottom of the stack region, watched by the
 * test bench (a store inside is '#fault stack-overflow'). CV32E40P has no PMP. */
#ifndef PQLAB_STACK_GUARD
#define PQLAB_STACK_GUARD 256u
#endif
extern uint32_t __stack_limit[], __stack_top[];
extern const uint8_t __code_region_start[], __code_region_end[];
/* read by rv32-qemu's trap reporter (startup.c); stores into the guard never reach it here,
 * the test bench reports them itself */
uintptr_t pqlab_rv32_guard_start, pqlab_rv32_guard_end;

size_t pqlab_hal_code_region(const uint8_t **start)
{
    *start = __code_region_start;
    return (size_t)(__code_region_end - __code_region_start);
}

void pqlab_hal_setup(void)
{
    /* mstatus.FS = Initial (bits 14:13 = 01): the FPU decodes F instructions only when FS is
     * not Off (RISC-V Privileged spec 1.10, 3.1.11); CV32E40P resets FS to Off */
    __asm__ volatile("csrs mstatus, %0" ::"r"(1u << 13));
    /* mcountinhibit (CSR 0x320, Privileged spec 1.11): CV32E40P resets it to all ones, so
     * mcycle and minstret count only once it is cleared */
    __asm__ volatile("csrw 0x320, zero");
    uintptr_t start = ((uintptr_t)__stack_limit + 3u) & ~(uintptr_t)3u;
    if (start + PQLAB_STACK_GUARD + 1024u <= (uintptr_t)__stack_top && pqlab_rv32_guard_end == 0) {
        TB_GUARD_LO = (uint32_t)start;
        TB_GUARD_HI = (uint32_t)(start + PQLAB_STACK_GUARD);
        pqlab_rv32_guard_start = start;
        pqlab_rv32_guard_end = start + PQLAB_STACK_GUARD;
    }
}

void pqlab_hal_send(const char *buf, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        TB_CONSOLE = (uint8_t)buf[i];
    }
}

/* mcycle: core clock cycles, 64 bits read as two halves (the high half is re-read to catch a
 * carry between the reads). With zero-wait-state memories these are the core's exact cycles. */
uint64_t pqlab_hal_cycles(void)
{
    uint32_t hi, lo, hi2;
    do {
        __asm__ volatile("csrr %0, mcycleh" : "=r"(hi));
        __asm__ volatile("csrr %0, mcycle" : "=r"(lo));
        __asm__ volatile("csrr %0, mcycleh" : "=r"(hi2));
    } while (hi != hi2);
    return ((uint64_t)hi << 32) | lo;
}

const char *pqlab_hal_timer_name(void)
{
    return "mcycle";
}

void pqlab_hal_exit(int code)
{
    for (;;) {
        TB_EXIT = (uint32_t)code;
    }
}

long pqlab_hal_read(uint8_t *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        uint32_t c = TB_INPUT;
        if (c == TB_INPUT_ERROR) {
            return got != 0 ? (long)got : -1;
        }
        if (c == TB_INPUT_END) {
            break;
        }
        buf[got++] = (uint8_t)c;
    }
    return (long)got;
}

/* stack spray and measurement: ../rv32-qemu/stack.c */
