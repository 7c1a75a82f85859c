# SPDX-License-Identifier: MIT
"""Functional lockstep of cv32e40p-sim / cv32e40p-nofpu-sim against the RTL (pqlab/lockstep.py,
docs/cv32e40p.md): the same ELF on the Verilated core and on pqlab-sim, every register write
and every stored byte compared in order. The default run checks the timing micro-benchmark
program (its counter reads included: the model is cycle-exact there) and one scheme's test
program on the FPU-less core, plus negative controls of the comparison; every harness program
of the default RISC-V benchmark's schemes on both cores is behind the slow marker."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pqlab import build, lockstep, registry
from pqlab.platforms import get_platform

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "sim" / "tests"))
import simfw  # noqa: E402
from test_sim_cv32e40p import build_bench  # noqa: E402

MACHINE = {"cv32e40p-rtl": "cv32e40p", "cv32e40p-nofpu-rtl": "cv32e40p-nofpu"}


@pytest.fixture(scope="module")
def sim() -> Path:
    return simfw.build_sim()


def harness_elf(scheme: str, program: str, plat: str) -> Path:
    impl = next(i for i in registry.discover() if i.scheme == scheme and i.name == "ref")
    res = build.build(get_platform(plat), [impl], (program,), jobs=1)[impl.id]
    assert res.error is None, res.error
    return res.elf[program]


def check(plat: str, sim: Path, elf: Path, workdir: Path) -> lockstep.Result:
    res, r, s = lockstep.run_pair(get_platform(plat), sim, MACHINE[plat], elf, workdir)
    assert r.returncode == 0, (r.command, r.stdout[-2000:], r.stderr[-2000:])
    assert s.returncode == 0, (s.command, s.stdout[-2000:], s.stderr[-2000:])
    assert r.stdout == s.stdout
    assert res.ok, str(res.divergence)
    return res


def test_micro_benchmarks_in_lockstep(sim: Path, tmp_path: Path) -> None:
    res = check("cv32e40p-nofpu-rtl", sim, build_bench("cv32e40p-nofpu-rtl"), tmp_path)
    # every benchmark's counter reads and body cycles are among the register writes
    assert res.registers > 10_000 and res.stores > 5_000


def test_a_scheme_test_program_in_lockstep(sim: Path, tmp_path: Path) -> None:
    res = check("cv32e40p-nofpu-rtl", sim, harness_elf("ml-kem-512", "test", "cv32e40p-nofpu-rtl"), tmp_path)
    assert res.registers > 1_000_000 and res.stores > 100_000


def write(path: Path, records: list[tuple[int, int, int, int]]) -> Path:
    path.write_bytes(b"".join(lockstep.RECORD.pack(k, w, 0, v, pc) for k, w, v, pc in records))
    return path


def test_comparison_finds_the_first_difference_in_each_stream(tmp_path: Path) -> None:
    base = [(1, 5, 0x10, 0), (2, 0xAA, 0x200000, 0), (1, 6, 0x20, 0), (2, 0xBB, 0x200001, 0)]
    rtl = write(tmp_path / "rtl.bin", base)
    # the simulator interleaves the streams differently: still equal
    same = write(tmp_path / "same.bin", [(1, 5, 0x10, 0x1000), (1, 6, 0x20, 0x1004), *base[1::2]])
    assert lockstep.compare(rtl, same).ok
    wrong = write(tmp_path / "wrong.bin", [base[0], base[1], (1, 6, 0x21, 0x1234), base[3]])
    d = lockstep.compare(rtl, wrong).divergence
    assert d is not None and d.stream == "register" and d.index == 1 and d.pc == 0x1234
    assert "x6 = 0x00000020" in str(d) and "x6 = 0x00000021" in str(d) and "0x00001234" in str(d)
    store = write(tmp_path / "store.bin", [base[0], (2, 0xAA, 0x200004, 0x1100), base[2], base[3]])
    d = lockstep.compare(rtl, store).divergence
    assert d is not None and d.stream == "store" and d.index == 0
    short = write(tmp_path / "short.bin", base[:3])
    d = lockstep.compare(rtl, short).divergence
    assert d is not None and d.stream == "store" and d.index == 1 and d.sim is None


def test_comparison_refuses_a_damaged_file(tmp_path: Path) -> None:
    rtl = write(tmp_path / "rtl.bin", [(1, 5, 0x10, 0)])
    bad = tmp_path / "bad.bin"
    bad.write_bytes(rtl.read_bytes()[:-1])
    with pytest.raises(ValueError, match="truncated"):
        lockstep.compare(rtl, bad)
    odd = write(tmp_path / "odd.bin", [(7, 5, 0x10, 0)])
    with pytest.raises(ValueError, match="unknown kind"):
        lockstep.compare(rtl, odd)


# every harness program that runs without input (the driver reads its requests; the ACVP
# driver on the RTL is tests/test_cv32e40p_rtl.py's); kat for one scheme (the same code
# paths as test, a hundred times)
CAMPAIGN = [
    (scheme, program)
    for scheme in ("ml-kem-768", "ml-dsa-44", "fn-dsa-512")
    for program in ("test", "vectors", "speed", "stack", "hashing")
] + [("ml-kem-768", "kat")]


@pytest.mark.slow
@pytest.mark.parametrize("plat", ["cv32e40p-rtl", "cv32e40p-nofpu-rtl"])
@pytest.mark.parametrize(("scheme", "program"), CAMPAIGN)
def test_every_harness_program_in_lockstep(sim: Path, tmp_path: Path, plat: str, scheme: str, program: str) -> None:
    check(plat, sim, harness_elf(scheme, program, plat), tmp_path)
