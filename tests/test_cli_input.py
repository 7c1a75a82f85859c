"""Bad command-line input is rejected in one line before anything runs; reports read without writing."""

import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from pqlab import ROOT
from pqlab.cli import main
from pqlab.results import DEFAULT_DB, Store
from tests.test_results import ctx


@pytest.mark.parametrize(
    "args",
    [
        ["bench", "ml-kem-512", "-n", "0"],
        ["bench", "ml-kem-512", "-n", "-1"],
        ["bench", "ml-kem-512", "-n", "3000000000"],
        ["bench", "ml-kem-512", "-j", "0"],
        ["test", "ml-kem-512", "-j", "0"],
        ["profile", "ml-kem-512", "--top", "0"],
        ["profile", "ml-kem-512", "--top", "-5"],
        ["kat", "ml-kem-512", "--count", "0"],
        ["calibrate", "-n", "0"],
    ],
)
def test_out_of_range_numbers_rejected(args, tmp_path):
    db = tmp_path / "r.db"
    res = CliRunner().invoke(main, args + (["--db", str(db)] if args[0] == "bench" else []))
    assert res.exit_code == 2, res.output
    assert "Invalid value" in res.output
    assert not db.exists()


@pytest.fixture
def db(tmp_path):
    p = tmp_path / "r.db"
    st = Store(p)
    st.add_run(
        ctx(implementation="ref", platform="m4-sim", unit="cycles"),
        [("speed", "keypair", 400), ("stack", "keypair", 900)],
    )
    st.add_run(ctx(implementation="fpu", platform="m4-sim", unit="cycles"), [("speed", "keypair", 100)])
    st.close()
    return p


@pytest.mark.parametrize("cmd", ["report", "compare"])
@pytest.mark.parametrize(
    "flt,word",
    [(["-s", "unknown"], "scheme unknown"), (["-p", "nope"], "platform nope"), (["-i", "x"], "implementation x")],
)
def test_report_filters_that_match_nothing_fail(db, cmd, flt, word):
    res = CliRunner().invoke(main, [cmd, "--db", str(db), *flt])
    assert res.exit_code == 2
    assert f"no stored results for {word}" in res.output and "stored: " in res.output


def test_report_of_missing_database_fails_and_creates_nothing(tmp_path):
    res = CliRunner().invoke(main, ["report", "--db", str(tmp_path / "x" / "r.db")])
    assert res.exit_code == 2 and "no results database" in res.output
    assert not (tmp_path / "x").exists()


def test_report_to_file_and_database_named(db, tmp_path):
    out = tmp_path / "report.csv"
    res = CliRunner().invoke(main, ["report", "--db", str(db), "--format", "csv", "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert f"results database: {db}" in res.output
    assert out.read_text().startswith("scheme,implementation,platform,metric")


def test_compare_baseline(db):
    res = CliRunner().invoke(main, ["compare", "--db", str(db), "--baseline", "fpu@m4-sim"])
    assert res.exit_code == 0, res.output
    assert "| ml-kem-768 | keypair | 100 | 400 | 4.00 |" in res.output
    res = CliRunner().invoke(main, ["compare", "--db", str(db), "--baseline", "none@m4-sim"])
    assert res.exit_code == 2 and "baseline none@m4-sim" in res.output


def test_default_database_does_not_depend_on_working_directory(tmp_path):
    code = "from pqlab.results import DEFAULT_DB; print(DEFAULT_DB)"
    env = {k: v for k, v in os.environ.items() if k != "PQLAB_DB"}
    env["PYTHONPATH"] = str(ROOT)
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == str(ROOT / "results" / "pqlab.db")
    if "PQLAB_DB" not in os.environ:
        assert DEFAULT_DB == ROOT / "results" / "pqlab.db"
