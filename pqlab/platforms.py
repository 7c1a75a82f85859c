"""Platforms: `platforms/<name>/platform.toml` describes toolchain, flags, runner and timer."""

from __future__ import annotations

import os
import platform as _platform
import shutil
import subprocess
import tomllib
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path

from pqlab import ROOT, PqlabError

PLATFORM_DIR = ROOT / "platforms"
PATH_ENV = "PQLAB_PLATFORM_PATH"  # colon-separated folders of platforms outside the tree
RUNNER_KINDS = ("native", "qemu-system", "qemu-user", "pqlab-sim", "valgrind", "serial", "verilator")

_extra_paths: list[Path] = []  # --platform-path folders of the running command, in order


@dataclass(frozen=True)
class Platform:
    name: str
    dir: Path
    description: str
    arch: str
    core: str
    cc: str
    tools_prefix: str
    packages: tuple[str, ...]
    cflags: tuple[str, ...]
    ldflags: tuple[str, ...]
    sources: tuple[Path, ...]
    clock_hz: int
    flash_bytes: int
    ram_bytes: int
    fpr: str
    runner_kind: str
    runner_command: tuple[str, ...]
    runner_packages: tuple[str, ...]
    timeout_s: float
    timer_name: str
    timer_unit: str
    timer_note: str
    raw: dict = field(default_factory=dict, compare=False, hash=False)
    # the tool that sees secret-dependent branches, addresses and syscalls of this platform's
    # runs (`ct_checker` in platform.toml; "" when none: `pqlab ct` refuses the platform)
    ct_checker: str = ""
    # the toolchain the platform is built with (pqlab/toolchains.py): "gcc" is platform.toml's
    # own compiler; another toolchain compiles with its `cc` and `cflags` and may link with
    # another driver (`link_cc` with `link_cflags`, e.g. the platform's GCC for its C library);
    # `asm_cc`: the driver (with `link_cflags`) for hand-written assembly (.S, .s), "" for `cc`
    toolchain: str = "gcc"
    link_cc: str = ""
    link_cflags: tuple[str, ...] | None = None
    asm_cc: str = ""
    # flags the ct program's build adds (`[ct] cflags` of platform.toml): pqlab-sim's taint
    # tracking needs the marks as calls (-DPQLAB_CT_SIM) and line information (-g)
    ct_cflags: tuple[str, ...] = ()
    # "ct" for the variant that `ct_build` returns: its own build folder
    variant: str = ""
    # where `ldflags` put the program's code (`placement`, e.g. "itcm"), and the link tried
    # when that one fails because a memory region overflowed (`fallback_ldflags`, placing
    # the code at `fallback_placement`, e.g. "flash"); "" and () when the platform has one
    # placement. Each run records the placement its binary was linked with (docs/boards.md).
    placement: str = ""
    fallback_ldflags: tuple[str, ...] = ()
    fallback_placement: str = ""
    # the platform that computes the prerequisite operations of `pqlab bench --ops` (same
    # instruction set and compiler flags, fast): its prepare program's output is the
    # measuring programs' input here (harness/ops.h, docs/interfaces.md section 3); "": run them here
    prepare_on: str = ""
    # the platform whose build this one uses (`build_as` of platform.toml): the same program
    # runs on both (a simulator and the QEMU machine or RTL it models, two CPU models of one
    # instruction set), so it is compiled and linked once; `build_platform` checks the inputs
    build_as: str = ""

    @property
    def needs_board(self) -> bool:
        """Whether runs need hardware attached (a serial runner that flashes a board)."""
        return self.runner_kind == "serial" and "flash" in self.raw.get("runner", {})

    @property
    def runs_here(self) -> bool:
        """Whether this machine can build and run the platform's programs: platform.toml
        `machines` (platform.machine() values, e.g. aarch64-linux's ["aarch64", "arm64"]) names the
        machines a native platform needs; without it, every machine."""
        machines = self.raw.get("machines")
        return not machines or _platform.machine() in machines

    @property
    def build_name(self) -> str:
        """The platform's build folder: each toolchain and variant has its own, so they never undo
        each other."""
        name = self.name if self.toolchain == "gcc" else f"{self.name}+{self.toolchain}"
        return f"{name}~{self.variant}" if self.variant else name

    def build_platform(self) -> Platform:
        """The platform whose build folder and inputs build() uses for this one: itself, or its
        `build_as` platform when the two compile and link the same program (refused otherwise).
        The ct variant and other toolchains always build on their own."""
        if not self.build_as or self.variant or self.toolchain != "gcc":
            return self
        owner = get_platform(self.build_as)
        mine, theirs = _build_inputs(self), _build_inputs(owner)
        if mine != theirs:
            diff = [k for k in mine if mine[k] != theirs[k]]
            raise PqlabError(
                f"platform {self.name}: build_as = {self.build_as!r} builds other programs "
                f"({', '.join(diff)} differ); remove build_as or make them equal"
            )
        return owner

    def ct_build(self) -> Platform:
        """The platform as `pqlab ct` builds for it: with its `[ct] cflags`, in its own build folder
        (the same platform where the marks need no extra flags, host-ct)."""
        if not self.ct_cflags:
            return self
        return replace(self, cflags=self.cflags + self.ct_cflags, variant="ct")

    def unit_of(self, timer: str) -> str:
        """The unit of what a run's program reported as its timer (its header line): [timer] unit
        for [timer] name, the fallback's unit for [timer] fallback's name (aarch64-linux: the
        PMU counter unavailable, clock-monotonic in ns), else [timer] unit."""
        fb = self.raw.get("timer", {}).get("fallback")
        if fb and timer == fb["name"] and timer != self.timer_name:
            return fb["unit"]
        return self.timer_unit

    def portable_build(self) -> Platform:
        """The platform without its native backends (platform.toml `backends`,
        `backends_on_machine`): the portable C only, in its own build folder (`pqlab estimate
        --portable`, the C side of a C / NEON comparison)."""
        raw = {k: v for k, v in self.raw.items() if k not in ("backends", "backends_on_machine")}
        return replace(self, raw=raw, variant="portable")

    def subst(self, items, **extra) -> list[str]:
        values = {"platform_dir": str(self.dir), "root": str(ROOT), **extra}
        return [s.format(**values) for s in items]

    def tool(self, name: str) -> str:
        return self.tools_prefix + name

    def check_toolchain(self) -> None:
        """Raise with the Debian package to install when the compiler is missing."""
        for cc in (self.cc, self.link_cc):
            if cc and shutil.which(cc) is None:
                raise PqlabError(
                    f"platform {self.name}: compiler '{cc}' not found; "
                    f"install it with: apt-get install --no-install-recommends {' '.join(self.packages)}"
                )

    def check_runner(self) -> None:
        if self.runner_kind == "native":
            return
        if self.runner_kind == "serial":
            from pqlab.serial import executable, install_hint

            exe = executable(self)
            if shutil.which(exe) is None and not Path(exe).exists():
                raise PqlabError(f"platform {self.name}: '{exe}' not found; install it with: {install_hint(self)}")
            return
        if self.runner_kind == "verilator":
            from pqlab import rtl

            rtl.verilator_version()  # raises with the package to install
            rtl.package(rtl.spec(self))
            return
        exe = self.runner_command[0].format(root=str(ROOT))
        if shutil.which(exe) is None and not Path(exe).exists():
            hint = (
                f"apt-get install --no-install-recommends {' '.join(self.runner_packages)}"
                if self.runner_packages
                else "see the README"
            )
            raise PqlabError(f"platform {self.name}: runner '{exe}' not found; install it with: {hint}")


