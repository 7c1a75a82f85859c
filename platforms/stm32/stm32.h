/* SPDX-License-Identifier: MIT */
/* Helpers shared by the STM32 board platforms (stm32f4discovery, nucleo-l4r5zi,
 * nucleo-f767zi, nucleo-h743zi): GPIO alternate functions, the two USART register
 * layouts, the Cortex-M7 caches. Each board's board.c sets its clock and names its pins;
 * the documents each value comes from are named there and in docs/boards.md.
 * Nothing here has run on silicon in CI (no board attached): the boards are checked by
 * building, by their link maps, and by the same serial protocol tested over QEMU. */
#ifndef PQLAB_STM32_H
#define PQLAB_STM32_H

#include <stdint.h>

#include "../armv7m/armv7m.h"

void pqlab_serial_putc(uint8_t c);
int pqlab_serial_getc(void);

#define SCB_VTOR PQLAB_REG(0xE000ED08u)

/* Waits until (reg & mask) == want, at most `polls` reads; returns 0 when it never came. */
static inline int stm32_wait(volatile uint32_t *reg, uint32_t mask, uint32_t want, uint32_t polls)
{
    while ((*reg & mask) != want) {
        if (polls-- == 0u) {
            return 0;
        }
    }
    return 1;
}

#define STM32_REGP(a) ((volatile uint32_t *)(uintptr_t)(a))

/* GPIO, the same layout on F4 (RM0090 8.4), F7 (RM0410 6.4), L4+ (RM0432 8.5) and H7
 * (RM0433 11.4): MODER +0x00 (2 bits a pin, 10 = alternate function), OSPEEDR +0x08
 * (2 bits, 10 = high speed), PUPDR +0x0C (2 bits, 01 = pull-up), AFRL +0x20 / AFRH +0x24
 * (4 bits a pin). */
static inline void stm32_gpio_af(uint32_t base, unsigned pin, unsigned af, int pull_up)
{
    PQLAB_REG(base + 0x00u) = (PQLAB_REG(base + 0x00u) & ~(3u << (2u * pin))) | (2u << (2u * pin));
    PQLAB_REG(base + 0x08u) = (PQLAB_REG(base + 0x08u) & ~(3u << (2u * pin))) | (2u << (2u * pin));
    PQLAB_REG(base + 0x0Cu) = (PQLAB_REG(base + 0x0Cu) & ~(3u << (2u * pin))) | ((pull_up ? 1u : 0u) << (2u * pin));
    uint32_t afr = base + (pin < 8u ? 0x20u : 0x24u);
    unsigned shift = 4u * (pin & 7u);
    PQLAB_REG(afr) = (PQLAB_REG(afr) & ~(15u << shift)) | ((uint32_t)af << shift);
}

/* USART of the F4 (RM0090 30.6): SR +0x00 (RXNE bit 5, TXE bit 7; ORE bit 3 cleared by
 * reading SR then DR), DR +0x04, BRR +0x08, CR1 +0x0C (UE bit 13, TE bit 3, RE bit 2). */
static inline void stm32_usart_v1_init(uint32_t base, uint32_t brr)
{
    PQLAB_REG(base + 0x0Cu) = 0;
    PQLAB_REG(base + 0x08u) = brr;
    PQLAB_REG(base + 0x0Cu) = (1u << 13) | (1u << 3) | (1u << 2);
}

static inline void stm32_usart_v1_putc(uint32_t base, uint8_t c)
{
    while ((PQLAB_REG(base + 0x00u) & (1u << 7)) == 0u) {
    }
    PQLAB_REG(base + 0x04u) = c;
}

static inline int stm32_usart_v1_getc(uint32_t base)
{
    uint32_t sr = PQLAB_REG(base + 0x00u);
    if ((sr & ((1u << 5) | (1u << 3))) == 0u) {
        return -1;
    }
    uint32_t d = PQLAB_REG(base + 0x04u); /* also clears ORE after the SR read */
    return (sr & (1u << 5)) ? (int)(d & 0xffu) : -1;
}

