"""`pqlab calibrate --pqm4`: pqlab-sim's Cortex-M4 model against pqm4's whole published corpus.

pqm4 (the tarball ../shared/thirdparty/pqm4-cc2c1b9.tar.gz, docs/pqm4-corpus.md) is extracted
at run time; each implementation's `speed` firmware is built by pqm4's own make for its
`mps2-an386` platform (pqm4's HAL, start-up code, hashing, newlib), with the compiler whose
code sizes are pqm4's published ones (the Arm GNU Toolchain 13.2.1, driven by pqlab/pqm4cc.py),
run unmodified on m4-sim, and its printed cycle counts are compared with pqm4's benchmarks.md
(NUCLEO-L4R5ZI at 20 MHz, zero flash wait states).

Two deviations from pqm4's own mps2-an386 build, both stated in every result: `MPS2_DATA_IN_FLASH`
is cleared, so .data/.bss are in SRAM as on pqm4's board (pqm4 puts them in the code region,
which QEMU maps as RAM but pqlab-sim treats as the board's read-only flash), and the link uses
the platform's newlib (Debian's build of the same newlib).

The simulator runs with the memory set-up of pqm4's board (`--memory stm32l4r5`, model m4-v7,
docs/sim.md "Model m4-v7"): its flash and SRAM1/SRAM2/SRAM3 blocks, with pqm4's board layout
(.data/.bss at the bottom of the 640 KiB, the stack at the top), in which loads and stores
pipeline only within one block.

Deterministic points: an operation counts when pqm4's published spread (max - min) over its
executions is at most SPREAD_PCT of the mean and, when more than one run was simulated, the
simulated spread too. Rejection sampling (signing, keygen samplers) shows as spread; such
points are listed but not counted.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from pqlab import ROOT, PqlabError
from pqlab.platforms import Platform, simulator_model
from pqlab.runner import command
from pqlab.toolchains import CACHE, arm_gnu_spec, reference_compiler

TARBALL = "pqm4-cc2c1b9.tar.gz"
SPREAD_PCT = 0.1
GOAL_MAE_PCT = 1.5
GOAL_MAX_PCT = 3.0
KIND_OPS = {"kem": ("keypair", "encaps", "decaps"), "sign": ("keypair", "sign", "verify")}
SEARCH = ("crypto_{k}", "mupq/crypto_{k}", "mupq/pqclean/crypto_{k}")  # pqm4's search order
DEFAULT_WORK = ROOT / "build" / "pqm4-calibration"
CELL = re.compile(r"AVG:\s*([\d,]+)\s*<br />\s*MIN:\s*([\d,]+)\s*<br />\s*MAX:\s*([\d,]+)")


@dataclass
class Published:
    kind: str
    scheme: str
    impl: str
    executions: int
    ops: dict[str, tuple[int, int, int]]  # op -> (mean, min, max)
    text: int | None = None


@dataclass
class Result:
    kind: str
    scheme: str
    impl: str
    folder: str = ""
    status: str = "ok"  # ok | build-failed | run-failed | not-found
    detail: str = ""
    runs: dict[str, list[int]] = field(default_factory=dict)
    text: int | None = None
    seconds_build: float = 0.0
    seconds_run: float = 0.0
    instructions: int = 0
    checked: bool = False  # long operations re-run in pqlab-sim's profiling loop (WRAP_CHECK)


def _int(s: str) -> int:
    return int(s.replace(",", ""))


def parse_benchmarks(md: str) -> list[Published]:
    """pqm4's benchmarks.md: the speed tables (AVG/MIN/MAX cells) and the size tables."""
    out: dict[tuple[str, str, str], Published] = {}
    section = kind = ""
    for line in md.splitlines():
        if line.startswith("# "):
            section = line[2:].strip()
            continue
        if line.startswith("## "):
            kind = "kem" if "Encapsulation" in line else "sign"
            continue
        if not line.startswith("|") or line.startswith("| -") or line.lower().startswith("| scheme"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if section == "Speed Evaluation" and len(cells) == 5:
            m = re.match(r"(\S+) \((\d+) executions?\)", cells[0])
            if not m:
                raise PqlabError(f"benchmarks.md: unexpected scheme cell {cells[0]!r}")
            ops = {}
            for op, cell in zip(KIND_OPS[kind], cells[2:]):
                c = CELL.search(cell)
                if c:
                    ops[op] = (_int(c.group(1)), _int(c.group(2)), _int(c.group(3)))
            out[(kind, m.group(1), cells[1])] = Published(kind, m.group(1), cells[1], int(m.group(2)), ops)
        elif section == "Size Evaluation" and len(cells) == 6:
            p = out.get((kind, cells[0], cells[1]))
            if p is not None:
                p.text = _int(cells[2])
    if not out:
        raise PqlabError("benchmarks.md: no speed rows found")
    return list(out.values())


def extract(tarball: Path, work: Path) -> Path:
    """pqm4/ of the tarball in `work` (extracted once; symbolic links kept, as pqm4 needs)."""
    root = work / "pqm4"
    stamp = work / ".extracted"
    if root.is_dir() and stamp.exists() and stamp.read_text() == str(tarball.stat().st_size):
        return root
    shutil.rmtree(root, ignore_errors=True)
    work.mkdir(parents=True, exist_ok=True)
    with tarfile.open(tarball, "r:gz") as tf:
        tf.extractall(work, filter="tar")
    if not (root / "Makefile").exists() or not (root / "benchmarks.md").exists():
        raise PqlabError(f"{tarball}: no pqm4/Makefile or pqm4/benchmarks.md")
    stamp.write_text(str(tarball.stat().st_size))
    return root


def find_folder(root: Path, p: Published) -> str | None:
    for pat in SEARCH:
        rel = f"{pat.format(k=p.kind)}/{p.scheme}/{p.impl}"
        if (root / rel).is_dir():
            return rel
    return None


def driver(work: Path, cc: str, ld: str) -> tuple[Path, dict[str, str]]:
    """The CC/LD script for pqm4's make and its environment (pqlab/pqm4cc.py)."""
    script = work / "pqm4cc.sh"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m pqlab.pqm4cc "$@"\n')
    script.chmod(0o755)
    proc = subprocess.run([ld, "-xc", "-E", "-v", "-o", os.devnull, os.devnull], capture_output=True, text=True)
    dirs = [Path(x.strip()) for x in proc.stderr.splitlines() if x.startswith(" /")]
    found = [d for d in dirs if (d / "newlib.h").exists()]
    if not found:
        raise PqlabError(f"no newlib headers (newlib.h) on {ld}'s include path: install libnewlib-arm-none-eabi")
    newlib = str(found[0].resolve())
    env = dict(os.environ)
    env.update(
        PQLAB_PQM4_CC=cc,
        PQLAB_PQM4_LD=ld,
        PQLAB_PQM4_NEWLIB=newlib,
        PYTHONPATH=os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]),
    )
    return script, env


