"""Every scheme family on the accelerated CV32E40P (docs/accel.md, issue 19: "all tests and KATs
pass on the accelerated platforms", "the model within 1% of the RTL").

`pqlab test` / `pqlab kat` with `--db` store each run's verdict, its count of checks or records
and the whole run's cycles as the runner counted them (pqlab-sim's report, the Verilator test
bench's --stats). In the default suite: that record on cv32e40p-acc-sim. With -m slow: one
parameter set per family on cv32e40p-acc-rtl (exact) and on the model, the same program on both:
`test` or `kat` where a whole run fits a slow test (the cycles of the two then differ by the test
bench's start-up only), `bench --ops verify` (signatures prepared on the model, verified on the
RTL: the speed program checks every verification) where a whole test program is hundreds of
millions of RTL cycles (FN-DSA and Hawk key generation, SLH-DSA signing)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from cli_runner import pqlab

SIM, RTL = "cv32e40p-acc-sim", "cv32e40p-acc-rtl"
# cv32e40p-acc-rtl counts the clocks from reset release to the exit device's write; the model
# counts from the first instruction to the exit: the RTL's whole-run count is this much larger
# (the fetch pipeline's fill after reset; equal in every run of docs/accel.md's h94 section)
TB_START_CYCLES = 6


def stored(db: Path, program: str) -> dict[tuple[str, str], dict[str, float]]:
    """(scheme, platform) -> {operation: value} of the newest stored run of `program`."""
    con = sqlite3.connect(db)
    try:
        rows = con.execute(
            "SELECT r.id, r.scheme, r.platform, m.operation, m.value FROM runs r JOIN measurements m "
            "ON m.run_id = r.id WHERE r.program = ? ORDER BY r.id",
            (program,),
        ).fetchall()
    finally:
        con.close()
    out: dict[tuple[str, str], dict[str, float]] = {}
    newest: dict[tuple[str, str], int] = {}
    for rid, scheme, plat, op, value in rows:
        key = (scheme, plat)
        if newest.get(key) != rid:
            newest[key], out[key] = rid, {}
        out[key][op] = value
    return out


def test_test_and_kat_runs_stored_with_cycles(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    code, out = pqlab("test", "ml-kem-512", "-i", "ref", "-p", SIM, "-j", "1", "--db", db)
    assert code == 0, out
    code, out = pqlab("kat", "ml-kem-512", "-i", "ref", "-p", SIM, "-j", "1", "--count", "1", "--db", db)
    assert code == 0, out
    t = stored(db, "test")[("ml-kem-512", SIM)]
    assert t["ok"] == 1 and t["checks"] == 14, t
    assert t["cycles"] > 1_000_000 and t["wall s"] > 0 and t["cpu s"] >= 0, t
    k = stored(db, "kat")[("ml-kem-512", SIM)]
    assert k["ok"] == 1 and k["records"] == 1 and k["cycles"] > 100_000, k
    # one record is part of what the test program does
    assert k["cycles"] < t["cycles"]
    code, out = pqlab("report", "--db", db)
    assert code == 0, out
    table = out.split("### Functional runs")[1]
    assert f"| ml-kem-512 | ref | test | pass | 14 | {int(t['cycles']):,} |" in table, table
    assert f"| ml-kem-512 | ref | kat | pass | 1 | {int(k['cycles']):,} |" in table, table


# one set per family; whole runs (test / kat) compared cycle for cycle
WHOLE = [("ml-kem-512", "test", ()), ("ml-dsa-44", "kat", ("--count", "1"))]
# the SHAKE / SHA-3 users whose whole test is too long for a slow test: one operation on the RTL
OPS = [("fn-dsa-512", "verify"), ("slh-dsa-shake-128f", "verify"), ("hawk-512", "verify"), ("hqc-128", "encaps")]


@pytest.mark.slow
@pytest.mark.parametrize(("scheme", "program", "args"), WHOLE, ids=[s for s, _, _ in WHOLE])
def test_whole_runs_on_the_rtl_equal_the_model(tmp_path: Path, scheme: str, program: str, args: tuple) -> None:
    db = tmp_path / "r.db"
    code, out = pqlab(program, scheme, "-i", "ref", "-p", SIM, "-p", RTL, "-j", "1", "--db", db, *args)
    assert code == 0, out
    runs = stored(db, program)
    sim, rtl = runs[(scheme, SIM)], runs[(scheme, RTL)]
    assert sim["ok"] == rtl["ok"] == 1, runs
    assert rtl["cycles"] - sim["cycles"] == TB_START_CYCLES, (rtl["cycles"], sim["cycles"])


@pytest.mark.slow
@pytest.mark.parametrize(("scheme", "op"), OPS, ids=[s for s, _ in OPS])
def test_one_operation_on_the_rtl(tmp_path: Path, scheme: str, op: str) -> None:
    db = tmp_path / "r.db"
    code, out = pqlab("bench", scheme, "-i", "ref", "-p", RTL, "-n", "1", "--ops", op, "-j", "1", "--db", db)
    assert code == 0, out
    con = sqlite3.connect(db)
    try:
        (cycles,) = con.execute(
            "SELECT m.value FROM runs r JOIN measurements m ON m.run_id = r.id "
            "WHERE r.platform = ? AND m.metric = 'speed' AND m.operation = ?",
            (RTL, op),
        ).fetchone()
    finally:
        con.close()
    assert cycles > 0
