# SPDX-License-Identifier: MIT
"""pqlab's harness binaries on pqlab-sim and on QEMU: the output of the test and
vectors programs is byte-identical (apart from the timer name of the first line:
DWT on pqlab-sim, SysTick/icount on QEMU), and the test program runs in lockstep
with QEMU (timer code excluded, see sim/tests/lockstep.py). The default run covers
ML-KEM-768; `-m slow` covers every implementation that builds for the Cortex-M4."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "sim" / "tests"))
import lockstep
import simfw

import json

from pqlab.build import BuildOptions, build
from pqlab.platforms import get_platform
from pqlab.registry import discover

TIMER_FUNCS = [
    "timer_setup",
    "pqlab_hal_cycles",
    "dwt_extend",
    "pqlab_armv7m_systick_isr",
    "pqlab_hal_timer_name",
    "pqlab_hal_setup",
]


@pytest.fixture(scope="module")
def sim() -> Path:
    return simfw.build_sim()


PAIRS = {"m4-sim": "mps2-an386", "m7-sim": "mps2-an500"}


def _impls(only: str | None, sim_plat: str = "m4-sim"):
    plat = get_platform(sim_plat)
    qemu = PAIRS[sim_plat]
    out = []
    for impl in discover():
        if only and impl.id != only:
            continue
        if impl.platforms is not None and sim_plat not in impl.platforms and qemu not in impl.platforms:
            continue
        if sim_plat in impl.exclude_platforms or qemu in impl.exclude_platforms:
            continue
        if impl.fpr == "native" and plat.fpr != "native":
            continue
        out.append(impl)
    return plat, out


def _normalise(text: bytes) -> bytes:
    return re.sub(rb"^(#pqlab \d+ \S+) timer=\S+", rb"\1 timer=T", text, count=1, flags=re.MULTILINE)


def _compare(plat, impl, programs: tuple[str, ...], tmp_path: Path, lock_limit: int) -> None:
    machine = PAIRS[plat.name]
    res = build(plat, [impl], programs)[impl.id]
    assert res.error is None, res.error
    for prog in programs:
        elf = res.elf[prog]
        (tmp_path / "pqlab.in").write_bytes(b"")
        q = simfw.run_qemu(elf, machine, cwd=tmp_path, timeout=1800)
        s = simfw.run_sim(elf, machine=machine, cwd=tmp_path, timeout=1800)
        assert s.returncode == q.returncode == 0, s.stderr.decode()[-2000:]
        assert s.stdout.startswith(b"#pqlab 1 " + prog.encode() + b" timer=dwt")
        assert _normalise(s.stdout) == _normalise(q.stdout), f"{impl.id} {prog}"
    if lock_limit:
        elf = res.elf["test"]
        r = lockstep.run(
            elf, machine=machine, limit=lock_limit, fp=True, fp_every=1000, sync=lockstep.func_ranges(elf, TIMER_FUNCS)
        )
        assert r.mismatch is None, f"{impl.id}: {r.mismatch}"
        assert r.steps == lock_limit


def test_mlkem768_test_and_vectors(sim: Path, tmp_path: Path) -> None:
    plat, impls = _impls("ml-kem-768/ref")
    assert impls, "ml-kem-768/ref not found"
    _compare(plat, impls[0], ("test", "vectors"), tmp_path, lock_limit=4000)


@pytest.mark.slow
@pytest.mark.parametrize("sim_plat", ["m4-sim", "m7-sim"])
def test_every_implementation(sim: Path, tmp_path: Path, sim_plat: str) -> None:
    plat, impls = _impls(None, sim_plat)
    assert len(impls) > 3
    for impl in impls:
        _compare(plat, impl, ("test", "vectors"), tmp_path, lock_limit=20_000)


def test_harness_intervals(sim: Path, tmp_path: Path) -> None:
    """The speed and stack programs mark every operation (pqlab_mark_begin/end); the
    simulator's per-interval figures agree with what the harness measures itself."""
    plat, impls = _impls("ml-kem-768/ref")
    res = build(plat, impls, ("speed", "stack"), opts=BuildOptions(iterations=2))["ml-kem-768/ref"]
    assert res.error is None, res.error
    rep = tmp_path / "speed.json"
    s = simfw.run_sim(res.elf["speed"], "--json", str(rep), timeout=600)
    assert s.returncode == 0, s.stderr.decode()[-2000:]
    speed = [l.split() for l in s.stdout.decode().splitlines() if l.startswith("speed ")]
    r = json.loads(rep.read_text())
    ivs = r["intervals"]
    assert r["mark_errors"] == [] and [i["label"] for i in ivs] == [op for _, op, _ in speed]
    assert [i["label"] for i in ivs[:3]] == ["keypair", "encaps", "decaps"] and len(ivs) == 6
    for (_, op, cyc), iv in zip(speed, ivs):
        # the DWT delta also covers the two timer reads and the begin mark
        assert 0 < int(cyc) - iv["cycles"] < 200, (op, cyc, iv["cycles"])
        assert sum(iv["instruction_mix"].values()) == iv["instructions"] < iv["cycles"]
        assert iv["instruction_mix"]["load"] > 0 and iv["depth"] == 0
    assert sum(i["instructions"] for i in ivs) < r["instructions"]
    rep = tmp_path / "stack.json"
    s = simfw.run_sim(res.elf["stack"], "--json", str(rep), timeout=600)
    assert s.returncode == 0
    stack = {l.split()[1]: int(l.split()[2]) for l in s.stdout.decode().splitlines() if l.startswith("stack ")}
    ivs = json.loads(rep.read_text())["intervals"]
    assert sorted(stack) == sorted(i["label"] for i in ivs)
    for iv in ivs:
        # the harness sprays below the SP of pqlab_hal_stack_spray(), the simulator
        # counts from the SP after the begin mark
        assert abs(iv["stack_high_water"] - stack[iv["label"]]) <= 32, (iv, stack)
        assert iv["stack_high_water"] > 1000


def test_sim_platforms_exist() -> None:
    m4 = get_platform("m4-sim")
    m7 = get_platform("m7-sim")
    assert m4.runner_kind == m7.runner_kind == "pqlab-sim"
    assert m4.cflags == get_platform("mps2-an386").cflags
    assert m7.cflags == get_platform("mps2-an500").cflags
    assert "mps2-an386" in m4.runner_command and "mps2-an500" in m7.runner_command
    out = subprocess.run(
        ["git", "ls-files", "platforms/m4-sim"],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parent.parent,
        check=False,
    ).stdout
    assert "platform.toml" in out
