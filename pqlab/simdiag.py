"""Candidate Cortex-M4 timing rules counted on an executed instruction window (docs/sim.md,
"Diagnosis of the pqm4 corpus misses").

pqlab-sim's `--trace` gives the register state after every instruction of a window that starts at
a symbol; with the ELF's disassembly (objdump) each executed instruction is known with its
address, width and, for loads and stores, its data address (from the registers before it). This
module counts the events of rules the m4 model does not have, so that their effect on a
miss can be estimated before any rule is adopted:

- `load_other_block`: a load single right after a load single (which the model pipelines), the two
  in different memory blocks of pqm4's board (flash; SRAM1 with .data/.bss; SRAM3 with the
  stack): "load pipelining happens only when targeting the same memory block" (jnk0le, pipeline
  cycle test, doc/cortex_m3m4.md, STM32F407); +1 each.
- `store_after_load_other_block`: a store right after a load single in another block ("stores can
  pipeline with preceding load ... only when targeting the same memory block", same source); +1.
- `wide_load_unaligned_pipelined`: a 32-bit load at an address 2 mod 4 right after a load single
  ("32bit opcode loads (ldr.w, ldrb.w) may fail to pipeline correctly if they are not positioned
  at word aligned boundaries", same source); up to +1.
- `flash_data_load`: a data load from the code region (literal pools, constant tables): on the
  board the D-bus read and the instruction fetch share the flash interface ("LDR Rx,[PC,#imm]
  might add a cycle because of contention with the fetch unit", Cortex-M4 TRM DDI 0439B 3.3.1);
  up to +1.
- `unaligned_wide_pairs` / `unaligned_wide_3plus`: runs of 32-bit instructions at 2 mod 4 of
  length 2 (the model adds nothing) and the members from the third on.
- `wb_load_pipelinable`: a pre/post-indexed load right after a load with another base register,
  which the model never pipelines but the STM32F407 measurement does ("cannot be chained back
  to back on same register base address (alternating 2 different registers works)"); -1.
- `address_from_2nd_previous`: a load/store whose address register was written two instructions
  before (the TRM's no-forwarding stall is modelled for the previous one only);
- counts of register-offset loads/stores, shifted operand2 forms, bit-field/extend instructions, shift-by-register, LDM/STM/PUSH/POP, taken branches to a 32-bit instruction at 2 mod 4.

Usage: python -m pqlab.simdiag ELF SYMBOL [--limit N] [--machine mps2-an386]
"""

from __future__ import annotations

import argparse
import json
import re
import struct
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from pqlab import ROOT

SIM = ROOT / "sim" / "target" / "release" / "pqlab-sim"
REC = 50 * 4
REGS = {f"r{i}": i for i in range(13)} | {"sl": 10, "fp": 11, "ip": 12, "sp": 13, "lr": 14, "pc": 15}
LINE = re.compile(r"^\s*([0-9a-f]+):\s+((?:[0-9a-f]{4} ?){1,2})\s+(\S+)\s*(.*)$")
MEM = re.compile(r"\[(\w+)(?:,\s*(#-?\d+|\w+)(?:,\s*lsl #(\d+))?)?\](!?)(?:,\s*#(-?\d+))?")
STACK_BLOCK = 0x20200000  # MPS2 RAM above this holds the stack (pqm4's board: SRAM3)


def disassemble(elf: Path) -> dict[int, tuple[int, str, str]]:
    out = subprocess.run(["arm-none-eabi-objdump", "-d", str(elf)], capture_output=True, text=True, check=True).stdout
    code = {}
    for line in out.splitlines():
        m = LINE.match(line)
        if m:
            size = 2 * len(m.group(2).split())
            code[int(m.group(1), 16)] = (size, m.group(3), m.group(4).split("@")[0].strip())
    return code


