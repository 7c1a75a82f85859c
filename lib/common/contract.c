/* SPDX-License-Identifier: MIT */
/* The stop of the contract checks (lib/native/api.h, -DPQLAB_CONTRACT_CHECKS): reports
 * "contract: <kernel>: <what>" through the platform HAL and exits with code 3. */
#include "../native/api.h"

#ifdef PQLAB_CONTRACT_CHECKS
#include <string.h>

#include "pqlab_hal.h"

void pqlab_contract_failed(const char *kernel, const char *what)
{
    static const char head[] = "contract: ";
    pqlab_hal_send(head, sizeof head - 1);
    pqlab_hal_send(kernel, strlen(kernel));
    pqlab_hal_send(": ", 2);
    pqlab_hal_send(what, strlen(what));
    pqlab_hal_send("\n", 1);
    pqlab_hal_exit(3);
}
#else
/* ISO C forbids an empty translation unit */
typedef int pqlab_contract_unused;
#endif
