"""Cycle estimates for AArch64 cores without the hardware (docs/neon.md, "Cycle estimates"; issue 20).

Every figure this module produces is an **estimate** from a model, never a measurement:

1. Execution counts: the harness's speed program of the aarch64-qemu build runs under
   qemu-aarch64 with `-d exec,nochain`; with chaining off QEMU logs every execution of a
   translation block (TB), so the log between the two timer reads around an operation gives
   how often each TB start address ran (`fmastudy.trace_counts`, the same windows as the FMA
   study's instruction counts).
2. Block contents: a second run of the same program with `-d in_asm` logs every TB QEMU
   translated with its instruction words (QEMU's own cut: branches, pages, 512 instructions,
   a full TCG op buffer), so each executed block is known exactly.
3. Block cost: every distinct block is one code region of llvm-mca (LLVM 19) with
   `-mcpu=cortex-a72|cortex-a55` (method 1); its cost is the steady-state cycles per iteration,
   (TotalCycles(2I) - TotalCycles(I)) / I with I = 100, i.e. the block repeated back to back
   with its own loop-carried dependencies. Apple M1 (method 2): LLVM's only Apple model is the
   2013 Cyclone, so pqlab/firestorm.py costs the block, again as following itself, from
   published Firestorm instruction tables (units, uops, latencies; pqlab/data/firestorm.toml),
   the instructions decoded by llvm-mc 19. Costs are cached per (tool version, method, CPU,
   block words) in build/estimate-cache.
4. Sum: cycles = sum over blocks of executions x cost.

Not modelled: cache and TLB misses (every load hits L1, as llvm-mca assumes), branch
mispredictions and fetch, dependencies and overlap between *different* consecutive blocks (each
block is costed as if it followed itself), the kernel's time in system calls. The method's
version (METHOD_VERSION) and llvm-mca's version are stored with every result.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import os
import re
import shutil
import struct
import subprocess
import tempfile
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path

from pqlab import ROOT, PqlabError, build, protocol
from pqlab.platforms import Platform
from pqlab.registry import Implementation
from pqlab.runner import command

METHOD_VERSION = "1"  # llvm-mca block costs; bump when the way blocks are cut or costed changes
FIRESTORM_METHOD = "2"  # apple-m1: pqlab's Firestorm table model (pqlab/firestorm.py)
ITERATIONS = 100  # llvm-mca iterations I of the steady-state difference
CPUS = {
    # -mcpu -> the LLVM 19 scheduling model it selects (llvm/lib/Target/AArch64/AArch64Processors.td)
    "cortex-a72": "CortexA57Model (LLVM has no A72 model of its own; A72 uses A57's)",
    "cortex-a55": "CortexA55Model",
    # LLVM's only Apple model is CycloneModel (2013), 2-3x off M1's published figures (method 1)
    "apple-m1": "pqlab Firestorm model",
}
MCA_CPUS = ("cortex-a72", "cortex-a55")  # costed by llvm-mca (method 1)


def method_version(cpu: str) -> str:
    return METHOD_VERSION if cpu in MCA_CPUS else FIRESTORM_METHOD


# The optional instructions pqlab's aarch64 backend detects at run time (docs/neon.md, "Run-time
# detection") that each modelled core has (Cortex-A72 and -A55 with the cryptographic extension,
# ARMv8.0 / 8.2 without FEAT_SHA3; Apple M1 ARMv8.5 with FEAT_SHA3), and the QEMU platform whose
# CPU model takes the same paths: the trace must run the code the modelled core would run.
CPU_FEATURES = {
    "cortex-a72": frozenset({"sha2", "pmull"}),
    "cortex-a55": frozenset({"sha2", "pmull"}),
    "apple-m1": frozenset({"sha2", "pmull", "sha3"}),
}
QEMU_PLATFORM = {"cortex-a72": "aarch64-qemu", "cortex-a55": "aarch64-qemu", "apple-m1": "aarch64-qemu-max"}
# what the QEMU CPU models report (docs/neon.md: HWCAP 0x8fb and 0xecfffffb under QEMU 7.2)
PLATFORM_FEATURES = {"cortex-a72": frozenset({"sha2", "pmull"}), "qemu-max": frozenset({"sha2", "pmull", "sha3"})}


def trace_platform(plat: Platform) -> Platform:
    """The platform as the estimator runs it: on QEMU's `max` CPU model with SVE and SME off
    (`-cpu max,sve=off,sme=off`), because none of the three modelled cores has them and glibc's
    string functions would otherwise take SVE paths; other CPU models unchanged."""
    cmd = list(plat.runner_command)
    for k in range(len(cmd) - 1):
        if cmd[k] == "-cpu" and cmd[k + 1] == "max":
            cmd[k + 1] = "max,sve=off,sme=off"
            return replace(plat, runner_command=tuple(cmd))
    return plat


def check_features(plat: Platform, cpu: str) -> str:
    """Refuses a trace whose CPU model has instructions the modelled core lacks (it would cost
    code that core never runs); returns a note when the core has more (its real run would take
    other paths), else ""."""
    have = PLATFORM_FEATURES.get(plat.core)
    if have is None:
        raise PqlabError(f"estimate: no feature set known for {plat.name}'s QEMU CPU model {plat.core}")
    extra, missing = have - CPU_FEATURES[cpu], CPU_FEATURES[cpu] - have
    if extra:
        raise PqlabError(
            f"estimate: {plat.name} runs {', '.join(sorted(extra))} instructions that {cpu} does not have; "
            f"estimate {cpu} on {QEMU_PLATFORM[cpu]}"
        )
    if missing:
        return (
            f"{cpu} has {', '.join(sorted(missing))}, which {plat.name}'s CPU model lacks: the trace takes "
            f"the paths without them (use {QEMU_PLATFORM[cpu]})"
        )
    return ""


# instruction sets both tools must accept: the union of what the aarch64 platforms' binaries hold
MATTR = "+v8a,+neon,+fp-armv8,+crc,+aes,+sha2,+sha3,+lse,+rdm"
CACHE = ROOT / "build" / "estimate-cache"


def _tool(name: str) -> str:
    for cand in (f"{name}-19", f"/usr/lib/llvm-19/bin/{name}"):
        exe = shutil.which(cand)
        if exe:
            return exe
    raise PqlabError(f"estimate: {name}-19 not found (Debian package llvm-19; run.sh installs it)")


@cache
def mca_version() -> str:
    """llvm-mca's version, e.g. '19.1.7'; refuses any other major version than 19."""
    out = subprocess.run([_tool("llvm-mca"), "--version"], capture_output=True, text=True, check=True).stdout
    m = re.search(r"LLVM version (\d+)\.(\d+)\.(\d+)", out)
    if not m or m.group(1) != "19":
        raise PqlabError(f"estimate: llvm-mca 19 expected, found: {out.strip()[:200]}")
    return ".".join(m.groups())


