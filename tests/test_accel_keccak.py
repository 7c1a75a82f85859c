# SPDX-License-Identifier: MIT
"""The Keccak-f[1600] unit (hw/accel/keccak/keccak_f1600.sv, docs/accel.md) against the software
model tests/keccak_model.py (itself checked against hashlib's SHA3-256): random states, the
all-zero state and FIPS 202's zero-state output, and the cycle count (24, one round per cycle).
The unit's test bench is built with `verilator --binary` (about 10 s) into a temporary folder."""

from __future__ import annotations

import hashlib
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pqlab.build import build_program
from pqlab.platforms import get_platform
from tests import keccak_model as km

HW = Path(__file__).resolve().parent.parent / "hw" / "accel" / "keccak"


def test_model_against_hashlib() -> None:
    for msg in (b"", b"abc", bytes(range(256)) * 3):
        assert km.sha3_256(msg) == hashlib.sha3_256(msg).digest()
    # a wrong model must fail this check (a control for the check itself)
    assert km.sha3_256(b"abc") != hashlib.sha3_256(b"abd").digest()


def _pack(lanes: list[int]) -> int:
    return sum(v << (64 * i) for i, v in enumerate(lanes))


def _unpack(v: int) -> list[int]:
    return [(v >> (64 * i)) & km.MASK for i in range(25)]


@pytest.fixture(scope="module")
def unit_tb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("verilator") is None:
        pytest.skip("verilator is not installed (apt-get install verilator)")
    d = tmp_path_factory.mktemp("keccak_tb")
    cmd = [
        "verilator", "--binary", "-j", "1", "--top-module", "tb_keccak", "-Mdir", str(d / "obj"),
        "-o", str(d / "tbk"), str(HW / "keccak_f1600.sv"), str(HW / "tb_keccak.sv"),
    ]  # fmt: skip
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    return d / "tbk"


def test_unit_against_model(unit_tb: Path, tmp_path: Path) -> None:
    rng = random.Random(19)
    # a random state first: the first writes after reset, with the unit's clock gated during
    # reset as in the core (h102: h97's unit got them wrong, the zero state hid it)
    states = [[rng.getrandbits(64) for _ in range(25)], [0] * 25, [km.MASK] * 25]
    states += [[rng.getrandbits(64) for _ in range(25)] for _ in range(7)]
    (tmp_path / "in.hex").write_text("".join(f"{_pack(s):0400x}\n" for s in states))
    r = subprocess.run(
        [str(unit_tb), f"+in={tmp_path / 'in.hex'}", f"+out={tmp_path / 'out.hex'}"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    lines = (tmp_path / "out.hex").read_text().split()
    assert len(lines) == 4 * len(states)
    for k, s in enumerate(states):
        cycles, out = int(lines[4 * k]), _unpack(int(lines[4 * k + 1], 16))
        assert cycles == 24, f"state {k}: {cycles} cycles"
        assert out == km.keccak_f1600(s), f"state {k} differs from the model"
        # kxw (xor_i) of the input's words into the result, from the cycle after the
        # permutation: every word XORs its own value
        absorbed = [o ^ i for o, i in zip(out, s)]
        assert _unpack(int(lines[4 * k + 2], 16)) == absorbed, f"state {k}: XOR write"
        # kperm in the cycle after the last kxw (the sponge's absorb)
        assert _unpack(int(lines[4 * k + 3], 16)) == km.keccak_f1600(absorbed), f"state {k}: kxw then kperm"
    # FIPS 202 Keccak-f[1600] of the zero state, first lane (the XKCP/FIPS 202 example value)
    assert _unpack(int(lines[4 * 1 + 1], 16))[0] == 0xF1258F7940E1DDE7


# ---- the unit on the CV32E40P: cv32e40p-acc-rtl and its model (machine cv32e40p-acc) ----

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "sim" / "tests"))
import simfw  # noqa: E402

FW = simfw.FW / "rv32"
ACC_RTL = "cv32e40p-acc-rtl"
W = 24  # cycles the unit is busy after a start (one round per cycle)

