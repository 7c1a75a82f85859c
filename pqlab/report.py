"""Reports: Markdown (pqm4 layout), CSV and JSON from the results store."""

from __future__ import annotations

import csv
import io
import json
import math
import statistics
from collections import defaultdict
from dataclasses import dataclass

from pqlab import PqlabError
from pqlab.registry import OPERATIONS
from pqlab.results import Context

CONTEXT_KEYS = [k for k in Context.__dataclass_fields__ if k not in ("scheme", "implementation", "platform")]
UNITS = {
    "speed": None,
    "stack": "bytes",
    "ram": "bytes",
    "size": "bytes",
    "hashing": "percent",
    "iterations": "count",
    "simspeed": "M instructions/s",
    "estimate": "cycles (estimate)",  # pqlab estimate: llvm-mca per block x qemu block counts (pqlab/estimate.py)
    "ct": "count",  # pqlab ct: status and finding counts (pqlab/ctcheck.py, store_rows)
    # pqlab test / kat --db: ok, checks or records, the run's cycles, wall s and cpu s (cli._store_functional)
    "test": "per operation",
    "kat": "per operation",
}


def platform_label(row: dict) -> str:
    """The platform as reports show it: PLATFORM, or PLATFORM[TOOLCHAIN] when built with another
    toolchain than the platform's own (so compare puts IMPL@PLATFORM[TOOLCHAIN] columns side by side)."""
    tc = row.get("toolchain") or "gcc"
    return row["platform"] if tc == "gcc" else f"{row['platform']}[{tc}]"


def aggregate(rows: list[dict]) -> list[dict]:
    """One record per (scheme, implementation, platform[toolchain], metric, operation) with its statistics."""
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for r in rows:
        groups[(r["scheme"], r["implementation"], platform_label(r), r["metric"], r["operation"])].append(r)
    out = []
    for (scheme, impl, plat, metric, op), rs in groups.items():
        vals = [r["value"] for r in rs]
        n = len(vals)
        sd = statistics.stdev(vals) if n > 1 else 0.0
        ctx = {k: rs[0][k] for k in CONTEXT_KEYS}
        unit = UNITS[metric] or rs[0]["unit"]
        rec = {
            "scheme": scheme,
            "implementation": impl,
            "platform": plat,
            "metric": metric,
            "operation": op,
            "unit": unit,
            "n": n,
            "min": min(vals),
            "median": statistics.median(vals),
            "mean": statistics.fmean(vals),
            "max": max(vals),
            "stdev": sd,
            "stderr": sd / math.sqrt(n),
            "context": ctx,
        }
        if metric == "speed":
            rec["ms"] = _ms(rec["mean"], unit, ctx["clock_hz"])
        if metric == "iterations":  # the distribution of rejection-loop / restart counts
            hist: dict[int, int] = defaultdict(int)
            for v in vals:
                hist[int(v)] += 1
            rec["histogram"] = dict(sorted(hist.items()))
        out.append(rec)
    return out


def _ms(value: float, unit: str, clock_hz: int) -> float | None:
    if unit == "ns":
        return value / 1e6
    if unit in ("cycles", "instructions") and clock_hz:
        return value / clock_hz * 1e3
    return None


OPS_ORDER = OPERATIONS["kem"] + OPERATIONS["sign"]


def _op_order(kind_ops: list[str], op: str) -> tuple[int, str]:
    return (kind_ops.index(op) if op in kind_ops else 99, op)


def _fmt(v: float | None) -> str:
    if v is None:
        return "—"
    if abs(v - round(v)) < 1e-9:
        return f"{int(round(v)):,}"
    return f"{v:,.1f}"


@dataclass
class Table:
    """One report table, rendered as Markdown or HTML: the first `left` columns are labels."""

    title: str
    header: list[str]
    rows: list[list[str]]
    left: int = 2


@dataclass
class Section:
    """The tables of one platform, under a heading with the notes that qualify its figures."""

    heading: str
    notes: list[str]
    tables: list[Table]