def model_label(cpu: str) -> str:
    if cpu in MCA_CPUS:
        return f"llvm-mca {mca_version()} -mcpu={cpu} ({CPUS[cpu]}); pqlab estimate method {METHOD_VERSION}"
    from pqlab import firestorm

    return (
        f"{CPUS[cpu]} {firestorm.model_version()} for {cpu} (Dougall Johnson's Firestorm tables, "
        f"pqlab/data/firestorm.toml; llvm-mc {mca_version()} decoding); pqlab estimate method {FIRESTORM_METHOD}"
    )


# ---- block contents from QEMU's translation log ----

_IN_ASM = re.compile(r"^0x([0-9a-f]+):\s+([0-9a-f]{8})\b", re.M)


def parse_in_asm(text: str) -> dict[int, tuple[int, ...]]:
    """TB start address -> its instruction words, from a `-d in_asm` log (QEMU 7.2: one section
    per translation, `IN: symbol` then `0xADDR:  WORD  disassembly` lines). QEMU cuts a TB at a
    branch, a page end, 512 instructions or when its TCG op buffer fills (long straight-line
    NEON code), so the log is the only exact source of the blocks. A start address translated
    twice into different blocks is refused."""
    out: dict[int, tuple[int, ...]] = {}
    for section in text.split("IN:")[1:]:
        rows = _IN_ASM.findall(section)
        if not rows:
            continue
        pc, words = int(rows[0][0], 16), tuple(int(w, 16) for _, w in rows)
        if any(int(a, 16) != pc + 4 * k for k, (a, _) in enumerate(rows)):
            raise PqlabError(f"estimate: translation block at {pc:#x} is not contiguous in the in_asm log")
        if out.setdefault(pc, words) != words:
            raise PqlabError(f"estimate: two different translation blocks start at {pc:#x}")
    return out


