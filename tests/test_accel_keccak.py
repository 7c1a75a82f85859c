# SPDX-License-Identifier: MIT
"""The Keccak-f[1600] unit (hw/accel/keccak/keccak_f1600.sv, docs/accel.md) against the software
model tests/keccak_model.py (itself checked against hashlib's SHA3-256): random states, the
all-zero state and FIPS 202's zero-state output, and the cycle count (24, one round per cycle).
The unit's test bench is built with `verilator --binary` (about 10 s) into a temporary folder."""

from __future__ import annotations

import hashlib
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from tests import keccak_model as km

HW = Path(__file__).resolve().parent.parent / "hw" / "accel" / "keccak"


def test_model_against_hashlib() -> None:
    for msg in (b"", b"abc", bytes(range(256)) * 3):
        assert km.sha3_256(msg) == hashlib.sha3_256(msg).digest()
    # a wrong model must fail this check (a control for the check itself)
    assert km.sha3_256(b"abc") != hashlib.sha3_256(b"abd").digest()


def _pack(lanes: list[int]) -> int:
    return sum(v << (64 * i) for i, v in enumerate(lanes))


def _unpack(v: int) -> list[int]:
    return [(v >> (64 * i)) & km.MASK for i in range(25)]


@pytest.fixture(scope="module")
def unit_tb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("verilator") is None:
        pytest.skip("verilator is not installed (apt-get install verilator)")
    d = tmp_path_factory.mktemp("keccak_tb")
    cmd = [
        "verilator", "--binary", "-j", "1", "--top-module", "tb_keccak", "-Mdir", str(d / "obj"),
        "-o", str(d / "tbk"), str(HW / "keccak_f1600.sv"), str(HW / "tb_keccak.sv"),
    ]  # fmt: skip
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    return d / "tbk"


def test_unit_against_model(unit_tb: Path, tmp_path: Path) -> None:
    rng = random.Random(19)
    states = [[0] * 25, [km.MASK] * 25] + [[rng.getrandbits(64) for _ in range(25)] for _ in range(8)]
    (tmp_path / "in.hex").write_text("".join(f"{_pack(s):0400x}\n" for s in states))
    r = subprocess.run(
        [str(unit_tb), f"+in={tmp_path / 'in.hex'}", f"+out={tmp_path / 'out.hex'}"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    lines = (tmp_path / "out.hex").read_text().split()
    assert len(lines) == 2 * len(states)
    for k, s in enumerate(states):
        cycles, out = int(lines[2 * k]), _unpack(int(lines[2 * k + 1], 16))
        assert cycles == 24, f"state {k}: {cycles} cycles"
        assert out == km.keccak_f1600(s), f"state {k} differs from the model"
    # FIPS 202 Keccak-f[1600] of the zero state, first lane (the XKCP/FIPS 202 example value)
    assert _unpack(int(lines[1], 16))[0] == 0xF1258F7940E1DDE7
