"""The `pqlab` command line: one shape for every command that runs something.

pqlab COMMAND [SCHEME...] [-i IMPL] [-p PLATFORM] [--impl-path DIR]... [-j N]
"""

from __future__ import annotations

import functools
import json
import os
import statistics
import sys
import time
from pathlib import Path

import click

from pqlab import PqlabError, __version__, ctcheck, katref, limits, nistpkg, toolchains
from pqlab import acvp as acvp_mod
from pqlab import campaign as C
from pqlab import cluster as cluster_mod
from pqlab import jobs as J
from pqlab import report as R
from pqlab.build import BuildOptions, sizes
from pqlab.platforms import (
    PATH_ENV,
    add_platform_path,
    all_platforms,
    clear_platform_paths,
    default_platform,
    get_platform,
)
from pqlab.registry import discover, select
from pqlab.results import DEFAULT_DB, Store, git_state
from pqlab.runner import Interrupted, signal_handlers, signals_deferred, sweep_stale

DATA = Path(__file__).parent / "data"


JOBS = click.IntRange(min=1)
ITERATIONS = click.IntRange(1, 1_000_000)  # the harness counts iterations in a C int; a million is days on a simulator


def _add_platform_paths(_ctx, _param, value) -> None:
    for folder in value or ():
        add_platform_path(folder)


platform_path_option = click.option(
    "--platform-path",
    multiple=True,
    metavar="DIR",
    is_eager=True,
    expose_value=False,
    callback=_add_platform_paths,
    help=f"extra folder of platforms (a platform folder or a folder of them); also ${PATH_ENV}, colon-separated",
)


def selection(f):
    """The options shared by every command that selects implementations and platforms."""

    @click.argument("schemes", nargs=-1)
    @click.option("-i", "--impl", "impls", multiple=True, help="implementation name(s), e.g. ref")
    @click.option("-p", "--platform", "platforms", multiple=True, help="platform name(s); see `pqlab list`")
    @platform_path_option
    @click.option(
        "--impl-path",
        multiple=True,
        type=click.Path(file_okay=False),
        help="extra root with crypto_kem/ or crypto_sign/ folders",
    )
    @click.option("-j", "--jobs", type=JOBS, default=os.cpu_count() or 2, show_default=True, help="parallel jobs")
    @click.option("--json", "as_json", is_flag=True, help="machine-readable output")
    @click.option(
        "--toolchain",
        type=click.Choice(toolchains.names()),
        default=toolchains.DEFAULT,
        show_default=True,
        help="compiler to build with (docs/toolchains.md); recorded with every run",
    )
    @timeout_option
    @functools.wraps(f)
    def wrapper(*args, toolchain=toolchains.DEFAULT, **kw):
        global _toolchain
        _toolchain = toolchain
        try:
            return f(*args, **kw)
        finally:
            _toolchain = toolchains.DEFAULT

    return wrapper


_toolchain = toolchains.DEFAULT  # the running command's --toolchain, applied by _resolve


def cluster_option(f):
    """--cluster for a command that runs jobs (pqlab/cluster.py)."""

    @click.option(
        "--cluster",
        metavar="ADDRESS",
        default=None,
        help="run each build and run on this Dask scheduler's workers (e.g. tcp://host:8786); results stored here",
    )
    @functools.wraps(f)
    def wrapper(*args, cluster=None, **kw):
        cluster_mod.set_address(cluster)
        try:
            return f(*args, **kw)
        finally:
            cluster_mod.set_address(None)

    return wrapper


def timeout_option(f):
    """--timeout for a command that runs target programs (docs/interfaces.md section 7)."""

    @click.option(
        "--timeout",
        type=click.FloatRange(min=0, min_open=True),
        default=None,
        help="seconds each target run may take [default: 10 x its last run, at least 30 s; docs/interfaces.md section 7]",
    )
    @functools.wraps(f)
    def wrapper(*args, timeout=None, **kw):
        limits.set_override(timeout)
        return f(*args, **kw)

    return wrapper


def _resolve(schemes, impls, platforms, impl_path, default_plat="host"):
    all_impls = discover([Path(p) for p in impl_path])
    chosen = select(all_impls, schemes, impls)
    plats = [toolchains.apply(get_platform(p), _toolchain) for p in (platforms or [default_plat])]
    pairs = J.pairs(chosen, plats)
    if not pairs:
        raise PqlabError(f"none of the selected implementations runs on {', '.join(p.name for p in plats)}")
    return all_impls, chosen, plats, pairs


def _fail_report(outcomes) -> int:
    bad = [o for o in outcomes if not o.ok]
    for o in bad:
        click.secho(f"FAIL {o.impl.id} on {o.plat.name}: {o.error}", fg="red", err=True)
    return 1 if bad else 0


class Cli(click.Group):
    def invoke(self, ctx):
        sweep_stale()
        try:
            with signal_handlers():
                return super().invoke(ctx)
        except PqlabError as e:
            click.secho(f"error: {e}", fg="red", err=True)
            sys.exit(2)
        except (Interrupted, KeyboardInterrupt) as e:
            status = e.exit_status if isinstance(e, Interrupted) else 130
            click.secho(
                f"pqlab: interrupted by {e or 'SIGINT'}: target runs killed, nothing partial stored", fg="red", err=True
            )
            sys.exit(status)
        finally:
            clear_platform_paths()  # a command's --platform-path lasts for that command only


@click.group(cls=Cli, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__)
def main():
    """pqlab: test, benchmark and analyse post-quantum cryptography on small processors."""


@main.command("list")
@selection
def list_cmd(schemes, impls, platforms, impl_path, jobs, as_json):
    """Schemes, implementations, parameter sizes and the platforms each runs on."""
    chosen = select(discover([Path(p) for p in impl_path]), schemes, impls)
    plats = all_platforms()
    if platforms:
        plats = {p: get_platform(p) for p in platforms}
    rows = []
    for i in chosen:
        rows.append(
            {
                "scheme": i.scheme,
                "implementation": i.name,
                "kind": i.kind,
                "style": i.style,
                "sizes": i.sizes,
                "platforms": [p for p, plat in plats.items() if i.runs_on(plat)],
                "dir": str(i.dir),
                **({"excluded": dict(i.excluded)} if i.excluded else {}),
                **({"needs_openssl": list(i.openssl)} if i.openssl else {}),
            }
        )
    if as_json:
        click.echo(json.dumps(rows, indent=1))
        return
    click.echo(f"{'scheme':<24} {'impl':<10} {'kind':<5} {'pk':>6} {'sk':>6} {'ct/sig':>7} {'ss':>4}  platforms")
    for r in rows:
        s = r["sizes"]
        # a size api.h does not give as a number is '?' (a foreign folder's api.h may compute it)
        size = {k: "?" if v is None else v for k, v in s.items()}
        ct = size.get("CRYPTO_CIPHERTEXTBYTES", "?") if r["kind"] == "kem" else size.get("CRYPTO_BYTES", "?")
        ss = size.get("CRYPTO_BYTES", "?") if r["kind"] == "kem" else ""
        click.echo(
            f"{r['scheme']:<24} {r['implementation']:<10} {r['kind']:<5} {size.get('CRYPTO_PUBLICKEYBYTES', '?'):>6} "
            f"{size.get('CRYPTO_SECRETKEYBYTES', '?'):>6} {ct:>7} {ss:>4}  {' '.join(r['platforms'])}"
        )
    for i in chosen:  # what a dropped-in folder's build leaves out, and what it cannot be built with
        for name, why in i.excluded:
            click.echo(f"note: {i.id}: {name} left out: {why}")
        if i.openssl:
            click.echo(f"note: {i.id}: needs OpenSSL ({'; '.join(i.openssl)}): its builds are refused")
    click.echo("\nplatforms:")
    for name, p in plats.items():
        click.echo(f"  {name:<14} {p.description} [runner {p.runner_kind}, timer {p.timer_name} ({p.timer_unit})]")


