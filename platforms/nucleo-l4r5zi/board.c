/* SPDX-License-Identifier: MIT */
/* NUCLEO-L4R5ZI (STM32L4R5ZI, Cortex-M4F).
 * Documents: RM0432 rev 9 (STM32L4+ series reference manual), UM2179 rev 6 (STM32 Nucleo-144
 * boards MB1312 user manual), DS12023 (STM32L4R5xx datasheet).
 * - Clock: 20 MHz, pqm4's benchmark clock for this board, from HSI16 through the main PLL:
 *   M = 4 (4 MHz input), N = 40 (160 MHz VCO), R = 8 (20 MHz SYSCLK); RM0432 6.4.4
 *   RCC_PLLCFGR (input 2.66-16 MHz, VCO 64-344 MHz). AHB, APB1, APB2 undivided. Voltage
 *   range 1 (the reset default).
 * - Flash: 0 wait states (RM0432 3.3.3 Table 12: up to 20 MHz in range 1), instruction
 *   and data caches on, prefetch off (FLASH_ACR, RM0432 3.7.1).
 * - Console: LPUART1, TX PG7, RX PG8, AF8 (DS12023 Table 17), wired to the ST-LINK/V3
 *   virtual COM port (UM2179 6.9 "USART communication"). Port G sits on VDDIO2, which
 *   must be declared valid first (PWR_CR2.IOSV, RM0432 5.4.2). 115200 8N1 from PCLK1 =
 *   20 MHz: BRR = 256 x 20 MHz / 115200 = 44444 (RM0432 52.4.8, LPUART baud rate).
 * Register addresses: RM0432 2.2.2 Table 3 (RCC 0x40021000, FLASH 0x40022000, PWR
 * 0x40007000, GPIOG 0x48001800, LPUART1 0x40008000). */
#include "../stm32/stm32.h"

#define RCC 0x40021000u
#define RCC_CR PQLAB_REG(RCC + 0x00u)
#define RCC_CFGR PQLAB_REG(RCC + 0x08u)
#define RCC_PLLCFGR PQLAB_REG(RCC + 0x0Cu)
#define RCC_AHB2ENR PQLAB_REG(RCC + 0x4Cu)
#define RCC_APB1ENR1 PQLAB_REG(RCC + 0x58u)
#define RCC_APB1ENR2 PQLAB_REG(RCC + 0x5Cu)
#define RCC_CCIPR PQLAB_REG(RCC + 0x88u)
#define FLASH_ACR PQLAB_REG(0x40022000u)
#define PWR_CR2 PQLAB_REG(0x40007004u)
#define GPIOG 0x48001800u
#define LPUART1 0x40008000u

void pqlab_armv7m_clock_init(void)
{
    stm32_vtor();
    FLASH_ACR = (1u << 9) | (1u << 10); /* LATENCY 0, ICEN, DCEN */
    RCC_CR |= 1u << 8;                  /* HSION */
    stm32_wait(STM32_REGP(RCC + 0x00u), 1u << 10, 1u << 10, 1000000u);
    /* PLLSRC = HSI16 (2), PLLM = 4 (field 3), PLLN = 40, PLLR = 8 (field 3), PLLREN */
    RCC_PLLCFGR = 2u | (3u << 4) | (40u << 8) | (1u << 24) | (3u << 25);
    RCC_CR |= 1u << 24; /* PLLON */
    stm32_wait(STM32_REGP(RCC + 0x00u), 1u << 25, 1u << 25, 1000000u);
    RCC_CFGR = (RCC_CFGR & ~3u) | 3u; /* SW = PLL */
    stm32_wait(STM32_REGP(RCC + 0x08u), 3u << 2, 3u << 2, 1000000u);
}

void pqlab_armv7m_uart_init(void)
{
    RCC_APB1ENR1 |= 1u << 28; /* PWREN */
    (void)RCC_APB1ENR1;
    PWR_CR2 |= 1u << 9;      /* IOSV: VDDIO2 valid */
    RCC_AHB2ENR |= 1u << 6;  /* GPIOGEN */
    RCC_APB1ENR2 |= 1u << 0; /* LPUART1EN */
    (void)RCC_APB1ENR2;
    RCC_CCIPR &= ~(3u << 10); /* LPUART1SEL = PCLK1 */
    stm32_gpio_af(GPIOG, 7, 8, 0);
    stm32_gpio_af(GPIOG, 8, 8, 1);
    stm32_usart_v2_init(LPUART1, 44444u);
}

void pqlab_serial_putc(uint8_t c)
{
    stm32_usart_v2_putc(LPUART1, c);
}

int pqlab_serial_getc(void)
{
    return stm32_usart_v2_getc(LPUART1);
}
