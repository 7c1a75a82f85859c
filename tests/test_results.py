"""Results store: full context, atomic runs, corrupt databases detected and left untouched."""

import sqlite3

import pytest

from pqlab import PqlabError
from pqlab import report as R
from pqlab.results import Context, Store


def ctx(**kw):
    base = dict(
        scheme="ml-kem-768", implementation="ref", impl_dir="/x", platform="mps2-an386", core="cortex-m4",
        clock_hz=24_000_000, compiler="arm-none-eabi-gcc", compiler_version="12.2", cflags="-O3",
        iterations=3, timer="systick-icount", unit="instructions", runner="qemu-system", command="qemu ...",
        program="speed",
    )
    base.update(kw)
    return Context(**base)


def test_store_and_report(tmp_path):
    st = Store(tmp_path / "r.db")
    st.add_run(ctx(), [("speed", "keypair", v) for v in (100, 110, 120)] + [("speed", "encaps", 50)])
    recs = R.aggregate(st.latest())
    kp = next(r for r in recs if r["operation"] == "keypair")
    assert (kp["n"], kp["min"], kp["median"], kp["mean"], kp["max"]) == (3, 100, 110, 110, 120)
    assert kp["stdev"] == pytest.approx(10.0)
    assert kp["stderr"] == pytest.approx(10 / 3**0.5)
    assert kp["ms"] == pytest.approx(110 / 24e6 * 1e3)
    for key in ("scheme", "implementation", "platform", "metric", "operation", "unit", "n", "min", "median",
                "mean", "max", "stdev", "stderr", "context"):
        assert key in kp
    c = kp["context"]
    assert c["compiler_version"] == "12.2" and c["pqlab_commit"] and c["date"] and c["timer"] == "systick-icount"
    md = R.markdown(recs)
    assert "| ml-kem-768 | ref | keypair | 3 | 100 | 110 | 110 | 120 |" in md
    assert "ml-kem-768,ref,mps2-an386,speed,keypair" in R.to_csv(recs)


def test_newer_run_wins_older_kept(tmp_path):
    st = Store(tmp_path / "r.db")
    st.add_run(ctx(), [("speed", "keypair", 100)])
    st.add_run(ctx(), [("speed", "keypair", 200)])
    assert [r["value"] for r in st.latest()] == [200]
    assert st.db.execute("SELECT COUNT(*) FROM runs").fetchone()[0] == 2


def test_failed_write_leaves_earlier_results(tmp_path):
    st = Store(tmp_path / "r.db")
    st.add_run(ctx(), [("speed", "keypair", 100)])
    with pytest.raises((sqlite3.Error, TypeError)):  # a crash in the middle of a run
        st.add_run(ctx(), [("speed", "keypair", 1), ("speed", "encaps", None)])  # NOT NULL fails mid-run
    assert st.db.execute("SELECT COUNT(*) FROM runs").fetchone()[0] == 1
    assert [r["value"] for r in st.latest()] == [100]


def test_empty_run_refused(tmp_path):
    with pytest.raises(PqlabError, match="empty run"):
        Store(tmp_path / "r.db").add_run(ctx(), [])


@pytest.mark.parametrize("content", [b"this is not sqlite at all" * 100, b"SQLite format 3\x00" + b"\xff" * 5000])
def test_corrupt_database_detected_and_untouched(tmp_path, content):
    p = tmp_path / "r.db"
    p.write_bytes(content)
    with pytest.raises(PqlabError, match="corrupt or not a pqlab database"):
        Store(p)
    assert p.read_bytes() == content


def test_foreign_sqlite_database_refused(tmp_path):
    p = tmp_path / "r.db"
    db = sqlite3.connect(p)
    db.execute("CREATE TABLE other(x)")
    db.commit()
    db.close()
    before = p.read_bytes()
    with pytest.raises(PqlabError, match="missing pqlab tables"):
        Store(p)
    assert p.read_bytes() == before


def test_compare_ratios(tmp_path):
    st = Store(tmp_path / "r.db")
    st.add_run(ctx(implementation="ref"), [("speed", "sign", 400)])
    st.add_run(ctx(implementation="fpu"), [("speed", "sign", 100)])
    table = R.compare(R.aggregate(st.latest()))
    assert "| ml-kem-768 | sign | 100 | 400 | 4.00 |" in table


def test_html_report(tmp_path):
    st = Store(tmp_path / "r.db")
    st.add_run(ctx(), [("speed", "keypair", 100), ("stack", "keypair", 5000)])
    page = R.to_html(R.aggregate(st.latest()))
    assert page.startswith("<!DOCTYPE html>") and page.count("<svg") == 2 and "ml-kem-768 ref keypair" in page


def test_iteration_distribution(tmp_path):
    st = Store(tmp_path / "r.db")
    st.add_run(ctx(), [("iterations", "sign", v) for v in (1, 1, 2, 4)])
    (rec,) = R.aggregate(st.latest())
    assert rec["histogram"] == {1: 2, 2: 1, 4: 1}
    assert "| ml-kem-768 | ref | sign | 4 | 1: 50.0%, 2: 25.0%, 4: 25.0% |" in R.markdown([rec])
