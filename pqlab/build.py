"""Build: out-of-tree, incremental, parallel builds of harness programs with ninja.

For one platform, every requested (implementation, program) pair becomes a target in
build/<platform>/build.ninja (build/<platform>+<toolchain>/ for another toolchain
than the platform's own, pqlab/toolchains.py). ninja tracks header dependencies and command lines, so
a second build only redoes what changed. A failing implementation is reported with
the compiler's message; the others still build (ninja -k 0).
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import platform as _platform
import re
import shlex
import shutil
import subprocess
import sys
import time
import tomllib
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from tqdm import tqdm

from pqlab import ROOT, PqlabError, katref
from pqlab.nistpkg import NIST_RANDOMBYTES_FLAGS
from pqlab.platforms import Platform
from pqlab.registry import Implementation

BUILD_ROOT = Path(os.environ.get("PQLAB_BUILD_DIR", ROOT / "build"))
WERROR = ("-Wall", "-Wextra", "-Werror", "-std=c11")
PROGRAMS = ("test", "vectors", "kat", "speed", "stack", "hashing", "driver", "ct", "fuzz")
COMMON_DIRS = (ROOT / "lib" / "common", ROOT / "lib" / "compat")
HARNESS = ROOT / "harness"
FUZZ = ROOT / "fuzz"
HAL_INCLUDE = ROOT / "platforms" / "include"
NATIVE = ROOT / "lib" / "native"


@dataclass(frozen=True)
class BuildOptions:
    iterations: int = 10  # speed iterations
    kat_count: int = 100
    # compiler for the own sources of foreign implementations (`pqlab calibrate` builds them
    # with the compiler of the reference figures); None: the platform's
    impl_cc: str | None = None
    # debug build: every kernel dispatcher checks its contract's input and output bounds
    # (-DPQLAB_CONTRACT_CHECKS, lib/native/api.h); built in a folder of its own
    contract_checks: bool = False
    # operations speed, stack and hashing measure (`pqlab bench --ops`); empty: all. The others
    # run once, unmeasured, where a selected one needs their output (harness/ops.h)
    ops: tuple[str, ...] = ()
    # the FMA study (docs/fndsa.md): the implementations with native doubles (fpr = "native":
    # FN-DSA and Hawk `fpu`) built with -ffp-contract=fast instead of their -ffp-contract=off, and
    # the backends with -DPQLAB_FNDSA_FMA (fused products in the NEON FFT layer); built in a folder
    # of its own. Not KAT-exact: never the default, never an implementation of the registry
    fma: bool = False

    def runs(self, program: str) -> int:
        """Iterations a program is built for: the hashing share is a ratio that a few runs pin
        down (the instrumented build is also slower), the stack peak needs one."""
        return {"speed": self.iterations, "hashing": min(self.iterations, 3)}.get(program, 1)


@dataclass
class BuildResult:
    elf: dict[str, Path] = field(default_factory=dict)  # program -> binary
    error: str | None = None  # compiler output and command when the build failed
    objects: list[Path] = field(default_factory=list)  # the implementation's own objects
    compiler: str = ""  # the compiler and flags the implementation's own sources were built with
    compiler_version: str = ""
    cflags: str = ""
    # program -> where its code was linked (platform.toml `placement` or, when that link
    # overflowed a memory region, `fallback_placement`); empty for one-placement platforms
    placement: dict[str, str] = field(default_factory=dict)
    # the build step (one ninja run) this result came from: its wall time, its CPU time (user +
    # system of ninja and every compiler and linker it ran; None: not measured) and how many
    # implementations it built (the figures are the step's, shared by all of them)
    step_wall: float = 0.0
    step_cpu: float | None = None
    step_impls: int = 0


def ninja_exe() -> str:
    exe = shutil.which("ninja")
    if exe:
        return exe
    try:
        import ninja  # PyPI package

        return str(Path(ninja.BIN_DIR) / "ninja")
    except ImportError as e:
        raise PqlabError("ninja not found: pip install ninja (the README's commands install it)") from e


@cache
def compiler_version(cc: str) -> str:
    try:
        out = subprocess.run([cc, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    return out.splitlines()[0].strip() if out else "unknown"


def _q(items) -> str:
    return " ".join(shlex.quote(str(i)).replace("$", "$$") for i in items)


def _p(path: Path) -> str:
    return str(path).replace(" ", "$ ").replace(":", "$:")


def _at_link_path(src: Path) -> Path:
    """`src` made absolute with its symbolic links kept: a source is compiled at the path through
    which its implementation folder reaches it, so that a quoted #include searches that folder
    first (pqm4 links parameter-set variants to another set's sources and keeps its own params.h
    beside the links; resolving the link would build the other set)."""
    return src.absolute()


def _obj(base: Path, src: Path) -> Path:
    src = _at_link_path(src)
    try:
        rel = src.relative_to(ROOT)
    except ValueError:
        rel = Path("ext") / src.relative_to(src.anchor)
    rel = Path(*("_up_" if part == ".." else part for part in rel.parts))  # stay inside base
    return base / rel.with_suffix(rel.suffix + ".o")


class NinjaFile:
    def __init__(self, plat: Platform) -> None:
        self.plat = plat
        self.lines = [
            f"cc = {plat.cc}",
            f"ldcc = {plat.link_cc or plat.cc}",
            f"ar = {plat.tool('ar') if plat.tools_prefix else 'ar'}",
            "rule cc",
            "  command = $cc -MMD -MF $out.d $flags -c $in -o $out",
            "  depfile = $out.d",
            "  deps = gcc",
            "  description = CC $out",
            "rule ar",
            "  command = rm -f $out && $ar rcs $out $in",
            "  description = AR $out",
            "rule link",
            "  command = $ldcc $flags $in $ldflags -o $out",
            "  description = LINK $out",
            # platform.toml fallback_ldflags: link with $ldflags; only when that fails because
            # a memory region overflowed (GNU ld's two messages for it), link again with
            # $fbldflags and leave $out.fallback as the mark of the placement used
            "rule link_fallback",
            "  command = rm -f $out.fallback; if $ldcc $flags $in $ldflags -o $out 2>$out.log; then cat $out.log >&2;"
            f" elif grep -qE {shlex.quote(OVERFLOW_RE)} $out.log; then"
            " $ldcc $flags $in $fbldflags -o $out && : >$out.fallback; else cat $out.log >&2; exit 1; fi",
            "  description = LINK $out",
            "",
        ]
        self.seen: set[Path] = set()

    def compile(self, base: Path, sources, flags: list[str], cc: str | None = None) -> list[Path]:
        objs = []
        for src in sources:
            obj = _obj(base, Path(src))
            objs.append(obj)
            if obj not in self.seen:
                self.seen.add(obj)
                scc, sflags = cc, flags
                if not cc and self.plat.asm_cc and Path(src).suffix in (".S", ".s"):
                    scc, sflags = self.plat.asm_cc, _asm_flags(self.plat, flags)
                self.lines += [f"build {_p(obj)}: cc {_p(_at_link_path(Path(src)))}", f"  flags = {_q(sflags)}"]
                if scc:
                    self.lines.append(f"  cc = {_q([scc])}")
        return objs

    def archive(self, out: Path, objs: list[Path]) -> Path:
        if out not in self.seen:
            self.seen.add(out)
            self.lines.append(f"build {_p(out)}: ar {' '.join(_p(o) for o in objs)}")
        return out

    def link(self, out: Path, inputs: list[Path], ldflags: list[str], fallback: list[str] | None = None) -> Path:
        self.seen.add(out)
        self.lines += [
            f"build {_p(out)}: {'link_fallback' if fallback else 'link'} {' '.join(_p(i) for i in inputs)}",
            f"  flags = {_q(self.plat.cflags if self.plat.link_cflags is None else self.plat.link_cflags)}",
            f"  ldflags = {_q(ldflags)}",
        ]
        if fallback:
            self.lines.append(f"  fbldflags = {_q(fallback)}")
        return out


OVERFLOW_RE = "will not fit in region|region .* overflowed"
"""GNU ld's messages for a memory region too small for what the script puts in it."""


