# SPDX-License-Identifier: MIT
"""Build helpers for the pqlab-sim tests: the simulator binary and the test firmware."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from pqlab.build import build_program
from pqlab.platforms import get_platform

HERE = Path(__file__).resolve().parent
SIM_DIR = HERE.parent
FW = HERE / "fw"
BUILD = FW / "build"
SIM_BIN = SIM_DIR / "target" / "release" / "pqlab-sim"

# the platform whose compiler and code-generation flags build a firmware (Cortex-M4F or
# Cortex-M7 with FPv5-D16); the firmware brings its own start-up code and linker script
M4 = "mps2-an386"
M7 = "mps2-an500"
CFLAGS = ["-fno-math-errno", "-ffreestanding", "-nostdlib", "-g"]


def require_tools() -> None:
    missing = [t for t in ("cargo", "arm-none-eabi-gcc", "qemu-system-arm") if shutil.which(t) is None]
    if missing:
        raise RuntimeError(
            f"pqlab-sim tests need {', '.join(missing)} (packages: cargo, gcc-arm-none-eabi, qemu-system-arm)"
        )


def build_sim() -> Path:
    require_tools()
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=SIM_DIR, check=True)
    return SIM_BIN


def build_fw(name: str, sources: list[str], cpu: str = M4, defines: list[str] = ()) -> Path:
    """The test firmware FW/start.c + `sources`, built by pqlab's own build with the flags of
    the platform `cpu` (its -O3 unless `defines` says otherwise) and FW/link.ld."""
    srcs = [FW / "start.c"] + [FW / s for s in sources]
    ldflags = ["-T", str(FW / "link.ld"), "-lgcc"]
    elf = build_program(get_platform(cpu), BUILD / name, srcs, include=[FW], cflags=[*CFLAGS, *defines],
                        ldflags=ldflags, hal=False)  # fmt: skip
    assert isinstance(elf, Path)
    return elf


def run_sim(
    elf: Path, *args: str, machine: str = "mps2-an386", cwd: Path | None = None, timeout: float = 120
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(SIM_BIN), "--machine", machine, *args, str(elf)],
        capture_output=True,
        timeout=timeout,
        cwd=cwd,
        check=False,
    )


def run_qemu(
    elf: Path, machine: str = "mps2-an386", cwd: Path | None = None, timeout: float = 120
) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["qemu-system-arm", "-M", machine, "-nographic", "-semihosting", "-icount", "shift=0", "-kernel", str(elf)],
        capture_output=True,
        timeout=timeout,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        check=False,
    )


def parse_bench(out: str) -> dict[str, int]:
    """The figures of a micro-benchmark program's output ("name value" lines, then "#end ok"),
    shared by tests/test_sim_cv32e40p.py and tests/test_accel_keccak.py."""
    lines = out.splitlines()
    assert lines and lines[-1] == "#end ok", out
    return {k: int(v) for k, v in (ln.split() for ln in lines[:-1])}


def check_marks_intervals(iv: dict) -> None:
    """The interval checks shared by both instruction sets' marks firmware (sim/tests/fw/marks.c,
    rv32/guest.c): `iv` maps labels to the JSON report's intervals; a 1 KiB frame ("stack")
    and an interval ("inner", 200-odd instructions) nested in another ("outer")."""
    assert 1024 <= iv["stack"]["stack_high_water"] <= 1100
    assert iv["stack"]["instruction_mix"]["store"] >= 1024
    inner, outer = iv["inner"], iv["outer"]
    assert inner["depth"] == 1 and outer["depth"] == 0
    assert outer["start_cycle"] < inner["start_cycle"]
    assert inner["start_cycle"] + inner["cycles"] <= outer["start_cycle"] + outer["cycles"]
    assert 201 <= inner["instructions"] <= 206 and outer["instructions"] > inner["instructions"] + 6000
    assert outer["stack_high_water"] >= 1024
