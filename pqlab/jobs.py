"""Jobs: build, run and record harness programs for a selection of implementations and platforms.

Data flows one way: registry -> build -> run -> parse -> results store -> report.
Failures of one (implementation, platform) pair are collected and reported with their
cause; the other pairs go on.
"""

from __future__ import annotations

import hashlib
import json
import queue
import socket
import sys
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path

from tqdm import tqdm

from pqlab import PqlabError, cluster, limits
from pqlab.build import BuildOptions, BuildResult, build, prepare_platform, sizes
from pqlab.platforms import Platform, get_platform, model
from pqlab.protocol import Output
from pqlab.registry import Implementation
from pqlab.results import Context, Store, git_state
from pqlab.runner import Limit, Ran, RunError, RunTimeout, resume, run_full, signals_deferred, stop_all, temp_dir


@dataclass
class Outcome:
    impl: Implementation
    plat: Platform
    ok: bool
    output: Output | None = None
    error: str | None = None
    data: dict = field(default_factory=dict)
    program: str = ""
    context: Context | None = None  # what the run used: build (compiler, flags) and run (command)
    values: list[tuple[str, str, float]] = field(default_factory=list)  # bench: what is stored
    timed_out: bool = False
    # the run's wall and CPU seconds (runner.Ran; None: it did not start, or its CPU time is
    # unknown); the build's are in data["build"] (BuildResult.step_*)
    run_wall: float | None = None
    run_cpu: float | None = None
    run_cycles: int | None = None  # the whole run's cycles (Ran.cycles: test and kat on cycle-level runners)


COUNTED = ("test", "kat")  # programs whose whole run's cycles are counted (`pqlab test` / `kat --db`)


def pairs(impls: list[Implementation], plats: list[Platform]) -> list[tuple[Implementation, Platform]]:
    return [(i, p) for p in plats for i in impls if i.runs_on(p)]


def build_all(pairs_, programs, jobs: int, opts: BuildOptions) -> dict[tuple[str, str], BuildResult]:
    """Build per platform (ninja parallelises inside); returns (impl.id, platform) -> BuildResult."""
    by_plat: dict[str, tuple[Platform, list[Implementation]]] = {}
    for impl, plat in pairs_:
        by_plat.setdefault(plat.name, (plat, []))[1].append(impl)
    out = {}
    for name, (plat, impls) in by_plat.items():
        for iid, res in build(plat, impls, programs, jobs=jobs, opts=opts).items():
            out[(iid, name)] = res
    return out


def context(impl: Implementation, plat: Platform, program: str, b: BuildResult | None, **run) -> Context:
    """The context of one run: the implementation, the platform and what its build used (the
    platform's compiler and flags when the build failed), with the run's own fields (`run`:
    iterations, timer, unit, command, ...) given by the caller."""
    from pqlab.build import compiler_version

    return Context(
        scheme=impl.scheme,
        implementation=impl.name,
        impl_dir=str(impl.dir),
        platform=plat.name,
        core=plat.core,
        clock_hz=plat.clock_hz,
        compiler=b.compiler if b else plat.cc,
        compiler_version=b.compiler_version if b else compiler_version(plat.cc),
        cflags=b.cflags if b else " ".join(plat.cflags),
        runner=plat.runner_kind,
        program=program,
        model=model(plat),
        toolchain=plat.toolchain,
        host=socket.gethostname(),
        code_placement=b.placement.get(program, "") if b else "",
        **run,
    )