def placement(plat: Platform, elf: Path) -> str:
    """Where a linked program's code was placed: platform.toml's `placement`, or its
    `fallback_placement` when the first link overflowed (the mark the link rule leaves)."""
    if not plat.fallback_ldflags:
        return plat.placement
    return plat.fallback_placement if Path(f"{elf}.fallback").exists() else plat.placement


def _asm_flags(plat: Platform, flags: list[str]) -> list[str]:
    """Flags for hand-written assembly under a toolchain whose `asm_cc` assembles it (clang's
    integrated assembler rejects parts of the GNU as syntax the backends are written in): the
    platform's own flags in place of the toolchain's, the rest (defines, includes) as given."""
    n = len(plat.cflags)
    if plat.link_cflags is None or list(flags[:n]) != list(plat.cflags):
        raise PqlabError(f"platform {plat.name}: cannot derive assembler flags for toolchain {plat.toolchain}")
    return [*plat.link_cflags, *flags[n:]]


def _sources(dirs) -> list[Path]:
    return sorted(p for d in dirs for ext in ("*.c", "*.S", "*.s") for p in d.glob(ext))


@cache
def backends(plat: Platform) -> tuple[list[Path], list[str]]:
    """Native backends of the platform (platform.toml `backends`): their sources join the common
    library, their `defines` (lib/native/<name>/backend.toml) tell the portable code which
    kernels they replace, for every compilation on that platform; `[core.<core>] defines` add
    the defines for platforms with that `core` (e.g. armv7em's Cortex-M7 schedule)."""
    dirs, flags = [], []
    # `backends_on_machine`: backends for the machine the build runs on (the host platform,
    # whose compiler targets that machine), keyed by platform.machine(), e.g. aarch64
    names = [*plat.raw.get("backends", []), *plat.raw.get("backends_on_machine", {}).get(_platform.machine(), [])]
    for name in names:
        d = NATIVE / name
        try:
            cfg = tomllib.loads((d / "backend.toml").read_text())
        except (OSError, tomllib.TOMLDecodeError) as e:
            raise PqlabError(f"platform {plat.name}: backend {name}: cannot read {d / 'backend.toml'}: {e}") from e
        dirs.append(d)
        defines = [*cfg.get("defines", []), *_core_defines(plat, d, cfg)]
        flags += [f"-D{x}" for x in defines] + [f"-I{d}"]
    return _sources(dirs), flags


