"""Jobs: build, run and record harness programs for a selection of implementations and platforms.

Data flows one way: registry -> build -> run -> parse -> results store -> report.
Failures of one (implementation, platform) pair are collected and reported with their
cause; the other pairs go on.
"""

from __future__ import annotations

import hashlib
import json
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from tqdm import tqdm

from pqlab import PqlabError
from pqlab.build import BuildOptions, build, compiler_version, impl_flags, sizes
from pqlab.platforms import Platform, get_platform, model
from pqlab.protocol import Output
from pqlab.registry import Implementation
from pqlab.results import Context, Store
from pqlab.runner import RunError, command, run


@dataclass
class Outcome:
    impl: Implementation
    plat: Platform
    ok: bool
    output: Output | None = None
    error: str | None = None
    data: dict = field(default_factory=dict)


def pairs(impls: list[Implementation], plats: list[Platform]) -> list[tuple[Implementation, Platform]]:
    return [(i, p) for p in plats for i in impls if i.runs_on(p)]


def build_all(pairs_, programs, jobs: int, opts: BuildOptions) -> dict[tuple[str, str], object]:
    """Build per platform (ninja parallelises inside); returns (impl.id, platform) -> BuildResult."""
    by_plat: dict[str, tuple[Platform, list[Implementation]]] = {}
    for impl, plat in pairs_:
        by_plat.setdefault(plat.name, (plat, []))[1].append(impl)
    out = {}
    for name, (plat, impls) in by_plat.items():
        for iid, res in build(plat, impls, programs, jobs=jobs, opts=opts).items():
            out[(iid, name)] = res
    return out


def execute(
    pairs_,
    program: str,
    jobs: int,
    opts: BuildOptions = BuildOptions(),
    stdin=None,
    desc: str | None = None,
    extra_programs: tuple[str, ...] = (),
) -> list[Outcome]:
    """Build `program` for every pair, run it, and return one Outcome per pair."""
    pairs_ = list(pairs_)
    if not pairs_:
        raise PqlabError("nothing to run: no implementation runs on the selected platforms")
    builds = build_all(pairs_, tuple(dict.fromkeys((program, *extra_programs))), jobs, opts)

    def one(pair) -> Outcome:
        impl, plat = pair
        b = builds[(impl.id, plat.name)]
        if b.error:
            return Outcome(impl, plat, False, error=b.error)
        data = stdin(impl, plat) if callable(stdin) else (stdin or b"")
        extra = {}
        try:
            if program == "speed" and plat.runner_kind == "pqlab-sim":  # for sim_speed
                out, extra["sim_run"] = sim_run(plat, b.elf[program], data)
            else:
                out = run(plat, b.elf[program], program, stdin=data)
        except RunError as e:
            return Outcome(impl, plat, False, error=str(e))
        return Outcome(impl, plat, True, output=out, data={"build": b, **extra})

    results = []
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
        it = ex.map(one, pairs_)
        for res in tqdm(it, total=len(pairs_), desc=desc or program, file=sys.stderr, disable=None, leave=False):
            results.append(res)
    return results


def context(impl: Implementation, plat: Platform, program: str, out: Output, elf: Path, iterations: int) -> Context:
    src_flags, _ = impl_flags(plat, impl)
    return Context(
        scheme=impl.scheme, implementation=impl.name, impl_dir=str(impl.dir), platform=plat.name,
        core=plat.core, clock_hz=plat.clock_hz, compiler=plat.cc, compiler_version=compiler_version(plat.cc),
        cflags=" ".join(src_flags), iterations=iterations, timer=out.timer if out else plat.timer_name,
        unit=plat.timer_unit, runner=plat.runner_kind, command=" ".join(command(plat, elf)), program=program,
        model=model(plat),
    )


# --- bench --------------------------------------------------------------------------------------


def timed_run(plat: Platform, elf: Path, program: str, stdin: bytes = b"", extra=()) -> tuple[Output, float]:
    """run() and its wall-clock seconds (process start included)."""
    t0 = time.perf_counter()
    out = run(plat, elf, program, stdin=stdin, extra=extra)
    return out, time.perf_counter() - t0


