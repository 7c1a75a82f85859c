/* SPDX-License-Identifier: MIT */
/* An access to the window of the removed data-port Keccak unit (0x10001000-0x100010ff, slot 0
   before h70; docs/accel.md), chosen by ACC_BAD: 1 a word store to its first state word, 2 a
   word load of its CTRL word, 3 a byte store. The window is unmapped: each must end in
   '#fault bus' on cv32e40p-acc-rtl and on the model (tests/test_accel_keccak.py). */
#include <stdint.h>

#include "pqlab_hal.h"

int main(void)
{
    pqlab_hal_setup();
#if ACC_BAD == 1
    *(volatile uint32_t *)0x10001000u = 1u;
#elif ACC_BAD == 2
    (void)*(volatile uint32_t *)0x100010c8u;
#else
    *(volatile uint8_t *)0x10001004u = 1u;
#endif
    pqlab_hal_send("#end ok\n", 8);
    pqlab_hal_exit(0);
    return 0;
}
