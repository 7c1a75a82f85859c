/* SPDX-License-Identifier: MIT */
/* HAL of the ARMv7-M bare-metal platforms (MPS2 AN386 / AN500 under QEMU; reusable
 * by boards and the simulator): CMSDK UART0 output, semihosting exit and file input,
 * DWT or SysTick timer, stack spray. */
#include <stddef.h>
#include <stdint.h>

#include "armv7m.h"
#include "pqlab_hal.h"

#if !defined(PQLAB_HAL_SERIAL)
/* ---- semihosting ----
 * With PQLAB_HAL_SERIAL (the serial platforms: boards, mps2-an386-uart) exit, driver
 * input and output go through serial.c's framed protocol over the platform's UART
 * instead, and nothing here uses semihosting (a board without a debugger has none). */

#define SYS_OPEN 0x01u
#define SYS_CLOSE 0x02u
#define SYS_READ 0x06u
#define SYS_EXIT_EXTENDED 0x20u
#define ADP_STOPPED_APPLICATIONEXIT 0x20026u

long pqlab_armv7m_semihost(uint32_t op, void *arg)
{
    register uint32_t r0 __asm__("r0") = op;
    register void *r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return (long)(int32_t)r0;
}

void pqlab_hal_exit(int code)
{
    /* SYS_EXIT_EXTENDED takes a block {reason, exit code}; QEMU exits with that
     * code. The loop only runs when no debugger/semihosting host is attached. */
    uint32_t block[2] = {ADP_STOPPED_APPLICATIONEXIT, (uint32_t)code};
    for (;;) {
        pqlab_armv7m_semihost(SYS_EXIT_EXTENDED, block);
    }
}

static long in_handle = -2; /* -2: not opened yet, -1: open failed */

long pqlab_hal_read(uint8_t *buf, size_t n)
{
    static char name[] = "pqlab.in";
    if (in_handle == -2) {
        uint32_t block[3] = {(uint32_t)(uintptr_t)name, 1u /* "rb" */, sizeof name - 1};
        in_handle = pqlab_armv7m_semihost(SYS_OPEN, block);
        if (in_handle < 0) {
            in_handle = -1;
        }
    }
    if (in_handle < 0) {
        return -1;
    }
    if (n == 0) {
        return 0;
    }
    uint32_t block[3] = {(uint32_t)in_handle, (uint32_t)(uintptr_t)buf, (uint32_t)n};
    /* SYS_READ returns the number of bytes NOT read */
    long left = pqlab_armv7m_semihost(SYS_READ, block);
    if (left < 0 || (size_t)left > n) {
        return -1;
    }
    return (long)(n - (size_t)left);
}

/* ---- UART ---- */

void pqlab_armv7m_uart_init(void)
{
    UART_BAUDDIV = 16; /* smallest divisor the CMSDK UART accepts */
    UART_CTRL = 1;     /* TX enable */
}

void pqlab_hal_send(const char *buf, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        while (UART_STATE & UART_STATE_TXFULL) {
        }
        UART_DATA = (uint8_t)buf[i];
    }
}

#endif /* !PQLAB_HAL_SERIAL */

void pqlab_armv7m_puts(const char *s)
{
    size_t n = 0;
    while (s[n] != 0) {
        n++;
    }
    pqlab_hal_send(s, n);
}

void pqlab_armv7m_puthex(uint32_t v)
{
    char b[10] = {'0', 'x'};
    for (int i = 0; i < 8; i++) {
        b[2 + i] = "0123456789abcdef"[(v >> (28 - 4 * i)) & 15u];
    }
    pqlab_hal_send(b, sizeof b);
}

/* ---- timer ----
 * DWT CYCCNT counts core cycles on real Cortex-M4/M7 and in pqlab-sim; QEMU 7.2
 * implements no DWT (reads 0). Then SysTick is used: on the QEMU MPS2 machines it
 * runs at 25 MHz of virtual time, and with -icount shift=0 one instruction is 1 ns,
 * so one tick is 40 instructions. The HAL reports instructions (ticks * 40) under
 * the name "systick-icount": not cycles, and only meaningful with -icount.
 * SysTick counts down from RVR to 0 with a 24-bit counter; its interrupt (every
 * 2^24 ticks) extends it to 64 bits, and in DWT mode extends the 32-bit CYCCNT
 * (2^24 cycles between interrupts < 2^32, so no CYCCNT wrap is missed). */