def _core_defines(plat: Platform, d: Path, cfg: dict) -> list[str]:
    per_core = cfg.get("core", {})
    if not isinstance(per_core, dict) or not all(isinstance(v, dict) for v in per_core.values()):
        raise PqlabError(f"{d / 'backend.toml'}: [core.<name>] must be tables with `defines`")
    return list(per_core.get(plat.core, {}).get("defines", []))


def core_defines(plat: Platform) -> list[str]:
    """The `[core.<core>] defines` of the platform's backends (without -D): the defines that
    select a core's schedule of a kernel inside one backend (an export writes them into its
    pqlab_config.h, which the backend's assembly includes first)."""
    out = []
    for name in plat.raw.get("backends", []):
        d = NATIVE / name
        out += _core_defines(plat, d, tomllib.loads((d / "backend.toml").read_text()))
    return out


def base_cflags(plat: Platform) -> list[str]:
    return [*plat.cflags, *backends(plat)[1]]


def impl_flags(plat: Platform, impl: Implementation) -> tuple[list[str], list[str]]:
    """(flags for the implementation's sources, flags for the harness compiled against its api.h)."""
    inc = [impl.dir, *impl.include]
    if impl.standalone:
        # an export folder (pqlab/export.py): its configuration header says everything the tree
        # passes on the command line; only its own folders are searched
        base = [*plat.cflags, *WERROR, *impl.cflags]
        kind = "-DPQLAB_KIND_KEM" if impl.kind == "kem" else "-DPQLAB_KIND_SIGN"
        h_flags = base + [kind, f'-DPQLAB_SCHEME_NAME="{impl.scheme}"', f'-DPQLAB_IMPL_NAME="{impl.name}"']
        h_flags += [f"-D{form}" for form in impl.api_forms]
        src_flags = base + [f"-I{d}" for d in inc]
        return src_flags, h_flags + [f"-I{d}" for d in [*inc, HARNESS, ROOT / "lib" / "common", HAL_INCLUDE]]
    if impl.own:
        base = [*base_cflags(plat), *WERROR, *impl.cflags]
        lib_inc = [ROOT / "lib" / "common"]
    else:
        # foreign code: its warnings are its own business, they never fail its build
        base = [*base_cflags(plat), *impl.cflags]
        lib_inc = [ROOT / "lib" / "compat", ROOT / "lib" / "common"]
        if impl.style == "mupq":
            base.append(f"-DMUPQ_NAMESPACE={impl.mupq_namespace()}")
        if plat.arch == "armv7e-m":
            # pqm4's build defines PQM4 for every Cortex-M4 target (mk/config.mk); pqm4 folders
            # select their assembly with it (bikel1/m4f's run_config.h, ...)
            base.append("-DPQM4")
    if impl.own:
        src_flags = base + [f"-I{d}" for d in [*inc, *lib_inc, HAL_INCLUDE]]
    else:
        # pqm4's order (mupq/mk/config.mk): the common headers, then the implementation folder;
        # a quoted #include searches the including file's own (link) folder before either
        src_flags = base + [f"-I{d}" for d in [*lib_inc, *inc, HAL_INCLUDE]]
    kind = "-DPQLAB_KIND_KEM" if impl.kind == "kem" else "-DPQLAB_KIND_SIGN"
    h_flags = base + [kind, f'-DPQLAB_SCHEME_NAME="{impl.scheme}"', f'-DPQLAB_IMPL_NAME="{impl.name}"']
    if not impl.own:
        h_flags.append("-Wno-error")
    if impl.api_prefix:
        h_flags.append(f"-DPQLAB_API_PREFIX={impl.api_prefix}")
    h_flags += [f"-D{form}" for form in impl.api_forms]
    # the api.h of a foreign folder may include its sign.h/params.h and through them the
    # mupq headers (mirith's prng.h, mqom's hash.h: fips202.h): the harness finds the same
    # ones its sources do (lib/compat first); the harness reaches lib/common by relative paths
    h_flags += [f"-I{d}" for d in [*inc, HARNESS, *lib_inc, HAL_INCLUDE]]
    return src_flags, h_flags


