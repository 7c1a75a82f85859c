"""Build-and-run helper of the harness/platform tests.

Builds one harness program for one implementation folder on one platform through
pqlab's own build (pqlab.build.build_program: the compiler, flags, startup sources and
backends of platforms/<name>/platform.toml) and runs it with the platform's runner
command.
"""

from __future__ import annotations

import hashlib
import re
import subprocess
import tomllib
from dataclasses import dataclass
from pathlib import Path

from pqlab import PqlabError
from pqlab.build import build_program
from pqlab.platforms import get_platform

ROOT = Path(__file__).resolve().parents[3]
DATA = Path(__file__).resolve().parent
CACHE = ROOT / "build" / "tests" / "harness"
COMMON = sorted((ROOT / "lib" / "common").glob("*.c"))
PLATFORMS = ["host", "mps2-an386", "mps2-an500", "rv32-qemu", "aarch64-qemu"]
KEM = DATA / "crypto_kem" / "dummykem" / "plain"
SIGN = DATA / "crypto_sign" / "dummysign" / "plain"
SIGN_PQCLEAN = DATA / "crypto_sign" / "dummysign" / "pqclean"


@dataclass
class Run:
    rc: int
    stdout: str
    stderr: str
    cmd: list[str]

    def lines(self) -> list[str]:
        return self.stdout.replace("\r\n", "\n").split("\n")

    def records(self, kind: str) -> list[list[str]]:
        return [ln.split(" ")[1:] for ln in self.lines() if ln.split(" ")[0] == kind]


def platform(name: str) -> dict:
    d = tomllib.loads((ROOT / "platforms" / name / "platform.toml").read_text())
    d["dir"] = ROOT / "platforms" / name
    return d


def _subst(items, **values) -> list[str]:
    return [s.format(**values) for s in items]


def _build(plat_name: str, name: str, sources: list[Path], cflags: list[str], include: list[Path]) -> Path:
    """pqlab's own build (pqlab.build.build_program) into a folder named by the inputs;
    ninja rebuilds what changed."""
    key = hashlib.sha256("\0".join(map(str, [*sources, "--", *cflags, "--", *include])).encode()).hexdigest()[:16]
    try:
        elf = build_program(get_platform(plat_name), CACHE / plat_name / f"{name}-{key}", sources,
                            include=include, cflags=cflags, backend=True)  # fmt: skip
    except PqlabError as e:
        raise RuntimeError(str(e)) from e
    assert isinstance(elf, Path)
    return elf


def common_objects(plat_name: str, profile: bool) -> list[Path]:
    """lib/common compiled once per platform (with -DPQLAB_PROFILE_HASHING for the hashing
    program) and shared by the programs."""
    flags = ["-DPQLAB_PROFILE_HASHING"] if profile else []
    out = CACHE / plat_name / f"common{'-prof' if profile else ''}"
    try:
        return build_program(get_platform(plat_name), out, COMMON, cflags=flags, kind="objects", backend=True)
    except PqlabError as e:
        raise RuntimeError(str(e)) from e


def build(
    plat_name: str,
    program: str,
    impl: Path,
    kind: str,
    cflags: list[str] | tuple[str, ...] = (),
    extra_sources: list[Path] | tuple[Path, ...] = (),
    api_prefix: str | None = None,
) -> Path:
    """harness/<program>.c (+ harness.c, the implementation, lib/common, the platform's
    sources and backends) built into an ELF; returns its path."""
    prog = ROOT / "harness" / ("driver.c" if program == "driver" else f"{program}.c")
    srcs = [prog, *extra_sources, ROOT / "harness" / "harness.c", *sorted(impl.glob("*.c"))]
    srcs += common_objects(plat_name, profile=program == "hashing")
    flags = [f"-DPQLAB_KIND_{kind.upper()}", *cflags]
    if api_prefix:
        flags.append(f"-DPQLAB_API_PREFIX={api_prefix}")
    return _build(plat_name, f"{program}-{impl.parent.name}-{impl.name}", srcs, flags, [impl, ROOT / "harness"])


def build_raw(plat_name: str, sources: list[Path], cflags: list[str] | tuple[str, ...] = ()) -> Path:
    """A stand-alone program (platform HAL only) for calibration tests."""
    return _build(plat_name, f"raw-{sources[0].stem}", list(sources), list(cflags), [])


def run(plat_name: str, elf: Path, workdir: Path, stdin: bytes | None = None, timeout: float = 120) -> Run:
    """Run with the platform's runner command. Input goes to stdin (host,
    qemu-user) or to the file pqlab.in in the working directory (semihosting)."""
    p = platform(plat_name)
    cmd = _subst(p["runner"]["command"], elf=str(elf), platform_dir=str(p["dir"]), root=str(ROOT))
    workdir.mkdir(parents=True, exist_ok=True)
    if p["runner"]["kind"] == "qemu-system":
        (workdir / "pqlab.in").write_bytes(stdin or b"")
        stdin = b""
    res = subprocess.run(cmd, input=stdin or b"", capture_output=True, timeout=timeout, cwd=workdir, check=False)
    return Run(res.returncode, res.stdout.decode(errors="replace"), res.stderr.decode(errors="replace"), cmd)


RECORD = re.compile(
    r"(test \S+ (ok|fail)|speed \S+ \d+|stack \S+ \d+|hashing \S+ \d+ \d+|vector \S+ ([0-9a-f]+|-)"
    r"|kat( .*)?|prepared [0-9a-f]+|iterations \S+ \d+|drv \S+ (ok( ([0-9a-f]+|-))*|fail -?\d+)|info \S+ \S+)"
)


def check_protocol(r: Run, program: str, timer: str | None = None) -> list[str]:
    """Strict check of protocol version 1; returns the record lines."""
    lines = r.lines()
    assert lines[-1] == "", f"output does not end with a newline: {lines[-1]!r}"
    lines = lines[:-1]
    head = lines[0].split(" ")
    assert head[:3] == ["#pqlab", "1", program], f"bad header {lines[0]!r}"
    assert len(head) == 4 and head[3].startswith("timer="), f"bad header {lines[0]!r}"
    if timer is not None:
        assert head[3] == f"timer={timer}", f"timer {head[3]!r}, expected {timer!r}"
    m = re.fullmatch(r"#end (ok|fail) (\d+)", lines[-1])
    assert m, f"bad trailer {lines[-1]!r}"
    body = lines[1:-1]
    assert int(m.group(2)) == len(body), f"trailer counts {m.group(2)}, {len(body)} records"
    for ln in body:
        assert RECORD.fullmatch(ln), f"malformed record {ln!r}"
    return body
