"""Data that a clone of pqlab does not carry, and how it is found.

Two folders hold it, each located by one setting (docs/vectors.md):

- the official test vectors too large to ship (NIST ACVP JSON, Wycheproof, the Falcon
  round-3 KAT files): ``PQLAB_VECTORS``;
- third-party source trees used for compatibility and calibration work: ``PQLAB_THIRDPARTY``.

Without the setting, each defaults to a folder ``shared/vectors`` or ``shared/thirdparty``
beside the checkout (the layout of the project's own machines and CI). Nothing here is
needed by ``pqlab kat``: its references are hashes in pqlab/data/kat.toml. A check that
does need a file and cannot find it stops with :class:`Missing`, whose message names the
file, where it comes from and the setting that points at it.
"""

from __future__ import annotations

import os
from pathlib import Path

from pqlab import ROOT, PqlabError

VECTORS_ENV = "PQLAB_VECTORS"
THIRDPARTY_ENV = "PQLAB_THIRDPARTY"

# Where each top-level folder of the external data comes from (upstream, not a mirror we own).
SOURCES: dict[str, str] = {
    "acvp": "NIST ACVP-Server JSON files (github.com/usnistgov/ACVP-Server, gen-val/json-files/; "
    "release named by the subfolder)",
    "wycheproof": "C2SP Wycheproof (github.com/C2SP/wycheproof, testvectors_v1/, Apache-2.0)",
    "falcon-round3": "the Falcon round-3 NIST submission package (falcon-sign.info, falcon-round3.zip: "
    "KAT/ and Supporting_Documentation/, MIT)",
    "fn-dsa-pornin": "vectors extracted from pornin/c-fn-dsa and pornin/rust-fn-dsa test sources (Unlicense)",
    "pqm4-cc2c1b9.tar.gz": "github.com/mupq/pqm4 at cc2c1b9 with its submodules mupq and PQClean",
    "falcon-round3-code.tar.gz": "the code folders of the Falcon round-3 NIST submission package",
}


def _dir(env: str, default: Path) -> Path:
    value = os.environ.get(env)
    return Path(value).expanduser() if value else default


def vectors_dir() -> Path:
    """The folder of external test vectors: $PQLAB_VECTORS, else ../shared/vectors."""
    return _dir(VECTORS_ENV, ROOT.parent / "shared" / "vectors")


def thirdparty_dir() -> Path:
    """The folder of third-party source trees: $PQLAB_THIRDPARTY, else ../shared/thirdparty."""
    return _dir(THIRDPARTY_ENV, ROOT.parent / "shared" / "thirdparty")


class Missing(PqlabError):
    """A file of the external data that a check needs is not there."""


def source_of(rel: str) -> str:
    """Where the file ``rel`` (relative to its external folder) comes from."""
    return SOURCES.get(Path(rel).parts[0], "see docs/vectors.md")


def missing_message(kind: str, rel: str) -> str:
    """One sentence naming the missing file, where to get it and the setting to point at it."""
    base, env = (vectors_dir(), VECTORS_ENV) if kind == "vectors" else (thirdparty_dir(), THIRDPARTY_ENV)
    where = f"{base} does not exist" if not base.is_dir() else f"{base / rel} is missing"
    return (
        f"needs {kind} file {rel} ({source_of(rel)}): {where}; set {env} to the folder that holds it (docs/vectors.md)"
    )


def path(kind: str, rel: str) -> Path:
    """The external file ``rel`` of ``kind`` ('vectors' or 'thirdparty'), or :class:`Missing`."""
    if kind not in ("vectors", "thirdparty"):
        raise ValueError(f"unknown external data kind {kind!r}")
    base = vectors_dir() if kind == "vectors" else thirdparty_dir()
    p = base / rel
    if not p.exists():
        raise Missing(missing_message(kind, rel))
    return p
