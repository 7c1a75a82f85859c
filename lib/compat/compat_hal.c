/* SPDX-License-Identifier: MIT */
/* Compat hal.h onto the pqlab platform HAL (see hal.h for the mapping). */
#include <string.h>

#include "hal.h"

/* pqlab platform HAL, platforms/include/pqlab_hal.h (docs/interfaces.md section 3) */
void pqlab_hal_setup(void);
void pqlab_hal_send(const char *buf, size_t n);
uint64_t pqlab_hal_cycles(void);
void pqlab_hal_stack_spray(void);
size_t pqlab_hal_stack_used(void);
/* optional: the size of the stack region; platforms that know it define it */
size_t pqlab_hal_stack_size(void) __attribute__((weak));

void hal_setup(const enum clock_mode clock)
{
    (void)clock; /* a pqlab platform always runs at its benchmark clock */
    pqlab_hal_setup();
}

/* pqm4's hal_send_str ends every string with a newline. Text a foreign implementation
 * prints this way goes out as comment lines ("#impl ..."), which the host's strict
 * protocol parser skips, so debug output can never be mistaken for a record. */
void hal_send_str(const char *in)
{
    const char *line = in;
    for (;;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl != NULL ? (size_t)(nl - line) : strlen(line);
        pqlab_hal_send("#impl ", 6);
        pqlab_hal_send(line, len);
        pqlab_hal_send("\n", 1);
        if (nl == NULL || nl[1] == '\0') {
            break;
        }
        line = nl + 1;
    }
}

uint64_t hal_get_time(void)
{
    return pqlab_hal_cycles();
}

size_t hal_get_stack_size(void)
{
    return pqlab_hal_stack_size != NULL ? pqlab_hal_stack_size() : 0;
}

void hal_spraystack(void)
{
    pqlab_hal_stack_spray();
}

size_t hal_checkstack(void)
{
    return pqlab_hal_stack_used();
}