@main.command("build")
@selection
@click.option(
    "--program",
    "programs",
    multiple=True,
    default=("test", "vectors", "kat", "speed", "stack", "hashing", "driver"),
    show_default=True,
)
def build_cmd(schemes, impls, platforms, impl_path, jobs, as_json, programs):
    """Build harness programs (incremental, parallel, out of tree under build/)."""
    _, _, _, pairs = _resolve(schemes, impls, platforms, impl_path)
    res = J.build_all(pairs, programs, jobs, BuildOptions())
    bad = 0
    rows = []
    for (iid, plat), b in sorted(res.items()):
        rows.append(
            {
                "implementation": iid,
                "platform": plat,
                "toolchain": _toolchain,
                "ok": not b.error,
                "compiler_version": b.compiler_version,
                "error": b.error,
            }
        )
        if b.error:
            bad += 1
            click.secho(b.error, fg="red", err=True)
        elif not as_json:
            click.echo(f"built {iid} for {plat}: {', '.join(sorted(b.elf))}")
    if as_json:
        click.echo(json.dumps(rows, indent=1))
    sys.exit(1 if bad else 0)


def _store_functional(
    db: str, program: str, o, count_name: str, count: int, ok: bool | None = None, unchecked: bool = False
) -> None:
    """Store one `pqlab test` / `pqlab kat` run (program "test" / "kat", metric = the program) as
    operations ok (1 or 0), the count of checks or records that passed, and the run's cycles
    (where the runner counts them: pqlab-sim, Verilator), wall and CPU seconds (where known); a KAT
    with no reference to compare with also gets unchecked = 1 (and ok 0)."""
    ok = o.ok if ok is None else ok
    values: list[tuple[str, str, float]] = [(program, "ok", 1.0 if ok else 0.0), (program, count_name, count)]
    if unchecked:
        values.append((program, "unchecked", 1.0))
    for op, v in (("cycles", o.run_cycles), ("wall s", o.run_wall), ("cpu s", o.run_cpu)):
        if v is not None:
            values.append((program, op, v))
    ctx = J.context(
        o.impl,
        o.plat,
        program,
        o.data.get("build"),
        iterations=1,
        timer=o.output.timer if o.output else o.plat.timer_name,
        unit=o.plat.timer_unit,
        command=(o.context.command if o.context else "") + ("" if o.ok else f" (failed: {(o.error or '')[:200]})"),
    )
    store = Store(db)
    try:
        store.add_run(ctx, values)
    finally:
        store.close()


@main.command("test")
@selection
@cluster_option
@click.option(
    "--contract-checks",
    is_flag=True,
    help="debug build: check every native/C kernel's input and output bounds (lib/native/api.h)",
)
@click.option(
    "--db",
    default=None,
    help="also store each run (verdict, checks, the whole run's cycles where the runner counts them, wall and CPU "
    "seconds) in this results database",
)
def test_cmd(schemes, impls, platforms, impl_path, jobs, as_json, contract_checks, db):
    """Functional tests on target: round trips, tampering, canaries around every buffer."""
    _, _, _, pairs = _resolve(schemes, impls, platforms, impl_path)
    rows: list[dict] = []
    seen: set[int] = set()

    def verdict(o) -> None:
        """One finished test, printed at once: an interrupted campaign keeps what it reached."""
        seen.add(id(o))
        checks = len(o.output.of("test")) if o.ok else 0
        if db:
            _store_functional(db, "test", o, "checks", checks)
        rows.append(
            {
                "scheme": o.impl.scheme,
                "implementation": o.impl.name,
                "platform": o.plat.name,
                "ok": o.ok,
                "checks": checks,
                "error": o.error,
            }
        )
        if as_json:
            return
        if o.ok:
            click.echo(f"ok   {o.impl.id} on {o.plat.name} ({checks} checks)")
        else:
            click.secho(f"FAIL {o.impl.id} on {o.plat.name}: {o.error}", fg="red", err=True)

    outs = J.execute(pairs, "test", jobs, BuildOptions(contract_checks=contract_checks), on_done=verdict)
    for o in outs:  # --cluster hands nothing over while it runs
        if id(o) not in seen:
            verdict(o)
    if as_json:
        order = {(i.scheme, i.name, p.name): n for n, (i, p) in enumerate(pairs)}
        rows.sort(key=lambda r: order.get((r["scheme"], r["implementation"], r["platform"]), len(order)))
        click.echo(json.dumps(rows, indent=1))
    bad = [o for o in outs if not o.ok]
    if len(outs) > 1 and not as_json:
        click.echo(f"{len(outs) - len(bad)} of {len(outs)} passed")
    sys.exit(1 if bad else 0)


@main.command("campaign")
@selection
@click.option(
    "--output",
    type=click.Path(dir_okay=False),
    help="also write the summary here, rewritten as each folder finishes (context `partial` until the end)",
)
def campaign_cmd(schemes, impls, platforms, impl_path, jobs, as_json, output):
    """Functional tests of a whole corpus (the implementations under the --impl-path roots, or all
    without one) with a summary: ok, build-failed, test-failed, crashed, timeout, and each cause.
    With --output an interrupted campaign leaves the rows of every folder that finished."""
    _, _, _, pairs = _resolve(schemes, impls, platforms or [default_platform()], impl_path)
    roots = [Path(p).absolute() for p in impl_path]
    if roots:
        pairs = [(i, p) for i, p in pairs if any(i.dir.is_relative_to(r) for r in roots)]
    skipped = [row for i, p in pairs if (row := C.not_for_platform(i, p))]
    pairs = limits.longest_first([(i, p) for i, p in pairs if not C.not_for_platform(i, p)], "test", BuildOptions())
    started, load, state = time.time(), os.getloadavg(), git_state()
    done: list = []

    def write(rows, partial: bool) -> str:
        ctx = C.context(jobs, started, load, state, partial)
        text = C.to_json(rows, ctx) if as_json else C.markdown(rows, ctx)
        if output:
            tmp = Path(f"{output}.tmp")
            tmp.write_text(text)
            tmp.replace(output)
        return text

    def finished(o) -> None:
        done.append(C.classify(o))
        write(done + skipped, True)

    outs = J.execute(pairs, "test", jobs, desc="campaign", build_each=True, on_done=finished) if pairs else []
    rows = [C.classify(o) for o in outs] + skipped
    click.echo(write(rows, False))
    sys.exit(0 if all(r.status in ("ok", "not-for-platform") for r in rows) else 1)


