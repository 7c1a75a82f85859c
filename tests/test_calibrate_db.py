"""`pqlab calibrate --from-db`: board runs against simulator runs of the same build, from the
results database (synthetic runs stored through the results store)."""

from __future__ import annotations

import json
import sqlite3

from cli_runner import pqlab, pqlab_stdout

from pqlab.results import Context, Store

BASE = "-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 -O3"


def ctx(platform: str, runner: str, timer: str, unit: str, cflags: str, model: str = "", version: str = "12.2.1"):
    return Context(
        scheme="ml-kem-768", implementation="ref", impl_dir="/x/lib/mlkem", platform=platform, core="cortex-m4",
        clock_hz=20_000_000, compiler="arm-none-eabi-gcc", compiler_version=version, cflags=cflags, iterations=3,
        timer=timer, unit=unit, runner=runner, command="", model=model, program="speed",
    )  # fmt: skip


def store(db, runs):
    s = Store(db)
    for c, values in runs:
        s.add_run(c, [("speed", op, v) for op, vs in values.items() for v in vs])
    s.close()
    with sqlite3.connect(db) as c:  # as if both were benched from a clean checkout
        c.execute("UPDATE runs SET dirty = 0, pqlab_commit = 'abc'")


def test_error_per_operation(tmp_path):
    db = tmp_path / "r.db"
    store(
        db,
        [
            (
                ctx(
                    "nucleo-l4r5zi", "serial", "dwt", "cycles", BASE + " -DPQLAB_HAL_SERIAL -DPQLAB_DRIVER_MAXARG=8192"
                ),
                {"keypair": [1000, 1010, 990], "encaps": [2000, 2000, 2000]},
            ),
            (
                ctx("m4-sim", "pqlab-sim", "dwt", "cycles", BASE, model="m4 v7"),
                {"keypair": [1100] * 3, "encaps": [1900] * 3},
            ),
            # QEMU over the serial protocol counts instructions: not a board
            (ctx("mps2-an386-uart", "serial", "systick-icount", "instructions", BASE), {"keypair": [5] * 3}),
        ],
    )
    code, out = pqlab_stdout("calibrate", "--from-db", "--db", db, "--json")
    assert code == 0, out
    res = json.loads(out)
    got = {(r["operation"], r["board"], r["simulator"]): r for r in res["rows"]}
    assert set(got) == {("keypair", "nucleo-l4r5zi", "m4-sim"), ("encaps", "nucleo-l4r5zi", "m4-sim")}
    assert got[("keypair", "nucleo-l4r5zi", "m4-sim")]["error_pct"] == 10.0
    assert got[("encaps", "nucleo-l4r5zi", "m4-sim")]["error_pct"] == -5.0
    assert all(r["board_kind"] == "measured" and r["sim_kind"] == "modelled" for r in res["rows"])
    assert res["summary"]["m4-sim"] == {"points": 2, "mae_pct": 7.5, "max_abs_pct": 10.0}
    code, out = pqlab("calibrate", "--from-db", "--db", db)
    assert "| ml-kem-768 | ref | keypair | nucleo-l4r5zi | 1,000 | m4-sim | 1,100 | +10.00 |" in out
    assert "board cycles (measured)" in out and "model cycles (modelled)" in out


def test_other_builds_are_not_compared(tmp_path):
    db = tmp_path / "r.db"
    store(
        db,
        [
            (ctx("nucleo-l4r5zi", "serial", "dwt", "cycles", BASE + " -DPQLAB_HAL_SERIAL"), {"keypair": [1000]}),
            (ctx("m4-sim", "pqlab-sim", "dwt", "cycles", BASE.replace("-O3", "-O2"), model="m4"), {"keypair": [1]}),
            (ctx("m4-sim-2", "pqlab-sim", "dwt", "cycles", BASE, model="m4", version="13.2.1"), {"keypair": [2]}),
        ],
    )
    code, out = pqlab("calibrate", "--from-db", "--db", db)
    assert code == 0, out
    assert "not compared: ml-kem-768 ref on nucleo-l4r5zi: no simulator run of the same build" in out
    assert "| keypair |" not in out


def test_no_board_runs_is_an_error(tmp_path):
    db = tmp_path / "r.db"
    store(db, [(ctx("m4-sim", "pqlab-sim", "dwt", "cycles", BASE, model="m4"), {"keypair": [1]})])
    code, out = pqlab("calibrate", "--from-db", "--db", db)
    assert code == 2 and "no board runs" in out