def sections(records: list[dict]) -> list[Section]:
    """The report's structure, one section per platform, shared by every rendering."""
    by_plat: dict[str, list[dict]] = defaultdict(list)
    for r in records:
        by_plat[r["platform"]].append(r)
    out = []
    for plat, recs in sorted(by_plat.items()):
        speed = [r for r in recs if r["metric"] == "speed"]
        c = (speed or recs)[0]["context"]
        clock = c["clock_hz"]
        timed = any(r["metric"] != "ct" for r in recs)  # a section of ct verdicts alone has no cycle counts
        model = str(c.get("model", ""))
        estimate = any(r["metric"] == "estimate" for r in recs)
        if not timed or not model:
            notes = []
        elif estimate:
            notes = [f"ESTIMATES, not measurements: qemu-aarch64 block counts x block costs of {model} (docs/neon.md)."]
        elif model.startswith("exact (RTL)"):
            notes = [f"Exact (RTL): cycle counts of the core's own counter in its Verilated RTL, {model[13:]}."]
        else:
            notes = [f"Simulated: cycle counts from the timing model {model}, not from a board."]
        tables = []
        if speed:
            unit = speed[0]["unit"]
            note = {
                "instructions": " — instruction counts from QEMU -icount, not core cycles",
                "cycles": f" — timer {c['timer']}",
                "ns": " — wall-clock nanoseconds",
            }.get(unit, "")
            rows = []
            for r in sorted(
                speed, key=lambda r: (r["scheme"], r["implementation"], _op_order(OPS_ORDER, r["operation"]))
            ):
                ms = "—" if r.get("ms") is None else f"{r['ms']:,.2f}"
                rows.append(
                    [r["scheme"], r["implementation"], r["operation"], str(r["n"])]
                    + [_fmt(r[k]) for k in ("min", "median", "mean", "max", "stdev", "stderr")]
                    + [ms]
                )
            tables.append(
                Table(
                    f"Speed [{unit}]{note}",
                    [
                        "scheme",
                        "implementation",
                        "operation",
                        "n",
                        "min",
                        "median",
                        "mean",
                        "max",
                        "stdev",
                        "stderr",
                        f"ms @ {clock / 1e6:g} MHz",
                    ],
                    rows,
                    left=3,
                )
            )
        tables += _pivot(recs, "estimate", "Estimated cycles (llvm-mca model, not measured)", OPS_ORDER)
        tables += _pivot(
            recs,
            "stack",
            "Stack [bytes] (peak per operation) and RAM [bytes] (stack + .data + .bss)",
            OPS_ORDER,
            extra="ram",
        )
        tables += _pivot(recs, "hashing", "Cycles spent in SHA-2 / SHA-3 / AES [%]", OPS_ORDER)
        tables += _pivot(
            recs, "iterations", "Rejection-loop iterations (mean; max in parentheses)", OPS_ORDER, with_max=True
        )
        tables += _histograms(recs)
        tables += _pivot(
            recs, "size", "Code size [bytes]", ["text", "data", "bss", "binary-text", "binary-data", "binary-bss"]
        )
        tables += _ct_table(recs)
        tables += _functional_table(recs)
        tables += _pivot(
            recs,
            "simspeed",
            "Simulator speed [million instructions per second]: the speed program, "
            "timing model on, and QEMU -icount on the same binary, one after the other on this machine",
            ["pqlab-sim"],
        )
        clock_note = "estimate" if estimate else f"{clock / 1e6:g} MHz benchmark clock"
        out.append(Section(f"{plat} ({c['core']}, {clock_note})", notes, tables))
    return out


def _md_table(t: Table) -> list[str]:
    return (
        [
            f"### {t.title}\n",
            "| " + " | ".join(t.header) + " |",
            "|" + "---|" * t.left + "--:|" * (len(t.header) - t.left),
        ]
        + ["| " + " | ".join(r) + " |" for r in t.rows]
        + [""]
    )


def markdown(records: list[dict]) -> str:
    out = []
    for sec in sections(records):
        out.append(f"## {sec.heading}\n")
        out += [f"{n}\n" for n in sec.notes]
        for t in sec.tables:
            out += _md_table(t)
    return "\n".join(out) + "\n"