@main.command("ct")
@selection
@cluster_option
@click.option("--db", default=str(DEFAULT_DB), show_default=True, help="results database ($PQLAB_DB)")
@click.option("--no-store", is_flag=True, help="do not store the results (status, finding counts) in the database")
@click.option(
    "--ledger",
    "ledgers",
    multiple=True,
    type=click.Path(dir_okay=False),
    help="extra ct-ledger.toml applied to every selected implementation (entries may name "
    "`implementations`), for folders that are not yours to write in",
)
@click.option(
    "--no-summaries",
    is_flag=True,
    help="pqlab-sim: track every instruction of the hash permutations too (by default they are "
    "summarised after their first verified calls, docs/ct.md)",
)
def ct_cmd(schemes, impls, platforms, impl_path, jobs, as_json, db, no_store, ledgers, no_summaries):
    """Constant-time check: all randomness secret, public outputs declassified.

    host-ct: the host build under valgrind memcheck. m4-sim, m7-sim, cv32e40p-sim,
    cv32e40p-nofpu-sim: the target binary under pqlab-sim's secret tracking, findings accepted only by a ct-ledger.toml entry with a reason.
    Platforms without a ct checker are refused (exit 2). Each result (status, unaccepted and
    ledgered findings, checker version) is stored in the results database for `pqlab report`."""
    ctcheck.check_platforms([get_platform(p) for p in platforms or ["host-ct"]])
    extra = tuple(Path(p) for p in ledgers)
    _, _, _, pairs = _resolve(schemes, impls, platforms or ["host-ct"], impl_path)
    for impl, _p in pairs:  # a malformed ledger is refused before anything runs
        ctcheck.load_ledger(impl, extra)
    pairs = [(i, p.ct_build()) for i, p in pairs]
    t0 = time.perf_counter()
    mem_pairs = [pr for pr in pairs if pr[1].ct_checker == "valgrind-memcheck"]
    sim_pairs = [pr for pr in pairs if pr[1].ct_checker == "pqlab-sim-taint"]
    rows: list[dict] = []
    seen: set[int] = set()
    failed = stored = 0
    store = None if no_store else Store(db)

    def verdict(o) -> None:
        """One finished check: its row, its text, and its result stored at once (an interrupted
        or failing analysis keeps every verdict already reached)."""
        nonlocal failed, stored
        seen.add(id(o))
        sim = o.plat.ct_checker == "pqlab-sim-taint"
        failed += not (_ct_sim_row(o, rows, as_json, extra) if sim else _ct_memcheck_row(o, rows, as_json))
        if store is not None:
            with signals_deferred():
                stored += ctcheck.store_rows(store, [o], rows[-1:])

    try:
        outs = (J.execute(mem_pairs, "ct", jobs, on_done=verdict) if mem_pairs else []) + (
            ctcheck.run_sim(sim_pairs, jobs, on_done=verdict, summaries=not no_summaries) if sim_pairs else []
        )
        for o in outs:  # --cluster hands nothing over while it runs
            if id(o) not in seen:
                verdict(o)
    finally:
        if store is not None:
            store.close()
            click.echo(f"results database: {store.path} ({stored} ct result(s) stored)", err=True)
    order = {(i.scheme, i.name, p.name): n for n, (i, p) in enumerate(pairs)}
    rows.sort(key=lambda r: order.get((r["scheme"], r["implementation"], r["platform"]), len(order)))
    if as_json:
        click.echo(json.dumps(rows, indent=1))
    elif len(outs) > 1:
        leaks = sum(1 for r in rows if r["verdict"] == ctcheck.KNOWN_LEAK)
        click.echo(
            f"{len(outs) - failed - leaks} of {len(outs)} passed"
            + (f", {leaks} known leak(s) as declared (the LEAK lines)" if leaks else "")
            + f" in {time.perf_counter() - t0:.0f} s (wall time, build included)"
        )
    sys.exit(1 if failed else 0)


def _ct_memcheck_row(o, rows: list, as_json: bool) -> bool:
    """One valgrind memcheck result: its row (JSON) or text; True when it passes."""
    findings = ctcheck.parse_memcheck(o.data.get("stderr", "")) if not o.ok else []
    checks = o.output.of("test") if o.ok else []
    operations = sorted({f[0] for f in checks if f[-1] == "ok"})
    rows.append(
        {
            "scheme": o.impl.scheme,
            "implementation": o.impl.name,
            "platform": o.plat.name,
            "checker": o.plat.ct_checker,
            "verdict": ctcheck.memcheck_verdict(o.ok, findings),
            "ok": o.ok,
            "operations": operations,
            "findings": [f.as_dict() for f in findings],
            "error": None if findings else o.error,
        }
    )
    if as_json:
        return o.ok
    if o.ok:
        click.echo(
            f"ok   {o.impl.id} on {o.plat.name}: {o.plat.ct_checker} reports no secret-dependent "
            f"branch, address or syscall ({len(checks)} checks: {', '.join(operations)})"
        )
    elif findings:
        click.secho(
            f"FAIL {o.impl.id} on {o.plat.name}: {o.plat.ct_checker} reports {len(findings)} "
            f"secret-dependent operation(s)",
            fg="red",
        )
        click.echo(ctcheck.format_findings(findings))
        # a functional failure of the same run is not a finding: say it too
        click.echo("".join(f"{line}\n" for line in (o.error or "").splitlines() if "failed checks:" in line), nl=False)
    else:
        click.secho(f"FAIL {o.impl.id} on {o.plat.name}: {o.error}", fg="red")
    return o.ok


def _ct_sim_row(o, rows: list, as_json: bool, extra: tuple[Path, ...]) -> bool:
    """One pqlab-sim ct result: its row (JSON) or text; True when it passes."""
    rep = o.data.get("ct_report", {})
    findings = ctcheck.sim_findings(o.plat, o.data["elf"], rep) if o.ok else []
    ledger = ctcheck.load_ledger(o.impl, extra)
    ctcheck.apply_ledger(findings, ledger, o.plat.name, o.impl)
    verdict, why = ctcheck.sim_verdict(o, findings)
    ok, known = verdict == ctcheck.PASS, verdict == ctcheck.KNOWN_LEAK
    checks = o.output.of("test") if o.ok and o.output else []
    operations = sorted({f[0] for f in checks if f[-1] == "ok"})
    rows.append(
        {
            "scheme": o.impl.scheme,
            "implementation": o.impl.name,
            "platform": o.plat.name,
            "checker": o.plat.ct_checker,
            "verdict": verdict,
            "ok": ok,
            "operations": operations,
            "findings": [f.as_dict() for f in findings],
            "unaccepted": sum(
                1 for f in findings if f.accepted is None and f.known is None and f.kind not in ctcheck.NOT_FAILING
            ),
            "known_leaks": sum(1 for f in findings if f.known is not None and f.kind not in ctcheck.NOT_FAILING),
            "ledger": [str(p) for p in (*ctcheck.ledger_files(o.impl), *extra)],
            "instructions": rep.get("instructions"),
            "seconds": rep.get("wall_seconds"),
            "mips": rep.get("mips"),
            "secret_bytes": rep.get("secret_bytes"),
            "summaries": rep.get("summaries", []),
            "error": None if ok else why,
        }
    )
    if as_json:
        return ok or known
    summarised = sum(s["summarised_calls"] for s in rep.get("summaries", []))
    acc = sum(1 for f in findings if f.accepted is not None and f.kind not in ctcheck.NOT_FAILING)
    sel = sum(1 for f in findings if f.kind in ctcheck.NOT_FAILING)
    if ok:
        click.echo(
            f"ok   {o.impl.id} on {o.plat.name}: {o.plat.ct_checker} finds no secret-dependent branch, "
            f"address or variable-latency instruction"
            + (f" beyond {acc} accepted by the ledger" if acc else "")
            + (f"; {sel} secret-select place(s), constant time on this core" if sel else "")
            + f" ({rep.get('instructions', 0) / 1e6:.1f} M instructions tracked"
            + (f", {summarised} hash function call(s) summarised" if summarised else "")
            + f"; {', '.join(operations)})"
        )
    elif known:
        click.secho(f"LEAK {o.impl.id} on {o.plat.name}: {why}", fg="yellow")
    else:
        click.secho(f"FAIL {o.impl.id} on {o.plat.name}: {why}", fg="red")
        if findings:
            click.echo(ctcheck.format_sim_findings(findings))
    for s in rep.get("summaries", []):
        if s.get("off"):
            click.echo(f"     summary of {s['function']} off: {s['off']} (its calls were tracked)")
    return ok or known


