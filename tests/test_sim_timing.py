# SPDX-License-Identifier: MIT
"""Timing micro-benchmarks of the pqlab-sim Cortex-M4 model and of the Cortex-M7
estimate: each sequence of sim/tests/fw/bench.S is timed with DWT CYCCNT on the
simulated core and must take exactly the cycles the rule predicts. Rules and
sources: sim/src/timing.rs (Cortex-M4: Arm Cortex-M4 TRM DDI 0439B, table 3-1,
section 3.3.1, table 7-1; alignment rules measured on an STM32 Cortex-M4,
compendium.i-0.nl; store followed by a load measured on an STM32F407, jnk0le's pipeline
cycle tests, doc/cortex_m3m4.md. Cortex-M7, model m7-estimate-v4 (rules of v3): [J] jnk0le, "pipeline cycle
test", doc/cortex_m7.md, github.com/jnk0le/random, measured on an STM32H743;
[L] LLVM llvm/lib/Target/ARM/ARMScheduleM7.td; [T] Arm Cortex-M7 TRM DDI 0489)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "sim" / "tests"))
import simfw

# name: (expected cycles of the body, rule)
EXPECTED_M4 = {
    "add16": (10, "data processing: 1 cycle"),
    "add_shift": (10, "data processing with shifted operand: 1 cycle"),
    "mul": (10, "MUL: 1 cycle"),
    "mla": (20, "MLA: 2 cycles"),
    "smull": (10, "SMULL/UMULL/SMLAL/UMLAL: 1 cycle"),
    "umaal": (10, "UMAAL (DSP): 1 cycle"),
    "smlad": (10, "SMLAD (DSP): 1 cycle"),
    "ldr_indep": (11, "LDR 2 cycles, neighbouring loads pipeline to 1"),
    "ldr_dep": (
        29,
        "no pipelining when the address is the previous load's result, and the base one cycle late (m4-v5): 2 + 9 x 3",
    ),
    "str_imm": (10, "STR Rx,[Ry,#imm] is always one cycle"),
    "str_reg": (20, "STR with register offset: 2, nothing pipelines after it"),
    "ldr_add": (30, "LDR not followed by a load/store: 2 cycles"),
    "ldrd": (15, "LDRD: 1+2"),
    "strd": (15, "STRD: 1+2"),
    "ldm4": (5, "LDM: 1+N"),
    "pushpop4": (10, "PUSH/POP: 1+N"),
    "b_taken": (20, "taken unconditional branch B: 2 cycles (measured; TRM 1+P, P=1)"),
    "bne_taken": (
        21,
        "CMP 1 + taken conditional branch 1+P, P=1 (immediate target speculated early; calibrated, TRM P=1..3)",
    ),
    "cbz_taken": (21, "MOVS 1 + taken CBZ 1+P, P=1 (immediate target) + skipped NOP"),
    "bne_not_taken": (11, "CMP 1 + not taken branch 1 each"),
    "udiv_small": (2, "division: 2 cycles when dividend < divisor"),
    "udiv_big": (12, "division: at most 12 cycles"),
    "it_folded": (20, "IT folds onto a preceding 16-bit instruction"),
    "bl_bx": (25, "BL 1+P with P=1 and BX LR 1+P with P=2 (register target, calibrated)"),
    "pop_pc": (40, "BL 2 + PUSH {lr} 1+1 + POP {pc} 1+1+P with P=2 (calibrated)"),
    "ldr_wb": (20, "LDR with writeback: 2 cycles, not pipelined (TRM: base update loads)"),
    "str_ldr": (40, "STR imm 1 + LDR 2 + 1: a store does not pipeline with a following load (measured)"),
    "str_ldm": (25, "STR imm 1 + LDM 1+2 + 1: nor with a following LDM (measured)"),
    "agu_ldr": (20, "address from the previous data-processing result: +1 (no forwarding path)"),
    "tbb": (7, "TBB: 2 load + 1 add + 3 refill, then one NOP"),
    "ldr_pc": (5, "LDR PC: 2 load + 3 refill"),
    "b_unaligned_wide": (4, "branch to an unaligned 32-bit instruction: 3 cycles (measured), then 1"),
    "uw_group": (6, "a group of 3+ unaligned 32-bit instructions: one extra cycle (measured)"),
    "vadd": (10, "VADD.F32: 1 cycle"),
    "vmla": (30, "VMLA.F32: 3 cycles"),
    "vfma": (30, "VFMA.F32: 3 cycles"),
    "vdiv": (14, "VDIV.F32: 14 cycles"),
    "vsqrt": (14, "VSQRT.F32: 14 cycles"),
    "vldr": (11, "VLDR 2 cycles, pipelined to 1 behind a load"),
    "vmov_core": (10, "VMOV core<-S: 1 cycle"),
}

# Cortex-M7 estimate (mps2-an500), the m7_* sequences of bench.S: body cycles, i.e.
# the CYCCNT difference minus m7_empty (3: the body sits between two LDRDs, which
# issue alone). name: (expected cycles of the body, rule and source)
EXPECTED_M7 = {
    "m7_add_indep": (5, "10 independent ADDs: dual issue, 2 per cycle [T] 1.2, [J]"),
    "m7_add_dep": (10, "10 ADDs each reading the previous result: no pairing, 1 per cycle"),
    "m7_ldr_banks": (5, "LDR pairs on different DTCM banks (even/odd words) [J] loads, [T] D0TCM/D1TCM"),
    "m7_ldr_same_bank": (10, "LDRs to the same bank do not pair [J] loads"),
    "m7_ldr_post_inc": (10, "post-indexed LDRs reusing the written-back base: back to back, 1 per cycle [J] loads"),
    "m7_str_str": (10, "two stores cannot dual issue [J] stores"),
    "m7_ldr_str": (5, "a store dual issues with a load [J] stores"),
    "m7_mul_str": (10, "MUL cannot dual issue with a store [J] multiplication"),
    "m7_mul_add": (5, "MUL pairs with an independent ADD"),
    "m7_mul_dep": (11, "MUL result +1 cycle latency [J] multiplication: 1 + 5 x (ADD 1 + 1 stall), next MUL pairs"),
    "m7_mla_chain": (10, "MACs chained on the accumulator every cycle, no stall; MACs do not pair [J]"),
    "m7_ldr_dep": (6, "word load read by the late ALU next cycle: no stall, no pairing [J] loads; [L] LoadLatency 2"),
    "m7_ldrb_dep": (11, "byte load: +1 cycle for a late-ALU reader [J] loads: 1 + 5 x (ADD 1 + 1)"),
    "m7_ldr_mul": (11, "a multiply cannot consume an LDR result of the previous cycle: +1 [J] multiplication"),
    "m7_uxtb_uxtb": (10, "bitfield/DSP instructions cannot dual issue with each other [J]"),
    "m7_uxtb_add": (5, "UXTB pairs with a plain ADD [J]"),
    "m7_shifted_pair": (10, "inline shifted operand2 instructions do not pair [J] operand2 matrix"),
    "m7_ldm4": (2, "LDM of 4 registers: ceil(4/2) [J] load/store multiple"),
    "m7_ldm8": (4, "LDM of 8 registers: ceil(8/2) [J] load/store multiple"),
    "m7_loop_predicted": (
        28,
        "MOVS 1; 9 x (SUBS + BNE paired, predicted taken: refill 1) = 18; exit mispredicted, flags "
        "set in the same cycle: 1 + 8 [J] branching (BTAC 2-bit counter, static backward taken)",
    ),
    "m7_loop_early_flags": (
        56,
        "MOVS 1; 9 x (SUBS+MUL, 3 MULs, BNE paired: 4 + refill 1) = 45; exit mispredicted with the "
        "flags set 3 cycles before: 4 + 6 [J] branching (flag forwarding, 8 -> 6)",
    ),
    "m7_branch_alternating": (
        123,
        "CBZ alternating taken/not taken defeats the 2-bit counter: 9 mispredictions of 8 [J] "
        "branching (CBZ: 8, no flag forwarding, assumed); not-taken CBZ pairs with the next insn",
    ),
    "m7_bne_not_taken": (6, "predicted not-taken BNE dual issues with the next instruction [J] branching"),
}


def bench(machine: str, cpu: str) -> dict[str, int]:
    """name -> cycles of every sequence of bench.S on `machine`."""
    simfw.build_sim()
    elf = simfw.build_fw(f"bench-{machine}", ["bench_main.c", "bench.S"], cpu, ["-O2"])
    s = simfw.run_sim(elf, machine=machine)
    assert s.returncode == 0, s.stderr.decode()
    return {ln.split()[0]: int(ln.split()[1]) for ln in s.stdout.decode().splitlines()}


@pytest.fixture(scope="module")
def results() -> dict[str, int]:
    return bench("mps2-an386", simfw.M4)


@pytest.mark.parametrize("name", sorted(EXPECTED_M4))
def test_rule(results: dict[str, int], name: str) -> None:
    expected, rule = EXPECTED_M4[name]
    got = results[name] - results["empty"]
    assert got == expected, f"{name}: {rule}: expected {expected}, simulated {got}"


def test_measurement_overhead(results: dict[str, int]) -> None:
    # LDR of CYCCNT (2) and two NOPs
    assert results["empty"] == 4


def test_systick_interrupts_follow_modelled_cycles(results: dict[str, int]) -> None:
    # reload 999: one interrupt every 1000 cycles, through the vector table
    assert results["systick_ticks"] == 20
    # 20 periods plus the loop exit; exception entry/exit are inside the periods
    assert 20_000 <= results["systick_cycles"] < 20_000 + 1000


def test_countflag_clears_on_read(results: dict[str, int]) -> None:
    assert results["countflag"] == 10


@pytest.fixture(scope="module")
def results_m7() -> dict[str, int]:
    return bench("mps2-an500", simfw.M7)


def test_m7_estimate_runs_and_is_not_slower(results: dict[str, int], results_m7: dict[str, int]) -> None:
    m7 = results_m7
    for name in ("add16", "mul", "ldr_indep", "b_taken", "vadd"):
        assert m7[name] - m7["empty"] <= results[name] - results["empty"], name


@pytest.mark.parametrize("name", sorted(EXPECTED_M7))
def test_m7_rule(results_m7: dict[str, int], name: str) -> None:
    expected, rule = EXPECTED_M7[name]
    got = results_m7[name] - results_m7["m7_empty"]
    assert got == expected, f"{name}: {rule}: expected {expected}, simulated {got}"


def test_m7_measurement_overhead(results_m7: dict[str, int]) -> None:
    # CYCCNT load 1 and the two LDRDs around the body, 1 each (ceil(2/2))
    assert results_m7["m7_empty"] == 3
