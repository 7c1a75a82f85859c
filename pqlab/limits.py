"""Time limits of target runs: `--timeout`, or derived from the last run of the same program.

The rule (docs/interfaces.md, "Time limits and interrupts"):

1. `--timeout SECONDS` given: that limit for every run of the command.
2. Else, when this implementation's program ran to completion on this platform before
   (any command, recorded in build/run-times.json): FACTOR times that run's wall time,
   scaled up by the ratio of iterations when the program now does more, and at least
   FLOOR_S seconds (process start, a loaded machine).
3. Else, when another implementation of the same scheme ran that program on this
   platform: SIBLING_FACTOR times the slowest of their last runs (scaled the same way),
   at least FLOOR_S seconds.
4. Else the platform's `timeout_s` (platform.toml), a bound for the slowest known work.

The record is a cache of wall times, like ninja's log of build times, kept beside the
builds whose runs it timed; deleting it only brings back rule 4.
"""

from __future__ import annotations

import datetime as dt
import fcntl
import json
import os
import threading
from pathlib import Path

from pqlab import runner
from pqlab.build import BUILD_ROOT, BuildOptions
from pqlab.platforms import Platform
from pqlab.registry import Implementation
from pqlab.runner import Limit

FACTOR = 10
SIBLING_FACTOR = 50  # another implementation of the scheme: may be much slower (C vs assembly)
FLOOR_S = 30.0
LOG = BUILD_ROOT / "run-times.json"
MAX_ENTRIES = 5000  # the newest are kept: implementations in temporary folders come and go

_lock = threading.Lock()


def set_override(seconds: float | None) -> None:
    """The command's --timeout, for every run (also those started without a Limit)."""
    runner.timeout_override = seconds


def _key(impl: Implementation, plat: Platform, program: str, opts: BuildOptions | None = None) -> str:
    """program with its operation selection (`--ops`): a run of some operations says little
    about the time of all"""
    sel = f"-ops-{'-'.join(sorted(opts.ops))}" if opts is not None and opts.ops else ""
    return f"{plat.name}/{impl.build_key}/{program}{sel}"


def work(program: str, opts: BuildOptions) -> int:
    """The amount of work a program is built for (its iterations, the KAT's record count)."""
    return opts.kat_count if program == "kat" else opts.runs(program)


def _read(path: Path) -> dict:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}  # none yet, or damaged: a cache, rebuilt by the next runs
    return data if isinstance(data, dict) else {}


def _expected(rec, now: int) -> tuple[float, float, int] | None:
    """(expected seconds, recorded seconds, recorded work) of a log entry, None if unusable."""
    try:
        seconds, then = float(rec["seconds"]), max(1, int(rec["work"]))
    except (TypeError, KeyError, ValueError):
        return None
    return seconds * max(1.0, now / then), seconds, then


def limit(impl: Implementation, plat: Platform, program: str, opts: BuildOptions, log: Path | None = None) -> Limit:
    """The time limit of one run by the rule above."""
    if runner.timeout_override is not None:
        return Limit(runner.timeout_override, "--timeout")
    data = _read(log or LOG)
    now = work(program, opts)
    own = _expected(data.get(_key(impl, plat, program, opts)), now)
    if own:
        expected, seconds, then = own
        scaled = f" scaled to {now} iterations from {then}" if now > then else ""
        return Limit(
            round(max(FLOOR_S, FACTOR * expected), 1),
            f"{FACTOR} x the last run's {seconds:.2f} s{scaled}, at least {FLOOR_S:g} s; set with --timeout",
        )
    prefix, suffix = f"{plat.name}/{impl.scheme}/", f"/{program}"
    siblings = [e for k, v in data.items() if k.startswith(prefix) and k.endswith(suffix) and (e := _expected(v, now))]
    if siblings:
        expected = max(e[0] for e in siblings)
        return Limit(
            round(max(FLOOR_S, SIBLING_FACTOR * expected), 1),
            f"first run of this implementation: {SIBLING_FACTOR} x the slowest last run of {program} of another "
            f"{impl.scheme} implementation here ({expected:.2f} s), at least {FLOOR_S:g} s; set with --timeout",
        )
    return Limit(plat.timeout_s, f"timeout_s of platform {plat.name}; no earlier run of this program to go by")


def longest_first(
    pairs: list[tuple[Implementation, Platform]], program: str, opts: BuildOptions, log: Path | None = None
) -> list[tuple[Implementation, Platform]]:
    """`pairs` in the order a campaign should start them so that its slots finish together: the
    pairs without a recorded run first (their time is unknown, possibly long), then the others by
    their last run's wall time, longest first (a long run started last would keep one slot busy
    while the others idle). Ties keep their order."""
    data = _read(log or LOG)
    now = work(program, opts)

    def key(pair) -> float:
        e = _expected(data.get(_key(pair[0], pair[1], program, opts)), now)
        return -float("inf") if e is None else -e[0]

    return sorted(pairs, key=key)


def record(
    impl: Implementation, plat: Platform, program: str, opts: BuildOptions, seconds: float, log: Path | None = None
) -> None:
    """Remember the wall time of a complete run (read-modify-write under a file lock, so
    concurrent pqlab processes do not lose each other's entries)."""
    path = log or LOG
    path.parent.mkdir(parents=True, exist_ok=True)
    with _lock, open(path.with_suffix(".lock"), "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        data = _read(path)
        data[_key(impl, plat, program, opts)] = {
            "seconds": round(seconds, 3),
            "work": work(program, opts),
            "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        }
        if len(data) > MAX_ENTRIES:
            newest = sorted(data, key=lambda k: str(data[k].get("date", "")) if isinstance(data[k], dict) else "")
            data = {k: data[k] for k in newest[-MAX_ENTRIES:]}
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        tmp.replace(path)
