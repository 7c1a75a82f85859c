# SPDX-License-Identifier: MIT
"""Lockstep differential validation of pqlab-sim against QEMU.

pqlab-sim writes its register state after every instruction (--trace); QEMU is
single-stepped through its gdbstub and its registers are compared after every
instruction. The first divergence is reported with the address and encoding of
the instruction that produced it and the registers that differ.
"""

from __future__ import annotations

import os
import socket
import struct
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import gdbremote

HERE = Path(__file__).resolve().parent
SIM_DIR = HERE.parent
SIM_BIN = SIM_DIR / "target" / "release" / "pqlab-sim"
REC_WORDS = 18 + 32
NAMES = [f"r{k}" for k in range(13)] + ["sp", "lr", "pc", "xpsr", "fpscr"] + [f"s{k}" for k in range(32)]


def build_sim() -> Path:
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=SIM_DIR, check=True)
    return SIM_BIN


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


@dataclass
class Result:
    steps: int = 0
    mismatch: str | None = None
    encodings: set[int] = field(default_factory=set)
    synced: int = 0


def read_trace(path: Path) -> list[tuple[int, ...]]:
    data = path.read_bytes()
    n = len(data) // (4 * REC_WORDS)
    return [struct.unpack_from(f"<{REC_WORDS}I", data, k * 4 * REC_WORDS) for k in range(n)]


def insn_at(gdb: gdbremote.Gdb, pc: int) -> str:
    m = gdb.cmd(f"m{pc:x},4")
    if m.startswith("E") or len(m) < 8:
        return "??"
    b = bytes.fromhex(m)
    h1 = int.from_bytes(b[0:2], "little")
    if (h1 >> 11) >= 0b11101:
        h2 = int.from_bytes(b[2:4], "little")
        return f"{h1:04x} {h2:04x}"
    return f"{h1:04x}"


def func_ranges(elf: str | Path, names: list[str]) -> list[tuple[int, int]]:
    """Address ranges of the named functions (from the ELF symbol table)."""
    out = subprocess.run(
        ["arm-none-eabi-nm", "-S", "--defined-only", str(elf)], capture_output=True, text=True, check=True
    ).stdout
    ranges = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[3] in names:
            a = int(parts[0], 16) & ~1
            ranges.append((a, a + int(parts[1], 16)))
    return ranges


def _run_to(g: gdbremote.Gdb, addr: int) -> str | None:
    """Continue QEMU to the first arrival at addr (software breakpoint)."""
    if g.cmd(f"Z0,{addr:x},2") != "OK":
        return f"QEMU refused a breakpoint at 0x{addr:08x}"
    try:
        stop = g.cmd("c")
    except ConnectionError:
        return f"QEMU exited before reaching 0x{addr:08x}"
    if not stop.startswith(("T", "S")):
        return f"QEMU did not stop at 0x{addr:08x}: {stop}"
    g.cmd(f"z0,{addr:x},2")
    return None


def _write_state(g: gdbremote.Gdb, rec: tuple[int, ...]) -> str | None:
    """Write a trace record's registers into QEMU."""
    regs = [(j, rec[j]) for j in range(16)] + [(25, rec[16]), (42, rec[17])]
    regs += [(26 + k, rec[18 + 2 * k] | rec[19 + 2 * k] << 32) for k in range(16)]
    for num, v in regs:
        width = 8 if 26 <= num < 42 else 4
        if g.cmd(f"P{num:x}={v.to_bytes(width, 'little').hex()}") != "OK":
            return f"cannot write register {num} in QEMU"
    return None