def run_program(
    impl: Implementation, plat: Platform, b: BuildResult, program: str, opts: BuildOptions, stdin: bytes = b""
) -> Outcome:
    """Run one built program within its time limit (pqlab.limits) and return its Outcome with
    the context it used; the wall time of a complete run is remembered for the next limit."""
    limit = limits.limit(impl, plat, program, opts)
    extra = {}
    try:
        if program == "speed" and plat.runner_kind == "pqlab-sim":  # for sim_speed
            ran, extra["sim_run"] = sim_run(plat, b.elf[program], stdin, limit)
        else:
            ran = run_full(plat, b.elf[program], program, stdin=stdin, timeout=limit, count_cycles=program in COUNTED)
    except RunTimeout as e:
        return Outcome(
            impl,
            plat,
            False,
            error=str(e),
            program=program,
            data={"build": b},
            timed_out=True,
            run_wall=e.seconds,
            run_cpu=e.cpu_seconds,
        )
    except RunError as e:
        return Outcome(
            impl,
            plat,
            False,
            error=str(e),
            program=program,
            data={"stderr": e.stderr, "returncode": e.returncode, "build": b},
            run_wall=e.seconds,
            run_cpu=e.cpu_seconds,
        )
    limits.record(impl, plat, program, opts, ran.seconds)
    ctx = context(
        impl,
        plat,
        program,
        b,
        iterations=opts.runs(program),
        timer=ran.output.timer,
        unit=plat.unit_of(ran.output.timer),
        command=" ".join(ran.command),
    )
    return Outcome(
        impl,
        plat,
        True,
        output=ran.output,
        data={"build": b, "ran": ran, **extra},
        program=program,
        context=ctx,
        run_wall=ran.seconds,
        run_cpu=ran.cpu_seconds,
        run_cycles=ran.cycles,
    )


def _label(item) -> str:
    """IMPL@PLATFORM of a job item (an (implementation, platform) pair, possibly nested)."""
    impl, plat = item[:2] if isinstance(item, tuple) and len(item) >= 2 else (None, None)
    if isinstance(impl, Implementation) and isinstance(plat, Platform):
        return f"{impl.id}@{plat.name}"
    return str(item)[:40]


def _parallel(items: list, fn, jobs: int, desc: str, total: int, step=None) -> list:
    """fn over items in `jobs` threads, results in the order of items. `step`, called in this
    (the main) thread while the workers run, consumes what they hand over (bench: store each
    run as it completes). On an exception or an interrupt every child is killed, queued work
    is dropped and `step` gets a last call before the exception goes on."""
    ex = ThreadPoolExecutor(max_workers=max(1, jobs))
    bar = tqdm(total=total, desc=desc, file=sys.stderr, disable=None, leave=False)
    running: dict[int, str] = {}  # what the bar names: the pairs being run now

    def labelled(x):
        key = id(x)
        running[key] = _label(x)
        try:
            return fn(x)
        finally:
            running.pop(key, None)

    try:
        futs = [ex.submit(labelled, x) for x in items]
        pending = set(futs)
        while pending:
            done, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
            bar.set_postfix_str(", ".join(sorted(running.values())), refresh=False)
            bar.update(step(bar) if step else len(done))
        if step:
            bar.update(step(bar))
        return [f.result() for f in futs]
    except BaseException as e:
        stop_all()
        ex.shutdown(wait=True, cancel_futures=True)
        if isinstance(e, Exception):  # an error, not an interrupt: later work may run
            resume()
        if step:
            step(bar)
        raise
    finally:
        ex.shutdown(wait=True)
        bar.close()


def parallel_handing(items: list, fn, jobs: int, desc: str, on_done=None) -> list:
    """_parallel with each result also handed, as soon as its worker finishes, to on_done in
    this (the main) thread: a command that stores or prints per item keeps what finished
    when a later item fails or the run is interrupted."""
    if on_done is None:
        return _parallel(items, fn, jobs, desc, len(items))
    handed: queue.Queue = queue.Queue()

    def work(x):
        r = fn(x)
        handed.put(r)
        return r

    def take(_bar) -> int:
        n = 0
        while True:
            try:
                r = handed.get_nowait()
            except queue.Empty:
                return n
            on_done(r)
            n += 1

    return _parallel(items, work, jobs, desc, len(items), take)


