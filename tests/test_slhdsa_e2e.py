"""`pqlab acvp` end to end for SLH-DSA: the driver program (harness/driver_slhdsa.c) built
by pqlab and run on host with every case of the official keyGen and sigVer files and a
synthetic sigGen/sigVer pair (see test_slhdsa_plugin.py), and on mps2-an386 (QEMU) with a
sample of each; the whole files on QEMU are marked slow."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from extdata import vectors
from test_slhdsa_lib import ACVP_NAMES, ROOT
from test_slhdsa_plugin import KEYGEN, SIGVER, synthetic_siggen, synthetic_sigver


def pqlab_acvp(tmp: Path, prompt: dict, expected: dict, platform: str) -> subprocess.CompletedProcess:
    p, e, o = tmp / "prompt.json", tmp / "expected.json", tmp / "response.json"
    p.write_text(json.dumps(prompt))
    e.write_text(json.dumps(expected))
    return subprocess.run(
        [sys.executable, "-m", "pqlab", "acvp", str(p), "-p", platform, "--expected", str(e), "-o", str(o)],
        check=False,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1800,
    )


def sample(data: dict, psets: set[str] | None, per_group: int) -> dict:
    out = dict(data)
    out["testGroups"] = [
        dict(g, tests=g["tests"][:per_group]) for g in data["testGroups"] if psets is None or g["parameterSet"] in psets
    ]
    return out


def _check(res: subprocess.CompletedProcess, answered: int) -> None:
    assert res.returncode == 0, res.stdout + res.stderr
    assert f"{answered} test cases answered" in res.stdout + res.stderr, res.stdout + res.stderr
    assert "0 mismatches" in res.stdout + res.stderr


def test_pqlab_acvp_host(tmp_path: Path) -> None:
    kg = json.loads(vectors(KEYGEN).read_text())
    _check(pqlab_acvp(tmp_path, kg, kg, "host"), 120)
    sv = json.loads(vectors(SIGVER).read_text())
    _check(pqlab_acvp(tmp_path, sv, sv, "host"), 45)


def test_pqlab_acvp_host_synthetic(tmp_path: Path) -> None:
    """sigGen and sigVer files generated from the independent slh-dsa package (no external vectors)."""
    prompt, expected = synthetic_siggen(["SLH-DSA-SHAKE-128f", "SLH-DSA-SHA2-192f"], per_group=1, seed=1)
    _check(pqlab_acvp(tmp_path, prompt, expected, "host"), 12)
    vp, ve = synthetic_sigver(prompt, expected)
    _check(pqlab_acvp(tmp_path, vp, ve, "host"), sum(len(g["tests"]) for g in vp["testGroups"]))


def test_pqlab_acvp_mps2_sample(tmp_path: Path) -> None:
    """QEMU Cortex-M4: keyGen for the f sets (2 each), 3 cases of each sigVer group."""
    fsets = {p for p in ACVP_NAMES if p.endswith("f")}
    kg = sample(json.loads(vectors(KEYGEN).read_text()), fsets, 2)
    _check(pqlab_acvp(tmp_path, kg, kg, "mps2-an386"), 12)
    sv = sample(json.loads(vectors(SIGVER).read_text()), None, 3)
    _check(pqlab_acvp(tmp_path, sv, sv, "mps2-an386"), 15)


def test_pqlab_acvp_mps2_synthetic(tmp_path: Path) -> None:
    """QEMU Cortex-M4: synthetic sigGen of SHAKE-128f, the hedged kinds (no external vectors)."""
    prompt, expected = synthetic_siggen(["SLH-DSA-SHAKE-128f"], per_group=1, seed=2)
    prompt["testGroups"] = prompt["testGroups"][1::2]  # hedged kinds: internal, pure, preHash
    expected["testGroups"] = expected["testGroups"][1::2]
    _check(pqlab_acvp(tmp_path, prompt, expected, "mps2-an386"), 3)


@pytest.mark.slow
def test_pqlab_acvp_mps2_full(tmp_path: Path) -> None:
    kg = json.loads(vectors(KEYGEN).read_text())
    _check(pqlab_acvp(tmp_path, kg, kg, "mps2-an386"), 120)
    sv = json.loads(vectors(SIGVER).read_text())
    _check(pqlab_acvp(tmp_path, sv, sv, "mps2-an386"), 45)
