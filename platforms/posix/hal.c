/* SPDX-License-Identifier: MIT */
/* HAL of the hosted platforms (host, aarch64-qemu): a Linux process. Output to
 * stdout, driver input from stdin, exit code through exit().
 * Timer: rdtsc on x86-64 ("rdtsc", TSC ticks: constant rate, not core cycles on
 * modern CPUs), otherwise CLOCK_MONOTONIC in nanoseconds ("clock-monotonic"; under
 * qemu-user PMCCNTR_EL0 traps and the generic timer follows wall time). */
#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE 700
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "pqlab_hal.h"

/* A crash is reported like a bare-metal fault: one "#fault signal ..." line and
 * exit code 3. The handler runs on an alternate stack (a stack overflow leaves
 * none) and uses only write() and _exit(), which are async-signal-safe. */
static void put_hex(char *b, uint64_t v)
{
    for (int i = 0; i < 16; i++) {
        b[i] = "0123456789abcdef"[(v >> (60 - 4 * i)) & 15u];
    }
}

static void on_fault(int sig, siginfo_t *info, void *uctx)
{
    (void)uctx;
    char line[] = "\n#fault signal sig=00 addr=0x0000000000000000\n";
    line[19] = (char)('0' + (sig / 10) % 10);
    line[20] = (char)('0' + sig % 10);
    put_hex(line + 29, (uint64_t)(uintptr_t)info->si_addr);
    ssize_t w = write(1, line, sizeof line - 1);
    (void)w;
    _exit(3);
}

size_t pqlab_hal_code_region(const uint8_t **start)
{
    /* the OS maps code and constants read-only: a store there is a SIGSEGV */
    *start = NULL;
    return 0;
}

static uint8_t alt_stack[65536] __attribute__((aligned(16)));

void pqlab_hal_setup(void)
{
    stack_t ss;
    ss.ss_sp = alt_stack;
    ss.ss_size = sizeof alt_stack;
    ss.ss_flags = 0;
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    static const int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        sigaction(sigs[i], &sa, NULL);
    }
}

void pqlab_hal_send(const char *buf, size_t n)
{
    while (n > 0) {
        ssize_t w = write(1, buf, n);
        if (w <= 0) {
            _exit(4); /* the reader is gone: nothing sensible left to do */
        }
        buf += w;
        n -= (size_t)w;
    }
}

/* A platform with a timer of its own (aarch64-linux: perf_timer.c) defines
 * PQLAB_HAL_EXTERNAL_TIMER and provides the two timer functions. */
#ifndef PQLAB_HAL_EXTERNAL_TIMER
uint64_t pqlab_hal_cycles(void)
{
#if defined(__x86_64__) && !defined(PQLAB_HOST_CLOCK_MONOTONIC)
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

const char *pqlab_hal_timer_name(void)
{
#if defined(__x86_64__) && !defined(PQLAB_HOST_CLOCK_MONOTONIC)
    return "rdtsc";
#else
    return "clock-monotonic";
#endif
}
#endif /* PQLAB_HAL_EXTERNAL_TIMER */

void pqlab_hal_exit(int code)
{
    exit(code);
}

long pqlab_hal_read(uint8_t *buf, size_t n)
{
    ssize_t r = read(0, buf, n);
    return (long)r;
}

/* ---- stack ----
 * A bounded region below the current SP: PQLAB_STACK_SPRAY_BYTES (256 KiB) below
 * the spray point, within the 8 MiB default stack of the main thread (Linux and
 * qemu-user grow the stack mapping on access). On x86-64 the 128-byte red zone
 * below SP may hold live data of the spray function itself, so the spray starts
 * below it. */

#ifndef PQLAB_STACK_SPRAY_BYTES
#define PQLAB_STACK_SPRAY_BYTES (256u * 1024u)
#endif
#if defined(__x86_64__)
#define RED_ZONE 128u
#else
#define RED_ZONE 0u
#endif

static uintptr_t spray_top, spray_bottom;

static inline uintptr_t read_sp(void)
{
    uintptr_t sp;
#if defined(__x86_64__)
    __asm__ volatile("mov %%rsp, %0" : "=r"(sp));
#elif defined(__aarch64__)
    __asm__ volatile("mov %0, sp" : "=r"(sp));
#else
    volatile uint8_t marker = 0;
    sp = (uintptr_t)&marker;
#endif
    return sp;
}

__attribute__((noinline)) void pqlab_hal_stack_spray(void)
{
    uintptr_t top = read_sp() & ~(uintptr_t)7;
    spray_top = top;
    spray_bottom = top - PQLAB_STACK_SPRAY_BYTES;
    for (volatile uint32_t *p = (volatile uint32_t *)(top - RED_ZONE) - 1; (uintptr_t)p >= spray_bottom; p--) {
        *p = PQLAB_HAL_STACK_PATTERN;
    }
}

__attribute__((noinline)) size_t pqlab_hal_stack_used(void)
{
    const volatile uint32_t *p = (const volatile uint32_t *)spray_bottom;
    while ((uintptr_t)p < spray_top - RED_ZONE && *p == PQLAB_HAL_STACK_PATTERN) {
        p++;
    }
    return spray_top - (uintptr_t)p;
}