def _pivot(recs, metric, title, order, extra=None, with_max=False) -> list[Table]:
    sel = [r for r in recs if r["metric"] in (metric, extra)]
    if not sel:
        return []
    cols = sorted({(r["metric"], r["operation"]) for r in sel}, key=lambda k: (k[0] != metric, _op_order(order, k[1])))
    rows: dict[tuple, dict] = defaultdict(dict)
    for r in sel:
        v = r["mean"] if metric in ("hashing", "iterations", "simspeed") else r["max"]
        cell = f"{v:.1f}" if metric in ("hashing", "simspeed") else _fmt(v)
        if with_max:
            cell = f"{r['mean']:.2f} ({_fmt(r['max'])})"
        rows[(r["scheme"], r["implementation"])][(r["metric"], r["operation"])] = cell
    head = [op if m == metric else f"{m} {op}" for m, op in cols]
    body = [[s, i] + [cells.get(c, "—") for c in cols] for (s, i), cells in sorted(rows.items())]
    return [Table(title, ["scheme", "implementation"] + head, body)]


def _ct_table(recs) -> list[Table]:
    """`pqlab ct`'s newest verdict per implementation on this platform: status, findings not
    accepted, findings accepted by a ledger, secret selects (constant time on the core, listed),
    instructions tracked, checker and its version, commit and date of the check."""
    from pqlab.ctcheck import CT_STATUS

    by_impl: dict[tuple[str, str], dict[str, dict]] = defaultdict(dict)
    for r in recs:
        if r["metric"] == "ct":
            by_impl[(r["scheme"], r["implementation"])][r["operation"]] = r
    if not by_impl:
        return []
    rows = []
    for (scheme, impl), ops in sorted(by_impl.items()):
        st = ops.get("status")
        ctx = (st or next(iter(ops.values())))["context"]
        # only the figures of the newest check (an older one may have stored an operation it lacks)
        ops = {k: r for k, r in ops.items() if r["context"]["date"] == ctx["date"]}
        status = CT_STATUS.get(int(st["mean"]), "?") if st else "?"
        if status == "error":
            status += f": {ctx['command'].removeprefix('pqlab ct').strip(' ()')}"[:120]
        cell = {k: _fmt(ops[k]["mean"]) if k in ops else "—" for k in ("unaccepted", "ledgered", "selects")}
        ins = ops.get("instructions")
        classes = ", ".join(
            f"{k.removeprefix('unaccepted ')} {_fmt(r['mean'])}"
            for k, r in sorted(ops.items())
            if k.startswith("unaccepted ")
        )
        rows.append(
            [
                scheme,
                impl,
                status,
                cell["unaccepted"],
                classes or "—",
                cell["ledgered"],
                cell["selects"],
                f"{ins['mean'] / 1e6:,.1f} M" if ins else "—",
                ctx["timer"],
                f"{ctx['pqlab_commit'][:10]}{'+' if ctx['dirty'] else ''} {ctx['date'][:10]}",
            ]
        )
    return [
        Table(
            "Constant time (`pqlab ct`, newest check): findings not accepted fail the check; "
            "ledgered = accepted by a ct-ledger.toml entry with a reason; known leak = every finding declared a known leak of that implementation on that core (`known_leak = true`, with its reason); selects = secret IT "
            "selects of single-cycle instructions, constant time on the core (places, not executions)",
            [
                "scheme",
                "implementation",
                "status",
                "unaccepted",
                "unaccepted by class",
                "ledgered",
                "selects",
                "instructions tracked",
                "checker",
                "commit, date",
            ],
            rows,
            left=3,
        )
    ]


