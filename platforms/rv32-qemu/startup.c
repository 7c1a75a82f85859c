/* SPDX-License-Identifier: MIT */
/* Start-up code of rv32-qemu (QEMU virt, machine mode, -bios none: QEMU loads the
 * ELF and jumps to 0x80000000). Sets the global pointer and the stack, copies
 * .data when its load address differs (it does not under QEMU, which loads the
 * ELF segments in place), zeroes .bss, installs the trap handler, calls main.
 * RISC-V Privileged Architecture, version 1.10 (what -misa-spec=2.2 targets):
 * mtvec 3.1.12, mcause 3.1.20, mepc 3.1.19, mtval (mbadaddr) 3.1.21. */
#include <stdint.h>

#include "pqlab_hal.h"

int main(void);
void pqlab_rv32_cstart(void) __attribute__((noreturn, used));
void pqlab_rv32_trap_report(void) __attribute__((noreturn, used));

extern uint32_t __data_load[], __data_start[], __data_end[], __bss_start[], __bss_end[];

/* _start must be the first code at the boot address (0x80000000 here, 0x1000 on
 * cv32e40p-rtl, which shares this file; section .text.start, placed first by
 * link.ld). Relaxation is off while gp is loaded, or the load of gp would be
 * relaxed against gp itself. */
__asm__(".section .text.start, \"ax\", @progbits\n"
        ".globl _start\n"
        "_start:\n"
        ".option push\n"
        ".option norelax\n"
        "    la gp, __global_pointer$\n"
        ".option pop\n"
        "    la sp, __stack_top\n"
        "    la t0, pqlab_rv32_trap_entry\n"
        "    csrw mtvec, t0\n"
        "    j pqlab_rv32_cstart\n"
        /* 256: CV32E40P's mtvec ignores the low 8 bits of the base (cv32e40p-rtl uses this file) */
        ".balign 256\n"
        "pqlab_rv32_trap_entry:\n"
        "    csrw mscratch, sp\n"
        "    la sp, pqlab_rv32_fault_stack_top\n"
        "    j pqlab_rv32_trap_report\n"
        ".text\n");

void pqlab_rv32_cstart(void)
{
    if ((uintptr_t)__data_load != (uintptr_t)__data_start) {
        const uint32_t *src = __data_load;
        for (uint32_t *dst = __data_start; dst < __data_end; dst++) {
            *dst = *src++;
        }
    }
    for (uint32_t *dst = __bss_start; dst < __bss_end; dst++) {
        *dst = 0;
    }
    pqlab_hal_exit(main());
}

/* a stack of its own for the trap reporter (a trap may come from stack exhaustion) */
__attribute__((aligned(16), used)) uint32_t pqlab_rv32_fault_stack[256];
__asm__(".globl pqlab_rv32_fault_stack_top\n"
        ".set pqlab_rv32_fault_stack_top, pqlab_rv32_fault_stack + 1024\n");

static void puthex(const char *label, uint32_t v)
{
    char b[10] = {'0', 'x'};
    for (int i = 0; i < 8; i++) {
        b[2 + i] = "0123456789abcdef"[(v >> (28 - 4 * i)) & 15u];
    }
    size_t n = 0;
    while (label[n] != 0) {
        n++;
    }
    pqlab_hal_send(label, n);
    pqlab_hal_send(b, sizeof b);
}

extern uintptr_t pqlab_rv32_guard_start, pqlab_rv32_guard_end;

void pqlab_rv32_trap_report(void)
{
    uint32_t mcause, mepc, mtval, sp;
    __asm__ volatile("csrr %0, mcause" : "=r"(mcause));
    __asm__ volatile("csrr %0, mepc" : "=r"(mepc));
    __asm__ volatile("csrr %0, mbadaddr" : "=r"(mtval));
    __asm__ volatile("csrr %0, mscratch" : "=r"(sp));
    /* a store into the PMP stack guard (store access fault, mcause 7): overflow */
    int overflow =
        mcause == 7u && pqlab_rv32_guard_end != 0 && mtval >= pqlab_rv32_guard_start && mtval < pqlab_rv32_guard_end;
    /* the same first fields as the Arm reporter, so the host parses one format */
    if (overflow) {
        pqlab_hal_send("\n#fault stack-overflow", 22);
    } else {
        pqlab_hal_send("\n#fault trap", 12);
    }
    puthex(" pc=", mepc);
    puthex(" sp=", sp);
    puthex(" mcause=", mcause);
    puthex(" mtval=", mtval);
    pqlab_hal_send("\n", 1);
    pqlab_hal_exit(3);
}
