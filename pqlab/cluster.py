"""Campaigns past one machine: `--cluster ADDRESS` hands the jobs to a Dask distributed cluster.

Each (implementation, platform) pair is one task: a worker builds the pair's programs with
pqlab's own build (ninja, as a local run does), runs them with pqlab's runners and time
limits, and returns the Outcomes (plain picklable dataclasses) to this process, the client.
The client alone writes the results database: each run is stored, in its own transaction, as
its pair's task comes back, with the host and the Dask address of the worker that built and ran
it (runs.host, runs.worker).

Workers need pqlab importable from the same checkout at the same path as the client, at the
same commit (a shared filesystem, or one checkout per machine at one path), the same toolchains
and runners installed, and --impl-path folders at the same paths. A task checks the checkout
and commit first and refuses to run on a mismatch rather than measuring other code. Dask is
imported only when --cluster is used (pip install 'pqlab[cluster]').

Why Dask distributed rather than Ray: pure Python (wheels for every platform, nothing to
compile), a small dependency set, a scheduler and workers started with one command each
(`dask scheduler`, `dask worker ADDRESS`) or in-process (`LocalCluster`, which the tests use),
and futures whose results come back to the caller as they complete, which is exactly the
shape of these campaigns (independent, coarse jobs of seconds to hours, results stored
centrally). Ray brings a large binary distribution and an object store meant for data-heavy
work that pqlab does not have.
"""

from __future__ import annotations

import socket
import sys
from contextlib import contextmanager

from tqdm import tqdm

from pqlab import ROOT, PqlabError
from pqlab.build import BuildOptions, build
from pqlab.platforms import Platform
from pqlab.registry import Implementation
from pqlab.results import Store, git_state
from pqlab.runner import signals_deferred

_address: str | None = None
CONNECT_TIMEOUT_S = 30  # for the scheduler to answer, and for a first worker to join it


def set_address(address: str | None) -> None:
    """The command's --cluster (None: run locally)."""
    global _address
    _address = address or None


def address() -> str | None:
    return _address


@contextmanager
def client(addr: str):
    try:
        from distributed import Client
    except ImportError as e:
        raise PqlabError("--cluster needs Dask distributed: pip install 'pqlab[cluster]' (or distributed)") from e
    try:
        c = Client(addr, timeout=CONNECT_TIMEOUT_S)
    except (OSError, TimeoutError, ValueError) as e:
        raise PqlabError(f"cannot connect to the Dask scheduler at {addr}: {e}") from e
    try:
        try:
            if not c.scheduler_info().get("workers"):
                c.wait_for_workers(1, timeout=CONNECT_TIMEOUT_S)
        except TimeoutError as e:
            raise PqlabError(f"the Dask scheduler at {addr} has no worker (waited {CONNECT_TIMEOUT_S} s)") from e
        yield c
    finally:
        c.close()


# --- on the worker ---------------------------------------------------------------------------------


def _where() -> tuple[str, str]:
    """(host name, Dask worker address) of the process running a task."""
    try:
        from distributed import get_worker

        addr = get_worker().address
    except (ImportError, ValueError):
        addr = "local"
    return socket.gethostname(), addr


def _check_checkout(root: str, commit: str) -> None:
    host, addr = _where()
    if str(ROOT) != root:
        raise PqlabError(
            f"worker {addr} on {host} runs pqlab from {ROOT}, the client from {root}: "
            "workers need the same checkout at the same path (docs/cluster.md)"
        )
    mine = git_state()[0]
    if mine != commit:
        raise PqlabError(
            f"worker {addr} on {host} has pqlab commit {mine}, the client {commit}: update the worker's checkout"
        )


def _stamp(outcomes: list) -> list:
    host, addr = _where()
    for o in outcomes:
        if o.context is not None:
            o.context.host, o.context.worker = host, addr
    return outcomes


def _build(impl: Implementation, plat: Platform, programs: tuple[str, ...], opts: BuildOptions):
    from pqlab import toolchains

    if not impl.dir.is_dir():
        raise PqlabError(
            f"{impl.id}: folder {impl.dir} does not exist on this worker (needs the same paths as the client)"
        )
    plat = toolchains.ensure(plat)
    return plat, build(plat, [impl], programs, jobs=1, opts=opts)[impl.id]


def _task(kind: str, impl, plat, programs, opts, stdin: bytes, timeout, root: str, commit: str) -> list:
    """One pair on a worker: build, run, return its Outcomes (`kind` "bench": the bench programs
    with their measurements; else the one program of `programs[0]`)."""
    from pqlab import jobs, limits

    _check_checkout(root, commit)
    limits.set_override(timeout)
    host, addr = _where()
    try:
        plat, b = _build(impl, plat, programs, opts)
    except PqlabError as e:
        return [jobs.Outcome(impl, plat, False, error=f"on worker {addr} ({host}): {e}", program=programs[0])]
    out: list = []
    if kind == "bench":
        jobs.bench_pair(impl, plat, b, opts, out.append)
    elif b.error:
        out.append(jobs.Outcome(impl, plat, False, error=b.error, program=programs[0]))
    else:
        out.append(jobs.run_program(impl, plat, b, programs[0], opts, stdin))
    return _stamp(out)


# --- on the client ---------------------------------------------------------------------------------


def _submit(c, kind: str, pairs_, programs, opts: BuildOptions, stdin) -> list:
    from pqlab import runner

    commit = git_state()[0]
    futs = []
    for impl, plat in pairs_:
        data = stdin(impl, plat) if callable(stdin) else (stdin or b"")
        futs.append(
            c.submit(
                _task, kind, impl, plat, programs, opts, data, runner.timeout_override, str(ROOT), commit, pure=False
            )
        )
    return futs


def _gather(c, futs, desc: str, take) -> None:
    """Hand each task's Outcomes to `take` as the task completes; on an error or an interrupt
    the remaining tasks are cancelled."""
    from distributed import as_completed

    bar = tqdm(total=len(futs), desc=f"{desc} (cluster)", file=sys.stderr, disable=None, leave=False)
    try:
        for fut in as_completed(futs):
            take(fut.result())
            bar.update(1)
    except BaseException:
        c.cancel(futs)
        raise
    finally:
        bar.close()


def execute(pairs_, program: str, opts: BuildOptions, stdin, desc: str, extra_programs=()) -> list:
    """jobs.execute on the cluster: one Outcome per pair, in the order of the pairs."""
    addr = address()
    assert addr
    programs = tuple(dict.fromkeys((program, *extra_programs)))
    got: dict[tuple[str, str], object] = {}

    def take(outs: list) -> None:
        for o in outs:
            got[(o.impl.id, o.plat.name)] = o

    with client(addr) as c:
        _gather(c, _submit(c, "execute", pairs_, programs, opts, stdin), desc, take)
    return [got[(i.id, p.name)] for i, p in pairs_]


def bench(pairs_, store: Store, opts: BuildOptions) -> list:
    """jobs.bench on the cluster: every run stored here, in its own transaction, as its pair's
    task returns (an interrupt keeps the pairs that came back)."""
    from pqlab import jobs

    addr = address()
    assert addr
    git_state()
    outcomes: list = []

    def take(outs: list) -> None:
        for o in outs:
            with signals_deferred():
                if o.ok:
                    assert o.context is not None
                    store.add_run(o.context, o.values)
                outcomes.append(o)

    with client(addr) as c:
        _gather(c, _submit(c, "bench", pairs_, jobs.BENCH_PROGRAMS, opts, None), "bench", take)
    return outcomes
