"""The references of `pqlab kat`: published hashes kept in pqlab/data/kat.toml.

A KAT response file (.rsp) is a header line, then records separated by blank lines; a
record is its lines ``count = i`` .. last field. kat.toml holds, per scheme (or per
implementation, ``["scheme/impl"]``, for one built for another version of the scheme),
what is published about the official file, each value with its source:

- ``first_record_sha256``: SHA-256 of record 0 (PQClean's META.yml ``nistkat-sha256``);
- ``rsp_prefix_sha256``: SHA-256 of the file cut after its first N records (header line,
  blank line, then each record followed by a blank line), keyed by N as a string; checked
  when exactly N records were generated (hqc-py's kat/hqc-kat-hash.txt for HQC 2025);
- ``record_sha256``: SHA-256 of every record of the official .rsp, so that any number of
  records can be checked from a plain clone; with ``record_source`` saying where they come
  from: the official file itself, or (pqlab/katderive.py) a host-generated file whose
  whole-file hash is the published ``rsp_prefix_sha256``. When an entry has both, a run of
  N records checks each record and, if a file hash of N records is published, that too;
- ``rsp_sha1`` / ``rsp_sha256``: hash of the whole official file, checked when all of its
  records were generated;
- ``rsp``: the official file's path under the external vectors (PQLAB_VECTORS). It is not
  needed for the verdict; when present (and itself equal to the published hash), a
  mismatch is shown field by field.
"""

from __future__ import annotations

import hashlib
import tomllib
from dataclasses import dataclass
from pathlib import Path

from pqlab import PqlabError, external

KAT_TOML = Path(__file__).parent / "data" / "kat.toml"


def load_refs(path: Path = KAT_TOML) -> dict[str, dict]:
    return tomllib.loads(path.read_text())


def ref_key(refs: dict[str, dict], scheme: str, impl: str | None = None) -> str:
    """The kat.toml entry that holds one implementation's references: ``"scheme/impl"`` when
    kat.toml has it (a variant built for another version of the scheme, e.g.
    hqc-128/ref2025), else the scheme's."""
    return f"{scheme}/{impl}" if impl is not None and f"{scheme}/{impl}" in refs else scheme


def ref_for(refs: dict[str, dict], scheme: str, impl: str | None = None) -> dict:
    """The references of one implementation (see `ref_key`; empty when there are none)."""
    return refs.get(ref_key(refs, scheme, impl), {})


_RNG_FLAGS = {
    "nist-drbg": [],
    "hqc": ["-DPQLAB_KAT_RNG_HQC"],
    "hqc-2025": ["-DPQLAB_KAT_RNG_HQC", "-DPQLAB_KAT_RNG_HQC_DOMAIN=0"],
}


def rng_flags(scheme: str, impl: str | None = None) -> list[str]:
    """The kat program's flags for the scheme's KAT generator: the NIST AES-256-CTR DRBG by
    default; `rng = "hqc"` in its kat.toml entry selects the HQC submission's SHAKE256 PRNG
    (domain byte 1), `rng = "hqc-2025"` that of the 2025-08-22 reference code (domain byte 0)."""
    refs = load_refs()
    key = ref_key(refs, scheme, impl)
    rng = refs.get(key, {}).get("rng", "nist-drbg")
    if rng not in _RNG_FLAGS:
        raise PqlabError(f"pqlab/data/kat.toml: [{key}] rng = {rng!r} (known: {', '.join(_RNG_FLAGS)})")
    return list(_RNG_FLAGS[rng])


def records(rsp: str) -> list[str]:
    """The records of a .rsp text in order, each as its lines with '\\n' after every line."""
    out: list[str] = []
    cur: list[str] | None = None
    for line in rsp.splitlines():
        if line.startswith("count = "):
            if cur is not None:
                out.append("".join(cur))
            cur = []
        elif not line.strip():
            if cur is not None:
                out.append("".join(cur))
            cur = None
            continue
        if cur is not None:
            cur.append(line + "\n")
    if cur is not None:
        out.append("".join(cur))
    return out


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass
class Verdict:
    verdict: str  # "ok", "FAIL" or "unchecked"
    detail: str


