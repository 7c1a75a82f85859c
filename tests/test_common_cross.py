"""lib/common and lib/compat compile warning-free (-Wall -Wextra -Werror, C11) with
every target compiler pqlab uses: host gcc, arm-none-eabi (Cortex-M4 and M7),
riscv64-unknown-elf for rv32imc, aarch64-linux-gnu; with and without hash profiling."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from hostlib import ROOT

TARGETS = {
    "host": (["cc"], "gcc"),
    "cortex-m4": (
        ["arm-none-eabi-gcc", "-mcpu=cortex-m4", "-mthumb", "-mfloat-abi=hard", "-mfpu=fpv4-sp-d16"],
        "gcc-arm-none-eabi",
    ),
    "cortex-m7": (
        ["arm-none-eabi-gcc", "-mcpu=cortex-m7", "-mthumb", "-mfloat-abi=hard", "-mfpu=fpv5-d16"],
        "gcc-arm-none-eabi",
    ),
    "rv32imc": (
        ["riscv64-unknown-elf-gcc", "--specs=picolibc.specs", "-misa-spec=2.2", "-march=rv32imc", "-mabi=ilp32"],
        "gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf",
    ),
    "aarch64": (["aarch64-linux-gnu-gcc"], "gcc-aarch64-linux-gnu"),
}
FLAGS = ["-std=c11", "-Wall", "-Wextra", "-Werror", "-Wshadow", "-O2", "-c"]


@pytest.mark.parametrize("target", list(TARGETS))
@pytest.mark.parametrize("layer", ["common", "compat"])
def test_compiles_clean(target: str, layer: str, tmp_path: Path) -> None:
    cc, package = TARGETS[target]
    assert shutil.which(cc[0]), f"{cc[0]} not found: apt-get install {package}"
    sources = sorted((ROOT / "lib" / layer).glob("*.c"))
    assert sources
    for prof in ([], ["-DPQLAB_PROFILE_HASHING"]):
        # one compiler run for all sources; objects land in tmp_path
        cmd = [*cc, *FLAGS, *prof, f"-I{ROOT / 'lib' / 'common'}", *map(str, sources)]
        res = subprocess.run(cmd, capture_output=True, check=False, text=True, cwd=tmp_path)
        assert res.returncode == 0, f"{' '.join(cmd)}\n{res.stderr}"
        assert len(list(tmp_path.glob("*.o"))) == len(sources)