#define SYSTICK_PERIOD (1u << 24)
#ifndef PQLAB_SYSTICK_SCALE
#define PQLAB_SYSTICK_SCALE 40u
#endif

static int use_dwt;
static volatile uint32_t systick_wraps;
static volatile uint32_t dwt_last, dwt_high;

static void dwt_extend(void)
{
    uint32_t c = DWT_CYCCNT;
    if (c < dwt_last) {
        dwt_high++;
    }
    dwt_last = c;
}

void pqlab_armv7m_systick_isr(void)
{
    systick_wraps++;
    if (use_dwt) {
        dwt_extend();
    }
}

static uint32_t irq_save(void)
{
    uint32_t primask;
    __asm__ volatile("mrs %0, primask\n\tcpsid i" : "=r"(primask)::"memory");
    return primask;
}

static void irq_restore(uint32_t primask)
{
    __asm__ volatile("msr primask, %0" ::"r"(primask) : "memory");
}

static void timer_setup(void)
{
    SCB_DEMCR |= SCB_DEMCR_TRCENA;
    DWT_LAR = 0xC5ACCE55u; /* unlock (Cortex-M7 with CoreSight lock) */
    DWT_CYCCNT = 0;
    DWT_CTRL |= 1u; /* CYCCNTENA */
    uint32_t c0 = DWT_CYCCNT;
    for (volatile int i = 0; i < 16; i++) {
    }
    use_dwt = DWT_CYCCNT != c0;
    SYST_RVR = SYSTICK_PERIOD - 1u;
    SYST_CVR = 0;
    SYST_CSR = SYST_CSR_ENABLE | SYST_CSR_CLKSOURCE;
    /* the first tick loads RVR; from then on the counting below holds. Any
     * interrupt pended by that first load is discarded. */
    while (SYST_CVR == 0) {
    }
    SCB_ICSR = SCB_ICSR_PENDSTCLR;
    systick_wraps = 0;
    SYST_CSR = SYST_CSR_ENABLE | SYST_CSR_TICKINT | SYST_CSR_CLKSOURCE;
}

uint64_t pqlab_hal_cycles(void)
{
    uint32_t pm = irq_save();
    uint64_t r;
    if (use_dwt) {
        dwt_extend();
        r = ((uint64_t)dwt_high << 32) | dwt_last;
    } else {
        uint32_t wraps = systick_wraps;
        uint32_t val = SYST_CVR;
        if (SCB_ICSR & SCB_ICSR_PENDSTSET) {
            /* wrapped, interrupt not yet taken: count the wrap and take a value
             * that is certainly after it */
            val = SYST_CVR;
            wraps++;
        }
        /* The counter runs RVR, RVR-1, ..., 1, 0 and the interrupt is pended on
         * the step to 0, so the ticks since the last wrap are (P - val) mod P
         * (0 at val == 0, P - 1 at val == 1), P = 2^24. */
        r = ((uint64_t)wraps * SYSTICK_PERIOD + ((SYSTICK_PERIOD - val) & (SYSTICK_PERIOD - 1u))) * PQLAB_SYSTICK_SCALE;
    }
    irq_restore(pm);
    return r;
}

const char *pqlab_hal_timer_name(void)
{
    return use_dwt ? "dwt" : "systick-icount";
}

uintptr_t pqlab_armv7m_guard_start, pqlab_armv7m_guard_end;

/* MPU region 7 (the highest number wins where regions overlap, B3.5.3): no access,
 * execute never, over PQLAB_STACK_GUARD bytes at the bottom of the stack region;
 * the default memory map stays in force elsewhere (PRIVDEFENA). Skipped when the
 * core (or a simulator) has no MPU (MPU_TYPE.DREGION == 0). */