def _vectors_expected() -> dict:
    path = DATA / "vectors.json"
    return json.loads(path.read_text()) if path.exists() else {}


@main.command("vectors")
@selection
@cluster_option
@click.option("--record", is_flag=True, help="record the hashes as the expected values in pqlab/data/vectors.json")
def vectors_cmd(schemes, impls, platforms, impl_path, jobs, as_json, record):
    """Hash deterministic outputs; implementations and platforms must agree with each other and the record."""
    plats = platforms or [p for p in ("host", "mps2-an386", "mps2-an500") if p in all_platforms()]
    _, _, _, pairs = _resolve(schemes, impls, plats, impl_path)
    outs = J.execute(pairs, "vectors", jobs)
    status = _fail_report(outs)
    expected = _vectors_expected()
    # another specification version of a scheme (pqlab.toml `version`) is its own group, recorded
    # as "scheme (version)"
    by_group: dict[tuple[str, str], dict[str, str]] = {}
    for o in outs:
        if o.ok:
            by_group.setdefault((o.impl.scheme, o.impl.version), {})[f"{o.impl.name}@{o.plat.name}"] = J.vectors_hash(
                o.output
            )
    rows = []
    for (scheme, version), hashes in sorted(by_group.items()):
        label = f"{scheme} ({version})" if version else scheme
        distinct = set(hashes.values())
        exp = expected.get(label)
        agree = len(distinct) == 1
        matches = exp is None or distinct == {exp}
        if not agree or not matches:
            status = 1
        rows.append(
            {
                "scheme": scheme,
                "version": version or None,
                "hashes": hashes,
                "expected": exp,
                "agree": agree,
                "matches_record": matches,
            }
        )
        if not as_json:
            mark = "ok  " if agree and matches else "FAIL"
            click.echo(
                f"{mark} {label}: {len(hashes)} runs, {len(distinct)} distinct hash(es)"
                + ("" if exp else " (no recorded hash)")
            )
            if not (agree and matches):
                for k, h in sorted(hashes.items()):
                    click.echo(f"       {k}: {h}" + ("" if h == exp else "  != recorded" if exp else ""))
        if record and agree:
            expected[label] = distinct.pop()
    if record:
        (DATA / "vectors.json").write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")
    if as_json:
        click.echo(json.dumps(rows, indent=1))
    sys.exit(status)


@main.command("kat")
@selection
@cluster_option
@click.option(
    "--count",
    type=click.IntRange(min=1),
    default=100,
    show_default=True,
    help="number of KAT records to generate (the NIST files have 100)",
)
@click.option("-o", "--output", type=click.Path(file_okay=False), help="write the .rsp files here")
@click.option(
    "--fma",
    is_flag=True,
    help="the FMA study (docs/fndsa.md): native-double FN-DSA / Hawk built with -ffp-contract=fast and "
    "the backend's fused FFT products; not KAT-exact, the verdicts show which records change",
)
@click.option(
    "--db",
    default=None,
    help="also store each run (verdict, records, the whole run's cycles where the runner counts them, wall and CPU "
    "seconds) in this results database",
)
def kat_cmd(schemes, impls, platforms, impl_path, jobs, as_json, count, output, fma, db):
    """Reproduce the NIST KAT response file from its seeds and compare with the reference
    (a dropped-in folder's own KAT/*.rsp when its package has one: first differing record)."""
    import hashlib

    _, _, _, pairs = _resolve(schemes, impls, platforms, impl_path)
    refs = katref.load_refs()
    outs = J.execute(pairs, "kat", jobs, BuildOptions(kat_count=count, fma=fma))
    status = _fail_report(outs)
    if db:
        for o in outs:
            if not o.ok:  # a failed run: its verdict stored too
                _store_functional(db, "kat", o, "records", 0)
    rows = []
    for o in outs:
        if not o.ok:
            continue
        rsp = J.kat_text(o.output)
        if output:
            Path(output).mkdir(parents=True, exist_ok=True)
            tag = "-fma" if fma else ""
            (Path(output) / f"{o.impl.scheme}-{o.impl.name}-{o.plat.name}{tag}.rsp").write_text(rsp)
        pkg_rsp = None if o.impl.own else nistpkg.kat_reference(o.impl.dir, o.impl.scheme, o.impl.name, o.impl.sizes)
        if pkg_rsp is not None:  # the dropped-in package's own KAT/*.rsp comes first
            ok, detail = nistpkg.compare_rsp(rsp, pkg_rsp, count)
            verdict = "ok" if ok else "FAIL"
        else:
            v = katref.check(rsp, katref.ref_for(refs, o.impl.scheme, o.impl.name), count)
            verdict, detail = v.verdict, v.detail
        if verdict != "ok":
            status = 1
        if db:
            _store_functional(
                db, "kat", o, "records", count if verdict == "ok" else 0, verdict == "ok", verdict == "unchecked"
            )
        rows.append(
            {
                "scheme": o.impl.scheme,
                "implementation": o.impl.name,
                "platform": o.plat.name,
                "verdict": verdict,
                "detail": detail,
                "fma": fma,
                "sha256": hashlib.sha256(rsp.encode()).hexdigest(),
            }
        )
        if not as_json:
            click.echo(f"{verdict:<9} {o.impl.id} on {o.plat.name}{' (FMA build)' if fma else ''}: {detail}")
    if as_json:
        click.echo(json.dumps(rows, indent=1))
    sys.exit(status)


