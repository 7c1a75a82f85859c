"""`pqlab calibrate --pqm4` (pqlab/calibrate_pqm4.py, pqlab/pqm4cc.py) and the Cortex-M7 study
comparison (pqlab/m7study.py); docs/sim.md "Accuracy over the pqm4 corpus".

Default set: the parsers (pqm4's benchmarks.md against its own benchmarks.csv, the speed
output), the compiler driver's command-line split and the counting rule. Slow set:
- test_corpus_table_is_produced_and_complete: builds and runs a few implementations with
  pqm4's own make and checks that every published operation has a simulated figure and that
  the compiler reproduces pqm4's published .text to the byte;
- test_corpus_meets_the_goals: the issue's goals over the deterministic points of the
  families of issue 23 (mean absolute error at most 1.5%, every point within 3%). It fails
  with the model of today (m4-v7 with pqm4's board's memory set-up `--memory stm32l4r5`:
  mean absolute error and the worst points in docs/sim.md "Model m4-v7")
  and is meant to, until the model is fixed; it reports the current errors in its message.
- test_m7_study_table_is_complete / test_m7_study_meets_the_goal: the same for the Falcon
  study on m7-sim, with the study's calls and build (constant-time signatures, -O2, caches on;
  goal: within 5%; today -11 to +3% for Falcon-512, docs/sim.md "The study's build and calls").
"""

from __future__ import annotations

import csv
import io
import tarfile

import pytest
from extdata import thirdparty

from pqlab import calibrate_pqm4 as P
from pqlab import pqm4cc
from pqlab.platforms import get_platform

# the families of issue 23 whose pqm4 speed firmware runs (pqm4's own SPHINCS+ speed firmware
# fails its verification, also under QEMU: docs/pqm4-corpus.md)
FAMILIES = ("ml-kem", "ml-dsa", "fndsa", "bikel", "mayo", "hqc")


def _member(name: str) -> str:
    tb = thirdparty(P.TARBALL)
    with tarfile.open(tb, "r:gz") as tf:
        f = tf.extractfile(f"pqm4/{name}")
        assert f is not None
        return f.read().decode()


def test_benchmarks_md_parses_like_pqm4s_csv() -> None:
    pubs = P.parse_benchmarks(_member("benchmarks.md"))
    rows = list(csv.reader(io.StringIO(_member("benchmarks.csv"))))
    by_key = {}
    kind = ""
    for r in rows:
        if r[0] == "Key Encapsulation Schemes":
            kind = "kem"
        elif r[0] == "Signature Schemes":
            kind = "sign"
        elif r[0] in ("Memory Evaluation",):
            break
        elif kind and r[0] and r[0] != "Scheme" and len(r) >= 11 and r[2]:
            scheme = r[0].split(" (")[0]
            by_key[(kind, scheme, r[1])] = [int(x) if x else None for x in r[2:11]]
    assert len(pubs) == len(by_key) > 100
    for p in pubs:
        vals = by_key[(p.kind, p.scheme, p.impl)]
        for k, op in enumerate(P.KIND_OPS[p.kind]):
            if op in p.ops:
                assert list(p.ops[op]) == vals[3 * k : 3 * k + 3], (p.scheme, p.impl, op)
    assert all(p.text and p.text > 0 for p in pubs if not p.scheme.startswith("mirith")), "size table"


def test_speed_output_parsing() -> None:
    out = "==========================\nkeypair cycles:\n10\nencaps cycles:\n20\ndecaps cycles:\n30\nOK KEYS\n\n+\n#\n"
    assert P.parse_speed(out) == {"keypair": [10], "encaps": [20], "decaps": [30]}
    with pytest.raises(P.PqlabError, match="did not finish"):
        P.parse_speed("keypair cycles:\n10\n")
    with pytest.raises(P.PqlabError, match="error"):
        P.parse_speed("keypair cycles:\n1\nERROR KEYS\n#\n")


def test_driver_splits_compile_and_link() -> None:
    args = ["-O3", "-Ifoo", "-o", "x.elf", "a.c", "b.S", "-Wl,--gc-sections", "-Lobj", "-lm", "--specs=nosys.specs"]
    opts, srcs = pqm4cc._split(args)
    assert srcs == ["a.c", "b.S"]
    assert pqm4cc._compile_opts(opts) == ["-O3", "-Ifoo"]


