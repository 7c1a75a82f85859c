"""lib/common and lib/compat compile warning-free (-Wall -Wextra -Werror, C11) with
every target compiler pqlab uses: host gcc, arm-none-eabi (Cortex-M4 and M7),
riscv64-unknown-elf for rv32imc, aarch64-linux-gnu; with and without hash profiling; built
by pqlab's own build with each platform's flags and backends."""

from __future__ import annotations

from pathlib import Path

import firmware
import pytest
from hostlib import ROOT

# one platform per compiler and code-generation setting (Cortex-M4, Cortex-M7, rv32imc,
# aarch64, host); each with its flags from platform.toml and its native backends' defines
PLATFORMS = ["host", "mps2-an386", "mps2-an500", "rv32-qemu", "aarch64-qemu"]


@pytest.mark.parametrize("platform", PLATFORMS)
@pytest.mark.parametrize("layer", ["common", "compat"])
def test_compiles_clean(platform: str, layer: str, tmp_path: Path) -> None:
    sources = sorted((ROOT / "lib" / layer).glob("*.c"))
    assert sources
    for prof in ([], ["-DPQLAB_PROFILE_HASHING"]):
        objs = firmware.build(
            platform, tmp_path / f"p{len(prof)}", sources, cflags=["-Wshadow", *prof], kind="objects", backend=True
        )
        assert len(objs) >= len(sources)