@cache
def simulator_model(exe: str, machine: tuple[str, ...] = ()) -> str:
    """The simulator's own statement of its version and timing model (`pqlab-sim [--machine M]
    --version`)."""
    try:
        out = subprocess.run([exe, *machine, "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise PqlabError(f"cannot ask {exe} for its timing model: {e}") from e
    if out.returncode != 0 or not out.stdout.strip():
        raise PqlabError(f"{exe} --version failed: {out.stderr.strip()}")
    return out.stdout.strip()


def model(plat: Platform) -> str:
    """Timing model of a simulated platform; for an RTL platform what its exact figures come
    from (package version, upstream commit, Verilator, test bench hash); "" for everything else."""
    if plat.runner_kind == "verilator":
        from pqlab import rtl

        return rtl.describe(plat)
    if plat.runner_kind != "pqlab-sim":
        return ""
    cmd = plat.subst(plat.runner_command, elf="{elf}")
    # the machine decides the timing model (Cortex-M4/M7 or CV32E40P): `--machine M --version`
    machine = cmd[cmd.index("--machine") : cmd.index("--machine") + 2] if "--machine" in cmd else []
    return simulator_model(cmd[0], tuple(machine))


# checker -> the runner kind it needs
CT_CHECKERS = {"valgrind-memcheck": "valgrind", "pqlab-sim-taint": "pqlab-sim"}


def _ct_checker(path: Path, d: dict) -> str:
    checker = d.get("ct_checker", "")
    if checker and checker not in CT_CHECKERS:
        raise PqlabError(f"{path}: unknown ct_checker '{checker}' (known: {', '.join(CT_CHECKERS)})")
    kind = d.get("runner", {}).get("kind", "native")
    if checker and kind != CT_CHECKERS[checker]:
        raise PqlabError(f"{path}: ct_checker '{checker}' needs runner kind '{CT_CHECKERS[checker]}', not '{kind}'")
    return checker


def _strings(path: Path, d: dict, key: str) -> list[str]:
    v = d.get(key, [])
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise PqlabError(f"{path}: '{key}' must be a list of strings, not {v!r}")
    return v


def _check_schema(path: Path, d: dict) -> None:
    """Types of the keys every consumer relies on, so that a user's platform.toml fails here
    with its file and key named, not later in the build with a Python traceback."""
    for key in ("name", "arch", "cc"):
        if key not in d:
            raise PqlabError(f"{path}: missing key '{key}'")
    for key in ("name", "arch", "cc", "core", "description", "tools_prefix", "fpr"):
        if key in d and not isinstance(d[key], str):
            raise PqlabError(f"{path}: '{key}' must be a string, not {d[key]!r}")
    if not d["name"] or not all(c.isalnum() or c in "-_." for c in d["name"]):
        raise PqlabError(f"{path}: platform name {d['name']!r} must be letters, digits, '-', '_' or '.'")
    for key in ("packages", "cflags", "ldflags", "sources", "backends", "fallback_ldflags"):
        _strings(path, d, key)
    bom = d.get("backends_on_machine", {})
    if not isinstance(bom, dict):
        raise PqlabError(f"{path}: 'backends_on_machine' must be a table of machine = [backends]")
    for machine in bom:
        _strings(path, bom, machine)
    for key in ("placement", "fallback_placement", "prepare_on", "build_as"):
        if key in d and (not isinstance(d[key], str) or not d[key]):
            raise PqlabError(f"{path}: '{key}' must be a non-empty string, not {d[key]!r}")
    if "fallback_ldflags" in d and not ("placement" in d and "fallback_placement" in d):
        raise PqlabError(
            f"{path}: 'fallback_ldflags' needs 'placement' and 'fallback_placement' (what each link places)"
        )
    for key in ("clock_hz", "flash_bytes", "ram_bytes"):
        if key in d and (not isinstance(d[key], int) or d[key] < 0):
            raise PqlabError(f"{path}: '{key}' must be a non-negative integer, not {d[key]!r}")
    for table in ("runner", "timer"):
        if table in d and not isinstance(d[table], dict):
            raise PqlabError(f"{path}: [{table}] must be a table")
    fb = d.get("timer", {}).get("fallback")
    if fb is not None and not (
        isinstance(fb, dict) and set(fb) == {"name", "unit"} and all(isinstance(v, str) and v for v in fb.values())
    ):
        raise PqlabError(f'{path}: [timer] fallback must be {{ name = "...", unit = "..." }}, not {fb!r}')
    runner = d.get("runner", {})
    kind = runner.get("kind", "native")
    if kind not in RUNNER_KINDS:
        raise PqlabError(f"{path}: unknown runner kind {kind!r} (known: {', '.join(RUNNER_KINDS)})")
    _strings(path, runner, "command")
    t = runner.get("timeout_s", 600)
    if isinstance(t, bool) or not isinstance(t, int | float) or t <= 0:
        raise PqlabError(f"{path}: [runner] timeout_s must be a positive number, not {t!r}")
    for s in d.get("sources", []):
        f = path.parent / s.format(root=str(ROOT))
        if not f.is_file():
            raise PqlabError(f"{path}: source {s!r} not found (looked for {f})")


def _build_inputs(p: Platform) -> dict:
    """What decides the programs a platform's build produces, with paths normalised (two
    platform folders name one linker script through different relative paths)."""

    def paths(flags) -> tuple[str, ...]:
        return tuple(f[:2] + os.path.normpath(f[2:]) if f.startswith(("-T", "-L")) else f for f in p.subst(flags))

    return {
        "arch": p.arch,
        "cc": p.cc,
        "tools_prefix": p.tools_prefix,
        "cflags": p.cflags,
        "ldflags": paths(p.ldflags),
        "fallback_ldflags": paths(p.fallback_ldflags),
        "sources": tuple(s.resolve() for s in p.sources),
        "fpr": p.fpr,
        "backends": (p.raw.get("backends"), p.raw.get("backends_on_machine")),
        "placement": (p.placement, p.fallback_placement),
        "prepare_on": p.prepare_on,
    }


def _load(path: Path) -> Platform:
    try:
        d = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as e:
        raise PqlabError(f"{path}: invalid TOML: {e}") from e
    except OSError as e:
        raise PqlabError(f"{path}: cannot read: {e}") from e
    _check_schema(path, d)
    try:
        runner = d.get("runner", {})
        timer = d.get("timer", {})
        return Platform(
            name=d["name"],
            dir=path.parent,
            description=d.get("description", ""),
            arch=d["arch"],
            core=d.get("core", d["arch"]),
            cc=d["cc"],
            tools_prefix=d.get("tools_prefix", ""),
            packages=tuple(d.get("packages", [])),
            cflags=tuple(d.get("cflags", [])),
            ldflags=tuple(d.get("ldflags", [])),
            sources=tuple(path.parent / s.format(root=str(ROOT)) for s in _strings(path, d, "sources")),
            clock_hz=int(d.get("clock_hz", 0)),
            flash_bytes=int(d.get("flash_bytes", 0)),
            ram_bytes=int(d.get("ram_bytes", 0)),
            fpr=d.get("fpr", "emulated"),
            runner_kind=runner.get("kind", "native"),
            runner_command=tuple(runner.get("command", ["{elf}"])),
            runner_packages=tuple(runner.get("packages", [])),
            timeout_s=float(runner.get("timeout_s", 600)),
            timer_name=timer.get("name", "unknown"),
            timer_unit=timer.get("unit", "cycles"),
            timer_note=timer.get("note", ""),
            raw=d,
            ct_checker=_ct_checker(path, d),
            ct_cflags=tuple(d.get("ct", {}).get("cflags", [])),
            placement=d.get("placement", ""),
            fallback_ldflags=tuple(d.get("fallback_ldflags", [])),
            fallback_placement=d.get("fallback_placement", ""),
            prepare_on=d.get("prepare_on", ""),
            build_as=d.get("build_as", ""),
        )
    except KeyError as e:
        raise PqlabError(f"{path}: missing key {e}") from e


def add_platform_path(folder: str | Path) -> None:
    """Add a folder of platforms outside the tree (`--platform-path`), checked when loaded."""
    p = Path(folder).expanduser().absolute()
    if p not in _extra_paths:
        _extra_paths.append(p)


def clear_platform_paths() -> None:
    _extra_paths.clear()


def platform_paths() -> list[tuple[Path, str]]:
    """The extra platform folders in search order, each with where it was named: the
    `--platform-path` options first, then $PQLAB_PLATFORM_PATH (empty entries ignored)."""
    out = [(p, "--platform-path") for p in _extra_paths]
    for entry in os.environ.get(PATH_ENV, "").split(os.pathsep):
        if entry.strip():
            p = Path(entry).expanduser().absolute()
            if p not in [q for q, _ in out]:
                out.append((p, f"${PATH_ENV}"))
    return out


def _folder_tomls(folder: Path, source: str) -> list[Path]:
    """platform.toml files of one extra folder: the folder itself is a platform folder, or it
    holds platform folders (one level down)."""
    if not folder.is_dir():
        raise PqlabError(f"platform folder {folder} (from {source}) does not exist or is not a folder")
    if (folder / "platform.toml").is_file():
        return [folder / "platform.toml"]
    found = sorted(folder.glob("*/platform.toml"))
    if not found:
        raise PqlabError(
            f"platform folder {folder} (from {source}) holds no platform.toml, "
            "neither itself nor in a sub-folder (docs/platforms.md, 'Platforms outside the tree')"
        )
    return found


def all_platforms() -> dict[str, Platform]:
    """The built-in platforms, then those of the extra folders. A name may be defined once:
    an extra platform never replaces a built-in one or another extra one silently."""
    out: dict[str, Platform] = {}
    for p in sorted(PLATFORM_DIR.glob("*/platform.toml")):
        plat = _load(p)
        out[plat.name] = plat
    for folder, source in platform_paths():
        for p in _folder_tomls(folder, source):
            plat = _load(p)
            if plat.name in out:
                other = out[plat.name].dir
                what = "a built-in platform" if other.parent == PLATFORM_DIR else "another platform"
                raise PqlabError(
                    f"{p} (from {source}): platform name '{plat.name}' clashes with {what} in {other}; "
                    "give it another name"
                )
            out[plat.name] = plat
    return out


def get_platform(name: str) -> Platform:
    plats = all_platforms()
    if name not in plats:
        from pqlab.registry import close_matches

        raise PqlabError(f"unknown platform '{name}'{close_matches(name, plats)}")
    return plats[name]


def default_platform() -> str:
    """The simulated Cortex-M4 once pqlab-sim exists; QEMU's Cortex-M4 until then."""
    plats = all_platforms()
    return "m4-sim" if "m4-sim" in plats else "mps2-an386"
