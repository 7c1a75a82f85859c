"""Constant-time test of ML-KEM with valgrind memcheck: tests/mlkem/ct_valgrind.c, built with
-DPQLAB_CT_VALGRIND, marks d, z, m and the decapsulation key secret (PQLAB_SECRET) and runs
key generation, encapsulation, decapsulation and a rejected decapsulation. Any memcheck
report (secret-dependent branch, memory index, or syscall argument) fails the test, at -O2
and -O3 for all three parameter sets. A negative control with one deliberate secret branch
proves that the marks reach memcheck."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "mlkem"))
from support import PARAMS, ROOT

SOURCES = sorted(str(p) for p in (ROOT / "lib" / "mlkem").glob("*.c")) + [
    str(ROOT / "lib/common/fips202.c"),
    str(ROOT / "lib/common/fips202x4.c"),
    str(ROOT / "tests/mlkem/ct_valgrind.c"),
]


def build_and_run(tmp_path: Path, k: int, opt: str, extra: list[str]) -> subprocess.CompletedProcess:
    assert shutil.which("valgrind"), "valgrind is required (apt-get install valgrind)"
    exe = tmp_path / f"ct_k{k}{opt}{'_neg' if extra else ''}"
    cmd = [
        "cc",
        "-std=c11",
        opt,
        "-g",
        "-Wall",
        "-Wextra",
        "-Werror",
        "-DPQLAB_CT_VALGRIND",
        f"-DPQLAB_MLKEM_K={k}",
        "-DPQLAB_NS=pqlab_mlkem_ct_",
        *extra,
        f"-I{ROOT / 'lib/common'}",
        f"-I{ROOT / 'lib/mlkem'}",
        *SOURCES,
        "-o",
        str(exe),
    ]
    res = subprocess.run(cmd, capture_output=True, text=True, check=False)
    assert res.returncode == 0, res.stderr
    return subprocess.run(
        ["valgrind", "--error-exitcode=99", "--track-origins=yes", str(exe)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.mark.parametrize("opt", ["-O2", "-O3"])
@pytest.mark.parametrize("name", list(PARAMS))
def test_valgrind_constant_time(name: str, opt: str, tmp_path: Path) -> None:
    res = build_and_run(tmp_path, PARAMS[name].k, opt, [])
    assert res.returncode == 0 and res.stdout.strip() == "ok", res.stdout + res.stderr
    assert "ERROR SUMMARY: 0 errors" in res.stderr, res.stderr


def test_valgrind_negative_control(tmp_path: Path) -> None:
    res = build_and_run(tmp_path, 3, "-O2", ["-DPQLAB_CT_NEGATIVE_CONTROL"])
    assert res.returncode == 99, res.stdout + res.stderr
    assert "Conditional jump or move depends on uninitialised value" in res.stderr
