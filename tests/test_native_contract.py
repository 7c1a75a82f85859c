"""The backend contract (lib/native/api.h). Its debug build (-DPQLAB_CONTRACT_CHECKS): a kernel
call that breaks its input bound stops the program with the kernel's name, the same call within
bounds passes, and the ML-KEM / ML-DSA scheme tests pass with every check on (pqlab test
--contract-checks) on the host and on m4-sim (the armv7em backend selected). Its run-time
decline: PQLAB_NATIVE_TRY runs the C after a declined call."""

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
    mlkem_tobytes12(out, &a); /* |c| < 2q (its contract, kernels_contract.h): passes */
    pqlab_hal_send("in bounds ok\n", 13);
    a.c[BAD] = BADVAL;
    mlkem_tobytes12(out, &a); /* outside |c| < 2q: the debug build stops here */
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


@pytest.mark.parametrize("bad,val", [(0, 6658), (255, -6658), (100, 32767)])  # 2q, -2q, int16 max
def test_contract_violation_stops(tmp_path: Path, bad: int, val: int) -> None:
    out = run_program(tmp_path, bad, val, True)
    assert out == "in bounds ok\ncontract: mlkem_tobytes12: input |c| < 2q\n"


def test_without_checks_nothing_is_checked(tmp_path: Path) -> None:
    assert run_program(tmp_path, 0, 6658, False) == "in bounds ok\nnot stopped\n"


DECLINE = r"""
#include <stdio.h>
#include "pqlab_hal.h"
#include "../native/api.h"

static int native_calls, c_calls;
/* a kernel that handles even lengths only and declines the others */
static int sum_native(int *out, const int *v, int n)
{
    native_calls++;
    if (n % 2 != 0) {
        return PQLAB_NATIVE_DECLINED;
    }
    int s = 0;
    for (int i = 0; i < n; i += 2) {
        s += v[i] + v[i + 1];
    }
    *out = s;
    return PQLAB_NATIVE_DONE;
}
static void sum_c(int *out, const int *v, int n)
{
    c_calls++;
    int s = 0;
    for (int i = 0; i < n; i++) {
        s += v[i];
    }
    *out = s;
}
static void sum(int *out, const int *v, int n)
{
    PQLAB_NATIVE_TRY(sum_native(out, v, n), sum_c(out, v, n));
}

int main(void)
{
    const int v[5] = {1, 2, 3, 4, 5};
    int a = 0, b = 0;
    char line[64];
    pqlab_hal_setup();
    sum(&a, v, 4);
    sum(&b, v, 5);
    int k = snprintf(line, sizeof line, "%d %d %d %d\n", a, b, native_calls, c_calls);
    pqlab_hal_send(line, (size_t)k);
    pqlab_hal_exit(0);
}
"""


def test_declined_call_runs_the_c(tmp_path: Path) -> None:
    """PQLAB_NATIVE_TRY: the even length is done by the 'native' kernel, the odd one declined
    and done by the C fallback (both sums right, two native attempts, one C call)."""
    src = tmp_path / "decline.c"
    src.write_text(DECLINE)
    out = firmware.build_and_run("host", tmp_path, [src], include=[ROOT / "lib" / "common"])
    assert out == "10 15 2 1\n"


@pytest.mark.parametrize("platform", ["host", "m4-sim"])
def test_schemes_pass_with_contract_checks(platform: str) -> None:
    schemes = ["ml-kem-512", "ml-kem-768", "ml-kem-1024", "ml-dsa-44"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "pqlab", "test", *schemes, "-p", platform, "--contract-checks", "-j", "1", "--json"]
    res = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT, timeout=1800, check=False)
    assert res.returncode == 0, res.stdout + res.stderr
    rows = json.loads(res.stdout)
    assert len(rows) >= len(schemes) and all(r["ok"] and r["checks"] > 0 for r in rows), rows