@cache
def _spec_file(cc: str, name: str) -> str:
    """The path of the spec file `name` as the platform compiler finds it."""
    out = subprocess.run([cc, f"-print-file-name={name}"], capture_output=True, text=True).stdout.strip()
    if not os.path.isabs(out):
        raise PqlabError(f"{cc} does not find the spec file {name}")
    return out


def foreign_cc_flags(plat: Platform, flags: list[str]) -> list[str]:
    """`flags` for another compiler than the platform's: spec files named without a path
    (--specs=picolibc.specs) point to the platform compiler's copy, so the C library and its
    headers stay the platform's."""
    out = []
    for f in flags:
        m = re.fullmatch(r"--?specs=([^/]+)", f)
        out.append(f"--specs={_spec_file(plat.cc, m.group(1))}" if m else f)
    return out


@contextmanager
def _locked(path: Path):
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def openssl_refusal(impl: Implementation, plat: Platform) -> str:
    return (
        f"build of {impl.id} for {plat.name} refused: the folder needs OpenSSL for its own code "
        f"({'; '.join(impl.openssl)}), which pqlab does not link on any platform; "
        "only a randombytes/DRBG file (rng.c) using OpenSSL is replaced by pqlab's"
    )


# the programs built with PQLAB_OPS_MASK (`pqlab bench --ops`)
MASKED_PROGRAMS = ("speed", "stack", "hashing", "prepare")


def ops_mask(impl: Implementation, opts: BuildOptions) -> int | None:
    """PQLAB_OPS_MASK of the measuring programs (bit i: impl.operations[i]); None for all"""
    if not opts.ops:
        return None
    mask = sum(1 << i for i, op in enumerate(impl.operations) if op in opts.ops)
    if not mask:
        raise PqlabError(
            f"none of the operations {', '.join(opts.ops)} is one of {impl.id}'s ({', '.join(impl.operations)})"
        )
    return mask