def make_args(script: Path, folder: str, iterations: int) -> list[str]:
    return [
        "make",
        "-j1",
        "PLATFORM=mps2-an386",
        "MPS2_DATA_IN_FLASH=",
        f"MUPQ_ITERATIONS={iterations}",
        f"CC={script}",
        f"LD={script}",
        f"IMPLEMENTATION_PATH={folder}",
    ]


def size_text(lib: Path, prefix: str = "arm-none-eabi-") -> int:
    """.text of pqm4's library of the implementation (`size -t`, as mupq measures it)."""
    out = subprocess.run([prefix + "size", "-t", str(lib)], capture_output=True, text=True, check=False)
    last = out.stdout.strip().splitlines()[-1:] or [""]
    try:
        return int(last[0].split()[0])
    except (ValueError, IndexError) as e:
        raise PqlabError(f"size -t {lib}: {out.stdout}{out.stderr}") from e


SPEED_LINE = re.compile(r"^(keypair|encaps|decaps|sign|verify) cycles:$")


def parse_speed(text: str) -> dict[str, list[int]]:
    """pqm4's speed output: `<op> cycles:` then the number on the next line; must end with '#'."""
    lines = [x.strip() for x in text.splitlines()]
    if "#" not in lines:
        raise PqlabError("speed firmware did not finish (no '#' line)")
    runs: dict[str, list[int]] = {}
    for a, b in zip(lines, lines[1:]):
        m = SPEED_LINE.match(a)
        if m:
            runs.setdefault(m.group(1), []).append(int(b))
    if any("ERROR" in x for x in lines):
        raise PqlabError("speed firmware reported an error: " + next(x for x in lines if "ERROR" in x))
    return runs


