/* SPDX-License-Identifier: MIT */
/* Prints "<name> <cycles>" for each timing micro-benchmark of bench.S, then
   checks SysTick: interrupts are delivered through the vector table and the
   counter follows modelled cycles. */
#include "fw.h"

/* one benchmark name per X(), as bench.S lists them */
/* clang-format off */
#define LIST(X) \
    X(empty) X(add16) X(add_shift) X(mul) X(mla) X(smull) X(umaal) X(smlad) X(ldr_indep) X(ldr_dep) \
    X(str_imm) X(str_reg) X(ldr_add) X(ldrd) X(strd) X(ldm4) X(pushpop4) X(b_taken) X(bne_not_taken) \
    X(udiv_small) X(udiv_big) X(it_folded) X(bl_bx) X(agu_ldr) X(tbb) X(ldr_pc) X(b_unaligned_wide) \
    X(uw_group) X(bne_taken) X(cbz_taken) X(pop_pc) X(ldr_wb) X(str_ldr) X(str_ldm)
#define M7LIST(X) \
    X(m7_empty) X(m7_add_indep) X(m7_add_dep) X(m7_ldr_banks) X(m7_ldr_same_bank) X(m7_ldr_post_inc) \
    X(m7_str_str) X(m7_ldr_str) X(m7_mul_str) X(m7_mul_add) X(m7_mul_dep) X(m7_mla_chain) X(m7_ldr_dep) \
    X(m7_ldrb_dep) X(m7_ldr_mul) X(m7_uxtb_uxtb) X(m7_uxtb_add) X(m7_shifted_pair) X(m7_ldm4) X(m7_ldm8) \
    X(m7_loop_predicted) X(m7_loop_early_flags) X(m7_branch_alternating) X(m7_bne_not_taken)
#define FPLIST(X) \
    X(vadd) X(vmla) X(vfma) X(vdiv) X(vsqrt) X(vldr) X(vmov_core)
/* clang-format on */

#define DECL(n) uint32_t bench_##n(void);
LIST(DECL)
M7LIST(DECL)
FPLIST(DECL)

static volatile uint32_t ticks;
void systick_handler(void)
{
    ticks++;
}

static void report(const char *name, uint32_t v)
{
    uart_puts(name);
    uart_putc(' ');
    uart_dec(v);
    uart_putc('\n');
}

int main(void)
{
    DEMCR |= 1u << 24;
    DWT_CYCCNT = 0;
    DWT_CTRL |= 1u;
#define RUN(n) report(#n, bench_##n());
    LIST(RUN)
    M7LIST(RUN)
    FPLIST(RUN)
    /* SysTick: reload 999 -> period 1000 cycles, processor clock, interrupt */
    SYST_RVR = 999;
    SYST_CVR = 0;
    uint32_t c0 = DWT_CYCCNT;
    SYST_CSR = 7;
    while (ticks < 20) {
    }
    SYST_CSR = 0;
    uint32_t c1 = DWT_CYCCNT;
    report("systick_ticks", ticks);
    report("systick_cycles", c1 - c0);
    /* COUNTFLAG: set after a wrap, cleared by reading CSR */
    SYST_RVR = 99;
    SYST_CVR = 0;
    SYST_CSR = 5;
    for (volatile int i = 0; i < 100; i++) {
    }
    uint32_t f1 = (SYST_CSR >> 16) & 1;
    uint32_t f2 = (SYST_CSR >> 16) & 1;
    report("countflag", f1 * 10 + f2);
    return 0;
}
