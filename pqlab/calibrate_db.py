"""`pqlab calibrate --from-db`: the simulator's error per operation against board runs
already in the results database.

A pair is a board run and a simulator run of the same build of the same implementation:
same scheme, implementation, implementation folder, core, compiler and compiler version,
toolchain, pqlab commit (neither with uncommitted changes) and the same compiler flags once
the flags that only select the platform's I/O are set aside (`-DPQLAB_*`, which the
implementation's sources do not read: the serial HAL, the driver's buffer size). The
implementation's object code is then the same on both; only the HAL and the link differ.
Board runs are those whose timer is the DWT cycle counter under a serial (flashed) runner:
measured. Simulator runs are those of the pqlab-sim runner, with their timing model:
modelled. For every operation both sides' newest `speed` runs give a median; the error is
(model - board) / board.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from pathlib import Path

from pqlab import PqlabError
from pqlab.results import Store

SAME_BUILD = ("scheme", "implementation", "impl_dir", "core", "compiler", "compiler_version", "toolchain")


def code_flags(cflags: str) -> tuple[str, ...]:
    return tuple(f for f in cflags.split() if not f.startswith("-DPQLAB_"))


def is_board(r: dict) -> bool:
    return r["runner"] == "serial" and r["timer"] == "dwt" and r["unit"] == "cycles"


def is_sim(r: dict) -> bool:
    return r["runner"] == "pqlab-sim" and bool(r["model"])


def _runs(db: Path, schemes) -> dict[int, dict]:
    """Every stored speed run (newest per scheme, implementation, platform, toolchain) with its
    per-operation values."""
    store = Store(db, readonly=True)
    try:
        rows = [r for r in store.latest(schemes=schemes) if r["metric"] == "speed"]
    finally:
        store.close()
    runs: dict[int, dict] = {}
    for r in rows:
        run = runs.setdefault(r["id"], {**{k: v for k, v in r.items() if k not in ("operation", "value", "idx")}})
        run.setdefault("ops", defaultdict(list))[r["operation"]].append(r["value"])
    return runs


def from_db(db: Path, schemes=()) -> dict:
    runs = _runs(db, schemes)
    boards = [r for r in runs.values() if is_board(r)]
    sims = [r for r in runs.values() if is_sim(r)]
    if not boards:
        raise PqlabError(
            f"no board runs (serial runner, DWT cycles) in {db}: run `pqlab bench -p <board>` first (docs/boards.md)"
        )

    def key(r: dict) -> tuple:
        return (*(r[k] for k in SAME_BUILD), r["pqlab_commit"], code_flags(r["cflags"]))

    by_key = defaultdict(list)
    for s in sims:
        if not s["dirty"]:
            by_key[key(s)].append(s)
    rows, unmatched = [], []
    for b in sorted(boards, key=lambda r: (r["scheme"], r["implementation"], r["platform"])):
        twins = [] if b["dirty"] else by_key.get(key(b), [])
        if not twins:
            why = "uncommitted changes at the board run" if b["dirty"] else "no simulator run of the same build"
            unmatched.append(
                {"scheme": b["scheme"], "implementation": b["implementation"], "board": b["platform"], "why": why}
            )
            continue
        for s in sorted(twins, key=lambda r: r["platform"]):
            for op in b["ops"]:
                if op not in s["ops"]:
                    continue
                measured = statistics.median(b["ops"][op])
                modelled = statistics.median(s["ops"][op])
                rows.append(
                    {
                        "scheme": b["scheme"],
                        "implementation": b["implementation"],
                        "operation": op,
                        "board": b["platform"],
                        "board_cycles": measured,
                        "board_kind": "measured",
                        "board_runs": len(b["ops"][op]),
                        "simulator": s["platform"],
                        "model": s["model"],
                        "sim_cycles": modelled,
                        "sim_kind": "modelled",
                        "error_pct": 100.0 * (modelled - measured) / measured if measured else float("nan"),
                    }
                )
    summary = {}
    for sim in dict.fromkeys(r["simulator"] for r in rows):
        errs = [abs(r["error_pct"]) for r in rows if r["simulator"] == sim]
        summary[sim] = {"points": len(errs), "mae_pct": statistics.fmean(errs), "max_abs_pct": max(errs)}
    return {"database": str(db), "rows": rows, "unmatched": unmatched, "summary": summary}


def table(res: dict) -> str:
    lines = [
        "| scheme | implementation | operation | board | board cycles (measured) | simulator | model cycles (modelled) | error % |",
        "|---|---|---|---|--:|---|--:|--:|",
    ]
    for r in res["rows"]:
        lines.append(
            f"| {r['scheme']} | {r['implementation']} | {r['operation']} | {r['board']} | {r['board_cycles']:,.0f} | "
            f"{r['simulator']} | {r['sim_cycles']:,.0f} | {r['error_pct']:+.2f} |"
        )
    lines.append("")
    for sim, s in res["summary"].items():
        lines.append(
            f"{sim}: {s['points']} operations, error mean abs {s['mae_pct']:.2f}% (max {s['max_abs_pct']:.2f}%)"
        )
    for u in res["unmatched"]:
        lines.append(f"not compared: {u['scheme']} {u['implementation']} on {u['board']}: {u['why']}")
    if not res["rows"]:
        lines.append(
            "no pair of a board run and a simulator run of the same build: run `pqlab bench` on the "
            "simulator of the board's core (m4-sim, m7-sim) from the same commit"
        )
    return "\n".join(lines) + "\n"