@main.command("fma-study")
@click.option("-p", "--platform", "platform", default="aarch64-qemu", show_default=True)
@platform_path_option
@click.option("-i", "--impl", "impl_id", default="fn-dsa-512/fpu", show_default=True, help="implementation id")
@click.option("-n", "--inputs", type=click.IntRange(min=1), default=100000, show_default=True)
@click.option("--kat", "kat_count", type=click.IntRange(min=0), default=0, help="KAT records to compare (0: none)")
@click.option("--counts", is_flag=True, help="qemu-aarch64 instruction counts of both builds (slow: a full trace)")
@click.option("--json", "as_json", is_flag=True)
def fma_study_cmd(platform, impl_id, inputs, kat_count, counts, as_json):
    """The FMA study (docs/fndsa.md): sampler outputs that change when the compiler may fuse,
    the KAT records that change, and instruction counts with and without (not cycles)."""
    import dataclasses
    import tempfile

    from pqlab import fmastudy
    from pqlab.registry import close_matches

    plat = get_platform(platform)
    found = {i.id: i for i in discover()}
    if impl_id not in found:
        raise PqlabError(f"fma-study: no implementation {impl_id}{close_matches(impl_id, found)}")
    impl = found[impl_id]
    with tempfile.TemporaryDirectory(prefix="pqlab-fma-") as tmp:
        d = fmastudy.sampler_differences(plat, inputs, Path(tmp))
    out: dict = {"platform": plat.name, "sampler": dataclasses.asdict(d)}
    if kat_count:
        out["kat"] = fmastudy.kat_differences(plat, impl, kat_count)
    if counts:
        out["instructions"] = {
            "default": fmastudy.instruction_counts(plat, impl, False),
            "fma": fmastudy.instruction_counts(plat, impl, True),
            "unit": "qemu instructions (not cycles)",
        }
    if as_json:
        click.echo(json.dumps(out, indent=1))
        return
    click.echo(
        f"{plat.name}: over {d.n} inputs, differing with -ffp-contract=fast: fndsa_expm_p63(x, ccs) {d.expm_p63}, "
        f"BerExp threshold {d.threshold}, BerExp decision {d.berexp}, SamplerZ {d.samplerz}"
    )
    if kat_count:
        ch = out["kat"]["changed"]
        click.echo(f"{impl.id}: {len(ch)} of {kat_count} KAT records change: {sorted(ch)}")
    if counts:
        for op, n in out["instructions"]["default"].items():
            f = out["instructions"]["fma"].get(op)
            click.echo(f"  {op:<10} {n[0]:>12,} -> {f[0] if f else '-':>12,} qemu instructions (not cycles)")


@main.command("estimate")
@selection
@click.option(
    "--cpu",
    "cpus",
    multiple=True,
    type=click.Choice(["cortex-a72", "cortex-a55", "apple-m1"]),
    help="CPU model(s): llvm-mca's for cortex-a72/a55, pqlab's Firestorm table model for apple-m1 (default: all three)",
)
@click.option("--ops", multiple=True, help="operations to estimate (the harness's names; default: all)")
@click.option("--db", default=str(DEFAULT_DB), show_default=True, help="results database ($PQLAB_DB)")
@click.option("--no-store", is_flag=True, help="do not store the estimates in the database")
@click.option(
    "--portable",
    is_flag=True,
    help="build without the platform's native backends (the portable C; the C side of C vs NEON)",
)
@click.option(
    "--functions",
    "top",
    type=click.IntRange(min=0),
    default=0,
    help="also the N functions with the most estimated cycles per operation",
)
@click.option(
    "--sign-fit",
    "sign_fit",
    type=click.IntRange(min=2),
    default=None,
    help="instead: N signatures (ML-DSA), each one's estimate against its rejection-loop iterations, "
    "and the least-squares line; not stored",
)
def estimate_cmd(schemes, impls, platforms, impl_path, jobs, as_json, cpus, ops, db, no_store, portable, top, sign_fit):
    """Cycle ESTIMATES for Cortex-A72, Cortex-A55 and Apple M1 without the hardware (docs/neon.md,
    "Cycle estimates"): qemu-aarch64 block execution counts of the speed program times each
    block's cost (llvm-mca 19 for Cortex-A72/A55, pqlab's Firestorm table model for Apple M1).
    A model's output, not a measurement; stored as platform estimate-<cpu>, metric "estimate",
    with the cost model's version and method."""
    from pqlab import estimate as E

    cpus = cpus or tuple(E.CPUS)
    # each CPU on the QEMU CPU model that takes its optional-instruction paths, unless -p is given
    groups: dict[str, list[str]] = {}
    for cpu in cpus:
        for p in platforms or [E.QEMU_PLATFORM[cpu]]:
            groups.setdefault(p, []).append(cpu)
    rows = []
    if sign_fit:
        for pname, pcpus in groups.items():
            _, _, _, pairs = _resolve(schemes, impls, [pname], impl_path)
            for impl, plat in pairs:
                plat = plat.portable_build() if portable else plat
                rows += _sign_fit_rows(impl, plat, E.sign_fit(plat, impl, tuple(pcpus), sign_fit), as_json)
        if as_json:
            click.echo(json.dumps(rows, indent=1))
        return
    store = None if no_store else Store(db)
    try:
        for pname, pcpus in groups.items():
            _, _, _, pairs = _resolve(schemes, impls, [pname], impl_path)
            for impl, plat in pairs:
                plat = plat.portable_build() if portable else plat
                ests = E.estimate(plat, impl, tuple(pcpus), tuple(ops), functions=top > 0)
                if store is not None:
                    with signals_deferred():
                        E.store(store, plat, ests)
                rows += _estimate_rows(impl, plat, ests, as_json, top)
    finally:
        if store is not None:
            store.close()
    if as_json:
        click.echo(json.dumps(rows, indent=1))


def _sign_fit_rows(impl, plat, fits, as_json: bool) -> list[dict]:
    """`pqlab estimate --sign-fit`'s JSON rows (one per CPU model) and its text; the line's value at
    FIPS 204's expected iteration count where the scheme has one."""
    from pqlab.estimate import EXPECTED_SIGN_ITERATIONS

    expected = EXPECTED_SIGN_ITERATIONS.get(impl.scheme)
    rows = [
        {
            "scheme": impl.scheme,
            "implementation": impl.name,
            "platform": plat.name,
            "build": plat.variant or "default",
            "cpu": f.cpu,
            "model": f.model,
            "iterations": f.iterations,
            "estimate_cycles": [round(c) for c in f.cycles],
            "fixed": round(f.fixed),
            "per_iteration": round(f.per_iteration),
            "expected_iterations": expected,
            "at_expected": round(f.at(expected)) if expected else None,
        }
        for f in fits
    ]
    if not as_json:
        for f in fits:
            click.echo(
                f"{impl.id} on {plat.name}{' without native backends' if plat.variant == 'portable' else ''}, "
                f"sign on {f.cpu} ({f.model}), ESTIMATES per signature:"
            )
            for it, c in zip(f.iterations, f.cycles):
                click.echo(f"  {it:>3} iterations {round(c):>14,}  (line {round(f.at(it)):>14,})")
            mean = sum(f.cycles) / len(f.cycles)
            at = f"; at FIPS 204's expected {expected} iterations {round(f.at(expected)):,}" if expected else ""
            click.echo(
                f"  line: {round(f.fixed):,} + {round(f.per_iteration):,} per iteration{at}; mean of these "
                f"{len(f.cycles)} {round(mean):,} (mean {sum(f.iterations) / len(f.iterations):.2f} iterations)"
            )
        click.echo("  (estimated cycles: llvm-mca block costs x qemu block counts; not measured; not stored)")
    return rows


