# SPDX-License-Identifier: MIT
"""pqlab-sim's CV32E40P machine (RV32IMFC front end, timing model cv32e40p-v2,
sim/src/timing/cv32e40p.rs): the micro-benchmarks of sim/tests/fw/rv32/bench.S, built
through pqlab's build with cv32e40p-rtl's flags and start-up code, must take exactly the
cycles each rule of the CV32E40P user manual predicts (docs/source/pipeline.rst of the
pythondata-cpu-cv32e40p package, "Cycle counts per instruction type" and "Hazards"); every
expected value below was also measured on cv32e40p-rtl (FPU) and cv32e40p-nofpu-rtl
(integer ones), and the slow test checks that the RTL still agrees."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pqlab.build import build_program
from pqlab.platforms import get_platform

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "sim" / "tests"))
import simfw

FW = simfw.FW / "rv32"

# name: (body cycles = mcycle difference minus bench_empty's, rule)
EXPECTED = {
    "alu": (10, "integer computational: 1"),
    "mul": (10, "mul: 1"),
    "mulh": (50, "mulh/mulhsu/mulhu: 5"),
    "mulhu_use": (30, "mulhu 5 + dependent add 1, forwarded (no hazard)"),
    "div_big": (3, "divu by 0x80000000: 3 (divisor without leading zeros)"),
    "div_one": (34, "divu by 1: 3 + 31 leading zeros"),
    "div_zero": (35, "divu by 0: 35"),
    "div_small": (29, "li 1 + div by 100: 3 + its 25 leading zeros"),
    "div_neg": (32, "li 1 + rem by -7: 3 + (29 leading zeros of 7) - 1"),
    "lw": (10, "load: 1"),
    "lw_use": (15, "load 1 + use 1 + load-use hazard 1"),
    "lw_use_store": (15, "a store of the loaded register right after the load: hazard 1"),
    "lw_addr_use": (15, "a load whose address is the previous load's result: hazard 1"),
    "lw_gap": (15, "load, nop, use: no hazard"),
    "lw_misaligned": (20, "word load not word aligned: 2"),
    "lh_cross": (20, "halfword load crossing a word: 2"),
    "lh_inside": (10, "halfword load at +1 (inside a word): 1"),
    "sw": (10, "store: 1"),
    "sw_misaligned": (20, "word store not word aligned: 2"),
    "jal": (20, "jal: 2"),
    "beq_taken": (30, "taken branch: 3"),
    "bne_not_taken": (10, "branch not taken: 1"),
    "jalr": (5, "la 2 + nop 1 + jalr 2"),
    "jalr_dep": (5, "la 2 + jalr 2 + 1: rs1 written by the instruction right before"),
    "mul_jalr": (6, "la 2 + mul 1 + jalr 2 + 1 (mul result: jalr hazard too)"),
    "jalr_load": (8, "la 2 + sw 1 + lw 1 + jalr 2 + load-use 1 + jalr hazard 1"),
    "csr_slow": (20, "csrr mstatus: 4"),
    "csr_fast": (5, "csrr mscratch (not in the 4-cycle list): 1"),
    "jal_split": (4, "jal to a 32-bit instruction at 2 mod 4: 3, then the add 1"),
    "beq_split": (5, "taken branch to a 32-bit instruction at 2 mod 4: 4, then the add 1"),
    "jal_rvc_target": (4, "jal to a 16-bit instruction at 2 mod 4: 2, c.nop 1, add 1"),
    "split_run": (12, "c.nop + 10 straight-line 32-bit instructions at 2 mod 4 + c.nop: 1 each"),
    "rvc_mix": (21, "alternating 16/32-bit instructions: 1 each"),
    "lw_mis_use": (20, "5 x (misaligned lw 2 + dependent addi 1 + load-use 1)"),
    "lw_branch": (15, "5 x (lw 1 + not-taken beq on the loaded value 1 + load-use 1)"),
    "div_use": (30, "li 1 + div by 100 (28) + dependent addi 1: no hazard"),
    "div_branch": (32, "li 1 + div by 100 (28) + taken bne on the quotient 3"),
    "mulh_load": (30, "5 x (mulh 5 + lw 1)"),
    "jal_jal": (4, "j to a j: 2 + 2"),
    "branch_back": (19, "li 1 + 5 x addi + 4 taken bnez (3) + 1 not taken"),
    "lw_store_addr": (15, "5 x (lw + sw to the loaded address: load-use 1)"),
    "lbu_use": (15, "5 x (lbu 1 + dependent add 1 + load-use 1)"),
    "div_div": (57, "li 1 + 2 x div by 100 (28)"),
    "sw_lw": (10, "5 x (sw 1 + lw of the same word 1)"),
    "mulh_jal": (6, "mulh 5 + j 2 - 1: a jump right after a multi-cycle instruction overlaps it"),
    "div_jal": (35, "divu by 1 (34) + j 2 - 1 (overlap)"),
    "mulh_beq": (8, "mulh 5 + taken beq 3: a branch (decided in EX) does not overlap"),
    "lw_jal": (3, "lw 1 + j 2"),
    "lw_beq_dep": (3, "lw 1 + not-taken beq on it 1 + load-use 1"),
    "mulh_jalr": (8, "la 2 + mulh 5 + jalr 2 - 1 (overlap)"),
    "lh_cross_use": (4, "lh crossing a word 2 + dependent addi 1 + load-use 1"),
    "sw_mis_lw": (3, "misaligned sw 2 + lw 1"),
    "lw_mulh_dep": (7, "lw 1 + dependent mulh 5 + load-use 1"),
    "lw_div_dep": (7, "lw 1 + divu by the loaded 0x3f800000 (3 + 2) + load-use 1"),
    "csr_after_lw": (2, "lw 1 + csrr mscratch 1"),
    "lwmis_jal": (3, "misaligned lw 2 + j 2 - 1 (overlap)"),
    "csr_jal": (6, "csrr mstatus 4 + j 2: no overlap"),
    "mulh_add_jal": (8, "mulh 5 + add 1 + j 2: the overlap needs the jump right after"),
    "lw_gap_jalr": (8, "la 2 + sw 1 + lw 1 + nop 1 + jalr 2 + 1: rs1 loaded two instructions back"),
    "mulh_gap_jalr": (11, "la 2 + mulhu 5 + add 1 + nop 1 + jalr 2: no hazard two instructions back"),
    "lw_alu_waw": (3, "lw 1 + addi 1 writing the loaded register: load stall 1 (write after write)"),
    "lw_mul_waw": (3, "lw 1 + mul 1 writing the loaded register: load stall 1"),
    "lw_mulh_waw": (7, "lw 1 + mulhu 5 writing the loaded register: load stall 1"),
    "lw_div_waw": (5, "lw 1 + divu by 0x80000000 3 writing the loaded register: load stall 1"),
    "lw_csrfast_waw": (3, "lw 1 + csrr mscratch 1 into the loaded register: load stall 1"),
    "lw_csrslow_waw": (6, "lw 1 + csrr mstatus 4 into the loaded register: load stall 1"),
    "lw_mcycle_waw": (2, "lw 1; the closing csrr mcycle into the loaded register reads after its stall"),
    "lw_mcycle_other": (1, "lw 1; the closing csrr mcycle into another register: no stall"),
    "lw_lw_waw": (2, "lw 1 + lw 1 into the same register: no stall (both on the load port)"),
    "lw_gap_waw": (3, "lw 1 + nop 1 + addi 1 into the loaded register: no stall two instructions back"),
    "lw_jal_waw": (3, "lw 1 + jal 2 linking into the loaded register: no stall"),
    "lw_jalr_waw": (5, "la 2 + lw 1 + jalr 2 linking into the loaded register: no stall"),
    "lw_use_waw": (3, "lw 1 + addi 1 reading and writing the loaded register: one stall, not two"),
    "jal_ret": (8, "2 x (jal 2 + ret 2): the link a jal writes needs no hazard cycle"),
    "call_ret": (14, "2 x (auipc 1 + jalr 2 + hazard 1 + ret 2 + hazard 1: ra from the jalr)"),
}
EXPECTED_FPU = {
    "flw_waw": (2, "flw 1 + fadd.s 1 writing the loaded FP register: no stall"),
    "lw_fmv_waw": (2, "lw 1 + fmv.x.w 1 writing the loaded register from the FPU: no stall"),
    "fadd": (12, "2 fmv.w.x + 10 fadd.s: 1 each (FPU_ADDMUL_LAT = 0)"),
    "fmadd_dep": (12, "2 fmv.w.x + 10 dependent fmadd.s: 1 each, forwarded"),
    "flw_use": (15, "flw 1 + dependent fadd.s 1 + load-use hazard 1"),
    "fcvt": (6, "fmv.w.x + 5 fcvt.w.s: 1 each (FPU_OTHERS_LAT = 0)"),
}


def build_bench(plat: str) -> Path:
    elf = build_program(get_platform(plat), simfw.BUILD / f"rv32-bench-{plat}", [FW / "bench.S", FW / "bench_main.c"])
    assert isinstance(elf, Path)
    return elf


def body_cycles(figures: dict[str, int]) -> dict[str, int]:
    return {k: v - figures["empty"] for k, v in figures.items() if k != "empty"}


@pytest.fixture(scope="module")
def sim() -> Path:
    return simfw.build_sim()


@pytest.mark.parametrize(
    ("machine", "plat", "expected"),
    [
        ("cv32e40p", "cv32e40p-rtl", {**EXPECTED, **EXPECTED_FPU}),
        ("cv32e40p-nofpu", "cv32e40p-nofpu-rtl", EXPECTED),
    ],
)
def test_micro_benchmarks_take_the_cycles_of_their_rule(sim: Path, machine: str, plat: str, expected: dict) -> None:
    r = subprocess.run(
        [str(sim), "--machine", machine, str(build_bench(plat))], capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 0, r.stderr
    got = body_cycles(simfw.parse_bench(r.stdout))
    assert set(got) == set(expected)
    wrong = {k: (got[k], cyc, rule) for k, (cyc, rule) in expected.items() if got[k] != cyc}
    assert not wrong, wrong


def test_rv32_machine_refuses_an_arm_elf_and_vice_versa(sim: Path) -> None:
    arm = simfw.build_fw("hello", ["hello.c"])
    r = subprocess.run([str(sim), "--machine", "cv32e40p", str(arm)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "not a RISC-V ELF" in r.stderr
    rv = build_bench("cv32e40p-nofpu-rtl")
    r = subprocess.run([str(sim), "--machine", "mps2-an386", str(rv)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "not an ARM ELF" in r.stderr


def test_version_names_the_machine_model(sim: Path) -> None:
    out = subprocess.run([str(sim), "--machine", "cv32e40p", "--version"], capture_output=True, text=True).stdout
    assert "cv32e40p-v2" in out
    out = subprocess.run([str(sim), "--version"], capture_output=True, text=True).stdout
    assert "m4-" in out and "cv32e40p" not in out


@pytest.mark.slow
@pytest.mark.parametrize("plat", ["cv32e40p-rtl", "cv32e40p-nofpu-rtl"])
def test_rtl_gives_the_same_micro_benchmark_cycles(sim: Path, plat: str, tmp_path: Path) -> None:
    from pqlab import rtl

    elf = build_bench(plat)
    tb = rtl.model_path(get_platform(plat))
    r = subprocess.run([str(tb), str(elf)], capture_output=True, text=True, timeout=1800, cwd=tmp_path)
    machine = "cv32e40p" if plat == "cv32e40p-rtl" else "cv32e40p-nofpu"
    s = subprocess.run([str(sim), "--machine", machine, str(elf)], capture_output=True, text=True, timeout=60)
    assert simfw.parse_bench(r.stdout) == simfw.parse_bench(s.stdout)
