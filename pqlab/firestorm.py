"""Apple M1 Firestorm (performance core) block cost model of `pqlab estimate --cpu apple-m1`
(estimate method 2; docs/neon.md, "Cycle estimates").

LLVM 19 has no scheduling model of its own for any Apple core after the 2013 Cyclone, so this
module costs a QEMU translation block from published instruction tables instead of llvm-mca:
Dougall Johnson's "Apple Microarchitecture Research" pages for Firestorm (execution units,
instruction fusion and elimination, and per-instruction uops, unit issues, latency and
throughput), transcribed as facts into pqlab/data/firestorm.toml with the row each figure comes
from. Instructions are decoded by llvm-mc 19 (`--show-inst`: the printed mnemonic, which is the
alias the tables list, the LLVM opcode and every register operand, tied inputs included).

The cost of a block that follows itself (the same assumption as method 1's llvm-mca steady state)
is the largest of four bounds, each in cycles per execution of the block:

- resources: the issues on the execution units, each issue on any unit of its group; the
  smallest time to serve them all is max over unions U of groups of (issues whose group is
  inside U) / |U| (the flow bound, exact for issues that may go to any unit of their group);
- each class's own measured reciprocal throughput times its count (limits that the unit groups
  do not explain, e.g. one post-indexed LD1 per cycle);
- dispatch: uops / 8 (the 8-wide rename and retire), and at most one taken branch per cycle
  (the final branch of a block that follows itself is taken);
- the loop-carried dependency chain: registers (and the NZCV flags) carried from one execution
  of the block into the next, with each instruction's latency; the growth of the latest result
  per execution, simulated over 32 back-to-back executions.

Fusion (firestorm.html): ADDS/SUBS/ANDS/CMP/CMN/TST directly followed by B.cc issue as one uop on
a branch unit; AESE+AESMC and AESD+AESIMC on the same register as one issue with 3c latency.
Elimination: MOV between registers, MOV of an immediate, MOVZ/MOVN, MOVI #0 and MOV v.16b cost a
rename slot, no unit and no latency.

Not modelled (as in method 1): caches (every load hits L1), branch prediction, fetch, memory
dependencies through stores, the register-read limit of fused pairs, and any overlap between
different consecutive blocks.
"""

from __future__ import annotations

import hashlib
import math
import re
import subprocess
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from pqlab import PqlabError

TABLE_PATH = Path(__file__).parent / "data" / "firestorm.toml"
CHAIN_ITERATIONS = 16  # the chain bound is (T(2K) - T(K)) / K over K and 2K executions


@dataclass(frozen=True)
class Cls:
    """One cost class of the table."""

    name: str
    uops: int
    issue: tuple[tuple[str, int], ...]
    lat: float
    tp: float
    acc_lat: float | None = None


@dataclass
class Table:
    version: str
    width: int
    taken: int
    units: dict[str, frozenset[int]]
    classes: dict[str, Cls]
    gpr: dict[str, str]  # mnemonic -> class
    simd: dict[str, str]
    mem: dict[str, str]  # mnemonic -> "load" | "store"


@cache
def table() -> Table:
    """The data table, checked: every rule names a class, every class cites its source, every
    issue group is a unit group."""
    raw = tomllib.loads(TABLE_PATH.read_text())
    units = {k: frozenset(v) for k, v in raw["units"].items()}
    classes = {}
    for name, c in raw["class"].items():
        if not c.get("source"):
            raise PqlabError(f"{TABLE_PATH}: class {name} cites no source")
        for g, _ in c["issue"]:
            if g not in units:
                raise PqlabError(f"{TABLE_PATH}: class {name} issues on unknown unit group {g}")
        classes[name] = Cls(name, c["uops"], tuple((g, n) for g, n in c["issue"]), c["lat"], c["tp"], c.get("acc_lat"))
    maps: dict[str, dict[str, str]] = {}
    for part in ("gpr", "simd", "mem"):
        m: dict[str, str] = {}
        for cls, mnems in raw[part].items():
            # fdiv / fsqrt: classify() picks the _d or _s class by the operand width
            if part != "mem" and cls not in classes and cls not in ("fdiv", "fsqrt"):
                raise PqlabError(f"{TABLE_PATH}: rule [{part}] {cls} names no class")
            for mn in mnems:
                if mn in m:
                    raise PqlabError(f"{TABLE_PATH}: [{part}] {mn} in two classes ({m[mn]}, {cls})")
                m[mn] = cls
        maps[part] = m
    return Table(
        raw["model_version"],
        raw["dispatch_width"],
        raw["taken_branches_per_cycle"],
        units,
        classes,
        maps["gpr"],
        maps["simd"],
        maps["mem"],
    )


