"""Build pqlab C sources into a host shared library for ctypes-based unit tests.

Unit and differential tests of the C library call it through ctypes; this keeps
them independent of the target harness. The library is built by pqlab's own build
(pqlab.build.build_program, kind "shared": the host platform's compiler and flags)
under build/tests/<name>-<hash of the source list and flags>/, where ninja rebuilds
only what changed.
"""

from __future__ import annotations

import ctypes
import hashlib
from pathlib import Path

import firmware

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "build" / "tests"


def build_shared(
    name: str,
    sources: list[str | Path],
    cflags: list[str] | tuple[str, ...] = (),
    include: list[str | Path] | tuple[str | Path, ...] = (),
) -> ctypes.CDLL:
    """Compile `sources` (paths relative to the project root) into a shared library and load it."""
    srcs = [ROOT / s for s in sources]
    incs = [ROOT / i for i in include]
    key = "\0".join(map(str, [*srcs, "--", *cflags, "--", *incs]))
    out_dir = CACHE / f"{name}-{hashlib.sha256(key.encode()).hexdigest()[:16]}"
    return ctypes.CDLL(str(firmware.build("host", out_dir, srcs, include=incs, cflags=cflags, kind="shared")))
