# SPDX-License-Identifier: MIT
"""pqlab-sim functional tests: firmware runs like under QEMU (byte-identical
UART and semihosting output, same exit code), reports, profiles and error paths."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "sim" / "tests"))
import simfw

from pqlab.build import build_program
from pqlab.platforms import get_platform


@pytest.fixture(scope="module")
def sim() -> Path:
    return simfw.build_sim()


@pytest.mark.parametrize("machine,cpu", [("mps2-an386", simfw.M4), ("mps2-an500", simfw.M7)])
@pytest.mark.parametrize("prog", ["hello", "workload"])
def test_output_identical_to_qemu(sim: Path, prog: str, machine: str, cpu: str) -> None:
    elf = simfw.build_fw(f"{prog}-{machine}", [f"{prog}.c"], cpu)
    q = simfw.run_qemu(elf, machine)
    s = simfw.run_sim(elf, machine=machine)
    assert s.stdout == q.stdout
    assert s.stderr == q.stderr
    assert s.returncode == q.returncode
    assert b"hello" in s.stdout or b"workload done" in s.stdout


def test_exit_code_and_semihosting(sim: Path) -> None:
    elf = simfw.build_fw("hello-mps2-an386", ["hello.c"])
    s = simfw.run_sim(elf)
    assert s.returncode == 7
    assert s.stdout == b"hello from uart\n12345\n"
    assert s.stderr == b"hello from semihosting\n"


def test_json_report(sim: Path, tmp_path: Path) -> None:
    elf = simfw.build_fw("workload-mps2-an386", ["workload.c"])
    rep = tmp_path / "r.json"
    s = simfw.run_sim(elf, "--json", str(rep))
    assert s.returncode == 0
    r = json.loads(rep.read_text())
    assert r["exit_code"] == 0 and r["error"] is None
    assert r["simulated"] is True and r["core"] == "cortex-m4"
    assert r["model_version"].startswith("pqlab-sim timing")
    assert r["instructions"] > 100_000
    # a Cortex-M4 needs more cycles than instructions (loads, branches, multi-cycle ops)
    assert r["instructions"] < r["cycles"] < 3 * r["instructions"]
    assert sum(r["instruction_mix"].values()) == r["instructions"]
    # workload keeps an int32_t[200] array and a Keccak state on the stack
    assert 800 + 200 < r["stack_high_water"] < 4096


def test_m7_report_is_labelled_estimate(sim: Path, tmp_path: Path) -> None:
    elf = simfw.build_fw("workload-mps2-an500", ["workload.c"], simfw.M7)
    rep = tmp_path / "r.json"
    assert simfw.run_sim(elf, "--json", str(rep), machine="mps2-an500").returncode == 0
    r = json.loads(rep.read_text())
    assert r["core"] == "cortex-m7" and r["estimate"] is True


def test_profile(sim: Path, tmp_path: Path) -> None:
    elf = simfw.build_fw("workload-mps2-an386", ["workload.c"])
    prof = tmp_path / "p.json"
    rep = tmp_path / "r.json"
    s = simfw.run_sim(elf, "--profile", str(prof), "--json", str(rep))
    assert s.returncode == 0
    p = json.loads(prof.read_text())
    funcs = {f["name"]: f for f in p["functions"]}
    total = json.loads(rep.read_text())["cycles"]
    assert p["total_cycles"] == total
    # classify() is called 2000 times from main, keccakf() ROUNDS=4 times
    assert funcs["classify"]["calls"] == 2000
    assert funcs["classify"]["inclusive"] >= funcs["classify"]["exclusive"] > 0
    assert funcs["keccakf"]["calls"] == 4
    assert funcs["keccakf"]["inclusive"] == funcs["keccakf"]["exclusive"]
    assert funcs["main"]["inclusive"] > 0.9 * total
    folded = (tmp_path / "p.json.folded").read_text().splitlines()
    assert any(line.startswith("reset_handler;main;classify ") for line in folded)
    assert sum(int(line.rsplit(" ", 1)[1]) for line in folded) == total


def test_profile_tail_call(sim: Path, tmp_path: Path) -> None:
    """A jump without link to a function's entry (tail call) opens a frame for the callee
    under the caller (main;via_tail;leaf), closed when the callee returns for both; a
    recursive function's inclusive cycles count each cycle once."""
    elf = simfw.build_fw("tailcall-mps2-an386", ["tailcall.c"])
    prof = tmp_path / "p.json"
    s = simfw.run_sim(elf, "--profile", str(prof))
    assert s.returncode == 0
    q = simfw.run_qemu(elf, "mps2-an386")
    assert s.stdout == q.stdout
    funcs = {f["name"]: f for f in json.loads(prof.read_text())["functions"]}
    assert funcs["leaf"]["calls"] == 17 and funcs["via_tail"]["calls"] == 10
    # depth(5) recurses six frames deep: inclusive counts each cycle once (at most the
    # run's total, and below main's), calls every frame
    assert funcs["depth"]["calls"] == 6
    assert 6 * 200 < funcs["depth"]["inclusive"] < funcs["main"]["inclusive"]
    assert funcs["via_tail"]["exclusive"] < 100
    # every leaf frame is counted: 11 calls of the same loop
    assert funcs["leaf"]["inclusive"] == funcs["leaf"]["exclusive"]
    folded = {
        ln.rsplit(" ", 1)[0]: int(ln.rsplit(" ", 1)[1]) for ln in (tmp_path / "p.json.folded").read_text().splitlines()
    }
    assert folded.get("reset_handler;main;via_tail;leaf", 0) > 10 * 200
    assert folded.get("reset_handler;main;leaf", 0) > 200
    assert folded.get("reset_handler;main;via_tail", 0) < 100
    assert funcs["via_tail"]["inclusive"] > 10 * 200


