"""RTL platforms: a Verilator model of a core's RTL, built once and cached.

A platform with runner kind `verilator` names in its `[rtl]` table the PyPI package that
carries the RTL (installed with pqlab, pyproject.toml), the file list inside it, and our test
bench (SystemVerilog top and C++ driver under hw/). `model_path()` returns the built test
bench executable, building it on first use into the cache:

    $PQLAB_CACHE (default ~/.cache/pqlab) / rtl / <platform>-<package version>-<key>/

where <key> hashes everything the executable depends on: the package's version and git
hash, the Verilator version, the test bench sources, the Verilator flags and the core patch.

A platform may name in `[rtl] patch` a unified diff that pqlab owns against the package's files
(hw/cv32e40p/keccak-insn.patch: the custom Keccak instructions, docs/accel.md). The files it
touches are copied into the build folder and patched there (`patch -p1 --fuzz=0`; a patch that
does not apply exactly is an error); the package itself is never modified, and platforms
without the key compile the unmodified files. A lock file
serialises concurrent builds (parallel jobs, pytest workers); the finished folder appears
atomically (built in a temporary folder, renamed), so a half-built model is never used.
"""

from __future__ import annotations

import fcntl
import hashlib
import importlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from pqlab import ROOT, PqlabError
from pqlab.platforms import Platform

CACHE_ENV = "PQLAB_CACHE"
EXE = "tb"  # the executable's name inside its cache folder


@dataclass(frozen=True)
class RtlSpec:
    """The `[rtl]` table of a verilator platform."""

    package: str  # PyPI name, for messages
    module: str  # its import name
    manifest: str  # file list inside the package's data folder (${DESIGN_RTL_DIR} form)
    rtl_dir: str  # what ${DESIGN_RTL_DIR} stands for, relative to the data folder
    exclude: tuple[str, ...]  # file names of the manifest not to compile (tracers, their test benches)
    top: str
    testbench: tuple[Path, ...]
    verilator_flags: tuple[str, ...]
    make_flags: tuple[str, ...]  # variables for Verilator's make (OPT_FAST=...)
    patch: Path | None = None  # a unified diff against the package's data folder (-p1)
    pgo: tuple[str, str, str] | None = None  # (scheme, implementation, program) training the model's C++


def spec(plat: Platform) -> RtlSpec:
    d = plat.raw.get("rtl")
    if not isinstance(d, dict):
        raise PqlabError(f"platform {plat.name}: runner kind 'verilator' needs an [rtl] table in platform.toml")
    try:
        return RtlSpec(
            package=str(d["package"]),
            module=str(d["module"]),
            manifest=str(d["manifest"]),
            rtl_dir=str(d.get("rtl_dir", "rtl")),
            exclude=tuple(d.get("exclude", [])),
            top=str(d["top"]),
            testbench=tuple(Path(s.format(root=str(ROOT), platform_dir=str(plat.dir))) for s in d["testbench"]),
            verilator_flags=tuple(d.get("verilator_flags", [])),
            make_flags=tuple(d.get("make_flags", [])),
            patch=Path(str(d["patch"]).format(root=str(ROOT), platform_dir=str(plat.dir))) if "patch" in d else None,
            pgo=_pgo_training(plat, d["pgo_training"]) if "pgo_training" in d else None,
        )
    except KeyError as e:
        raise PqlabError(f"platform {plat.name}: [rtl] table misses key {e}") from e


def _pgo_training(plat: Platform, value: object) -> tuple[str, str, str]:
    parts = tuple(str(value).split("/"))
    if len(parts) != 3 or not all(parts):
        raise PqlabError(
            f"platform {plat.name}: [rtl] pgo_training must be 'scheme/implementation/program' "
            f"(e.g. 'ml-kem-512/ref/test'), not {value!r}"
        )
    return parts  # type: ignore[return-value]


@dataclass(frozen=True)
class Package:
    name: str
    version: str
    git: str  # the upstream commit the package's data comes from
    data: Path


