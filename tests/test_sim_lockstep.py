# SPDX-License-Identifier: MIT
"""Lockstep differential validation of pqlab-sim against QEMU 7.2: registers
(r0-r15, xPSR, and after FP instructions s0-s31 and FPSCR) are compared after
every instruction. The default run takes a few seconds; the full campaign over
many random instruction streams and whole programs is marked `slow`
(or enabled with PQLAB_SIM_LOCKSTEP_SEEDS=N)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "sim" / "tests"))
import gen_stream
import lockstep
import simfw


@pytest.fixture(scope="module")
def sim() -> Path:
    return simfw.build_sim()


def _check(res: lockstep.Result, min_steps: int) -> None:
    assert res.mismatch is None, res.mismatch
    assert res.steps >= min_steps


def test_lockstep_hello(sim: Path) -> None:
    elf = simfw.build_fw("hello-mps2-an386", ["hello.c"])
    _check(lockstep.run(elf, limit=10_000), 200)


def test_lockstep_workload_prefix(sim: Path) -> None:
    elf = simfw.build_fw("workload-mps2-an386", ["workload.c"])
    _check(lockstep.run(elf, limit=2500, fp=True), 2500)


@pytest.mark.parametrize("machine", ["mps2-an386", "mps2-an500"])
def test_lockstep_random_stream(sim: Path, tmp_path: Path, machine: str) -> None:
    elf, used = gen_stream.build(7, tmp_path, fp=True, machine=machine, blocks=4, per_block=30)
    assert len(used) > 40
    _check(lockstep.run(elf, machine=machine, limit=20_000, fp=True), 2000)


def _seeds() -> int:
    return int(os.environ.get("PQLAB_SIM_LOCKSTEP_SEEDS", "40"))


@pytest.mark.slow
@pytest.mark.parametrize("machine", ["mps2-an386", "mps2-an500"])
def test_lockstep_campaign(sim: Path, tmp_path: Path, machine: str) -> None:
    """Many random streams: every template (encoding family) with random operands."""
    used_all: set[str] = set()
    steps = 0
    for seed in range(1000, 1000 + _seeds()):
        elf, used = gen_stream.build(seed, tmp_path, fp=True, machine=machine)
        used_all |= used
        res = lockstep.run(elf, machine=machine, limit=50_000, fp=True)
        assert res.mismatch is None, f"seed {seed}: {res.mismatch}"
        steps += res.steps
    print(f"\n{machine}: {steps} instructions in lockstep, {len(used_all)} instruction forms")
    # 40 seeds reach about 260 forms on the M4 and 330 on the M7 (FP64, FPv5)
    assert len(used_all) > 200


@pytest.mark.slow
@pytest.mark.parametrize("machine,cpu", [("mps2-an386", simfw.M4), ("mps2-an500", simfw.M7)])
def test_lockstep_whole_workload(sim: Path, machine: str, cpu: str) -> None:
    elf = simfw.build_fw(f"workload-{machine}", ["workload.c"], cpu)
    res = lockstep.run(elf, machine=machine, limit=400_000, fp=True, fp_every=1000)
    assert res.mismatch is None, res.mismatch
    assert res.steps > 300_000


def test_lockstep_from_an_address(sim: Path) -> None:
    """--trace-start-pc: both run to the first call of pqlab_mark_begin, QEMU takes the
    simulator's registers there, then 300 instructions are compared; an address that
    is never executed is reported."""
    elf = simfw.build_fw("marks-mps2-an386", ["marks.c"])
    start = lockstep.func_ranges(elf, ["pqlab_mark_begin"])[0][0]
    res = lockstep.run(elf, limit=300, start_pc=start)
    _check(res, 300)
    assert res.steps == 300
    never = lockstep.func_ranges(elf, ["default_handler"])[0][0]
    assert "never reached" in (lockstep.run(elf, limit=10, start_pc=never).mismatch or "")