def _field_diff(mine: str, theirs: str) -> str:
    a, b = mine.splitlines(), theirs.splitlines()
    for x, y in zip(a, b):
        if x != y:
            return f"first differing line: {x.split(' = ')[0]!r}"
    return f"{len(a)} lines vs {len(b)} lines"


def _diagnose(index: int, mine: str, ref: dict) -> str:
    """Name the differing field from the official file when it is at hand, else say how to get it."""
    rel = ref.get("rsp")
    if not rel:
        return ""
    try:
        f = external.path("vectors", rel)
    except external.Missing as e:
        return f"; for the differing field, {e}"
    text = f.read_text()
    if "rsp_sha256" in ref and sha256(text) != ref["rsp_sha256"]:
        return f"; {f} is not the published file (SHA-256 differs), not used"
    theirs = records(text)
    return f"; {_field_diff(mine, theirs[index])} (vs {f})" if index < len(theirs) else ""


def check(rsp: str, ref: dict, count: int) -> Verdict:
    """Compare a generated .rsp (``count`` records) with the published references ``ref``."""
    if not ref:
        return Verdict("unchecked", "no reference known for this scheme")
    mine = records(rsp)
    if len(mine) != count:
        return Verdict("FAIL", f"{len(mine)} records in the output, {count} requested")
    hashes = ref.get("record_sha256")
    prefixes = ref.get("rsp_prefix_sha256", {})
    if hashes:
        if "first_record_sha256" in ref and hashes[0] != ref["first_record_sha256"]:
            raise PqlabError("pqlab/data/kat.toml: record_sha256[0] disagrees with first_record_sha256")
        # the official file, or the one whose whole-file hash the per-record ones were derived from
        where = ref.get("rsp") or f"the records of the file in {ref.get('source', 'kat.toml')}"
        n = min(count, len(hashes))
        for i in range(n):
            if sha256(mine[i]) != hashes[i]:
                return Verdict("FAIL", f"record count = {i} differs from {where}{_diagnose(i, mine[i], ref)}")
        detail = f"{n} records match {where} (their SHA-256 in pqlab/data/kat.toml)"
        if count > len(hashes):
            detail += f"; records {len(hashes)}..{count - 1} have no reference"
        # the whole-file hashes published for exactly this many records are checked too
        if str(count) in prefixes:
            h = sha256(rsp)
            if h != prefixes[str(count)]:
                return Verdict(
                    "FAIL",
                    f"records match but the file's SHA-256 {h[:16]}… is not the published one "
                    f"({ref.get('source', 'reference')}): header or layout differs",
                )
            detail += f"; whole-file SHA-256 of {count} record(s) as published ({ref.get('source', 'reference')})"
        if count == len(hashes) and "rsp_sha1" in ref:
            h = hashlib.sha1(rsp.encode()).hexdigest()
            if h != ref["rsp_sha1"]:
                return Verdict(
                    "FAIL",
                    f"records match but the whole file's SHA-1 {h[:16]}… does not "
                    f"({ref['rsp_sha1_source']}): header or layout differs",
                )
            detail += f"; whole-file SHA-1 as published in {ref['rsp_sha1_source']}"
        return Verdict("ok", detail)
    if str(count) in prefixes:
        h = sha256(rsp)
        ok = h == prefixes[str(count)]
        return Verdict(
            "ok" if ok else "FAIL",
            f"file of {count} record(s): sha256 {h[:16]}… vs {ref.get('source', 'reference')}",
        )
    if prefixes and "first_record_sha256" not in ref:
        return Verdict("unchecked", f"references for {', '.join(sorted(prefixes, key=int))} record(s) only")
    if "first_record_sha256" in ref:
        h = sha256(mine[0]) if mine else ""
        ok = h == ref["first_record_sha256"]
        return Verdict("ok" if ok else "FAIL", f"first record sha256 {h[:16]}… vs {ref.get('source', 'reference')}")
    return Verdict("unchecked", "kat.toml entry has no hash to compare with")
