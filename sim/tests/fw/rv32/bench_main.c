/* SPDX-License-Identifier: MIT */
/* Prints "<name> <cycles>" for each CV32E40P timing micro-benchmark of bench.S, then
   "#end ok". Runs on cv32e40p-rtl and on pqlab-sim's cv32e40p machine (the platform's own
   start-up code and HAL). */
#include <stddef.h>
#include <stdint.h>

#include "pqlab_hal.h"

/* clang-format off */
#define LIST(X) \
    X(empty) X(alu) X(mul) X(mulh) X(mulhu_use) X(div_big) X(div_one) X(div_zero) X(div_small) \
    X(div_neg) X(lw) X(lw_use) X(lw_use_store) X(lw_addr_use) X(lw_gap) X(lw_misaligned) \
    X(lh_cross) X(lh_inside) X(sw) X(sw_misaligned) X(jal) X(beq_taken) X(bne_not_taken) \
    X(jalr) X(jalr_dep) X(mul_jalr) X(jalr_load) X(csr_slow) X(csr_fast) X(jal_split) X(beq_split) \
    X(jal_rvc_target) X(split_run) X(rvc_mix) X(call_ret) X(jal_ret) \
    X(lw_mis_use) X(lw_branch) X(div_use) X(div_branch) X(mulh_load) X(jal_jal) X(branch_back) \
    X(lw_store_addr) X(lbu_use) X(div_div) X(sw_lw) \
    X(mulh_jal) X(div_jal) X(mulh_beq) X(lw_jal) X(lw_beq_dep) X(mulh_jalr) X(lh_cross_use) \
    X(sw_mis_lw) X(lw_mulh_dep) X(lw_div_dep) X(csr_after_lw) X(lwmis_jal) X(csr_jal) X(mulh_add_jal) X(lw_gap_jalr) X(mulh_gap_jalr) \
    X(lw_alu_waw) X(lw_mul_waw) X(lw_csrfast_waw) X(lw_csrslow_waw) X(lw_mcycle_waw) X(lw_mcycle_other) \
    X(lw_lw_waw) X(lw_gap_waw) X(lw_jal_waw) X(lw_use_waw) \
    X(lw_mulh_waw) X(lw_div_waw) X(lw_jalr_waw)
#define FPLIST(X) \
    X(fadd) X(fmadd_dep) X(flw_use) X(fcvt) X(flw_waw) X(lw_fmv_waw)
/* accelerators (bench_acc.S; cv32e40p-acc-rtl, machine cv32e40p-acc) */
#define ACCLIST(X) \
    X(acc_ntt_sw) X(acc_ntt_lw) X(acc_ntt_lw_use) X(acc_ntt_start_lw) X(acc_ntt_start_gap4) \
    X(acc_ntt_start_gap13) X(acc_ntt_start_gap14) X(acc_ntt_start_gap15) X(acc_ntt_start_gap30) \
    X(acc_ntt_start_sw) X(acc_ntt_start_start) X(acc_ntt_start_use) X(acc_ntt_start_jal) \
    X(acc_ntt_start_beq) X(acc_ntt_start_mulh) X(acc_ntt_start_div) X(acc_ntt_start_branch_lw) \
    X(acc_ksw) X(acc_kxw) X(acc_klw) X(acc_klw_use) X(acc_lw_ksw) X(acc_lw_klw_addr) X(acc_lw_klw_waw) \
    X(acc_kperm_klw) X(acc_kperm_gap8) X(acc_kperm_gap23) X(acc_kperm_gap24) X(acc_kperm_ksw) \
    X(acc_kperm_kperm) X(acc_kperm_use) X(acc_kperm_jal) X(acc_kperm_beq) X(acc_kperm_mulh) \
    X(acc_kperm_div) X(acc_kperm_lw) X(acc_kperm_csr) X(acc_kperm_seq)
/* clang-format on */

#define DECL(n) uint32_t bench_##n(void);
LIST(DECL)
#ifdef __riscv_flen
FPLIST(DECL)
#endif
#ifdef PQLAB_BENCH_ACC
ACCLIST(DECL)
#endif

static void puts_(const char *s)
{
    size_t n = 0;
    while (s[n] != 0) {
        n++;
    }
    pqlab_hal_send(s, n);
}

static void report(const char *name, uint32_t v)
{
    char buf[12];
    int k = 11;
    buf[k] = 0;
    do {
        buf[--k] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v != 0 && k > 0);
    puts_(name);
    puts_(" ");
    puts_(&buf[k]);
    puts_("\n");
}

int main(void)
{
    pqlab_hal_setup();
#define RUN(n) report(#n, bench_##n());
    LIST(RUN)
#ifdef __riscv_flen
    FPLIST(RUN)
#endif
#ifdef PQLAB_BENCH_ACC
    ACCLIST(RUN)
#endif
    puts_("#end ok\n");
    pqlab_hal_exit(0);
    return 0;
}