def _functional_table(recs) -> list[Table]:
    """The newest `pqlab test` / `pqlab kat` run stored with --db per implementation and program:
    verdict, checks or records passed, the whole run's cycles (where the runner counts them), its
    wall and CPU seconds, commit and date."""
    by: dict[tuple[str, str, str], dict[str, dict]] = defaultdict(dict)
    for r in recs:
        if r["metric"] in ("test", "kat"):
            by[(r["scheme"], r["implementation"], r["metric"])][r["operation"]] = r
    rows = []
    for (scheme, impl, program), ops in sorted(by.items()):
        ctx = ops["ok"]["context"] if "ok" in ops else next(iter(ops.values()))["context"]
        ops = {k: r for k, r in ops.items() if r["context"]["date"] == ctx["date"]}  # one run's figures
        count = ops.get("checks") or ops.get("records")
        secs = [f"{ops[k]['mean']:,.1f}" if k in ops else "—" for k in ("wall s", "cpu s")]
        rows.append(
            [
                scheme,
                impl,
                program,
                "pass"
                if "ok" in ops and ops["ok"]["mean"] == 1
                else "unchecked (no reference)"
                if "unchecked" in ops
                else "FAIL",
                _fmt(count["mean"]) if count else "—",
                _fmt(ops["cycles"]["mean"]) if "cycles" in ops else "—",
                " / ".join(secs),
                f"{ctx['pqlab_commit'][:10]}{'+' if ctx['dirty'] else ''} {ctx['date'][:10]}",
            ]
        )
    if not rows:
        return []
    return [
        Table(
            "Functional runs (`pqlab test` / `pqlab kat --db`, newest run): checks or KAT records passed, "
            "the whole run's cycles",
            [
                "scheme",
                "implementation",
                "program",
                "result",
                "checks / records",
                "cycles",
                "wall / CPU s",
                "commit, date",
            ],
            rows,
            left=4,
        )
    ]


def _histograms(recs) -> list[Table]:
    sel = [r for r in recs if r["metric"] == "iterations"]
    if not sel:
        return []
    rows = []
    for r in sorted(sel, key=lambda r: (r["scheme"], r["implementation"], r["operation"])):
        dist = ", ".join(f"{k}: {100 * c / r['n']:.1f}%" for k, c in r["histogram"].items())
        rows.append([r["scheme"], r["implementation"], r["operation"], str(r["n"]), dist])
    return [
        Table(
            "Distribution of iterations (count: share of runs)",
            ["scheme", "implementation", "operation", "n", "distribution"],
            rows,
            left=3,
        )
    ]


def _context_column(key: str) -> str:
    """The CSV column of a context field: the timer's unit is `timer_unit`, never the metric's `unit`."""
    return "timer_unit" if key == "unit" else key


def to_csv(records: list[dict]) -> str:
    buf = io.StringIO()
    keys = [
        "scheme",
        "implementation",
        "platform",
        "metric",
        "operation",
        "unit",
        "n",
        "min",
        "median",
        "mean",
        "max",
        "stdev",
        "stderr",
    ] + [_context_column(k) for k in CONTEXT_KEYS]
    w = csv.DictWriter(buf, fieldnames=keys, extrasaction="ignore")
    w.writeheader()
    for r in records:
        w.writerow({**{_context_column(k): v for k, v in r["context"].items()}, **r})
    return buf.getvalue()


def to_json(records: list[dict]) -> str:
    return json.dumps(records, indent=1)


def compare(records: list[dict], metric: str = "speed", baseline: str | None = None) -> str:
    """Side by side per operation: every IMPL@PLATFORM column, with ratios to the baseline column.

    Ratios are only formed between figures of the same unit (cycles with cycles; QEMU's
    instruction counts or host nanoseconds are never divided by cycles): columns whose unit
    differs from the baseline's are listed in a table of their own, without ratios.
    """
    sel = [r for r in records if r["metric"] == metric]
    if not sel:
        return f"no {metric} results for this selection\n"
    unit_of: dict[str, str] = {}
    cells: dict[tuple[str, str], dict[str, float]] = defaultdict(dict)
    for r in sel:
        col = f"{r['implementation']}@{r['platform']}"
        unit_of[col] = r["unit"]
        cells[(r["scheme"], r["operation"])][col] = r["mean"]
    cols = sorted(unit_of)
    if baseline is None:
        baseline = cols[0]
    elif baseline not in unit_of:
        raise PqlabError(f"baseline {baseline} has no {metric} results in this selection (columns: {', '.join(cols)})")
    base_unit = unit_of[baseline]
    like = [baseline] + [c for c in cols if c != baseline and unit_of[c] == base_unit]
    out = [f"{metric} [{base_unit}], ratios to {baseline}\n"]
    out += _compare_table(cells, like, with_ratios=True)
    for unit in sorted({u for u in unit_of.values() if u != base_unit}):
        other = [c for c in cols if unit_of[c] == unit]
        out += [f"\n{metric} [{unit}]: not compared with {baseline} (different unit)\n"]
        out += _compare_table(cells, other, with_ratios=False)
    return "\n".join(out) + "\n"


