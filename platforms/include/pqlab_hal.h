/* SPDX-License-Identifier: MIT */
/* The platform HAL of pqlab (docs/interfaces.md section 3). Every platform folder
 * implements these functions; the harness programs and the common layer's hashing
 * profiler use nothing else of the platform.
 *
 * The timer's unit depends on the platform and is named by pqlab_hal_timer_name():
 * "dwt" (core cycles), "systick-icount" (QEMU instructions), "minstret" (retired
 * instructions), "rdtsc" (TSC ticks), "perf-cycles" (PMU core cycles through
 * perf_event_open), "clock-monotonic" (nanoseconds). The host reads the unit from the
 * platform's platform.toml [timer] table (its `fallback` when the program reports that
 * timer instead). */
#ifndef PQLAB_HAL_H
#define PQLAB_HAL_H

#include <stddef.h>
#include <stdint.h>

/* Clocks, UART, FPU, timer. Call once, first thing in main(). */
void pqlab_hal_setup(void);
/* Program output: n bytes to stdout (hosted) or UART0 (bare metal). */
void pqlab_hal_send(const char *buf, size_t n);
/* The platform timer, monotonic, 64 bits wide (wraps of narrower counters are
 * extended in software). */
uint64_t pqlab_hal_cycles(void);
/* What pqlab_hal_cycles() counts; matches [timer] name of platform.toml. */
const char *pqlab_hal_timer_name(void);
/* Ends the program with an exit code the runner sees (0 = success). */
void pqlab_hal_exit(int code) __attribute__((noreturn));
/* Driver input: reads up to n bytes of stdin (hosted) or of the host file
 * "pqlab.in" through semihosting (bare metal). Returns the number of bytes read,
 * 0 at the end of the input, negative when the input cannot be opened or read. */
long pqlab_hal_read(uint8_t *buf, size_t n);
/* Stack measurement. pqlab_hal_stack_spray() records the caller's stack pointer
 * and fills the free stack below it with a pattern; pqlab_hal_stack_used() returns
 * how many bytes below that point were overwritten since (the deepest word that
 * no longer holds the pattern). Call both from the same function, around the
 * operation to measure; nothing else should run in between. */
void pqlab_hal_stack_spray(void);
size_t pqlab_hal_stack_used(void);

/* The read-only image as loaded: vector table, code, constants and the initial
 * values of .data. Returns its length and sets *start; returns 0 where the platform
 * protects it otherwise (hosted: the OS maps code read-only, a store faults). The
 * harness checks that it is unchanged at the end of every run: on QEMU's machines
 * that memory is RAM, so a store through a NULL or wild pointer would otherwise go
 * unnoticed. */
size_t pqlab_hal_code_region(const uint8_t **start);

/* The word written by the stack spray. */
#define PQLAB_HAL_STACK_PATTERN 0xa5c35a3cu

#endif
