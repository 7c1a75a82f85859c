"""Build a small bare-metal (or host) program for a pqlab platform and run it.

Tests of native kernels and of target-specific code use this instead of the harness:
the program is a test's own main() plus the sources it names, built by pqlab's own build
(pqlab.build.build_program: the platform's compiler, flags, startup sources and link flags
from platforms/<name>/platform.toml) and run with the platform's runner. A missing compiler or runner, a failed build and a non-zero
exit are assertion failures that show the command.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from pqlab import PqlabError
from pqlab.build import build_program
from pqlab.platforms import get_platform
from pqlab.registry import Implementation, discover
from pqlab.runner import command as runner_command

ROOT = Path(__file__).resolve().parent.parent


def build(platform: str, out_dir: Path, sources: Sequence[Path | str], **kw: Any) -> Any:
    """pqlab.build.build_program for the named platform; a failed build fails the test with the
    compiler's message and the command."""
    try:
        return build_program(get_platform(platform), out_dir, sources, **kw)
    except PqlabError as e:
        pytest.fail(str(e))


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
    """Build `sources` (+ the platform's own) in tmp/ through pqlab's build, run it with the
    platform's runner, return stdout; the run must end with `exit_code` (0 unless a test
    expects the program to stop itself)."""
    plat = get_platform(platform)
    per = {Path(s).absolute(): per_source(Path(s)) for s in sources}
    elf = build(platform, tmp / "build", sources, include=include, cflags=cflags, per_source=per)
    run = runner_command(plat, Path(elf))  # the RTL platforms' {model} too
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


def impl_objects(
    platform: str, impl: Implementation, out_dir: Path, cflags: Sequence[str] = (), **kw: Any
) -> list[Path]:
    """The registered implementation's own sources compiled by pqlab's build for `platform`
    (its include folders and flags, the platform's flags and backends, -Werror), objects only."""
    kw.setdefault("backend", True)
    return build(
        platform, out_dir, impl.sources, include=impl.include, cflags=[*impl.cflags, *cflags], kind="objects", **kw
    )


def symbols(platform: str, objs: Sequence[Path], which: str = "-g") -> list[str]:
    """`nm` of the platform's toolchain over `objs`: the names of the lines it prints
    ("-g --defined-only": defined globals, "-u": undefined)."""
    plat = get_platform(platform)
    nm = plat.tool("nm") if plat.tools_prefix else "nm"
    out = subprocess.run([nm, *which.split(), *map(str, objs)], capture_output=True, text=True, check=True).stdout
    return [ln.split()[-1] for ln in out.splitlines() if ln.strip() and not ln.endswith(":")]


def registered(scheme: str, name: str) -> Implementation:
    """The implementation scheme/name of pqlab's registry."""
    (impl,) = [i for i in discover() if i.scheme == scheme and i.name == name]
    return impl