def speedup(records: list[dict], base: str, accel: str) -> str:
    """Base against accelerated, the layout of issue 19's published table: per scheme and
    implementation a row of mean cycles on the `base` platform, one on `accel`, and their ratio
    (base / accelerated: how many times faster), one column per operation; KEMs and signature
    schemes in tables of their own. Only figures of one unit are divided; a scheme and
    implementation measured on one platform only, or an operation missing on one, shows "—"."""
    if base == accel:
        raise PqlabError(f"--speedup: the base and the accelerated platform are the same ({base})")
    speed = [r for r in records if r["metric"] == "speed" and r["platform"] in (base, accel)]
    cells: dict[tuple[str, str], dict[str, dict[str, dict]]] = defaultdict(lambda: defaultdict(dict))
    for r in speed:
        cells[(r["scheme"], r["implementation"])][r["platform"]][r["operation"]] = r
    found = {r["platform"] for r in speed}
    missing = [p for p in (base, accel) if p not in found]
    if missing:
        raise PqlabError(f"--speedup: no speed results of {', '.join(missing)} in this selection")
    out = [f"Base ({base}) against accelerated ({accel}): mean cycles per operation, and base / accelerated"]
    for kind, ops in OPERATIONS.items():
        rows = []
        for (scheme, impl), by_plat in sorted(cells.items()):
            allops = {*by_plat[base], *by_plat[accel]}
            # a KEM has encaps / decaps, a signature scheme sign / verify (keypair: both)
            is_kem = bool(allops & {"encaps", "decaps"})
            if is_kem != (kind == "kem") or not (by_plat[base] and by_plat[accel]):
                continue
            b, a = by_plat[base], by_plat[accel]
            ratio = []
            for op in ops:
                if op in b and op in a and b[op]["unit"] == a[op]["unit"] and a[op]["mean"]:
                    ratio.append(f"{b[op]['mean'] / a[op]['mean']:.2f}")
                elif op in b and op in a:
                    ratio.append("— (units differ)")
                else:
                    ratio.append("—")
            label = f"{scheme} ({impl})"
            rows.append(
                f"| {label} | base | " + " | ".join(_fmt(b[op]["mean"]) if op in b else "—" for op in ops) + " |"
            )
            rows.append(
                f"| {label} | accelerated | " + " | ".join(_fmt(a[op]["mean"]) if op in a else "—" for op in ops) + " |"
            )
            rows.append(f"| {label} | base / accelerated | " + " | ".join(ratio) + " |")
        if rows:
            out += ["", f"| {kind} | | {' | '.join(ops)} |", "|---|---|" + "--:|" * len(ops), *rows]
    if len(out) == 1:
        raise PqlabError(f"--speedup: no scheme has speed results on both {base} and {accel} in this selection")
    return "\n".join(out) + "\n"


def _compare_table(cells: dict[tuple[str, str], dict[str, float]], cols: list[str], with_ratios: bool) -> list[str]:
    ratio_cols = cols[1:] if with_ratios else []
    out = [
        f"| scheme | operation | {' | '.join(cols)} |" + "".join(f" {c} / {cols[0]} |" for c in ratio_cols),
        "|---|---|" + "--:|" * (len(cols) + len(ratio_cols)),
    ]
    order = OPERATIONS["kem"] + OPERATIONS["sign"]
    for (scheme, op), vals in sorted(cells.items(), key=lambda kv: (kv[0][0], _op_order(order, kv[0][1]))):
        if not any(c in vals for c in cols):
            continue
        base = vals.get(cols[0])
        row = [_fmt(vals.get(c)) for c in cols]
        ratios = [f"{vals[c] / base:.2f}" if base and c in vals else "—" for c in ratio_cols]
        out.append(f"| {scheme} | {op} | " + " | ".join(row + ratios) + " |")
    return out