static void stack_guard_setup(void)
{
    uint32_t dregion = (MPU_TYPE >> 8) & 0xffu;
    if (dregion < 8) {
        return;
    }
    uintptr_t start = ((uintptr_t)__stack_limit + PQLAB_STACK_GUARD - 1u) & ~(uintptr_t)(PQLAB_STACK_GUARD - 1u);
    if (start + PQLAB_STACK_GUARD + 1024u > (uintptr_t)__stack_top) {
        return;
    }
    uint32_t size_field = 0; /* region size = 2^(SIZE+1) */
    while ((2u << size_field) < PQLAB_STACK_GUARD) {
        size_field++;
    }
    MPU_RNR = 7;
    MPU_RBAR = (uint32_t)start;
    MPU_RASR = (1u << 28) /* XN */ | (0u << 24) /* AP: no access */ | (size_field << 1) | 1u;
    MPU_CTRL = (1u << 2) /* PRIVDEFENA */ | 1u;
    SCB_SHCSR |= SCB_SHCSR_MEMFAULTENA;
    __asm__ volatile("dsb\n\tisb" ::: "memory");
    pqlab_armv7m_guard_start = start;
    pqlab_armv7m_guard_end = start + PQLAB_STACK_GUARD;
}

/* Clocks, flash wait states and caches of a board (its board.c); the QEMU machines and
 * the simulator run at their reset clock. */
__attribute__((weak)) void pqlab_armv7m_clock_init(void)
{
}

#if defined(PQLAB_HAL_SERIAL)
void pqlab_serial_start(void);
#endif

void pqlab_hal_setup(void)
{
    pqlab_armv7m_clock_init();
    pqlab_armv7m_uart_init();
#if defined(PQLAB_HAL_SERIAL)
    pqlab_serial_start();
#endif
    timer_setup();
    stack_guard_setup();
}

/* ---- code region ----
 * The code region starts at address 0 (the vector table): the address goes through an
 * empty asm so that the compiler cannot treat the pointer as NULL. */
size_t pqlab_hal_code_region(const uint8_t **start)
{
    uintptr_t a = (uintptr_t)__code_region_start;
    __asm__("" : "+r"(a));
    *start = (const uint8_t *)a;
    return (size_t)((uintptr_t)__code_region_end - a);
}

/* ---- stack ----
 * The free stack is [__stack_limit, SP). The spray fills at most
 * PQLAB_STACK_SPRAY_MAX bytes of it below the current SP (AAPCS has no red zone,
 * so nothing live lies below SP). The SysTick interrupt is masked between spray
 * and check, so an exception frame does not count as the operation's stack. */

#ifndef PQLAB_STACK_SPRAY_MAX
#define PQLAB_STACK_SPRAY_MAX (1024u * 1024u)
#endif

static uintptr_t spray_top, spray_bottom;

static inline uintptr_t read_sp(void)
{
    uintptr_t sp;
    __asm__ volatile("mov %0, sp" : "=r"(sp));
    return sp;
}

__attribute__((noinline)) void pqlab_hal_stack_spray(void)
{
    SYST_CSR &= ~SYST_CSR_TICKINT;
    uintptr_t top = read_sp() & ~(uintptr_t)3;
    uintptr_t bottom = pqlab_armv7m_guard_end != 0 ? pqlab_armv7m_guard_end : (uintptr_t)__stack_limit;
    if (top - bottom > PQLAB_STACK_SPRAY_MAX) {
        bottom = top - PQLAB_STACK_SPRAY_MAX;
    }
    spray_top = top;
    spray_bottom = bottom;
    for (volatile uint32_t *p = (volatile uint32_t *)top - 1; (uintptr_t)p >= bottom; p--) {
        *p = PQLAB_HAL_STACK_PATTERN;
    }
}

__attribute__((noinline)) size_t pqlab_hal_stack_used(void)
{
    const volatile uint32_t *p = (const volatile uint32_t *)spray_bottom;
    while ((uintptr_t)p < spray_top && *p == PQLAB_HAL_STACK_PATTERN) {
        p++;
    }
    SYST_CSR |= SYST_CSR_TICKINT;
    return spray_top - (uintptr_t)p;
}
