"""Reports: Markdown (pqm4 layout), CSV and JSON from the results store."""

from __future__ import annotations

import csv
import io
import json
import math
import statistics
from collections import defaultdict

from pqlab import PqlabError
from pqlab.registry import OPERATIONS
from pqlab.results import Context

CONTEXT_KEYS = [k for k in Context.__dataclass_fields__ if k not in ("scheme", "implementation", "platform")]
UNITS = {"speed": None, "stack": "bytes", "ram": "bytes", "size": "bytes", "hashing": "percent", "iterations": "count",
         "simspeed": "M instructions/s"}


def aggregate(rows: list[dict]) -> list[dict]:
    """One record per (scheme, implementation, platform, metric, operation) with its statistics."""
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for r in rows:
        groups[(r["scheme"], r["implementation"], r["platform"], r["metric"], r["operation"])].append(r)
    out = []
    for (scheme, impl, plat, metric, op), rs in groups.items():
        vals = [r["value"] for r in rs]
        n = len(vals)
        sd = statistics.stdev(vals) if n > 1 else 0.0
        ctx = {k: rs[0][k] for k in CONTEXT_KEYS}
        unit = UNITS[metric] or rs[0]["unit"]
        rec = {
            "scheme": scheme, "implementation": impl, "platform": plat, "metric": metric, "operation": op,
            "unit": unit, "n": n, "min": min(vals), "median": statistics.median(vals),
            "mean": statistics.fmean(vals), "max": max(vals), "stdev": sd, "stderr": sd / math.sqrt(n),
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


def _op_order(kind_ops: list[str], op: str) -> tuple[int, str]:
    return (kind_ops.index(op) if op in kind_ops else 99, op)


def _fmt(v: float | None) -> str:
    if v is None:
        return "—"
    if abs(v - round(v)) < 1e-9:
        return f"{int(round(v)):,}"
    return f"{v:,.1f}"


def markdown(records: list[dict]) -> str:
    ops_order = OPERATIONS["kem"] + OPERATIONS["sign"]
    by_plat: dict[str, list[dict]] = defaultdict(list)
    for r in records:
        by_plat[r["platform"]].append(r)
    out = []
    for plat, recs in sorted(by_plat.items()):
        speed = [r for r in recs if r["metric"] == "speed"]
        c = (speed or recs)[0]["context"]
        clock = c["clock_hz"]
        out.append(f"## {plat} ({c['core']}, {clock / 1e6:g} MHz benchmark clock)\n")
        if c.get("model"):
            out.append(f"Simulated: cycle counts from the timing model {c['model']}, not from a board.\n")
        if speed:
            unit = speed[0]["unit"]
            note = {
                "instructions": " — instruction counts from QEMU -icount, not core cycles",
                "cycles": f" — timer {c['timer']}",
                "ns": " — wall-clock nanoseconds",
            }.get(unit, "")
            out.append(f"### Speed [{unit}]{note}\n")
            out.append(f"| scheme | implementation | operation | n | min | median | mean | max | stdev | stderr | ms @ {clock / 1e6:g} MHz |")
            out.append("|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|")
            for r in sorted(speed, key=lambda r: (r["scheme"], r["implementation"], _op_order(ops_order, r["operation"]))):
                ms = "—" if r.get("ms") is None else f"{r['ms']:,.2f}"
                out.append(
                    f"| {r['scheme']} | {r['implementation']} | {r['operation']} | {r['n']} | {_fmt(r['min'])} | "
                    f"{_fmt(r['median'])} | {_fmt(r['mean'])} | {_fmt(r['max'])} | {_fmt(r['stdev'])} | "
                    f"{_fmt(r['stderr'])} | {ms} |"
                )
            out.append("")
        out += _pivot(recs, "stack", "Stack [bytes] (peak per operation) and RAM [bytes] (stack + .data + .bss)", ops_order, extra="ram")
        out += _pivot(recs, "hashing", "Cycles spent in SHA-2 / SHA-3 / AES [%]", ops_order)
        out += _pivot(recs, "iterations", "Rejection-loop iterations (mean; max in parentheses)", ops_order, with_max=True)
        out += _histograms(recs)
        out += _pivot(recs, "size", "Code size [bytes]", ["text", "data", "bss", "binary-text", "binary-data", "binary-bss"])
        out += _pivot(recs, "simspeed", "Simulator speed [million instructions per second]: the speed program, "
                      "timing model on, and QEMU -icount on the same binary, one after the other on this machine",
                      ["pqlab-sim"])
    return "\n".join(out) + "\n"


def _pivot(recs, metric, title, order, extra=None, with_max=False) -> list[str]:
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
    out = [f"### {title}\n", "| scheme | implementation | " + " | ".join(head) + " |",
           "|---|---|" + "--:|" * len(cols)]
    for (s, i), cells in sorted(rows.items()):
        out.append(f"| {s} | {i} | " + " | ".join(cells.get(c, "—") for c in cols) + " |")
    out.append("")
    return out


def _histograms(recs) -> list[str]:
    sel = [r for r in recs if r["metric"] == "iterations"]
    if not sel:
        return []
    out = ["### Distribution of iterations (count: share of runs)\n", "| scheme | implementation | operation | n | distribution |",
           "|---|---|---|--:|---|"]
    for r in sorted(sel, key=lambda r: (r["scheme"], r["implementation"], r["operation"])):
        dist = ", ".join(f"{k}: {100 * c / r['n']:.1f}%" for k, c in r["histogram"].items())
        out.append(f"| {r['scheme']} | {r['implementation']} | {r['operation']} | {r['n']} | {dist} |")
    out.append("")
    return out


def _context_column(key: str) -> str:
    """The CSV column of a context field: the timer's unit is `timer_unit`, never the metric's `unit`."""
    return "timer_unit" if key == "unit" else key


def to_csv(records: list[dict]) -> str:
    buf = io.StringIO()
    keys = ["scheme", "implementation", "platform", "metric", "operation", "unit", "n", "min", "median",
            "mean", "max", "stdev", "stderr"] + [_context_column(k) for k in CONTEXT_KEYS]
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


def _compare_table(cells: dict[tuple[str, str], dict[str, float]], cols: list[str], with_ratios: bool) -> list[str]:
    ratio_cols = cols[1:] if with_ratios else []
    out = [f"| scheme | operation | {' | '.join(cols)} |" + "".join(f" {c} / {cols[0]} |" for c in ratio_cols),
           "|---|---|" + "--:|" * (len(cols) + len(ratio_cols))]
    order = OPERATIONS["kem"] + OPERATIONS["sign"]
    for (scheme, op), vals in sorted(cells.items(), key=lambda kv: (kv[0][0], _op_order(order, kv[0][1]))):
        if not any(c in vals for c in cols):
            continue
        base = vals.get(cols[0])
        row = [_fmt(vals.get(c)) for c in cols]
        ratios = [f"{vals[c] / base:.2f}" if base and c in vals else "—" for c in ratio_cols]
        out.append(f"| {scheme} | {op} | " + " | ".join(row + ratios) + " |")
    return out


def to_html(records: list[dict]) -> str:
    """A self-contained page: the Markdown tables plus one bar chart (inline SVG) per platform and metric."""
    import html

    def bars(title: str, rows: list[tuple[str, float]], unit: str) -> str:
        if not rows:
            return ""
        top = max(v for _, v in rows) or 1.0
        h, w, label_w = 18, 520, 300
        parts = [f'<svg width="{label_w + w + 140}" height="{h * len(rows) + 30}" role="img">',
                 f'<text x="0" y="14" font-weight="bold">{html.escape(title)} [{html.escape(unit)}]</text>']
        for n, (label, v) in enumerate(rows):
            y = 22 + n * h
            bw = max(1.0, w * v / top)
            parts.append(f'<text x="{label_w - 6}" y="{y + 12}" text-anchor="end">{html.escape(label)}</text>')
            parts.append(f'<rect x="{label_w}" y="{y}" width="{bw:.1f}" height="{h - 4}" fill="#4a7bb7"/>')
            parts.append(f'<text x="{label_w + bw + 4:.1f}" y="{y + 12}">{_fmt(v)}</text>')
        parts.append("</svg>")
        return "\n".join(parts)

    charts = []
    by_key: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for r in records:
        if r["metric"] in ("speed", "stack"):
            by_key[(r["platform"], r["metric"])].append(r)
    for (plat, metric), recs in sorted(by_key.items()):
        rows = [(f"{r['scheme']} {r['implementation']} {r['operation']}", r["mean"] if metric == "speed" else r["max"])
                for r in sorted(recs, key=lambda r: (r["scheme"], r["implementation"], r["operation"]))]
        charts.append(bars(f"{plat}: {metric}", rows, recs[0]["unit"]))
    table = html.escape(markdown(records))
    return (
        "<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>pqlab report</title>"
        "<style>body{font-family:sans-serif;font-size:12px} pre{font-size:11px}</style></head><body>\n"
        "<h1>pqlab report</h1>\n" + "\n".join(charts) + f"\n<h2>Tables</h2>\n<pre>{table}</pre>\n</body></html>\n"
    )
