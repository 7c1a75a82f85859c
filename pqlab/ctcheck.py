"""`pqlab ct`: which platforms can check constant time, and valgrind memcheck's findings as
readable records (kind, where, call stack, where the secret came from).

The ct program (harness/ct.c) marks every byte of randomness secret ("undefined" for
memcheck); memcheck then reports each conditional branch, memory address or system-call
argument that depends on a secret. A platform without a checker cannot see any of that, so
`pqlab ct` refuses it instead of calling its runs constant time.
"""

from __future__ import annotations

import json
import re
import subprocess
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from pqlab import ROOT, PqlabError
from pqlab.platforms import Platform, all_platforms
from pqlab.registry import Implementation

_PREFIX = re.compile(r"^==\d+==\s?")
_FRAME = re.compile(r"^\s*(at|by) 0x[0-9A-Fa-f]+: (.*)$")
_SIZE = re.compile(r"Use of uninitialised value of size (\d+)")


@dataclass
class Finding:
    message: str  # memcheck's first line, e.g. "Conditional jump or move depends on uninitialised value(s)"
    stack: list[str] = field(default_factory=list)  # "function (file:line)", innermost first
    origin: list[str] = field(default_factory=list)  # where the secret was created (the client request)

    @property
    def kind(self) -> str:
        """What the report means for constant time."""
        if self.message.startswith("Conditional jump or move"):
            return "secret-dependent branch"
        if self.message.startswith("Syscall param"):
            return "secret reaches a system call"
        m = _SIZE.match(self.message)
        if m and int(m.group(1)) == 8:
            return "secret-dependent address (load, store or indirect jump)"
        if m:
            return f"secret operand memcheck requires public (size {m.group(1)}: a vector shift count or lane index)"
        return "other memcheck report"

    @property
    def where(self) -> str:
        return self.stack[0] if self.stack else "?"

    def as_dict(self) -> dict:
        return {"kind": self.kind, "message": self.message, "stack": self.stack, "origin": self.origin}


def check_platforms(plats: list[Platform]) -> None:
    """Refuse platforms that cannot see secret-dependent behaviour (a check that cannot check
    must not pass)."""
    bad = [p for p in plats if not p.ct_checker]
    if bad:
        able = sorted(name for name, p in all_platforms().items() if p.ct_checker)
        raise PqlabError(
            f"platform {', '.join(p.name for p in bad)} cannot check constant time: nothing there sees "
            f"secret-dependent branches, addresses or syscalls, so a run would prove nothing; "
            f"use -p {' or -p '.join(able) if able else '(no platform with a ct_checker is defined)'}"
        )


def parse_memcheck(stderr: str) -> list[Finding]:
    """memcheck's error records from its stderr (with or without -q), in order of report."""
    findings: list[Finding] = []
    cur: Finding | None = None
    in_origin = False
    for raw in stderr.splitlines():
        if not _PREFIX.match(raw):
            continue
        line = _PREFIX.sub("", raw, count=1)
        if not line.strip():
            cur, in_origin = None, False
            continue
        frame = _FRAME.match(line)
        if frame and cur is not None:
            (cur.origin if in_origin else cur.stack).append(frame.group(2).strip())
        elif line.lstrip().startswith("Uninitialised value was created") and cur is not None:
            in_origin = True
        elif not line.startswith(" ") and _is_error_head(line):
            cur, in_origin = Finding(line.strip()), False
            findings.append(cur)
    return findings


def _is_error_head(line: str) -> bool:
    return line.startswith(
        (
            "Conditional jump or move",
            "Use of uninitialised value",
            "Syscall param",
            "Invalid ",
            "Mismatched ",
            "Source and destination overlap",
            "Argument ",
        )
    )