# body cycles (mcycle difference minus bench_empty's) of bench_acc.S and their rule
# (docs/accel.md, sim/src/timing/cv32e40p.rs); all measured on cv32e40p-acc-rtl as well
P = 15  # cycles the NTT unit is busy after bench_acc.S's start (since h82 a pointwise product of
# 4 words, FN-DSA logn 2: 4 product steps, 2 idle, 4 scale steps, 5 to the last write)
EXPECTED_ACC = {
    # the data-port slot rule, on the NTT unit (slot 0 of tb_top.sv)
    "acc_ntt_sw": (10, "a store to an idle unit: 1, like memory"),
    "acc_ntt_lw": (10, "a load from an idle unit: 1"),
    "acc_ntt_lw_use": (15, "load-use hazard as for memory: 1"),
    "acc_ntt_start_lw": (2 + P, "start, then a read waits for the busy cycles"),
    "acc_ntt_start_gap4": (2 + P, "4 instructions between: the read waits P - 4"),
    "acc_ntt_start_gap13": (2 + P, "P - 2 between: waits 2"),
    "acc_ntt_start_gap14": (2 + P, "P - 1 between: waits 1"),
    "acc_ntt_start_gap15": (2 + P, "P between: no wait"),
    "acc_ntt_start_gap30": (32, "30 between: no wait"),
    "acc_ntt_start_sw": (2 + P, "a write waits as a read does"),
    "acc_ntt_start_start": (3 + 2 * P, "a second start waits, then the read waits again"),
    "acc_ntt_start_use": (4 + P, "the waited-for load's value: load-use hazard 1"),
    "acc_ntt_start_jal": (3 + P, "a jump after a waiting access: 2 - 1 (overlaps, as after a split load)"),
    "acc_ntt_start_beq": (5 + P, "a taken branch after it: 3"),
    "acc_ntt_start_mulh": (2 + P, "a mulh between: counts against the wait"),
    "acc_ntt_start_div": (36, "divu 2/1 (3 + 30 cycles) between: longer than the wait"),
    "acc_ntt_start_branch_lw": (2 + P, "a taken branch between counts against the wait"),
    # the custom instructions (a unit of their own in the patched core's EX stage)
    "acc_ksw": (10, "ksw to an idle unit: 1"),
    "acc_kxw": (10, "kxw: 1"),
    "acc_klw": (10, "klw: 1"),
    "acc_klw_use": (10, "klw's word is forwarded like an ALU result: no hazard"),
    "acc_lw_ksw": (15, "ksw of a just-loaded register: load-use hazard 1"),
    "acc_lw_klw_addr": (15, "klw indexed by a just-loaded register: load-use hazard 1"),
    "acc_lw_klw_waw": (15, "klw writing a just-loaded register: the ALU-port write-after-write hazard 1"),
    "acc_kperm_klw": (2 + W, "kperm, then klw waits in EX for the 24 busy cycles"),
    "acc_kperm_gap8": (2 + W, "8 instructions between count against the wait"),
    "acc_kperm_gap23": (2 + W, "23 between: waits 1"),
    "acc_kperm_gap24": (2 + W, "24 between: no wait"),
    "acc_kperm_ksw": (2 + W, "a write waits as a read does"),
    "acc_kperm_kperm": (3 + 2 * W, "a second kperm waits, then the read waits again"),
    "acc_kperm_use": (3 + W, "the waited-for word is forwarded: no hazard"),
    "acc_kperm_jal": (3 + W, "a jump after a waiting instruction: 2 - 1 (overlaps)"),
    "acc_kperm_beq": (5 + W, "a taken branch after it: 3"),
    "acc_kperm_mulh": (2 + W, "a mulh between counts against the wait"),
    "acc_kperm_div": (36, "divu 2/1 (3 + 30 cycles) between: longer than the wait"),
    "acc_kperm_lw": (3, "memory and the NTT unit's slot do not wait for it"),
    "acc_kperm_csr": (6 + W, "mcycle read after the waited klw: 4"),
    "acc_kperm_seq": (225, "the state in memory: 25 x (lw, lw, ksw, ksw) + kperm + wait + 25 x (klw, klw, sw, sw)"),
}


