/* SPDX-License-Identifier: MIT */
/* NUCLEO-F767ZI (STM32F767ZI, Cortex-M7 with FPv5-D16).
 * Documents: RM0410 rev 4 (STM32F76xxx/77xxx reference manual), UM1974 rev 9 (STM32
 * Nucleo-144 boards MB1137 user manual), DS11532 (STM32F765xx/F767xx datasheet).
 * - Clock: 216 MHz, the part's maximum, from HSI (16 MHz) through the main PLL: M = 8
 *   (2 MHz input), N = 216 (432 MHz VCO), P = 2 (216 MHz), Q = 9 (48 MHz); RM0410 5.3.2
 *   RCC_PLLCFGR (VCO 100-432 MHz). Above 180 MHz the regulator needs voltage scale 1 and
 *   over-drive (RM0410 4.1.4, the sequence of "Entering Over-drive mode"). AHB /1, APB1 /4
 *   (54 MHz, its maximum), APB2 /2 (108 MHz).
 * - Flash: 7 wait states (RM0410 3.3.2 Table 7: 210-216 MHz at 2.7-3.6 V), ART
 *   accelerator and prefetch on (FLASH_ACR ARTEN, PRFTEN). Code runs from flash through
 *   the ITCM interface at 0x00200000 (the boot address of BOOT_ADD0's default, RM0410 2.5),
 *   data and stack in the 128 KiB DTCM (link.ld): the Cortex-M7 study's setting (TCM where
 *   it fits, caches on). L1 instruction and data caches on (they serve AXI accesses; TCM
 *   is never cached).
 * - Console: USART3, TX PD8, RX PD9, AF7 (DS11532 Table 13), wired to the ST-LINK virtual
 *   COM port (UM1974 6.9). 115200 8N1 from PCLK1 = 54 MHz: BRR = 54 MHz / 115200 = 468.75
 *   -> 469 (RM0410 34.5.4).
 * Register addresses: RM0410 2.2.2 Table 1 (RCC 0x40023800, FLASH 0x40023C00, PWR
 * 0x40007000, GPIOD 0x40020C00, USART3 0x40004800). */
#include "../stm32/stm32.h"

#define RCC 0x40023800u
#define RCC_CR PQLAB_REG(RCC + 0x00u)
#define RCC_PLLCFGR PQLAB_REG(RCC + 0x04u)
#define RCC_CFGR PQLAB_REG(RCC + 0x08u)
#define RCC_AHB1ENR PQLAB_REG(RCC + 0x30u)
#define RCC_APB1ENR PQLAB_REG(RCC + 0x40u)
#define FLASH_ACR PQLAB_REG(0x40023C00u)
#define PWR_CR1 PQLAB_REG(0x40007000u)
#define PWR_CSR1 0x40007004u
#define GPIOD 0x40020C00u
#define USART3 0x40004800u

void pqlab_armv7m_clock_init(void)
{
    stm32_vtor();
    RCC_APB1ENR |= 1u << 28; /* PWREN */
    (void)RCC_APB1ENR;
    PWR_CR1 |= 3u << 14; /* VOS = scale 1 */
    /* PLLSRC = HSI (bit 22 clear), M = 8, N = 216, P = 2 (field 0), Q = 9, R = 2 */
    RCC_PLLCFGR = 8u | (216u << 6) | (0u << 16) | (9u << 24) | (2u << 28);
    RCC_CR |= 1u << 24; /* PLLON */
    stm32_wait(STM32_REGP(RCC + 0x00u), 1u << 25, 1u << 25, 1000000u);
    PWR_CR1 |= 1u << 16; /* ODEN */
    stm32_wait(STM32_REGP(PWR_CSR1), 1u << 16, 1u << 16, 1000000u);
    PWR_CR1 |= 1u << 17; /* ODSWEN */
    stm32_wait(STM32_REGP(PWR_CSR1), 1u << 17, 1u << 17, 1000000u);
    FLASH_ACR = 7u | (1u << 8) | (1u << 9); /* LATENCY 7, PRFTEN, ARTEN */
    stm32_wait(STM32_REGP(0x40023C00u), 15u, 7u, 1000000u);
    /* prescalers before the switch: HPRE /1, PPRE1 /4 (101 at bits 12:10), PPRE2 /2 (100 at
     * bits 15:13); then SW = PLL */
    RCC_CFGR = (RCC_CFGR & ~((7u << 10) | (7u << 13) | (15u << 4))) | (5u << 10) | (4u << 13);
    RCC_CFGR = (RCC_CFGR & ~3u) | 2u;
    stm32_wait(STM32_REGP(RCC + 0x08u), 3u << 2, 2u << 2, 1000000u);
    stm32_m7_caches_on();
}

void pqlab_armv7m_uart_init(void)
{
    RCC_AHB1ENR |= 1u << 3;  /* GPIODEN */
    RCC_APB1ENR |= 1u << 18; /* USART3EN */
    (void)RCC_APB1ENR;
    stm32_gpio_af(GPIOD, 8, 7, 0);
    stm32_gpio_af(GPIOD, 9, 7, 1);
    stm32_usart_v2_init(USART3, 469u);
}

void pqlab_serial_putc(uint8_t c)
{
    stm32_usart_v2_putc(USART3, c);
}

int pqlab_serial_getc(void)
{
    return stm32_usart_v2_getc(USART3);
}