/* USART of the F7 (RM0410 34.8), L4+ (RM0432 50.8; LPUART1 52.7 has the same offsets) and
 * H7 (RM0433 48.7): CR1 +0x00 (UE bit 0, RE bit 2, TE bit 3), BRR +0x0C, ISR +0x1C (ORE
 * bit 3, RXNE bit 5, TXE bit 7), ICR +0x20 (ORECF bit 3), RDR +0x24, TDR +0x28. An overrun
 * stops reception until ORE is cleared. */
static inline void stm32_usart_v2_init(uint32_t base, uint32_t brr)
{
    PQLAB_REG(base + 0x00u) = 0;
    PQLAB_REG(base + 0x0Cu) = brr;
    PQLAB_REG(base + 0x00u) = (1u << 3) | (1u << 2) | 1u;
}

static inline void stm32_usart_v2_putc(uint32_t base, uint8_t c)
{
    while ((PQLAB_REG(base + 0x1Cu) & (1u << 7)) == 0u) {
    }
    PQLAB_REG(base + 0x28u) = c;
}

static inline int stm32_usart_v2_getc(uint32_t base)
{
    uint32_t isr = PQLAB_REG(base + 0x1Cu);
    if (isr & (1u << 3)) {
        PQLAB_REG(base + 0x20u) = 1u << 3; /* a lost byte: the frame check sees it */
    }
    if ((isr & (1u << 5)) == 0u) {
        return -1;
    }
    return (int)(PQLAB_REG(base + 0x24u) & 0xffu);
}

/* Cortex-M7 L1 caches (ARMv7-M ARM B2.2.7 and B3.2, Cortex-M7 TRM 4.8): invalidate, then
 * CCR.IC (bit 17) and CCR.DC (bit 16). The data cache is invalidated set by set and way
 * by way from the geometry in CCSIDR (CSSELR = 0: level 1 data). */
#define SCB_CCR PQLAB_REG(0xE000ED14u)
#define SCB_CCSIDR PQLAB_REG(0xE000ED80u)
#define SCB_CSSELR PQLAB_REG(0xE000ED84u)
#define SCB_ICIALLU PQLAB_REG(0xE000EF50u)
#define SCB_DCISW PQLAB_REG(0xE000EF60u)

static inline void stm32_m7_caches_on(void)
{
    __asm__ volatile("dsb\n\tisb" ::: "memory");
    SCB_ICIALLU = 0;
    __asm__ volatile("dsb\n\tisb" ::: "memory");
    SCB_CCR |= 1u << 17;
    SCB_CSSELR = 0;
    __asm__ volatile("dsb" ::: "memory");
    uint32_t ccsidr = SCB_CCSIDR;
    uint32_t sets = ((ccsidr >> 13) & 0x7fffu) + 1u;
    uint32_t ways = ((ccsidr >> 3) & 0x3ffu) + 1u;
    uint32_t line_shift = (ccsidr & 7u) + 4u; /* log2(line bytes) */
    uint32_t way_shift = ways > 1u ? (uint32_t)__builtin_clz(ways - 1u) : 0u;
    for (uint32_t s = 0; s < sets; s++) {
        for (uint32_t w = 0; w < ways; w++) {
            SCB_DCISW = (s << line_shift) | (ways > 1u ? (w << way_shift) : 0u);
        }
    }
    __asm__ volatile("dsb" ::: "memory");
    SCB_CCR |= 1u << 16;
    __asm__ volatile("dsb\n\tisb" ::: "memory");
}

/* The vector table where the core looks for it: VTOR (B3.2.5) to the table's address,
 * whatever the boot alias (the M7 parts boot through the ITCM or AXI address). */
extern void (*const pqlab_armv7m_vectors[48])(void);
static inline void stm32_vtor(void)
{
    SCB_VTOR = (uint32_t)(uintptr_t)pqlab_armv7m_vectors;
    __asm__ volatile("dsb\n\tisb" ::: "memory");
}

#endif
