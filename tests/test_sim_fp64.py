# SPDX-License-Identifier: MIT
"""Operand-dependent floating-point timing of the pqlab-sim Cortex-M7 estimate
(timing::m7_fp64_cycles): on m7-sim, VADD.F64, VMUL.F64, VDIV.F64 and VFMA.F64
take the cycles measured on a Cortex-M7 for operands of the same exponent,
different exponents, one denormal and one zero (jnk0le, "pipeline cycle test",
doc/cortex_m7.md, STM32H743; table in sim/src/timing.rs); single precision does
not depend on the operands, on either core; and the Cortex-M4 model has no
double precision at all: the same FP64 code stops with UNDEFINSTR, as on a real
Cortex-M4 and under QEMU's mps2-an386. Firmware: sim/tests/fw/fpbench.S."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "sim" / "tests"))
import simfw

CASES = ("same", "diffexp", "denormal", "zero")
# cycles per instruction, columns as CASES (measured on the Cortex-M7)
M7_FP64 = {
    "vadd_f64": (1, 2, 3, 3),
    "vmul_f64": (5, 5, 5, 4),
    "vdiv_f64": (30, 30, 30, 2),
    # the body chains on its accumulator (1.0, 2.0, 3.0, ...), whose exponent soon
    # differs from the product's: the "different exponents" column (8) in both
    "vfma_f64": (8, 8, 10, 6),
}
# FP result latencies (m7-estimate-v4): cycles per chain link, operands of the same
# exponent. Source: Arm's LLVM scheduling model of the Cortex-M7
# (llvm/lib/Target/ARM/ARMScheduleM7.td, LLVM 19; llvm-mca-19 -mcpu=cortex-m7), FP results
# read 3 cycles after issue, VLDR.64 2 (timing::cortex_m::M7_FP_LAT and neighbours)
M7_FP_DEP = {
    # VABS.F64 d1, d1 chained: 1 issue + 2 waiting for the previous result (latency 3)
    "vabs_f64_dep": (3, "FP64 result latency 3 (M7WriteVFPLatOverride)"),
    # VLDR.64 (1, issues alone) then VADD.F64 reading it: +1 (load latency 2), VADD 1
    "vldr_vadd_f64": (3, "VLDR.64 result latency 2 (M7LoadDP)"),
    # VADD.F32 s2, s2, s7 chained: latency 3 (WriteFPALU32)
    "vadd_f32_dep": (3, "FP32 add latency 3 (WriteFPALU32)"),
    # VMLA.F32 (3 cycles) then VADD.F32 reading its result: waits 3 (latency 6,
    # WriteFPMAC32), 1: 7 per pair
    "vmla_vadd_f32": (7, "FP32 VMLA result latency 6 (WriteFPMAC32)"),
    # VADD.F64 (1) then VSTR.64 of its result: the store reads its data 2 cycles late
    # (M7Read_EX3), so no wait: 1 + 1 per pair (VSTR.64 issues alone)
    "vadd_vstr_f64": (2, "VSTR reads its data late (M7Read_EX3)"),
}
# single precision: no operand dependence (same source), Cortex-M4 TRM / estimate
F32 = {"vadd_f32": 1, "vmul_f32": 1, "vdiv_f32": 14}


def _per_insn(out: dict[str, int], name: str, case: str) -> float:
    n = 1 if "div" in name else 10
    return (out[f"{name}_x2_{case}"] - out[f"{name}_{case}"]) / n


def _run(machine: str, cpu: str, defines: list[str]) -> tuple[int, dict[str, int], str]:
    simfw.build_sim()
    tag = "fpbench64" if "-DFP64" in defines else "fpbench"
    elf = simfw.build_fw(f"{tag}-{machine}-{cpu}", ["fpbench_main.c", "fpbench.S"], cpu, ["-O2", *defines])
    s = simfw.run_sim(elf, machine=machine)
    out = {}
    for line in s.stdout.decode().splitlines():
        if not line.strip() or line.startswith("#"):  # the simulator's own lines (#fault ...)
            continue
        name, val = line.split()
        out[name] = int(val)
    return s.returncode, out, s.stderr.decode()


@pytest.fixture(scope="module")
def m7() -> dict[str, int]:
    rc, out, err = _run("mps2-an500", simfw.M7, ["-DFP64"])
    assert rc == 0, err
    return out


@pytest.mark.parametrize("name", sorted(M7_FP64))
def test_m7_fp64_depends_on_operands(m7: dict[str, int], name: str) -> None:
    got = tuple(_per_insn(m7, name, c) for c in CASES)
    assert got == M7_FP64[name], f"{name}: {dict(zip(CASES, got))}"
    assert len(set(got)) > 1


def test_m7_fp64_vadd_exponent_and_classes(m7: dict[str, int]) -> None:
    """The issue's example: VADD.F64 takes longer when the exponents differ, and
    FP64 timing differs with zero or denormal operands (whole bodies, measured
    with DWT CYCCNT in the firmware)."""
    same, diff, den, zero = (m7[f"vadd_f64_{c}"] for c in CASES)
    assert same < diff < den and zero > same
    assert m7["vmul_f64_zero"] < m7["vmul_f64_same"]
    assert m7["vdiv_f64_zero"] + 20 < m7["vdiv_f64_same"]


@pytest.mark.parametrize("name", sorted(F32))
def test_f32_does_not_depend_on_operands(m7: dict[str, int], name: str) -> None:
    rc, m4, err = _run("mps2-an386", simfw.M4, [])
    assert rc == 0, err
    for out in (m4, m7):
        assert {_per_insn(out, name, c) for c in CASES} == {F32[name]}
        assert len({out[f"{name}_{c}"] for c in CASES}) == 1


@pytest.mark.parametrize("name", sorted(M7_FP_DEP))
def test_m7_fp_result_latency(m7: dict[str, int], name: str) -> None:
    expected, rule = M7_FP_DEP[name]
    got = _per_insn(m7, name, "same")
    assert got == expected, f"{name}: {rule}: expected {expected}, simulated {got}"


def test_m4_has_no_fp64() -> None:
    """The same FP64 benchmark on the Cortex-M4 model: the single-precision part
    runs, the first double-precision instruction is undefined."""
    rc, out, err = _run("mps2-an386", simfw.M7, ["-DFP64"])
    assert rc == 1
    assert "UNDEFINSTR" in err and "Cortex-M4" in err
    assert "vdiv_f32_x2_zero" in out and not any(k.startswith("vadd_f64") for k in out)