def _faults(tmp_path: Path, mode: int, machine: str = "mps2-an386"):
    cpu = simfw.M4 if machine == "mps2-an386" else simfw.M7
    elf = simfw.build_fw(f"faults-{machine}", ["faults.c"], cpu)
    (tmp_path / "pqlab.in").write_text(f"{mode}\n")
    return simfw.run_sim(elf, "--max-insns", "200000", machine=machine, cwd=tmp_path)


def test_semihosting_host_files(sim: Path, tmp_path: Path) -> None:
    s = _faults(tmp_path, 0)
    assert s.returncode == 0
    assert s.stdout == b"flen 2 read 2\nmode 0\n"


def test_undefined_instruction_stops(sim: Path, tmp_path: Path) -> None:
    s = _faults(tmp_path, 1)
    assert s.returncode != 0
    err = s.stderr.decode()
    assert "UNDEFINSTR" in err and "encoding f7f0 a000" in err and "at 0x" in err


def test_bus_fault_reports_hardfault_with_address(sim: Path, tmp_path: Path) -> None:
    s = _faults(tmp_path, 2)
    assert s.returncode != 0
    assert "HardFault" in s.stderr.decode() and "0x30000000" in s.stderr.decode()


@pytest.mark.parametrize("machine", ["mps2-an386", "mps2-an500"])
@pytest.mark.parametrize(
    "mode,addr,size", [(4, "0x00000000", "4 bytes"), (5, None, "1 byte"), (6, "0x00400010", "2 bytes")]
)
def test_store_to_code_region_is_a_bus_fault(
    sim: Path, tmp_path: Path, machine: str, mode: int, addr: str | None, size: str
) -> None:
    # the code region stands for flash: a store through a NULL pointer (the vector table),
    # into .text or into the region's alias stops the run, naming address, pc and function
    s = _faults(tmp_path, mode, machine)
    assert s.returncode == 1
    err, out = s.stderr.decode(), s.stdout.decode()
    assert f"HardFault: bus fault on write of {size} at address {addr or '0x'}" in err
    assert "is read-only" in err and ("NULL pointer" in err) == (mode == 4)
    # the UART stream gets the '#fault' line the firmware's own handler would print
    fault = [ln for ln in out.splitlines() if ln.startswith("#fault ")]
    assert len(fault) == 1 and fault[0].startswith("#fault sim-busfault pc=0x"), out
    assert " in main+0x" in fault[0] and "(main+0x" in err
    if addr:
        assert f"addr={addr}" in fault[0]
    # the pc named is the store instruction's: a Thumb store encoding at that address
    pc = int(fault[0].split("pc=")[1].split()[0], 16)
    assert 0 < pc < 0x400000


def test_instruction_budget(sim: Path, tmp_path: Path) -> None:
    s = _faults(tmp_path, 3)
    assert s.returncode != 0
    assert "instruction budget exceeded: 200000 instructions" in s.stderr.decode()


