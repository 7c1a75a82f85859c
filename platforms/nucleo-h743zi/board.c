/* SPDX-License-Identifier: MIT */
/* NUCLEO-H743ZI / NUCLEO-H743ZI2 (STM32H743ZI, Cortex-M7 with FPv5-D16).
 * Documents: RM0433 rev 8 (STM32H742/743/753/750 reference manual), UM2407 rev 4 (STM32H7
 * Nucleo-144 boards MB1364 user manual; UM1974 for the older MB1137), DS12110
 * (STM32H742xI/G, STM32H743xI/G datasheet).
 * - Supply and voltage: LDO supply (PWR_CR3, written once after reset as RM0433 6.8.4
 *   requires; NUCLEO-H743ZI/ZI2 power the part through its LDO), voltage scale VOS1
 *   (PWR_D3CR, RM0433 6.8.6), which allows 400 MHz.
 * - Clock: 400 MHz from HSI (64 MHz) through PLL1: DIVM1 = 4 (16 MHz input, PLL1RGE 8-16
 *   MHz), DIVN1 = 50 (800 MHz, wide VCO range: 192-836 MHz in the revision Y datasheet,
 *   192-960 MHz in revision V's), DIVP1 = 2 (400 MHz), DIVQ1 =
 *   4, DIVR1 = 2 (RM0433 8.7.11-8.7.13). HPRE /2 (AHB, AXI 200 MHz), D1PPRE, D2PPRE1,
 *   D2PPRE2, D3PPRE /2 (100 MHz APB clocks, their maximum at VOS1).
 * - Flash: 2 wait states, WRHIGHFREQ = 2 (RM0433 4.3.8 Table 17: AXI clock 185-210 MHz at
 *   VOS1). Code in the 64 KiB ITCM where it fits (link.ld: copied from flash by the reset
 *   handler), else from flash (AXI, 0x08000000) through the L1 instruction cache
 *   (link-flash.ld, platform.toml fallback_ldflags); data and stack in the 128 KiB DTCM.
 *   L1 instruction and data caches on (they serve the flash and AXI; TCM is not cached).
 * - Console: USART3, TX PD8, RX PD9, AF7 (DS12110 Table 9), wired to the ST-LINK virtual
 *   COM port (UM2407 6.8). 115200 8N1 from its default kernel clock PCLK1 = 100 MHz:
 *   BRR = 100 MHz / 115200 = 868 (RM0433 48.5.7).
 * Register addresses: RM0433 2.3.2 Table 8 (RCC 0x58024400, PWR 0x58024800, FLASH
 * 0x52002000, GPIOD 0x58020C00, USART3 0x40004800), checked against ST's CMSIS
 * stm32h743xx.h: docs/boards-facts.md. */
#include "../stm32/stm32.h"

#define RCC 0x58024400u
#define RCC_CR PQLAB_REG(RCC + 0x00u)
#define RCC_CFGR PQLAB_REG(RCC + 0x10u)
#define RCC_D1CFGR PQLAB_REG(RCC + 0x18u)
#define RCC_D2CFGR PQLAB_REG(RCC + 0x1Cu)
#define RCC_D3CFGR PQLAB_REG(RCC + 0x20u)
#define RCC_PLLCKSELR PQLAB_REG(RCC + 0x28u)
#define RCC_PLLCFGR PQLAB_REG(RCC + 0x2Cu)
#define RCC_PLL1DIVR PQLAB_REG(RCC + 0x30u)
#define RCC_AHB4ENR PQLAB_REG(RCC + 0xE0u)
#define RCC_APB1LENR PQLAB_REG(RCC + 0xE8u)
#define PWR 0x58024800u
#define PWR_CR3 PQLAB_REG(PWR + 0x0Cu)
#define PWR_D3CR PQLAB_REG(PWR + 0x18u)
#define FLASH_ACR PQLAB_REG(0x52002000u)
#define GPIOD 0x58020C00u
#define USART3 0x40004800u

void pqlab_armv7m_clock_init(void)
{
    stm32_vtor();
    /* LDO supply: LDOEN (bit 1) set, BYPASS (bit 0) and SCUEN (bit 2) clear, in one write:
     * clearing SCUEN locks the supply configuration until the next power-on reset, as
     * ST's HAL (HAL_PWREx_ConfigSupply) does for the parts without SMPS */
    PWR_CR3 = (PWR_CR3 & ~7u) | (1u << 1);
    stm32_wait(STM32_REGP(PWR + 0x04u), 1u << 13, 1u << 13, 1000000u); /* CSR1.ACTVOSRDY */
    PWR_D3CR = (PWR_D3CR & ~(3u << 14)) | (3u << 14);                  /* VOS1 */
    stm32_wait(STM32_REGP(PWR + 0x18u), 1u << 13, 1u << 13, 1000000u); /* VOSRDY */
    /* flash before the clock goes up: LATENCY 2, WRHIGHFREQ 2 */
    FLASH_ACR = 2u | (2u << 4);
    stm32_wait(STM32_REGP(0x52002000u), 15u, 2u, 1000000u);
    RCC_PLLCKSELR = (RCC_PLLCKSELR & ~(3u | (63u << 4))) | (4u << 4); /* HSI, DIVM1 = 4 */
    /* PLL1RGE = 3 (8-16 MHz), wide VCO, integer mode, DIVP1EN, DIVQ1EN, DIVR1EN */
    RCC_PLLCFGR = (RCC_PLLCFGR & ~(15u | (7u << 16))) | (3u << 2) | (7u << 16);
    RCC_PLL1DIVR = (50u - 1u) | ((2u - 1u) << 9) | ((4u - 1u) << 16) | ((2u - 1u) << 24);
    RCC_CR |= 1u << 24; /* PLL1ON */
    stm32_wait(STM32_REGP(RCC + 0x00u), 1u << 25, 1u << 25, 1000000u);
    RCC_D1CFGR = (8u << 0) | (4u << 4); /* HPRE /2, D1PPRE /2, D1CPRE /1 */
    RCC_D2CFGR = (4u << 4) | (4u << 8); /* D2PPRE1 /2, D2PPRE2 /2 */
    RCC_D3CFGR = 4u << 4;               /* D3PPRE /2 */
    RCC_CFGR = (RCC_CFGR & ~7u) | 3u;   /* SW = PLL1 */
    stm32_wait(STM32_REGP(RCC + 0x10u), 7u << 3, 3u << 3, 1000000u);
    stm32_m7_caches_on();
}

void pqlab_armv7m_uart_init(void)
{
    RCC_AHB4ENR |= 1u << 3;   /* GPIODEN */
    RCC_APB1LENR |= 1u << 18; /* USART3EN */
    (void)RCC_APB1LENR;
    stm32_gpio_af(GPIOD, 8, 7, 0);
    stm32_gpio_af(GPIOD, 9, 7, 1);
    stm32_usart_v2_init(USART3, 868u);
}

void pqlab_serial_putc(uint8_t c)
{
    stm32_usart_v2_putc(USART3, c);
}

int pqlab_serial_getc(void)
{
    return stm32_usart_v2_getc(USART3);
}