# ---- block costs from llvm-mca ----


def disassemble(words: set[int]) -> dict[int, str]:
    """Instruction word -> LLVM assembly text (llvm-mc --disassemble)."""
    order = sorted(words)
    if not order:
        return {}
    text = "\n".join(" ".join(f"0x{(w >> s) & 0xFF:02x}" for s in (0, 8, 16, 24)) for w in order) + "\n"
    proc = subprocess.run(
        [_tool("llvm-mc"), "--disassemble", "-triple=aarch64", f"-mattr={MATTR}"],
        input=text,
        capture_output=True,
        text=True,
    )
    lines = [ln.strip() for ln in proc.stdout.splitlines() if ln.strip() and not ln.strip().startswith(".")]
    if proc.returncode != 0 or len(lines) != len(order):
        raise PqlabError(f"llvm-mc could not disassemble every instruction: {proc.stderr[-1500:]}")
    return dict(zip(order, lines))


def _key(words: tuple[int, ...]) -> str:
    return hashlib.sha256(struct.pack(f"<{len(words)}I", *words)).hexdigest()[:32]


def _mca_total(asm: str, cpu: str, iterations: int, n: int) -> list[float]:
    with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as fh:
        fh.write(asm)
        path = fh.name
    try:
        proc = subprocess.run(
            [
                _tool("llvm-mca"),
                "-mtriple=aarch64",
                f"-mcpu={cpu}",
                f"-mattr={MATTR}",
                f"-iterations={iterations}",
                "-summary-view",
                "-instruction-info=0",
                "-resource-pressure=0",
                path,
            ],
            capture_output=True,
            text=True,
        )
    finally:
        os.unlink(path)
    totals = [float(x) for x in re.findall(r"^Total Cycles:\s+(\d+)", proc.stdout, re.M)]
    if proc.returncode != 0 or len(totals) != n:
        raise PqlabError(f"llvm-mca -mcpu={cpu} failed ({proc.returncode}): {proc.stderr[-1500:]}")
    return totals


def block_costs(blocks: dict[int, tuple[int, ...]], cpu: str) -> dict[int, float]:
    """Start address -> steady-state cycles per execution of that block on `cpu` (cached)."""
    if cpu not in CPUS:
        raise PqlabError(f"estimate: unknown CPU {cpu} (one of {', '.join(CPUS)})")
    if cpu in MCA_CPUS:
        cache_file = CACHE / f"llvm-mca-{mca_version()}-m{METHOD_VERSION}-{cpu}.json"
    else:
        from pqlab import firestorm

        cache_file = CACHE / (
            f"firestorm-{firestorm.model_version()}-{firestorm.digest()}-llvm-mc-{mca_version()}"
            f"-m{FIRESTORM_METHOD}-{cpu}.json"
        )
    known: dict[str, float] = json.loads(cache_file.read_text()) if cache_file.exists() else {}
    keys = {pc: _key(w) for pc, w in blocks.items()}
    todo = {keys[pc]: w for pc, w in blocks.items() if keys[pc] not in known}
    if todo and cpu not in MCA_CPUS:
        known.update(firestorm.block_costs(todo))
    elif todo:  # llvm-mca
        text = disassemble({w for ws in todo.values() for w in ws})
        items = sorted(todo.items())
        for start in range(0, len(items), 4000):
            part = items[start : start + 4000]
            asm = "".join(
                f"# LLVM-MCA-BEGIN b{k}\n" + "".join(f"{text[w]}\n" for w in ws) + f"# LLVM-MCA-END b{k}\n"
                for k, (_, ws) in enumerate(part)
            )
            t1 = _mca_total(asm, cpu, ITERATIONS, len(part))
            t2 = _mca_total(asm, cpu, 2 * ITERATIONS, len(part))
            for (key, _), a, b in zip(part, t1, t2):
                known[key] = (b - a) / ITERATIONS
    if todo:
        CACHE.mkdir(parents=True, exist_ok=True)
        tmp = cache_file.with_suffix(f".{os.getpid()}.tmp")  # concurrent estimates: each its own file
        tmp.write_text(json.dumps(known, sort_keys=True))
        tmp.replace(cache_file)
    return {pc: known[keys[pc]] for pc in blocks}


