# SPDX-License-Identifier: MIT
"""Build helpers for the pqlab-sim tests: the simulator binary and the test firmware."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent
SIM_DIR = HERE.parent
FW = HERE / "fw"
BUILD = FW / "build"
SIM_BIN = SIM_DIR / "target" / "release" / "pqlab-sim"

M4 = ["-mcpu=cortex-m4", "-mfpu=fpv4-sp-d16"]
M7 = ["-mcpu=cortex-m7", "-mfpu=fpv5-d16"]
CFLAGS = [
    "-mthumb",
    "-mfloat-abi=hard",
    "-O3",
    "-fno-math-errno",
    "-ffreestanding",
    "-nostdlib",
    "-Wall",
    "-Wextra",
    "-Werror",
    "-std=c11",
    "-g",
]


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


def build_fw(name: str, sources: list[str], cpu: list[str] = M4, defines: list[str] = ()) -> Path:
    BUILD.mkdir(parents=True, exist_ok=True)
    out = BUILD / f"{name}.elf"
    srcs = [FW / "start.c"] + [FW / s for s in sources]
    deps = srcs + [FW / "fw.h", FW / "link.ld"]
    if out.exists() and all(out.stat().st_mtime >= d.stat().st_mtime for d in deps):
        return out
    subprocess.run(
        [
            "arm-none-eabi-gcc",
            *cpu,
            *CFLAGS,
            *defines,
            "-I",
            str(FW),
            "-T",
            str(FW / "link.ld"),
            *map(str, srcs),
            "-lgcc",
            "-o",
            str(out),
        ],
        check=True,
    )
    return out


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
