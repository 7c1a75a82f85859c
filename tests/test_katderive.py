"""Per-record KAT references derived from a published whole-file hash (pqlab/katderive.py):
derived only from a file whose SHA-256 is the published one (refused otherwise), recorded in
pqlab/data/kat.toml with their provenance, and used by katref to check a partial run record
by record, consistently with the whole-file hashes. The slow test re-derives every derived
entry from files generated on the host (Hawk also with mupq's reference as a drop-in)."""

from __future__ import annotations

import re
import tarfile
from pathlib import Path

import extdata
import pytest
from cli_runner import pqlab

from pqlab import PqlabError, katderive, katref

REFS = katref.load_refs()
DERIVED = katderive.derived_keys(REFS)


def rsp(n: int, header: str = "# Toy", tweak: int | None = None) -> str:
    out = header + "\n\n"
    for i in range(n):
        sm = f"{i * 7 + (1 if i == tweak else 0):04X}"
        out += f"count = {i}\nseed = {i:02X}{i:02X}\nsm = {sm}\n\n"
    return out


def prefix_ref(text: str, keys: tuple[int, ...] = (1, 4)) -> dict:
    """A kat.toml-like entry with only whole-file hashes (of the first k records), as published."""
    recs = katref.records(text)
    header = text[: text.index("count = ")]
    cut = {str(k): katref.sha256(header + "".join(r + "\n" for r in recs[:k])) for k in keys}
    return {"rsp_prefix_sha256": cut, "source": "toy publication"}


def test_derive_from_the_published_file_only() -> None:
    text = rsp(4)
    ref = prefix_ref(text)
    hashes = katderive.derive(text, ref, "toy")
    assert hashes == [katref.sha256(r) for r in katref.records(text)]
    with pytest.raises(PqlabError, match="refused: the generated file's SHA-256"):
        katderive.derive(rsp(4, tweak=2), ref, "toy")
    with pytest.raises(PqlabError, match="refused: the generated file's SHA-256"):
        katderive.derive(rsp(4, header="# Other"), ref, "toy")  # records right, file not
    with pytest.raises(PqlabError, match="3 records, the published hash is of 4"):
        katderive.derive(rsp(3), ref, "toy")
    bad_prefix = dict(ref, rsp_prefix_sha256=dict(ref["rsp_prefix_sha256"], **{"1": "00" * 32}))
    with pytest.raises(PqlabError, match="cut after 1 records"):
        katderive.derive(text, bad_prefix, "toy")
    with pytest.raises(PqlabError, match="no whole-file hash"):
        katderive.derive(text, {"first_record_sha256": "00" * 32}, "toy")


def test_partial_run_checked_record_by_record() -> None:
    """The derived references check any number of records: a correct 2-record run is ok, a
    wrong one names its first differing record; with a published file hash of the same
    number of records (1 or all 4 here), that is checked too."""
    text = rsp(4)
    ref = prefix_ref(text)
    ref["record_sha256"] = katderive.derive(text, ref, "toy")
    assert katref.check(rsp(2), prefix_ref(text), 2).verdict == "unchecked"  # file hashes alone cannot
    v = katref.check(rsp(2), ref, 2)
    assert v.verdict == "ok" and "2 records match" in v.detail and "whole-file" not in v.detail, v
    v = katref.check(rsp(3, tweak=1), ref, 3)
    assert v.verdict == "FAIL" and "record count = 1 differs" in v.detail, v
    v = katref.check(rsp(4), ref, 4)
    assert v.verdict == "ok" and "4 records match" in v.detail and "whole-file SHA-256 of 4 record(s)" in v.detail
    v = katref.check(rsp(1), ref, 1)
    assert v.verdict == "ok" and "whole-file SHA-256 of 1 record(s)" in v.detail
    # records right, header not: the record hashes pass, the published file hash does not
    v = katref.check(rsp(4, header="# Other"), ref, 4)
    assert v.verdict == "FAIL" and "header or layout differs" in v.detail, v
    v = katref.check(rsp(2, header="# Other"), ref, 2)  # no file hash of 2 records: records only
    assert v.verdict == "ok"


def test_with_records_rewrites_one_entry() -> None:
    toml = '# head\n\n["a"]\nsource = "x"\n\n["b"]\nrsp_prefix_sha256 = { "2" = "ff" }\nsource = "y"\n\n["c"]\nk = 1\n'
    once = katderive.with_records(toml, "b", ["11", "22"], "derived")
    assert once.startswith('# head\n\n["a"]\nsource = "x"\n\n["b"]\n') and once.endswith('\n\n["c"]\nk = 1\n')
    assert '["b"]\nrsp_prefix_sha256 = { "2" = "ff" }\nsource = "y"\nrecord_source = "derived"\n' in once
    twice = katderive.with_records(once, "b", ["33", "44"], "derived again")
    assert twice == once.replace("11", "33").replace("22", "44").replace('"derived"', '"derived again"')
    with pytest.raises(PqlabError, match=r"no entry \[d\]"):
        katderive.with_records(toml, "d", ["11"], "derived")


def test_derived_entries_in_kat_toml() -> None:
    """Every entry with only whole-file hashes of 100 records has derived per-record hashes,
    stated as derived from that hash; variants with the same published file agree."""
    whole_only = sorted(k for k, r in REFS.items() if "100" in r.get("rsp_prefix_sha256", {}))
    assert whole_only == sorted(DERIVED) and len(DERIVED) == 10, DERIVED
    for key in DERIVED:
        ref = REFS[key]
        hashes = ref["record_sha256"]
        assert len(hashes) == 100 and len(set(hashes)) == 100
        assert all(re.fullmatch("[0-9a-f]{64}", h) for h in hashes)
        assert ref["record_source"] == katderive.provenance(ref, key)
        assert ref["rsp_prefix_sha256"]["100"] in ref["record_source"]
    for n in (512, 1024):
        assert REFS[f"hawk{n}"]["record_sha256"] == REFS[f"hawk-{n}"]["record_sha256"]
    for n in (128, 192, 256):
        assert REFS[f"hqc-{n}/ref2025"]["record_sha256"] == REFS[f"hqc-{n}/smallstack2025"]["record_sha256"]


@pytest.mark.parametrize(
    "args", [["hawk-512", "--count", "2"], ["hqc-128", "-i", "ref2025", "--count", "2"]], ids=["hawk", "hqc"]
)
def test_kat_command_two_records_on_host(args: list[str]) -> None:
    """A 2-record run of an entry that had only a 100-record file hash is now checked."""
    code, text = pqlab("kat", *args, "-p", "host", "-j", "1")
    assert code == 0 and text.startswith("ok") and "2 records match" in text, text


@pytest.mark.slow
@pytest.mark.parametrize("key", DERIVED)
def test_rederive(key: str, tmp_path: Path) -> None:
    """Regenerate the 100-record file on the host, check its published hash and compare its
    per-record hashes with kat.toml's (mupq's hawk512/hawk1024 from the pqm4 tarball)."""
    impl_path = []
    if key in ("hawk512", "hawk1024"):
        with tarfile.open(extdata.thirdparty(extdata.PQM4_TARBALL)) as tf:
            members = [m for m in tf.getmembers() if m.name.startswith("pqm4/mupq/crypto_sign/hawk")]
            tf.extractall(tmp_path, members=members, filter="tar")
        impl_path = [tmp_path / "pqm4" / "mupq"]
    text = katderive.generate(key, impl_path)
    assert katderive.derive(text, REFS[key], key) == REFS[key]["record_sha256"]