# ---- the whole estimate ----


@dataclass
class Trace:
    """Per measured operation (in order of the speed records): TB executions per start address."""

    elf: Path
    ops: list[str]
    windows: list[Counter[int]]
    blocks: dict[int, tuple[int, ...]] = field(default_factory=dict)
    build: build.BuildResult | None = None

    def instructions(self, k: int) -> int:
        return sum(n * len(self.blocks[pc]) for pc, n in self.windows[k].items())

    def cycles(self, k: int, costs: dict[int, float]) -> float:
        return sum(n * costs[pc] for pc, n in self.windows[k].items())

    def by_function(self, plat: Platform, k: int, costs: dict[int, float]) -> dict[str, float]:
        """Estimated cycles of operation k per function (the symbol that holds each block's
        start; '?' outside every symbol), largest first."""
        from pqlab.fmastudy import function_table

        starts, ends = function_table(plat, self.elf)
        out: Counter[str] = Counter()
        for pc, n in self.windows[k].items():
            i = bisect.bisect_right(starts, pc) - 1
            out[ends[i][1] if i >= 0 and pc < ends[i][0] else "?"] += n * costs[pc]
        return dict(out.most_common())


def trace_elf(plat: Platform, elf: Path, marker: str = "pqlab_hal_cycles") -> tuple[str, list[Counter[int]]]:
    """Run `elf` under the platform's qemu-aarch64 with `-d exec,nochain`; returns its stdout and,
    for each window between the executions 2k and 2k + 1 of `marker`'s first block, the
    executions per TB start address."""
    from pqlab.fmastudy import symbol, trace_counts

    if plat.runner_kind != "qemu-user" or plat.arch != "aarch64":
        raise PqlabError(f"estimate: platform {plat.name} is not qemu-aarch64 user mode")
    addr = symbol(plat, elf, marker)
    if addr is None:
        raise PqlabError(f"{elf}: no {marker} symbol to count between")
    with tempfile.TemporaryDirectory(prefix="pqlab-est-") as tmp:
        fifo = Path(tmp) / "trace"
        os.mkfifo(fifo)
        stdout, _gaps, windows = trace_counts(command(plat, elf, ["-d", "exec,nochain", "-D", str(fifo)]), addr, fifo)
    return stdout, [Counter({int(pc, 16): n for pc, n in w.items()}) for w in windows]


def translated_blocks(plat: Platform, elf: Path) -> dict[int, tuple[int, ...]]:
    """Every TB of a run of `elf` (a second, identical run with `-d in_asm`: the program is
    deterministic, the fixed randomness stream of the harness)."""
    with tempfile.TemporaryDirectory(prefix="pqlab-est-") as tmp:
        log = Path(tmp) / "in_asm"
        proc = subprocess.run(
            command(plat, elf, ["-d", "in_asm", "-D", str(log)]), capture_output=True, text=True, timeout=7200
        )
        if proc.returncode != 0:
            raise PqlabError(f"{elf} under qemu -d in_asm failed ({proc.returncode}): {proc.stderr[-1000:]}")
        return parse_in_asm(log.read_text(errors="replace"))


