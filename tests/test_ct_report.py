# SPDX-License-Identifier: MIT
"""`pqlab ct` stores each implementation's verdict (status, unaccepted and ledgered findings,
selects, instructions tracked, checker version) in the results database, and `pqlab report`
shows it per platform in Markdown and HTML (docs/ct.md, "Results database and report")."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from cli_runner import pqlab, pqlab_stdout

TOYS = Path(__file__).resolve().parent / "ct"


def _ct(db: Path, *extra: str) -> tuple[int, str]:
    return pqlab("ct", "toykem-memcmp", "--impl-path", TOYS, "-p", "m4-sim", "-j", "1", "--db", db, *extra)


def test_ct_results_stored_and_reported(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    code, out = _ct(db)
    assert code == 1, out  # leaky fails
    assert "2 ct result(s) stored" in out, out
    con = sqlite3.connect(db)
    runs = con.execute("SELECT implementation, program, platform, timer, model, cflags FROM runs ORDER BY 1").fetchall()
    assert [r[:3] for r in runs] == [("clean", "ct", "m4-sim"), ("leaky", "ct", "m4-sim")], runs
    for _, _, _, timer, model, cflags in runs:
        assert timer.startswith("pqlab-sim-taint (pqlab-sim ") and model, timer
        assert "-DPQLAB_CT_SIM" in cflags, cflags  # the ct build's flags, from its build
    vals = dict(
        ((impl, op), v)
        for impl, op, v in con.execute(
            "SELECT r.implementation, m.operation, m.value FROM measurements m JOIN runs r ON r.id = m.run_id "
            "WHERE m.metric = 'ct'"
        )
    )
    assert vals[("clean", "status")] == 1 and vals[("clean", "unaccepted")] == 0, vals
    assert vals[("leaky", "status")] == 0 and vals[("leaky", "unaccepted")] >= 2, vals
    assert vals[("leaky", "instructions")] > 0, vals

    code, md = pqlab_stdout("report", "--db", db)
    assert code == 0, md
    assert "### Constant time (`pqlab ct`" in md, md
    rows = {line.split("|")[2].strip(): line for line in md.splitlines() if line.startswith("| toykem-memcmp |")}
    assert "| pass | 0 | — | 0 |" in rows["clean"], rows
    assert "secret-branch 2" in rows["leaky"], rows
    assert "| FAIL |" in rows["leaky"], rows
    assert "Simulated: cycle counts" not in md  # no cycle counts in a section of ct verdicts

    out_html = tmp_path / "r.html"
    code, out = pqlab("report", "--db", db, "--format", "html", "-o", out_html)
    assert code == 0, out
    page = out_html.read_text()
    assert "Constant time (`pqlab ct`" in page and "<td>FAIL</td>" in page and "<td>pass</td>" in page

    code, js = pqlab_stdout("report", "--db", db, "--format", "json")
    assert code == 0 and {r["metric"] for r in json.loads(js)} == {"ct"}, js[:500]


def test_ct_no_store(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    code, out = pqlab(
        "ct", "toykem-memcmp", "--impl-path", TOYS, "-i", "clean", "-p", "m4-sim", "--db", db, "--no-store"
    )
    assert code == 0, out
    assert not db.exists() and "stored" not in out
