# SPDX-License-Identifier: MIT
"""pqlab-sim's CV32E40P machine (RV32IMFC front end, timing model cv32e40p-v2,
sim/src/timing/cv32e40p.rs): the micro-benchmarks of sim/tests/fw/rv32/bench.S, built
through pqlab's build with cv32e40p-rtl's flags and start-up code, must take exactly the
cycles each rule of the CV32E40P user manual predicts (docs/source/pipeline.rst of the
pythondata-cpu-cv32e40p package, "Cycle counts per instruction type" and "Hazards"); every
expected value below was also measured on cv32e40p-rtl (FPU) and cv32e40p-nofpu-rtl
(integer ones), and the slow test checks that the RTL still agrees."""

from __future__ import annotations

import json
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


# the RISC-V semihosting call (RISC-V Semihosting, riscv-non-isa/riscv-semihosting,
# binary-interface.adoc): slli x0, x0, 0x1f; ebreak; srai x0, x0, 7, all uncompressed
SEMIHOSTING_CALL = bytes.fromhex("1310f0017300100013507040")


def build_guest() -> Path:
    elf = build_program(get_platform("cv32e40p-rtl"), simfw.BUILD / "rv32-guest-cv32e40p-rtl", [FW / "guest.c"])
    assert isinstance(elf, Path)
    return elf


