"""Build a small bare-metal (or host) program for a pqlab platform and run it.

Tests of native kernels and of target-specific code use this instead of the harness:
the program is a test's own main() plus the sources it names, compiled with the
platform's compiler, flags and startup sources (platforms/<name>/platform.toml) and run
with the platform's runner. A missing compiler or runner, a failed build and a non-zero
exit are assertion failures that show the command.
"""

from __future__ import annotations

import shutil
import subprocess
import tomllib
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def build_and_run(
    platform: str,
    tmp: Path,
    sources: Sequence[Path],
    include: Sequence[Path] = (),
    cflags: Sequence[str] = (),
    per_source: Callable[[Path], list[str]] = lambda _src: [],
    timeout: int = 300,
    exit_code: int = 0,
) -> str:
    """Compile `sources` (+ the platform's own) into tmp/fw.elf, run it, return stdout; the
    run must end with `exit_code` (0 unless a test expects the program to stop itself)."""
    pdir = ROOT / "platforms" / platform
    cfg = tomllib.loads((pdir / "platform.toml").read_text())
    cc = cfg["cc"]
    assert shutil.which(cc), f"{cc} not found: apt-get install {' '.join(cfg.get('packages', []))}"
    fmt = {"platform_dir": str(pdir)}
    pflags = [f.format(**fmt) for f in cfg.get("cflags", [])]
    ldflags = [f.format(**fmt) for f in cfg.get("ldflags", [])]
    incs = [ROOT / "platforms" / "include", ROOT / "lib" / "common", *include]
    objs = []
    for i, c in enumerate([*sources, *[pdir / s for s in cfg.get("sources", [])]]):
        obj = tmp / f"{i}_{Path(c).stem}.o"
        cmd = [cc, *pflags, "-std=c11", "-Wall", "-Wextra", "-Werror", *cflags, *per_source(Path(c))]
        cmd += [f"-I{d}" for d in incs] + ["-c", str(c), "-o", str(obj)]
        res = subprocess.run(cmd, capture_output=True, check=False, text=True)
        assert res.returncode == 0, f"{' '.join(cmd)}\n{res.stderr}"
        objs.append(str(obj))
    elf = tmp / "fw.elf"
    # link with the code-generation flags that the link flags do not already carry
    cmd = [cc, *[f for f in pflags if f not in ldflags], *objs, *ldflags, "-o", str(elf)]
    res = subprocess.run(cmd, capture_output=True, check=False, text=True)
    assert res.returncode == 0, f"{' '.join(cmd)}\n{res.stderr}"
    run = [a.format(elf=str(elf), root=str(ROOT), **fmt) for a in cfg["runner"]["command"]]
    assert Path(run[0]).exists() or shutil.which(run[0]), f"runner {run[0]} missing (cargo build --release in sim/)"
    res = subprocess.run(run, capture_output=True, check=False, text=True, timeout=timeout)
    assert res.returncode == exit_code, f"{' '.join(run)} exited {res.returncode}\n{res.stderr}"
    return res.stdout


def timing_shows_data_independence(platform: str) -> bool:
    """Whether equal timer readings for inputs of different kinds show that a kernel runs
    the same instruction stream whatever the data: on pqlab-sim's Cortex-M4 model, whose
    cycles follow from the instruction stream alone. Not under QEMU (its SysTick moves in
    steps of 40 instructions) and not on the Cortex-M7 estimate (m7-estimate-v3), whose
    cycles also depend on the branch predictor's state, shared with the test's own code,
    and on the DTCM banks of the data addresses, as on the real core."""
    return platform == "m4-sim"


def kernel_results(
    out: str, platform: str, total: int | None = None, min_total: int = 1, constant: bool = True
) -> set[tuple[str, ...]]:
    """Checks the output of a native-kernel test program: one `bad ...` line per input where
    the kernel and the C disagree (none allowed), one `total <checks> <disagreements>` line
    (checks = total, or at least min_total), `end` last. Returns the fields of its
    `ct <cycles> ...` lines (timed calls on inputs of different kinds); with constant, where
    `timing_shows_data_independence`, they must all be equal: the kernel's time does not
    depend on the data."""
    lines = out.replace("\r", "").splitlines()
    assert lines and lines[-1] == "end", lines[-5:]
    bad = [ln for ln in lines if ln.startswith("bad ")]
    assert not bad, f"{platform}: the kernel differs from the C:\n" + "\n".join(bad)
    tot = [ln.split() for ln in lines if ln.startswith("total ")]
    assert len(tot) == 1 and tot[0][2] == "0", tot
    assert int(tot[0][1]) == total if total is not None else int(tot[0][1]) >= min_total, tot
    ct = {tuple(ln.split()[1:]) for ln in lines if ln.startswith("ct ")}
    if constant and timing_shows_data_independence(platform):
        assert len(ct) == 1, f"{platform}: cycles depend on the data: {ct}"
    return ct
