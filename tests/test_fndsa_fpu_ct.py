# SPDX-License-Identifier: MIT
"""FN-DSA `fpu-ct` (docs/fndsa.md, "fpu-ct: the Cortex-M7 FPU's multiply, conditioned"):
fpr_mul_fpu (lib/fndsa/fpr.h, -DPQLAB_FNDSA_FPR_EMU_FPU_MUL) gives the same bits as the
integer emulation's fpr_mul (lib/fndsa/fpr_emu.c) on zeros and on normal operands of
Falcon's range, and on m7-sim one call takes the same cycles whatever the operands (zeros
included), while the unconditioned VMUL.F64 on the same operands does not (the control: the
M7 model's one-cycle-faster zero operand). The whole variant: KAT and `pqlab ct -p m7-sim`
(slow tests in test_ct_sim.py and the KAT files through `pqlab kat`)."""

from __future__ import annotations

from pathlib import Path

import firmware
from hostlib import ROOT

NPAIRS = 20000

FIRMWARE = r"""
#include <stdio.h>
#include <string.h>
#include "pqlab_hal.h"
#include "fpr.h"

uint64_t pqlab_fpuct_fndsa_fpr_mul(uint64_t x, uint64_t y); /* fpr_emu.c, built without the define */

__attribute__((noinline)) uint64_t mul_ct(uint64_t x, uint64_t y) { return fpr_mul(x, y); }
__attribute__((noinline)) uint64_t mul_raw(uint64_t x, uint64_t y)
{
    double a, b, p;
    uint64_t r;
    memcpy(&a, &x, 8);
    memcpy(&b, &y, 8);
    p = a * b;
    memcpy(&r, &p, 8);
    return r;
}

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static uint64_t next(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }

/* normal with a biased exponent in 1023 +- 400, random sign and mantissa; every 13th a zero */
static uint64_t operand(unsigned i)
{
    uint64_t r = next();
    if (i % 13 == 0) return r & (1ull << 63);
    return (r & ~(0x7FFull << 52)) | ((uint64_t)(623 + (next() % 801)) << 52);
}

int main(void)
{
    char b[96];
    unsigned bad = 0;
    pqlab_hal_setup();
    for (unsigned i = 0; i < @NPAIRS@; i++) {
        uint64_t x = operand(i), y = operand(i * 7 + 3);
        if (mul_ct(x, y) != pqlab_fpuct_fndsa_fpr_mul(x, y)) bad++;
    }
    int k = snprintf(b, sizeof b, "bad %u\n", bad);
    pqlab_hal_send(b, (size_t)k);
    /* operands made first, every call's cycles stored (no branch between the timed calls
     * that depends on them); the loop runs twice and the second pass is kept (the first
     * iteration of the first pass pays the loop's entry, 14 cycles on m7-sim) */
    static uint64_t X[52], Y[52], D[52];
    for (unsigned i = 0; i < 52; i++) {
        X[i] = operand(i);
        Y[i] = operand(i + 1);
    }
    typedef uint64_t (*op2)(uint64_t, uint64_t);
    static const op2 ops[2] = {mul_ct, mul_raw};
    static const char *names[2] = {"mul_ct", "mul_raw"};
    for (int o = 0; o < 2; o++) {
        for (unsigned i = 0; i < 104; i++) {
            uint64_t c0 = pqlab_hal_cycles();
            uint64_t r = ops[o](X[i % 52], Y[i % 52]);
            uint64_t c1 = pqlab_hal_cycles();
            __asm__ volatile("" : : "r"(r));
            D[i % 52] = c1 - c0;
        }
        uint64_t lo = ~0ull, hi = 0;
        for (unsigned i = 0; i < 52; i++) {
            if (D[i] < lo) lo = D[i];
            if (D[i] > hi) hi = D[i];
        }
        k = snprintf(b, sizeof b, "ct %s %llu %llu\n", names[o], (unsigned long long)lo, (unsigned long long)hi);
        pqlab_hal_send(b, (size_t)k);
    }
    pqlab_hal_exit(0);
}
"""


def test_fpr_mul_fpu_bits_and_constant_cycles_on_m7_sim(tmp_path: Path) -> None:
    src = tmp_path / "fw.c"
    src.write_text(FIRMWARE.replace("@NPAIRS@", str(NPAIRS)))
    out = firmware.build_and_run(
        "m7-sim",
        tmp_path,
        [src, ROOT / "lib/fndsa/fpr_emu.c"],
        include=[ROOT / "lib" / "fndsa"],
        cflags=["-DPQLAB_NS=pqlab_fpuct_", "-ffp-contract=off"],
        per_source=lambda c: ["-DPQLAB_FNDSA_FPR_EMU_FPU_MUL"] if c == src else [],
    )
    lines = {
        ln.split()[0] + (" " + ln.split()[1] if ln.startswith("ct ") else ""): ln.split() for ln in out.splitlines()
    }
    assert lines.get("bad") == ["bad", "0"], out
    lo, hi = map(int, lines["ct mul_ct"][2:])
    assert lo == hi, out  # conditioned: one cost for zeros and every exponent
    lo, hi = map(int, lines["ct mul_raw"][2:])
    assert lo < hi, out  # the control: the bare VMUL.F64 is faster with a zero operand