def format_findings(findings: list[Finding], limit: int = 10, frames: int = 8) -> str:
    """Findings as indented text: kind and memcheck's words, the call stack, the secret's origin;
    reports at the same place are counted once."""
    groups: dict[tuple[str, str], list[Finding]] = {}
    for f in findings:
        groups.setdefault((f.message, f.where), []).append(f)
    lines = []
    for n, ((_, _), fs) in enumerate(groups.items(), 1):
        if n > limit:
            lines.append(f"  ... and {len(groups) - limit} more places (--json lists every finding)")
            break
        f = fs[0]
        times = f" ({len(fs)} reports)" if len(fs) > 1 else ""
        lines.append(f"  {n}. {f.kind}{times}: {f.message}")
        for i, fr in enumerate(f.stack[:frames]):
            lines.append(f"       {'at' if i == 0 else 'by'} {fr}")
        if len(f.stack) > frames:
            lines.append(f"       ... {len(f.stack) - frames} more frame(s)")
        if f.origin:
            lines.append(f"     secret from: {' <- '.join(f.origin[:3])}")
    return "\n".join(lines)


# --- pqlab-sim's secret tracking (m4-sim, m7-sim, cv32e40p-sim, cv32e40p-nofpu-sim) ----------------

SIM_KINDS = {
    "secret-branch": "conditional branch (B<c>, CBZ/CBNZ; RISC-V beq..bgeu) on a secret",
    "secret-condition": "instruction of an IT block whose condition is secret",
    "secret-jump": "indirect branch (BX/BLX, load or write to PC, TBB/TBH; RISC-V jalr) to a secret target",
    "secret-load-address": "load from a secret-dependent address",
    "secret-store-address": "store to a secret-dependent address",
    "secret-division": "division with a secret operand its latency depends on (SDIV/UDIV; CV32E40P div/divu/rem/remu: the divisor)",
    "secret-fp64": "double-precision operation with a secret operand (operand-dependent latency on this core)",
    "secret-select": "single-cycle data-processing instruction predicated (IT) on a secret: same cost executed or skipped",
    "secret-unit-operation": "accelerator operation whose busy time depends on a secret (cv32e40p-acc: the NTT unit's CTRL or MODE)",
}
# kinds that are listed but do not fail a run: a predicated single-cycle ALU instruction costs
# one cycle executed or skipped (Cortex-M4 TRM; the models charge a skipped instruction one
# cycle), so an IT select on a secret is constant time by the core's timing (docs/ct.md)
NOT_FAILING = ("secret-select",)


@dataclass
class SimFinding:
    """One place (instruction and call stack) where a secret reaches what the core's timing
    depends on, from `pqlab-sim --ct`, with the ELF's line information."""

    kind: str
    pc: int
    count: int
    function: str  # innermost function (DWARF, inlining resolved), else the ELF symbol
    symbol: str  # the ELF function symbol that holds the instruction
    source: str  # file:line of the instruction ("?" without line information)
    inlined: list[str] = field(default_factory=list)  # "function (file:line)", innermost first
    stack: list[str] = field(default_factory=list)  # call sites "function (file:line)", innermost first
    insn: str = ""
    accepted: str | None = None  # the ledger's reason, when a ledger entry accepts it
    known: str | None = None  # the ledger's reason, when an entry declares it a known leak
    paths: int = 1  # distinct call stacks that reached the place (`stack` is the first)

    @property
    def where(self) -> str:
        return f"{self.function} ({self.source})"

    def as_dict(self) -> dict:
        return {
            "kind": self.kind,
            "pc": f"0x{self.pc:08x}",
            "instruction": self.insn,
            "function": self.function,
            "symbol": self.symbol,
            "source": self.source,
            "inlined": self.inlined,
            "stack": self.stack,
            "count": self.count,
            "call_paths": self.paths,
            "accepted": self.accepted,
            "known_leak": self.known,
        }


