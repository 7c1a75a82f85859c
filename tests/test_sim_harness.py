# SPDX-License-Identifier: MIT
"""pqlab's harness binaries on pqlab-sim and on QEMU: the output of the test and
vectors programs is byte-identical (apart from the timer name of the first line:
DWT on pqlab-sim, SysTick/icount on QEMU), and the test program runs in lockstep
with QEMU (timer code excluded, see sim/tests/lockstep.py). The default run covers
ML-KEM-768; `-m slow` covers every implementation that builds for the Cortex-M4.

The lockstep campaign over every harness binary (`-m slow`,
test_lockstep_every_harness_binary): for every implementation (lib/ and the
foreign demo folders in tests/foreign) and every harness program, the whole output
is identical under QEMU and pqlab-sim (timer figures masked), the first N
instructions run in lockstep from reset, and in the programs that mark their
operations (speed, stack) the first N instructions of the first operation, from the
entry of pqlab_mark_begin. The speed program also checks that pqlab-sim retires as
many instructions per operation as QEMU's -icount SysTick counts (within its
40-instruction tick)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "sim" / "tests"))
import lockstep
import simfw

from pqlab.build import PROGRAMS, BuildOptions, build
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
        # the marks are outside the timed window: the interval also covers the two timer
        # reads, the DWT delta parts of them
        assert abs(int(cyc) - iv["cycles"]) < 200, (op, cyc, iv["cycles"])
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


FOREIGN = Path(__file__).resolve().parent / "foreign"
# records whose figures come from the timer (DWT cycles vs QEMU's SysTick)
TIMED = re.compile(rb"^(speed|hashing) (\S+)((?: \d+)+)$", re.MULTILINE)


def _mask_timed(text: bytes) -> bytes:
    return TIMED.sub(lambda m: m.group(1) + b" " + m.group(2) + b" T", _normalise(text))


def _check_binary(prog: str, elf: Path, machine: str, limit: int, tmp_path: Path) -> dict:
    """Output identity, lockstep prefixes and (speed) per-operation instruction counts."""
    t0 = time.time()
    (tmp_path / "pqlab.in").write_bytes(b"")
    rep = tmp_path / "r.json"
    q = simfw.run_qemu(elf, machine, cwd=tmp_path, timeout=3600)
    s = simfw.run_sim(elf, "--json", str(rep), machine=machine, cwd=tmp_path, timeout=3600)
    assert s.returncode == q.returncode == 0, (prog, s.stderr.decode()[-2000:])
    assert _mask_timed(s.stdout) == _mask_timed(q.stdout), f"{elf}: output differs"
    r = json.loads(rep.read_text())
    out = {"program": prog, "instructions": r["instructions"], "lockstep": 0, "encodings": 0}
    if prog == "speed":
        # QEMU's figure is SysTick ticks x 40 = instructions with -icount shift=0; it
        # counts part of the timer reads, the interval both of them (tens of instructions).
        # The simulator's interval includes the HAL's SysTick handler, which runs
        # every 2^24 modelled cycles there but every 2^24 x 40 instructions under
        # QEMU (about 15 instructions each, 40 allowed)
        qv = [int(l.split()[2]) for l in q.stdout.decode().splitlines() if l.startswith("speed ")]
        assert len(qv) == len(r["intervals"]) > 0
        for v, iv in zip(qv, r["intervals"]):
            isr = 40 * (iv["cycles"] // (1 << 24) + 1)
            assert -160 - isr <= v - iv["instructions"] <= 160, (iv["label"], v, iv["instructions"])
    sync = lockstep.func_ranges(elf, TIMER_FUNCS)
    starts = [None] + [a for a, _ in lockstep.func_ranges(elf, ["pqlab_mark_begin"])]
    encs: set[int] = set()
    for start in starts:
        res = lockstep.run(elf, machine=machine, limit=limit, fp=True, fp_every=500, sync=sync, start_pc=start)
        assert res.mismatch is None, f"{elf} ({prog}, from {start and hex(start) or 'reset'}): {res.mismatch}"
        assert res.steps == limit or start is None
        out["lockstep"] += res.steps
        encs |= res.encodings
    out["encodings"] = len(encs)
    out["seconds"] = round(time.time() - t0, 1)
    return out


def _campaign(sim_plat: str, impls, programs, limit: int, tmp_path: Path, opts: BuildOptions) -> list[dict]:
    plat = get_platform(sim_plat)
    machine = PAIRS[sim_plat]
    results = build(plat, impls, programs, opts=opts)
    rows = []
    for impl in impls:
        res = results[impl.id]
        assert res.error is None, res.error
        for prog, elf in res.elf.items():
            row = _check_binary(prog, elf, machine, limit, tmp_path)
            row["impl"] = impl.id
            rows.append(row)
            print(f"{sim_plat} {impl.id} {prog}: {row}", flush=True)
    return rows


def test_lockstep_harness_binaries(sim: Path, tmp_path: Path) -> None:
    """Default run of the campaign below: ML-KEM-512's speed and stack programs."""
    plat, impls = _impls("ml-kem-512/ref")
    rows = _campaign("m4-sim", impls, ("speed", "stack"), 1500, tmp_path, BuildOptions(iterations=1))
    assert [r["program"] for r in rows] == ["speed", "stack"]
    # from reset and from the first operation's begin mark
    assert all(r["lockstep"] == 3000 for r in rows)


@pytest.mark.slow
@pytest.mark.parametrize("sim_plat", ["m4-sim", "m7-sim"])
def test_lockstep_every_harness_binary(sim: Path, tmp_path: Path, sim_plat: str) -> None:
    """Every harness program of every implementation (on the Cortex-M7: the ones that
    need its double-precision FPU). PQLAB_SIM_HARNESS_IMPLS (a regular expression
    on the implementation id) narrows it, PQLAB_SIM_HARNESS_LIMIT sets N (5000),
    PQLAB_SIM_HARNESS_REPORT names a JSON file for the per-binary results."""
    plat = get_platform(sim_plat)
    pattern = re.compile(os.environ.get("PQLAB_SIM_HARNESS_IMPLS", ".*"))
    impls = []
    for impl in discover([FOREIGN]):
        if not pattern.search(impl.id):
            continue
        if impl.platforms is not None and sim_plat not in impl.platforms and PAIRS[sim_plat] not in impl.platforms:
            continue
        if sim_plat in impl.exclude_platforms or PAIRS[sim_plat] in impl.exclude_platforms:
            continue
        if impl.fpr == "native" and plat.fpr != "native":
            continue
        if sim_plat == "m7-sim" and impl.fpr != "native":
            continue
        impls.append(impl)
    assert impls
    limit = int(os.environ.get("PQLAB_SIM_HARNESS_LIMIT", "5000"))
    rows = _campaign(sim_plat, impls, PROGRAMS, limit, tmp_path, BuildOptions(iterations=1, kat_count=1))
    path = os.environ.get("PQLAB_SIM_HARNESS_REPORT")
    if path:
        Path(path).write_text(json.dumps(rows, indent=1))
    print(
        f"\n{sim_plat}: {len(rows)} binaries of {len(impls)} implementations, "
        f"{sum(r['lockstep'] for r in rows)} instructions in lockstep, "
        f"{sum(r['instructions'] for r in rows)} instructions compared by output"
    )


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
