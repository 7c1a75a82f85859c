"""The backend contract's debug build (lib/native/api.h, -DPQLAB_CONTRACT_CHECKS): a kernel call
that breaks its input bound stops the program with the kernel's name, the same call within
bounds passes, and the ML-KEM / ML-DSA scheme tests pass with every check on (pqlab test
--contract-checks), natively checked kernels included on m4-sim."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import firmware
import pytest

ROOT = Path(__file__).resolve().parent.parent

PROGRAM = r"""
#include <stdio.h>
#include <string.h>
#include "pqlab_hal.h"
#include "kernels.h"

int main(void)
{
    mlkem_poly a;
    uint8_t out[MLKEM_POLYBYTES];
    pqlab_hal_setup();
    for (unsigned int i = 0; i < MLKEM_N; i++) {
        a.c[i] = (int16_t)(i * 13 % MLKEM_Q);
    }
    mlkem_tobytes12(out, &a); /* canonical: passes */
    pqlab_hal_send("in bounds ok\n", 13);
    a.c[BAD] = BADVAL;
    mlkem_tobytes12(out, &a); /* not canonical: the debug build stops here */
    pqlab_hal_send("not stopped\n", 12);
    pqlab_hal_exit(0);
}
"""


def run_program(tmp: Path, bad: int, val: int, checks: bool) -> str:
    src = tmp / "prog.c"
    src.write_text(PROGRAM.replace("BADVAL", str(val)).replace("BAD", str(bad)))
    flags = ["-DPQLAB_MLKEM_K=3", "-DPQLAB_NS=pqlab_ctest_"] + (["-DPQLAB_CONTRACT_CHECKS"] if checks else [])
    return firmware.build_and_run(
        "host",
        tmp,
        [src, ROOT / "lib/mlkem/poly.c", ROOT / "lib/common/contract.c"],
        include=[ROOT / "lib/mlkem"],
        cflags=flags,
        exit_code=3 if checks else 0,
    )


@pytest.mark.parametrize("bad,val", [(0, 3329), (255, -1), (100, 32767)])
def test_contract_violation_stops(tmp_path: Path, bad: int, val: int) -> None:
    out = run_program(tmp_path, bad, val, True)
    assert out == "in bounds ok\ncontract: mlkem_tobytes12: input canonical\n"


def test_without_checks_nothing_is_checked(tmp_path: Path) -> None:
    assert run_program(tmp_path, 0, 3329, False) == "in bounds ok\nnot stopped\n"


@pytest.mark.parametrize("platform", ["host", "m4-sim"])
def test_schemes_pass_with_contract_checks(platform: str) -> None:
    schemes = ["ml-kem-512", "ml-kem-768", "ml-kem-1024", "ml-dsa-44"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "pqlab", "test", *schemes, "-p", platform, "--contract-checks", "-j", "1", "--json"]
    res = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT, timeout=1800, check=False)
    assert res.returncode == 0, res.stdout + res.stderr
    rows = json.loads(res.stdout)
    assert len(rows) >= len(schemes) and all(r["ok"] and r["checks"] > 0 for r in rows), rows