def _estimate_rows(impl, plat, ests, as_json: bool, top: int = 0) -> list[dict]:
    """`pqlab estimate`'s JSON rows of one implementation on one QEMU platform, and its text."""
    b = ests[0].build
    rows = [
        {
            "scheme": impl.scheme,
            "implementation": impl.name,
            "platform": plat.name,
            "build": plat.variant or "default",
            "compiler": f"{b.compiler} {b.compiler_version}" if b else "",
            "operation": op,
            "qemu_instructions": ests[0].instructions[k],
            "estimate_cycles": {e.cpu: round(e.cycles[k]) for e in ests},
            "model": {e.cpu: e.model for e in ests},
            "notes": {e.cpu: e.note for e in ests if e.note},
            "functions": {e.cpu: {f: round(c) for f, c in list(e.functions[k].items())[:top]} for e in ests}
            if top
            else {},
        }
        for k, op in enumerate(ests[0].ops)
    ]
    if not as_json:
        click.echo(
            f"{impl.id} built for {plat.name}{' without native backends' if plat.variant == 'portable' else ''} "
            f"({b.compiler_version if b else '?'}); ESTIMATES:"
        )
        for e in ests:
            click.echo(f"  {e.cpu}: {e.model}")
            if e.note:
                click.secho(f"  note: {e.note}", fg="yellow")
        head = "".join(f"{e.cpu + ' (est.)':>22}" for e in ests)
        click.echo(f"  {'operation':<12}{'qemu insns':>14}{head}")
        for k, op in enumerate(ests[0].ops):
            cells = "".join(f"{round(e.cycles[k]):>22,}" for e in ests)
            click.echo(f"  {op:<12}{ests[0].instructions[k]:>14,}{cells}")
        for k, op in enumerate(ests[0].ops if top else []):
            for e in ests:
                total = e.cycles[k] or 1.0
                click.echo(f"  {op} on {e.cpu}, top {top} functions (estimated cycles, share):")
                for f, c in list(e.functions[k].items())[:top]:
                    click.echo(f"    {f:<48}{round(c):>14,}{c / total:>8.1%}")
        click.echo("  (estimated cycles: modelled block costs x qemu block counts; not measured)")
    return rows


@main.command("acvp")
@click.argument("prompt", type=click.Path(dir_okay=False, exists=True))
@click.option("-i", "--impl", "impl_name", help="implementation name (default: the first own one with a driver)")
@click.option("-p", "--platform", "platform", default="host", show_default=True)
@platform_path_option
@click.option("--impl-path", multiple=True, type=click.Path(file_okay=False))
@click.option("-j", "--jobs", type=JOBS, default=os.cpu_count() or 2, show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="write the response file here")
@click.option(
    "--expected",
    type=click.Path(dir_okay=False, exists=True),
    help="expectedResults (or internalProjection) file to compare with",
)
@click.option("--json", "as_json", is_flag=True)
@timeout_option
def acvp_cmd(prompt, impl_name, platform, impl_path, jobs, output, expected, as_json):
    """Answer an ACVP prompt file (ML-KEM, ML-DSA, SLH-DSA) and compare with expected results."""
    impls = discover([Path(p) for p in impl_path])
    plat = get_platform(platform)
    res = acvp_mod.run_prompt(acvp_mod.load(Path(prompt)), impls, plat, impl_name, jobs)
    if output:
        Path(output).write_text(json.dumps(res.response, indent=1) + "\n")
    if expected:
        acvp_mod.compare(res, acvp_mod.load(Path(expected)))
    answered = sum(len(g["tests"]) for g in res.response["testGroups"])
    summary = {
        "answered": answered,
        "compared": res.compared,
        "mismatches": res.mismatches,
        "unsupported": res.unsupported,
        "invalid": res.invalid,
        "failed": res.failed,
        "ok": res.ok,
    }
    if as_json:
        click.echo(json.dumps(summary, indent=1))
    else:
        for m in res.unsupported:
            click.secho(f"unsupported: {m}", fg="yellow")
        for m in res.invalid:
            click.secho(f"invalid input: {m}", fg="red")
        for m in res.failed:
            click.secho(f"failed: {m}", fg="red")
        for m in res.mismatches:
            click.secho(f"mismatch: {m}", fg="red")
        click.echo(
            f"{answered} test cases answered on {plat.name}"
            + (f", {res.compared} compared, {len(res.mismatches)} mismatches" if expected else "")
        )
    sys.exit(0 if res.ok else 1)


@main.command("bench")
@selection
@cluster_option
@click.option("--iterations", "-n", type=ITERATIONS, default=10, show_default=True, help="iterations per operation")
@click.option("--db", default=str(DEFAULT_DB), show_default=True, help="results database ($PQLAB_DB)")
@click.option("--all", "include_slow", is_flag=True, help="include implementations marked slow (e.g. SLH-DSA 's' sets)")
@click.option(
    "--ops",
    "ops",
    default="",
    help="measure only these operations, comma-separated (e.g. verify; keypair,sign): the others run "
    "once, unmeasured, where a selected one needs their output",
)
def bench_cmd(schemes, impls, platforms, impl_path, jobs, as_json, iterations, db, include_slow, ops):
    """Speed, stack/RAM, hashing share and size; stored in the results database, then reported."""
    store = Store(db)
    click.echo(f"results database: {store.path}", err=True)
    plats = platforms or [default_platform()]
    _, _, _, pairs = _resolve(schemes, impls, plats, impl_path)
    if not (schemes or include_slow):
        pairs = [(i, p) for i, p in pairs if not i.slow]
    selected = tuple(dict.fromkeys(o.strip() for o in ops.split(",") if o.strip()))
    if ops and not selected:
        raise click.BadParameter("no operation named", param_hint="--ops")
    for op in selected:
        if not any(op in i.operations for i, _ in pairs):
            known = sorted({o for i, _ in pairs for o in i.operations})
            raise click.BadParameter(
                f"{op!r} is no operation of the selected implementations ({', '.join(known)})", param_hint="--ops"
            )
    for i, _ in pairs:
        if selected and not set(selected) & set(i.operations):
            raise click.BadParameter(
                f"none of {', '.join(selected)} is an operation of {i.id} ({', '.join(i.operations)})",
                param_hint="--ops",
            )
    outs = J.bench(pairs, store, jobs, BuildOptions(iterations=iterations, ops=selected))
    status = _fail_report(outs)
    for o in outs:
        timer = o.output.timer if o.ok and o.output else ""
        if timer and timer != o.plat.timer_name:
            click.secho(
                f"note: {o.impl.id} on {o.plat.name} ran with timer {timer} ({o.plat.unit_of(timer)}), not "
                f"{o.plat.timer_name} ({o.plat.timer_unit}): its figures are stored and reported in that unit",
                fg="yellow",
                err=True,
            )
    recs = R.aggregate(store.latest([i.scheme for i, _ in pairs], [i.name for i, _ in pairs], plats))
    click.echo(R.to_json(recs) if as_json else R.markdown(recs))
    sys.exit(status)


@main.command("size")
@selection
def size_cmd(schemes, impls, platforms, impl_path, jobs, as_json):
    """.text/.data/.bss of each implementation's own objects and of its linked test binary."""
    plats = platforms or [default_platform()]
    _, _, _, pairs = _resolve(schemes, impls, plats, impl_path)
    res = J.build_all(pairs, ("test",), jobs, BuildOptions())
    rows, status = [], 0
    for impl, plat in pairs:
        b = res[(impl.id, plat.name)]
        if b.error:
            click.secho(b.error, fg="red", err=True)
            status = 1
            continue
        own = sizes(plat, b.objects)
        binary = sizes(plat, [b.elf["test"]])
        rows.append(
            {
                "scheme": impl.scheme,
                "implementation": impl.name,
                "platform": plat.name,
                "objects": own,
                "test_binary": binary,
            }
        )
    if as_json:
        click.echo(json.dumps(rows, indent=1))
    else:
        click.echo(
            "| scheme | implementation | platform | .text | .data | .bss | total | test binary .text | .data | .bss |"
        )
        click.echo("|---|---|---|--:|--:|--:|--:|--:|--:|--:|")
        for r in rows:
            o, t = r["objects"], r["test_binary"]
            click.echo(
                f"| {r['scheme']} | {r['implementation']} | {r['platform']} | {o['text']:,} | {o['data']:,} | {o['bss']:,} | "
                f"{o['text'] + o['data'] + o['bss']:,} | {t['text']:,} | {t['data']:,} | {t['bss']:,} |"
            )
    sys.exit(status)


