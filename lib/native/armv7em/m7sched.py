# SPDX-License-Identifier: MIT
"""Cortex-M7 instruction order for the armv7em generators (gen_keccakf1600.py --m7,
gen_mlkem_ntt.py): a list scheduler over straight-line blocks of the generated Thumb-2 with
a model of the Cortex-M7's dual issue as its cost function. The schedule keeps the
instructions and registers of the Cortex-M4 code and only changes their order (every
instruction after everything it depends on).

The issue model is pqlab-sim's Cortex-M7 estimate (m7-estimate-v4, sim/src/timing/cortex_m.rs
`m7_info` / `m7_adjust`, docs/sim.md "Cortex-M7 model") for straight-line code, whose rules
come from the Arm Cortex-M7 Processor TRM (DDI 0489: in-order, dual issue, DTCM as two 32-bit
banks D0TCM / D1TCM selected by bit 2 of the address) and from the cycle measurements in
jnk0le's "pipeline cycle test" (github.com/jnk0le/random, doc/cortex_m7.md):
- two instructions issue in one cycle when the younger does not read the older's result (a
  store's data register and a MAC's accumulator excepted) and their classes may pair;
- no two loads on the same DTCM bank; no two stores; no store with a multiply; no two
  multiplies; no two instructions with an inline shifted register (or rotated constant)
  operand; no shifted operand with a bitfield/DSP instruction, no two bitfield/DSP
  instructions; LDRD/STRD/LDM/STM/PUSH/POP, VMOV and VLDM pair with nothing here;
- a multiply's result read in the next cycle costs a cycle; a load's or a DSP instruction's
  result read there as an early operand (address, shifted register, multiplicand, DSP operand)
  costs a cycle.
"""

from __future__ import annotations

import re

ALU, LD, ST, MUL, DSP, SH, FP, MULTI = range(8)
LD_ODD = 8  # a load on the odd DTCM bank (class LD on the even one)
CONFLICT = {ALU: {MULTI}, LD: {MULTI}, ST: {ST, MUL, MULTI}, MUL: {MUL, ST, MULTI}, FP: {FP, MULTI}}
CONFLICT |= {DSP: {DSP, SH, MULTI}, SH: {SH, DSP, MULTI}, MULTI: set(range(9))}
REGS = {f"r{i}" for i in range(13)} | {"sp", "lr"}  # (r14 is read as lr)
MULS = {"mul", "mla", "mls", "smulbb", "smulbt", "smultb", "smultt", "smulwb", "smulwt"}
MULS |= {"smlabb", "smlabt", "smlatb", "smlatt", "smlawb", "smlawt", "smuad", "smuadx", "smusd"}
MULS |= {"smusdx", "smmul", "smmulr", "smmls", "smlad", "smladx", "smlsd", "smlsdx", "smmla", "smmlar"}
MACS = {"mla", "mls", "smlabb", "smlabt", "smlatb", "smlatt", "smlawb", "smlawt", "smlad", "smladx"}
MACS |= {"smlsd", "smlsdx", "smmla", "smmlar", "smmls"}
PAR = {"sadd16", "ssub16", "uadd16", "usub16", "sadd8", "ssub8", "uadd8", "usub8", "sasx", "ssax"}
PAR |= {"qadd16", "qsub16", "uqadd16", "uqsub16", "shadd16", "shsub16", "sel", "qadd", "qsub"}
DP = {"add", "adds", "sub", "subs", "rsb", "rsbs", "and", "ands", "orr", "orrs", "eor", "eors"}
DP |= {"bic", "bics", "orn", "adc", "adcs", "sbc", "sbcs"}
SHIFTS = {"lsl", "lsls", "lsr", "lsrs", "asr", "asrs", "ror", "rors"}


def _imm_rotated(v: int) -> bool:
    """A Thumb-2 modified immediate that is a rotated byte (not 0x000000XY or a replicated
    pattern): the decoder's shifted constant, which pairs like a shifted register."""
    v &= 0xFFFFFFFF
    b = v & 0xFF
    return not (v < 256 or v in (b | b << 16, b << 8 | b << 24, b * 0x01010101))


