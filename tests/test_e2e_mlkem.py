"""End to end: ML-KEM through the whole framework on host, QEMU Cortex-M4 and QEMU Cortex-M7.

registry -> build -> runner -> protocol -> results -> report, with the real harness programs,
platforms and the official vectors (external, PQLAB_VECTORS; docs/vectors.md).
"""

import json

import pytest
from cli_runner import pqlab, pqlab_stdout
from extdata import vectors

from pqlab.registry import discover

PLATFORMS = ["host", "mps2-an386", "mps2-an500"]
SCHEMES = ["ml-kem-512", "ml-kem-768", "ml-kem-1024"]


def plat_args(plats):
    return [x for p in plats for x in ("-p", p)]


def test_target_tests_all_platforms():
    code, out = pqlab("test", *SCHEMES, "-i", "ref", *plat_args(PLATFORMS))
    assert code == 0, out
    assert out.count("ok   ") == len(SCHEMES) * len(PLATFORMS)


def test_vectors_agree_across_platforms_and_record():
    code, out = pqlab("vectors", *SCHEMES, *plat_args(PLATFORMS), "--json")
    assert code == 0, out
    rows = json.loads(out[out.index("[") :])
    assert {r["scheme"] for r in rows} == set(SCHEMES)
    for r in rows:
        assert r["agree"] and r["matches_record"] and r["expected"], r
        # every implementation of the scheme (ref, smallstack) on every platform: one hash
        impls = {i.name for i in discover() if i.scheme == r["scheme"]}
        assert len(impls) >= 2 and set(r["hashes"]) == {f"{i}@{p}" for i in impls for p in PLATFORMS}


@pytest.mark.parametrize("platform", PLATFORMS)
@pytest.mark.parametrize("mode", ["keyGen", "encapDecap"])
def test_acvp_byte_exact(platform, mode, tmp_path):
    f = vectors(f"acvp/v1.1.0.40/ML-KEM-{mode}-FIPS203/internalProjection.json")
    resp = tmp_path / "response.json"
    code, out = pqlab("acvp", f, "-p", platform, "-o", resp, "--expected", f, "--json")
    assert code == 0, out
    summary = json.loads(out[out.index("{") :])
    expected = sum(len(g["tests"]) for g in json.loads(f.read_text())["testGroups"])
    assert summary["compared"] == expected and not summary["mismatches"]
    r = json.loads(resp.read_text())
    assert r["algorithm"] == "ML-KEM" and r["mode"] == mode and r["revision"] == "FIPS203"
    assert all("tgId" in g and all("tcId" in t for t in g["tests"]) for g in r["testGroups"])


@pytest.mark.parametrize("platform, count", [("host", 100), ("mps2-an386", 3)])
def test_kat_matches_published_hash(platform, count):
    code, out = pqlab("kat", *SCHEMES, "-i", "ref", "-p", platform, "--count", count)
    assert code == 0, out
    assert out.count("ok ") == len(SCHEMES)


def test_bench_report_roundtrip(tmp_path):
    db = tmp_path / "r.db"
    code, out = pqlab("bench", "ml-kem-768", "-p", "mps2-an386", "-n", 3, "--db", db)
    assert code == 0, out
    assert "| ml-kem-768 | ref | keypair | 3 |" in out
    code, out = pqlab_stdout("report", "--db", db, "--format", "json", "-s", "ml-kem-768")
    recs = json.loads(out)
    metrics = {(r["metric"], r["operation"]) for r in recs}
    for op in ("keypair", "encaps", "decaps"):
        assert {("speed", op), ("stack", op), ("ram", op), ("hashing", op)} <= metrics
    assert ("size", "text") in metrics
    speed = next(r for r in recs if r["metric"] == "speed" and r["operation"] == "keypair")
    assert speed["unit"] == "instructions" and speed["n"] == 3 and speed["min"] > 10_000
    ctx = speed["context"]
    assert ctx["compiler"] == "arm-none-eabi-gcc" and ctx["pqlab_commit"] and ctx["clock_hz"] > 0
    stack = next(r for r in recs if r["metric"] == "stack" and r["operation"] == "decaps")
    assert 1000 < stack["max"] < 20_000
    hashing = next(r for r in recs if r["metric"] == "hashing" and r["operation"] == "keypair")
    assert 5 < hashing["mean"] < 95
    code, out = pqlab_stdout("report", "--db", db, "--format", "csv")
    assert out.startswith("scheme,implementation,platform,metric")
