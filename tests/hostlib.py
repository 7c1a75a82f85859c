"""Build pqlab C sources into a host shared library for ctypes-based unit tests.

Unit and differential tests of the C library call it through ctypes; this keeps
them independent of the target harness. Libraries are cached under
build/tests/ by a hash of the sources and flags, so repeated runs are cheap.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "build" / "tests"
WARN = ["-Wall", "-Wextra", "-Werror", "-std=c11"]


def build_shared(
    name: str,
    sources: list[str | Path],
    cflags: list[str] | tuple[str, ...] = (),
    include: list[str | Path] | tuple[str | Path, ...] = (),
) -> ctypes.CDLL:
    """Compile `sources` (paths relative to the project root) into lib<name>.so and load it."""
    srcs = [ROOT / s for s in sources]
    incs = [ROOT / "lib" / "common"] + [ROOT / i for i in include]
    digest = hashlib.sha256()
    for s in srcs:
        digest.update(s.read_bytes())
    for d in incs:
        if d.is_dir():
            for h in sorted(d.glob("*.h")):
                digest.update(h.read_bytes())
    digest.update(" ".join(cflags).encode())
    out = CACHE / f"lib{name}-{digest.hexdigest()[:16]}.so"
    if not out.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        tmp = out.with_suffix(f".{os.getpid()}.tmp")
        cmd = ["cc", "-O2", "-fPIC", "-shared", *WARN, *cflags]
        cmd += [f"-I{d}" for d in incs] + [str(s) for s in srcs] + ["-o", str(tmp)]
        res = subprocess.run(cmd, capture_output=True, text=True)
        if res.returncode != 0:
            raise RuntimeError(f"host build failed: {' '.join(cmd)}\n{res.stderr}")
        tmp.replace(out)
    return ctypes.CDLL(str(out))
