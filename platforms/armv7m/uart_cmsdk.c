/* SPDX-License-Identifier: MIT */
/* CMSDK APB UART0 of the MPS2 images (QEMU mps2-an386/an500), transmit and receive, for
 * the serial transport (serial.c). Registers: Arm Cortex-M System Design Kit TRM (DDI
 * 0479), section 4.3: DATA +0x00, STATE +0x04 (bit 0 TX buffer full, bit 1 RX buffer
 * full), CTRL +0x08 (bit 0 TX enable, bit 1 RX enable), BAUDDIV +0x10. */
#include <stdint.h>

#include "armv7m.h"

void pqlab_serial_putc(uint8_t c);
int pqlab_serial_getc(void);

#define UART_STATE_RXFULL (1u << 1)

void pqlab_armv7m_uart_init(void)
{
    UART_BAUDDIV = 16; /* smallest divisor the CMSDK UART accepts */
    UART_CTRL = 3u;    /* TX and RX enable */
}

void pqlab_serial_putc(uint8_t c)
{
    while (UART_STATE & UART_STATE_TXFULL) {
    }
    UART_DATA = c;
}

int pqlab_serial_getc(void)
{
    if ((UART_STATE & UART_STATE_RXFULL) == 0u) {
        return -1;
    }
    return (int)(UART_DATA & 0xffu);
}