def with_blocks(plat: Platform, elf: Path, windows: list[Counter[int]]) -> dict[int, tuple[int, ...]]:
    """The blocks executed in `windows`; refuses when one was not in the translation log."""
    tbs = translated_blocks(plat, elf)
    used = sorted({pc for w in windows for pc in w})
    missing = [pc for pc in used if pc not in tbs]
    if missing:
        raise PqlabError(f"estimate: {len(missing)} executed block(s) not in the in_asm log, e.g. {missing[0]:#x}")
    return {pc: tbs[pc] for pc in used}


def trace_operations(plat: Platform, impl: Implementation, ops: tuple[str, ...] = (), iterations: int = 1) -> Trace:
    """The harness's speed program of `impl` on `plat` (a qemu-aarch64 platform), traced."""
    opts = build.BuildOptions(iterations=iterations, ops=ops)
    res = build.build(plat, [impl], ("speed",), 1, opts)[impl.id]
    if res.error:
        raise PqlabError(f"build of {impl.id} failed: {res.error[-2000:]}")
    elf = res.elf["speed"]
    stdout, windows = trace_elf(plat, elf)
    out = protocol.parse(stdout, "speed")
    names = [f[0] for f in out.of("speed")]
    if len(windows) != len(names):
        raise PqlabError(f"{elf}: {len(windows)} timed windows for {len(names)} measured operations")
    return Trace(elf, names, windows, with_blocks(plat, elf, windows), res)


@dataclass
class Estimate:
    """The estimate of one implementation's operations on one CPU model."""

    impl: Implementation
    cpu: str
    model: str  # model_label(cpu)
    ops: list[str]
    instructions: list[int]  # qemu-executed instructions per operation (between the timer reads)
    cycles: list[float]  # estimated cycles per operation
    build: build.BuildResult | None = None
    note: str = ""  # check_features: the trace took other optional-instruction paths than the core would
    functions: list[dict[str, float]] = field(default_factory=list)  # per operation: by_function


def estimate(
    plat: Platform, impl: Implementation, cpus: tuple[str, ...], ops: tuple[str, ...] = (), functions: bool = False
) -> list[Estimate]:
    """Trace `impl`'s speed program once (one iteration) and cost it on each CPU model;
    `functions`: also each operation's cycles per function."""
    for cpu in cpus:
        if cpu not in CPUS:
            raise PqlabError(f"estimate: unknown CPU {cpu} (one of {', '.join(CPUS)})")
    if plat.runner_kind != "qemu-user" or plat.arch != "aarch64":
        raise PqlabError(f"estimate: platform {plat.name} is not qemu-aarch64 user mode (aarch64-qemu, -max)")
    notes = {cpu: check_features(plat, cpu) for cpu in cpus}
    tr = trace_operations(trace_platform(plat), impl, ops)
    out = []
    for cpu in cpus:
        costs = block_costs(tr.blocks, cpu)
        out.append(
            Estimate(
                impl,
                cpu,
                model_label(cpu),
                tr.ops,
                [tr.instructions(k) for k in range(len(tr.ops))],
                [tr.cycles(k, costs) for k in range(len(tr.ops))],
                tr.build,
                notes[cpu],
                [tr.by_function(plat, k, costs) for k in range(len(tr.ops))] if functions else [],
            )
        )
    return out


@dataclass
class SignFit:
    """Signing's estimated cycles against its rejection-loop iterations (ML-DSA): one point per
    signature of the speed program, and the least-squares line cycles = fixed + per_iteration x
    iterations (docs/neon.md, the ML-DSA-44 sections)."""

    impl: Implementation
    cpu: str
    model: str
    iterations: list[int]
    cycles: list[float]
    fixed: float
    per_iteration: float

    def at(self, iterations: float) -> float:
        return self.fixed + self.per_iteration * iterations


