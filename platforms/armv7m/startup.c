/* SPDX-License-Identifier: MIT */
/* Start-up code of the ARMv7-M bare-metal platforms: vector table, reset handler,
 * fault handlers. The vector table layout is the one of the ARMv7-M Architecture
 * Reference Manual, B1.5.3 (entry 0: initial SP, 1: reset, 2: NMI, 3: HardFault,
 * 4..6: MemManage, BusFault, UsageFault, 11: SVCall, 12: DebugMonitor, 14: PendSV,
 * 15: SysTick, 16...: external interrupts). */
#include <stdint.h>

#include "armv7m.h"
#include "pqlab_hal.h"

int main(void);

void pqlab_armv7m_reset(void) __attribute__((noreturn));
void pqlab_armv7m_fault_entry(void);
void pqlab_armv7m_fault_report(const uint32_t *frame, uint32_t exc_return) __attribute__((noreturn, used));

typedef void (*pqlab_vector)(void);

/* 16 system exceptions + 32 external interrupts (the MPS2 images use fewer;
 * none is enabled, so all of them go to the fault reporter). */
__attribute__((section(".vectors"), used)) const pqlab_vector pqlab_armv7m_vectors[48] = {
    (pqlab_vector)__stack_top,
    pqlab_armv7m_reset,
    pqlab_armv7m_fault_entry, /* NMI */
    pqlab_armv7m_fault_entry, /* HardFault */
    pqlab_armv7m_fault_entry, /* MemManage */
    pqlab_armv7m_fault_entry, /* BusFault */
    pqlab_armv7m_fault_entry, /* UsageFault */
    0,
    0,
    0,
    0,
    pqlab_armv7m_fault_entry, /* SVCall */
    pqlab_armv7m_fault_entry, /* DebugMonitor */
    0,
    pqlab_armv7m_fault_entry, /* PendSV */
    pqlab_armv7m_systick_isr,
    pqlab_armv7m_fault_entry,
    pqlab_armv7m_fault_entry,
    pqlab_armv7m_fault_entry,
    pqlab_armv7m_fault_entry,
    pqlab_armv7m_fault_entry,
    pqlab_armv7m_fault_entry,
    pqlab_armv7m_fault_entry,
    pqlab_armv7m_fault_entry,
    pqlab_armv7m_fault_entry,
    pqlab_armv7m_fault_entry,
    pqlab_armv7m_fault_entry,
    pqlab_armv7m_fault_entry,
    pqlab_armv7m_fault_entry,
    pqlab_armv7m_fault_entry,
    pqlab_armv7m_fault_entry,
    pqlab_armv7m_fault_entry,
    pqlab_armv7m_fault_entry,
    pqlab_armv7m_fault_entry,
    pqlab_armv7m_fault_entry,
    pqlab_armv7m_fault_entry,
    pqlab_armv7m_fault_entry,
    pqlab_armv7m_fault_entry,
    pqlab_armv7m_fault_entry,
    pqlab_armv7m_fault_entry,
    pqlab_armv7m_fault_entry,
    pqlab_armv7m_fault_entry,
    pqlab_armv7m_fault_entry,
    pqlab_armv7m_fault_entry,
    pqlab_armv7m_fault_entry,
    pqlab_armv7m_fault_entry,
    pqlab_armv7m_fault_entry,
    pqlab_armv7m_fault_entry,
};

/* The reset path runs from flash on every platform: a linker script that puts the code in
 * tightly coupled memory (nucleo-h743zi's link.ld: ITCM) keeps this section in flash and
 * gives the code's load address (__itcm_load) and run addresses [__itcm_start, __itcm_end);
 * armv7m.ld makes that range empty. The copy writes through a volatile pointer so that the
 * compiler cannot turn the loop into a call of memcpy, which itself lies in the ITCM. */
