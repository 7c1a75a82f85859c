/* SPDX-License-Identifier: MIT */
/* The machine's guest services on pqlab-sim's RV32 machines (sim/src/machine/marks.rs,
   semihost.rs; rv32/hart.rs `Guest`), built with cv32e40p-rtl's start-up code and HAL:

   - interval marks: the same two out-of-line functions as the pqlab harness
     (harness/harness.c) bracket a counted loop (also timed with mcycle around the marks),
     a function with a 1 KiB stack frame, a nested pair, a mismatched pair and a stray end
     mark;
   - RISC-V semihosting (RISC-V Semihosting, riscv-non-isa/riscv-semihosting,
     binary-interface.adoc: slli x0, x0, 0x1f; ebreak; srai x0, x0, 7, uncompressed, with
     the operation in a0 and its parameter in a1): console output, a host file written and
     read back, the clock, the heap information;
   - the end, chosen by the first byte of pqlab.in: 'x' SYS_EXIT_EXTENDED with code 7,
     'b' a plain ebreak (a breakpoint trap to the start-up code's reporter, as on the RTL),
     'c' the semihosting sequence with a compressed ebreak (not a call: the same trap).

   cv32e40p-rtl has no semihosting (its test bench has no debugger): pqlab's own programs
   for it never make these calls (the HAL uses the test bench's registers). */
#include <stddef.h>
#include <stdint.h>

#include "pqlab_hal.h"

const char *volatile mark_current;

__attribute__((noinline, noclone)) void pqlab_mark_begin(const char *label)
{
    mark_current = label;
}

__attribute__((noinline, noclone)) void pqlab_mark_end(const char *label)
{
    (void)label;
    mark_current = 0;
}

/* the semihosting call: a0 = operation, a1 = parameter, result in a0 */
long sh_call(uint32_t op, const void *arg);
__asm__(".section .text.sh_call, \"ax\", @progbits\n"
        ".globl sh_call\n"
        ".balign 4\n"
        "sh_call:\n"
        ".option push\n"
        ".option norvc\n"
        "    slli x0, x0, 0x1f\n"
        "    ebreak\n"
        "    srai x0, x0, 7\n"
        ".option pop\n"
        "    ret\n"
        /* the same sequence around a compressed ebreak: not a semihosting call */
        ".globl sh_call_compressed\n"
        ".balign 4\n"
        "sh_call_compressed:\n"
        ".option push\n"
        ".option norvc\n"
        "    slli x0, x0, 0x1f\n"
        ".option rvc\n"
        "    c.ebreak\n"
        "    c.nop\n"
        ".option norvc\n"
        "    srai x0, x0, 7\n"
        ".option pop\n"
        "    ret\n"
        ".text\n");
void sh_call_compressed(void);

static void puts_(const char *s)
{
    size_t n = 0;
    while (s[n] != 0) {
        n++;
    }
    pqlab_hal_send(s, n);
}

static void putdec(const char *label, uint32_t v)
{
    char b[12];
    int k = 11;
    b[k] = 0;
    do {
        b[--k] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v != 0);
    puts_(label);
    puts_(&b[k]);
    puts_("\n");
}

/* 1 + 2n instructions: n addi and n bnez, n - 1 of them taken */
static inline void count_down(uint32_t n)
{
    __asm__ volatile(".option push\n.option norvc\n1: addi %0, %0, -1\n bnez %0, 1b\n.option pop" : "+r"(n));
}

static uint32_t mcycle(void)
{
    uint32_t c;
    __asm__ volatile("csrr %0, mcycle" : "=r"(c));
    return c;
}

#define MARKS_NOW() mcycle()
#include "../marks_seq.h"

static void marks(void)
{
    uint32_t loop;
    uint32_t v = marks_sequence(&loop);

    putdec("marks ", v);
    putdec("loop_mcycle ", loop);
}

#define SYS_OPEN 0x01u
#define SYS_CLOSE 0x02u
#define SYS_WRITE0 0x04u
#define SYS_WRITE 0x05u
#define SYS_READ 0x06u
#define SYS_FLEN 0x0cu
#define SYS_CLOCK 0x10u
#define SYS_HEAPINFO 0x16u
#define SYS_EXIT_EXTENDED 0x20u

static void semihosting(void)
{
    sh_call(SYS_WRITE0, "sh write0\n");
    uint32_t tt[3] = {(uint32_t)(uintptr_t)":tt", 4u, 3u};
    long out = sh_call(SYS_OPEN, tt);
    uint32_t w[3] = {(uint32_t)out, (uint32_t)(uintptr_t)"sh tt\n", 6u};
    long left = sh_call(SYS_WRITE, w);
    putdec("tt_write_left ", (uint32_t)left);

    static const char name[] = "sh-file.txt";
    uint32_t o[3] = {(uint32_t)(uintptr_t)name, 4u, sizeof name - 1u}; /* "w" */
    long h = sh_call(SYS_OPEN, o);
    static const char text[] = "written by the guest";
    uint32_t wr[3] = {(uint32_t)h, (uint32_t)(uintptr_t)text, sizeof text - 1u};
    putdec("file_write_left ", (uint32_t)sh_call(SYS_WRITE, wr));
    sh_call(SYS_CLOSE, &(uint32_t){(uint32_t)h});
    o[1] = 0u; /* "r" */
    h = sh_call(SYS_OPEN, o);
    putdec("file_len ", (uint32_t)sh_call(SYS_FLEN, &(uint32_t){(uint32_t)h}));
    char back[40] = {0};
    uint32_t rd[3] = {(uint32_t)h, (uint32_t)(uintptr_t)back, 30u};
    putdec("file_read_left ", (uint32_t)sh_call(SYS_READ, rd));
    sh_call(SYS_CLOSE, &(uint32_t){(uint32_t)h});
    puts_("file_text ");
    puts_(back);
    puts_("\n");

    /* 2,000,000 cycles of work at least: 2 centiseconds at 100 MHz */
    count_down(1000000);
    putdec("clock_cs ", (uint32_t)sh_call(SYS_CLOCK, 0));
    uint32_t info[4];
    uint32_t *pinfo = info;
    sh_call(SYS_HEAPINFO, &pinfo);
    putdec("heap_base ", info[0]);
    putdec("heap_limit ", info[1]);
    putdec("stack_base ", info[2]);
    putdec("stack_limit ", info[3]);
}

int main(void)
{
    pqlab_hal_setup();
    marks();
    semihosting();
    uint8_t how = 0;
    pqlab_hal_read(&how, 1);
    puts_("end\n");
    if (how == 'x') {
        uint32_t ex[2] = {0x20026u, 7u}; /* ADP_Stopped_ApplicationExit, code 7 */
        sh_call(SYS_EXIT_EXTENDED, ex);
    } else if (how == 'b') {
        __asm__ volatile(".option push\n.option norvc\nebreak\n.option pop");
    } else if (how == 'c') {
        sh_call_compressed();
    }
    return 0;
}