def _addr2line(plat: Platform, elf: Path, addrs: list[int]) -> dict[int, list[tuple[str, str]]]:
    """(function, file:line) of each address, innermost inlined function first (binutils'
    addr2line on the DWARF line information the ct build carries, -g)."""
    if not addrs:
        return {}
    exe = plat.tool("addr2line")
    try:
        out = subprocess.run(
            [exe, "-a", "-f", "-i", "-e", str(elf), *(f"0x{a:x}" for a in addrs)],
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        ).stdout
    except (OSError, subprocess.SubprocessError) as e:
        raise PqlabError(f"cannot read line information of {elf} with {exe}: {e}") from e
    res: dict[int, list[tuple[str, str]]] = {}
    cur: list[tuple[str, str]] | None = None
    lines = out.splitlines()
    k = 0
    while k < len(lines):
        line = lines[k]
        if line.startswith("0x"):
            cur = res.setdefault(int(line, 16), [])
            k += 1
            continue
        if cur is not None and k + 1 < len(lines):
            loc = lines[k + 1].split(" (discriminator")[0]
            cur.append((line.strip(), _short(loc.strip())))
        k += 2
    return res


def _short(loc: str) -> str:
    """file:line with the file's path from the repository root (or its name)."""
    path, _, line = loc.rpartition(":")
    if not path or path == "??":
        return "?"
    p = Path(path)
    try:
        rel = str(p.resolve().relative_to(ROOT))
    except (ValueError, OSError):
        rel = p.name
    return f"{rel}:{line}"


