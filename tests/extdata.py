"""The one way tests reach data that is not in the repository (pqlab/external.py, docs/vectors.md).

    from extdata import vectors
    data = json.loads(vectors("acvp/v1.1.0.40/ML-KEM-keyGen-FIPS203/internalProjection.json").read_text())

- The file is there: its path.
- The whole folder is absent (a plain clone): the test is skipped, with one reason per folder
  naming it and the setting that points at it (PQLAB_VECTORS / PQLAB_THIRDPARTY).
- The folder is there but the file is not: the test fails (a partial copy is a broken setup).
- PQLAB_REQUIRE_EXTERNAL=1 (set by .ci/run): a missing folder fails too, so CI never skips.

Call it inside the test (or a fixture), not at import time: a skip outside a test would skip
the whole module, including its tests that need no external data. For parameters read
from a file at collection time, use :func:`vectors_params`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

from pqlab import external

REQUIRE_ENV = "PQLAB_REQUIRE_EXTERNAL"


def required() -> bool:
    return os.environ.get(REQUIRE_ENV, "") not in ("", "0")


def _base(kind: str) -> tuple[Path, str]:
    if kind == "vectors":
        return external.vectors_dir(), external.VECTORS_ENV
    return external.thirdparty_dir(), external.THIRDPARTY_ENV


def skip_reason(kind: str) -> str | None:
    """Why tests needing ``kind`` are skipped here, or None when they run (or must run)."""
    base, env = _base(kind)
    if base.is_dir() or required():
        return None
    return f"external {kind} not found at {base}: set {env} to their folder to run this (docs/vectors.md)"


def _find(kind: str, rel: str) -> Path:
    base, _ = _base(kind)
    p = base / rel
    if p.exists():
        return p
    reason = skip_reason(kind)
    if reason:
        pytest.skip(reason)
    why = f" ({REQUIRE_ENV} is set)" if required() and not base.is_dir() else ""
    pytest.fail(external.missing_message(kind, rel) + why, pytrace=False)


def vectors(rel: str) -> Path:
    """A file of the external test vectors (path relative to PQLAB_VECTORS)."""
    return _find("vectors", rel)


def thirdparty(rel: str) -> Path:
    """A file of the external third-party trees (path relative to PQLAB_THIRDPARTY)."""
    return _find("thirdparty", rel)


def vectors_params(rel: str, make: Callable[[Path], Iterable], width: int = 1) -> list:
    """Parameters computed from an external vector file at collection time.

    Without the vectors: one parameter set of ``width`` Nones, skipped with the common reason,
    or (when required, or when the folder is there but not the file) failed at set-up.
    """
    base, _ = _base("vectors")
    p = base / rel
    if p.exists():
        return list(make(p))
    reason = skip_reason("vectors")
    if reason:
        mark = pytest.mark.skip(reason=reason)
    else:  # conftest.py fails the test at set-up with this message
        mark = pytest.mark.external_missing(external.missing_message("vectors", rel))
    values = [None] * width
    return [pytest.param(*values, marks=mark, id="vectors-missing")]


PQM4_TARBALL = "pqm4-cc2c1b9.tar.gz"


def pqm4_tree(dest: Path) -> Path:
    """pqm4 (with mupq and PQClean) extracted under `dest`, its relative symbolic links kept;
    skipped or failed like every external file when the tarball is absent."""
    import tarfile

    with tarfile.open(thirdparty(PQM4_TARBALL)) as tf:
        tf.extractall(dest, filter="tar")
    return dest / "pqm4"