def has_prerequisites(impl: Implementation, opts: BuildOptions) -> bool:
    """Whether a selected operation needs an unselected one before it (harness/ops.h)"""
    mask = ops_mask(impl, opts)
    if mask is None:
        return False
    n = len(impl.operations)
    return any(not mask >> i & 1 and mask >> (i + 1) for i in range(n))


def prepare_platform(impl: Implementation, plat: Platform, opts: BuildOptions) -> Platform | None:
    """The platform whose prepare program computes the prerequisite operations' outputs for the
    measuring programs on `plat` (`prepare_on` of platform.toml, harness/ops.h); None when they
    run on `plat` itself: no operation selection, no prerequisite, no `prepare_on`, or an
    implementation that does not run there. The two platforms must compile the same code."""
    if not plat.prepare_on or not has_prerequisites(impl, opts):
        return None
    from pqlab.platforms import get_platform

    prep = get_platform(plat.prepare_on)
    if (prep.arch, prep.cc, prep.cflags, prep.fpr) != (plat.arch, plat.cc, plat.cflags, plat.fpr):
        raise PqlabError(
            f"platform {plat.name}: prepare_on = {prep.name!r} compiles other code (arch, compiler, "
            "cflags and fpr must be equal, so that the prepared inputs come from the same implementation)"
        )
    return prep if impl.runs_on(prep) else None


FMA_BACKEND_FLAGS = ["-DPQLAB_FNDSA_FMA"]


def fma_flags(impl: Implementation, flags: list[str]) -> list[str]:
    """The FMA study's flags for an implementation's own sources: with native doubles
    (pqlab.toml fpr = "native") -ffp-contract=off becomes -ffp-contract=fast, so the compiler
    may fuse a*b + c into one rounding (FMADD/FMSUB on AArch64); other implementations keep
    theirs (integer or emulated arithmetic: nothing to fuse)."""
    if impl.fpr != "native":
        return flags
    return ["-ffp-contract=fast" if f == "-ffp-contract=off" else f for f in flags]


def program_name(program: str, opts: BuildOptions, prepared: bool = False) -> str:
    sel = f"-ops-{'-'.join(sorted(opts.ops))}" if opts.ops and program in MASKED_PROGRAMS else ""
    if prepared:
        sel += "-in"
    if program in ("speed", "hashing"):
        return f"{program}-n{opts.runs(program)}{sel}"
    if sel:
        return f"{program}{sel}"
    if program == "kat":
        return f"kat-n{opts.kat_count}"
    return program


