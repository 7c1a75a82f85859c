"""Constant-time test of ML-DSA with valgrind memcheck: lib/mldsa/testing/ct_valgrind.c, built with
-DPQLAB_CT_VALGRIND for each parameter set, marks xi, the secret key and rnd as secret
(PQLAB_SECRET -> undefined memory). Any memcheck report (a branch, an address or a
definedness-propagating check on secret data that the library did not declassify on purpose)
fails the test. Built at -O2 and -O3 -funroll-loops (compilers turn masks into branches at some
levels)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_mldsa_support import COMMON_SOURCES, MLDSA_SOURCES, MODES, ROOT

OPTS = (["-O2"], ["-O3", "-funroll-loops"])


def build(mode: int, opt: list[str], tmp_path: Path, extra: tuple[str, ...] = ()) -> Path:
    if shutil.which("valgrind") is None:
        pytest.fail("valgrind not installed (apt-get install valgrind)")
    exe = tmp_path / f"ct{mode}"
    srcs = [ROOT / s for s in MLDSA_SOURCES + COMMON_SOURCES if "aes" not in s and "drbg" not in s]
    cmd = [
        "gcc",
        *opt,
        "-g",
        "-std=c11",
        "-Wall",
        "-Wextra",
        "-Werror",
        "-DPQLAB_CT_VALGRIND",
        *extra,
        f"-DPQLAB_MLDSA_MODE={mode}",
        f"-DPQLAB_NS=pqlab_mldsa{mode}_ref_",
        f"-I{ROOT / 'lib/common'}",
        f"-I{ROOT / 'lib/mldsa'}",
        *map(str, srcs),
        str(ROOT / "lib/mldsa/testing/ct_valgrind.c"),
        "-o",
        str(exe),
    ]
    r = subprocess.run(cmd, capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
    return exe


def valgrind(exe: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["valgrind", "-q", "--error-exitcode=99", "--track-origins=yes", str(exe)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@pytest.mark.parametrize("opt", OPTS, ids=lambda o: "".join(o))
@pytest.mark.parametrize("mode", MODES)
def test_valgrind_constant_time(mode: int, opt: list[str], tmp_path: Path) -> None:
    v = valgrind(build(mode, opt, tmp_path))
    assert v.returncode == 0, f"valgrind reports:\n{v.stderr[-6000:]}"
    assert v.stderr.strip() == "", v.stderr[-6000:]
    assert f"ct-test ML-DSA-{mode} 0" in v.stdout


def test_negative_control_detects_a_secret_branch(tmp_path: Path) -> None:
    """the marks work: a deliberate branch on a secret-key byte is reported"""
    v = valgrind(build(44, ["-O2"], tmp_path, ("-DPQLAB_CT_SELFTEST_LEAK",)))
    assert v.returncode == 99 and "Conditional jump or move depends on uninitialised value" in v.stderr
