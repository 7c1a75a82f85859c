/* SPDX-License-Identifier: MIT */
/* Prints "<name> <cycles>" for each candidate-rule micro-benchmark of rules.S. */
#include "fw.h"

/* clang-format off */
#define LIST(X) \
    X(empty) X(ldr_same_block) X(ldr_flash_ram) X(ldr_data_stack) X(ldr_literal) X(ldrw_unaligned) \
    X(ldrw_aligned) X(ldr_post_alternating) X(uw_group8) X(uw_group_mixed) X(shift_reg) X(bitfield) \
    X(ldm_after_base_write) X(ldr_load_base) X(str_load_base) X(str_ldrd) X(strd_ldr) \
    X(str_post_chain) X(str_post_alternating) X(str_data_stack) X(str_data_data) X(ldr_stack_deep)
/* clang-format on */

#define DECL(n) uint32_t rule_##n(void);
LIST(DECL)

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
#define RUN(n) report(#n, rule_##n());
    LIST(RUN)
    sh_exit(0);
}