def ratio_tables(records: list[dict], fpr_of: dict[tuple[str, str], str] | None = None) -> list[Table]:
    """The two comparisons of the Cortex-M4/M7 study: the same implementation on an M4 and an
    M7 platform, and an implementation with native double precision against one emulating it
    on the same platform. Only figures of one unit are divided (modelled cycles by modelled cycles)."""
    speed = [r for r in records if r["metric"] == "speed"]
    by_key = {(r["scheme"], r["implementation"], r["platform"], r["operation"]): r for r in speed}
    out = []
    rows = []
    for r4 in speed:
        if r4["context"]["core"] != "cortex-m4":
            continue
        for r7 in speed:
            if (
                r7["context"]["core"] == "cortex-m7"
                and r7["unit"] == r4["unit"]
                and (r7["scheme"], r7["implementation"], r7["operation"])
                == (r4["scheme"], r4["implementation"], r4["operation"])
            ):
                rows.append((r4, r7))
    if rows:
        rows.sort(key=lambda p: (p[0]["scheme"], p[0]["implementation"], _op_order(OPS_ORDER, p[0]["operation"])))
        out.append(
            Table(
                "Cortex-M4 vs Cortex-M7 (same implementation, mean)",
                ["scheme", "implementation", "operation", "M4 platform", "M4", "M7 platform", "M7", "M4 / M7"],
                [
                    [
                        a["scheme"],
                        a["implementation"],
                        a["operation"],
                        a["platform"],
                        _fmt(a["mean"]),
                        b["platform"],
                        _fmt(b["mean"]),
                        f"{a['mean'] / b['mean']:.2f}",
                    ]
                    for a, b in rows
                ],
                left=3,
            )
        )
    if fpr_of:
        rows2 = []
        for (scheme, impl, plat, op), native in sorted(by_key.items()):
            if fpr_of.get((scheme, impl)) != "native":
                continue
            for (s2, i2, p2, o2), emu in sorted(by_key.items()):
                if (
                    (s2, p2, o2) == (scheme, plat, op)
                    and fpr_of.get((s2, i2)) == "emulated"
                    and emu["unit"] == native["unit"]
                ):
                    rows2.append(
                        [
                            scheme,
                            plat,
                            op,
                            i2,
                            _fmt(emu["mean"]),
                            impl,
                            _fmt(native["mean"]),
                            f"{emu['mean'] / native['mean']:.2f}",
                        ]
                    )
        if rows2:
            rows2.sort(key=lambda r: (r[0], r[1], _op_order(OPS_ORDER, r[2])))
            out.append(
                Table(
                    "Emulated vs native floating point (same platform, mean)",
                    ["scheme", "platform", "operation", "emulated", "mean", "native", "mean", "emulated / native"],
                    rows2,
                    left=3,
                )
            )
    return out


def _html_table(t: Table) -> str:
    import html

    esc = html.escape
    head = "".join(f"<th>{esc(h)}</th>" for h in t.header)
    body = "\n".join(
        "<tr>" + "".join(f"<td{'' if n < t.left else ' class=num'}>{esc(c)}</td>" for n, c in enumerate(r)) + "</tr>"
        for r in t.rows
    )
    return f"<h3>{esc(t.title)}</h3>\n<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n</tbody>\n</table>"


