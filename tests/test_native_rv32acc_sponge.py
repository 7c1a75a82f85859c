"""The SHA-3 / SHAKE sponge of lib/common/fips202.c with the rv32acc backend
(lib/native/rv32acc/keccak_acc.c: the custom Keccak instructions of the patched CV32E40P,
the permutation and the whole-block absorb / squeeze hooks PQLAB_KECCAK_BLOCKS_NATIVE;
docs/accel.md) against hashlib: every length around the block boundaries, incremental
absorb and squeeze, unaligned input and output, x4. The firmware and its checks are the
ARMv7-M sponge test's (test_native_armv7em_sponge.py); the build is the platform's own with
its backends. cv32e40p-acc-sim in the default suite, the RTL with -m slow."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from pqlab.build import build_program
from pqlab.platforms import get_platform
from pqlab.runner import command as runner_command
from tests.test_native_armv7em_sponge import FIRMWARE, LENGTHS, check_lines

ROOT = Path(__file__).resolve().parent.parent


def run(platform: str, tmp: Path) -> list[str]:
    src = tmp / "fw.c"
    src.write_text(FIRMWARE.replace("@LENGTHS@", ", ".join(map(str, LENGTHS))))
    elf = build_program(
        get_platform(platform),
        tmp / "build",
        [src, ROOT / "lib/common/fips202.c", ROOT / "lib/common/fips202x4.c"],
        backend=True,
    )
    syms = subprocess.run(["riscv64-unknown-elf-nm", str(elf)], capture_output=True, text=True).stdout
    # the sponge does call the backend's block loops and its permutation
    for f in ("pqlab_keccak_native_absorbblocks", "pqlab_keccak_native_squeeze", "pqlab_keccakf1600_acc"):
        assert f in syms, f
    # the platform's own run limit (cv32e40p-acc-rtl: 3,600 s; h102: over 600 s on the loaded machine)
    plat = get_platform(platform)
    r = subprocess.run(runner_command(plat, Path(elf)), capture_output=True, text=True, timeout=plat.timeout_s)
    assert r.returncode == 0, r.stdout[-500:] + r.stderr
    lines = r.stdout.replace("\r", "").splitlines()
    lines = [ln for ln in lines if ln and not ln.startswith(("#", "tb-"))]
    assert lines and lines[-1] == "end", r.stdout[-500:]
    return lines[:-1]


def test_sponge_on_the_model(tmp_path: Path) -> None:
    checked, block = check_lines(run("cv32e40p-acc-sim", tmp_path), "cv32e40p-acc-sim")
    print(f"\ncv32e40p-acc-sim: {checked} outputs agree; one SHAKE128 squeezeblocks call of 1 block: {block} cycles")


@pytest.mark.slow
def test_sponge_on_the_rtl(tmp_path: Path) -> None:
    check_lines(run("cv32e40p-acc-rtl", tmp_path), "cv32e40p-acc-rtl")