def symbol(elf: Path, name: str) -> int:
    out = subprocess.run(["arm-none-eabi-nm", str(elf)], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[2] == name:
            return int(f[0], 16) & ~1
    raise SystemExit(f"{elf}: no symbol {name}")


def block(addr: int) -> str:
    if addr < 0x20000000:
        return "flash"
    return "stack" if addr >= STACK_BLOCK else "data"


def kind(mn: str) -> str:
    base = mn.split(".")[0]
    if base in ("pop", "push") or base.startswith(("ldm", "stm")):
        return "multi"
    if base.startswith("ldrd") or base.startswith("strd"):
        return "dual"
    if base.startswith("ldr") or base.startswith("vldr"):
        return "load"
    if base.startswith("str") or base.startswith("vstr"):
        return "store"
    return "other"


def _dest(mn: str, ops: str, kd: str) -> set[int]:
    """Registers an ALU instruction or a single load writes (first operand); others: none."""
    if kd in ("store", "multi", "dual") or mn.startswith(("b", "cmp", "cmn", "tst", "teq", "it")):
        return set()
    first = ops.split(",")[0].strip()
    return {REGS[first]} if first in REGS else set()


def data_address(ops: str, regs: tuple, pc: int, size: int) -> tuple[int | None, int | None, bool]:
    """(address, base register, writeback) of a load/store operand string."""
    m = MEM.search(ops)
    if not m:
        lit = re.search(r"\[pc, #(-?\d+)\]", ops)
        return (None, None, False) if not lit else (((pc + 4) & ~3) + int(lit.group(1)), 15, False)
    rn = REGS.get(m.group(1))
    if rn is None:
        return None, None, False
    base = ((pc + 4) & ~3) if rn == 15 else regs[rn]
    off = 0
    if m.group(2):
        if m.group(2).startswith("#"):
            off = int(m.group(2)[1:])
        elif m.group(2) in REGS:
            off = regs[REGS[m.group(2)]] << int(m.group(3) or 0)
    wb = bool(m.group(4)) or m.group(5) is not None
    addr = base if m.group(5) is not None else base + off
    return addr & 0xFFFFFFFF, rn, wb


def analyse(elf: Path, start: str, limit: int, machine: str = "mps2-an386") -> dict:
    code = disassemble(elf)
    pc0 = symbol(elf, start)
    with tempfile.TemporaryDirectory() as tmp:
        tr = Path(tmp) / "trace.bin"
        subprocess.run(
            [
                str(SIM),
                "--machine",
                machine,
                "--trace",
                str(tr),
                "--trace-limit",
                str(limit),
                "--trace-start-pc",
                hex(pc0),
                "--trace-stop",
                str(elf),
            ],
            capture_output=True,
            check=False,
            timeout=3600,
        )
        data = tr.read_bytes()
    n = len(data) // REC
    recs = [struct.unpack_from("<16I", data, k * REC) for k in range(n)]
    c: Counter = Counter()
    prev_kind = ""
    prev_block = ""
    prev_base: int | None = None
    run_unaligned = 0
    written: list[set[int]] = [set(), set()]  # registers written by the previous two instructions
    for k in range(1, n):
        regs = recs[k - 1]
        pc = regs[15] & ~1
        ins = code.get(pc)
        if ins is None:
            c["unknown_pc"] += 1
            prev_kind = ""
            continue
        size, mn, ops = ins
        c["instructions"] += 1
        wide = size == 4
        if wide:
            c["wide"] += 1
        if wide and pc & 2:
            c["wide_unaligned"] += 1
            run_unaligned += 1
            if run_unaligned == 2:
                c["unaligned_wide_pairs"] += 1
            if run_unaligned >= 3:
                c["unaligned_wide_3plus"] += 1
                if run_unaligned == 3:
                    c["unaligned_wide_pairs"] -= 1
                    c["unaligned_wide_groups3"] += 1
        else:
            run_unaligned = 0
        nxt = recs[k][15] & ~1
        if nxt != pc + size and nxt in code and code[nxt][0] == 4 and nxt & 2:
            c["taken_branch_to_unaligned_wide"] += 1
        kd = kind(mn)
        if re.match(r"^(lsl|lsr|asr|ror)s?(\.w)?$", mn) and len(ops.split(",")) == 3 and "#" not in ops:
            c["shift_by_register"] += 1
        if kd == "multi":
            c["ldm_stm_push_pop"] += 1
        if kd == "other" and re.search(r", (lsl|lsr|asr|ror) #", ops):
            c["shifted_operand2"] += 1
        if mn.split(".")[0] in ("ubfx", "sbfx", "bfi", "bfc", "uxtb", "uxth", "sxtb", "sxth"):
            c["bitfield_extend"] += 1
        blk = ""
        dests = _dest(mn, ops, kd)
        if kd in ("load", "store", "dual"):
            m = MEM.search(ops)
            addr_regs = {REGS.get(m.group(1)), REGS.get(m.group(2) or "")} - {None} if m else set()
            if m and m.group(2) in REGS:
                c[f"{kd}_register_offset"] += 1
            if addr_regs & written[1]:
                c["address_from_2nd_previous"] += 1
            addr, rn, wb = data_address(ops, regs, pc, size)
            if addr is not None:
                blk = block(addr)
                c[f"{kd}_{blk}"] += 1
                if kd == "load" and blk == "flash":
                    c["flash_data_load"] += 1
                if prev_kind == "load" and prev_block and blk != prev_block:
                    c[
                        "load_other_block"
                        if kd == "load"
                        else "store_after_load_other_block"
                        if kd == "store"
                        else "dual_after_load_other_block"
                    ] += 1
                if kd == "load" and prev_kind == "load" and wide and pc & 2 and not wb:
                    c["wide_load_unaligned_pipelined"] += 1
                if kd == "load" and wb and prev_kind == "load" and rn != prev_base:
                    c["wb_load_pipelinable"] += 1
            prev_base = rn
        prev_kind = kd if kd in ("load", "store") else ""
        prev_block = blk
        written = [dests, written[0]]
    return dict(c)


# candidate rule -> (event counter(s), cycles per event); the effect is an upper bound for the
# "may"/"might" rules
EFFECTS = {
    "loads to another memory block do not pipeline (jnk0le)": (("load_other_block",), 1),
    "a store after a load in another block does not pipeline (jnk0le)": (("store_after_load_other_block",), 1),
    "unaligned LDR.W after a load does not pipeline (jnk0le, 'may')": (("wide_load_unaligned_pipelined",), 1),
    "data load from flash contends with fetch (TRM, 'might')": (("flash_data_load",), 1),
    "a pair of unaligned wide instructions costs +1 like a group": (("unaligned_wide_pairs",), 1),
    "every unaligned wide instruction after the 3rd of a group +1": (
        ("unaligned_wide_3plus", "-unaligned_wide_groups3"),
        1,
    ),
    "writeback loads alternating bases pipeline (jnk0le)": (("wb_load_pipelinable",), -1),
}


def effects(counts: dict, cpi: float) -> dict[str, float]:
    """Candidate rule -> its effect on the window's cycles [%], given the window's cycles per
    instruction (taken from the whole run when the window's own is not known)."""
    n = counts.get("instructions", 0)
    out = {}
    for rule, (keys, cyc) in EFFECTS.items():
        ev = sum(-counts.get(k[1:], 0) if k.startswith("-") else counts.get(k, 0) for k in keys)
        out[rule] = round(100.0 * cyc * ev / (n * cpi), 2) if n and cpi else 0.0
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m pqlab.simdiag")
    ap.add_argument("elf")
    ap.add_argument("symbol")
    ap.add_argument("--limit", type=int, default=200000)
    ap.add_argument("--machine", default="mps2-an386")
    a = ap.parse_args(argv)
    res = analyse(Path(a.elf), a.symbol, a.limit, a.machine)
    n = res.get("instructions", 1)
    per = {k: round(100 * v / n, 2) for k, v in sorted(res.items())}
    report = Path(a.elf).with_suffix(".json")  # pqm4 calibration runs keep the simulator's report here
    cpi = 0.0
    if report.exists():
        d = json.loads(report.read_text())
        cpi = d["cycles"] / max(1, d["instructions"])
    out = {"counts": res, "per_100_instructions": per, "run_cpi": round(cpi, 3), "effect_pct": effects(res, cpi)}
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