def package(s: RtlSpec) -> Package:
    """The installed RTL package, or an error naming how to install it."""
    try:
        mod = importlib.import_module(s.module)
    except ImportError:
        raise PqlabError(
            f"the RTL package {s.package} is not installed; install pqlab's dependencies "
            f"(./run.sh does) or: {sys.executable} -m pip install {s.package}"
        ) from None
    data = Path(mod.data_location)
    if not data.is_dir():
        raise PqlabError(f"{s.package}: data folder {data} missing")
    return Package(s.package, str(mod.version_str), str(getattr(mod, "data_git_hash", "")), data)


@cache
def verilator_version() -> str:
    exe = shutil.which("verilator")
    if exe is None:
        raise PqlabError("verilator not found; install it with: apt-get install --no-install-recommends verilator")
    out = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        raise PqlabError(f"verilator --version failed: {out.stderr.strip()}")
    return out.stdout.strip()


def sources(s: RtlSpec, pkg: Package) -> tuple[list[str], list[Path]]:
    """Include folders and source files of the package's manifest, in its order."""
    rtl = pkg.data / s.rtl_dir
    manifest = pkg.data / s.manifest
    try:
        lines = manifest.read_text().splitlines()
    except OSError as e:
        raise PqlabError(f"{pkg.name}: cannot read its file list {manifest}: {e}") from e
    incdirs: list[str] = []
    files: list[Path] = []
    for raw in lines:
        line = raw.split("//", 1)[0].strip()
        if not line:
            continue
        line = line.replace("${DESIGN_RTL_DIR}", str(rtl))
        if line.startswith("+incdir+"):
            incdirs.append(str(Path(line[len("+incdir+") :]).resolve()))
        elif line.startswith(("+", "-")):
            raise PqlabError(f"{manifest}: unsupported option line {raw!r}")
        else:
            f = Path(line).resolve()
            if f.name in s.exclude:
                continue
            if not f.is_file():
                raise PqlabError(f"{manifest}: listed file {f} not found")
            files.append(f)
    if not files:
        raise PqlabError(f"{manifest}: no source files")
    return incdirs, files


def training_elf(plat: Platform, s: RtlSpec) -> Path:
    """The harness program that trains the model's profile-guided build (`[rtl] pgo_training`),
    built by pqlab for `plat` like any other (incremental: a no-op when up to date)."""
    assert s.pgo is not None
    scheme, impl_name, program = s.pgo
    return _training_elf(plat.name, scheme, impl_name, program)


@cache
def _training_elf(plat_name: str, scheme: str, impl_name: str, program: str) -> Path:
    from pqlab import build, registry
    from pqlab.platforms import get_platform

    impl = next((i for i in registry.discover() if i.scheme == scheme and i.name == impl_name), None)
    if impl is None:
        raise PqlabError(f"platform {plat_name}: [rtl] pgo_training names {scheme}/{impl_name}, which does not exist")
    res = build.build(get_platform(plat_name), [impl], (program,), jobs=1)[impl.id]
    if res.error is not None or program not in res.elf:
        raise PqlabError(
            f"platform {plat_name}: building the model's training program {scheme}/{impl_name}/{program} "
            f"failed:\n{res.error}"
        )
    return res.elf[program]


def _key(plat: Platform, s: RtlSpec, pkg: Package) -> str:
    h = hashlib.sha256()
    for part in (pkg.name, pkg.version, pkg.git, verilator_version(), s.top, *s.verilator_flags, *s.make_flags):
        h.update(part.encode() + b"\0")
    if s.pgo is not None:  # the profile, and so the executable, follows the training program's bytes
        h.update(("pgo\0" + "/".join(s.pgo) + "\0" + " ".join((*PGO_GENERATE, *PGO_USE)) + "\0").encode())
        h.update(training_elf(plat, s).read_bytes() + b"\0")
    for f in (*s.testbench, *((s.patch,) if s.patch else ())):
        try:
            h.update(f.name.encode() + b"\0" + f.read_bytes() + b"\0")
        except OSError as e:
            raise PqlabError(f"platform {plat.name}: test bench source {f}: {e}") from e
    return h.hexdigest()[:16]


PATCHED = re.compile(r"^\+\+\+ b/(\S+)", re.M)