def build_acc_bench() -> Path:
    elf = build_program(
        get_platform(ACC_RTL),
        simfw.BUILD / "rv32-bench-acc",
        [FW / "bench.S", FW / "bench_acc.S", FW / "bench_main.c"],
        cflags=["-DPQLAB_BENCH_ACC"],
    )
    assert isinstance(elf, Path)
    return elf


@pytest.fixture(scope="module")
def sim() -> Path:
    return simfw.build_sim()


def test_model_micro_benchmarks_take_the_cycles_of_their_rule(sim: Path) -> None:
    r = subprocess.run(
        [str(sim), "--machine", "cv32e40p-acc", str(build_acc_bench())], capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 0, r.stderr
    figs = simfw.parse_bench(r.stdout)
    got = {k: v - figs["empty"] for k, v in figs.items() if k.startswith("acc_")}
    assert set(got) == set(EXPECTED_ACC)
    wrong = {k: (got[k], cyc, rule) for k, (cyc, rule) in EXPECTED_ACC.items() if got[k] != cyc}
    assert not wrong, wrong


def test_base_machine_has_no_unit(sim: Path) -> None:
    """The micro-benchmarks fault on the base machine (the NTT unit's window is unmapped there):
    the base test bench and model are unchanged, and the accelerated figures do come from
    the unit."""
    r = subprocess.run(
        [str(sim), "--machine", "cv32e40p-nofpu", str(build_acc_bench())], capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 3
    assert "#fault bus" in r.stdout and "addr=0x10010000" in r.stdout


def test_schemes_use_the_unit_on_the_model() -> None:
    """ML-KEM-768 passes on cv32e40p-acc-sim, and its speed program has the unit's routine and
    none of the software permutations."""
    from tests.cli_runner import pqlab

    code, out = pqlab("test", "ml-kem-768", "-i", "ref", "-p", "cv32e40p-acc-sim", "-j", "1")
    assert code == 0 and "ok   ml-kem-768/ref on cv32e40p-acc-sim" in out, out
    elf = next(
        (Path(__file__).resolve().parent.parent / "build").glob("cv32e40p-acc-sim/impl/ml-kem-768/ref-*/test.elf"), None
    )
    if elf is None:
        pytest.skip("the test program's ELF was not found under build/ (layout changed?)")
    syms = subprocess.run(["riscv64-unknown-elf-nm", str(elf)], capture_output=True, text=True).stdout
    assert "pqlab_keccakf1600_acc" in syms
    assert "keccakf1600_rows" not in syms and "pqlab_keccakf1600_native" not in syms


@pytest.mark.slow
def test_rtl_gives_the_same_micro_benchmark_cycles(sim: Path, tmp_path: Path) -> None:
    """The model's cycles are the RTL's: every micro-benchmark of bench.S and bench_acc.S."""
    from pqlab import rtl

    elf = build_acc_bench()
    tb = rtl.model_path(get_platform(ACC_RTL))
    r = subprocess.run([str(tb), str(elf)], capture_output=True, text=True, timeout=1800, cwd=tmp_path)
    s = subprocess.run([str(sim), "--machine", "cv32e40p-acc", str(elf)], capture_output=True, text=True, timeout=60)
    assert simfw.parse_bench(r.stdout) == simfw.parse_bench(s.stdout)


def build_kinsn_test() -> Path:
    root = Path(__file__).resolve().parent.parent
    elf = build_program(
        get_platform(ACC_RTL),
        simfw.BUILD / "rv32-kinsn-test",
        [FW / "kinsn_test.c"],
        include=[root / "lib" / "native" / "rv32acc"],
    )
    assert isinstance(elf, Path)
    return elf


def check_kinsn_output(out: str) -> None:
    """kinsn_test.c's lines: every permutation equal to the model, every addressing check 1."""
    perms = checks = 0
    for line in out.splitlines():
        f = line.split()
        if f[:1] == ["perm"]:
            wi, wo = ([int(h[8 * k : 8 * k + 8], 16) for k in range(50)] for h in f[1:3])
            lanes = [wi[2 * k] | wi[2 * k + 1] << 32 for k in range(25)]
            assert [wo[2 * k] | wo[2 * k + 1] << 32 for k in range(25)] == km.keccak_f1600(lanes), line[:60]
            perms += 1
        elif f[:1] == ["check"]:
            assert f[2] == "1", line
            checks += 1
    assert (perms, checks) == (6, 8) and "#end ok" in out, out


def test_instructions_on_the_model(sim: Path) -> None:
    r = subprocess.run(
        [str(sim), "--machine", "cv32e40p-acc", str(build_kinsn_test())], capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 0, r.stdout + r.stderr
    check_kinsn_output(r.stdout)


def test_instructions_are_illegal_on_the_base_machine(sim: Path) -> None:
    """The unpatched core (cv32e40p-nofpu) traps on custom-0: the instructions exist only on
    the patched one."""
    r = subprocess.run(
        [str(sim), "--machine", "cv32e40p-nofpu", str(build_kinsn_test())], capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 3 and "mcause=0x00000002" in r.stdout and "#end ok" not in r.stdout, r.stdout


@pytest.mark.slow
def test_instructions_on_the_rtl(sim: Path, tmp_path: Path) -> None:
    """The patched core runs kinsn_test.c with the model's results (and the same output)."""
    from pqlab import rtl

    elf = build_kinsn_test()
    tb = rtl.model_path(get_platform(ACC_RTL))
    r = subprocess.run([str(tb), str(elf)], capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    check_kinsn_output(r.stdout)
    s = subprocess.run([str(sim), "--machine", "cv32e40p-acc", str(elf)], capture_output=True, text=True, timeout=60)
    assert r.stdout == s.stdout


@pytest.mark.slow
def test_instructions_in_lockstep(sim: Path, tmp_path: Path) -> None:
    """Every register write (klw's included, once per instruction although it waits in EX) and
    every stored byte of kinsn_test.c and of the micro-benchmarks (counter reads included)
    equal on the patched RTL and the model (pqlab/lockstep.py)."""
    from pqlab import lockstep

    for name, elf in (("kinsn", build_kinsn_test()), ("bench", build_acc_bench())):
        res, r, s = lockstep.run_pair(get_platform(ACC_RTL), sim, "cv32e40p-acc", elf, tmp_path / name)
        assert r.returncode == 0 and s.returncode == 0, (name, r.stdout[-2000:], s.stdout[-2000:])
        assert res.ok, (name, str(res.divergence))
        assert res.registers > 1_000, (name, res.registers)


@pytest.mark.slow
def test_base_rtl_has_no_instructions(tmp_path: Path) -> None:
    """cv32e40p-nofpu-rtl compiles the unpatched core: custom-0 is an illegal instruction."""
    from pqlab import rtl

    tb = rtl.model_path(get_platform("cv32e40p-nofpu-rtl"))
    r = subprocess.run([str(tb), str(build_kinsn_test())], capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert r.returncode != 0 and "mcause=0x00000002" in r.stdout and "#end ok" not in r.stdout, r.stdout


def build_bad(kind: int) -> Path:
    elf = build_program(
        get_platform(ACC_RTL),
        simfw.BUILD / f"rv32-acc-bad{kind}",
        [FW / "acc_bad.c"],
        cflags=[f"-DACC_BAD={kind}"],
    )
    assert isinstance(elf, Path)
    return elf


@pytest.mark.parametrize("kind", [1, 2, 3])
def test_removed_data_port_unit_is_a_bus_fault(sim: Path, kind: int) -> None:
    """The data-port Keccak unit is gone (h70): its old window is unmapped, as on the RTL."""
    r = subprocess.run(
        [str(sim), "--machine", "cv32e40p-acc", str(build_bad(kind))], capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 3 and "#fault bus" in r.stdout and "addr=0x10001" in r.stdout, r.stdout
    assert "#end ok" not in r.stdout, r.stdout


@pytest.mark.slow
@pytest.mark.parametrize("kind", [1, 2, 3])
def test_removed_data_port_unit_is_a_bus_fault_on_the_rtl(kind: int, tmp_path: Path) -> None:
    from pqlab import rtl

    tb = rtl.model_path(get_platform(ACC_RTL))
    r = subprocess.run([str(tb), str(build_bad(kind))], capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert r.returncode != 0 and "#fault bus" in r.stdout and "addr=0x10001" in r.stdout, r.stdout
    assert "#end ok" not in r.stdout, r.stdout