@pytest.mark.parametrize("end", ["", "x", "b", "c"])
def test_guest_services_marks_and_semihosting(sim: Path, tmp_path: Path, end: str) -> None:
    """The interval marks and RISC-V semihosting on the RV32 hart (fw/rv32/guest.c): the
    same JSON intervals, interval table and mark errors as on the Cortex-M machines; the
    semihosting console, a host file written and read back, the clock and the heap
    information; an ebreak outside the sequence (or a compressed one inside it) is a
    breakpoint trap to the firmware's reporter, as on the RTL test bench."""
    elf = build_guest()
    if end:
        (tmp_path / "pqlab.in").write_bytes(end.encode())
    rep, tsv = tmp_path / "r.json", tmp_path / "r.tsv"
    r = subprocess.run(
        [str(sim), "--machine", "cv32e40p", "--json", str(rep), "--intervals", str(tsv), str(elf)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    out = dict(l.split(" ", 1) for l in r.stdout.splitlines() if " " in l and not l.startswith("#"))
    assert r.stdout.splitlines()[0] == "marks 24"
    # semihosting: console output on stderr (as QEMU), the file and the clock at 100 MHz
    assert r.stderr.startswith("sh write0\nsh tt\n"), r.stderr
    assert out["tt_write_left"] == "0" and out["file_write_left"] == "0"
    assert (tmp_path / "sh-file.txt").read_text() == out["file_text"] == "written by the guest"
    assert out["file_len"] == "20" and out["file_read_left"] == "10"
    rj = json.loads(rep.read_text())
    # SYS_CLOCK: centiseconds at 100 MHz (cv32e40p-rtl's clock_hz), after 4 M cycles of work
    assert 4 <= int(out["clock_cs"]) <= rj["cycles"] // 1_000_000
    # SYS_HEAPINFO as QEMU computes it, from the test bench's RAM (6 MiB from 0x200000)
    heap = [int(out[k]) for k in ("heap_base", "heap_limit", "stack_base", "stack_limit")]
    assert heap == [0x200000 + 0x300000, 0x800000, 0x800000, 0x200000]
    # the end
    if end == "x":
        assert r.returncode == 7 and "#fault" not in r.stdout
    elif end in ("b", "c"):
        assert r.returncode == 3
        assert "#fault trap" in r.stdout and "mcause=0x00000003" in r.stdout
    else:
        assert r.returncode == 0 and r.stdout.endswith("end\n")
    # the interval marks
    assert rj["interval_marks"] is True
    iv = {i["label"]: i for i in rj["intervals"]}
    assert [i["label"] for i in rj["intervals"]] == ["loop", "stack", "inner", "outer", "a"]
    for i in rj["intervals"]:
        assert sum(i["instruction_mix"].values()) == i["instructions"] <= i["cycles"]
    # count_down(1000): 2001 instructions plus the end mark's argument set-up and call
    loop = iv["loop"]
    assert 2001 <= loop["instructions"] <= 2006
    assert loop["instruction_mix"]["branch"] == 1000 and loop["instruction_mix"]["alu"] >= 1000
    # the firmware's mcycle delta also covers the begin mark and the whole end mark
    assert 0 < int(out["loop_mcycle"]) - loop["cycles"] <= 30
    assert loop["stack_high_water"] < 16
    simfw.check_marks_intervals(iv)
    assert rj["stack_high_water"] >= 1024
    assert rj["mark_errors"] == [
        "end mark 'b' closes the interval 'a'",
        "end mark 'stray' without an open interval",
    ]
    rows = [l.split("\t") for l in tsv.read_text().splitlines() if not l.startswith("#")]
    assert rows[0][:6] == ["label", "depth", "start_cycle", "cycles", "instructions", "stack_high_water"]
    assert rows[0][6:] == list(rj["instruction_mix"])
    assert [r[0] for r in rows[1:]] == ["loop", "stack", "inner", "outer", "a"]
    assert tsv.read_text().count("# error:") == 2


def test_marks_refused_with_the_lockstep_record_and_ct(sim: Path, tmp_path: Path) -> None:
    """--intervals needs the decode cache's hooks, which the lockstep record's and the
    secret tracking's loops do not take: refused with them, not an empty table."""
    elf = build_guest()
    for other in (["--writes", str(tmp_path / "w.bin")], ["--ct", str(tmp_path / "ct.json")]):
        r = subprocess.run(
            [str(sim), "--machine", "cv32e40p", "--intervals", str(tmp_path / "t.tsv"), *other, str(elf)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert r.returncode == 2 and "runs alone" in r.stderr, r.stderr


def test_harness_intervals_on_cv32e40p_sim(sim: Path, tmp_path: Path) -> None:
    """The harness's speed and stack programs mark every operation on the RV32 builds too:
    the intervals carry the operation names of the speed records, each interval exceeds its
    mcycle record by the two timer calls (a few tens of cycles: the interval covers both
    pqlab_hal_cycles calls, the record only from the first counter read to the second),
    and the interval stack high-water equals the stack program's own spray measurement
    within 32 bytes. The same ELFs run on cv32e40p-rtl, which has no semihosting: they
    contain no semihosting call."""
    from pqlab.build import BuildOptions, build
    from pqlab.registry import discover

    plat = get_platform("cv32e40p-sim")
    impls = [i for i in discover() if i.id == "ml-kem-768/ref"]
    res = build(plat, impls, ("speed", "stack"), opts=BuildOptions(iterations=2))["ml-kem-768/ref"]
    assert res.error is None, res.error
    for prog in ("speed", "stack"):
        assert SEMIHOSTING_CALL not in Path(res.elf[prog]).read_bytes()
    rep = tmp_path / "speed.json"
    s = simfw.run_sim(res.elf["speed"], "--json", str(rep), machine="cv32e40p", timeout=600)
    assert s.returncode == 0, s.stderr.decode()[-2000:]
    speed = [l.split() for l in s.stdout.decode().splitlines() if l.startswith("speed ")]
    r = json.loads(rep.read_text())
    ivs = r["intervals"]
    assert r["interval_marks"] is True and r["mark_errors"] == []
    assert [i["label"] for i in ivs] == [op for _, op, _ in speed]
    assert [i["label"] for i in ivs[:3]] == ["keypair", "encaps", "decaps"] and len(ivs) == 6
    for (_, op, cyc), iv in zip(speed, ivs):
        assert 0 < iv["cycles"] - int(cyc) < 100, (op, cyc, iv["cycles"])
        assert sum(iv["instruction_mix"].values()) == iv["instructions"] < iv["cycles"]
        assert iv["instruction_mix"]["load"] > 0 and iv["depth"] == 0
    assert sum(i["instructions"] for i in ivs) < r["instructions"]
    rep = tmp_path / "stack.json"
    s = simfw.run_sim(res.elf["stack"], "--json", str(rep), machine="cv32e40p", timeout=600)
    assert s.returncode == 0
    stack = {l.split()[1]: int(l.split()[2]) for l in s.stdout.decode().splitlines() if l.startswith("stack ")}
    r = json.loads(rep.read_text())
    assert sorted(stack) == sorted(i["label"] for i in r["intervals"])
    for iv in r["intervals"]:
        assert abs(iv["stack_high_water"] - stack[iv["label"]]) <= 32, (iv, stack)
        assert iv["stack_high_water"] > 1000
    # static RAM from the memory map's RAM region: .data and .bss (the ELF's segments there)
    assert 0 < r["static_ram"] < 0x10000 and r["peak_ram"] == r["static_ram"] + r["stack_high_water"]


def test_cv32e40p_platforms_make_no_semihosting_calls() -> None:
    """cv32e40p-rtl and cv32e40p-sim run the same ELF (build_as), and the RTL test bench has
    no semihosting: their start-up code and HAL use the test bench's registers, not
    rv32-qemu's semihosting HAL."""
    for name in ("cv32e40p-rtl", "cv32e40p-sim", "cv32e40p-nofpu-rtl", "cv32e40p-nofpu-sim"):
        plat = get_platform(name)
        srcs = [str(s) for s in plat.sources]
        assert srcs and not any(s.endswith("rv32-qemu/hal.c") for s in srcs), (name, srcs)


@pytest.mark.slow
def test_rtl_has_no_semihosting(sim: Path, tmp_path: Path) -> None:
    """On cv32e40p-rtl the semihosting sequence's ebreak is a breakpoint trap (the test bench
    has no debugger): fw/rv32/guest.c prints the same first lines there as on the model (its
    mcycle figure included), then the trap reporter's line at the first call."""
    from pqlab import rtl

    elf = build_guest()
    tb = rtl.model_path(get_platform("cv32e40p-rtl"))
    r = subprocess.run([str(tb), str(elf)], capture_output=True, text=True, timeout=1800, cwd=tmp_path)
    s = subprocess.run(
        [str(sim), "--machine", "cv32e40p", str(elf)], capture_output=True, text=True, timeout=60, cwd=tmp_path
    )
    assert s.returncode == 0 and r.returncode == 3
    lines = r.stdout.strip().splitlines()
    assert lines[:2] == s.stdout.splitlines()[:2]
    call = subprocess.run([get_platform("cv32e40p-rtl").tool("nm"), str(elf)], capture_output=True, text=True).stdout
    sh_call = int(next(l.split()[0] for l in call.splitlines() if l.endswith(" sh_call")), 16)
    assert lines[-1].startswith(f"#fault trap pc=0x{sh_call + 4:08x} ") and "mcause=0x00000003" in lines[-1]