def apply_patch(s: RtlSpec, pkg: Package, files: list[Path], out: Path) -> list[Path]:
    """`files` with the ones `s.patch` changes replaced by patched copies under `out`/src."""
    if s.patch is None:
        return files
    try:
        text = s.patch.read_text()
    except OSError as e:
        raise PqlabError(f"core patch {s.patch}: {e}") from e
    touched = PATCHED.findall(text)
    if not touched:
        raise PqlabError(f"core patch {s.patch}: no '+++ b/<file>' header: not a unified diff")
    exe = shutil.which("patch")
    if exe is None:
        raise PqlabError("the 'patch' program is needed for a patched core: apt-get install patch")
    src = out / "src"
    data = pkg.data.resolve()
    replace: dict[Path, Path] = {}
    for rel in touched:
        orig = (data / rel).resolve()
        if orig not in files:
            raise PqlabError(f"core patch {s.patch}: {rel} is not a source file of {pkg.name}'s file list")
        dst = src / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(orig, dst)
        replace[orig] = dst
    r = subprocess.run(
        [exe, "-p1", "--fuzz=0", "--batch", "--forward", "--no-backup-if-mismatch", "-d", str(src), "-i", str(s.patch)],
        capture_output=True,
        text=True,
    )
    (out / "patch.log").write_text(r.stdout + r.stderr)
    if r.returncode != 0:
        raise PqlabError(
            f"core patch {s.patch} does not apply to {pkg.name} {pkg.version}:\n{(r.stdout + r.stderr).strip()}"
        )
    return [replace.get(f, f) for f in files]


def cache_root() -> Path:
    return Path(os.environ.get(CACHE_ENV) or Path.home() / ".cache" / "pqlab").expanduser() / "rtl"


def model_dir(plat: Platform) -> Path:
    s = spec(plat)
    pkg = package(s)
    return cache_root() / f"{plat.name}-{pkg.version}-{_key(plat, s, pkg)}"


def describe(plat: Platform) -> str:
    """What produced this platform's figures, for every result's context."""
    s = spec(plat)
    pkg = package(s)
    patched = f" patched with {s.patch.name}" if s.patch else ""
    return (
        f"exact (RTL): {pkg.name} {pkg.version} (upstream {pkg.git[:12] or 'commit unknown'}){patched}, "
        f"{verilator_version()}, test bench {_key(plat, s, pkg)}"
    )


# Profile-guided optimisation of the model's C++ (docs/cv32e40p.md, "Speed"): GCC's options
# (Verilator's make compiles with g++). The training run writes its .gcda files next to the
# objects; -fprofile-partial-training keeps code the training never ran (the FPU's
# arithmetic, for one) optimised as without a profile instead of for size.
PGO_GENERATE = ("-CFLAGS", "-fprofile-generate", "-LDFLAGS", "-fprofile-generate")
PGO_USE = (
    "-CFLAGS",
    "-fprofile-use -fprofile-partial-training -Wno-missing-profile",
    "-LDFLAGS",
    "-fprofile-use",
)


def _verilate(plat: Platform, s: RtlSpec, out: Path, incdirs: list[str], files: list[Path], jobs: int, extra=()) -> str:
    """One Verilator run (translate, compile, link) into `out`/obj and `out`/tb; returns its log."""
    cmd = [
        "verilator",
        "--cc",
        "--exe",
        "--build",
        "-j",
        str(jobs),
        "--top-module",
        s.top,
        "-Mdir",
        str(out / "obj"),
        "-o",
        str((out / EXE).resolve()),
        *s.verilator_flags,
        *extra,
        *[f"+incdir+{d}" for d in incdirs],
        *[str(f) for f in files],
        *[str(f) for f in s.testbench],
    ]
    for m in s.make_flags:
        cmd += ["-MAKEFLAGS", m]
    r = subprocess.run(cmd, capture_output=True, text=True)
    log = f"$ {' '.join(cmd)}\n{r.stdout}\n{r.stderr}\n"
    if r.returncode != 0 or not (out / EXE).is_file():
        (out / "build.log").write_text(log)
        tail = "\n".join((r.stderr or r.stdout).strip().splitlines()[-30:])
        raise PqlabError(f"platform {plat.name}: building the Verilator model failed:\n{tail}")
    return log


