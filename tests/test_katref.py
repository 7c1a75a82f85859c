"""`pqlab kat` references (pqlab/katref.py, pqlab/data/kat.toml) and the external-data settings
(pqlab/external.py): the checks work from a plain clone, by published hashes, and a check that
needs a file it cannot find says which file, where it comes from and which setting finds it."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import nistreq
import pytest
from click.testing import CliRunner
from extdata import vectors

from pqlab import ROOT, external, katref
from pqlab.cli import main

REFS = katref.load_refs()
SHIPPED = ROOT / "tests" / "data" / "falcon-round3"


def rsp(records: list[list[tuple[str, str]]], header: str = "# Toy") -> str:
    out = header + "\n\n"
    for i, fields in enumerate(records):
        out += f"count = {i}\n" + "".join(f"{k} = {v}\n" for k, v in fields) + "\n"
    return out


TOY = rsp([[("seed", f"{i:02X}" * 4), ("sm", f"{i * 7:04X}")] for i in range(3)])


def toy_ref(text: str = TOY) -> dict:
    recs = katref.records(text)
    return {
        "rsp": "toy/toy-KAT.rsp",
        "record_sha256": [katref.sha256(r) for r in recs],
        "first_record_sha256": katref.sha256(recs[0]),
        "record_source": "test",
        "rsp_sha1": hashlib.sha1(text.encode()).hexdigest(),
        "rsp_sha1_source": "the toy",
    }


def test_records_split_and_hash_as_pqclean_does() -> None:
    recs = katref.records(TOY)
    assert len(recs) == 3
    assert recs[1] == "count = 1\nseed = 01010101\nsm = 0007\n"
    assert katref.records("# header only\n\n") == []


def test_check_ok_prefix_and_whole_file() -> None:
    ref = toy_ref()
    v = katref.check(TOY, ref, 3)
    assert v.verdict == "ok" and "3 records match" in v.detail and "SHA-1" in v.detail
    two = rsp([[("seed", f"{i:02X}" * 4), ("sm", f"{i * 7:04X}")] for i in range(2)])
    v = katref.check(two, ref, 2)
    assert v.verdict == "ok" and "2 records match" in v.detail and "SHA-1" not in v.detail


def test_check_names_the_first_differing_record(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv(external.VECTORS_ENV, str(tmp_path / "nowhere"))
    bad = TOY.replace("sm = 000E", "sm = 000F")
    v = katref.check(bad, toy_ref(), 3)
    assert v.verdict == "FAIL" and "record count = 2 differs" in v.detail
    # without the official file the verdict stands and the message says how to see the field
    assert "PQLAB_VECTORS" in v.detail and "toy/toy-KAT.rsp" in v.detail and "nowhere does not exist" in v.detail
    # with the official file at hand, the differing field is named
    (tmp_path / "v" / "toy").mkdir(parents=True)
    (tmp_path / "v" / "toy" / "toy-KAT.rsp").write_text(TOY)
    monkeypatch.setenv(external.VECTORS_ENV, str(tmp_path / "v"))
    v = katref.check(bad, toy_ref(), 3)
    assert v.verdict == "FAIL" and "first differing line: 'sm'" in v.detail


def test_check_refuses_what_it_cannot_check() -> None:
    ref = toy_ref()
    assert katref.check(TOY, {}, 3).verdict == "unchecked"
    assert katref.check(TOY, {"rsp": "x"}, 3).verdict == "unchecked"
    v = katref.check(TOY, ref, 4)  # fewer records than asked for
    assert v.verdict == "FAIL" and "3 records in the output, 4 requested" in v.detail
    v = katref.check(TOY.replace("# Toy", "# Other"), ref, 3)  # records right, file not
    assert v.verdict == "FAIL" and "SHA-1" in v.detail
    more = rsp([[("seed", f"{i:02X}" * 4), ("sm", f"{i * 7:04X}")] for i in range(5)])
    v = katref.check(more, ref, 5)
    assert v.verdict == "ok" and "records 3..4 have no reference" in v.detail
    with pytest.raises(Exception, match="disagrees"):
        katref.check(TOY, dict(ref, first_record_sha256="00" * 32), 3)


def test_first_record_only_references() -> None:
    first = katref.records(TOY)[0]
    ok = katref.check(TOY, {"first_record_sha256": katref.sha256(first), "source": "toy"}, 3)
    assert ok.verdict == "ok"
    assert katref.check(TOY, {"first_record_sha256": "00" * 32, "source": "toy"}, 3).verdict == "FAIL"


@pytest.mark.parametrize("scheme", [s for s in REFS if "record_sha256" in REFS[s] and "rsp" in REFS[s]])
def test_kat_toml_entries_are_complete(scheme: str) -> None:
    """Entries whose record hashes are of the official file (the derived ones: test_katderive.py)."""
    ref = REFS[scheme]
    hashes = ref["record_sha256"]
    assert len(hashes) == 100 and len(set(hashes)) == 100
    assert all(re.fullmatch("[0-9a-f]{64}", h) for h in hashes)
    assert hashes[0] == ref["first_record_sha256"]  # two independent sources agree
    assert re.fullmatch("[0-9a-f]{40}", ref["rsp_sha1"]) and re.fullmatch("[0-9a-f]{64}", ref["rsp_sha256"])
    assert ref["rsp"].startswith("falcon-round3/KAT/") and ref["rsp_sha1_source"] and ref["record_source"]


@pytest.mark.parametrize("n", [512, 1024])
def test_shipped_record0_is_the_published_one(n: int) -> None:
    text = (SHIPPED / f"falcon{n}-KAT-count0.rsp").read_text()
    assert katref.sha256(text) == REFS[f"fn-dsa-{n}"]["first_record_sha256"]


@pytest.mark.parametrize("n", [512, 1024])
def test_kat_toml_hashes_are_the_official_files(n: int) -> None:
    """Recompute kat.toml's values from the official .rsp (external vectors)."""
    ref = REFS[f"fn-dsa-{n}"]
    text = vectors(ref["rsp"]).read_text()
    assert hashlib.sha1(text.encode()).hexdigest() == ref["rsp_sha1"]
    assert katref.sha256(text) == ref["rsp_sha256"]
    assert [katref.sha256(r) for r in katref.records(text)] == ref["record_sha256"]