def build(
    plat: Platform,
    impls: list[Implementation],
    programs: tuple[str, ...] | list[str],
    jobs: int = 2,
    opts: BuildOptions = BuildOptions(),
) -> dict[str, BuildResult]:
    """Build `programs` for every implementation on `plat`; returns impl.id -> BuildResult.
    A platform with `build_as` is built as that platform (the same folder and programs)."""
    plat_name = plat.name
    plat = plat.build_platform()
    if not plat.runs_here:
        raise PqlabError(
            f"platform {plat.name} builds and runs natively on {' / '.join(plat.raw['machines'])} machines "
            f"only; this one is {_platform.machine()} (platform.toml `machines`)"
        )
    plat.check_toolchain()
    bdir = BUILD_ROOT / plat.build_name
    debug = ["-DPQLAB_CONTRACT_CHECKS"] if opts.contract_checks else []
    if opts.contract_checks:
        bdir = bdir.with_name(f"{bdir.name}-contract")
    if opts.fma:
        bdir = bdir.with_name(f"{bdir.name}-fma")
    nf = NinjaFile(plat)
    own_flags = [*base_cflags(plat), *debug, *WERROR, *[f"-I{d}" for d in COMMON_DIRS], f"-I{HAL_INCLUDE}"]
    own_flags += FMA_BACKEND_FLAGS if opts.fma else []
    common_srcs = _sources(COMMON_DIRS) + backends(plat)[0]
    libcommon = nf.archive(bdir / "libpqlab.a", nf.compile(bdir / "common", common_srcs, own_flags))
    libprof = nf.archive(
        bdir / "libpqlab-hashprof.a",
        nf.compile(bdir / "common-hashprof", common_srcs, own_flags + ["-DPQLAB_PROFILE_HASHING"]),
    )
    plat_objs = nf.compile(bdir / "platform", plat.sources, own_flags)
    ldflags = plat.subst(plat.ldflags) + ["-lm"]
    fallback = plat.subst(plat.fallback_ldflags) + ["-lm"] if plat.fallback_ldflags else None

    results: dict[str, BuildResult] = {}
    targets: dict[str, list[tuple[str, Path]]] = {}
    for impl in impls:
        src_flags, h_flags = impl_flags(plat, impl)
        src_flags, h_flags = src_flags + debug, h_flags + debug
        if opts.fma:
            src_flags = fma_flags(impl, src_flags)
        ibase = bdir / "impl" / impl.build_key
        cc = opts.impl_cc if not impl.own else None
        if cc:
            # its own build folder, so builds with either compiler do not undo each other
            ibase = ibase.with_name(f"{ibase.name}@cc-{hashlib.sha256(cc.encode()).hexdigest()[:10]}")
            src_flags = foreign_cc_flags(plat, src_flags)
        if impl.openssl:
            results[impl.id] = BuildResult(error=openssl_refusal(impl, plat))
            targets[impl.id] = []
            continue
        # one source at a time: files declaring NIST's randombytes get its own symbol (nistpkg)
        nist_flags = [*src_flags, *NIST_RANDOMBYTES_FLAGS]
        objs = [
            o
            for s in impl.sources
            for o in nf.compile(ibase / "obj", [s], nist_flags if s in impl.nist_randombytes else src_flags, cc)
        ]
        results[impl.id] = BuildResult(
            objects=objs,
            compiler=cc or plat.cc,
            compiler_version=compiler_version(cc or plat.cc),
            cflags=" ".join(src_flags),
        )
        harness_common = nf.compile(ibase / "harness", [HARNESS / "harness.c"], h_flags)
        targets[impl.id] = []
        for prog in programs:
            if prog in ("driver", "fuzz") and not impl.driver:
                continue
            extra = {
                "speed": [f"-DPQLAB_ITERATIONS={opts.runs('speed')}"],
                "hashing": [f"-DPQLAB_ITERATIONS={opts.runs('hashing')}"],
                "kat": [f"-DPQLAB_KAT_COUNT={opts.kat_count}", *katref.rng_flags(impl.scheme, impl.name)],
            }.get(prog, [])
            mask = ops_mask(impl, opts) if prog in MASKED_PROGRAMS else None
            if mask is not None:
                extra = [*extra, f"-DPQLAB_OPS_MASK=0x{mask:x}u"]
            # prerequisites read from the input, computed by prepare on another platform
            prepared = prog in ("speed", "stack", "hashing") and prepare_platform(impl, plat, opts) is not None
            if prepared:
                extra = [*extra, "-DPQLAB_OPS_INPUT"]
            name = program_name(prog, opts, prepared)
            srcs = [HARNESS / f"{prog}.c"]
            if prog == "driver":
                srcs = [HARNESS / "driver.c", HARNESS / f"driver_{impl.driver}.c"]
            elif prog == "fuzz":
                # the family's fuzz target and the mutation loop (docs/fuzzing.md); hosted only
                srcs = [FUZZ / f"{impl.driver}.c", FUZZ / "loop.c"]
            elif prog == "ct":
                family = HARNESS / f"ct_{impl.driver}.c"
                srcs.append(family if impl.driver and family.is_file() else HARNESS / "ct_none.c")
            pobjs = nf.compile(ibase / "harness" / name, srcs, h_flags + extra)
            lib = libprof if prog == "hashing" else libcommon
            elf = nf.link(ibase / f"{name}.elf", [*pobjs, *harness_common, *objs, *plat_objs, lib], ldflags, fallback)
            targets[impl.id].append((prog, elf))

    ninja_path = bdir / "build.ninja"
    with _locked(bdir / ".lock"):
        bdir.mkdir(parents=True, exist_ok=True)
        tmp = ninja_path.with_suffix(f".{os.getpid()}")
        tmp.write_text("\n".join(nf.lines) + "\n")
        tmp.replace(ninja_path)
        all_targets = [str(elf) for t in targets.values() for _, elf in t]
        cmd = [ninja_exe(), "-C", str(bdir), "-k", "0", "-j", str(max(1, jobs)), *all_targets]
        # none: every implementation was refused before compiling
        t0 = time.perf_counter()
        output, cpu = _run_ninja(cmd, bdir, plat_name) if all_targets else ("", 0.0)
        wall = time.perf_counter() - t0
    failures = _parse_failures(output)
    global_fail = [msg for path, msg in failures if not str(path).startswith(str(bdir / "impl"))]
    for impl in impls:
        res = results[impl.id]
        res.step_wall, res.step_cpu, res.step_impls = wall, cpu, len(impls)
        if res.error:
            continue
        ibase = str(bdir / "impl" / impl.build_key)
        mine = [msg for path, msg in failures if str(path).startswith(ibase + "/")]
        msgs = mine + global_fail
        for prog, elf in targets[impl.id]:
            if elf.exists() and not msgs:
                res.elf[prog] = elf
                if plat.placement:
                    res.placement[prog] = placement(plat, elf)
        if msgs or len(res.elf) != len(targets[impl.id]):
            detail = "\n".join(msgs) if msgs else output[-4000:]
            res.error = f"build of {impl.id} for {plat_name} failed:\n{detail}"
            res.elf.clear()
    return results