def _insn_text(plat: Platform, elf: Path, pc: int) -> str:
    try:
        out = subprocess.run(
            [
                plat.tool("objdump"),
                "-d",
                "--no-show-raw-insn",
                f"--start-address=0x{pc:x}",
                f"--stop-address=0x{pc + 4:x}",
                str(elf),
            ],
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return ""
    for line in out.splitlines():
        m = re.match(rf"^\s*{pc:x}:\s*(.*)$", line)
        if m:
            return " ".join(m.group(1).split())
    return ""


def sim_findings(plat: Platform, elf: Path, report: dict) -> list[SimFinding]:
    """The findings of a `pqlab-sim --ct` report with function, source line, inlining chain and
    call stack from the ELF; findings that differ only in how often they ran are one place."""
    raw = report.get("findings", [])
    addrs = sorted({f["pc"] for f in raw} | {a for f in raw for a in f["stack"]})
    lines = _addr2line(plat, elf, addrs)
    out: dict[tuple, SimFinding] = {}
    for f in raw:
        chain = lines.get(f["pc"]) or []
        symbol = f.get("function") or "?"
        function, source = chain[0] if chain and chain[0][0] != "??" else (symbol, "?")
        stack = []
        for a in reversed(f["stack"]):
            c = lines.get(a) or [("?", "?")]
            stack.append(f"{c[0][0]} ({c[0][1]})")
        key = (f["kind"], f["pc"])  # one place (the simulator reports each once)
        if key in out:
            out[key].count += f["count"]
            out[key].paths += f.get("call_paths", 1)
            continue
        out[key] = SimFinding(
            kind=f["kind"],
            pc=f["pc"],
            count=f["count"],
            function=function,
            symbol=symbol,
            source=source,
            inlined=[f"{fn} ({loc})" for fn, loc in chain[1:]],
            stack=stack,
            paths=f.get("call_paths", 1),
        )
    found = list(out.values())
    for f in found[:200]:
        f.insn = _insn_text(plat, elf, f.pc)
    return found


# --- ledger: findings accepted with a reason ---------------------------------------------------

LEDGER_NAME = "ct-ledger.toml"


@dataclass
class LedgerEntry:
    path: Path
    function: str
    kind: str
    reason: str
    platforms: tuple[str, ...] = ()
    schemes: tuple[str, ...] = ()
    implementations: tuple[str, ...] = ()  # names ("m4fstack") or ids ("ml-kem-512/m4fstack")
    known: bool = False  # `known_leak = true`: the finding stays a leak, declared and explained
    used: int = 0

    def matches(self, f: SimFinding, plat: str, impl: Implementation) -> bool:
        if self.platforms and plat not in self.platforms:
            return False
        if self.schemes and impl.scheme not in self.schemes:
            return False
        if self.implementations and not {impl.name, f"{impl.scheme}/{impl.name}"} & set(self.implementations):
            return False
        if self.kind != f.kind:
            return False
        if self.known and self.function == "*":
            return True
        return self.function in (f.function, f.symbol) or any(s.split(" (")[0] == self.function for s in f.inlined)


def ledger_files(impl: Implementation) -> list[Path]:
    """The ledgers that apply to an implementation: `ct-ledger.toml` in its folder and, for a
    family built from a shared source tree (pqlab.toml's `include`), in that tree's folder."""
    seen: list[Path] = []
    for d in (impl.dir, *impl.include):
        p = (Path(d) / LEDGER_NAME).resolve()
        if p.is_file() and p not in seen:
            seen.append(p)
    return seen


KEYS = ("function", "kind", "reason", "platforms", "schemes", "implementations", "known_leak")


def load_ledger(impl: Implementation, extra: tuple[Path, ...] = ()) -> list[LedgerEntry]:
    """Entries of the implementation's ledgers and of the `--ledger` files (for code whose folder
    is not ours to write in, e.g. a foreign tree dropped in unmodified); a malformed entry or a
    missing file is an error, not ignored."""
    entries = []
    for path in (*ledger_files(impl), *extra):
        if not Path(path).is_file():
            raise PqlabError(f"{path}: no such ledger file")
        path = Path(path)
        try:
            d = tomllib.loads(path.read_text())
        except tomllib.TOMLDecodeError as e:
            raise PqlabError(f"{path}: invalid TOML: {e}") from e
        for n, e in enumerate(d.get("accept", []), 1):
            missing = [k for k in ("function", "kind", "reason") if not str(e.get(k, "")).strip()]
            if missing:
                raise PqlabError(f"{path}: [[accept]] entry {n} lacks {', '.join(missing)}")
            if e["kind"] not in SIM_KINDS:
                raise PqlabError(
                    f"{path}: [[accept]] entry {n}: unknown kind '{e['kind']}' (known: {', '.join(SIM_KINDS)})"
                )
            unknown = set(e) - set(KEYS)
            if unknown:
                raise PqlabError(f"{path}: [[accept]] entry {n}: unknown key(s) {', '.join(sorted(unknown))}")
            known = e.get("known_leak", False)
            if not isinstance(known, bool):
                raise PqlabError(f"{path}: [[accept]] entry {n}: known_leak must be true or false")
            if e["function"] == "*" and not known:
                raise PqlabError(f"{path}: [[accept]] entry {n}: function '*' is for known_leak entries only")
            entries.append(
                LedgerEntry(
                    path=path,
                    function=e["function"],
                    kind=e["kind"],
                    reason=" ".join(e["reason"].split()),
                    platforms=tuple(e.get("platforms", ())),
                    schemes=tuple(e.get("schemes", ())),
                    implementations=tuple(e.get("implementations", ())),
                    known=known,
                )
            )
    return entries


def apply_ledger(findings: list[SimFinding], ledger: list[LedgerEntry], plat: str, impl: Implementation) -> None:
    for f in findings:
        for e in ledger:
            if e.matches(f, plat, impl):
                if e.known:
                    f.known = e.reason
                else:
                    f.accepted = e.reason
                e.used += 1
                break


def format_sim_findings(findings: list[SimFinding], limit: int = 12, frames: int = 6) -> str:
    lines = []
    shown = [f for f in findings if f.accepted is None and f.kind not in NOT_FAILING]
    for n, f in enumerate(shown, 1):
        if n > limit:
            lines.append(f"  ... and {len(shown) - limit} more (--json lists every finding)")
            break
        paths = f", {f.paths} call paths" if f.paths > 1 else ""
        lines.append(f"  {n}. {f.kind} ({f.count}x{paths}): {f.insn or '?'} at 0x{f.pc:08x}")
        lines.append(f"       at {f.function} ({f.source})")
        for s in f.inlined[:frames]:
            lines.append(f"       inlined in {s}")
        for s in f.stack[:frames]:
            lines.append(f"       called from {s}")  # the first call path
        if len(f.stack) > frames:
            lines.append(f"       ... {len(f.stack) - frames} more frame(s)")
    acc = [f for f in findings if f.accepted is not None]
    if acc:
        lines.append(f"  ({len(acc)} finding(s) accepted by the ledger)")
    sel = [f for f in findings if f.kind in NOT_FAILING]
    if sel:
        lines.append(f"  ({len(sel)} secret-select place(s): constant time on this core, --json lists them)")
    return "\n".join(lines)


def run_sim(pairs_: list, jobs: int, on_done=None, summaries: bool = True) -> list:
    """Build the ct program of each pair for the platform's ct variant and run it under
    `pqlab-sim --ct`; each Outcome's data carries the report ("ct_report") and the ELF. Each
    Outcome is also handed to on_done (main thread) as soon as its run ends. `summaries`:
    False runs the hash permutations tracked too (`--no-summaries`)."""
    from pqlab import jobs as J
    from pqlab import limits
    from pqlab.build import BuildOptions
    from pqlab.runner import RunError, RunTimeout, run_full, temp_dir

    opts = BuildOptions()
    builds = J.build_all(pairs_, ("ct",), jobs, opts)

    def one(pair):
        impl, plat = pair
        b = builds[(impl.id, plat.name)]
        if b.error:
            return J.Outcome(impl, plat, False, error=b.error, program="ct")
        elf = b.elf["ct"]
        data = {"elf": elf, "build": b}
        limit = limits.limit(impl, plat, "ct", opts)
        with temp_dir("ct") as d:
            rep = d / "ct.json"
            try:
                ran = run_full(
                    plat, elf, "ct", timeout=limit, extra=["--ct", str(rep), *([] if summaries else ["--no-summaries"])]
                )
            except RunTimeout as e:
                return J.Outcome(impl, plat, False, error=str(e), program="ct", timed_out=True)
            except RunError as e:
                return J.Outcome(impl, plat, False, error=str(e), program="ct", data=data)
            try:
                report = json.loads(rep.read_text())
            except (OSError, ValueError) as e:
                return J.Outcome(impl, plat, False, error=f"no ct report from pqlab-sim: {e}", program="ct", data=data)
        limits.record(impl, plat, "ct", opts, ran.seconds)
        return J.Outcome(impl, plat, True, output=ran.output, data={"ct_report": report, **data}, program="ct")

    return J.parallel_handing(pairs_, one, jobs, "ct", on_done)


# a check's verdict: the JSON row's "verdict", and the status the results database stores
PASS, FAIL, KNOWN_LEAK, ERROR = "pass", "fail", "known leak", "error"
CT_STATUS_OF = {PASS: 1, FAIL: 0, KNOWN_LEAK: 2, ERROR: -1}


def sim_verdict(o, findings: list[SimFinding]) -> tuple[str, str]:
    """The verdict of one pqlab-sim check and its reason ("" when it passes): PASS when the run
    completed, it saw secrets (the marks were found and called) and every finding is accepted
    by the ledger; KNOWN_LEAK when every finding left is one a ledger declares a known leak;
    FAIL when any finding is neither; ERROR when the run could not decide (failed, no marks,
    nothing secret)."""
    rep = o.data.get("ct_report", {})
    if not o.ok:
        return ERROR, o.error or "run failed"
    if not rep.get("marks_found"):
        return ERROR, "the ct program has no pqlab_ct_secret/pqlab_ct_declassify: built without PQLAB_CT_SIM?"
    if not rep.get("secret_bytes"):
        return ERROR, "nothing was marked secret (no randomness drawn): the run could not have seen anything"
    failing = [f for f in findings if f.accepted is None and f.kind not in NOT_FAILING]
    bad = [f for f in failing if f.known is None]
    if bad:
        return FAIL, f"{len(bad)} unaccepted finding(s)" + (
            f" and {len(failing) - len(bad)} known leak(s)" if len(failing) > len(bad) else ""
        )
    if failing:
        reasons = sorted({f.known for f in failing if f.known})
        return (
            KNOWN_LEAK,
            f"{KNOWN_LEAK}: {len(failing)} place(s), not constant time on this core as declared: {' / '.join(reasons)}",
        )
    return PASS, ""


def memcheck_verdict(ok: bool, findings: list) -> str:
    """The verdict of one valgrind memcheck check: every report fails (memcheck has no ledger)."""
    return PASS if ok else FAIL if findings else ERROR


# --- results database: each implementation's ct status, with its context ----------------------

# metric "ct" in the results store: one run per (implementation, platform) check, operations
# "status" (CT_STATUS_OF): 1 pass, 0 unaccepted findings, 2 only findings a ledger declares known
# leaks, -1 no verdict; CT_STATUS names them for the report
CT_STATUS = {n: v.upper() if v == FAIL else v for v, n in CT_STATUS_OF.items()}
CT_OPERATIONS = ("status", "unaccepted", "ledgered", "selects", "places", "instructions")
# plus "unaccepted KIND": the unaccepted places of each kind (SIM_KINDS, or memcheck's kinds)


def checker_version(plat: Platform) -> str:
    """The checker and its version as stored with a ct result: `pqlab-sim --version` (simulator
    version and timing model) or `valgrind --version`."""
    from pqlab.platforms import model

    if plat.ct_checker == "pqlab-sim-taint":
        return f"{plat.ct_checker} ({model(plat)})"
    exe = plat.subst(plat.runner_command[:1])[0] if plat.runner_command else "valgrind"
    try:
        out = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        out = ""
    return f"{plat.ct_checker} ({out or 'version unknown'})"


def store_rows(store, outs: list, rows: list[dict]) -> int:
    """Store each ct row (`pqlab ct`'s JSON row of one implementation on one platform) as a run
    of program "ct", metric "ct", with the build's and checker's context; returns the number
    stored. A run that gave no verdict (build failure, crash, no marks) is stored as status -1."""
    from pqlab import jobs as J

    by_key = {(o.impl.scheme, o.impl.name, o.plat.name): o for o in outs}
    versions: dict[str, str] = {}
    n = 0
    for row in rows:
        o = by_key.get((row["scheme"], row["implementation"], row["platform"]))
        if o is None:
            continue
        plat, impl = o.plat, o.impl
        if plat.name not in versions:
            versions[plat.name] = checker_version(plat)
        failing = [f for f in row["findings"] if f["kind"] not in NOT_FAILING]
        status = CT_STATUS_OF[row["verdict"]]
        unaccepted = row.get("unaccepted")
        if unaccepted is None:  # memcheck: every report fails, places counted as reported
            unaccepted = len(failing)
        values = [
            ("ct", "status", status),
            ("ct", "unaccepted", unaccepted),
            ("ct", "ledgered", sum(1 for f in failing if f.get("accepted"))),
            ("ct", "selects", sum(1 for f in row["findings"] if f["kind"] in NOT_FAILING)),
            ("ct", "places", len(failing)),
        ]
        if row.get("instructions"):
            values.append(("ct", "instructions", row["instructions"]))
        by_kind: dict[str, int] = {}
        for f in failing:
            if not f.get("accepted"):
                by_kind[f["kind"]] = by_kind.get(f["kind"], 0) + 1
        values += [("ct", f"unaccepted {k}", v) for k, v in sorted(by_kind.items())]
        ctx = J.context(
            impl,
            plat,
            "ct",
            o.data.get("build"),
            iterations=1,
            timer=versions[plat.name],
            unit="count",
            command="pqlab ct" + (f" ({row['error']})" if row.get("error") else ""),
        )
        store.add_run(ctx, values)
        n += 1
    return n
