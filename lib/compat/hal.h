/* SPDX-License-Identifier: MIT */
/* Compat: the pqm4/mupq hal.h, mapped onto the pqlab platform HAL
 * (platforms/include/pqlab_hal.h) by lib/compat/compat_hal.c:
 *   hal_setup        -> pqlab_hal_setup (the platform runs at its benchmark clock)
 *   hal_send_str     -> pqlab_hal_send of the string and a newline (as pqm4 does)
 *   hal_get_time     -> pqlab_hal_cycles
 *   hal_spraystack   -> pqlab_hal_stack_spray
 *   hal_checkstack   -> pqlab_hal_stack_used
 *   hal_get_stack_size -> pqlab_hal_stack_size() if the platform defines it, else 0 */
#ifndef HAL_H
#define HAL_H

#include <stddef.h>
#include <stdint.h>

enum clock_mode { CLOCK_FAST, CLOCK_BENCHMARK };

void hal_setup(const enum clock_mode clock);
void hal_send_str(const char *in);
uint64_t hal_get_time(void);
size_t hal_get_stack_size(void);
void hal_spraystack(void);
size_t hal_checkstack(void);

/* mupq code built with -DPROFILE_HASHING declares and adds to `hash_cycles`; route it
 * to pqlab's counter so that the hashing program sees it */
#ifdef PROFILE_HASHING
#define hash_cycles pqlab_hash_cycles
#endif

#endif
