/* SPDX-License-Identifier: MIT */
#include "fw.h"

int main(void)
{
    uart_puts("hello from uart\n");
    sh_write0("hello from semihosting\n");
    uart_dec(12345);
    uart_putc('\n');
    return 7;
}