def _train(plat: Platform, out: Path, elf: Path) -> tuple[str, int]:
    """Run the instrumented model on the training program; returns its log and cycles."""
    with tempfile.TemporaryDirectory(prefix="pqlab-pgo-") as cwd:
        (Path(cwd) / "pqlab.in").write_bytes(b"")
        r = subprocess.run([str(out / EXE), "--stats", str(elf)], capture_output=True, text=True, cwd=cwd)
    m = STATS.search(r.stderr)
    if r.returncode != 0 or m is None:
        raise PqlabError(
            f"platform {plat.name}: the model's training run of {elf} failed (exit code {r.returncode}):\n"
            f"{r.stderr.strip()[-1000:]}\n{r.stdout.strip()[-1000:]}"
        )
    return f"$ {out / EXE} --stats {elf}\n{r.stderr}\n", int(m.group(1))


def _build(plat: Platform, s: RtlSpec, pkg: Package, out: Path, jobs: int) -> dict:
    """Build the model into `out`; returns what model.json records about the build."""
    incdirs, files = sources(s, pkg)
    files = apply_patch(s, pkg, files, out)
    t0 = time.perf_counter()
    print(f"pqlab: building the {plat.name} Verilator model (once; cached in {cache_root()})", file=sys.stderr)
    info: dict = {}
    try:
        if s.pgo is None:
            log = _verilate(plat, s, out, incdirs, files, jobs)
        else:
            elf = training_elf(plat, s)
            log = _verilate(plat, s, out, incdirs, files, jobs, PGO_GENERATE)
            train_log, cycles = _train(plat, out, elf)
            log += train_log
            for f in (out / "obj").iterdir():  # keep the sources and the .gcda profiles, rebuild the rest
                if f.suffix in (".o", ".a", ".d"):
                    f.unlink()
            (out / EXE).unlink()
            log += _verilate(plat, s, out, incdirs, files, jobs, PGO_USE)
            info["pgo_training"] = {
                "program": "/".join(s.pgo),
                "elf_sha256": hashlib.sha256(elf.read_bytes()).hexdigest(),
                "cycles": cycles,
            }
    finally:
        shutil.rmtree(out / "obj", ignore_errors=True)  # the objects are ~100 MB; only the executable is kept
    (out / "build.log").write_text(log)
    info["build_seconds"] = round(time.perf_counter() - t0, 1)
    return info


def model_path(plat: Platform, jobs: int | None = None) -> Path:
    """The test bench executable of `plat`, built first when the cache lacks it."""
    s = spec(plat)
    pkg = package(s)
    final = model_dir(plat)
    exe = final / EXE
    if exe.is_file():
        return exe
    root = cache_root()
    root.mkdir(parents=True, exist_ok=True)
    with open(root / f".{plat.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another process may be building the same model
        if exe.is_file():
            return exe
        for stale in root.glob(f".{plat.name}-*"):  # left by a build that was killed (we hold the lock)
            if stale.is_dir():
                shutil.rmtree(stale, ignore_errors=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{final.name}-", dir=root))
        try:
            built = _build(plat, s, pkg, tmp, jobs or min(2, os.cpu_count() or 1))
            info = {
                "platform": plat.name,
                "package": pkg.name,
                "package_version": pkg.version,
                "upstream_commit": pkg.git,
                "verilator": verilator_version(),
                "built": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                **built,
            }
            (tmp / "model.json").write_text(json.dumps(info, indent=1) + "\n")
            if final.exists():
                shutil.rmtree(final)
            tmp.rename(final)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return exe


def build_info(plat: Platform) -> dict:
    """model.json of the cached model (building it if needed): versions and build time."""
    model_path(plat)
    return json.loads((model_dir(plat) / "model.json").read_text())


STATS = re.compile(r"tb-stats cycles=(\d+) seconds=([\d.]+) cycles_per_s=(\d+)")