def sim_run(plat: Platform, elf: Path, stdin: bytes) -> tuple[Output, tuple[int, float]]:
    """A speed run on pqlab-sim with its JSON report: the output, and the instructions it
    executed with the run's wall time (for sim_speed)."""
    with tempfile.TemporaryDirectory(prefix="pqlab-run-json-") as d:
        rep = Path(d) / "report.json"
        out, wall = timed_run(plat, elf, "speed", stdin, ["--json", str(rep)])
        try:
            n = int(json.loads(rep.read_text())["instructions"])
        except (OSError, ValueError, KeyError) as e:
            raise RunError(f"platform {plat.name}, binary {elf}: no instruction count in the simulator's JSON report ({e})") from e
    return out, (n, wall)


def sim_speed(plat: Platform, elf: Path, sim: tuple[int, float] | None) -> list[tuple[str, str, float]]:
    """Simulated instructions per second (millions) of the speed program with the timing model on
    (sim: its instruction count and wall time, from sim_run), and QEMU -icount's on the same
    binary on the simulator's twin platform, run here right after and timed the same way
    (wall clock around the whole run, process start included, which weighs on short
    programs; the two execute the same instruction stream, tests/test_sim_lockstep.py).
    Empty for other platforms. A failing run raises RunError."""
    twin = plat.raw.get("runner", {}).get("twin")
    if not twin or sim is None:
        return []
    n, sim_s = sim
    _, qemu_s = timed_run(get_platform(twin), elf, "speed")
    return [("simspeed", "pqlab-sim", n / sim_s / 1e6), ("simspeed", f"qemu ({twin})", n / qemu_s / 1e6)]


def bench(pairs_, store: Store, jobs: int, opts: BuildOptions) -> list[Outcome]:
    """speed, stack, hashing and size of every pair, each run stored as it completes."""
    outcomes = []
    for program in ("speed", "stack", "hashing"):
        for o in execute(pairs_, program, jobs, opts, desc=f"bench {program}", extra_programs=("speed", "stack", "hashing")):
            outcomes.append(o)
            if not o.ok:
                continue
            b = o.data["build"]
            elf = b.elf[program]
            ctx = context(o.impl, o.plat, program, o.output, elf, opts.runs(program))
            values: list[tuple[str, str, float]] = []
            if program == "speed":
                values += [("speed", f[0], int(f[1])) for f in o.output.of("speed")]
                values += [("iterations", f[0], int(f[1])) for f in o.output.of("iterations")]
                obj = sizes(o.plat, b.objects)
                binary = sizes(o.plat, [b.elf["speed"]])
                values += [("size", k, v) for k, v in obj.items()]
                values += [("size", f"binary-{k}", v) for k, v in binary.items()]
                try:
                    values += sim_speed(o.plat, elf, o.data.get("sim_run"))
                except RunError as e:
                    o.ok, o.error = False, f"simulator speed of {o.impl.id} on {o.plat.name}: {e}"
                    continue
            elif program == "stack":
                static = sizes(o.plat, [elf])
                for op, val in ((f[0], int(f[1])) for f in o.output.of("stack")):
                    values.append(("stack", op, val))
                    values.append(("ram", op, val + static["data"] + static["bss"]))
            else:
                for f in o.output.of("hashing"):
                    total, inhash = int(f[1]), int(f[2])
                    values.append(("hashing", f[0], 100.0 * inhash / total if total else 0.0))
            if not values:
                o.ok, o.error = False, f"{program} of {o.impl.id} on {o.plat.name} produced no measurement"
                continue
            store.add_run(ctx, values)
    return outcomes


# --- vectors ------------------------------------------------------------------------------------


def vectors_hash(out: Output) -> str:
    h = hashlib.sha256()
    for f in out.of("vector"):
        h.update((" ".join(f) + "\n").encode())
    return h.hexdigest()


# --- kat ----------------------------------------------------------------------------------------


def kat_text(out: Output) -> str:
    return "".join(f[0] + "\n" for f in out.of("kat"))