def _charts(records: list[dict]) -> list[str]:
    """Plotly figures (HTML fragments): per-operation speed with min-max whiskers, stack and
    RAM, and the distribution of rejection-loop iterations; operations in the tables' order."""
    import plotly.graph_objects as go

    figs = []
    by_plat: dict[str, list[dict]] = defaultdict(list)
    for r in records:
        by_plat[r["platform"]].append(r)

    def ordered(recs):
        return sorted(recs, key=lambda r: (r["scheme"], r["implementation"], _op_order(OPS_ORDER, r["operation"])))

    for plat, recs in sorted(by_plat.items()):
        all_speed = [r for r in recs if r["metric"] == "speed"]
        kems = {r["scheme"] for r in recs if r["operation"] in ("encaps", "decaps")}
        for kind in ("kem", "sign"):  # KEM and signature operations on separate axes
            speed = ordered([r for r in all_speed if (r["scheme"] in kems) == (kind == "kem")])
            if not speed:
                continue
            fig = go.Figure()
            for (scheme, impl), rs in _grouped(speed):
                fig.add_trace(
                    go.Bar(
                        name=f"{scheme} {impl}",
                        x=[r["operation"] for r in rs],
                        y=[r["mean"] for r in rs],
                        error_y={
                            "type": "data",
                            "symmetric": False,
                            "array": [r["max"] - r["mean"] for r in rs],
                            "arrayminus": [r["mean"] - r["min"] for r in rs],
                        },
                    )
                )
            top, low = max(r["max"] for r in speed), min(r["min"] for r in speed) or 1
            fig.update_layout(
                title=f"{plat}: {'KEM' if kind == 'kem' else 'signature'} speed [{speed[0]['unit']}], mean with min-max",
                barmode="group",
                showlegend=True,
                yaxis_type="log" if top / low > 100 else "linear",
                xaxis={"categoryorder": "array", "categoryarray": _ops_in_order(speed)},
            )
            figs.append(fig)
        mem = ordered([r for r in recs if r["metric"] in ("stack", "ram")])
        if mem:
            fig = go.Figure()
            for metric in ("stack", "ram"):
                for (scheme, impl), rs in _grouped([r for r in mem if r["metric"] == metric]):
                    fig.add_trace(
                        go.Bar(
                            name=f"{scheme} {impl} {metric}", x=[r["operation"] for r in rs], y=[r["max"] for r in rs]
                        )
                    )
            fig.update_layout(
                title=f"{plat}: stack and RAM [bytes], peak",
                barmode="group",
                showlegend=True,
                xaxis={"categoryorder": "array", "categoryarray": _ops_in_order(mem)},
            )
            figs.append(fig)
        its = ordered([r for r in recs if r["metric"] == "iterations"])
        if its:
            fig = go.Figure()
            for r in its:
                h = r["histogram"]
                fig.add_trace(
                    go.Bar(
                        name=f"{r['scheme']} {r['implementation']} {r['operation']}",
                        x=list(h),
                        y=[100 * c / r["n"] for c in h.values()],
                    )
                )
            fig.update_layout(
                title=f"{plat}: rejection-loop iterations, share of runs [%]",
                barmode="group",
                showlegend=True,
                xaxis_title="iterations",
            )
            figs.append(fig)
    return [f.to_html(full_html=False, include_plotlyjs=False, default_height=420) for f in figs]


def _ops_in_order(recs: list[dict]) -> list[str]:
    return sorted({r["operation"] for r in recs}, key=lambda op: _op_order(OPS_ORDER, op))


def _grouped(recs: list[dict]):
    groups: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for r in recs:
        groups[(r["scheme"], r["implementation"])].append(r)
    return groups.items()


def to_html(records: list[dict], fpr_of: dict[tuple[str, str], str] | None = None) -> str:
    """A self-contained page (plotly.js inline, no network): charts, the comparison tables and
    every table of the Markdown report as HTML tables."""
    import html

    from plotly.offline import get_plotlyjs

    parts = ["<h1>pqlab report</h1>"]
    ratios = ratio_tables(records, fpr_of)
    if ratios:
        parts.append("<h2>Comparisons</h2>")
        parts += [_html_table(t) for t in ratios]
    parts.append("<h2>Charts</h2>")
    parts += [f"<div class=chart>{c}</div>" for c in _charts(records)]
    for sec in sections(records):
        parts.append(f"<h2>{html.escape(sec.heading)}</h2>")
        parts += [f"<p>{html.escape(n)}</p>" for n in sec.notes]
        parts += [_html_table(t) for t in sec.tables]
    style = (
        "body{font-family:sans-serif;font-size:13px;margin:1em 2em} table{border-collapse:collapse;margin-bottom:1em}"
        "th,td{border:1px solid #ccc;padding:2px 6px} th{background:#eee} td.num{text-align:right}"
    )
    return (
        "<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>pqlab report</title>"
        f"<style>{style}</style>\n<script>{get_plotlyjs()}</script></head><body>\n"
        + "\n".join(parts)
        + "\n</body></html>\n"
    )