def build_program(
    plat: Platform,
    out_dir: Path,
    sources,
    *,
    include=(),
    cflags=(),
    per_source: dict[Path, list[str]] | None = None,
    ldflags=(),
    kind: str = "program",
    backend: bool = False,
    hal: bool = True,
    standalone: bool = False,
) -> Path | list[Path]:
    """Build stand-alone C/assembly sources with the platform's compiler, flags, startup
        sources and link flags, through the same ninja rules as the harness programs: the build
        path of test programs (kernel tests, unit tests through ctypes, symbol checks), so that
        what a test runs is compiled the way pqlab compiles for users.

        `kind`: "program" (an executable with the platform's own sources: returns its path),
        "shared" (a host shared library for ctypes: returns its path), "objects" (compile only:
        returns the object files). `backend`: also the native backends' defines and include
        folders (base_cflags). `hal`: False leaves the platform's own sources out of a program
    whose test brings its own HAL stubs. `standalone`: the sources bring their own headers (an
    export folder, pqlab/export.py): lib/common is not searched, `include` comes first and the
    HAL headers (platforms/include, for the platform's own sources) last. Warnings are errors (-Wall -Wextra -Werror -std=c11; a test adds
        -Wno-error for foreign code). The build lives in `out_dir` (its own build.ninja, locked
        against concurrent builds of the same folder); a failure raises PqlabError with the
        compiler's message and the command that failed."""
    if kind not in ("program", "shared", "objects"):
        raise PqlabError(f"build_program: unknown kind {kind!r}")
    if kind == "shared" and plat.runner_kind != "native":
        raise PqlabError(f"platform {plat.name}: shared libraries are built for the host only")
    plat.check_toolchain()
    out_dir = Path(out_dir).absolute()
    nf = NinjaFile(plat)
    flags = [*(base_cflags(plat) if backend else plat.cflags), *WERROR, *cflags]
    if kind == "shared":
        flags.append("-fPIC")
    dirs = [*include, HAL_INCLUDE] if standalone else [HAL_INCLUDE, ROOT / "lib" / "common", *include]
    flags += [f"-I{d}" for d in dirs]
    srcs = [Path(s).absolute() for s in sources]
    if backend and kind != "objects":
        srcs += backends(plat)[0]
    if backend and kind == "program":
        # the backends' sources come without libpqlab: a kernel the program does not call may
        # call lib/common (aarch64's rejection samplers call SHAKE), so unused functions go
        ldflags = [*ldflags, "-Wl,--gc-sections"]
        flags += ["-ffunction-sections", "-fdata-sections"]
    # objects and archives built before (kind "objects") join the link as they are
    objs = [s for s in srcs if s.suffix in (".o", ".a")]
    for s in srcs:
        if s.suffix not in (".o", ".a"):
            objs += nf.compile(out_dir / "obj", [s], flags + list((per_source or {}).get(s, [])))
    if kind == "objects":
        targets = objs
    else:
        if kind == "program":
            objs += nf.compile(out_dir / "platform", plat.sources if hal else [], flags)
            link = [*(plat.subst(plat.ldflags) if hal else []), *ldflags, "-lm"]
            out = out_dir / "program.elf"
        else:
            link = ["-shared", "-fPIC", *ldflags]
            out = out_dir / "lib.so"
        targets = [nf.link(out, objs, link)]
    with _locked(out_dir / ".lock"):
        (out_dir / "build.ninja").write_text("\n".join(nf.lines) + "\n")
        proc = subprocess.run(
            [ninja_exe(), "-C", str(out_dir), *map(str, targets)], capture_output=True, text=True, check=False
        )
    if proc.returncode != 0:
        failures = _parse_failures(proc.stdout)
        detail = "\n".join(msg for _, msg in failures) or (proc.stdout + proc.stderr)[-4000:]
        raise PqlabError(f"build of {out_dir} for {plat.name} failed:\n{detail}")
    return targets if kind == "objects" else targets[0]