__attribute__((section(".text.pqlab_boot"))) void pqlab_armv7m_reset(void)
{
    const uint32_t *isrc = __itcm_load;
    for (volatile uint32_t *dst = __itcm_start; dst < __itcm_end; dst++) {
        *dst = *isrc++;
    }
    /* the copied code is fetched by the instruction side: complete the writes first
     * (ARMv7-M ARM A3.7.3, DSB and ISB after writing instructions) */
    __asm__ volatile("dsb\n\tisb" ::: "memory");
#if defined(__ARM_FP)
    /* Full access to CP10 and CP11 (the FPU) before any floating-point
     * instruction: CPACR bits 20..23 (ARMv7-M ARM B3.2.20). Without it the first
     * FP instruction raises a UsageFault (NOCP). */
    SCB_CPACR |= 0xFu << 20;
    __asm__ volatile("dsb\n\tisb" ::: "memory");
#endif
    /* .data: copy the initial values from flash; .bss: zero. Word loops: the
     * linker script aligns both sections to 4 bytes. */
    const uint32_t *src = __data_load;
    for (uint32_t *dst = __data_start; dst < __data_end; dst++) {
        *dst = *src++;
    }
    for (uint32_t *dst = __bss_start; dst < __bss_end; dst++) {
        *dst = 0;
    }
    pqlab_hal_exit(main());
}

/* A small stack of its own for the fault reporter, so that a fault caused by
 * stack exhaustion can still be reported. */
static uint32_t fault_stack[256] __attribute__((aligned(8)));
uint32_t *const pqlab_armv7m_fault_stack_top = fault_stack + 256;

/* Entry of every fault and unexpected exception: r0 = the stacked exception frame
 * (MSP or PSP, bit 2 of EXC_RETURN, B1.5.8), r1 = EXC_RETURN; then switch to the
 * fault stack and report. */
__attribute__((naked)) void pqlab_armv7m_fault_entry(void)
{
    __asm__ volatile("tst lr, #4\n\t"
                     "ite eq\n\t"
                     "mrseq r0, msp\n\t"
                     "mrsne r0, psp\n\t"
                     "mov r1, lr\n\t"
                     "ldr r2, =pqlab_armv7m_fault_stack_top\n\t"
                     "ldr r2, [r2]\n\t"
                     "mov sp, r2\n\t"
                     "b pqlab_armv7m_fault_report\n\t"
                     ".ltorg\n\t");
}

static uint32_t ipsr(void)
{
    uint32_t v;
    __asm__ volatile("mrs %0, ipsr" : "=r"(v));
    return v;
}

void pqlab_armv7m_fault_report(const uint32_t *frame, uint32_t exc_return)
{
    /* The basic exception frame (B1.5.6): r0 r1 r2 r3 r12 lr pc xpsr. The frame
     * pointer is only trusted when it lies in RAM (a fault while stacking can
     * leave it anywhere). */
    uint32_t exc = ipsr() & 0x1ffu;
    uintptr_t f = (uintptr_t)frame;
    /* a stack pointer at or below the top of the MPU guard: the stack overflowed
     * (and the frame could not be stacked, so it is not read) */
    int overflow = pqlab_armv7m_guard_end != 0 && f < pqlab_armv7m_guard_end + 32u;
    int frame_ok = !overflow && f >= (uintptr_t)__data_start && f + 32 <= (uintptr_t)__stack_top;
    pqlab_armv7m_uart_init();
    pqlab_armv7m_puts("\n#fault ");
    pqlab_armv7m_puts(overflow   ? "stack-overflow"
                      : exc == 3 ? "hardfault"
                      : exc == 4 ? "memmanage"
                      : exc == 5 ? "busfault"
                      : exc == 6 ? "usagefault"
                                 : "exception");
    pqlab_armv7m_puts(" pc=");
    pqlab_armv7m_puthex(frame_ok ? frame[6] : 0);
    pqlab_armv7m_puts(" lr=");
    pqlab_armv7m_puthex(frame_ok ? frame[5] : 0);
    pqlab_armv7m_puts(" sp=");
    pqlab_armv7m_puthex((uint32_t)f);
    pqlab_armv7m_puts(" exc=");
    pqlab_armv7m_puthex(exc);
    pqlab_armv7m_puts(" excret=");
    pqlab_armv7m_puthex(exc_return);
    pqlab_armv7m_puts(" cfsr=");
    pqlab_armv7m_puthex(SCB_CFSR);
    pqlab_armv7m_puts(" hfsr=");
    pqlab_armv7m_puthex(SCB_HFSR);
    pqlab_armv7m_puts(" bfar=");
    pqlab_armv7m_puthex(SCB_BFAR);
    pqlab_armv7m_puts("\n");
    pqlab_hal_exit(3);
}