# FIPS 204 Table 1: the expected number of repetitions of the signing loop
EXPECTED_SIGN_ITERATIONS = {"ml-dsa-44": 4.25, "ml-dsa-65": 5.1, "ml-dsa-87": 3.85}


def least_squares(xs: list[int], ys: list[float]) -> tuple[float, float]:
    """(a, b) of the line y = a + b x through the points by least squares; refuses fewer than
    two distinct x (no line is determined)."""
    if len(xs) != len(ys) or len(set(xs)) < 2:
        raise PqlabError(f"estimate: a line needs points at two or more iteration counts, got {sorted(set(xs))}")
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    return my - b * mx, b


def sign_fit(plat: Platform, impl: Implementation, cpus: tuple[str, ...], n: int = 10) -> list[SignFit]:
    """Trace the speed program built with `n` iterations of `sign` alone and cost every
    signature's window on each CPU model, paired with the harness's `iterations sign <k>` record
    of the same signature (lib/common/instrument.h); refuses an implementation without those
    records. The windows are the ordinary estimate's (trace_elf), the costs block_costs'."""
    if plat.runner_kind != "qemu-user" or plat.arch != "aarch64":
        raise PqlabError(f"estimate: platform {plat.name} is not qemu-aarch64 user mode (aarch64-qemu, -max)")
    for cpu in cpus:
        if cpu not in CPUS:
            raise PqlabError(f"estimate: unknown CPU {cpu} (one of {', '.join(CPUS)})")
    tplat = trace_platform(plat)
    res = build.build(tplat, [impl], ("speed",), 1, build.BuildOptions(iterations=n, ops=("sign",)))[impl.id]
    if res.error:
        raise PqlabError(f"build of {impl.id} failed: {res.error[-2000:]}")
    elf = res.elf["speed"]
    stdout, windows = trace_elf(tplat, elf)
    out = protocol.parse(stdout, "speed")
    names = [f[0] for f in out.of("speed")]
    its = [int(f[1]) for f in out.of("iterations") if f[0] == "sign"]
    if names != ["sign"] * len(names) or len(windows) != len(names):
        raise PqlabError(f"{elf}: {len(windows)} timed windows for the operations {names}")
    if len(its) != len(names):
        raise PqlabError(f"{impl.id}: {len(its)} 'iterations sign' records for {len(names)} signatures")
    tr = Trace(elf, names, windows, with_blocks(tplat, elf, windows), res)
    fits = []
    for cpu in cpus:
        costs = block_costs(tr.blocks, cpu)
        cyc = [tr.cycles(k, costs) for k in range(len(names))]
        a, b = least_squares(its, cyc)
        fits.append(SignFit(impl, cpu, model_label(cpu), its, cyc, a, b))
    return fits


def store(store_, plat: Platform, ests: list[Estimate]) -> int:
    """Store each estimate as a run of program "estimate": platform `estimate-<cpu>`, or
    `estimate-<cpu>~portable` for a build without the native backends (the figures
    belong to the modelled core, not to the emulator that ran the code), core the CPU, timer and
    unit "estimate" / "cycles (estimate)", model the cost model's version and method; metric
    "estimate", one value per operation. Returns the number of runs stored."""
    from pqlab import jobs as J

    n = 0
    for e in ests:
        ctx = J.context(
            e.impl,
            plat,
            "estimate",
            e.build,
            iterations=1,
            timer="estimate",
            unit="cycles (estimate)",
            command="qemu-aarch64 -d exec,nochain / in_asm; "
            + (f"llvm-mca -mcpu={e.cpu}" if e.cpu in MCA_CPUS else "pqlab Firestorm model (llvm-mc decoding)"),
        )
        ctx.platform = f"estimate-{e.cpu}" + (f"~{plat.variant}" if plat.variant else "")
        ctx.core, ctx.model = e.cpu, e.model
        store_.add_run(ctx, [("estimate", op, round(c)) for op, c in zip(e.ops, e.cycles)])
        n += 1
    return n
