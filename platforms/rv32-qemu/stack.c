/* SPDX-License-Identifier: MIT */
/* Stack measurement of the RV32 platforms (rv32-qemu, cv32e40p-rtl, cv32e40p-nofpu-rtl):
 * spray [guard end or __stack_limit, SP) with the pattern, then find the lowest word that
 * changed. The HAL of each platform sets pqlab_rv32_guard_end when it arms its stack guard. */
#include <stddef.h>
#include <stdint.h>

#include "pqlab_hal.h"

extern uint32_t __stack_limit[];
extern uintptr_t pqlab_rv32_guard_end;

/* [__stack_limit, SP): no red zone in the RISC-V psABI, no interrupts */

#ifndef PQLAB_STACK_SPRAY_MAX
#define PQLAB_STACK_SPRAY_MAX (1024u * 1024u)
#endif

static uintptr_t spray_top, spray_bottom;

__attribute__((noinline)) void pqlab_hal_stack_spray(void)
{
    uintptr_t sp;
    __asm__ volatile("mv %0, sp" : "=r"(sp));
    uintptr_t top = sp & ~(uintptr_t)3;
    uintptr_t bottom = pqlab_rv32_guard_end != 0 ? pqlab_rv32_guard_end : (uintptr_t)__stack_limit;
    if (top - bottom > PQLAB_STACK_SPRAY_MAX) {
        bottom = top - PQLAB_STACK_SPRAY_MAX;
    }
    spray_top = top;
    spray_bottom = bottom;
    for (volatile uint32_t *p = (volatile uint32_t *)top - 1; (uintptr_t)p >= bottom; p--) {
        *p = PQLAB_HAL_STACK_PATTERN;
    }
}

__attribute__((noinline)) size_t pqlab_hal_stack_used(void)
{
    const volatile uint32_t *p = (const volatile uint32_t *)spray_bottom;
    while ((uintptr_t)p < spray_top && *p == PQLAB_HAL_STACK_PATTERN) {
        p++;
    }
    return spray_top - (uintptr_t)p;
}
