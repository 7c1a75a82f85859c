"""Functional lockstep of pqlab-sim's CV32E40P machines against the RTL test bench.

Both record every register write and every stored byte of one run (`pqlab-sim --writes`,
the test bench's `--writes`; record format in hw/cv32e40p/tb_main.cpp): 12 bytes, kind 1 a
register write (register 1-63, f0-f31 as 32-63, value), kind 2 a stored byte (the byte, its
address), then a pc that only the simulator fills in. The two streams are compared separately
and in order: the pipeline interleaves register writes and stores differently from the
instruction order, but within each stream the order is the program's. The counters (mcycle)
are part of the register stream, so a timing difference shows as a divergence at a counter
read; the report says so.
"""

from __future__ import annotations

import struct
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from . import rtl
from .platforms import Platform

RECORD = struct.Struct("<BBHII")
KINDS = {1: "register", 2: "store"}


@dataclass
class Divergence:
    stream: str  # "register" or "store"
    index: int  # position in that stream
    rtl: tuple[int, int] | None  # (register or byte, value or address); None: stream ended
    sim: tuple[int, int] | None
    pc: int | None  # the simulator's instruction

    def __str__(self) -> str:
        def show(r: tuple[int, int] | None) -> str:
            if r is None:
                return "nothing (stream ended)"
            if self.stream == "register":
                name = f"x{r[0]}" if r[0] < 32 else f"f{r[0] - 32}"
                return f"{name} = 0x{r[1]:08x}"
            return f"byte 0x{r[0]:02x} at 0x{r[1]:08x}"

        at = f" (instruction at pc 0x{self.pc:08x})" if self.pc is not None else ""
        return f"{self.stream} write {self.index}{at}: RTL {show(self.rtl)}, simulator {show(self.sim)}"


@dataclass
class Result:
    registers: int  # register writes compared
    stores: int  # stored bytes compared
    divergence: Divergence | None

    @property
    def ok(self) -> bool:
        return self.divergence is None


def _records(path: Path, kind: int) -> Iterator[tuple[int, int, int]]:
    with path.open("rb") as f:
        while chunk := f.read(RECORD.size * 65536):
            if len(chunk) % RECORD.size:
                raise ValueError(f"{path}: truncated record file ({len(chunk)} bytes in the last chunk)")
            for k, what, _, value, pc in RECORD.iter_unpack(chunk):
                if k == kind:
                    yield what, value, pc
                elif k not in KINDS:
                    raise ValueError(f"{path}: record of unknown kind {k}")


def compare(rtl_file: Path, sim_file: Path) -> Result:
    """Compare two record files stream by stream; the first difference of either stream."""
    counts = {}
    first: Divergence | None = None
    for kind, stream in KINDS.items():
        n = 0
        a, b = _records(rtl_file, kind), _records(sim_file, kind)
        while True:
            ra, rb = next(a, None), next(b, None)
            if ra is None and rb is None:
                break
            if ra is None or rb is None or ra[:2] != rb[:2]:
                d = Divergence(stream, n, ra[:2] if ra else None, rb[:2] if rb else None, rb[2] if rb else None)
                first = first or d
                break
            n += 1
        counts[stream] = n
    return Result(counts["register"], counts["store"], first)


@dataclass
class Run:
    command: list[str]
    returncode: int
    stdout: str
    stderr: str


def _run(cmd: list[str], cwd: Path, timeout: float) -> Run:
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    return Run(cmd, p.returncode, p.stdout, p.stderr)


def run_pair(
    rtl_plat: Platform, sim_exe: Path, machine: str, elf: Path, workdir: Path, timeout: float = 3600
) -> tuple[Result, Run, Run]:
    """Run `elf` on the RTL test bench and on pqlab-sim's `machine`, each recording its writes,
    in `workdir` (where an input file pqlab.in, if any, must be); compare. A run that fails
    (non-zero exit, fault) is returned as it is: the caller reports it with its command."""
    workdir.mkdir(parents=True, exist_ok=True)
    rf, sf = workdir / "writes-rtl.bin", workdir / "writes-sim.bin"
    r = _run([str(rtl.model_path(rtl_plat)), "--writes", str(rf), str(elf)], workdir, timeout)
    s = _run([str(sim_exe), "--machine", machine, "--writes", str(sf), str(elf)], workdir, timeout)
    return compare(rf, sf), r, s