_STATUS = re.compile(r"^\[ninja (\d+)/(\d+)\] (\S+) (\S+)")


def _run_ninja(cmd: list[str], bdir: Path, plat_name: str) -> tuple[str, float | None]:
    """Run ninja, showing what it builds (a bar naming the implementation of the current
    step); returns its whole output for the failure parser and its CPU time (ninja's and its
    compilers', runner.Child)."""
    from pqlab.runner import Child

    env = {**os.environ, "NINJA_STATUS": "[ninja %f/%t] "}
    lines = []
    bar = tqdm(total=0, desc=f"build {plat_name}", file=sys.stderr, disable=None, leave=False)
    try:
        with Child(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env) as proc:
            assert proc.stdout is not None
            for line in proc.stdout:
                lines.append(line)
                m = _STATUS.match(line)
                if m:
                    bar.total = int(m.group(2))
                    bar.n = int(m.group(1))
                    bar.set_postfix_str(f"{m.group(3)} {_step_label(m.group(4), bdir)}", refresh=True)
    finally:
        bar.close()
    return "".join(lines), proc.cpu_seconds


def _step_label(out: str, bdir: Path) -> str:
    """The implementation (scheme/name) a build output belongs to, or the output's file name."""
    path = Path(out)
    if path.is_absolute() and path.is_relative_to(bdir):
        path = path.relative_to(bdir)
    parts = path.parts
    if len(parts) >= 3 and parts[0] == "impl":
        return f"{parts[1]}/{parts[2].rsplit('-', 1)[0]}"
    return Path(out).name


def _parse_failures(output: str) -> list[tuple[Path, str]]:
    """ninja prints 'FAILED: <outputs>' then the command and the compiler's message."""
    out: list[tuple[Path, str]] = []
    lines = output.splitlines()
    i = 0
    while i < len(lines):
        m = re.match(r"FAILED: (.*)", lines[i])
        if m:
            body = []
            i += 1
            while i < len(lines) and not lines[i].startswith(("[ninja", "FAILED:", "ninja: ")):
                body.append(lines[i])
                i += 1
            words = [w for w in m.group(1).split() if not re.fullmatch(r"\[code=-?\d+\]", w)]  # ninja >= 1.12
            target = words[0] if words else "?"
            out.append((Path(target), f"FAILED: {target}\n" + "\n".join(body)))
        else:
            i += 1
    return out


def sizes(plat: Platform, files: list[Path]) -> dict[str, int]:
    """.text/.data/.bss summed over object files or an ELF, with the platform's `size`."""
    tool = plat.tool("size") if plat.tools_prefix else "size"
    if not files:
        return {"text": 0, "data": 0, "bss": 0}
    proc = subprocess.run([tool, "-t", *map(str, files)], capture_output=True, text=True)
    if proc.returncode != 0:
        raise PqlabError(f"{tool} failed: {proc.stderr.strip()}")
    last = proc.stdout.strip().splitlines()[-1].split()
    return {"text": int(last[0]), "data": int(last[1]), "bss": int(last[2])}