def test_bad_arguments(sim: Path, tmp_path: Path) -> None:
    import subprocess

    r = subprocess.run([str(sim), "--machine", "nope", "x.elf"], capture_output=True, check=False)
    assert r.returncode == 2 and b"unknown machine" in r.stderr
    bad = tmp_path / "bad.elf"
    bad.write_bytes(b"not an elf")
    r = subprocess.run([str(sim), str(bad)], capture_output=True, check=False)
    assert r.returncode == 2 and b"not an ELF" in r.stderr


def test_elf_checks_against_the_memory_map(sim: Path, tmp_path: Path) -> None:
    """machine/elf.rs Elf::check: an entry point outside code, a segment outside the memory
    regions (here: on UART0's window) and overlapping segments are refused before loading"""
    import struct
    import subprocess

    good = simfw.build_fw("workload-mps2-an386", ["workload.c"]).read_bytes()
    phoff = struct.unpack_from("<I", good, 28)[0]
    phent = struct.unpack_from("<H", good, 42)[0]
    loads = [
        k
        for k in range(struct.unpack_from("<H", good, 44)[0])
        if struct.unpack_from("<I", good, phoff + k * phent)[0] == 1
    ]
    first, second = (phoff + k * phent for k in loads[:2])

    def patched(off: int, value: int) -> bytes:
        b = bytearray(good)
        struct.pack_into("<I", b, off, value)
        return bytes(b)

    cases = {
        "entry point 0x30000001 is not in a code region of the mps2-an386 memory map": patched(24, 0x3000_0001),
        "ELF segment at 0x40004000": patched(first + 12, 0x4000_4000),
        "overlap in memory": patched(second + 8, struct.unpack_from("<I", good, first + 8)[0]),
    }
    for want, elf in cases.items():
        f = tmp_path / "bad.elf"
        f.write_bytes(elf)
        r = subprocess.run([str(sim), "--machine", "mps2-an386", str(f)], capture_output=True, check=False)
        assert r.returncode == 2 and want.encode() in r.stderr, r.stderr
    m = subprocess.run([str(sim), "--machine", "cv32e40p-acc", "--memory-map"], capture_output=True, check=True)
    assert b"0x00001000-0x001fffff code" in m.stdout and b"0x10010000-0x10013fff device NTT unit" in m.stdout


def test_fpu_disabled_is_a_fault(sim: Path, tmp_path: Path) -> None:
    # firmware that uses the FPU without enabling it in CPACR
    src = tmp_path / "nofpu.S"
    src.write_text("""
    .syntax unified
    .thumb
    .section .vectors
    .word 0x20001000
    .word start + 1
    .text
    .thumb_func
start:
    vadd.f32 s0, s1, s2
    b .
""")
    elf = build_program(
        get_platform(simfw.M4),
        tmp_path,
        [src],
        cflags=["-nostdlib"],
        ldflags=["-T", str(simfw.FW / "link.ld")],
        hal=False,
    )
    s = simfw.run_sim(elf, "--max-insns", "1000")
    assert s.returncode != 0 and "NOCP" in s.stderr.decode()


def test_cargo_unit_tests_and_format(sim: Path) -> None:
    import shutil
    import subprocess

    r = subprocess.run(["cargo", "test", "--quiet"], cwd=simfw.SIM_DIR, capture_output=True, timeout=600, check=False)
    assert r.returncode == 0, r.stdout.decode()[-2000:] + r.stderr.decode()[-2000:]
    if shutil.which("cargo-fmt") or shutil.which("rustfmt"):
        r = subprocess.run(["cargo", "fmt", "--check"], cwd=simfw.SIM_DIR, capture_output=True, check=False)
        assert r.returncode == 0, r.stdout.decode()[-2000:]


def test_cargo_lock_readable_by_debian_cargo() -> None:
    """run.sh installs Debian 12's cargo (1.65, rustc 1.63) where no cargo exists; it reads
    lock files up to format 3 ('failed to parse lock file' on format 4, which newer cargo
    writes for a new lock file), and the crate declares rust-version 1.63."""
    lock = (simfw.SIM_DIR / "Cargo.lock").read_text()
    # the file-format line comes before the first [[package]] table
    header = lock.split("[[package]]", 1)[0].splitlines()
    assert "version = 3" in header, header
    assert 'rust-version = "1.63"' in (simfw.SIM_DIR / "Cargo.toml").read_text()


@pytest.mark.slow
def test_cargo_clippy(sim: Path) -> None:
    import subprocess

    r = subprocess.run(
        ["cargo", "clippy", "--release", "--all-targets", "--", "-D", "warnings"],
        cwd=simfw.SIM_DIR,
        capture_output=True,
        timeout=900,
        check=False,
    )
    assert r.returncode == 0, r.stderr.decode()[-3000:]


