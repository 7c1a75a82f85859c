"""Per-record KAT references derived from a file whose whole-file hash is the published one.

Some KAT references are published only as the SHA-256 of a whole file: Hawk's
PQCsignKAT_184/360.rsp (100 records), HQC 2025's files cut after 1, 10 and 100 records.
A run on a slow target affords a few records, which such a hash cannot check. Given a file
of all N records whose SHA-256 equals the published one, the SHA-256 of each of its records
is as much a published fact as the file: any other file of the same records would have
another hash. This module generates that file on the host with the implementation named by
the kat.toml entry (pqlab's own, or a dropped-in one with --impl-path), checks its SHA-256
(and every other published prefix of it) and refuses on any difference; then it records
the per-record hashes (``record_sha256``) with their provenance (``record_source``) in
pqlab/data/kat.toml, or checks that the recorded ones are these.

Usage:
    python -m pqlab.katderive ENTRY... [--impl-path DIR] [--write]

ENTRY is a kat.toml key: ``hawk-512``, ``hqc-128/ref2025``, ``hawk512`` (with --impl-path
to mupq's crypto_sign folder's parent). Without ``scheme/impl`` the implementation is
``ref``. Without --write, the command only compares with kat.toml (status 1 when it
differs); tests/test_katderive.py re-derives every derived entry this way (-m slow).
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from pathlib import Path

from pqlab import PqlabError, katref

SOURCE_PREFIX = "derived by pqlab (python -m pqlab.katderive)"


def whole_file(ref: dict, key: str) -> tuple[int, str]:
    """The largest record count with a published whole-file SHA-256 in the entry, and that hash."""
    prefixes = ref.get("rsp_prefix_sha256", {})
    if not prefixes:
        raise PqlabError(f"pqlab/data/kat.toml: [{key}] has no whole-file hash (rsp_prefix_sha256) to derive from")
    n = max(int(k) for k in prefixes)
    return n, prefixes[str(n)]


def derive(text: str, ref: dict, key: str) -> list[str]:
    """The SHA-256 of every record of `text`, a generated .rsp; refused unless the file's
    SHA-256 is the entry's published whole-file hash and every other published prefix
    (the file cut after its first k records) matches too."""
    n, published = whole_file(ref, key)
    recs = katref.records(text)
    if len(recs) != n:
        raise PqlabError(f"[{key}]: the generated file has {len(recs)} records, the published hash is of {n}")
    got = katref.sha256(text)
    if got != published:
        raise PqlabError(
            f"[{key}]: refused: the generated file's SHA-256 {got} is not the published {published} "
            f"({ref.get('source', 'no source')}); no per-record hashes derived"
        )
    header = text[: text.index("count = ")]
    for k, h in ref.get("rsp_prefix_sha256", {}).items():
        cut = header + "".join(r + "\n" for r in recs[: int(k)])
        if katref.sha256(cut) != h:
            raise PqlabError(
                f"[{key}]: refused: the file cut after {k} records does not have the published SHA-256 {h}"
            )
    return [katref.sha256(r) for r in recs]


def provenance(ref: dict, key: str) -> str:
    n, published = whole_file(ref, key)
    return (
        f"{SOURCE_PREFIX} from a host-generated file of {n} records whose whole-file SHA-256 "
        f"{published} equals the published one ({ref.get('source', 'no source')})"
    )


def _table_span(lines: list[str], key: str) -> tuple[int, int]:
    """Line range [start, end) of the table ``["key"]`` (kat.toml: tables end at a blank line)."""
    head = f'["{key}"]'
    try:
        start = lines.index(head)
    except ValueError:
        raise PqlabError(f"pqlab/data/kat.toml: no entry [{key}]") from None
    end = start + 1
    while end < len(lines) and lines[end].strip():
        end += 1
    return start, end


def with_records(toml_text: str, key: str, hashes: list[str], source: str) -> str:
    """kat.toml's text with the entry's record_sha256 and record_source replaced (or added)."""
    lines = toml_text.split("\n")
    start, end = _table_span(lines, key)
    body: list[str] = []
    i = start + 1
    while i < end:
        ln = lines[i]
        if ln.startswith("record_sha256 = ["):
            while not lines[i].startswith("]"):
                i += 1
        elif not ln.startswith("record_source = "):
            body.append(ln)
        i += 1
    body.append(f'record_source = "{source}"')
    body += ["record_sha256 = [", *(f'  "{h}",' for h in hashes), "]"]
    out = "\n".join(lines[: start + 1] + body + lines[end:])
    parsed = tomllib.loads(out)[key]
    if parsed["record_sha256"] != hashes or parsed["record_source"] != source:
        raise PqlabError(f"pqlab/data/kat.toml: rewriting [{key}] did not give the derived values")
    return out


def generate(key: str, impl_path: list[Path], jobs: int = 1) -> str:
    """The entry's whole KAT file generated on the host by its implementation."""
    from pqlab import jobs as J
    from pqlab.build import BuildOptions
    from pqlab.platforms import get_platform
    from pqlab.registry import discover, select

    ref = katref.load_refs().get(key)
    if ref is None:
        raise PqlabError(f"pqlab/data/kat.toml: no entry [{key}]")
    n, _ = whole_file(ref, key)
    scheme, _, impl = key.partition("/")
    chosen = select(discover(impl_path), [scheme], [impl or "ref"])
    (out,) = J.execute(J.pairs(chosen, [get_platform("host")]), "kat", jobs, BuildOptions(kat_count=n))
    if not out.ok:
        raise PqlabError(f"[{key}]: the KAT program of {out.impl.id} on host failed: {out.error}")
    return J.kat_text(out.output)


def derived_keys(refs: dict[str, dict]) -> list[str]:
    """The kat.toml entries whose per-record hashes were derived by this module."""
    return [k for k, r in refs.items() if r.get("record_source", "").startswith(SOURCE_PREFIX)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m pqlab.katderive", description=__doc__.split("\n\n")[0])
    ap.add_argument("entries", nargs="+", metavar="ENTRY", help="kat.toml keys, e.g. hawk-512, hqc-128/ref2025")
    ap.add_argument("--impl-path", action="append", default=[], type=Path, help="root of dropped-in folders")
    ap.add_argument("--write", action="store_true", help="record the derived hashes in pqlab/data/kat.toml")
    args = ap.parse_args(argv)
    status = 0
    try:
        for key in args.entries:
            ref = katref.load_refs().get(key, {})
            hashes = derive(generate(key, args.impl_path), ref, key)
            if args.write:
                text = with_records(katref.KAT_TOML.read_text(), key, hashes, provenance(ref, key))
                katref.KAT_TOML.write_text(text)
                print(f"[{key}]: {len(hashes)} record hashes written")
            elif ref.get("record_sha256") == hashes:
                print(f"[{key}]: the {len(hashes)} record hashes in kat.toml are the derived ones")
            else:
                print(f"[{key}]: kat.toml's record hashes differ from the derived ones (--write to record them)")
                status = 1
    except PqlabError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return status


if __name__ == "__main__":
    sys.exit(main())
