/* SPDX-License-Identifier: MIT */
/* Timer of the aarch64-linux platform (docs/platforms.md): the core's cycle counter through
 * Linux perf_event_open(2), PERF_TYPE_HARDWARE / PERF_COUNT_HW_CPU_CYCLES for this thread on
 * any CPU, user space only (exclude_kernel, exclude_hv: the kernel's time in system calls and
 * interrupts is not counted). Each pqlab_hal_cycles() is one read(2) of the counter, so a
 * measured interval includes the user-space part of one read call (constant, small).
 *
 * When the counter cannot be opened or read (no PMU driver, perf_event_paranoid, a container's
 * seccomp filter, qemu-aarch64 user mode, which does not implement the system call), the timer
 * falls back to CLOCK_MONOTONIC in nanoseconds: pqlab_hal_timer_name() then answers
 * "clock-monotonic" instead of "perf-cycles" (the header line of every program, so the host
 * stores the run with that timer and unit), and one line on stderr says why. A cycle figure is
 * only ever printed when the counter was read. The choice is made once per process, at the first
 * call of either function. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "pqlab_hal.h"

#if !defined(__aarch64__) || !defined(__linux__)
#error "platform aarch64-linux builds on (or for) AArch64 Linux only"
#endif

enum { TIMER_UNKNOWN, TIMER_PERF, TIMER_MONOTONIC };
static int timer_kind = TIMER_UNKNOWN;
static int perf_fd = -1;

static void say(const char *s)
{
    ssize_t w = write(2, s, strlen(s));
    (void)w;
}

static void timer_init(void)
{
    if (timer_kind != TIMER_UNKNOWN) {
        return;
    }
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.type = PERF_TYPE_HARDWARE;
    attr.size = sizeof attr;
    attr.config = PERF_COUNT_HW_CPU_CYCLES;
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    long fd = syscall(SYS_perf_event_open, &attr, 0 /* this thread */, -1 /* any CPU */, -1, 0);
    int err = errno;
    if (fd >= 0) {
        uint64_t v;
        if (read((int)fd, &v, sizeof v) == (ssize_t)sizeof v) {
            perf_fd = (int)fd;
            timer_kind = TIMER_PERF;
            return;
        }
        err = errno;
        close((int)fd);
    }
    timer_kind = TIMER_MONOTONIC;
    say("pqlab aarch64-linux: the PMU cycle counter is unavailable (perf_event_open / read of "
        "PERF_COUNT_HW_CPU_CYCLES: ");
    say(strerror(err));
    say("); timer falls back to clock-monotonic: nanoseconds, not cycles\n");
}

uint64_t pqlab_hal_cycles(void)
{
    timer_init();
    if (timer_kind == TIMER_PERF) {
        uint64_t v;
        if (read(perf_fd, &v, sizeof v) == (ssize_t)sizeof v) {
            return v;
        }
        /* the counter was readable at start: losing it mid-run leaves no honest value */
        say("pqlab aarch64-linux: read of the cycle counter failed mid-run\n");
        _exit(5);
    }
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

const char *pqlab_hal_timer_name(void)
{
    timer_init();
    return timer_kind == TIMER_PERF ? "perf-cycles" : "clock-monotonic";
}