def execute(
    pairs_,
    program: str,
    jobs: int,
    opts: BuildOptions = BuildOptions(),
    stdin=None,
    desc: str | None = None,
    extra_programs: tuple[str, ...] = (),
    on_done=None,
    build_each: bool = False,
) -> list[Outcome]:
    """Build `program` for every pair, run it, and return one Outcome per pair (each also handed
    to on_done in the main thread as it completes; not with --cluster).

    By default every pair is built first (one ninja run per platform, `jobs` compilers), then
    the pairs run in `jobs` slots. With `build_each` (the campaign) each slot builds its own pair
    (ninja with one compiler; the builds of one build folder take turns, build.py's lock) and
    runs it at once: one slot's build overlaps the other slots' runs, a run starts without
    waiting for the whole corpus to build, and each pair's build has its own wall and CPU
    time (BuildResult.step_*)."""
    pairs_ = list(pairs_)
    if not pairs_:
        raise PqlabError("nothing to run: no implementation runs on the selected platforms")
    if cluster.address():  # --cluster: each pair is built and run on a worker
        return cluster.execute(pairs_, program, opts, stdin, desc or program, extra_programs)
    programs = tuple(dict.fromkeys((program, *extra_programs)))
    builds = {} if build_each else build_all(pairs_, programs, jobs, opts)

    def one(pair) -> Outcome:
        impl, plat = pair
        b = build(plat, [impl], programs, jobs=1, opts=opts)[impl.id] if build_each else builds[(impl.id, plat.name)]
        if b.error:
            return Outcome(impl, plat, False, error=b.error, program=program, data={"build": b})
        data = stdin(impl, plat) if callable(stdin) else (stdin or b"")
        return run_program(impl, plat, b, program, opts, data)

    return parallel_handing(pairs_, one, jobs, desc or program, on_done)


# --- bench --------------------------------------------------------------------------------------

BENCH_PROGRAMS = ("speed", "stack", "hashing")


def timed_run(
    plat: Platform, elf: Path, program: str, stdin: bytes = b"", extra=(), timeout: Limit | None = None
) -> tuple[Output, float]:
    """run() and its wall-clock seconds (process start included)."""
    ran = run_full(plat, elf, program, stdin=stdin, extra=extra, timeout=timeout)
    return ran.output, ran.seconds


def sim_run(plat: Platform, elf: Path, stdin: bytes, limit: Limit | None = None) -> tuple[Ran, tuple[int, float]]:
    """A speed run on pqlab-sim with its JSON report: the run, and the instructions it
    executed with the run's wall time (for sim_speed)."""
    with temp_dir("json") as d:
        rep = d / "report.json"
        ran = run_full(plat, elf, "speed", stdin, limit, ["--json", str(rep)])
        try:
            n = int(json.loads(rep.read_text())["instructions"])
        except (OSError, ValueError, KeyError) as e:
            raise RunError(
                f"platform {plat.name}, binary {elf}: no instruction count in the simulator's JSON report ({e})"
            ) from e
    return ran, (n, ran.seconds)


def sim_speed(
    plat: Platform, elf: Path, sim: tuple[int, float] | None, limit: Limit | None = None
) -> list[tuple[str, str, float]]:
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
    _, qemu_s = timed_run(get_platform(twin), elf, "speed", timeout=limit)
    return [("simspeed", "pqlab-sim", n / sim_s / 1e6), ("simspeed", f"qemu ({twin})", n / qemu_s / 1e6)]


def measurements(o: Outcome, opts: BuildOptions) -> list[tuple[str, str, float]]:
    """The values a bench run stores (raises RunError when the simulator's speed run fails)."""
    assert o.output is not None
    b: BuildResult = o.data["build"]
    elf = b.elf[o.program]
    values: list[tuple[str, str, float]] = []
    if o.program == "speed":
        values += [("speed", f[0], int(f[1])) for f in o.output.of("speed")]
        values += [("iterations", f[0], int(f[1])) for f in o.output.of("iterations")]
        obj = sizes(o.plat, b.objects)
        binary = sizes(o.plat, [b.elf["speed"]])
        values += [("size", k, v) for k, v in obj.items()]
        values += [("size", f"binary-{k}", v) for k, v in binary.items()]
        if o.data.get("sim_run"):
            # the twin runs the same binary: its limit comes from the simulator run's
            values += sim_speed(o.plat, elf, o.data["sim_run"], o.data["ran"].limit)
    elif o.program == "stack":
        static = sizes(o.plat, [elf])
        for op, val in ((f[0], int(f[1])) for f in o.output.of("stack")):
            values.append(("stack", op, val))
            values.append(("ram", op, val + static["data"] + static["bss"]))
    else:
        for f in o.output.of("hashing"):
            total, inhash = int(f[1]), int(f[2])
            values.append(("hashing", f[0], 100.0 * inhash / total if total else 0.0))
    return values


