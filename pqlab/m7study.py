"""The Cortex-M7 model against the published Falcon study (docs/sim.md, "Cortex-M7 against the study").

The study benchmarked the Falcon round-3 submission's code on an STM32F767ZI (NUCLEO-144),
native double-precision FPU against emulated floating point; its Table II gives average
kilocycles for key generation, signing without (dynamic) and with an expanded key (tree),
key expansion and verification (pqlab/data/m7study.toml). The same code, the package's
configurable library Extra/c (../shared/thirdparty/falcon-round3-code.tar.gz), is extracted
at run time, built unmodified through pqlab's build (build.build_program, the platform's
compiler and flags) with FALCON_FPNATIVE or FALCON_FPEMU and pqlab's driver
pqlab/data/falcon_extra_speed.c (the operations of the package's own speed test), and run
on m7-sim (or any platform given). Usage:

    python -m pqlab.m7study [-p m7-sim] [--keygens 2] [--runs 3] [--memory tcm|stm32f7|...]
                            [--toolchain gcc|arm-gnu-13.2.1|clang] [--opt O3|O2|Os|O1]

--memory passes pqlab-sim's memory set-up of the Cortex-M7 estimate (docs/sim.md, "Memory
set-up"; default tcm, the platform's own command) and is recorded with the model.
--toolchain builds with another compiler (pqlab/toolchains.py, docs/toolchains.md) and --opt
with another optimisation level than the platform's (-O3 on the Cortex-M platforms; the level
is appended after the platform's flags, so it is the one the compiler uses); both, with the
compiler's version line and the complete flags, are recorded in the output.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shlex
import statistics
import subprocess
import sys
import tarfile
import tomllib
from pathlib import Path

from pqlab import ROOT, PqlabError, toolchains
from pqlab.build import build_program, compiler_version
from pqlab.platforms import Platform, get_platform, model
from pqlab.runner import command

DATA = Path(__file__).parent / "data"
TARBALL = "falcon-round3-code.tar.gz"
OPS = ("keygen", "sign_dynamic", "sign_tree", "expand", "verify")
SOURCES = ("codec.c", "common.c", "falcon.c", "fft.c", "fpr.c", "keygen.c", "rng.c", "shake.c", "sign.c", "vrfy.c")
CONFIGS = {"FPU": "FALCON_FPNATIVE", "EMU": "FALCON_FPEMU"}
OPT_LEVELS = ("O3", "O2", "Os", "O1")
# what the driver calls (falcon_extra_speed.c): the study's own benchmark firmware's calls
# (constant-time signatures, message "data1"; github.com/jameshoweee/falcon-fpu,
# benchmarking/falcon/main.cpp) or the package's speed test's (compressed signatures, "data")
CALLS = {"study": 1, "speed": 0}


def study() -> dict:
    d = tomllib.loads((DATA / "m7study.toml").read_text())
    for key in ("source", "board", "table"):
        if key not in d:
            raise PqlabError(f"m7study.toml: missing {key}")
    return d


def extract(tarball: Path, work: Path) -> Path:
    work = work.resolve()
    extra = work / "falcon-round3" / "Extra" / "c"
    if not (extra / "falcon.h").exists():
        work.mkdir(parents=True, exist_ok=True)
        with tarfile.open(tarball, "r:gz") as tf:
            tf.extractall(work, filter="tar")
    if not (extra / "falcon.h").exists():
        raise PqlabError(f"{tarball}: no falcon-round3/Extra/c/falcon.h")
    return extra


def opt_flag(opt: str | None) -> list[str]:
    """The optimisation flag for --opt ("O2" or "-O2"; None: the platform's own level)."""
    if opt is None:
        return []
    level = opt.removeprefix("-")
    if level not in OPT_LEVELS:
        raise PqlabError(f"--opt {opt}: one of {', '.join(OPT_LEVELS)}")
    return [f"-{level}"]


# GCC 12 at -O1/-O2 compiles Extra/c's keygen.c so that key generation never finishes on 32-bit
# Arm (measured here: Debian's arm-none-eabi-gcc 12.2.1, no key after 6.5 G instructions on
# m7-sim, none under QEMU either; keygen.c alone at -O2 suffices; -O3, -Os and Arm GNU 13.2.1
# -O2 work). The same hang and these two flags as its workaround: liboqs issue 1288 ("Falcon
# tests hang on ARM32 when compiled with GCC-12"); pqm4 issue 243 (Falcon-512 with GCC 12.1).
GCC12_WORKAROUND = ("-fno-ipa-modref", "-fno-ipa-pure-const")


def check_compiler(plat: Platform, opt: str | None, cflags=()) -> None:
    """Refuses a build that would hang in key generation (GCC 12 at -O1/-O2 without the workaround)."""
    level = "".join(opt_flag(opt))
    if level not in ("-O1", "-O2") or all(f in cflags for f in GCC12_WORKAROUND):
        return
    if plat.cc.endswith("gcc") and " 12." in compiler_version(plat.cc):
        raise PqlabError(
            f"{compiler_version(plat.cc)} at {level} compiles Falcon's keygen.c so that key generation never "
            f"finishes (liboqs issue 1288); add --cflags='{' '.join(GCC12_WORKAROUND)}' or use another level or toolchain"
        )


def flags_tag(cflags) -> str:
    """A short name for further flags in folder and table names ("" without them)."""
    return "-x" + hashlib.sha256(" ".join(cflags).encode()).hexdigest()[:8] if cflags else ""


def build_flags(
    logn: int, fp: str, keygens: int, runs: int, opt: str | None = None, calls: str = "study", cflags=()
) -> list[str]:
    """The flags added to the platform's for one build; an --opt level comes after them (it
    overrides the platform's -O3: GCC and clang use the last -O given), then `cflags` (--cflags)."""
    if fp not in CONFIGS:
        raise PqlabError(f"unknown FP configuration {fp!r}; known: {', '.join(CONFIGS)}")
    if calls not in CALLS:
        raise PqlabError(f"unknown calls {calls!r}; known: {', '.join(CALLS)}")
    return [
        f"-DLOGN={logn}",
        f"-D{CONFIGS[fp]}=1",
        f"-DKEYGENS={keygens}",
        f"-DRUNS={runs}",
        f"-DSTUDY_CALLS={CALLS[calls]}",
        # no OS entropy source on bare metal (config.h options; the driver seeds from fixed seeds)
        "-DFALCON_RAND_GETENTROPY=0",
        "-DFALCON_RAND_URANDOM=0",
        "-DFALCON_RAND_WIN32=0",
        "-Wno-error",
        *opt_flag(opt),
        *cflags,
    ]


def build(
    plat: Platform,
    extra: Path,
    work: Path,
    logn: int,
    fp: str,
    keygens: int,
    runs: int,
    opt: str | None = None,
    calls: str = "study",
    cflags=(),
) -> Path:
    check_compiler(plat, opt, cflags)
    flags = build_flags(logn, fp, keygens, runs, opt, calls, cflags)
    srcs = [DATA / "falcon_extra_speed.c", *(extra / s for s in SOURCES)]
    # one folder per toolchain (build_name) and level, so a scan over them rebuilds nothing
    level = "".join(opt_flag(opt)) + flags_tag(cflags)
    out = work / f"{plat.build_name}{level}-{calls}-{logn}-{fp}-{keygens}-{runs}"
    elf = build_program(plat, out, srcs, include=[extra], cflags=flags)
    assert isinstance(elf, Path)
    return elf


MEMORY = ("tcm", "stm32f7", "stm32f7-icache", "stm32f7-nocache")


def sim_command(plat: Platform, elf: Path, memory: str = "tcm") -> list[str]:
    """The platform's command; for another memory set-up than TCM, pqlab-sim's --memory."""
    if memory == "tcm":
        return command(plat, elf)
    if plat.runner_kind != "pqlab-sim" or "mps2-an500" not in plat.runner_command:
        raise PqlabError(f"--memory {memory}: only for pqlab-sim's Cortex-M7 machine (mps2-an500), not {plat.name}")
    return command(plat, elf, ["--memory", memory])


def run(plat: Platform, elf: Path, timeout: float = 7200.0, memory: str = "tcm") -> dict[str, list[int]]:
    proc = subprocess.run(sim_command(plat, elf, memory), capture_output=True, text=True, timeout=timeout, check=False)
    lines = proc.stdout.splitlines()
    if proc.returncode != 0 or "done" not in lines:
        raise PqlabError(f"{elf} failed (exit {proc.returncode}): {proc.stdout[-400:]} {proc.stderr[-400:]}")
    out: dict[str, list[int]] = {}
    for line in lines:
        f = line.split()
        if len(f) == 3 and f[0] in OPS:
            out.setdefault(f[0], []).append(int(f[2]))
    return out


def compare(measured: dict[tuple[int, str], dict[str, list[int]]], ref: dict) -> list[dict]:
    rows = []
    for (logn, fp), ops in measured.items():
        n = 1 << logn
        pub = ref["table"][f"falcon{n}-{fp.lower()}"]
        for op in OPS:
            vals = ops.get(op, [])
            if not vals:
                continue
            sim_k = statistics.fmean(vals) / 1000
            rows.append(
                {
                    "set": f"Falcon-{n}",
                    "fp": fp,
                    "op": op,
                    "study_kcycles": pub[op],
                    "sim_kcycles": round(sim_k, 1),
                    "sim_min_k": round(min(vals) / 1000, 1),
                    "sim_max_k": round(max(vals) / 1000, 1),
                    "runs": len(vals),
                    "error_pct": round(100 * (sim_k - pub[op]) / pub[op], 1),
                }
            )
    return rows


def table_md(rows: list[dict]) -> str:
    lines = [
        "| set | FP | operation | study (board) kcycles | m7-sim kcycles (mean; min-max) | runs | error % |",
        "|---|---|---|--:|--:|--:|--:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['set']} | {r['fp']} | {r['op']} | {r['study_kcycles']:,} | {r['sim_kcycles']:,.1f} "
            f"({r['sim_min_k']:,.1f}-{r['sim_max_k']:,.1f}) | {r['runs']} | {r['error_pct']:+.1f} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m pqlab.m7study")
    ap.add_argument("-p", "--platform", default="m7-sim")
    ap.add_argument("--keygens", type=int, default=2)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--logn", type=int, nargs="*", default=[9, 10])
    ap.add_argument("--fp", nargs="*", default=list(CONFIGS))
    ap.add_argument("--work", default=str(ROOT / "build" / "m7study"))
    ap.add_argument("--memory", choices=MEMORY, default="tcm", help="pqlab-sim memory set-up (Cortex-M7)")
    ap.add_argument("--toolchain", choices=toolchains.names(), default=toolchains.DEFAULT, help="docs/toolchains.md")
    ap.add_argument(
        "--opt",
        choices=[*OPT_LEVELS, *(f"-{o}" for o in OPT_LEVELS)],
        default=None,
        help="optimisation level instead of the platform's (-O3); O2 or --opt=-O2",
    )
    ap.add_argument(
        "--calls",
        choices=list(CALLS),
        default="study",
        help="the study's benchmark calls (constant-time signatures) or the package's speed test's (compressed)",
    )
    ap.add_argument(
        "--cflags",
        default="",
        help="further compiler flags after the level, e.g. --cflags='-fno-ipa-modref -fno-ipa-pure-const'",
    )
    a = ap.parse_args(argv)
    more = shlex.split(a.cflags)
    from pqlab.external import path as ext_path

    plat = toolchains.apply(get_platform(a.platform), a.toolchain)
    work = Path(a.work).resolve()
    extra = extract(ext_path("thirdparty", TARBALL), work)
    measured = {}
    for logn in a.logn:
        for fp in a.fp:
            elf = build(plat, extra, work, logn, fp, a.keygens, a.runs, a.opt, a.calls, more)
            measured[(logn, fp)] = run(plat, elf, memory=a.memory)
            print(f"# Falcon-{1 << logn} {fp}: {measured[(logn, fp)]}", file=sys.stderr, flush=True)
    rows = compare(measured, study())
    opt = "".join(opt_flag(a.opt)) or "platform"
    res = {
        "platform": plat.name,
        "model": model(plat),
        "memory": a.memory,
        "toolchain": plat.toolchain,
        "compiler": compiler_version(plat.cc),
        "opt": opt,
        "calls": a.calls,
        "more_cflags": more,
        "cflags": {
            f"Falcon-{1 << logn} {fp}": [*plat.cflags, *build_flags(logn, fp, a.keygens, a.runs, a.opt, a.calls, more)]
            for logn, fp in measured
        },
        "rows": rows,
    }
    tag = f"{plat.build_name}-{opt.removeprefix('-')}{flags_tag(more)}-{a.calls}-{a.memory}"
    (work / f"table-{tag}.json").write_text(json.dumps(res, indent=1))
    md = table_md(rows)
    (work / f"table-{tag}.md").write_text(md)
    print(
        f"platform {plat.name}, model {res['model']}, memory {a.memory}, toolchain {plat.toolchain} "
        f"({res['compiler']}), opt {opt}, calls {a.calls}, more flags {' '.join(more) or '-'}\n"
    )
    print(md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