def test_counting_rule_and_summary() -> None:
    pub = P.Published(
        "kem", "s", "i", 10, {"keypair": (100, 100, 100), "encaps": (100, 90, 110), "decaps": (200, 200, 200)}
    )
    res = P.Result("kem", "s", "i", runs={"keypair": [103], "encaps": [100], "decaps": [190]})
    table = P.rows({("kem", "s", "i"): pub}, [res])
    assert [t["deterministic"] for t in table] == [True, False, True]
    s = P.summary(table)
    assert s["points"] == 2 and s["random_points"] == 1
    assert s["mae_pct"] == 4.0 and s["max_abs_pct"] == 5.0 and not s["goals_met"]
    failed = P.rows({("kem", "s", "i"): pub}, [P.Result("kem", "s", "i", status="run-failed")])
    assert P.summary(failed)["failed_rows"] == 3 and "mae_pct" not in P.summary(failed)


@pytest.mark.slow
def test_corpus_table_is_produced_and_complete() -> None:
    res = P.calibrate_pqm4(get_platform("m4-sim"), ("ml-kem-512", "hqc-128"), thirdparty(P.TARBALL))
    rows = res["rows"]
    assert {(r["scheme"], r["impl"]) for r in rows} == {
        ("ml-kem-512", "clean"),
        ("ml-kem-512", "m4fspeed"),
        ("ml-kem-512", "m4fstack"),
        ("hqc-128", "clean"),
    }
    assert len(rows) == 12 and all(r["status"] == "ok" and r["simulated"] > 0 for r in rows), rows
    # the compiler reproduces pqm4's binaries: .text of every implementation to the byte
    assert all(r["built_text"] == r["published_text"] for r in rows), [(r["impl"], r["built_text"]) for r in rows]
    assert res["summary"]["points"] >= 7


@pytest.mark.slow
def test_corpus_meets_the_goals() -> None:
    """Expected to fail until the model is fixed (issue 23); the message is the current state."""
    res = P.calibrate_pqm4(get_platform("m4-sim"), FAMILIES, thirdparty(P.TARBALL))
    s = res["summary"]
    assert s["failed_rows"] == 0, [r for r in res["rows"] if r["status"] != "ok"]
    assert s["mae_pct"] <= P.GOAL_MAE_PCT and s["max_abs_pct"] <= P.GOAL_MAX_PCT, (
        f"m4-sim over {s['points']} deterministic pqm4 points: mean abs {s['mae_pct']}% "
        f"(goal {P.GOAL_MAE_PCT}%), max {s['max_abs_pct']}% at {s['worst']} (goal {P.GOAL_MAX_PCT}%)"
    )


@pytest.mark.slow
def test_m7_study_table_is_complete(tmp_path) -> None:
    from pqlab import m7study as M

    plat = get_platform("m7-sim")
    extra = M.extract(thirdparty(M.TARBALL), tmp_path)
    elf = M.build(plat, extra, tmp_path, 9, "FPU", 1, 1)
    rows = M.compare({(9, "FPU"): M.run(plat, elf)}, M.study())
    assert [r["op"] for r in rows] == list(M.OPS)
    assert all(r["sim_kcycles"] > 0 for r in rows)


@pytest.mark.slow
def test_m7_study_meets_the_goal(tmp_path) -> None:
    """Expected to fail today: m7-estimate-v4 with the study's calls and its documented build
    (arm-none-eabi-gcc -O2, mbed OS with both caches on: `stm32f7`) is -11.2 to +2.9% against the
    study for Falcon-512 (signing and expansion 6-11% below; no build or memory set-up scanned is
    within 5% on every row, docs/sim.md "The study's build and calls")."""
    from pqlab import m7study as M

    plat = get_platform("m7-sim")
    extra = M.extract(thirdparty(M.TARBALL), tmp_path)
    measured = {
        (9, fp): M.run(
            plat,
            M.build(plat, extra, tmp_path, 9, fp, 1, 2, "O2", "study", M.GCC12_WORKAROUND),
            memory="stm32f7",
        )
        for fp in M.CONFIGS
    }
    rows = [r for r in M.compare(measured, M.study()) if r["op"] != "keygen"]  # keygen: restart counts differ
    bad = [(r["fp"], r["op"], r["error_pct"]) for r in rows if abs(r["error_pct"]) > 5]
    assert not bad, f"m7-sim against the study (goal 5%): {bad}"