def test_missing_file_message_names_file_source_and_setting(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv(external.VECTORS_ENV, str(tmp_path))
    assert external.vectors_dir() == tmp_path
    with pytest.raises(external.Missing) as e:
        external.path("vectors", "falcon-round3/KAT/falcon512-KAT.rsp")
    msg = str(e.value)
    assert "falcon-round3/KAT/falcon512-KAT.rsp" in msg and "falcon-sign.info" in msg and "PQLAB_VECTORS" in msg
    (tmp_path / "acvp").mkdir()
    (tmp_path / "acvp" / "x.json").write_text("{}")
    assert external.path("vectors", "acvp/x.json") == tmp_path / "acvp" / "x.json"
    monkeypatch.setenv(external.THIRDPARTY_ENV, str(tmp_path / "tp"))
    with pytest.raises(external.Missing, match="PQLAB_THIRDPARTY"):
        external.path("thirdparty", "pqm4-cc2c1b9.tar.gz")
    monkeypatch.delenv(external.VECTORS_ENV)
    assert external.vectors_dir() == ROOT.parent / "shared" / "vectors"


def test_pqlab_kat_fn_dsa_from_a_plain_clone(monkeypatch, tmp_path: Path) -> None:
    """No external vectors: FN-DSA's KAT is still checked, record by record."""
    monkeypatch.setenv(external.VECTORS_ENV, str(tmp_path / "none"))
    res = CliRunner().invoke(main, ["kat", "fn-dsa-512", "-i", "ref", "-p", "host", "-j", "1", "--count", "2"])
    assert res.exit_code == 0, res.output
    assert "ok        fn-dsa-512/ref on host: 2 records match falcon-round3/KAT/falcon512-KAT.rsp" in res.output
    res = CliRunner().invoke(main, ["kat", "fn-dsa-512", "-p", "host", "--count", "0"])
    assert res.exit_code == 2 and "--count" in res.output


def recorded_external_hashes() -> list[tuple[str, str]]:
    lines = (ROOT / "pqlab" / "data" / "external-vectors.sha256").read_text().splitlines()
    return [(ln.split()[1], ln.split()[0]) for ln in lines if ln and not ln.startswith("#")]


def test_external_vector_files_are_the_recorded_ones() -> None:
    """Every external file the tests read is the one whose SHA-256 pqlab records (docs/vectors.md)."""
    entries = recorded_external_hashes()
    assert entries and all(re.fullmatch("[0-9a-f]{64}", h) for _, h in entries)
    recorded = dict(entries)  # agrees with the other places that name these files' hashes
    assert recorded[nistreq.REQ_FILE] == nistreq.REQ_SHA256
    for n in (512, 1024):
        assert recorded[REFS[f"fn-dsa-{n}"]["rsp"]] == REFS[f"fn-dsa-{n}"]["rsp_sha256"]
    bad = [rel for rel, h in entries if hashlib.sha256(vectors(rel).read_bytes()).hexdigest() != h]
    assert not bad, bad


def test_per_implementation_entry_and_prefix_hashes() -> None:
    refs = {"x": {"rng": "hqc"}, "x/v2": {"rng": "hqc-2025", "rsp_prefix_sha256": {"3": katref.sha256(TOY)}}}
    assert katref.ref_for(refs, "x", "ref") == refs["x"] and katref.ref_for(refs, "x", "v2") == refs["x/v2"]
    assert katref.ref_for(refs, "y", "v2") == {}
    ref = refs["x/v2"]
    assert katref.check(TOY, ref, 3).verdict == "ok"
    assert katref.check(TOY.replace("count = 0", "count = 9"), ref, 3).verdict == "FAIL"
    assert katref.check(TOY, {"rsp_prefix_sha256": {"1": "00" * 32}}, 3).verdict == "unchecked"
    assert katref.rng_flags("hqc-128", "ref2025") == ["-DPQLAB_KAT_RNG_HQC", "-DPQLAB_KAT_RNG_HQC_DOMAIN=0"]
    assert katref.rng_flags("hqc-128", "ref") == ["-DPQLAB_KAT_RNG_HQC"]
