"""Small build-and-run helper of the harness/platform tests (independent of pqlab.build).

Builds one harness program for one implementation folder on one platform with a
single compiler command taken from platforms/<name>/platform.toml, caches the ELF
by a hash of every input and flag, and runs it with the platform's runner
command. The exact command lines are written down in docs/platforms.md.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
DATA = Path(__file__).resolve().parent
CACHE = ROOT / "build" / "tests" / "harness"
WARN = ["-std=c11", "-Wall", "-Wextra", "-Werror"]
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


def _digest(files, *extra: str) -> str:
    h = hashlib.sha256()
    for f in files:
        h.update(str(f).encode())
        h.update(Path(f).read_bytes())
    for e in extra:
        h.update(e.encode())
    return h.hexdigest()[:16]


def _compile(cmd: list[str], cwd: Path | None = None) -> None:
    res = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, check=False)
    if res.returncode != 0:
        raise RuntimeError(f"build failed: {' '.join(cmd)}\n{res.stderr}")


def common_lib(plat_name: str, profile: bool = False) -> Path:
    """lib/common compiled with the platform's flags (and -DPQLAB_PROFILE_HASHING
    for the hashing program) into a cached static library."""
    p = platform(plat_name)
    srcs = sorted((ROOT / "lib" / "common").glob("*.c"))
    flags = [*p["cflags"], *WARN, f"-I{ROOT / 'lib' / 'common'}", f"-I{ROOT / 'platforms' / 'include'}"]
    if profile:
        flags.append("-DPQLAB_PROFILE_HASHING")
    hdrs = sorted((ROOT / "lib" / "common").glob("*.h"))
    out = CACHE / plat_name / f"libcommon{'-prof' if profile else ''}-{_digest([*srcs, *hdrs], p['cc'], *flags)}.a"
    if out.exists():
        return out
    tmpdir = out.with_suffix(f".{os.getpid()}.d")
    tmpdir.mkdir(parents=True, exist_ok=True)
    _compile([p["cc"], *flags, "-c", *map(str, srcs)], cwd=tmpdir)
    tmp = out.with_suffix(f".{os.getpid()}.tmp")
    subprocess.run([p["tools_prefix"] + "ar", "rcs", str(tmp), *sorted(map(str, tmpdir.glob("*.o")))], check=True)
    shutil.rmtree(tmpdir)
    tmp.replace(out)
    return out


def build(
    plat_name: str,
    program: str,
    impl: Path,
    kind: str,
    cflags: list[str] | tuple[str, ...] = (),
    extra_sources: list[Path] | tuple[Path, ...] = (),
    api_prefix: str | None = None,
) -> Path:
    """Compile harness/<program>.c (+ harness.c, the implementation, the platform
    sources) and link it with lib/common into an ELF; returns its path."""
    p = platform(plat_name)
    if shutil.which(p["cc"]) is None:
        raise RuntimeError(
            f"compiler {p['cc']} of platform {plat_name} is missing: apt-get install {' '.join(p['packages'])}"
        )
    lib = common_lib(plat_name, profile=program == "hashing")
    if program == "driver":
        prog = [ROOT / "harness" / "driver.c", *extra_sources]
    else:
        prog = [ROOT / "harness" / f"{program}.c", *extra_sources]
    srcs = [*prog, ROOT / "harness" / "harness.c", *sorted(impl.glob("*.c"))]
    srcs += [p["dir"] / s for s in p["sources"]]
    flags = [*p["cflags"], *WARN, f"-DPQLAB_KIND_{kind.upper()}", *cflags]
    if api_prefix:
        flags.append(f"-DPQLAB_API_PREFIX={api_prefix}")
    incs = [impl, ROOT / "harness", ROOT / "lib" / "common", ROOT / "platforms" / "include"]
    ldflags = _subst(p["ldflags"], platform_dir=str(p["dir"]), root=str(ROOT))
    deps = [
        *srcs,
        lib,
        *sorted((ROOT / "harness").glob("*.h")),
        *sorted((ROOT / "lib" / "common").glob("*.h")),
        *sorted(impl.glob("*.h")),
        DATA / "mix.h",
        ROOT / "platforms" / "include" / "pqlab_hal.h",
        *sorted((ROOT / "platforms").glob("*/*.h")),
        *sorted((ROOT / "platforms").glob("*/*.ld")),
    ]
    digest = _digest(deps, p["cc"], *flags, *ldflags)
    out = CACHE / plat_name / f"{program}-{impl.parent.name}-{impl.name}-{digest}.elf"
    if out.exists():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(f".{os.getpid()}.tmp")
    cmd = [p["cc"], *flags, *[f"-I{i}" for i in incs], *map(str, srcs), str(lib), *ldflags, "-lm", "-o", str(tmp)]
    _compile(cmd)
    tmp.replace(out)
    return out


def build_raw(plat_name: str, sources: list[Path], cflags: list[str] | tuple[str, ...] = ()) -> Path:
    """Compile a stand-alone program (platform HAL only) for calibration tests."""
    p = platform(plat_name)
    srcs = [*sources, *[p["dir"] / s for s in p["sources"]]]
    flags = [*p["cflags"], *WARN, *cflags]
    ldflags = _subst(p["ldflags"], platform_dir=str(p["dir"]), root=str(ROOT))
    deps = [
        *srcs,
        ROOT / "platforms" / "include" / "pqlab_hal.h",
        *sorted((ROOT / "platforms").glob("*/*.ld")),
        *sorted((ROOT / "platforms").glob("*/*.h")),
    ]
    out = CACHE / plat_name / f"raw-{sources[0].stem}-{_digest(deps, p['cc'], *flags, *ldflags)}.elf"
    if out.exists():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(f".{os.getpid()}.tmp")
    cmd = [p["cc"], *flags, f"-I{ROOT / 'platforms' / 'include'}", *map(str, srcs), *ldflags, "-o", str(tmp)]
    _compile(cmd)
    tmp.replace(out)
    return out


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
    r"|kat( .*)?|iterations \S+ \d+|drv \S+ (ok( ([0-9a-f]+|-))*|fail -?\d+)|info \S+ \S+)"
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
