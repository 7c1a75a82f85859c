"""pqm4's benchmark tables (benchmarks.md / benchmarks.csv) from pqlab's results store.

The layout is pqm4's, line for line, so that a user can diff a pqlab campaign against
pqm4's published files: four evaluations (speed, memory, hashing, size), each with a
KEM and a signature table; speed cells carry the truncated mean, minimum and maximum
of the executions, memory the peak stack, hashing the mean share of cycles in
SHA-2/SHA-3/AES, size .text/.data/.bss of the implementation's own objects.
One platform per table set (pqm4 publishes one board's figures). pqlab's own
columns (RAM, model version, context) stay in its own formats.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Callable

from pqlab import PqlabError

KINDS = (
    (
        "Key Encapsulation Schemes",
        ("keypair", "encaps", "decaps"),
        ("Key Generation", "Encapsulation", "Decapsulation"),
    ),
    ("Signature Schemes", ("keypair", "sign", "verify"), ("Key Generation", "Sign", "Verify")),
)
CSV_COLUMNS = 11  # pqm4 pads every CSV line to eleven columns


def _values(rows: list[dict]) -> dict[tuple[str, str, str, str], list[float]]:
    out: dict[tuple[str, str, str, str], list[float]] = defaultdict(list)
    for r in rows:
        out[(r["metric"], r["scheme"], r["implementation"], r["operation"])].append(r["value"])
    return out


def _platform_rows(rows: list[dict]) -> tuple[list[dict], str]:
    from pqlab.report import platform_label

    plats = sorted({platform_label(r) for r in rows})  # one compiler too: PLATFORM[TOOLCHAIN]
    if len(plats) != 1:
        raise PqlabError(
            f"pqm4's tables hold one platform; the selection has {', '.join(plats) or 'none'}: choose one with -p"
        )
    units = sorted({r["unit"] for r in rows if r["metric"] == "speed"})
    return rows, units[0] if units else "cycles"


class _Layout:
    """What differs between pqm4's Markdown and CSV renderings."""

    def __init__(self, md: bool) -> None:
        self.md = md
        self.lines: list[str] = []

    def header(self, text: str, level: int) -> None:
        self.lines.append(f"{'#' * level} {text}" if self.md else text + "," * (CSV_COLUMNS - 1))

    def head(self, cols: list[str]) -> None:
        if self.md:
            self.lines.append("| " + " | ".join(cols) + " |")
            self.lines.append("| " + " | ".join("-" * len(c) for c in cols) + " |")
        else:
            self.lines.append(",".join(cols) + "," * (CSV_COLUMNS - len(cols)))

    def row(self, cells: list[str]) -> None:
        if self.md:
            self.lines.append("| " + " | ".join(cells) + " |")
        else:
            line = ",".join(cells)
            self.lines.append(line + "," * (CSV_COLUMNS - 1 - line.count(",")))

    def number(self, v: float) -> str:
        return f"{int(v):,}" if self.md else str(int(v))

    def percent(self, v: float) -> str:
        return f"{v:.1f}%" if self.md else f"{v:.1f}"

    def stats(self, vals: list[float]) -> str:
        mean, lo, hi = int(statistics.mean(vals)), int(min(vals)), int(max(vals))
        if self.md:
            return f"AVG: {mean:,} <br /> MIN: {lo:,} <br /> MAX: {hi:,}"
        return f"{mean},{lo},{hi}"


def render(rows: list[dict], md: bool) -> str:
    """benchmarks.md (md=True) or benchmarks.csv of the stored rows of one platform."""
    rows, unit = _platform_rows(rows)
    vals = _values(rows)
    kems = {(s, i) for (_, s, i, op) in vals if op in ("encaps", "decaps")}
    out = _Layout(md)

    def table(metric: str, kind: int, cells: Callable[[list[list[float]]], list[str]], speed: bool = False) -> None:
        ops = KINDS[kind][1]
        for scheme, impl in sorted({(s, i) for (m, s, i, _) in vals if m == metric}):
            if ((scheme, impl) in kems) != (kind == 0):
                continue
            got = [vals.get((metric, scheme, impl, op)) for op in ops]
            if all(got):
                label = f"{scheme} ({len(got[0])} executions)" if speed else scheme  # type: ignore[arg-type]
                out.row([label, impl] + cells(got))  # type: ignore[arg-type]

    out.header("Speed Evaluation", 1)
    for kind, (title, _, names) in enumerate(KINDS):
        out.header(title, 2)
        if md:
            out.head(["scheme", "implementation"] + [f"{n.lower()} [{unit}]" for n in names])
        else:
            out.head(
                ["Scheme", "Implementation"] + [f"{n} [{unit}] ({x})" for n in names for x in ("mean", "min", "max")]
            )
        table("speed", kind, lambda got: [out.stats(v) for v in got], speed=True)
    for heading, metric, unit_, cells in (
        ("Memory Evaluation", "stack", "bytes", lambda got: [out.number(max(v)) for v in got]),
        ("Hashing Evaluation", "hashing", "%", lambda got: [out.percent(statistics.mean(v)) for v in got]),
    ):
        out.header(heading, 1)
        for kind, (title, _, names) in enumerate(KINDS):
            out.header(title, 2)
            out.head(["Scheme", "Implementation"] + [f"{n} [{unit_}]" for n in names])
            table(metric, kind, cells)
    out.header("Size Evaluation", 1)
    for kind, (title, _, _) in enumerate(KINDS):
        out.header(title, 2)
        out.head(["Scheme", "Implementation", ".text [bytes]", ".data [bytes]", ".bss [bytes]", "Total [bytes]"])
        for scheme, impl in sorted({(s, i) for (m, s, i, _) in vals if m == "size"}):
            sec = [vals.get(("size", scheme, impl, k)) for k in ("text", "data", "bss")]
            if ((scheme, impl) in kems) == (kind == 0) and all(sec):
                t, d, b = (int(max(v)) for v in sec)  # type: ignore[union-attr]
                out.row([scheme, impl] + [out.number(x) for x in (t, d, b, t + d + b)])
    return "\n".join(out.lines) + "\n"
