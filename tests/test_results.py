"""Results store: full context, atomic runs, corrupt databases detected and left untouched."""

import csv
import io
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from pqlab import ROOT, PqlabError
from pqlab import report as R
from pqlab.results import Context, Store


def ctx(**kw):
    base = dict(
        scheme="ml-kem-768",
        implementation="ref",
        impl_dir="/x",
        platform="mps2-an386",
        core="cortex-m4",
        clock_hz=24_000_000,
        compiler="arm-none-eabi-gcc",
        compiler_version="12.2",
        cflags="-O3",
        iterations=3,
        timer="systick-icount",
        unit="instructions",
        runner="qemu-system",
        command="qemu ...",
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
    for key in (
        "scheme",
        "implementation",
        "platform",
        "metric",
        "operation",
        "unit",
        "n",
        "min",
        "median",
        "mean",
        "max",
        "stdev",
        "stderr",
        "context",
    ):
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


def test_iteration_distribution(tmp_path):
    st = Store(tmp_path / "r.db")
    st.add_run(ctx(), [("iterations", "sign", v) for v in (1, 1, 2, 4)])
    (rec,) = R.aggregate(st.latest())
    assert rec["histogram"] == {1: 2, 2: 1, 4: 1}
    assert "| ml-kem-768 | ref | sign | 4 | 1: 50.0%, 2: 25.0%, 4: 25.0% |" in R.markdown([rec])


def test_csv_metric_unit_and_timer_unit_are_separate_columns(tmp_path):
    st = Store(tmp_path / "r.db")
    st.add_run(
        ctx(unit="cycles"), [("speed", "keypair", 100), ("stack", "keypair", 5000), ("hashing", "keypair", 40.0)]
    )
    rows = list(csv.DictReader(io.StringIO(R.to_csv(R.aggregate(st.latest())))))
    assert {r["metric"]: r["unit"] for r in rows} == {"speed": "cycles", "stack": "bytes", "hashing": "percent"}
    assert {r["timer_unit"] for r in rows} == {"cycles"}
    header = R.to_csv(R.aggregate(st.latest())).splitlines()[0].split(",")
    assert header.count("unit") == 1


def test_compare_only_like_units_with_chosen_baseline(tmp_path):
    st = Store(tmp_path / "r.db")
    st.add_run(ctx(implementation="ref", platform="m4-sim", unit="cycles"), [("speed", "sign", 400)])
    st.add_run(ctx(implementation="fpu", platform="m4-sim", unit="cycles"), [("speed", "sign", 100)])
    st.add_run(ctx(implementation="ref", platform="mps2-an386", unit="instructions"), [("speed", "sign", 300)])
    recs = R.aggregate(st.latest())
    table = R.compare(recs, baseline="ref@m4-sim")
    assert "| ml-kem-768 | sign | 400 | 100 | 0.25 |" in table
    qemu = table[table.index("[instructions]") :]
    assert "not compared" in qemu and "| ml-kem-768 | sign | 300 |" in qemu and "/" not in qemu.split("\n", 1)[1]
    with pytest.raises(PqlabError, match="baseline nope@x"):
        R.compare(recs, baseline="nope@x")


def test_speedup_table_base_against_accelerated(tmp_path):
    st = Store(tmp_path / "r.db")
    dsa = {"scheme": "ml-dsa-44", "unit": "cycles"}
    st.add_run(ctx(platform="base", **dsa), [("speed", op, v) for op, v in (("keypair", 600), ("verify", 300))])
    st.add_run(ctx(platform="acc", **dsa), [("speed", op, v) for op, v in (("keypair", 100), ("verify", 150))])
    st.add_run(ctx(platform="base", unit="cycles"), [("speed", "encaps", 90)])
    st.add_run(ctx(platform="acc", unit="instructions"), [("speed", "encaps", 30)])
    recs = R.aggregate(st.latest())
    table = R.speedup(recs, "base", "acc")
    sign = table[table.index("| sign |") :]
    assert "| ml-dsa-44 (ref) | base | 600 | — | 300 |" in sign
    assert "| ml-dsa-44 (ref) | accelerated | 100 | — | 150 |" in sign
    assert "| ml-dsa-44 (ref) | base / accelerated | 6.00 | — | 2.00 |" in sign
    kem = table[table.index("| kem |") : table.index("| sign |")]
    # a KEM row only in the KEM table; figures of different units are not divided
    assert "ml-dsa-44" not in kem and "| ml-kem-768 (ref) | base / accelerated | — | — (units differ) | — |" in kem
    with pytest.raises(PqlabError, match="no speed results of nope"):
        R.speedup(recs, "base", "nope")
    with pytest.raises(PqlabError, match="are the same"):
        R.speedup(recs, "acc", "acc")


def _as_unprivileged(check) -> None:
    """Run `check` in a forked child that cannot override file permissions (root drops to
    nobody), so a read-only file is read-only; the child's assertion failures fail the test."""
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            if os.getuid() == 0:
                os.setgroups([])
                os.setgid(65534)
                os.setuid(65534)
            check()
            code = 0
        except BaseException:
            import traceback

            traceback.print_exc()
        finally:
            os._exit(code)
    assert os.waitpid(pid, 0)[1] == 0, "the check failed in the unprivileged child (traceback above)"


def test_readonly_database_can_be_read_not_written():
    d = Path(tempfile.mkdtemp(prefix="pqlab-ro-"))
    try:
        p = d / "r.db"
        Store(p).add_run(ctx(), [("speed", "keypair", 100)])
        p.chmod(0o444)
        d.chmod(0o555)  # not even a journal can be created next to it
        before = p.read_bytes()

        def check():
            assert not os.access(p, os.W_OK)
            assert [r["value"] for r in Store(p, readonly=True).latest()] == [100]
            with pytest.raises(PqlabError, match="read-only"):
                Store(p)

        _as_unprivileged(check)
        assert p.read_bytes() == before
    finally:
        d.chmod(0o755)
        shutil.rmtree(d)


def test_readonly_open_of_missing_database_creates_nothing(tmp_path):
    with pytest.raises(PqlabError, match="no results database"):
        Store(tmp_path / "none" / "r.db", readonly=True)
    assert not (tmp_path / "none").exists()


def test_concurrent_writers_lose_nothing(tmp_path):
    p = tmp_path / "r.db"
    Store(p)
    code = (
        "import sys; from tests.test_results import ctx; from pqlab.results import Store\n"
        "st = Store(sys.argv[1])\n"
        "for i in range(40): st.add_run(ctx(implementation=sys.argv[2]), [('speed', 'keypair', i)])\n"
    )
    procs = [subprocess.Popen([sys.executable, "-c", code, str(p), f"w{n}"], cwd=ROOT) for n in range(3)]
    assert [pr.wait(timeout=120) for pr in procs] == [0, 0, 0]
    db = sqlite3.connect(p)
    assert db.execute("SELECT implementation, COUNT(*) FROM runs GROUP BY 1 ORDER BY 1").fetchall() == [
        ("w0", 40),
        ("w1", 40),
        ("w2", 40),
    ]
