/* SPDX-License-Identifier: MIT */
/* Prints "<benchmark>_<case> <cycles>" for the bodies of fpbench.S with operands
   of the same exponent (1.0, 1.0), different exponents (1.0, 0.25), one denormal
   (1.0, 2^-1060 in double, 2^-140 in single precision) and one zero (1.0, 0.0);
   the accumulator of the MACs is 1.0. With -DFP64 (Cortex-M7, FPv5-D16) the
   double-precision bodies run too. */
#include "fw.h"

/* clang-format off */
#define F32LIST(X) X(vadd_f32) X(vadd_f32_x2) X(vmul_f32) X(vmul_f32_x2) X(vdiv_f32) X(vdiv_f32_x2)
#define F64LIST(X) \
    X(vadd_f64) X(vadd_f64_x2) X(vmul_f64) X(vmul_f64_x2) X(vdiv_f64) X(vdiv_f64_x2) X(vfma_f64) X(vfma_f64_x2) \
    X(vabs_f64_dep) X(vabs_f64_dep_x2) X(vldr_vadd_f64) X(vldr_vadd_f64_x2) X(vadd_f32_dep) X(vadd_f32_dep_x2) \
    X(vmla_vadd_f32) X(vmla_vadd_f32_x2) X(vadd_vstr_f64) X(vadd_vstr_f64_x2)
/* clang-format on */

#define DECL(n) uint32_t fpbench_##n(const void *ops);
uint32_t fpbench_empty(const void *ops);
F32LIST(DECL)
#if defined(FP64)
F64LIST(DECL)
#endif

static void report(const char *name, const char *which, uint32_t v)
{
    uart_puts(name);
    uart_putc('_');
    uart_puts(which);
    uart_putc(' ');
    uart_dec(v);
    uart_putc('\n');
}

static const char *const cases[4] = {"same", "diffexp", "denormal", "zero"};

int main(void)
{
    DEMCR |= 1u << 24;
    REG32(0xE0001FB0u) = 0xC5ACCE55u; /* DWT_LAR (Cortex-M7) */
    DWT_CYCCNT = 0;
    DWT_CTRL |= 1u;
    /* bit patterns, so that no FP instruction runs before the benchmarks */
    static const uint32_t f32[4][3] = {
        {0x3f800000u, 0x3f800000u, 0x3f800000u},
        {0x3f800000u, 0x3e800000u, 0x3f800000u},
        {0x3f800000u, 0x00000800u, 0x3f800000u}, /* 2^-138 */
        {0x3f800000u, 0x00000000u, 0x3f800000u},
    };
    report("empty", "none", fpbench_empty(0));
    for (int c = 0; c < 4; c++) {
#define RUN32(n) report(#n, cases[c], fpbench_##n(f32[c]));
        F32LIST(RUN32)
    }
#if defined(FP64)
    static const uint64_t f64[4][3] = {
        {0x3ff0000000000000u, 0x3ff0000000000000u, 0x3ff0000000000000u},
        {0x3ff0000000000000u, 0x3fd0000000000000u, 0x3ff0000000000000u},
        {0x3ff0000000000000u, 0x0000400000000000u, 0x3ff0000000000000u}, /* 2^-1028 */
        {0x3ff0000000000000u, 0x0000000000000000u, 0x3ff0000000000000u},
    };
    for (int c = 0; c < 4; c++) {
#define RUN64(n) report(#n, cases[c], fpbench_##n(f64[c]));
        F64LIST(RUN64)
    }
#endif
    return 0;
}
