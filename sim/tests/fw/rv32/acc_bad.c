/* SPDX-License-Identifier: MIT */
/* An access the Keccak unit does not support (docs/accel.md), chosen by ACC_BAD: 1 a byte
   store, 2 a halfword load, 3 a word beyond CTRL. Each must end in '#fault bus' on
   cv32e40p-acc-rtl and on the model (tests/test_accel_keccak.py). */
#include <stdint.h>

#include "pqlab_hal.h"

int main(void)
{
    pqlab_hal_setup();
#if ACC_BAD == 1
    *(volatile uint8_t *)0x10001004u = 1u;
#elif ACC_BAD == 2
    (void)*(volatile uint16_t *)0x10001008u;
#else
    *(volatile uint32_t *)0x100010ccu = 1u;
#endif
    pqlab_hal_send("#end ok\n", 8);
    pqlab_hal_exit(0);
    return 0;
}