def prepared_input(impl: Implementation, prep: Platform, b: BuildResult, opts: BuildOptions) -> bytes | str:
    """The prerequisite operations' state for the measuring programs (harness/ops.h): the
    prepare program's "prepared" records run on `prep`, as bytes; or why there is none."""
    if b.error:
        return f"build of the prepare program on {prep.name}: {b.error}"
    o = run_program(impl, prep, b, "prepare", opts)
    if not o.ok:
        return f"prepare program of {impl.id} on {prep.name}: {o.error}"
    assert o.output is not None
    parts = [f[0] for f in o.output.of("prepared")]
    try:
        data = bytes.fromhex("".join(parts))
    except ValueError:
        data = b""
    if not data:
        return f"prepare program of {impl.id} on {prep.name} printed no prepared state"
    return data


def bench_pair(
    impl: Implementation,
    plat: Platform,
    b: BuildResult,
    opts: BuildOptions,
    put,
    prep: tuple[Platform, BuildResult] | None = None,
) -> None:
    """The bench programs of one built pair, one after the other, each Outcome handed to `put`
    as it completes (with its measurements); the first timeout stops the pair. With `prep`
    (`prepare_on`), the prerequisite operations are computed once by the prepare program on that
    platform and fed to the three programs as input."""
    if b.error:
        put(Outcome(impl, plat, False, error=b.error))
        return
    stdin = b""
    if prep is not None:
        got = prepared_input(impl, prep[0], prep[1], opts)
        if isinstance(got, str):
            put(Outcome(impl, plat, False, error=got))
            return
        stdin = got
    for i, program in enumerate(BENCH_PROGRAMS):
        o = run_program(impl, plat, b, program, opts, stdin)
        if o.ok:
            try:
                o.values = measurements(o, opts)
            except RunError as e:
                o.ok, o.error = False, f"simulator speed of {impl.id} on {plat.name}: {e}"
            if o.ok and not o.values:
                o.ok, o.error = False, f"{program} of {impl.id} on {plat.name} produced no measurement"
        rest = BENCH_PROGRAMS[i + 1 :]
        if o.timed_out and rest:
            o.error = f"{o.error}\n  not run after this timeout: {', '.join(rest)}"
        put(o)
        if o.timed_out:
            return


def bench(pairs_, store: Store, jobs: int, opts: BuildOptions) -> list[Outcome]:
    """speed, stack, hashing and size of every pair, each run stored as it completes.

    A pair's programs run one after the other in one worker; the first timeout stops the
    pair, and its one failure names the programs that were not run. The main thread stores
    each complete run in its own transaction as soon as a worker hands it over, so an
    interrupt keeps every run that finished and nothing of one that did not."""
    pairs_ = list(pairs_)
    if not pairs_:
        raise PqlabError("nothing to run: no implementation runs on the selected platforms")
    if cluster.address():  # --cluster: each pair is built and run on a worker, stored here
        return cluster.bench(pairs_, store, opts)
    builds = build_all(pairs_, BENCH_PROGRAMS, jobs, opts)
    prep_of = {(i.id, p.name): q for i, p in pairs_ if (q := prepare_platform(i, p, opts)) is not None}
    prep_builds = build_all(
        list({(i.id, q.name): (i, q) for i, p in pairs_ if (q := prep_of.get((i.id, p.name)))}.values()),
        ("prepare",),
        jobs,
        opts,
    )
    git_state()  # now, not while storing the first run with signals deferred
    handed: queue.Queue[Outcome] = queue.Queue()
    outcomes: list[Outcome] = []

    def target(pair) -> None:
        impl, plat = pair
        q = prep_of.get((impl.id, plat.name))
        prep = (q, prep_builds[(impl.id, q.name)]) if q is not None else None
        bench_pair(impl, plat, builds[(impl.id, plat.name)], opts, handed.put, prep)

    def store_handed(_bar) -> int:
        n = 0
        while True:
            try:
                o = handed.get_nowait()
            except queue.Empty:
                return n
            with signals_deferred():
                if o.ok:
                    assert o.context is not None
                    store.add_run(o.context, o.values)
                outcomes.append(o)
            n += 1

    _parallel(pairs_, target, jobs, "bench", len(pairs_) * len(BENCH_PROGRAMS), store_handed)
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
