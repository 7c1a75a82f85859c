/* SPDX-License-Identifier: MIT */
/* STM32F4DISCOVERY (STM32F407VG, Cortex-M4F).
 * Documents: RM0090 rev 19 (STM32F405/415, F407/417, F427/437, F429/439 reference manual),
 * UM1472 rev 7 (Discovery kit with STM32F407VG user manual), DS8626 (STM32F405xx/F407xx
 * datasheet).
 * - Clock: 24 MHz from the 8 MHz crystal X2 on HSE (UM1472 6.3 "OSC clock"): PLL
 *   M = 8 (1 MHz VCO input), N = 192 (192 MHz VCO), P = 8 (24 MHz SYSCLK), Q = 4 (48 MHz);
 *   RM0090 6.3.2 RCC_PLLCFGR (VCO input 1-2 MHz, VCO output 100-432 MHz). AHB, APB1,
 *   APB2 undivided (24 MHz). pqm4's benchmark clock for this board. If HSE does not start,
 *   the same 24 MHz from HSI (16 MHz, M = 16) so that the board still answers.
 * - Flash: 0 wait states (RM0090 3.5.1 Table 10: up to 30 MHz at 2.7-3.6 V), ART
 *   instruction and data caches on, prefetch off (FLASH_ACR, RM0090 3.9.1).
 * - Console: USART2, TX PA2, RX PA3, AF7 (DS8626 Table 9, alternate function mapping),
 *   115200 8N1 from PCLK1 = 24 MHz: BRR = 24 MHz / 115200 = 208.3 -> 208 (RM0090 30.3.4).
 *   This board's ST-LINK/V2 has no virtual COM port on these pins: connect a 3.3 V
 *   USB-serial adapter to PA2 (its RX) and PA3 (its TX), as pqm4 does.
 * Register addresses: RM0090 2.3 Table 1 (RCC 0x40023800, FLASH 0x40023C00, GPIOA
 * 0x40020000, USART2 0x40004400). */
#include "../stm32/stm32.h"

#define RCC 0x40023800u
#define RCC_CR PQLAB_REG(RCC + 0x00u)
#define RCC_PLLCFGR PQLAB_REG(RCC + 0x04u)
#define RCC_CFGR PQLAB_REG(RCC + 0x08u)
#define RCC_AHB1ENR PQLAB_REG(RCC + 0x30u)
#define RCC_APB1ENR PQLAB_REG(RCC + 0x40u)
#define FLASH_ACR PQLAB_REG(0x40023C00u)
#define GPIOA 0x40020000u
#define USART2 0x40004400u

void pqlab_armv7m_clock_init(void)
{
    stm32_vtor();
    /* flash first: 0 WS, ICEN (bit 9), DCEN (bit 10) */
    FLASH_ACR = (1u << 9) | (1u << 10);
    RCC_CR |= 1u << 16; /* HSEON */
    int hse = stm32_wait(STM32_REGP(RCC + 0x00u), 1u << 17, 1u << 17, 1000000u);
    uint32_t m = hse ? 8u : 16u;
    RCC_PLLCFGR = m | (192u << 6) | (3u << 16) /* P = 8 */ | ((hse ? 1u : 0u) << 22) | (4u << 24);
    RCC_CR |= 1u << 24; /* PLLON */
    stm32_wait(STM32_REGP(RCC + 0x00u), 1u << 25, 1u << 25, 1000000u);
    RCC_CFGR = (RCC_CFGR & ~3u) | 2u; /* SW = PLL, prescalers /1 */
    stm32_wait(STM32_REGP(RCC + 0x08u), 3u << 2, 2u << 2, 1000000u);
}

void pqlab_armv7m_uart_init(void)
{
    RCC_AHB1ENR |= 1u << 0;  /* GPIOAEN */
    RCC_APB1ENR |= 1u << 17; /* USART2EN */
    (void)RCC_APB1ENR;       /* a read-back: the clock is on before the first access */
    stm32_gpio_af(GPIOA, 2, 7, 0);
    stm32_gpio_af(GPIOA, 3, 7, 1);
    stm32_usart_v1_init(USART2, 208u);
}

void pqlab_serial_putc(uint8_t c)
{
    stm32_usart_v1_putc(USART2, c);
}

int pqlab_serial_getc(void)
{
    return stm32_usart_v1_getc(USART2);
}