class Ins:
    """One instruction: registers read (all, for dependencies; those the issue stage checks;
    early ones), written, class, memory access (kind, base, offset or None)."""

    def __init__(self, text: str) -> None:
        self.text = text
        body = text.split("/*")[0].split("@")[0].strip()
        op, _, rest = body.partition(" ")
        op = op.split(".")[0]
        args = [a.strip() for a in re.split(r",(?![^{]*})", rest)] if rest else []
        regs = ["lr" if a.strip("[]!") == "r14" else a.strip("[]!") for a in args]
        self.op = op
        self.reads: set[str] = set()
        self.late_exempt: set[str] = set()  # read, but not by the issue stage
        self.early: set[str] = set()
        self.writes: set[str] = set()
        self.cls, self.cyc, self.mem, self.bank = ALU, 1, None, None
        self.out_late = False  # results read by anyone in the next cycle wait (multiplies, LDRH/LDRB)
        isr = lambda a: a in REGS  # noqa: E731
        if op in ("ldr", "str", "ldrh", "strh", "ldrb", "strb", "ldrsh", "ldrsb"):
            base = regs[1]
            post = len(args) > 2 and args[1].endswith("]")
            off = None if post else (int(args[2].strip("#]!"), 0) if len(args) > 2 else 0)
            wb = post or args[-1].endswith("!")
            self.early = {base} | ({regs[2]} if len(args) > 2 and isr(regs[2]) else set())
            self.reads = set(self.early)
            if op.startswith("str"):
                self.reads.add(regs[0])
                self.late_exempt = {regs[0]} - self.early
                self.cls = ST
            else:
                self.writes.add(regs[0])
                self.cls = LD
                self.out_late = op != "ldr"
            if wb:
                self.writes.add(base)
            self.mem = ("st" if self.cls == ST else "ld", base, off, op in ("ldr", "str"))
        elif op in ("ldrd", "strd", "ldm", "ldmia", "stm", "stmia", "push", "pop", "vldm", "vstm", "vpush", "vpop"):
            # issue alone; every register named (ranges expanded, core and FP) is taken as
            # read and written (conservative for the order)
            self.cls, self.cyc = MULTI, 2
            names = set(re.findall(r"\b([rs]\d+|sp|lr|pc)\b", rest))
            for k, lo, hi in re.findall(r"\b([rs])(\d+)-[rs](\d+)\b", rest):
                names |= {f"{k}{i}" for i in range(int(lo), int(hi) + 1)}
            names = {"lr" if x == "r14" else "r13" if x == "sp" else x for x in names} - {"r13"} | (
                {"sp"} if "sp" in rest or op in ("push", "pop", "vpush", "vpop") else set()
            )
            self.reads = set(names)
            self.writes = set(names) | {"mem"}
            self.mem = ("multi", None, None, False)
        elif op in ("smull", "umull", "smlal", "umlal", "umaal"):
            self.cls, self.out_late = MUL, True
            self.writes = {regs[0], regs[1]}
            self.early = {regs[2], regs[3]}
            self.reads = set(self.early)
            if op != "smull" and op != "umull":  # the accumulator pair
                self.reads |= {regs[0], regs[1]}
                self.late_exempt = {regs[0], regs[1]} - self.early
        elif op in MULS:
            self.cls, self.out_late = MUL, True
            self.writes = {regs[0]}
            self.early = {r for r in regs[1:3] if isr(r)}
            self.reads = set(self.early)
            if op in MACS:
                self.reads.add(regs[3])
                self.late_exempt = {regs[3]} - self.early
        elif op in PAR:
            self.cls = DSP
            self.writes = {regs[0]}
            self.reads = {r for r in regs[1:3] if isr(r)}
            if op == "sel":
                self.reads.add("ge")
            elif op.startswith(("u", "s")) and op not in ("sasx", "ssax"):
                self.writes.add("ge")
        elif op in ("pkhbt", "pkhtb", "uxtb16", "sxtb16", "uxtab16", "sxtab16", "ubfx", "sbfx", "bfi"):
            self.cls = DSP
            self.writes = {regs[0]}
            src = [r for r in regs[1:3] if isr(r)]
            self.reads = set(src)
            if op in ("ubfx", "sbfx"):
                self.early = {src[0]}
            elif op == "bfi":
                self.reads.add(regs[0])
                self.early = {src[0]}
            else:
                self.early = {src[-1]} | ({src[0]} if op == "pkhtb" else set())
        elif op in DP or op in SHIFTS or op in ("mov", "movs", "mvn", "movw", "movt", "cmp", "cmn", "tst"):
            flags = op.endswith("s") and op not in ("movs",) or op in ("cmp", "cmn", "tst", "movs")
            if op in ("cmp", "cmn", "tst"):
                srcs = regs[0:2]
            elif op in ("mov", "movs", "mvn", "movw", "movt"):
                srcs = regs[1:2]
                self.writes = {regs[0]}
            else:
                srcs = regs[1:3]
                self.writes = {regs[0]}
            self.reads = {r for r in srcs if isr(r)}
            if op in ("adc", "adcs", "sbc", "sbcs"):
                self.reads.add("flags")
            if flags:
                self.writes.add("flags")
            last = args[-1] if args else ""
            shifted = any(last.startswith(s) for s in ("lsl", "lsr", "asr", "ror")) and op in DP | {"cmp", "mvn"}
            if shifted:
                self.cls = SH
                self.early = {regs[-2]}
            elif op in DP and last.startswith("#") and _imm_rotated(int(last[1:], 0)):
                self.cls = SH
            if op == "movt":
                self.reads = set()  # MOVW + MOVT pair (jnk0le, "overall")
        elif op == "vmov" and len(args) == 2:
            self.cls = FP
            if isr(regs[0]):
                self.writes = {regs[0]}
                self.reads = {regs[1]}
            else:
                self.writes = {regs[0]}
                self.reads = {r for r in regs[1:] if isr(r)} | {r for r in regs[1:] if not isr(r)}
        else:
            raise ValueError(f"m7sched: cannot parse {text!r}")
        self.issue_reads = (self.reads - self.late_exempt) & REGS

    def set_bank(self, base_mod8: dict[str, int]) -> None:
        """DTCM bank of a load from a base whose address mod 8 is known and not written in
        the block (else None: taken as conflicting with a load on either bank)."""
        if self.cls == LD and self.mem[2] is not None and self.mem[1] in base_mod8:
            self.bank = ((base_mod8[self.mem[1]] + self.mem[2]) >> 2) & 1