@pytest.mark.parametrize("machine,cpu", [("mps2-an386", simfw.M4), ("mps2-an500", simfw.M7)])
def test_interrupt_stress_preserves_results(sim: Path, tmp_path: Path, machine: str, cpu: str) -> None:
    """SysTick every 98 cycles with an FP-using handler: same results as without."""
    plain = simfw.run_sim(simfw.build_fw(f"workload-{machine}", ["workload.c"], cpu), machine=machine)
    elf = simfw.build_fw(f"stress-{machine}", ["workload.c"], cpu, ["-DSTRESS_IRQ"])
    rep = tmp_path / "r.json"
    s = simfw.run_sim(elf, "--json", str(rep), machine=machine)
    assert s.returncode == 0, s.stderr.decode()
    assert s.stdout == plain.stdout
    r = json.loads(rep.read_text())
    # thousands of exceptions were taken: many more instructions than without
    assert r["instructions"] > 1.2 * 344_000


@pytest.mark.parametrize("machine,cpu", [("mps2-an386", simfw.M4), ("mps2-an500", simfw.M7)])
def test_interval_marks(sim: Path, tmp_path: Path, machine: str, cpu: str) -> None:
    """Per-interval figures between pqlab_mark_begin/pqlab_mark_end (fw/marks.c)."""
    elf = simfw.build_fw(f"marks-{machine}", ["marks.c"], cpu)
    rep, tsv = tmp_path / "r.json", tmp_path / "r.tsv"
    s = simfw.run_sim(elf, "--json", str(rep), "--intervals", str(tsv), machine=machine)
    q = simfw.run_qemu(elf, machine)
    # the marks are plain functions: same output as QEMU, apart from the DWT figure
    lines = s.stdout.decode().splitlines()
    assert s.returncode == q.returncode == 0 and lines[0] == "marks 24"
    assert q.stdout.decode().splitlines() == ["marks 24", "loop_dwt 0"]
    dwt = int(lines[1].split()[1])
    r = json.loads(rep.read_text())
    assert r["interval_marks"] is True
    iv = {i["label"]: i for i in r["intervals"]}
    assert [i["label"] for i in r["intervals"]] == ["loop", "stack", "inner", "outer", "a"]
    for i in r["intervals"]:
        assert sum(i["instruction_mix"].values()) == i["instructions"]
        # the Cortex-M7 model issues up to two instructions per cycle
        assert i["instructions"] <= i["cycles"] * (2 if machine == "mps2-an500" else 1)
    # count_down(1000): 2001 instructions plus the loop counter set-up and the end mark's call
    loop = iv["loop"]
    assert 2001 <= loop["instructions"] <= 2006
    assert loop["instruction_mix"]["branch"] >= 1000 and loop["instruction_mix"]["alu"] >= 1000
    # the firmware's DWT delta also covers the begin mark (call, store, return) and
    # the whole end mark: about 20 cycles more than the interval (on the Cortex-M7
    # model the returns from the mark functions can be mispredicted: 8 cycles each)
    assert 0 < dwt - loop["cycles"] <= (24 if machine == "mps2-an386" else 40)
    assert loop["cycles"] > 2000
    assert loop["stack_high_water"] < 16
    # a 1 KiB frame; nesting: inner lies inside outer, and outer's stack covers deep()
    simfw.check_marks_intervals(iv)
    # the run's high-water is not lost by the per-interval bookkeeping
    assert r["stack_high_water"] >= 1024
    assert r["mark_errors"] == [
        "end mark 'b' closes the interval 'a'",
        "end mark 'stray' without an open interval",
    ]
    rows = [l.split("\t") for l in tsv.read_text().splitlines() if not l.startswith("#")]
    assert rows[0][:6] == ["label", "depth", "start_cycle", "cycles", "instructions", "stack_high_water"]
    assert [int(x) for x in rows[1][3:6]] == [loop["cycles"], loop["instructions"], loop["stack_high_water"]]


def test_no_marks_no_intervals(sim: Path, tmp_path: Path) -> None:
    elf = simfw.build_fw("workload-mps2-an386", ["workload.c"])
    rep = tmp_path / "r.json"
    assert simfw.run_sim(elf, "--json", str(rep)).returncode == 0
    r = json.loads(rep.read_text())
    assert r["interval_marks"] is False and r["intervals"] == [] and r["mark_errors"] == []
