/* SPDX-License-Identifier: MIT */
/* Shared definitions of the ARMv7-M bare-metal platforms (startup.c, hal.c).
 * Register addresses: ARMv7-M Architecture Reference Manual (DDI 0403E), B3.2
 * (System Control Block), B3.3 (SysTick), C1.8 (DWT), B1.5 (exceptions);
 * CMSDK UART: Arm Cortex-M System Design Kit TRM (DDI 0479), section 4.3. */
#ifndef PQLAB_ARMV7M_H
#define PQLAB_ARMV7M_H

#include <stdint.h>

#define PQLAB_REG(a) (*(volatile uint32_t *)(uintptr_t)(a))

/* System control block (ARMv7-M ARM B3.2.2) */
#define SCB_ICSR PQLAB_REG(0xE000ED04u)
#define SCB_ICSR_PENDSTSET (1u << 26)
#define SCB_ICSR_PENDSTCLR (1u << 25)
#define SCB_CPACR PQLAB_REG(0xE000ED88u)
#define SCB_CFSR PQLAB_REG(0xE000ED28u)
#define SCB_HFSR PQLAB_REG(0xE000ED2Cu)
#define SCB_MMFAR PQLAB_REG(0xE000ED34u)
#define SCB_BFAR PQLAB_REG(0xE000ED38u)
#define SCB_SHCSR PQLAB_REG(0xE000ED24u)
#define SCB_SHCSR_MEMFAULTENA (1u << 16)
#define SCB_DEMCR PQLAB_REG(0xE000EDFCu)
#define SCB_DEMCR_TRCENA (1u << 24)

/* MPU, PMSAv7 (B3.5) */
#define MPU_TYPE PQLAB_REG(0xE000ED90u)
#define MPU_CTRL PQLAB_REG(0xE000ED94u)
#define MPU_RNR PQLAB_REG(0xE000ED98u)
#define MPU_RBAR PQLAB_REG(0xE000ED9Cu)
#define MPU_RASR PQLAB_REG(0xE000EDA0u)

/* SysTick (B3.3.2) */
#define SYST_CSR PQLAB_REG(0xE000E010u)
#define SYST_RVR PQLAB_REG(0xE000E014u)
#define SYST_CVR PQLAB_REG(0xE000E018u)
#define SYST_CSR_ENABLE (1u << 0)
#define SYST_CSR_TICKINT (1u << 1)
#define SYST_CSR_CLKSOURCE (1u << 2)

/* DWT (C1.8.7) */
#define DWT_CTRL PQLAB_REG(0xE0001000u)
#define DWT_CYCCNT PQLAB_REG(0xE0001004u)
#define DWT_LAR PQLAB_REG(0xE0001FB0u)

/* CMSDK APB UART0 of the MPS2 FPGA images (AN386/AN500 application notes) */
#define UART0_BASE 0x40004000u
#define UART_DATA PQLAB_REG(UART0_BASE + 0x00u)
#define UART_STATE PQLAB_REG(UART0_BASE + 0x04u)
#define UART_CTRL PQLAB_REG(UART0_BASE + 0x08u)
#define UART_BAUDDIV PQLAB_REG(UART0_BASE + 0x10u)
#define UART_STATE_TXFULL (1u << 0)

/* Linker script symbols (armv7m.ld) */
extern uint32_t __data_load[], __data_start[], __data_end[];
extern uint32_t __bss_start[], __bss_end[];
extern uint32_t __stack_limit[], __stack_top[];
extern const uint8_t __code_region_start[], __code_region_end[];
/* code copied to tightly coupled memory at reset (empty unless the script places some) */
extern uint32_t __itcm_load[], __itcm_start[], __itcm_end[];

/* Stack guard: PQLAB_STACK_GUARD bytes (a power of two >= 32) at the bottom of
 * the stack region made inaccessible with the MPU, so that a stack overflow
 * faults instead of silently overwriting .bss. */
#ifndef PQLAB_STACK_GUARD
#define PQLAB_STACK_GUARD 256u
#endif
/* [start, end) of the guard; both 0 when the core has no MPU */
extern uintptr_t pqlab_armv7m_guard_start, pqlab_armv7m_guard_end;

/* hal.c */
void pqlab_armv7m_uart_init(void);
void pqlab_armv7m_clock_init(void);
void pqlab_armv7m_systick_isr(void);
void pqlab_armv7m_puts(const char *s);
void pqlab_armv7m_puthex(uint32_t v);
/* Arm semihosting (Arm "Semihosting for AArch32 and AArch64", version 2.0):
 * BKPT 0xAB with the operation in r0 and the parameter block in r1. */
long pqlab_armv7m_semihost(uint32_t op, void *arg);

#endif