def measure(
    plat: Platform, root: Path, p: Published, script: Path, env: dict, iterations: int, timeout: float
) -> Result:
    r = Result(p.kind, p.scheme, p.impl)
    folder = find_folder(root, p)
    if folder is None:
        r.status, r.detail = "not-found", "no folder in pqm4's search paths"
        return r
    r.folder = folder
    name = folder.replace("/", "_")
    elf = root / "elf" / f"{name}_speed.elf"
    lib = root / "obj" / f"lib{name}.a"
    t0 = time.perf_counter()
    proc = subprocess.run(
        [*make_args(script, folder, iterations), str(elf.relative_to(root)), str(lib.relative_to(root))],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    r.seconds_build = time.perf_counter() - t0
    if proc.returncode != 0 or not elf.exists():
        r.status, r.detail = "build-failed", (proc.stdout + proc.stderr)[-1500:]
        return r
    r.text = size_text(lib)
    t0 = time.perf_counter()
    jpath = root / "elf" / f"{name}_speed.json"
    try:
        run = subprocess.run(
            command(plat, elf, [*BOARD_MEMORY, "--json", str(jpath)]),
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        r.status, r.detail = "run-failed", f"timeout after {timeout:.0f} s"
        return r
    r.seconds_run = time.perf_counter() - t0
    try:
        if run.returncode != 0:
            raise PqlabError(f"exit code {run.returncode}: {run.stderr.strip()[-500:]}")
        r.runs = parse_speed(run.stdout)
        missing = [op for op in KIND_OPS[p.kind] if op not in r.runs]
        if missing:
            raise PqlabError(f"no cycles for {', '.join(missing)}")
        r.instructions = int(json.loads(jpath.read_text()).get("instructions", 0))
        recheck(plat, elf, r, timeout)
    except (PqlabError, ValueError, OSError, subprocess.TimeoutExpired) as e:
        r.status, r.detail = "run-failed", str(e)
    return r


# pqm4's mps2 HAL counts SysTick wraps (every 2^24 cycles) in its interrupt handler. Measured
# 2026-11-26: on pqlab-sim's fast run loop an operation longer than that can come out short by
# exactly one wrap (MAYO-3 m4f sign: 25,660,813 printed, 42,438,069 in the profiling loop, whose
# call-stack profile gives 42,438,024 for crypto_sign). Until the simulator is fixed, any run
# with an operation above WRAP_CHECK cycles is repeated in the profiling loop (`--profile`) and
# that run's figures are used; a difference is recorded in `detail`.
WRAP_CHECK = 1 << 23

# the memory blocks of pqm4's board, a NUCLEO-L4R5ZI (pqlab-sim's Cortex-M4 set-up, m4-v7)
BOARD_MEMORY = ("--memory", "stm32l4r5")


def board_model(plat: Platform) -> str:
    """The timing model the corpus runs with: the platform's simulator and machine, with the
    memory set-up of pqm4's board (`pqlab-sim --machine M --memory stm32l4r5 --version`)."""
    cmd = plat.subst(plat.runner_command, elf="{elf}")
    machine = cmd[cmd.index("--machine") : cmd.index("--machine") + 2] if "--machine" in cmd else []
    return simulator_model(cmd[0], (*machine, *BOARD_MEMORY))


def recheck(plat: Platform, elf: Path, r: Result, timeout: float) -> None:
    r.checked = True
    if max(max(v) for v in r.runs.values()) < WRAP_CHECK:
        return
    prof = elf.with_suffix(".profile")
    run = subprocess.run(
        command(plat, elf, [*BOARD_MEMORY, "--profile", str(prof)]),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    if run.returncode != 0:
        raise PqlabError(f"profiling-loop run: exit code {run.returncode}: {run.stderr.strip()[-300:]}")
    again = parse_speed(run.stdout)
    diff = {op: (r.runs[op], again.get(op)) for op in r.runs if r.runs[op] != again.get(op)}
    if diff:
        r.detail = "fast-loop figures differed (timer wrap), profiling-loop figures used: " + "; ".join(
            f"{op} {a} -> {b}" for op, (a, b) in diff.items()
        )
        r.runs = again


def spread_pct(lo: float, hi: float, mean: float) -> float:
    return 100.0 * (hi - lo) / mean if mean else 0.0


def rows(pubs: dict[tuple[str, str, str], Published], results: list[Result]) -> list[dict]:
    out = []
    for r in results:
        p = pubs[(r.kind, r.scheme, r.impl)]
        for op in KIND_OPS[r.kind]:
            if op not in p.ops:
                continue
            mean, lo, hi = p.ops[op]
            row = {
                "kind": r.kind,
                "scheme": r.scheme,
                "impl": r.impl,
                "op": op,
                "status": r.status,
                "published": mean,
                "published_spread_pct": round(spread_pct(lo, hi, mean), 4),
                "published_text": p.text,
                "built_text": r.text,
                "wrap_corrected": f"{op} " in r.detail and "timer wrap" in r.detail,
            }
            vals = r.runs.get(op, [])
            if r.status == "ok" and vals:
                sim = statistics.fmean(vals)
                row["simulated"] = round(sim)
                row["sim_runs"] = len(vals)
                row["sim_spread_pct"] = round(spread_pct(min(vals), max(vals), sim), 4)
                row["error_pct"] = round(100.0 * (sim - mean) / mean, 2)
                row["deterministic"] = row["published_spread_pct"] <= SPREAD_PCT and row["sim_spread_pct"] <= SPREAD_PCT
                # for a random point: is every simulated run inside pqm4's published [min, max]?
                row["in_published_range"] = lo <= min(vals) and max(vals) <= hi
            out.append(row)
    return out


def summary(table: list[dict]) -> dict:
    pts = [t for t in table if t.get("deterministic")]
    errs = [abs(t["error_pct"]) for t in pts]
    s: dict = {
        "points": len(pts),
        "rows": len(table),
        "random_points": sum(1 for t in table if "error_pct" in t and not t["deterministic"]),
        "failed_rows": sum(1 for t in table if t["status"] != "ok"),
        "goal_mae_pct": GOAL_MAE_PCT,
        "goal_max_pct": GOAL_MAX_PCT,
    }
    if errs:
        worst = max(pts, key=lambda t: abs(t["error_pct"]))
        s.update(
            mae_pct=round(statistics.fmean(errs), 2),
            max_abs_pct=round(max(errs), 2),
            mean_pct=round(statistics.fmean(t["error_pct"] for t in pts), 2),
            worst=f"{worst['scheme']} {worst['impl']} {worst['op']}",
            within_3pct=sum(1 for e in errs if e <= GOAL_MAX_PCT),
        )
        s["goals_met"] = s["mae_pct"] <= GOAL_MAE_PCT and s["max_abs_pct"] <= GOAL_MAX_PCT
    return s


def table_md(table: list[dict], summ: dict) -> str:
    lines = [
        "| implementation | op | published (pqm4, board) | simulated (m4-sim) | error % | counted | pqm4 spread % | .text pqm4 / built |",
        "|---|---|--:|--:|--:|---|--:|--:|",
    ]
    for t in table:
        impl = f"{t['scheme']} {t['impl']}"
        text = f"{t['published_text'] or '-'} / {t['built_text'] or '-'}"
        if "error_pct" not in t:
            lines.append(
                f"| {impl} | {t['op']} | {t['published']:,} | {t['status']} | - | no | "
                f"{t['published_spread_pct']:.3f} | {text} |"
            )
            continue
        if t.get("wrap_corrected"):
            impl += " (fast-loop timer wrap, profiling-loop figure)"
        counted = (
            "yes"
            if t["deterministic"]
            else (
                "no (random; in pqm4's min-max)"
                if t.get("in_published_range")
                else "no (random; outside pqm4's min-max)"
            )
        )
        lines.append(
            f"| {impl} | {t['op']} | {t['published']:,} | {t['simulated']:,} | {t['error_pct']:+.2f} | {counted} | "
            f"{t['published_spread_pct']:.3f} | {text} |"
        )
    lines.append("")
    if "mae_pct" in summ:
        lines.append(
            f"deterministic points: {summ['points']}; mean absolute error {summ['mae_pct']:.2f}% "
            f"(goal {GOAL_MAE_PCT}%), max {summ['max_abs_pct']:.2f}% at {summ['worst']} (goal {GOAL_MAX_PCT}%), "
            f"mean {summ['mean_pct']:+.2f}%; within 3%: {summ['within_3pct']}/{summ['points']}; "
            f"random points not counted: {summ['random_points']}; failed rows: {summ['failed_rows']}"
        )
    else:
        lines.append(f"no deterministic point measured; failed rows: {summ['failed_rows']}")
    return "\n".join(lines) + "\n"


def select(pubs: list[Published], patterns: tuple[str, ...]) -> list[Published]:
    """Published rows whose scheme starts with one of `patterns` (all when empty)."""
    chosen = [p for p in pubs if not patterns or any(p.scheme.startswith(x) for x in patterns)]
    if not chosen:
        known = sorted({p.scheme for p in pubs})
        raise PqlabError(f"no pqm4 scheme starts with {', '.join(patterns)}; known: {', '.join(known)}")
    return chosen


def calibrate_pqm4(
    plat: Platform,
    patterns: tuple[str, ...] = (),
    tarball: Path | None = None,
    work: Path = DEFAULT_WORK,
    iterations: int = 1,
    timeout: float = 3600.0,
    progress=None,
) -> dict:
    """Build, run and compare; results per implementation are kept in work/results.jsonl (keyed by
    folder, model and iterations), so an interrupted run continues where it stopped."""
    if plat.runner_kind != "pqlab-sim":
        raise PqlabError(f"calibration needs a pqlab-sim platform (m4-sim), not {plat.name}")
    if tarball is None:
        from pqlab.external import path as ext_path

        tarball = ext_path("thirdparty", TARBALL)
    if not tarball.exists():
        raise PqlabError(f"{tarball}: no such file")
    root = extract(tarball, work)
    pubs = parse_benchmarks((root / "benchmarks.md").read_text())
    chosen = select(pubs, patterns)
    cc = reference_compiler(arm_gnu_spec(), CACHE)
    ld = plat.cc
    script, env = driver(work, cc, ld)
    mver = board_model(plat)
    store = work / "results.jsonl"
    done: dict[tuple, Result] = {}
    if store.exists():
        for line in store.read_text().splitlines():
            d = json.loads(line)
            key = (d.pop("model"), d.pop("iterations"), d["kind"], d["scheme"], d["impl"])
            done[key] = Result(**d)
    results = []
    for p in chosen:
        key = (mver, iterations, p.kind, p.scheme, p.impl)
        r = done.get(key)
        if r is not None and r.status == "ok" and not r.checked:
            try:  # a result from before the wrap check: check it now
                name = r.folder.replace("/", "_")
                recheck(plat, root / "elf" / f"{name}_speed.elf", r, timeout)
                with store.open("a") as f:
                    f.write(json.dumps({"model": mver, "iterations": iterations, **asdict(r)}) + "\n")
            except (PqlabError, OSError, subprocess.TimeoutExpired):
                r = None
        if r is None or r.status != "ok":
            r = measure(plat, root, p, script, env, iterations, timeout)
            with store.open("a") as f:
                f.write(json.dumps({"model": mver, "iterations": iterations, **asdict(r)}) + "\n")
        if progress:
            progress(r)
        results.append(r)
    pub_map = {(p.kind, p.scheme, p.impl): p for p in pubs}
    table = rows(pub_map, results)
    summ = summary(table)
    res = {
        "reference": f"pqm4 {TARBALL} benchmarks.md (NUCLEO-L4R5ZI, 20 MHz, 0 flash wait states)",
        "platform": plat.name,
        "model": mver,
        "compiler": subprocess.run([cc, "--version"], capture_output=True, text=True).stdout.splitlines()[0],
        "build": "pqm4 make PLATFORM=mps2-an386 MPS2_DATA_IN_FLASH= (data in SRAM), newlib of " + ld,
        "deterministic_rule": f"published and simulated spread (max-min)/mean <= {SPREAD_PCT}%",
        "iterations": iterations,
        "rows": table,
        "summary": summ,
        "seconds": {
            "build": round(sum(r.seconds_build for r in results), 1),
            "run": round(sum(r.seconds_run for r in results), 1),
        },
    }
    (work / "table.md").write_text(table_md(table, summ))
    (work / "table.json").write_text(json.dumps(res, indent=1))
    return res
