# SPDX-License-Identifier: MIT
"""Timing micro-benchmarks of the pqlab-sim Cortex-M4 model: each sequence of
sim/tests/fw/bench.S is timed with DWT CYCCNT on the simulated core and must
take exactly the cycles the rule predicts. Rules and sources: sim/src/timing.rs
(Arm Cortex-M4 TRM DDI 0439B, table 3-1, section 3.3.1, table 7-1; alignment rules
measured on an STM32 Cortex-M4, compendium.i-0.nl; store followed by a load measured on
an STM32F407, jnk0le's pipeline cycle tests)."""

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
    "ldr_dep": (20, "no pipelining when the address is the previous load's result"),
    "str_imm": (10, "STR Rx,[Ry,#imm] is always one cycle"),
    "str_reg": (20, "STR with register offset: 2, nothing pipelines after it"),
    "ldr_add": (30, "LDR not followed by a load/store: 2 cycles"),
    "ldrd": (15, "LDRD: 1+2"),
    "strd": (15, "STRD: 1+2"),
    "ldm4": (5, "LDM: 1+N"),
    "pushpop4": (10, "PUSH/POP: 1+N"),
    "b_taken": (20, "taken unconditional branch B: 2 cycles (measured; TRM 1+P, P=1)"),
    "bne_taken": (21, "CMP 1 + taken conditional branch 1+P, P=1 (immediate target speculated early; calibrated, TRM P=1..3)"),
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


@pytest.fixture(scope="module")
def results() -> dict[str, int]:
    simfw.build_sim()
    elf = simfw.build_fw("bench-mps2-an386", ["bench_main.c", "bench.S"], simfw.M4, ["-O2"])
    s = simfw.run_sim(elf)
    assert s.returncode == 0, s.stderr.decode()
    out = {}
    for line in s.stdout.decode().splitlines():
        name, val = line.split()
        out[name] = int(val)
    return out


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


def test_m7_estimate_runs_and_is_not_slower(results: dict[str, int]) -> None:
    elf = simfw.build_fw("bench-mps2-an500", ["bench_main.c", "bench.S"], simfw.M7, ["-O2"])
    s = simfw.run_sim(elf, machine="mps2-an500")
    assert s.returncode == 0, s.stderr.decode()
    m7 = {ln.split()[0]: int(ln.split()[1]) for ln in s.stdout.decode().splitlines()}
    for name in ("add16", "mul", "ldr_indep", "b_taken", "vadd"):
        assert m7[name] - m7["empty"] <= results[name] - results["empty"], name
