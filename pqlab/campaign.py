"""Campaign: the functional tests over a whole corpus (every implementation under the --impl-path
roots, e.g. pqm4 with its mupq and PQClean) and a summary of what passed and why the rest did not.

Each (implementation, platform) pair gets one status with a one-line cause taken from the build
or the run: `ok`, `build-failed` (the compiler's or linker's first error), `test-failed` (the
names of the failed checks), `crashed` (a fault or a truncated run), `timeout`, `run-failed`
(anything else the runner reported), or `not-for-platform` (PQClean's META.yml restricts the
folder to other architectures: not built, not run, but listed).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import asdict, dataclass

from pqlab.jobs import Outcome
from pqlab.platforms import Platform
from pqlab.registry import Implementation

STATUSES = ("ok", "build-failed", "test-failed", "crashed", "timeout", "run-failed", "not-for-platform")
# PQClean META.yml architecture names -> pqlab platform `arch`
_META_ARCH = {"x86_64": "x86_64", "arm_8": "aarch64"}
_BUILD_ERROR = re.compile(
    r"(error: .*|undefined reference to .*|multiple definition of [^;]*|region .* overflowed.*|"
    r"fatal error: .*|Error: .*)"
)
_PATH = re.compile(r"[^\s:'`\"()]*/")  # a token's directories


@dataclass(frozen=True)
class Row:
    scheme: str
    implementation: str
    platform: str
    status: str
    cause: str


def _short(line: str, limit: int = 160) -> str:
    """One line without directories (file names stay), at most `limit` characters."""
    line = _PATH.sub("", line.strip()).replace("|", "/")
    return line if len(line) <= limit else line[: limit - 3] + "..."


def meta_architectures(impl: Implementation) -> list[str] | None:
    """The architectures PQClean's META.yml (beside the implementation folders) lists under the
    implementation's `supported_platforms`, as pqlab arch names; None when it lists none (portable
    code). pqm4's build leaves such folders out by name (avx2, aarch64, ...); this reads why."""
    meta = impl.dir.parent / "META.yml"
    if not meta.is_file():
        return None
    arches: list[str] = []
    inside = False
    for line in meta.read_text(errors="replace").splitlines():
        m = re.match(r"\s*-\s*name:\s*(\S+)\s*$", line)
        if m:
            inside = m.group(1) == impl.name
            continue
        m = re.match(r"\s*-?\s*architecture:\s*(\S+)\s*$", line)
        if inside and m:
            arches.append(_META_ARCH.get(m.group(1), m.group(1)))
    return arches or None


def not_for_platform(impl: Implementation, plat: Platform) -> Row | None:
    arches = meta_architectures(impl)
    if arches is None or plat.arch in arches:
        return None
    return Row(impl.scheme, impl.name, plat.name, "not-for-platform", f"META.yml: {', '.join(arches)} only")


def classify(o: Outcome) -> Row:
    def row(status: str, cause: str) -> Row:
        return Row(o.impl.scheme, o.impl.name, o.plat.name, status, cause)

    if o.ok:
        return row("ok", f"{len(o.output.of('test')) if o.output else 0} checks")
    err = o.error or ""
    first = err.splitlines()[0] if err else "no error message"
    if err.startswith("build of "):
        for line in err.splitlines():
            if _BUILD_ERROR.search(line):
                return row("build-failed", _short(line))
        return row("build-failed", _short(next((x for x in err.splitlines() if x.startswith("FAILED:")), first)))
    if err.startswith("timeout after"):
        return row("timeout", _short(first))
    m = re.search(r"failed checks: (.*)", err)
    if m:
        names = [c.removesuffix(" fail") for c in m.group(1).split(", ")]
        return row("test-failed", _short(", ".join(names)))
    fault = re.search(r"(HardFault[^\\']*|#fault[^\\']*|Lockup[^\\']*)", err)
    if fault:
        return row("crashed", _short(fault.group(1)))
    if "missing '#end'" in err or "target fault" in err:
        return row("crashed", _short(first))
    return row("run-failed", _short(first))


def markdown(rows: list[Row]) -> str:
    counts = Counter(r.status for r in rows)
    out = [
        f"### Campaign: {len(rows)} implementation runs",
        "",
        "| status | count |",
        "|---|--:|",
        *(f"| {s} | {counts[s]} |" for s in STATUSES if counts[s]),
        "",
        "| scheme | implementation | platform | status | cause |",
        "|---|---|---|---|---|",
    ]
    order = {s: i for i, s in enumerate(STATUSES)}
    for r in sorted(rows, key=lambda r: (order[r.status], r.scheme, r.implementation, r.platform)):
        out.append(f"| {r.scheme} | {r.implementation} | {r.platform} | {r.status} | {r.cause} |")
    return "\n".join(out) + "\n"


def to_json(rows: list[Row]) -> str:
    counts = Counter(r.status for r in rows)
    return json.dumps({"counts": {s: counts[s] for s in STATUSES}, "runs": [asdict(r) for r in rows]}, indent=1)