class M7Issue:
    """Issue state between instructions (pqlab-sim's M7State for straight-line code)."""

    def __init__(self) -> None:
        self.row: set[int] = set(range(9))
        self.wmask: set[str] = set()
        self.cur_late: set[str] = set()
        self.cur_early: set[str] = set()
        self.prev_late: set[str] = set()
        self.prev_early: set[str] = set()
        self.one = False
        self.cycles = 0

    def copy(self) -> M7Issue:
        n = M7Issue.__new__(M7Issue)
        n.__dict__.update(self.__dict__)
        return n

    def step(self, i: Ins) -> int:
        ys = {LD, LD_ODD} if i.cls == LD and i.bank is None else {LD_ODD if i.bank else i.cls}
        one_cycle = i.cyc == 1
        r, e = i.issue_reads, i.early
        paired = (
            not (ys & self.row)
            and one_cycle
            and not (self.wmask & r)
            and not (self.prev_late & r)
            and not (self.prev_early & e)
        )
        res = (i.writes & REGS) - ({i.mem[1]} if i.mem and i.cls == LD else set())
        late = res if i.out_late and one_cycle else set()
        early = res if i.cls in (LD, DSP, MUL) and one_cycle else set()
        if paired:
            self.cur_late |= late
            self.cur_early |= early
            self.one, self.row, self.wmask = True, set(range(9)), set(i.writes)
            return 0
        stall = 1 if (self.cur_late & r) or (self.cur_early & e) else 0
        out = i.cyc + stall
        keep = self.one and stall == 0
        self.prev_late, self.prev_early = (self.cur_late, self.cur_early) if keep else (set(), set())
        self.cur_late, self.cur_early = late, early
        self.one = out <= 1
        free = one_cycle and i.cls != MULTI
        self.row = (CONFLICT[i.cls] | (ys if i.cls == LD else set())) if free else set(range(9))
        self.wmask = set(i.writes)
        if out > 2:
            self.cur_late, self.cur_early, self.prev_late, self.prev_early = set(), set(), set(), set()
        self.cycles += out
        return out


def code_lines(lines: list[str]) -> list[str]:
    return [ln for ln in lines if ln.strip() and not ln.strip().startswith(("/*", "@"))]


def m7_cycles(lines: list[str], base_mod8: dict[str, int]) -> int:
    """Model cycles of a straight-line block in the given order."""
    m = M7Issue()
    for t in code_lines(lines):
        i = Ins(t)
        i.set_bank(base_mod8)
        m.step(i)
    return m.cycles


