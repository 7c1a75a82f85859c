"""The compiler driver `pqlab calibrate --pqm4` gives pqm4's own make (as CC and LD).

pqm4's published code sizes are those of the Arm GNU Toolchain 13.2.1 (docs/sim.md), which
pqlab has as a pinned wheel: a compiler and assembler without a C library or a Cortex-M4
libgcc. pqm4's make compiles and links with one driver (with AIO=1, its default, a test
program's sources are compiled and linked in one command). This driver therefore compiles
every C and assembly source with the 13.2.1 compiler (against the newlib headers of the
platform's arm-none-eabi-gcc, which pqm4 links with `--specs=nosys.specs`) and links the
objects with the platform's arm-none-eabi-gcc (newlib, libgcc, ld): the code pqm4 measures
is 13.2.1's, the C library is newlib as in pqm4's own builds.

Configuration comes from the environment the calibration sets: PQLAB_PQM4_CC (the 13.2.1
gcc), PQLAB_PQM4_LD (the platform's gcc), PQLAB_PQM4_NEWLIB (its newlib include folder).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

SOURCES = (".c", ".S", ".s")
WITH_VALUE = {"-o", "-MF", "-MT", "-MQ", "-include", "-isystem", "-x", "-T", "-L", "-I"}
LINK_ONLY = ("-Wl,", "-l", "-L", "-T", "--specs=", "-specs=")


def _specs(args: list[str], ld: str) -> list[str]:
    """--specs=NAME by the platform compiler's absolute path (the wheel has no spec files)."""
    out = []
    for a in args:
        if a.startswith("--specs=") and "/" not in a:
            name = a.split("=", 1)[1]
            path = subprocess.run([ld, f"-print-file-name={name}"], capture_output=True, text=True).stdout.strip()
            out.append(f"--specs={path}")
        else:
            out.append(a)
    return out


def _split(args: list[str]) -> tuple[list[str], list[str]]:
    """(options with their values, source files) of a command line."""
    opts: list[str] = []
    srcs: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        if a in WITH_VALUE and i + 1 < len(args):
            opts += [a, args[i + 1]]
            i += 2
            continue
        if not a.startswith("-") and a.endswith(SOURCES):
            srcs.append(a)
        else:
            opts.append(a)
        i += 1
    return opts, srcs


def _compile_opts(opts: list[str]) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(opts):
        a = opts[i]
        if a in ("-o", "-T", "-L") and i + 1 < len(opts):
            i += 2
            continue
        if a.startswith(LINK_ONLY) or (not a.startswith("-") and a.endswith((".o", ".a"))):
            i += 1
            continue
        out.append(a)
        i += 1
    return out


def main(argv: list[str]) -> int:
    cc, ld, newlib = (os.environ.get(k, "") for k in ("PQLAB_PQM4_CC", "PQLAB_PQM4_LD", "PQLAB_PQM4_NEWLIB"))
    if not cc or not ld or not newlib:
        print("pqm4cc: PQLAB_PQM4_CC, PQLAB_PQM4_LD and PQLAB_PQM4_NEWLIB must be set", file=sys.stderr)
        return 2
    if "--print-sysroot" in argv or "-print-sysroot" in argv:
        return subprocess.run([ld, *argv]).returncode
    inc = ["-isystem", newlib]
    if any(a in ("-c", "-E", "-S", "-M", "-MM") for a in argv):
        return subprocess.run([cc, *_specs(argv, ld), *inc]).returncode
    opts, srcs = _split(argv)
    if not srcs:
        return subprocess.run([ld, *argv]).returncode
    with tempfile.TemporaryDirectory(prefix="pqm4cc") as tmp:
        objs = []
        copts = _compile_opts(opts)
        for k, src in enumerate(srcs):
            obj = str(Path(tmp) / f"{k}_{Path(src).name}.o")
            rc = subprocess.run([cc, *copts, *inc, "-c", src, "-o", obj]).returncode
            if rc:
                return rc
            objs.append(obj)
        it = iter(objs)
        link = [next(it) if (not a.startswith("-") and a.endswith(SOURCES) and a in srcs) else a for a in argv]
        # the .d files of -MMD belong to the compile steps; the link gets no -MMD
        link = [a for a in link if a not in ("-MMD", "-MD")]
        return subprocess.run([ld, *link]).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