def _stored(db: str, schemes, impls, platforms) -> list[dict]:
    """The newest stored results of a selection, read without writing; a filter value that
    matches nothing stored is an error naming what is there."""
    store = Store(db, readonly=True)
    click.echo(f"results database: {store.path}", err=True)
    # -p PLATFORM: every toolchain of it; -p PLATFORM[TOOLCHAIN]: that toolchain's runs only
    plat_names = list(dict.fromkeys(p.split("[", 1)[0] for p in platforms))
    try:
        for column, label, wanted in (
            ("scheme", "-s", schemes),
            ("implementation", "-i", impls),
            ("platform", "-p", plat_names),
        ):
            have = store.distinct(column)
            unknown = [w for w in wanted if w not in have]
            if unknown:
                raise PqlabError(
                    f"no stored results for {column} {', '.join(unknown)} ({label}); stored: {', '.join(have) or 'none'}"
                )
        rows = store.latest(schemes, impls, plat_names)
    finally:
        store.close()
    if any("[" in p for p in platforms):
        rows = [r for r in rows if r["platform"] in platforms or f"{r['platform']}[{r['toolchain']}]" in platforms]
    if not rows:
        raise PqlabError(f"no stored results match this selection in {db}")
    return rows


@main.command("report")
@click.option("-s", "--scheme", "schemes", multiple=True)
@click.option("-i", "--impl", "impls", multiple=True)
@click.option("-p", "--platform", "platforms", multiple=True)
@platform_path_option
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["markdown", "csv", "json", "html", "pqm4", "pqm4-md", "pqm4-csv"]),
    default="markdown",
    show_default=True,
    help="pqm4: benchmarks.md and benchmarks.csv in pqm4's layout into the folder -o (one platform)",
)
@click.option(
    "-o", "--output", type=click.Path(), help="write the report to this file (pqm4: this folder) instead of stdout"
)
@click.option(
    "--speedup",
    nargs=2,
    metavar="BASE ACCELERATED",
    help="instead: base against accelerated platform per scheme and operation (mean cycles, ratio base / accelerated)",
)
@click.option("--db", default=str(DEFAULT_DB), show_default=True, help="results database ($PQLAB_DB)")
def report_cmd(schemes, impls, platforms, fmt, output, speedup, db):
    """Render stored results (newest run of each measurement) as Markdown, CSV, JSON or HTML with plots."""
    rows = _stored(db, schemes, impls, platforms)
    if speedup:
        if fmt != "markdown":
            raise PqlabError("--speedup renders Markdown only")
        text = R.speedup(R.aggregate(rows), *speedup)
    elif fmt.startswith("pqm4"):
        from pqlab import pqm4format

        if fmt == "pqm4":
            if not output:
                raise PqlabError("--format pqm4 writes benchmarks.md and benchmarks.csv: name their folder with -o")
            Path(output).mkdir(parents=True, exist_ok=True)
            for name, md in (("benchmarks.md", True), ("benchmarks.csv", False)):
                _write_atomic(Path(output) / name, pqm4format.render(rows, md))
            click.echo(f"wrote {output}/benchmarks.md and benchmarks.csv", err=True)
            return
        text = pqm4format.render(rows, fmt == "pqm4-md")
    elif fmt == "html":
        # a scheme with a native-floating-point implementation (pqlab.toml fpr = "native"): its others emulate
        impls = discover([])
        fp_schemes = {i.scheme for i in impls if i.fpr == "native"}
        text = R.to_html(
            R.aggregate(rows), {(i.scheme, i.name): i.fpr or "emulated" for i in impls if i.scheme in fp_schemes}
        )
    else:
        text = {"markdown": R.markdown, "csv": R.to_csv, "json": R.to_json}[fmt](R.aggregate(rows))
    if output:
        _write_atomic(Path(output), text)
        click.echo(f"wrote {output}", err=True)
    else:
        click.echo(text, nl=False)


def _write_atomic(path: Path, text: str) -> None:
    """Write a file whole or not at all: an earlier report survives a failure."""
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    try:
        tmp.write_text(text)
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)


@main.command("compare")
@click.option("-s", "--scheme", "schemes", multiple=True)
@click.option("-i", "--impl", "impls", multiple=True)
@click.option("-p", "--platform", "platforms", multiple=True)
@platform_path_option
@click.option("--metric", default="speed", show_default=True, type=click.Choice(["speed", "stack", "ram", "hashing"]))
@click.option("--baseline", metavar="IMPL@PLATFORM", help="the column ratios are taken to [default: the first]")
@click.option("--db", default=str(DEFAULT_DB), show_default=True, help="results database ($PQLAB_DB)")
def compare_cmd(schemes, impls, platforms, metric, baseline, db):
    """Implementations and platforms side by side per operation, with ratios to a baseline of the same unit."""
    click.echo(R.compare(R.aggregate(_stored(db, schemes, impls, platforms)), metric, baseline), nl=False)


@main.command("profile")
@selection
@click.option("--top", type=click.IntRange(min=1), default=12, show_default=True, help="functions shown per operation")
def profile_cmd(schemes, impls, platforms, impl_path, jobs, as_json, top):
    """Top functions of each operation (exclusive and inclusive cycles) from the simulator's profile."""
    from pqlab.profile import profile

    _, _, _, pairs = _resolve(schemes, impls, platforms or [default_platform()], impl_path)
    rows = []
    for impl, plat in pairs:
        for op, data in profile(impl, plat).items():
            funcs = sorted(data["functions"].items(), key=lambda kv: -kv[1][0])[:top]
            rows.append(
                {
                    "scheme": impl.scheme,
                    "implementation": impl.name,
                    "platform": plat.name,
                    "operation": op,
                    "cycles": data["total"],
                    "functions": [{"name": n, "exclusive": e, "inclusive": i} for n, (e, i) in funcs],
                }
            )
    if as_json:
        click.echo(json.dumps(rows, indent=1))
        return
    for r in rows:
        click.echo(
            f"\n### {r['scheme']} {r['implementation']} {r['operation']} on {r['platform']}: {r['cycles']:,} cycles\n"
        )
        click.echo("| function | exclusive | % | inclusive |\n|---|--:|--:|--:|")
        for f in r["functions"]:
            click.echo(
                f"| {f['name']} | {f['exclusive']:,} | {100 * f['exclusive'] / r['cycles']:.1f} | {f['inclusive']:,} |"
            )


