"""Campaign: the functional tests over a whole corpus (every implementation under the --impl-path
roots, e.g. pqm4 with its mupq and PQClean) and a summary of what passed and why the rest did not.

Each (implementation, platform) pair gets one status with a one-line cause taken from the build
or the run: `ok`, `build-failed` (the compiler's or linker's first error), `test-failed` (the
names of the failed checks), `crashed` (a fault or a truncated run), `timeout`, `run-failed`
(anything else the runner reported), or `not-for-platform` (PQClean's META.yml restricts the
folder to other architectures: not built, not run, but listed).

Every row also records its time: the wall and CPU seconds of its build (`pqlab campaign` builds
each folder in its own ninja run, jobs.execute's `build_each`) and of its test run. CPU time is
user + system time of the processes (the compilers, the runner), from the kernel's accounting;
on a shared machine it is the figure that does not depend on the load. None: not measured (not
built, not run). The JSON output carries the campaign's context beside the rows (`context`).
"""

from __future__ import annotations

import json
import os
import re
import socket
import time
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
    build_wall: float | None = None  # seconds of this folder's build (ninja), wall clock
    build_cpu: float | None = None  # its CPU seconds (user + system of ninja and the compilers)
    run_wall: float | None = None  # seconds of the test run, wall clock
    run_cpu: float | None = None  # its CPU seconds (the runner: simulator, QEMU or the program)


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
    b = o.data.get("build")
    # a build step shared by several folders (jobs.execute without build_each) has no per-folder time
    own = b is not None and b.step_impls == 1
    times = {
        # milliseconds: an up-to-date ninja finishes in a few, which two decimals would print as 0
        "build_wall": round(b.step_wall, 3) if own else None,
        "build_cpu": round(b.step_cpu, 3) if own and b.step_cpu is not None else None,
        "run_wall": None if o.run_wall is None else round(o.run_wall, 3),
        "run_cpu": None if o.run_cpu is None else round(o.run_cpu, 3),
    }

    def row(status: str, cause: str) -> Row:
        return Row(o.impl.scheme, o.impl.name, o.plat.name, status, cause, **times)

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


def _sum(rows: list[Row], name: str) -> float | None:
    """The sum of a time over the rows that have it; None when none has."""
    vals = [getattr(r, name) for r in rows if getattr(r, name) is not None]
    return round(sum(vals), 2) if vals else None


def _s(x: float | None) -> str:
    return "-" if x is None else f"{x:,.1f}"


def context(
    jobs: int, started: float, load_start: tuple[float, float, float], state: tuple[str, int], partial: bool = False
) -> dict:
    """What a campaign ran on and when (the JSON's `context`): host, jobs, start and end (UTC),
    its wall time and the load average at its start and end (a shared machine's wall times
    depend on it; CPU times do not), pqlab's commit at the start (`state`: results.git_state());
    `partial`: written while it still runs (the end is the last row's)."""
    end = time.time()
    commit, dirty = state
    return {
        "host": socket.gethostname(),
        "cpus": os.cpu_count(),
        "jobs": jobs,
        "start_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started)),
        "end_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(end)),
        "wall": round(end - started, 1),
        "load_start": list(load_start),
        "load_end": list(os.getloadavg()),
        "pqlab": {"commit": commit, "dirty": bool(dirty)},
        "partial": partial,
    }


def totals(rows: list[Row]) -> dict:
    """The rows' summed times (measured; a row without a figure adds nothing)."""
    return {f: _sum(rows, f) for f in ("build_wall", "build_cpu", "run_wall", "run_cpu")}


def markdown(rows: list[Row], ctx: dict | None = None) -> str:
    counts = Counter(r.status for r in rows)
    t = totals(rows)
    out = [
        f"### Campaign: {len(rows)} implementation runs",
        "",
        "| status | count |",
        "|---|--:|",
        *(f"| {s} | {counts[s]} |" for s in STATUSES if counts[s]),
        "",
        f"Times (measured, seconds): build {_s(t['build_wall'])} wall / {_s(t['build_cpu'])} CPU, "
        f"test runs {_s(t['run_wall'])} wall / {_s(t['run_cpu'])} CPU, summed over the rows"
        + (
            f"; {'partial: ' if ctx.get('partial') else ''}the campaign took {ctx['wall']:,.1f} s wall with -j {ctx['jobs']}, load average "
            f"{ctx['load_start'][0]:.1f} at its start and {ctx['load_end'][0]:.1f} at its end"
            if ctx
            else ""
        )
        + ".",
        "",
        "| scheme | implementation | platform | status | cause | build s (wall / CPU) | run s (wall / CPU) |",
        "|---|---|---|---|---|--:|--:|",
    ]
    order = {s: i for i, s in enumerate(STATUSES)}
    for r in sorted(rows, key=lambda r: (order[r.status], r.scheme, r.implementation, r.platform)):
        out.append(
            f"| {r.scheme} | {r.implementation} | {r.platform} | {r.status} | {r.cause} | "
            f"{_s(r.build_wall)} / {_s(r.build_cpu)} | {_s(r.run_wall)} / {_s(r.run_cpu)} |"
        )
    return "\n".join(out) + "\n"


def to_json(rows: list[Row], ctx: dict | None = None) -> str:
    counts = Counter(r.status for r in rows)
    doc = {"counts": {s: counts[s] for s in STATUSES}, "totals": totals(rows), "runs": [asdict(r) for r in rows]}
    if ctx:
        doc = {"context": ctx, **doc}
    return json.dumps(doc, indent=1)