def m7_schedule(lines: list[str], base_mod8: dict[str, int], const_bases: frozenset[str] = frozenset()) -> list[str]:
    """List-schedules a straight-line block (no labels, no branches): the same instructions,
    each after everything it depends on (registers and flags: read after write, write after
    read and after write; memory: a load after a store to the same word, a store after loads
    and stores of its word, where words on different bases that the block does not write are
    different and loads through const_bases read constants; accesses on other bases keep
    their order), chosen greedily by the fewest model cycles, then the longest dependent path
    to the block's end, then program order. Comments are dropped."""
    code = code_lines(lines)
    ins = [Ins(t) for t in code]
    static = {b for b in base_mod8 if all(b not in i.writes for i in ins)}
    for i in ins:
        i.set_bank({b: v for b, v in base_mod8.items() if b in static})
    n = len(ins)
    preds: list[set[int]] = [set() for _ in range(n)]
    last_w: dict[str, int] = {}
    reads_since: dict[str, list[int]] = {}
    mem_ops: list[int] = []
    for k, i in enumerate(ins):
        for r in i.reads:
            if r in last_w:
                preds[k].add(last_w[r])
        for r in i.writes - {"mem"}:
            if r in last_w:
                preds[k].add(last_w[r])
            preds[k].update(reads_since.get(r, []))
        if i.mem is not None and not (i.cls == LD and i.mem[1] in const_bases):
            for p in mem_ops:
                q = ins[p]
                if q.cls == LD and i.cls == LD:
                    continue
                known = {i.mem[1], q.mem[1]} <= static and i.mem[2] is not None and q.mem[2] is not None
                # word accesses on different known bases, or 4 bytes apart or more on one, do not
                # overlap (the bases point at different objects: the state and the frame)
                if known and i.mem[3] and q.mem[3] and (i.mem[1] != q.mem[1] or abs(i.mem[2] - q.mem[2]) >= 4):
                    continue
                preds[k].add(p)
            mem_ops.append(k)
        for r in i.reads:
            reads_since.setdefault(r, []).append(k)
        for r in i.writes - {"mem"}:
            last_w[r] = k
            reads_since[r] = []
    succs: list[list[int]] = [[] for _ in range(n)]
    for k in range(n):
        for p in preds[k]:
            succs[p].append(k)
    height = [0] * n
    for k in reversed(range(n)):
        height[k] = 1 + max((height[s] for s in succs[k]), default=0)
    waiting = [len(p) for p in preds]
    ready = {k for k in range(n) if waiting[k] == 0}
    m = M7Issue()
    order: list[int] = []
    while ready:
        best: tuple[tuple[int, int, int], int] | None = None
        for k in ready:
            key = (m.copy().step(ins[k]), -height[k], k)
            if best is None or key < best[0]:
                best = (key, k)
        assert best is not None
        k = best[1]
        m.step(ins[k])
        order.append(k)
        ready.remove(k)
        for s in succs[k]:
            waiting[s] -= 1
            if waiting[s] == 0:
                ready.add(s)
    assert len(order) == n, "m7sched: dependency cycle"
    return [code[k] for k in order]


def schedule_loops(lines: list[str], base_mod8: dict[str, int], const_bases: frozenset[str] = frozenset()) -> list[str]:
    """Every run of instructions that follows a numeric label (a loop body, or its part
    before an inner loop's label) up to the next label or branch, list-scheduled where the
    model finds the new order faster; a comment line with the model's cycles before and after
    goes first. Other lines stay."""
    out: list[str] = []
    i = 0
    is_label = lambda t: re.fullmatch(r"\s*\d+:", t) is not None  # noqa: E731
    is_branch = lambda t: t.split()[0].split(".")[0] in ("b", "bne", "beq", "bx", "bl") if t.strip() else False  # noqa: E731
    # a run also ends at a directive, a write of pc (a return) and an IT block
    is_end = lambda t: t.strip().startswith((".", "it", "#")) or "pc" in t.split("/*")[0]  # noqa: E731
    while i < len(lines):
        out.append(lines[i])
        i += 1
        if is_label(out[-1]):
            j = i
            while j < len(lines) and not (is_label(lines[j]) or is_branch(lines[j]) or is_end(lines[j])):
                j += 1
            if code_lines(lines[i:j]):
                body = m7_schedule(lines[i:j], base_mod8, const_bases)
                before, after = m7_cycles(lines[i:j], base_mod8), m7_cycles(body, base_mod8)
                if after < before:  # (the greedy order is not always better on short runs)
                    out.append(f"    @ M7 order (model: {before} -> {after} cycles)")
                    out += body
                    i = j
    return out