@main.command("calibrate")
@click.argument("schemes", nargs=-1)
@click.option("-p", "--platform", "platform", default="m4-sim", show_default=True, help="a pqlab-sim platform")
@platform_path_option
@click.option("--set", "which", type=click.Choice(["all", "calibration", "held-out"]), default="all", show_default=True)
@click.option(
    "--cache",
    type=click.Path(file_okay=False),
    default=None,
    help="download/extract directory [default: build/calibration]",
)
@click.option(
    "-n",
    "--iterations",
    type=ITERATIONS,
    default=None,
    help="speed runs per operation (default: per scheme, calibration.toml)",
)
@click.option("-j", "--jobs", type=JOBS, default=os.cpu_count() or 2, show_default=True, help="parallel jobs")
@click.option(
    "--compiler",
    type=click.Choice(["reference", "platform"]),
    default="reference",
    show_default=True,
    help="build the implementations with the reference figures' compiler (downloaded once) or the platform's",
)
@click.option("--json", "as_json", is_flag=True, help="machine-readable output")
@click.option(
    "--pqm4",
    "pqm4",
    is_flag=True,
    help="instead: pqm4's whole corpus built by pqm4's own make, run on the simulator, against pqm4's benchmarks.md "
    "(SCHEMES: scheme name prefixes; docs/sim.md)",
)
@click.option(
    "--tarball",
    type=click.Path(dir_okay=False, exists=True),
    default=None,
    help="with --pqm4: pqm4's tarball [default: $PQLAB_THIRDPARTY/pqm4-cc2c1b9.tar.gz]",
)
@click.option(
    "--from-db",
    "from_db",
    is_flag=True,
    help="instead: the model's error per operation where the results DB holds a board run and a simulator run of the same build",
)
@click.option("--db", default=str(DEFAULT_DB), show_default=True, help="results database for --from-db ($PQLAB_DB)")
@timeout_option
def calibrate_cmd(schemes, platform, which, cache, iterations, jobs, compiler, as_json, pqm4, tarball, from_db, db):
    """Compare the simulator's cycles with pqm4's real-board figures for PQClean clean code (pqlab/data/calibration.toml),
    or (--pqm4) for pqm4's whole corpus, or (--from-db) with board runs stored in the results database."""
    if pqm4:
        from pqlab import calibrate_pqm4 as P

        if from_db:
            raise click.UsageError("--pqm4 and --from-db are two different comparisons: give one")
        if compiler != "reference" or which != "all":
            raise click.UsageError(
                "--pqm4 builds with pqm4's reference compiler (Arm GNU 13.2.1) and has no sets: "
                "--compiler platform and --set do not apply"
            )

        def progress(r) -> None:
            ops = ", ".join(f"{op} {statistics.fmean(v):,.0f}" for op, v in r.runs.items())
            click.echo(
                f"# {r.scheme} {r.impl}: {r.status} ({r.seconds_build:.0f} s build, {r.seconds_run:.0f} s run) {ops}",
                err=True,
            )

        res = P.calibrate_pqm4(
            get_platform(platform),
            tuple(schemes),
            Path(tarball) if tarball else None,
            Path(cache) if cache else P.DEFAULT_WORK,
            iterations or 1,
            progress=progress,
        )
        if as_json:
            click.echo(json.dumps(res, indent=1))
            return
        click.echo(f"reference: {res['reference']}\nmodel: {res['model']}\ncompiler: {res['compiler']}")
        click.echo(f"build: {res['build']}\ncounted: {res['deterministic_rule']}\n")
        click.echo(P.table_md(res["rows"], res["summary"]), nl=False)
        return
    if from_db:
        from pqlab import calibrate_db

        res = calibrate_db.from_db(Path(db), schemes)
        click.echo(json.dumps(res, indent=1) if as_json else calibrate_db.table(res), nl=not as_json)
        return
    from pqlab import calibrate as C

    res = C.calibrate(
        get_platform(platform),
        Path(cache) if cache else C.DEFAULT_CACHE,
        schemes,
        which,
        jobs,
        iterations,
        compiler=compiler,
    )
    if as_json:
        click.echo(json.dumps(res, indent=1))
        return
    src = res["source"]
    click.echo(f"reference: {src['repo']} {src['file']} @ {src['commit']} ({src['board']})")
    click.echo(f"model: {res['model']}")
    click.echo(f"implementations compiled with: {res['compiler']}\n")
    click.echo(C.table(res["rows"], res["summary"]), nl=False)


@main.command("export")
@click.argument("schemes", nargs=-1, required=True)
@click.option("-i", "--impl", "impl", required=True, help="implementation name, e.g. ref or smallstack")
@click.option("-p", "--platform", "platform", required=True, help="target platform (see `pqlab list`)")
@click.option("-o", "--output", "output", required=True, type=click.Path(), help="folder to write")
@click.option(
    "--toolchain",
    type=click.Choice(toolchains.names()),
    default=toolchains.DEFAULT,
    show_default=True,
    help="compiler the folder is checked with (docs/toolchains.md)",
)
@click.option("--prefix", default=None, help="namespace prefix of every global symbol [default: pqlab_<schemes>_]")
@click.option("--randombytes", default="pqlab_randombytes", show_default=True, help="the function the library calls")
@click.option("--keccak", default=None, metavar="FUNCTION", help="the application's Keccak-f[1600] (no pqlab Keccak)")
@click.option(
    "--sha2",
    default=None,
    metavar="F256,F512",
    help="the application's SHA-256 and SHA-512 compression functions (no pqlab SHA-2 compression)",
)
@click.option("--contract-checks", is_flag=True, help="debug bound checks on (lib/native/api.h)")
@click.option("--verify", is_flag=True, help="also build the harness against the folder and run test + KAT")
@click.option("--force", is_flag=True, help="replace a non-empty output folder")
@click.option("-j", "--jobs", type=JOBS, default=1, show_default=True, help="parallel jobs (--verify)")
@click.option("--json", "as_json", is_flag=True, help="print the manifest (EXPORT.json)")
def export_cmd(
    schemes,
    impl,
    platform,
    output,
    toolchain,
    prefix,
    randombytes,
    keccak,
    sha2,
    contract_checks,
    verify,
    force,
    jobs,
    as_json,
):
    """Export an implementation for a platform as a self-contained library folder (docs/export.md)."""
    from pqlab import export as X

    plat = toolchains.apply(get_platform(platform), toolchain)
    pair = None
    if sha2 is not None:
        parts = sha2.split(",")
        if len(parts) != 2:
            raise PqlabError(f"--sha2 {sha2!r}: give the two functions as SHA256_FUNCTION,SHA512_FUNCTION")
        pair = (parts[0], parts[1])
    opts = X.Options(prefix=prefix, randombytes=randombytes, keccak=keccak, sha2=pair, contract_checks=contract_checks)
    m = X.export(schemes, impl, plat, Path(output), opts, force=force, verify=verify, jobs=jobs)
    if as_json:
        click.echo(json.dumps(m, indent=1))
    else:
        click.echo(f"exported {', '.join(s['id'] for s in m['schemes'])} for {plat.name} to {output}")
        click.echo(f"  {m['files']['count']} files, {m['files']['bytes']} bytes; prefix {m['config']['prefix']}")
        for v in m["checks"].values():
            click.echo(f"  {v}")
        click.echo(f"  needs from the application / C library: {', '.join(m['needs']) or 'nothing'}")
        click.echo(f"  verification: {m['verification']['status']}")
    if m["verification"]["status"] == "failed":
        click.secho(json.dumps(m["verification"], indent=1), fg="red", err=True)
        sys.exit(1)