def model_version() -> str:
    return table().version


@cache
def digest() -> str:
    """A short hash of the table and this module: block costs are cached under it."""
    h = hashlib.sha256(TABLE_PATH.read_bytes() + Path(__file__).read_bytes())
    return h.hexdigest()[:12]


# ---- decoding with llvm-mc ----


def _llvm_mc() -> str:
    from pqlab.estimate import _tool

    return _tool("llvm-mc")


_INSN = re.compile(
    r"^\s*(?P<text>\S[^\n]*?)\s*// <MCInst #\d+ (?P<op>\w+)(?P<rest>.*?)(?=^\s*\S[^\n]*// <MCInst|\Z)", re.M | re.S
)
_OPND = re.compile(r"<MCOperand (\w+):([^>]*)>")


def _parse_show_inst(out: str) -> list[tuple[str, str, list[tuple[str, str]]]]:
    """(assembly text, LLVM opcode, [(kind, value)]) per instruction of `llvm-mc --show-inst`."""
    res = []
    for m in _INSN.finditer(out):
        res.append((m.group("text").strip(), m.group("op"), _OPND.findall(m.group("rest"))))
    return res


def _run_mc(args: list[str], text: str) -> str:
    from pqlab.estimate import MATTR

    proc = subprocess.run(
        [_llvm_mc(), "-triple=aarch64", f"-mattr={MATTR}", "--show-inst", *args],
        input=text,
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        raise PqlabError(f"llvm-mc --show-inst failed: {proc.stderr[-1500:]}")
    return proc.stdout


@cache
def register_map() -> dict[int, tuple[str, ...]]:
    """LLVM register number -> architectural registers it covers ("r0".."r30", "sp", "v0".."v31";
    () for the zero registers), found by assembling one instruction per register with llvm-mc."""
    lines: list[tuple[str, tuple[str, ...]]] = []
    for n in range(31):
        lines.append((f"add x{n}, x{n}, #0", (f"r{n}",)))
        lines.append((f"add w{n}, w{n}, #0", (f"r{n}",)))
    lines += [("add sp, sp, #0", ("sp",)), ("add wsp, wsp, #0", ("sp",)), ("cmp x0, #0", ()), ("cmp w0, #0", ())]
    for n in range(32):
        for p in "qdshb":
            lines.append((f"ldr {p}{n}, [x0]", (f"v{n}",)))
        for k in (2, 3, 4):
            regs = tuple(f"v{(n + i) % 32}" for i in range(k))
            for arr in ("16b", "8b"):
                lines.append(("ld1 {" + ", ".join(f"{r}.{arr}" for r in regs) + "}, [x0]", regs))
    parsed = _parse_show_inst(_run_mc([], "\n".join(t for t, _ in lines) + "\n"))
    if len(parsed) != len(lines):
        raise PqlabError(f"llvm-mc: {len(parsed)} instructions for {len(lines)} register probes")
    out: dict[int, tuple[str, ...]] = {}
    for (_, regs), (_, _, ops) in zip(lines, parsed):
        kind, val = ops[0]
        if kind != "Reg":
            raise PqlabError(f"llvm-mc register probe gave operand {kind}:{val}")
        out[int(val)] = regs
    return out


# ---- instructions ----


@dataclass(frozen=True)
class Insn:
    text: str
    mnem: str
    opcode: str
    cls: str
    uops: int
    issue: tuple[tuple[str, int], ...]
    lat: float
    tp: float
    defs: tuple[str, ...]  # results with `lat`
    wb: tuple[str, ...]  # base-register write-back (1c, one ALU issue)
    uses: tuple[str, ...]
    acc: str | None = None  # MADD family: the addend register


NO_DEF = {
    "cbz", "cbnz", "tbz", "tbnz", "br", "blr", "ret", "b", "bl", "fcmp", "fcmpe", "fccmp", "fccmpe",
    "ccmp", "ccmn", "prfm", "prfum", "msr", "dmb", "dsb", "isb", "svc", "nop", "hint", "bti", "yield",
    "brk", "hlt", "udf", "csdb",
}  # fmt: skip
FLAGS_DEF = {
    "adds", "subs", "ands", "bics", "adcs", "sbcs", "cmp", "cmn", "tst", "negs", "ngcs", "ccmp", "ccmn",
    "fcmp", "fcmpe", "fccmp", "fccmpe", "setf8", "setf16", "rmif", "cfinv", "axflag", "xaflag",
}  # fmt: skip
FLAGS_USE = {
    "csel", "csinc", "csinv", "csneg", "cset", "csetm", "cinc", "cinv", "cneg", "adc", "adcs", "sbc",
    "sbcs", "ngc", "ngcs", "ccmp", "ccmn", "fccmp", "fccmpe", "fcsel", "cfinv", "axflag", "xaflag",
}  # fmt: skip
PAIR_LOADS = {"ldp", "ldpsw", "ldnp", "ldxp", "ldaxp"}
STATUS_STORES = {"stxr", "stxrb", "stxrh", "stlxr", "stlxrb", "stlxrh"}
FUSE_FIRST = {"adds", "subs", "ands", "cmp", "cmn", "tst"}


def _writeback(opcode: str) -> bool:
    return opcode.endswith(("pre", "post", "_POST"))


def _tuple_len(opcode: str) -> int:
    for k, word in ((2, "Two"), (3, "Three"), (4, "Four")):
        if word in opcode:
            return k
    return 1


def _full(opcode: str) -> bool:
    """A LD1/ST1 list of 128-bit registers (v16b, v8h, v4s, v2d)."""
    return bool(re.search(r"v(16b|8h|4s|2d)", opcode))


def _mem_cost(mnem: str, opcode: str, fp: bool, wb: bool) -> tuple[str, int, list[tuple[str, int]], float, float]:
    """(class, uops, issue, lat, tp) of a load or store (firestorm-int.html, firestorm-simd.html)."""
    T = table().classes
    load = table().mem[mnem] == "load"
    if load:
        base = T["fp_load" if fp else "load"]
        uops, issue, tp, cls = 1, [("u8-10", 1)], base.tp, base.name
        if mnem in PAIR_LOADS:
            uops = 2
            if fp and "Q" in opcode:  # LDP (Q): 2 load issues, TP 0.667
                issue, tp = [("u8-10", 2)], 0.667
        elif mnem.startswith("ld") and mnem[2:3] in "1234" and mnem != "ldr":
            if re.match(r"LD[1-4]i", opcode):  # single lane
                lane = T["lane_load"]
                uops, issue, tp, cls = lane.uops, list(lane.issue), lane.tp, lane.name
            elif re.match(r"LD[1-4]R", opcode):
                rep = T["replicate_load"]
                uops, issue, tp, cls = rep.uops, list(rep.issue), rep.tp, rep.name
            else:  # LD1 (multiple): n uops, n (full) or ceil(n/2) (half) load issues
                n = _tuple_len(opcode)
                k = n if _full(opcode) else math.ceil(n / 2)
                uops, issue, tp = n, [("u8-10", k)], k / 3
                if mnem != "ld1":  # LD2-LD4 de-interleave: not in the pages read, one SIMD issue per register
                    issue.append(("u11-14", n))
        lat = base.lat
    else:
        base = T["store"]
        uops, issue, tp, cls, lat = 1, [("u7/8", 1)], base.tp, base.name, base.lat
        if fp and mnem in ("stp", "stnp"):
            if "Q" in opcode:  # STP (Q): TP 1, 2*u7/8
                uops, issue, tp = 2, [("u7/8", 2)], 1.0
            else:
                pair = T["fp_store_pair"]
                uops, issue, tp, cls = pair.uops, list(pair.issue), pair.tp, pair.name
        elif mnem.startswith("st") and mnem[2:3] in "1234":
            if re.match(r"ST[1-4]i", opcode):  # single lane: one store + one SIMD issue, TP 0.5
                uops, issue, tp = 2, [("u7/8", 1), ("u11-14", 1)], 0.5
            else:  # ST1 (multiple): full registers one store issue each, half ones one per two plus one SIMD
                n = _tuple_len(opcode)
                if _full(opcode):
                    uops, issue = n, [("u7/8", n)]
                else:
                    uops, issue = n, [("u7/8", math.ceil(n / 2))] + ([("u11-14", n // 2)] if n > 1 else [])
                if mnem != "st1":
                    issue = [("u7/8", n), ("u11-14", n)]
                    uops = 2 * n
                tp = max(0.5, sum(c for g, c in issue if g == "u7/8") / 2)
    if wb:
        issue = issue + [("u1-6", 1)]
        if load:
            uops += 1 if not fp else 0
        if re.search(r"LD[1-4]|ST[1-4]", opcode):  # post-indexed LD1/ST1: TP 1 (4 full: 1.333 / 2)
            tp = max(tp, 1.0)
    return cls, uops, issue, lat, tp


def _shifted(opcode: str, text: str, ops: list[tuple[str, str]]) -> bool:
    """A shifted or extended register operand that costs the 2-cycle form (firestorm-int.html:
    ADD (shift), ADD (extend) except uxtx/sxtx and 32-bit uxtw/sxtw)."""
    if re.search(r"[A-Z]rs$", opcode):
        imms = [int(v) for k, v in ops if k == "Imm"]
        return bool(imms and imms[-1] != 0)
    if re.search(r"[A-Z]rx(64)?$", opcode):
        if re.search(r"[su]xt[bh]", text):
            return True
        if re.search(r"[su]xtw", text):
            return not text.split()[1].startswith("w")
        return False
    return False


def classify(text: str, opcode: str, ops: list[tuple[str, str]]) -> Insn:
    """One decoded instruction -> its cost and its register defs and uses."""
    T = table()
    regmap = register_map()
    mnem = text.split()[0].lower() if text else ""
    regs: list[tuple[str, ...] | None] = []  # per operand: registers (None for an immediate)
    for kind, val in ops:
        if kind == "Reg":
            r = regmap.get(int(val))
            if r is None:
                raise PqlabError(f"firestorm model: register {val} of `{text}` ({opcode}) is not known")
            regs.append(r)
        else:
            regs.append(None)
    wb = _writeback(opcode)
    if mnem in T.mem:
        ndef = (1 if wb else 0) + (0 if T.mem[mnem] == "store" else (2 if mnem in PAIR_LOADS else 1))
        if mnem in STATUS_STORES:
            ndef = 1
    elif mnem in NO_DEF or mnem.startswith("b."):
        ndef = 0
    else:
        ndef = 1
    def_ops = [r for r in regs[:ndef] if r is not None]
    use_ops = [r for r in regs[ndef:] if r is not None]
    wb_regs: tuple[str, ...] = ()
    if wb and def_ops:
        wb_regs, def_ops = def_ops[0], def_ops[1:]
    defs = tuple(x for r in def_ops for x in r)
    uses = tuple(dict.fromkeys(x for r in use_ops for x in r))
    if mnem in ("bl", "blr"):
        defs += ("r30",)
    if mnem in FLAGS_DEF:
        defs += ("nzcv",)
    if mnem in FLAGS_USE or mnem.startswith("b."):
        uses += ("nzcv",)
    data = defs + uses + wb_regs
    is_v = any(x.startswith("v") for x in data)
    def_v = any(x.startswith("v") for x in defs)
    def_r = any(x.startswith("r") or x == "sp" for x in defs)
    use_v = any(x.startswith("v") for x in uses)
    use_r = any(x.startswith("r") for x in uses)
    acc = None
    if mnem in T.mem:
        fp = any(x.startswith("v") for x in (defs if T.mem[mnem] == "load" else uses))
        cls, uops, issue, lat, tp = _mem_cost(mnem, opcode, fp, wb)
        return Insn(text, mnem, opcode, cls, uops, tuple(issue), lat, tp, defs, wb_regs, uses)
    if def_v and use_r:
        if mnem == "fmov" and opcode != "FMOVXDHighr":
            name = "fmov_from_gpr"
        elif mnem in ("scvtf", "ucvtf"):
            name = "cvt_from_gpr"
        else:
            name = "vec_from_gpr"
    elif def_r and use_v:
        name = "fcvt_to_gpr" if mnem.startswith("fcvt") else "fmov_to_gpr"
    elif is_v or mnem in T.simd and mnem not in T.gpr:
        name = T.simd.get(mnem)
        if name is None:
            raise PqlabError(f"firestorm model: no class for the SIMD/FP instruction `{text}` ({opcode})")
        if name in ("fdiv", "fsqrt"):
            single = bool(re.search(r"\bs\d+\b|\.[24]s\b|\bh\d+\b|\.[48]h\b", text))
            name = f"{name}_{'s' if single else 'd'}"
        if mnem == "mov" and opcode == "ORRv16i8" or mnem == "movi" and re.search(r"#(0x)?0+$", text):
            name = "move_elim"
        elif mnem == "fmov" and re.match(r"FMOV([DSH]i|v.*_ns)$", opcode):
            name = "simd_imm"
        elif mnem in ("tbl", "tbx") and ("Three" in opcode or "Four" in opcode or mnem == "tbx" and "Two" in opcode):
            name = "tbl4" if mnem == "tbl" and "Four" in opcode else "tbl3"  # TBX (3, 4 tables): TBL3's figures
    else:
        name = T.gpr.get("b.cond" if mnem.startswith("b.") else mnem)
        if name is None and mnem in ("movz", "movn"):
            name = "move_elim"
        if name is None:
            raise PqlabError(f"firestorm model: no class for the instruction `{text}` ({opcode})")
        if mnem == "mov" and (re.match(r"ORR[WX]rs$|MOV[ZN][WX]i$|ORR[WX]ri$", opcode) or opcode == "ADDXri"):
            name = "move_elim"
        elif name in ("alu", "flags") and _shifted(opcode, text, ops):
            name += "_shift"
        elif name == "extr" and len(use_ops) == 2 and use_ops[0] == use_ops[1]:
            name = "alu"  # ROR (immediate)
        if name == "madd":
            acc = use_ops[-1][0] if use_ops and use_ops[-1] else None
    c = T.classes[name]
    return Insn(text, mnem, opcode, name, c.uops, c.issue, c.lat, c.tp, defs, wb_regs, uses, acc)


def assemble(lines: list[str]) -> list[Insn]:
    """Assembly lines -> Insns (llvm-mc 19 assembles them; for tests and inspection)."""
    parsed = _parse_show_inst(_run_mc([], "\n".join(lines) + "\n"))
    if len(parsed) != len(lines):
        raise PqlabError(f"llvm-mc assembled {len(parsed)} of {len(lines)} lines")
    return [classify(t, op, ops) for t, op, ops in parsed]


def decode(words: list[int]) -> dict[int, Insn]:
    """Instruction word -> Insn, decoded by llvm-mc 19 (refuses a word it cannot decode)."""
    order = sorted(set(words))
    if not order:
        return {}
    text = "\n".join(" ".join(f"0x{(w >> s) & 0xFF:02x}" for s in (0, 8, 16, 24)) for w in order) + "\n"
    parsed = _parse_show_inst(_run_mc(["--disassemble"], text))
    if len(parsed) != len(order):
        raise PqlabError(f"llvm-mc decoded {len(parsed)} of {len(order)} instruction words")
    return {w: classify(t, op, ops) for w, (t, op, ops) in zip(order, parsed)}


# ---- the block cost ----


@cache
def _unions() -> tuple[tuple[frozenset[int], tuple[str, ...]], ...]:
    """Every union of unit groups, with the groups inside it."""
    groups = table().units
    domains = ((1, 6), (7, 10), (11, 14))  # integer, load/store, FP/SIMD units: no group spans two

    def domain(s: frozenset[int]) -> int:
        return next(k for k, (lo, hi) in enumerate(domains) if lo <= min(s) <= hi)

    found = {frozenset(v) for v in groups.values()}
    while True:
        new = {a | b for a in found for b in found if domain(a) == domain(b)} - found
        if not new:
            break
        found |= new
    return tuple((u, tuple(g for g, s in groups.items() if s <= u)) for u in sorted(found, key=sorted))


def resource_bound(insns: list[Insn]) -> float:
    load: dict[str, float] = {}
    for i in insns:
        for g, n in i.issue:
            load[g] = load.get(g, 0.0) + n
    if not load:
        return 0.0
    best = 0.0
    for u, inside in _unions():
        s = sum(load.get(g, 0.0) for g in inside)
        if s:
            best = max(best, s / len(u))
    return best


def fuse(insns: list[Insn]) -> list[Insn]:
    """Firestorm's fusion: a flag-setting ADDS/SUBS/ANDS/CMP/CMN/TST (not shifted) followed by B.cc
    is one uop on a branch unit; AESE+AESMC / AESD+AESIMC on the same register one issue, 3c."""
    out = list(insns)
    for k in range(len(out) - 1):
        a, b = out[k], out[k + 1]
        if a.mnem in FUSE_FIRST and a.cls == "flags" and b.mnem.startswith("b."):
            out[k] = Insn(a.text, a.mnem, a.opcode, a.cls, 1, (("u1/2", 1),), a.lat, a.tp, a.defs, a.wb, a.uses)
            out[k + 1] = Insn(b.text, b.mnem, b.opcode, "fused", 0, (), b.lat, 0.0, b.defs, b.wb, b.uses)
        elif (
            (a.mnem, b.mnem) in (("aese", "aesmc"), ("aesd", "aesimc"))
            and a.defs
            and b.defs == a.defs
            and b.uses == a.defs
        ):
            out[k + 1] = Insn(b.text, b.mnem, b.opcode, "fused", b.uops, (), 0, 0.0, b.defs, b.wb, b.uses)
    return out


def chain_bound(insns: list[Insn], k: int = CHAIN_ITERATIONS) -> float:
    """Cycles per execution added by the longest register (and flags) dependency chain carried
    from one execution of the block to the next."""
    ready: dict[str, float] = {}
    producer: dict[str, str] = {}

    def run(times: int) -> float:
        for _ in range(times):
            for i in insns:
                wb = {r: ready.get(r, 0.0) + 1 for r in i.wb}
                if not i.defs:
                    ready.update(wb)
                    continue
                t = 0.0
                for u in i.uses:
                    lat = i.lat
                    if u == i.acc and producer.get(u) == "madd" and i.cls == "madd":
                        lat = table().classes["madd"].acc_lat or i.lat
                    t = max(t, ready.get(u, 0.0) + lat)
                if not i.uses:
                    t = i.lat
                for d in i.defs:
                    ready[d] = t
                    producer[d] = i.cls
                ready.update(wb)
        return max(ready.values(), default=0.0)

    t1 = run(k)
    t2 = run(k)
    return (t2 - t1) / k


@dataclass(frozen=True)
class Cost:
    cycles: float
    resources: float
    throughput: float
    dispatch: float
    branch: float
    chain: float


def block_cost(insns: list[Insn]) -> Cost:
    T = table()
    f = fuse(insns)
    res = resource_bound(f)
    per_cls: dict[str, float] = {}
    for i in f:
        per_cls[i.cls] = per_cls.get(i.cls, 0.0) + i.tp
    tp = max(per_cls.values(), default=0.0)
    disp = sum(i.uops for i in f) / T.width
    # the block follows itself, so its final branch (if any) is taken
    taken = 1.0 / T.taken if insns and insns[-1].cls in ("branch", "branch_ind", "b") else 0.0
    ch = chain_bound(f)
    return Cost(max(res, tp, disp, taken, ch), res, tp, disp, taken, ch)


def block_costs(blocks: dict[str, tuple[int, ...]]) -> dict[str, float]:
    """Block key -> Firestorm cycles per execution."""
    ins = decode([w for ws in blocks.values() for w in ws])
    return {key: block_cost([ins[w] for w in ws]).cycles for key, ws in blocks.items()}