def run(
    elf: str | Path,
    machine: str = "mps2-an386",
    limit: int = 5000,
    fp: bool = False,
    fp_every: int = 200,
    sync: list[tuple[int, int]] = (),
    start_pc: int | None = None,
) -> Result:
    """Run `elf` in lockstep for at most `limit` instructions.

    Instructions inside the `sync` address ranges (timer code: QEMU has no DWT
    and its SysTick follows host time) are not compared: after each of them the
    simulator's registers are written into QEMU, which then follows the same path.

    With `start_pc`, both run at full speed to the first arrival at that address
    (QEMU to a breakpoint); the simulator's registers there (r0-r15, xPSR, s0-s31,
    FPSCR) are written into QEMU, since values derived from the timer differ (QEMU
    has no DWT), and the next `limit` instructions are compared.
    """
    res = Result()
    with tempfile.TemporaryDirectory() as td:
        tr = Path(td) / "trace.bin"
        p = subprocess.run(
            [
                str(SIM_BIN),
                "--machine",
                machine,
                "--trace",
                str(tr),
                "--trace-limit",
                str(limit),
                "--trace-stop",
                *(["--trace-start-pc", hex(start_pc)] if start_pc is not None else []),
                str(elf),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            timeout=600,
            check=False,
        )
        trace = read_trace(tr)
        sim_err = p.stderr.decode(errors="replace") if p.returncode not in (0,) else ""
        sim_err = "\n".join(l for l in sim_err.splitlines() if l.startswith("pqlab-sim") or "panicked" in l)
    port = free_port()
    q = gdbremote.start_qemu(str(elf), machine, port)
    try:
        g = gdbremote.Gdb(port)
        prev_pc = g.regs()[15]
        if start_pc is not None:
            if not trace:
                res.mismatch = f"pqlab-sim never reached 0x{start_pc:08x}: {sim_err}"
                return res
            err = _run_to(g, start_pc)
            if err:
                res.mismatch = err
                return res
            if g.regs()[15] != start_pc:
                res.mismatch = f"QEMU stopped at 0x{g.regs()[15]:08x}, not at 0x{start_pc:08x}"
                return res
            err = _write_state(g, trace[0])
            if err:
                res.mismatch = err
                return res
            trace = trace[1:]
            prev_pc = start_pc
        for k, rec in enumerate(trace):
            enc = insn_at(g, prev_pc)
            try:
                g.step()
                regs = g.regs()
            except ConnectionError:
                # QEMU exits on semihosting SYS_EXIT; the simulator's last
                # record is then the state before the exit
                if k == len(trace) - 1 or k == len(trace):
                    break
                res.mismatch = f"QEMU stopped after {k} instructions, pqlab-sim ran {len(trace)}"
                return res
            mine = list(rec[:15]) + [rec[15], rec[16]]
            theirs = regs[:15] + [regs[15], regs[16]]
            is_fp = enc != "??" and (int(enc[:2], 16) & 0xEC) == 0xEC
            if fp and (is_fp or k % fp_every == 0 or k == len(trace) - 1):
                mine += list(rec[17:18]) + list(rec[18:])
                f = g.fpregs()
                theirs += [f[32]] + f[:32]
            names = NAMES[:17] + (["fpscr"] + NAMES[18:] if len(mine) > 17 else [])
            res.encodings.add(int(enc.replace(" ", ""), 16) if enc != "??" else -1)
            if mine != theirs and any(lo <= prev_pc < hi for lo, hi in sync):
                for j in range(17):
                    if mine[j] != theirs[j]:
                        num = j if j < 16 else 25
                        val = mine[j].to_bytes(4, "little").hex()
                        if g.cmd(f"P{num:x}={val}") != "OK":
                            res.mismatch = f"cannot write register {NAMES[j]} in QEMU"
                            return res
                res.synced += 1
                prev_pc = mine[15]
                res.steps = k + 1
                continue
            if mine != theirs:
                diffs = [
                    f"{names[j]}: qemu=0x{theirs[j]:08x} sim=0x{mine[j]:08x}"
                    for j in range(len(mine))
                    if mine[j] != theirs[j]
                ]
                res.mismatch = (
                    f"divergence after instruction {k + 1} at pc=0x{prev_pc:08x} (encoding {enc}): " + "; ".join(diffs)
                )
                res.steps = k
                return res
            prev_pc = regs[15]
            res.steps = k + 1
        if len(trace) < limit and q.poll() is None:
            # the simulator stopped early: QEMU must stop here too
            try:
                g.step()
                g.regs()
                res.mismatch = (
                    f"pqlab-sim stopped after {len(trace)} instructions while QEMU "
                    f"continues at pc=0x{prev_pc:08x} (encoding {insn_at(g, prev_pc)}): {sim_err}"
                )
            except ConnectionError:
                pass
    finally:
        q.kill()
        q.wait()
    return res


if __name__ == "__main__":
    import sys

    build_sim()
    r = run(
        sys.argv[1],
        os.environ.get("MACHINE", "mps2-an386"),
        int(sys.argv[2]) if len(sys.argv) > 2 else 5000,
        fp=bool(os.environ.get("FP")),
    )
    print(r.steps, r.mismatch)
